// GPU correctness of issue 16's shape samples through their generated headers (not in CI: needs
// a GPU): samples/batched_matmul.tile (bf16, batch 1 to 512), samples/linear_decode.tile (Y = X
// @ W^T for few tokens, W stored [N, K]) and samples/matmul_splitk.tile (f32 partials over S
// slices of K, then splitk_reduce). Fresh random inputs each run, outputs poisoned first,
// results compared with a float64 CPU reference of the rounded inputs; the path each launch took
// is checked (tma_wgmma on a 9.0 device when every row is 16-byte aligned and no extent is 0).
// Exits non-zero on any mismatch.
//   check_shapes [--small]     (--small: the sizes that compute-sanitizer runs)
// Headers (tests/gpu/make_headers.sh): batched_matmul_bf16.h (bmmbf_), batched_matmul_bf16_128.h
// (bmmbf128_), linear_decode.h (ld_), linear_decode_m64.h (ldm64_), matmul_splitk.h (sk_),
// matmul_splitk_256.h (sk256_).
#include "check_util.h"  // before the generated headers: TILEC_TRACE_LAUNCH

#include <chrono>
#include <tuple>

#include "batched_matmul_bf16.h"
#include "batched_matmul_bf16_128.h"
#include "linear_decode.h"
#include "linear_decode_m64.h"
#include "matmul_splitk.h"
#include "matmul_splitk_256.h"

