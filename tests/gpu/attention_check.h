// samples/attention.tile's checks on the GPU, shared by check_samples.cpp (every header's launch
// choice) and check_configs.cpp (every configuration through the forced launch): [B, heads, S, D]
// views in three memory layouts, fresh random inputs, O and LSE poisoned first, a float64
// reference of O and LSE from the same rounded inputs, and the code path each launch took.
// Include after check_util.h (fill, pack, Buffer, report_rel, expect_path).
#pragma once

#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check_util.h"

namespace {

// samples/attention.tile's launch functions, one set per header (prefix): the dense form of
// `attention`, the strided forms of `attention` and `attention_lse`, and the strided forced
// launches of one configuration (k_launch_config_strided, docs/tuning.md).
using AttentionDense = CUresult (*)(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, CUdeviceptr, int64_t, int64_t,
                                    int64_t, int64_t, float);
using AttentionStrided = CUresult (*)(CUstream, CUdeviceptr, const int64_t*, const int64_t*, CUdeviceptr,
                                      const int64_t*, const int64_t*, CUdeviceptr, const int64_t*, const int64_t*,
                                      CUdeviceptr, const int64_t*, const int64_t*, float);
using AttentionLseStrided = CUresult (*)(CUstream, CUdeviceptr, const int64_t*, const int64_t*, CUdeviceptr,
                                         const int64_t*, const int64_t*, CUdeviceptr, const int64_t*, const int64_t*,
                                         CUdeviceptr, const int64_t*, const int64_t*, CUdeviceptr, const int64_t*,
                                         const int64_t*, float);
using AttentionForced = CUresult (*)(int, CUstream, CUdeviceptr, const int64_t*, const int64_t*, CUdeviceptr,
                                     const int64_t*, const int64_t*, CUdeviceptr, const int64_t*, const int64_t*,
                                     CUdeviceptr, const int64_t*, const int64_t*, float);
using AttentionLseForced = CUresult (*)(int, CUstream, CUdeviceptr, const int64_t*, const int64_t*, CUdeviceptr,
                                        const int64_t*, const int64_t*, CUdeviceptr, const int64_t*, const int64_t*,
                                        CUdeviceptr, const int64_t*, const int64_t*, CUdeviceptr, const int64_t*,
                                        const int64_t*, float);
struct AttentionHeader {
  const char* name;
  AttentionDense dense;
  AttentionStrided strided;
  AttentionLseStrided lse;
  AttentionForced forced;
  AttentionLseForced forced_lse;
  int num_configs;  // attention's configurations (attention_lse declares the same ones)
  Ty t;
  int64_t D;
  bool causal;
  bool hopper;  // sm_90a among its targets (the default target): the tma_wgmma path on a 9.0 device
};
#define ATTENTION_HEADER(p, ...)                                                                                \
  AttentionHeader {                                                                                             \
    #p, p##attention, p##attention_strided, p##attention_lse_strided, p##attention_launch_config_strided,       \
        p##attention_lse_launch_config_strided, p##attention_metadata.num_configs, __VA_ARGS__                  \
  }

// How the test lays out the [B, heads, S, D] views in memory: contiguous [B, heads, S, D]
// (passed through the dense form when there is no LSE), PyTorch's [B, S, heads, D] seen through
// its transposed view (strides (S*heads*D, D, heads*D, 1)), or [B, heads, S, D] with rows of
// D + 3 elements (not 16-byte multiples: the general variant of the portable path).
enum class AttLayout { BHSD, BSHD, PaddedRows };
// LSE: none (`attention`), [B, H, S] contiguous, or rows padded to a multiple of 4 (16 bytes).
enum class AttLse { None, Dense, PaddedRows };

struct AttentionCase {
  int64_t B, H, HK, S;
  AttLayout layout;
  AttLse lse;
  bool big = false;  // Q scaled so the logits reach about +-50: the online max matters
};

// A strided view's extents and strides, and the elements its buffer holds.
struct View {
  int64_t shape[4], strides[4];
  int rank;
  size_t elems;
  size_t at(const int64_t* i) const {
    size_t o = 0;
    for (int k = 0; k < rank; ++k) o += size_t(i[k] * strides[k]);
    return o;
  }
};
inline View attention_view(int64_t B, int64_t heads, int64_t S, int64_t D, AttLayout l) {
  int64_t row = l == AttLayout::PaddedRows ? D + 3 : D;
  if (l == AttLayout::BSHD) return {{B, heads, S, D}, {S * heads * D, D, heads * D, 1}, 4, size_t(B * S * heads * D)};
  return {{B, heads, S, D}, {heads * S * row, S * row, row, 1}, 4, size_t(B * heads * S * row)};
}
// The header's rule for the vectorized variant (docs/header.md), which the tma_wgmma path needs:
// stride 1 innermost, the other strides of extents > 1 multiples of 16 bytes (bases from
// cuMemAlloc are aligned).
inline bool aligned16(const View& v, size_t elem_bytes) {
  for (int k = 0; k < v.rank; ++k)
    if (v.shape[k] > 1 && (k == v.rank - 1 ? v.strides[k] != 1 : (size_t(v.strides[k]) * elem_bytes) % 16 != 0))
      return false;
  return true;
}

// Fills a view's buffer (padding included) and returns it rounded to `t`, packed.
inline std::vector<uint8_t> attention_input(const View& v, Ty t, float lo, float hi, std::mt19937_64& rng,
                                            std::vector<double>& rounded_out) {
  std::vector<float> x(v.elems);
  fill(x, rng, lo, hi);
  rounded_out = rounded(x, t);
  return pack(x, t);
}

// O = softmax(Q K^T * scale [+ top-left causal mask]) V per (batch, head), query head h reading
// K/V head h / (H / HK), and LSE = log(sum exp(scores)) per row, in float64 from the rounded
// inputs: ref [B, H, S, D] and lse_ref [B, H, S], dense.
inline void attention_reference(const AttentionCase& c, int64_t D, bool causal, const View& vq, const View& vk,
                                const std::vector<double>& qr, const std::vector<double>& kr,
                                const std::vector<double>& vr, double scale, std::vector<double>& ref,
                                std::vector<double>& lse_ref) {
  const int64_t B = c.B, H = c.H, HK = c.HK, S = c.S;
  ref.assign(size_t(B * H * S * D), 0.0);
  lse_ref.assign(size_t(B * H * S), 0.0);
  std::vector<double> s(static_cast<size_t>(S));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      int64_t g = h / (H / HK);
      for (int64_t i = 0; i < S; ++i) {
        int64_t n = causal ? i + 1 : S;  // top-left causal: key j <= query i
        int64_t qi[4] = {b, h, i, 0};
        size_t q0 = vq.at(qi);
        double m = -INFINITY, sum = 0;
        for (int64_t j = 0; j < n; ++j) {
          int64_t kj[4] = {b, g, j, 0};
          size_t k0 = vk.at(kj);
          double d = 0;
          for (int64_t e = 0; e < D; ++e) d += qr[q0 + size_t(e)] * kr[k0 + size_t(e)];
          s[size_t(j)] = d * scale;
          m = std::max(m, s[size_t(j)]);
        }
        for (int64_t j = 0; j < n; ++j) sum += (s[size_t(j)] = std::exp(s[size_t(j)] - m));
        size_t r = size_t(((b * H + h) * S + i) * D);
        for (int64_t j = 0; j < n; ++j) {
          int64_t vj[4] = {b, g, j, 0};
          size_t v0 = vk.at(vj);
          for (int64_t e = 0; e < D; ++e) ref[r + size_t(e)] += s[size_t(j)] / sum * vr[v0 + size_t(e)];
        }
        lse_ref[size_t((b * H + h) * S + i)] = m + std::log(sum);
      }
    }
}

