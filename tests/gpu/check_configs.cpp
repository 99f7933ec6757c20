// Issue 38 on the GPU: every configuration of the samples that declare configs=, launched one by
// one through <k>_launch_config (the forced launch), and the launch's own choice, against CPU
// references, outputs poisoned first; and that a forced launch of an index past the
// configurations is refused. Split-K configurations (split_k=: matmul_bt, matmul) get a workspace
// of <k>_workspace_bytes, poisoned too (the partials kernel must write every element the reduce
// kernel reads); a launch without one must not take them, and one byte short must be refused.
//   - the GEMMs in bf16 (matmul_bt, matmul, matmul_bias_relu, batched_matmul) against a double
//     reference at ragged shapes (M, N, K not multiples of any tile; M = 1; N or K below one tile);
//   - matmul_f8 (e4m3, sm_90a) with f8_matmul_check.h's error bound;
//   - attention and attention_lse (bf16; D 64 and 128, full and causal) with attention_check.h:
//     S = 1, under one tile, ragged, several key tiles of every configuration; multi-head [B, H, S, D] and grouped-query
//     [B, S, H, D] views (the tma_wgmma path on a 9.0 device, LSE in 16-byte rows), and rows of
//     D + 3 elements (the portable path's general variant).
// --small: the shapes compute-sanitizer runs. --only=attention | --only=gemm: one part.
//   check_configs [--small] [--only=attention | --only=gemm]
// Headers: tests/gpu/make_config_headers.sh.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "check_util.h"  // before the generated headers: TILEC_TRACE_LAUNCH
#include "attention_check.h"
#include "f8_matmul_check.h"
#include "cfg_attention_d128.h"
#include "cfg_attention_d128_causal.h"
#include "cfg_attention_d128_causal_persistent.h"
#include "cfg_attention_d128_persistent.h"
#include "cfg_attention_d64.h"
#include "cfg_attention_d64_causal.h"
#include "cfg_batched_matmul.h"
#include "cfg_matmul.h"
#include "cfg_matmul_bias_relu.h"
#include "cfg_matmul_bt.h"
#include "cfg_matmul_f8.h"