namespace {

// Random bf16 inputs of n elements in [-1, 1): device buffer and the values the kernel sees.
struct Input {
  Buffer dev;
  std::vector<double> values;
  Input(size_t n, std::mt19937_64& rng) : dev(n * 2) {
    std::vector<float> v(n);
    fill(v, rng, -1.f, 1.f);
    std::vector<uint8_t> packed = pack(v, Ty::BF16);
    CHECK_CU(cuMemcpyHtoD(dev.p, packed.data(), packed.size()));
    values = unpack(packed, Ty::BF16);
  }
};

std::vector<double> download_bf16(const Buffer& b) {
  std::vector<uint8_t> h(b.bytes);
  CHECK_CU(cuMemcpyDtoH(h.data(), b.p, h.size()));
  return unpack(h, Ty::BF16);
}

// Rows are 16-byte aligned when the innermost extents are multiples of 8 bf16 elements: the
// tma_wgmma path on a 9.0 device (with every extent at least 1).
bool wgmma_expected(bool aligned, bool nonempty) { return g_device_cc == 90 && aligned && nonempty; }

std::string dims(std::initializer_list<int64_t> d) {
  std::string s;
  for (int64_t x : d) s += (s.empty() ? "" : "x") + std::to_string(x);
  return s;
}

using BatchedKernel = CUresult (*)(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, int64_t, int64_t, int64_t, int64_t);

// C[z] = A[z] @ B[z], A [batch, M, K], B [batch, K, N].
void check_batched(const char* name, BatchedKernel kernel, int64_t batch, int64_t M, int64_t N, int64_t K,
                   std::mt19937_64& rng) {
  Input a(size_t(batch * M * K), rng), b(size_t(batch * K * N), rng);
  Buffer c(size_t(batch * M * N) * 2);
  poison(c);
  CHECK_CU(kernel(nullptr, a.dev.p, b.dev.p, c.p, batch, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  std::string what = std::string(name) + " " + dims({batch, M, N, K}) + " [" + g_last_entry + "]";
  expect_path(what, wgmma_expected(K % 8 == 0 && N % 8 == 0, K > 0));
  std::vector<double> ref(size_t(batch * M * N), 0.0);
  for (int64_t z = 0; z < batch; ++z)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < K; ++k) {
        double x = a.values[size_t((z * M + i) * K + k)];
        const double* brow = &b.values[size_t((z * K + k) * N)];
        double* crow = &ref[size_t((z * M + i) * N)];
        for (int64_t j = 0; j < N; ++j) crow[j] += x * brow[j];
      }
  report_rel(what, rel_error(download_bf16(c), ref), tolerance(Ty::BF16));
}

using DecodeKernel = CUresult (*)(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, int64_t, int64_t, int64_t);

// Y = X @ W^T, X [M, K], W [N, K] (nn.Linear's weight), Y [M, N].
void check_decode(const char* name, DecodeKernel kernel, int64_t M, int64_t N, int64_t K, std::mt19937_64& rng) {
  Input x(size_t(M * K), rng), w(size_t(N * K), rng);
  Buffer y(size_t(M * N) * 2);
  poison(y);
  CHECK_CU(kernel(nullptr, x.dev.p, w.dev.p, y.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  std::string what = std::string(name) + " M=" + std::to_string(M) + " N=" + std::to_string(N) +
                     " K=" + std::to_string(K) + " [" + g_last_entry + "]";
  expect_path(what, wgmma_expected(K % 8 == 0 && N % 8 == 0, K > 0 && M > 0));
  std::vector<double> ref(size_t(M * N), 0.0);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k) s += x.values[size_t(i * K + k)] * w.values[size_t(j * K + k)];
      ref[size_t(i * N + j)] = s;
    }
  report_rel(what, rel_error(download_bf16(y), ref), tolerance(Ty::BF16));
}

using PartialKernel = CUresult (*)(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, int64_t, int64_t, int64_t, int64_t);
using ReduceKernel = CUresult (*)(CUstream, CUdeviceptr, CUdeviceptr, int64_t, int64_t, int64_t);

// C = A @ B through S slices of K: matmul_splitk into the f32 workspace P [S, M, N], then
// splitk_reduce. Launched twice: the two results must be bit-identical (no atomics).
void check_splitk(const char* name, PartialKernel partial, ReduceKernel reduce, int64_t M, int64_t N, int64_t K,
                  int64_t S, std::mt19937_64& rng) {
  Input a(size_t(M * K), rng), b(size_t(K * N), rng);
  Buffer p(size_t(S * M * N) * 4), c(size_t(M * N) * 2);
  std::string what = std::string(name) + " " + dims({M, N, K}) + " S=" + std::to_string(S);
  std::vector<double> first;
  for (int run = 0; run < 2; ++run) {
    poison(p);
    poison(c);
    CHECK_CU(partial(nullptr, a.dev.p, b.dev.p, p.p, M, K, N, S));
    if (run == 0) {
      what += std::string(" [") + g_last_entry + "]";
      expect_path(what, wgmma_expected(K % 8 == 0 && N % 8 == 0, K > 0 && M > 0 && N > 0));
    }
    CHECK_CU(reduce(nullptr, p.p, c.p, S, M, N));
    CHECK_CU(cuCtxSynchronize());
    std::vector<double> got = download_bf16(c);
    if (run == 0) {
      first = got;
      continue;
    }
    size_t differ = 0;
    for (size_t i = 0; i < got.size(); ++i) differ += !(got[i] == first[i]);
    report((what + " twice, bit-identical").c_str(), got.size(), differ, 0, 0);
  }
  std::vector<double> ref(size_t(M * N), 0.0);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t k = 0; k < K; ++k) {
      double x = a.values[size_t(i * K + k)];
      for (int64_t j = 0; j < N; ++j) ref[size_t(i * N + j)] += x * b.values[size_t(k * N + j)];
    }
  if (K == 0) {  // zeros: exact
    size_t bad = 0;
    for (size_t i = 0; i < first.size(); ++i) bad += first[i] != 0.0;
    report(what.c_str(), first.size(), bad, 0, 0);
  } else {
    report_rel(what, rel_error(first, ref), tolerance(Ty::BF16));
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  if (argc > 2 || (argc == 2 && !small)) {
    std::fprintf(stderr, "usage: check_shapes [--small]\n");
    return 2;
  }
  use_device_0_with_cc();
  std::mt19937_64 rng(uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));

  // batched_matmul: batch 1, 3 and 512 (the grid's y axis); ragged M and N, K not a multiple of
  // BK, unaligned rows (K = 70: the portable path), more K tiles than stages.
  for (auto [batch, M, N, K] : {std::tuple<int64_t, int64_t, int64_t, int64_t>{1, 130, 264, 520}, {3, 130, 200, 70},
                                {3, 257, 136, 72}, {512, 70, 136, 64}, {1, 17, 33, 1001}}) {
    check_batched("batched_matmul bf16 128x256", bmmbf_batched_matmul, batch, M, N, K, rng);
    check_batched("batched_matmul bf16 128x128", bmmbf128_batched_matmul, batch, M, N, K, rng);
  }
  if (!small) check_batched("batched_matmul bf16 128x256", bmmbf_batched_matmul, 2, 1000, 1024, 2056, rng);

  // linear_decode: M = 1, 5, 16 tokens (MT = 16), 40 (three token blocks); ragged N; K past the
  // stages (8 of 128) and not a multiple of BK; unaligned K (the portable path); the MT = 64 build.
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{16, 200, 1000}, {1, 136, 264}, {5, 1001, 2056},
                         {40, 264, 520}, {16, 100, 1001}, {3, 64, 8}}) {
    check_decode("linear_decode MT=16", ld_linear_decode, M, N, K, rng);
    check_decode("linear_decode MT=64", ldm64_linear_decode, M, N, K, rng);
  }
  check_decode("linear_decode MT=64", ldm64_linear_decode, 64, 512, 1032, rng);
  if (!small) check_decode("linear_decode MT=16", ld_linear_decode, 16, 8192, 8192, rng);

  // matmul_splitk + splitk_reduce: S = 1, 3, 16 and 20 (two loads of SP = 16 partials in the
  // reduction), more slices than K tiles (empty slices store zeros), ragged edges, unaligned
  // rows (the portable path), K = 0 (zeros, the portable path: tensor maps need extents >= 1).
  for (auto [M, N, K, S] : {std::tuple<int64_t, int64_t, int64_t, int64_t>{300, 264, 4100, 16}, {130, 200, 1032, 3},
                            {130, 200, 1032, 20}, {64, 136, 200, 40}, {17, 33, 1001, 5}, {130, 200, 0, 4},
                            {256, 512, 2048, 1}}) {
    check_splitk("matmul_splitk 128x128", sk_matmul_splitk, sk_splitk_reduce, M, N, K, S, rng);
    check_splitk("matmul_splitk 128x256", sk256_matmul_splitk, sk256_splitk_reduce, M, N, K, S, rng);
  }
  if (!small) check_splitk("matmul_splitk 128x128", sk_matmul_splitk, sk_splitk_reduce, 512, 512, 16384, 8, rng);
  std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
