// Issue 38 on the GPU: every configuration of the GEMM samples that declare configs= (matmul_bt
// and matmul, bf16), launched one by one through <k>_launch_config, against a CPU reference in
// double precision, at ragged shapes (M, N, K not multiples of any tile; M = 1; N or K below
// one tile), outputs poisoned first; also the launch's own choice, and that a forced launch of an
// index past the configurations is refused. --small: the shapes compute-sanitizer runs.
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

// C = A @ B (b_nk: B stored [N, K], C = A @ B^T), every config forced, then the choice.
template <typename Launch, typename Forced>
void check_gemm(const char* name, bool b_nk, int num_configs, Launch launch, Forced forced, int64_t M, int64_t N,
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
  Buffer da(ab.size()), db(bb.size()), dc(size_t(M * N) * 2);
  da.put(ab);
  db.put(bb);
  for (int c = -1; c < num_configs; ++c) {
    poison(dc);
    CUresult r = c < 0 ? launch(nullptr, da.p, db.p, dc.p, M, K, N) : forced(c, nullptr, da.p, db.p, dc.p, M, K, N);
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
  if (forced(num_configs, nullptr, da.p, db.p, dc.p, M, K, N) != CUDA_ERROR_INVALID_VALUE) {
    std::printf("FAIL %s: a forced launch of configuration %d (past the last) was not refused\n", name, num_configs);
    ++failures;
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  use_device_0_with_cc();
  std::mt19937_64 rng(std::random_device{}());
  std::vector<std::vector<int64_t>> shapes = {{1, 77, 64}, {77, 130, 200}, {130, 300, 72}, {1, 1000, 1000}};
  if (!small) shapes.insert(shapes.end(), {{1000, 1030, 1500}, {257, 4100, 520}, {2000, 700, 96}});
  for (const auto& s : shapes) {
    check_gemm("matmul_bt", true, cfg_matmul_bt_metadata.num_configs, cfg_matmul_bt, cfg_matmul_bt_launch_config,
               s[0], s[1], s[2], rng);
    check_gemm("matmul", false, cfg_matmul_metadata.num_configs, cfg_matmul, cfg_matmul_launch_config, s[0], s[1],
               s[2], rng);
  }
  std::printf("%s: %d failures\n", failures ? "FAILED" : "all configurations ok", failures);
  return failures ? 1 : 0;
}