namespace {

// What a GEMM sample computes beside C[z] = A[z] @ B[z].
enum class Gemm { Plain, BT, BiasRelu, Batched };

// The workspace arguments of a launch (the header's launch functions take them last when a
// configuration of the kernel is split-K; ignored by the others).
struct Workspace {
  CUdeviceptr p = 0;
  size_t bytes = 0;
};

// A launch of one GEMM sample: config -1 is the launch function's own choice, i >= 0 the forced
// launch of configuration i. bias is 0 where the kernel has none; batch is 1 where it has none.
using GemmLaunch = std::function<CUresult(int config, Workspace w, CUdeviceptr A, CUdeviceptr B, CUdeviceptr bias,
                                          CUdeviceptr C, int64_t batch, int64_t M, int64_t K, int64_t N)>;

// C = A @ B (BT: B stored [N, K], C = A @ B^T; BiasRelu: relu(A @ B + bias); Batched: batch
// products) in bf16 against double, every configuration forced, then the choice.
void check_gemm(const char* name, Gemm kind, int num_configs, const GemmLaunch& launch, size_t ws_bytes, int64_t M,
                int64_t N, int64_t K, std::mt19937_64& rng) {
  int64_t batch = kind == Gemm::Batched ? 3 : 1;
  std::vector<float> a(size_t(batch * M * K)), b(size_t(batch * N * K)), bias(static_cast<size_t>(N));
  fill(a, rng, -1, 1);
  fill(b, rng, -1, 1);
  fill(bias, rng, -4, 4);  // about the size of a sum over K: relu clips a good part of C
  std::vector<uint8_t> ab = pack(a, Ty::BF16), bb = pack(b, Ty::BF16), biasb = pack(bias, Ty::BF16);
  std::vector<double> ar = unpack(ab, Ty::BF16), br = unpack(bb, Ty::BF16), biasr = unpack(biasb, Ty::BF16);
  std::vector<double> ref(size_t(batch * M * N));
  for (int64_t z = 0; z < batch; ++z)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double s = 0;
        for (int64_t k = 0; k < K; ++k)
          s += ar[size_t((z * M + i) * K + k)] *
               br[size_t(kind == Gemm::BT ? j * K + k : (z * K + k) * N + j)];
        if (kind == Gemm::BiasRelu) s = std::max(s + biasr[size_t(j)], 0.0);
        ref[size_t((z * M + i) * N + j)] = s;
      }
  Buffer da(ab.size()), db(bb.size()), dbias(biasb.size()), dc(size_t(batch * M * N) * 2), dw(ws_bytes);
  Workspace ws{dw.p, ws_bytes};
  da.put(ab);
  db.put(bb);
  dbias.put(biasb);
  CUdeviceptr bias_p = kind == Gemm::BiasRelu ? dbias.p : 0;
  for (int c = -1; c < num_configs; ++c) {
    poison(dc);
    poison(dw);
    CUresult r = launch(c, ws, da.p, db.p, bias_p, dc.p, batch, M, K, N);
    char what[160];
    std::snprintf(what, sizeof what, "%s %s%s M=%lld N=%lld K=%lld [%s]", name,
                  c < 0 ? "choice" : ("config " + std::to_string(c)).c_str(),
                  kind == Gemm::Batched ? (" batch=" + std::to_string(batch)).c_str() : "", (long long)M,
                  (long long)N, (long long)K, g_last_entry);
    if (r != CUDA_SUCCESS) {
      std::printf("FAIL %s: launch returned %d\n", what, int(r));
      ++failures;
      continue;
    }
    CHECK_CU(cuCtxSynchronize());
    std::vector<uint8_t> out = dc.get<uint8_t>(size_t(batch * M * N) * 2);
    report_rel(what, rel_error(unpack(out, Ty::BF16), ref), tolerance(Ty::BF16));
  }
  if (launch(num_configs, ws, da.p, db.p, bias_p, dc.p, batch, M, K, N) != CUDA_ERROR_INVALID_VALUE) {
    std::printf("FAIL %s: a forced launch of configuration %d (past the last) was not refused\n", name, num_configs);
    ++failures;
  }
  if (ws_bytes == 0) return;
  // Without a workspace: the choice runs (no split-K configuration), a forced split-K one is refused.
  poison(dc);
  CUresult r = launch(-1, Workspace{}, da.p, db.p, bias_p, dc.p, batch, M, K, N);
  char what[160];
  std::snprintf(what, sizeof what, "%s choice without workspace M=%lld N=%lld K=%lld [%s]", name, (long long)M,
                (long long)N, (long long)K, g_last_entry);
  if (r != CUDA_SUCCESS || std::strstr(g_last_entry, "tilec_reduce")) {
    std::printf("FAIL %s: returned %d\n", what, int(r));
    ++failures;
  } else {
    CHECK_CU(cuCtxSynchronize());
    report_rel(what, rel_error(unpack(dc.get<uint8_t>(size_t(batch * M * N) * 2), Ty::BF16), ref),
               tolerance(Ty::BF16));
  }
  for (int c = 0; c < num_configs; ++c)
    if (launch(c, Workspace{dw.p, ws_bytes - 1}, da.p, db.p, bias_p, dc.p, batch, M, K, N) == CUDA_ERROR_INVALID_VALUE)
      return;  // a split-K configuration refused a workspace one byte short
  std::printf("FAIL %s: no configuration refused a workspace of %zu bytes (one short)\n", name, ws_bytes - 1);
  ++failures;
}

