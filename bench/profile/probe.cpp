// Launches one configuration of attention.tile or matmul_bt.tile a few times, for Nsight
// Compute (bench/profile/run_ncu.sh). The header is included by the build line:
//   g++ -O2 -std=c++17 -DPROBE_ATTENTION=cfg_a128_attention -DHEAD_DIM=128 -include HEADER
//       -Itests/gpu bench/profile/probe.cpp -I$CUDA/include -lcuda -o probe_attn
//   g++ -O2 -std=c++17 -DPROBE_GEMM=cfg_matmul_bt -include HEADER -Itests/gpu bench/profile/probe.cpp ...
// Usage:  probe_attn CONFIG B H HK S       probe_gemm CONFIG M N K
// Inputs are bf16 0.5 everywhere (cuMemsetD16 0x3F00): values do not change the instruction
// stream of either kernel. 5 launches; profile the last (ncu --launch-skip 4).
#include <cstdlib>

#include "cuda_check.h"  // tests/gpu: CHECK_CU, use_device_0

#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)

static CUdeviceptr filled(size_t elements) {
  CUdeviceptr p;
  CHECK_CU(cuMemAlloc(&p, elements * 2 + 256));
  CHECK_CU(cuMemsetD16(p, 0x3F00, elements + 128));
  return p;
}

int main(int argc, char** argv) {
  use_device_0();
#if defined(PROBE_ATTENTION)
  if (argc != 6) return std::fprintf(stderr, "usage: %s CONFIG B H HK S\n", argv[0]), 2;
  int config = atoi(argv[1]);
  int64_t B = atoll(argv[2]), H = atoll(argv[3]), HK = atoll(argv[4]), S = atoll(argv[5]);
  CUdeviceptr q = filled(size_t(B * H * S * HEAD_DIM)), k = filled(size_t(B * HK * S * HEAD_DIM));
  CUdeviceptr v = filled(size_t(B * HK * S * HEAD_DIM)), o = filled(size_t(B * H * S * HEAD_DIM));
  for (int i = 0; i < 5; ++i)
    CHECK_CU(XCAT(PROBE_ATTENTION, _launch_config)(config, 0, q, k, v, o, B, H, S, HK, 0.088f));
#elif defined(PROBE_GEMM)
  if (argc != 5) return std::fprintf(stderr, "usage: %s CONFIG M N K\n", argv[0]), 2;
  int config = atoi(argv[1]);
  int64_t M = atoll(argv[2]), N = atoll(argv[3]), K = atoll(argv[4]);
  CUdeviceptr a = filled(size_t(M * K)), b = filled(size_t(N * K)), c = filled(size_t(M * N));
  size_t ws = XCAT(PROBE_GEMM, _workspace_bytes)(M, K, N);
  CUdeviceptr w = 0;
  if (ws) CHECK_CU(cuMemAlloc(&w, ws));
  for (int i = 0; i < 5; ++i) CHECK_CU(XCAT(PROBE_GEMM, _launch_config)(config, 0, a, b, c, M, K, N, w, ws));
#else
#error "define PROBE_ATTENTION or PROBE_GEMM"
#endif
  CHECK_CU(cuCtxSynchronize());
  std::printf("ok\n");
  return 0;
}
