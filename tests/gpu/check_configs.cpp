// Issue 38 on the GPU: every configuration of the GEMM samples that declare configs= (matmul_bt
// and matmul, bf16), launched one by one through <k>_launch_config, against a CPU reference in
// double precision, at ragged shapes (M, N, K not multiples of any tile; M = 1; N or K below
// one tile), outputs poisoned first; also the launch's own choice, and that a forced launch of an
// index past the configurations is refused. Split-K configurations (split_k=) get a workspace of
// <k>_workspace_bytes, poisoned too (the partials kernel must write every element the reduce
// kernel reads); a launch without one must not take them, and a forced one must be refused.
// --small: the shapes compute-sanitizer runs.
//   check_configs [--small]
// Headers: tests/gpu/make_config_headers.sh.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "check_util.h"
#include "cfg_matmul.h"
#include "cfg_matmul_bt.h"

namespace {

// The workspace arguments of a launch: the header's launch functions take them last when a
// configuration of the kernel is split-K.
struct Workspace {
  CUdeviceptr p = 0;
  size_t bytes = 0;
};

// C = A @ B (b_nk: B stored [N, K], C = A @ B^T), every config forced, then the choice.
// `launch(config, ws, a, b, c, M, K, N)` launches configuration `config` (-1: the choice).
template <typename Launch>
void check_gemm(const char* name, bool b_nk, int num_configs, Launch launch, size_t ws_bytes, int64_t M, int64_t N,
                int64_t K, std::mt19937_64& rng) {
  std::vector<float> a(size_t(M * K)), b(size_t(N * K));
  fill(a, rng, -1, 1);
  fill(b, rng, -1, 1);
  std::vector<uint8_t> ab = pack(a, Ty::BF16), bb = pack(b, Ty::BF16);
  std::vector<double> ar = unpack(ab, Ty::BF16), br = unpack(bb, Ty::BF16), ref(size_t(M * N));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k) s += ar[size_t(i * K + k)] * br[size_t(b_nk ? j * K + k : k * N + j)];
      ref[size_t(i * N + j)] = s;
    }
  Buffer da(ab.size()), db(bb.size()), dc(size_t(M * N) * 2), dw(ws_bytes);
  da.put(ab);
  db.put(bb);
  Workspace ws{dw.p, ws_bytes};
  for (int c = -1; c < num_configs; ++c) {
    poison(dc);
    poison(dw);
    CUresult r = launch(c, ws, da.p, db.p, dc.p, M, K, N);
    char what[160];
    std::snprintf(what, sizeof what, "%s %s M=%lld N=%lld K=%lld [%s]", name,
                  c < 0 ? "choice" : ("config " + std::to_string(c)).c_str(), (long long)M, (long long)N,
                  (long long)K, g_last_entry);
    if (r != CUDA_SUCCESS) {
      std::printf("FAIL %s: launch returned %d\n", what, int(r));
      ++failures;
      continue;
    }
    CHECK_CU(cuCtxSynchronize());
    std::vector<uint8_t> out = dc.get<uint8_t>(size_t(M * N) * 2);
    report_rel(what, rel_error(unpack(out, Ty::BF16), ref), tolerance(Ty::BF16));
  }
  if (launch(num_configs, ws, da.p, db.p, dc.p, M, K, N) != CUDA_ERROR_INVALID_VALUE) {
    std::printf("FAIL %s: a forced launch of configuration %d (past the last) was not refused\n", name, num_configs);
    ++failures;
  }
  if (ws_bytes == 0) return;
  // Without a workspace: the choice runs (no split-K configuration), a forced split-K one is refused.
  poison(dc);
  CUresult r = launch(-1, Workspace{}, da.p, db.p, dc.p, M, K, N);
  char what[160];
  std::snprintf(what, sizeof what, "%s choice without workspace M=%lld N=%lld K=%lld [%s]", name, (long long)M,
                (long long)N, (long long)K, g_last_entry);
  if (r != CUDA_SUCCESS || std::strstr(g_last_entry, "tilec_reduce")) {
    std::printf("FAIL %s: returned %d\n", what, int(r));
    ++failures;
  } else {
    CHECK_CU(cuCtxSynchronize());
    report_rel(what, rel_error(unpack(dc.get<uint8_t>(size_t(M * N) * 2), Ty::BF16), ref), tolerance(Ty::BF16));
  }
  for (int c = 0; c < num_configs; ++c)
    if (launch(c, Workspace{dw.p, ws_bytes - 1}, da.p, db.p, dc.p, M, K, N) == CUDA_ERROR_INVALID_VALUE)
      return;  // a split-K configuration refused a workspace one byte short
  std::printf("FAIL %s: no configuration refused a workspace of %zu bytes (one short)\n", name, ws_bytes - 1);
  ++failures;
}

}  // namespace

int main(int argc, char** argv) {
  bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  use_device_0_with_cc();
  std::mt19937_64 rng(std::random_device{}());
  std::vector<std::vector<int64_t>> shapes = {{1, 77, 64}, {77, 130, 200}, {130, 300, 72}, {1, 1000, 1000}};
  if (!small) shapes.insert(shapes.end(), {{1000, 1030, 1500}, {257, 4100, 520}, {2000, 700, 96}});
  auto bt = [](int c, Workspace w, CUdeviceptr a, CUdeviceptr b, CUdeviceptr o, int64_t M, int64_t K, int64_t N) {
    return c < 0 ? cfg_matmul_bt(nullptr, a, b, o, M, K, N, w.p, w.bytes)
                 : cfg_matmul_bt_launch_config(c, nullptr, a, b, o, M, K, N, w.p, w.bytes);
  };
  auto mm = [](int c, Workspace w, CUdeviceptr a, CUdeviceptr b, CUdeviceptr o, int64_t M, int64_t K, int64_t N) {
    return c < 0 ? cfg_matmul(nullptr, a, b, o, M, K, N, w.p, w.bytes)
                 : cfg_matmul_launch_config(c, nullptr, a, b, o, M, K, N, w.p, w.bytes);
  };
  for (const auto& s : shapes) {
    check_gemm("matmul_bt", true, cfg_matmul_bt_metadata.num_configs, bt,
               cfg_matmul_bt_workspace_bytes(s[0], s[2], s[1]), s[0], s[1], s[2], rng);
    check_gemm("matmul", false, cfg_matmul_metadata.num_configs, mm, cfg_matmul_workspace_bytes(s[0], s[2], s[1]),
               s[0], s[1], s[2], rng);
  }
  std::printf("%s: %d failures\n", failures ? "FAILED" : "all configurations ok", failures);
  return failures ? 1 : 0;
}