// The GEMM samples' launch functions as GemmLaunch (the choice for config -1), with the
// workspace arguments.
template <typename Choice, typename Forced>
GemmLaunch two_operands(Choice choice, Forced forced) {
  return [=](int c, Workspace w, CUdeviceptr A, CUdeviceptr B, CUdeviceptr, CUdeviceptr C, int64_t, int64_t M,
             int64_t K, int64_t N) {
    return c < 0 ? choice(nullptr, A, B, C, M, K, N, w.p, w.bytes) : forced(c, nullptr, A, B, C, M, K, N, w.p, w.bytes);
  };
}

void check_gemms(bool small, std::mt19937_64& rng) {
  GemmLaunch bias_relu = [](int c, Workspace, CUdeviceptr A, CUdeviceptr B, CUdeviceptr bias, CUdeviceptr C, int64_t,
                            int64_t M, int64_t K, int64_t N) {
    return c < 0 ? cfg_matmul_bias_relu(nullptr, A, B, bias, C, M, K, N)
                 : cfg_matmul_bias_relu_launch_config(c, nullptr, A, B, bias, C, M, K, N);
  };
  GemmLaunch batched = [](int c, Workspace, CUdeviceptr A, CUdeviceptr B, CUdeviceptr, CUdeviceptr C, int64_t batch,
                          int64_t M, int64_t K, int64_t N) {
    return c < 0 ? cfg_batched_matmul(nullptr, A, B, C, batch, M, K, N)
                 : cfg_batched_matmul_launch_config(c, nullptr, A, B, C, batch, M, K, N);
  };
  std::vector<std::vector<int64_t>> shapes = {{1, 77, 64}, {77, 130, 200}, {130, 300, 72}, {1, 1000, 1000}};
  if (!small) shapes.insert(shapes.end(), {{1000, 1030, 1500}, {257, 4100, 520}, {2000, 700, 96}});
  for (const auto& s : shapes) {
    check_gemm("matmul_bt", Gemm::BT, cfg_matmul_bt_metadata.num_configs,
               two_operands(cfg_matmul_bt, cfg_matmul_bt_launch_config),
               cfg_matmul_bt_workspace_bytes(s[0], s[2], s[1]), s[0], s[1], s[2], rng);
    check_gemm("matmul", Gemm::Plain, cfg_matmul_metadata.num_configs,
               two_operands(cfg_matmul, cfg_matmul_launch_config), cfg_matmul_workspace_bytes(s[0], s[2], s[1]),
               s[0], s[1], s[2], rng);
    check_gemm("matmul_bias_relu", Gemm::BiasRelu, cfg_matmul_bias_relu_metadata.num_configs, bias_relu, 0, s[0],
               s[1], s[2], rng);
    check_gemm("batched_matmul", Gemm::Batched, cfg_batched_matmul_metadata.num_configs, batched, 0, s[0], s[1],
               s[2], rng);
  }
  // matmul_f8 (sm_90a alone: f8 needs sm_89+): K a multiple of 16 and 2 N of 16 runs the
  // tma_wgmma path, the others the portable one (check_matmul checks which for the choice).
  std::vector<std::vector<int64_t>> f8_shapes = {{1, 136, 128}, {200, 136, 200}, {300, 500, 512}};
  if (!small) f8_shapes.push_back({1000, 1030, 2048});
  for (const auto& s : f8_shapes)
    for (int c = -1; c < cfg_matmul_f8_metadata.num_configs; ++c) {
      std::string name = "matmul_f8 " + (c < 0 ? std::string("choice") : "config " + std::to_string(c));
      check_matmul(name.c_str(),
                   [c](CUstream st, CUdeviceptr A, CUdeviceptr B, CUdeviceptr SA, CUdeviceptr SB, CUdeviceptr C,
                       int64_t M, int64_t K, int64_t N) {
                     return c < 0 ? cfg_matmul_f8(st, A, B, SA, SB, C, M, K, N)
                                  : cfg_matmul_f8_launch_config(c, st, A, B, SA, SB, C, M, K, N);
                   },
                   s[0], s[1], s[2], false, 0, rng);
    }
}