// One attention case on a header: inputs and the reference once, then one launch per entry of
// `configs` (-1: the launch function's own choice; i >= 0: configuration i forced through
// k_launch_config_strided), each on poisoned outputs, checked against the reference, for
// elements written outside the views, and for the code path it took (the header's rule: the
// tma_wgmma path on a 9.0 device when every array is 16-byte aligned).
inline void check_attention(const AttentionHeader& hdr, const AttentionCase& c, std::mt19937_64& rng,
                            const std::vector<int>& configs = {-1}) {
  const int64_t B = c.B, H = c.H, HK = c.HK, S = c.S, D = hdr.D;
  Ty t = hdr.t;
  size_t es = ty_bytes(t);
  View vq = attention_view(B, H, S, D, c.layout), vk = attention_view(B, HK, S, D, c.layout), vo = vq;
  int64_t lse_row = c.lse == AttLse::PaddedRows ? (S + 3) / 4 * 4 : S;
  View vl{{B, H, S, 0}, {H * lse_row, lse_row, 1, 0}, 3, size_t(B * H * lse_row)};
  std::vector<double> qr, kr, vr;
  std::vector<uint8_t> hq = attention_input(vq, t, c.big ? -8.f : -1.f, c.big ? 8.f : 1.f, rng, qr);
  std::vector<uint8_t> hk = attention_input(vk, t, -1.f, 1.f, rng, kr), hv = attention_input(vk, t, -1.f, 1.f, rng, vr);
  std::vector<uint8_t> ho(vo.elems * es), hl(vl.elems * 4);
  Buffer dq(hq.size()), dk(hk.size()), dv(hv.size()), dout(ho.size()), dlse(hl.size());
  CHECK_CU(cuMemcpyHtoD(dq.p, hq.data(), hq.size()));
  CHECK_CU(cuMemcpyHtoD(dk.p, hk.data(), hk.size()));
  CHECK_CU(cuMemcpyHtoD(dv.p, hv.data(), hv.size()));
  float scale = float(1.0 / std::sqrt(double(D)));
  std::vector<double> ref, lse_ref;
  attention_reference(c, D, hdr.causal, vq, vk, qr, kr, vr, scale, ref, lse_ref);
  bool aligned = aligned16(vq, es) && aligned16(vk, es) && (c.lse == AttLse::None || aligned16(vl, 4));

  for (int config : configs) {
    poison(dout);
    poison(dlse);
    CUresult r;
    if (config >= 0 && c.lse != AttLse::None)
      r = hdr.forced_lse(config, nullptr, dq.p, vq.shape, vq.strides, dk.p, vk.shape, vk.strides, dv.p, vk.shape,
                         vk.strides, dout.p, vo.shape, vo.strides, dlse.p, vl.shape, vl.strides, scale);
    else if (config >= 0)
      r = hdr.forced(config, nullptr, dq.p, vq.shape, vq.strides, dk.p, vk.shape, vk.strides, dv.p, vk.shape,
                     vk.strides, dout.p, vo.shape, vo.strides, scale);
    else if (c.lse != AttLse::None)
      r = hdr.lse(nullptr, dq.p, vq.shape, vq.strides, dk.p, vk.shape, vk.strides, dv.p, vk.shape, vk.strides, dout.p,
                  vo.shape, vo.strides, dlse.p, vl.shape, vl.strides, scale);
    else if (c.layout == AttLayout::BHSD)
      r = hdr.dense(nullptr, dq.p, dk.p, dv.p, dout.p, B, H, S, HK, scale);
    else
      r = hdr.strided(nullptr, dq.p, vq.shape, vq.strides, dk.p, vk.shape, vk.strides, dv.p, vk.shape, vk.strides,
                      dout.p, vo.shape, vo.strides, scale);
    std::string what = std::string(hdr.name) + (c.lse != AttLse::None ? "attention_lse " : "attention ") +
                       (config >= 0 ? "config " + std::to_string(config) + " " : "") + ty_name(t) +
                       " B=" + std::to_string(B) + " H=" + std::to_string(H) + " HK=" + std::to_string(HK) +
                       " S=" + std::to_string(S) + " D=" + std::to_string(D) + (hdr.causal ? " causal" : "") +
                       (c.layout == AttLayout::BSHD ? " [B,S,H,D]" : c.layout == AttLayout::PaddedRows ? " rows+3" : "") +
                       (c.lse == AttLse::PaddedRows ? " LSE rows%4" : "") + (c.big ? " large logits" : "");
    if (r != CUDA_SUCCESS) {
      std::printf("FAIL %s: launch returned %d\n", what.c_str(), int(r));
      ++failures;
      continue;
    }
    CHECK_CU(cuCtxSynchronize());
    expect_path(what, g_device_cc == 90 && hdr.hopper && aligned);
    CHECK_CU(cuMemcpyDtoH(ho.data(), dout.p, ho.size()));
    CHECK_CU(cuMemcpyDtoH(hl.data(), dlse.p, hl.size()));

    std::vector<double> got(ref.size()), lse_got(lse_ref.size());
    std::vector<double> out = unpack(ho, t);
    std::vector<bool> in_view(vo.elems, false), in_lse(vl.elems, false);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < S; ++i) {
          int64_t qi[4] = {b, h, i, 0};
          size_t o0 = vo.at(qi), r0 = size_t(((b * H + h) * S + i) * D);
          for (int64_t e = 0; e < D; ++e) {
            got[r0 + size_t(e)] = out[o0 + size_t(e)];
            in_view[o0 + size_t(e)] = true;
          }
          int64_t li[3] = {b, h, i};
          size_t l0 = vl.at(li);
          float l;
          std::memcpy(&l, &hl[l0 * 4], 4);
          lse_got[size_t((b * H + h) * S + i)] = l;
          in_lse[l0] = true;
        }
    report_rel(what, rel_error(got, ref), t == Ty::BF16 ? 2e-2 : 5e-3);
    // Outside the views: O's padding (rows+3) and LSE's padded rows, or all of LSE for attention.
    size_t touched = 0;
    for (size_t k = 0; k < vo.elems; ++k)
      if (!in_view[k] && std::any_of(&ho[k * es], &ho[k * es] + es, [](uint8_t x) { return x != 0xff; })) ++touched;
    for (size_t k = 0; k < vl.elems; ++k)
      if ((c.lse == AttLse::None || !in_lse[k]) &&
          std::any_of(&hl[k * 4], &hl[k * 4] + 4, [](uint8_t x) { return x != 0xff; }))
        ++touched;
    if (touched) {
      std::printf("FAIL %s: %zu elements outside the output views were written\n", what.c_str(), touched);
      ++failures;
    }
    if (c.lse != AttLse::None) {
      // f32 scores from exact products of the rounded inputs, f32 sums: the LSE is within a few
      // units of f32 rounding of a value of size log(S) + max score. A key too many or too few
      // (a masking bug) moves it by about 1 / S (1e-3 at S = 1000).
      double worst = 0;
      for (size_t k = 0; k < lse_ref.size(); ++k)
        worst = std::isnan(lse_got[k]) ? INFINITY : std::max(worst, std::fabs(lse_got[k] - lse_ref[k]));
      std::printf("%-34s %s  LSE max abs err %.2e (bound 1e-4)\n", what.c_str(), worst <= 1e-4 ? "ok  " : "FAIL", worst);
      if (!(worst <= 1e-4)) ++failures;
    }
  }
}

}  // namespace