// Every configuration of the attention headers (and the choice) on each case.
void check_attentions(bool small, std::mt19937_64& rng) {
  const AttentionHeader headers[] = {
      ATTENTION_HEADER(cfg_a64_, Ty::BF16, 64, false, true),
      ATTENTION_HEADER(cfg_a64c_, Ty::BF16, 64, true, true),
      ATTENTION_HEADER(cfg_a128_, Ty::BF16, 128, false, true),
      ATTENTION_HEADER(cfg_a128c_, Ty::BF16, 128, true, true),
      ATTENTION_HEADER(cfg_a128p_, Ty::BF16, 128, false, true),
      ATTENTION_HEADER(cfg_a128pc_, Ty::BF16, 128, true, true),
  };
  // S = 1; 130: ragged, two key tiles of every configuration; 77 and 777: under one query tile,
  // and several.
  std::vector<int64_t> lengths = small ? std::vector<int64_t>{1, 130} : std::vector<int64_t>{1, 77, 130, 777};
  for (const AttentionHeader& hdr : headers) {
    std::vector<int> configs = {-1};
    for (int c = 0; c < hdr.num_configs; ++c) configs.push_back(c);
    for (int64_t S : lengths) {
      check_attention(hdr, {2, 3, 3, S, AttLayout::BHSD, AttLse::None}, rng, configs);
      check_attention(hdr, {1, 8, 2, S, AttLayout::BSHD, AttLse::PaddedRows}, rng, configs);
      check_attention(hdr, {1, 2, 1, S, AttLayout::PaddedRows, AttLse::Dense}, rng, configs);
    }
    if (!small) check_attention(hdr, {1, 2, 2, 300, AttLayout::BHSD, AttLse::Dense, true}, rng, configs);
    // More query tiles than SMs (7 x 8 x 4 = 224 of 128 rows): a persistent grid's CTAs take
    // several tiles each, reloading Q and running on through the ring.
    if (!small) check_attention(hdr, {4, 8, 2, 777, AttLayout::BHSD, AttLse::Dense}, rng, configs);
    // A configuration past the last is refused, by both kernels.
    View v = attention_view(1, 1, 64, hdr.D, AttLayout::BHSD);
    View l{{1, 1, 64, 0}, {64, 64, 1, 0}, 3, 64};
    Buffer dummy(v.elems * 2), lse(256);
    if (hdr.forced(hdr.num_configs, nullptr, dummy.p, v.shape, v.strides, dummy.p, v.shape, v.strides, dummy.p,
                   v.shape, v.strides, dummy.p, v.shape, v.strides, 0.125f) != CUDA_ERROR_INVALID_VALUE ||
        hdr.forced_lse(hdr.num_configs, nullptr, dummy.p, v.shape, v.strides, dummy.p, v.shape, v.strides, dummy.p,
                       v.shape, v.strides, dummy.p, v.shape, v.strides, lse.p, l.shape, l.strides,
                       0.125f) != CUDA_ERROR_INVALID_VALUE) {
      std::printf("FAIL %sattention: a forced launch of configuration %d (past the last) was not refused\n", hdr.name,
                  hdr.num_configs);
      ++failures;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool small = false, gemm = true, attention = true;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0) small = true;
    else if (std::strcmp(argv[i], "--only=attention") == 0) gemm = false;
    else if (std::strcmp(argv[i], "--only=gemm") == 0) attention = false;
    else {
      std::fprintf(stderr, "usage: check_configs [--small] [--only=attention | --only=gemm]\n");
      return 2;
    }
  }
  use_device_0_with_cc();
  std::mt19937_64 rng(std::random_device{}());
  if (gemm) check_gemms(small, rng);
  if (attention) check_attentions(small, rng);
  std::printf("%s: %d failures\n", failures ? "FAILED" : "all configurations ok", failures);
  return failures ? 1 : 0;
}
