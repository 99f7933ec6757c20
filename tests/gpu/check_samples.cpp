// GPU correctness of the compiled samples through their generated headers (not in CI: needs a
// GPU). Fresh random inputs each run, outputs poisoned first, results compared with a float64
// CPU reference. Exits non-zero on any mismatch.
//   check_samples [--small] [--only=f16acc | --only=attention] [--tiny] [--jit]
//     --small: only the ragged sizes that compute-sanitizer runs; --only=f16acc: only the
//     f16-accumulator kernels (check_f16_accumulators); --only=attention: only
//     samples/attention.tile (check_attention_headers); --tiny: a few attention cases, for
//     racecheck and synccheck; --jit: the tensor-core subset to run under CUDA_FORCE_PTX_JIT=1
//     (the driver compiles the images' PTX: the portable path)
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "check_util.h"  // before the generated headers: TILEC_TRACE_LAUNCH
#include "attention_check.h"
#include "attention.h"
#include "attention_variants.h"
#include "batched_matmul.h"
#include "cumsum_rows.h"
#include "cumsum_rows_narrow.h"
#include "embedding_gather.h"
#include "embedding_gather_bf16.h"
#include "gelu_bias.h"
#include "histogram.h"
#include "histogram_1k.h"
#include "hopper.h"
#include "matmul_bf16.h"
#include "matmul_bias_relu_f16.h"
#include "matmul_bt.h"
#include "matmul_epilogue.h"
#include "matmul_epilogue_f16.h"
#include "matmul_i8.h"
#include "matmul_f16.h"
#include "matmul_tf32.h"
#include "layernorm_bf16.h"
#include "layernorm_f16.h"
#include "rmsnorm_bf16.h"
#include "softmax_f16.h"
#include "softmax_f16_32k.h"
#include "softmax_f32.h"
#include "sum_rows.h"
#include "transpose.h"
#include "vector_add.h"

namespace {

void check_vector_add(size_t n, std::mt19937_64& rng, const char* mode) {
  std::vector<float> a(n), b(n), c(n);
  fill(a, rng, -1000.f, 1000.f);
  fill(b, rng, -1000.f, 1000.f);
  Buffer da(n * 4), db(n * 4), dc(n * 4);
  CHECK_CU(cuMemcpyHtoD(da.p, a.data(), n * 4));
  CHECK_CU(cuMemcpyHtoD(db.p, b.data(), n * 4));
  poison(dc);
  std::string what = std::string("vector_add ") + mode;
  if (std::strcmp(mode, "dense") == 0) {
    CHECK_CU(vector_add(nullptr, da.p, db.p, dc.p, int64_t(n)));
  } else {
    // The strided form on the same dense arrays (vectorized variant chosen by the stub).
    int64_t shape[1] = {int64_t(n)}, strides[1] = {1};
    CHECK_CU(vector_add_strided(nullptr, da.p, shape, strides, db.p, shape, strides, dc.p, shape, strides));
  }
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(c.data(), dc.p, n * 4));
  size_t bad = 0, first = 0;
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    float ref = float(double(a[i]) + double(b[i]));  // f32 addition is correctly rounded
    double err = std::fabs(double(c[i]) - double(ref));
    if (!(c[i] == ref)) {
      if (!bad) first = i;
      ++bad;
    }
    worst = std::max(worst, err);
  }
  report(what.c_str(), n, bad, worst, first);
}

// Strided and unaligned views: the general variant.
void check_vector_add_views(size_t n, std::mt19937_64& rng) {
  // a is every other element of a 2n buffer; b starts one element into its buffer (unaligned);
  // c is dense. Elements of a's buffer between the view's elements must stay untouched.
  std::vector<float> a2(2 * n), b1(n + 1), c(n);
  fill(a2, rng, -10.f, 10.f);
  fill(b1, rng, -10.f, 10.f);
  Buffer da(2 * n * 4), db((n + 1) * 4), dc(n * 4);
  CHECK_CU(cuMemcpyHtoD(da.p, a2.data(), 2 * n * 4));
  CHECK_CU(cuMemcpyHtoD(db.p, b1.data(), (n + 1) * 4));
  poison(dc);
  int64_t shape[1] = {int64_t(n)}, s2[1] = {2}, s1[1] = {1};
  CHECK_CU(vector_add_strided(nullptr, da.p, shape, s2, db.p + 4, shape, s1, dc.p, shape, s1));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(c.data(), dc.p, n * 4));
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i) {
    float ref = float(double(a2[2 * i]) + double(b1[i + 1]));
    if (!(c[i] == ref)) {
      if (!bad) first = i;
      ++bad;
    }
  }
  report("vector_add strided+unaligned", n, bad, 0, first);
}

double gelu_ref(double v) {
  const double k = std::sqrt(2.0 / M_PI);
  return 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)));
}

void check_gelu(size_t n, std::mt19937_64& rng) {
  std::vector<float> x(n), w(n), b(n), out(n);
  fill(x, rng, -4.f, 4.f);
  fill(w, rng, -2.f, 2.f);
  fill(b, rng, -1.f, 1.f);
  Buffer dx(n * 4), dw(n * 4), dbb(n * 4), dout(n * 4);
  CHECK_CU(cuMemcpyHtoD(dx.p, x.data(), n * 4));
  CHECK_CU(cuMemcpyHtoD(dw.p, w.data(), n * 4));
  CHECK_CU(cuMemcpyHtoD(dbb.p, b.data(), n * 4));
  poison(dout);
  CHECK_CU(gelu_bias(nullptr, dx.p, dw.p, dbb.p, dout.p, int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(out.data(), dout.p, n * 4));
  // Bound: f32 rounding of the few operations (a few ulp of |v|, where the 1 + tanh cancels)
  // plus tanh's error (docs/language.md: <= 3 ulp). 2^-17 relative to |v| + |ref| is ~64 ulp.
  size_t bad = 0, first = 0;
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    double v = double(x[i]) * double(w[i]) + double(b[i]);
    double ref = gelu_ref(v);
    double err = std::fabs(double(out[i]) - ref) / (std::fabs(v) + std::fabs(ref) + 1e-30);
    if (!(err <= std::ldexp(1.0, -17))) {
      if (!bad) first = i;
      ++bad;
    }
    if (err > worst || std::isnan(err)) worst = std::isnan(err) ? INFINITY : err;
  }
  report("gelu_bias", n, bad, worst, first);
}

using RowKernel = CUresult (*)(CUstream, CUdeviceptr, CUdeviceptr, int64_t, int64_t);

void check_softmax(RowKernel k, Ty t, int64_t M, int64_t N, std::mt19937_64& rng) {
  std::vector<float> x(size_t(M * N));
  fill(x, rng, -8.f, 8.f);
  std::vector<double> xr = rounded(x, t);
  std::vector<uint8_t> hx = pack(x, t), hy(hx.size());
  Buffer dx(hx.size()), dy(hx.size());
  CHECK_CU(cuMemcpyHtoD(dx.p, hx.data(), hx.size()));
  poison(dy);
  CHECK_CU(k(nullptr, dx.p, dy.p, M, N));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(hy.data(), dy.p, hy.size()));
  std::vector<double> ref(xr.size());
  for (int64_t i = 0; i < M; ++i) {
    double m = -INFINITY, s = 0;
    for (int64_t j = 0; j < N; ++j) m = std::max(m, xr[size_t(i * N + j)]);
    for (int64_t j = 0; j < N; ++j) s += std::exp(xr[size_t(i * N + j)] - m);
    for (int64_t j = 0; j < N; ++j) ref[size_t(i * N + j)] = std::exp(xr[size_t(i * N + j)] - m) / s;
  }
  report_rel(std::string("softmax ") + ty_name(t) + " " + std::to_string(M) + "x" + std::to_string(N),
             rel_error(unpack(hy, t), ref), tolerance(t));
}

using NormKernel = CUresult (*)(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, CUdeviceptr, CUdeviceptr, CUdeviceptr,
                                int64_t, int64_t);

void check_layernorm(NormKernel k, Ty t, int64_t M, int64_t N, std::mt19937_64& rng) {
  std::vector<float> x(static_cast<size_t>(M * N)), w(static_cast<size_t>(N)), b(static_cast<size_t>(N));
  fill(x, rng, -3.f, 5.f);
  fill(w, rng, 0.5f, 1.5f);
  fill(b, rng, -1.f, 1.f);
  std::vector<double> xr = rounded(x, t), wr = rounded(w, t), br = rounded(b, t);
  std::vector<uint8_t> hx = pack(x, t), hw = pack(w, t), hb = pack(b, t), hy(hx.size());
  Buffer dx(hx.size()), dw(hw.size()), db(hb.size()), dy(hx.size()), dm(size_t(M) * 4), dr(size_t(M) * 4);
  CHECK_CU(cuMemcpyHtoD(dx.p, hx.data(), hx.size()));
  CHECK_CU(cuMemcpyHtoD(dw.p, hw.data(), hw.size()));
  CHECK_CU(cuMemcpyHtoD(db.p, hb.data(), hb.size()));
  poison(dy);
  poison(dm);
  poison(dr);
  CHECK_CU(k(nullptr, dx.p, dw.p, db.p, dy.p, dm.p, dr.p, M, N));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(hy.data(), dy.p, hy.size()));
  std::vector<float> mean(static_cast<size_t>(M)), rstd(static_cast<size_t>(M));
  CHECK_CU(cuMemcpyDtoH(mean.data(), dm.p, size_t(M) * 4));
  CHECK_CU(cuMemcpyDtoH(rstd.data(), dr.p, size_t(M) * 4));
  std::vector<double> ref(xr.size()), rm(static_cast<size_t>(M)), rr(static_cast<size_t>(M)), gm(mean.begin(), mean.end()),
      gr(rstd.begin(), rstd.end());
  for (int64_t i = 0; i < M; ++i) {
    double s = 0, v = 0;
    for (int64_t j = 0; j < N; ++j) s += xr[size_t(i * N + j)];
    double m = s / double(N);
    for (int64_t j = 0; j < N; ++j) v += (xr[size_t(i * N + j)] - m) * (xr[size_t(i * N + j)] - m);
    double r = 1 / std::sqrt(v / double(N) + 1e-5);
    rm[size_t(i)] = m;
    rr[size_t(i)] = r;
    for (int64_t j = 0; j < N; ++j) ref[size_t(i * N + j)] = (xr[size_t(i * N + j)] - m) * r * wr[size_t(j)] + br[size_t(j)];
  }
  std::string what = std::string("layernorm ") + ty_name(t) + " " + std::to_string(M) + "x" + std::to_string(N);
  report_rel(what, rel_error(unpack(hy, t), ref), tolerance(t));
  report_rel(what + " mean", rel_error(gm, rm), 1e-5);
  report_rel(what + " rstd", rel_error(gr, rr), 1e-5);
}

void check_rmsnorm(Ty t, int64_t M, int64_t N, std::mt19937_64& rng) {
  std::vector<float> x(static_cast<size_t>(M * N)), w(static_cast<size_t>(N));
  fill(x, rng, -3.f, 3.f);
  fill(w, rng, 0.5f, 1.5f);
  std::vector<double> xr = rounded(x, t), wr = rounded(w, t);
  std::vector<uint8_t> hx = pack(x, t), hw = pack(w, t), hy(hx.size());
  Buffer dx(hx.size()), dw(hw.size()), dy(hx.size());
  CHECK_CU(cuMemcpyHtoD(dx.p, hx.data(), hx.size()));
  CHECK_CU(cuMemcpyHtoD(dw.p, hw.data(), hw.size()));
  poison(dy);
  CHECK_CU(rmsbf_rmsnorm(nullptr, dx.p, dw.p, dy.p, M, N));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(hy.data(), dy.p, hy.size()));
  std::vector<double> ref(xr.size());
  for (int64_t i = 0; i < M; ++i) {
    double s = 0;
    for (int64_t j = 0; j < N; ++j) s += xr[size_t(i * N + j)] * xr[size_t(i * N + j)];
    double r = 1 / std::sqrt(s / double(N) + 1e-6);
    for (int64_t j = 0; j < N; ++j) ref[size_t(i * N + j)] = xr[size_t(i * N + j)] * r * wr[size_t(j)];
  }
  report_rel(std::string("rmsnorm ") + ty_name(t) + " " + std::to_string(M) + "x" + std::to_string(N),
             rel_error(unpack(hy, t), ref), tolerance(t));
}

void check_sum_rows(int64_t M, int64_t N, std::mt19937_64& rng) {
  std::vector<float> x(size_t(M * N));
  fill(x, rng, -1.f, 1.f);
  Buffer dx(x.size() * 4), dout(size_t(M) * 4);
  CHECK_CU(cuMemcpyHtoD(dx.p, x.data(), x.size() * 4));
  poison(dout);
  CHECK_CU(sum_rows(nullptr, dx.p, dout.p, M, N));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> out(static_cast<size_t>(M));
  CHECK_CU(cuMemcpyDtoH(out.data(), dout.p, size_t(M) * 4));
  std::vector<double> ref(static_cast<size_t>(M)), got(out.begin(), out.end());
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) ref[size_t(i)] += x[size_t(i * N + j)];
  report_rel("sum_rows " + std::to_string(M) + "x" + std::to_string(N), rel_error(got, ref), 1e-5);
}

void check_transpose(int64_t M, int64_t N, std::mt19937_64& rng) {
  std::vector<float> x(size_t(M * N));
  fill(x, rng, -1.f, 1.f);
  for (int variant = 0; variant < 2; ++variant) {
    Buffer dx(x.size() * 4), dy(x.size() * 4);
    CHECK_CU(cuMemcpyHtoD(dx.p, x.data(), x.size() * 4));
    poison(dy);
    if (variant == 0) CHECK_CU(transpose(nullptr, dx.p, dy.p, M, N));
    else CHECK_CU(transpose_tiles(nullptr, dx.p, dy.p, M, N));
    CHECK_CU(cuCtxSynchronize());
    std::vector<float> y(x.size());
    CHECK_CU(cuMemcpyDtoH(y.data(), dy.p, y.size() * 4));
    size_t bad = 0;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) bad += !(y[size_t(j * M + i)] == x[size_t(i * N + j)]);
    report((std::string(variant ? "transpose_tiles " : "transpose ") + std::to_string(M) + "x" + std::to_string(N)).c_str(),
           size_t(M * N), bad, 0, 0);
  }
}

// ---- matmul ---------------------------------------------------------------------------------

float to_tf32(float f) {  // round to nearest, ties away (cvt.rna.tf32.f32)
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u = (u + 0x1000) & 0xffffe000u;
  std::memcpy(&f, &u, 4);
  return f;
}

using MatmulKernel = CUresult (*)(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, int64_t, int64_t, int64_t);

// C = A @ B for A (M, K), B (K, N) of dtype t; `ones` makes every input 1 (exact results).
// C = A @ B for A (M, K), B (K, N) of dtype t; `ones` makes every input 1 (exact results);
// `bt`: B is stored as (N, K) and C = A @ B^T (matmul_bt).
void check_matmul(const char* name, MatmulKernel k, Ty t, int64_t M, int64_t N, int64_t K, std::mt19937_64& rng,
                  bool ones = false, bool bias_relu = false, bool bt = false) {
  std::vector<float> a(static_cast<size_t>(M * K)), b(static_cast<size_t>(K * N)), bias(static_cast<size_t>(N));
  fill(a, rng, -1.f, 1.f);
  fill(b, rng, -1.f, 1.f);
  fill(bias, rng, -1.f, 1.f);
  if (ones) {
    std::fill(a.begin(), a.end(), 1.f);
    std::fill(b.begin(), b.end(), 1.f);
  }
  std::vector<double> ar = rounded(a, t), br = rounded(b, t), biasr = rounded(bias, t);
  if (t == Ty::F32) {  // the kernel rounds f32 operands to tf32
    for (double& v : ar) v = to_tf32(float(v));
    for (double& v : br) v = to_tf32(float(v));
  }
  std::vector<uint8_t> ha = pack(a, t), hb = pack(b, t), hbias = pack(bias, t), hc(size_t(M * N) * ty_bytes(t));
  Buffer da(ha.size()), db(hb.size()), dc(hc.size()), dbias(hbias.size());
  CHECK_CU(cuMemcpyHtoD(da.p, ha.data(), ha.size()));
  CHECK_CU(cuMemcpyHtoD(db.p, hb.data(), hb.size()));
  CHECK_CU(cuMemcpyHtoD(dbias.p, hbias.data(), hbias.size()));
  poison(dc);
  if (bias_relu) CHECK_CU(mbr16_matmul_bias_relu(nullptr, da.p, db.p, dbias.p, dc.p, M, K, N));
  else CHECK_CU(k(nullptr, da.p, db.p, dc.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(hc.data(), dc.p, hc.size()));
  std::vector<double> ref(size_t(M * N), 0.0);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t kk = 0; kk < K; ++kk) {
      double x = ar[size_t(i * K + kk)];
      for (int64_t j = 0; j < N; ++j) ref[size_t(i * N + j)] += x * br[size_t(bt ? j * K + kk : kk * N + j)];
    }
  if (bias_relu)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) ref[size_t(i * N + j)] = std::max(0.0, ref[size_t(i * N + j)] + biasr[size_t(j)]);
  std::vector<double> got = unpack(hc, t);
  std::string what = std::string(name) + " " + ty_name(t) + " " + std::to_string(M) + "x" + std::to_string(N) + "x" +
                     std::to_string(K) + (ones ? " (ones)" : "") + " [" + g_last_entry + "]";
  bool aligned = K % 8 == 0 && N % 8 == 0 && (!bias_relu || N % 8 == 0);
  if (M > 0 && N > 0 && (t == Ty::F16 || t == Ty::BF16))
    expect_path(what, g_device_cc == 90 && aligned && K > 0);
  if (ones || K == 0) {
    size_t bad = 0;
    for (size_t i = 0; i < got.size(); ++i) bad += got[i] != ref[i];
    report(what.c_str(), got.size(), bad, 0, 0);
  } else {
    report_rel(what, rel_error(got, ref), t == Ty::F32 ? 1e-4 : tolerance(t));
  }
}

// matmul.tile with T=i8: C (i32) = A @ B exactly, wrapping like the hardware's s32 sums.
// f16 matmul on row-strided views (language.md §3.6): A, B and C rows `pad` elements longer
// than their extents. pad 8 with K and N multiples of 8 keeps every row 16-byte aligned
// (vectorized variant); pad 3, or K = 1001, does not (general variant). The padding of C must
// keep its poison.
void check_matmul_strided(int64_t M, int64_t N, int64_t K, int64_t pad, std::mt19937_64& rng) {
  int64_t lda = K + pad, ldb = N + pad, ldc = N + pad;
  std::vector<float> a(static_cast<size_t>(M * lda)), b(static_cast<size_t>(K * ldb));
  fill(a, rng, -1.f, 1.f);
  fill(b, rng, -1.f, 1.f);
  std::vector<double> ar = rounded(a, Ty::F16), br = rounded(b, Ty::F16);
  std::vector<uint8_t> ha = pack(a, Ty::F16), hb = pack(b, Ty::F16), hc(size_t(M * ldc) * 2);
  Buffer da(ha.size()), db(hb.size()), dc(hc.size());
  CHECK_CU(cuMemcpyHtoD(da.p, ha.data(), ha.size()));
  CHECK_CU(cuMemcpyHtoD(db.p, hb.data(), hb.size()));
  poison(dc);
  const int64_t a_shape[2] = {M, K}, a_strides[2] = {lda, 1};
  const int64_t b_shape[2] = {K, N}, b_strides[2] = {ldb, 1};
  const int64_t c_shape[2] = {M, N}, c_strides[2] = {ldc, 1};
  CHECK_CU(mm16_matmul_strided(nullptr, da.p, a_shape, a_strides, db.p, b_shape, b_strides, dc.p, c_shape, c_strides));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(hc.data(), dc.p, hc.size()));
  std::vector<double> all = unpack(hc, Ty::F16), got, ref;
  size_t pad_written = 0;
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      double r = 0;
      for (int64_t kk = 0; kk < K; ++kk) r += ar[size_t(i * lda + kk)] * br[size_t(kk * ldb + j)];
      ref.push_back(r);
      got.push_back(all[size_t(i * ldc + j)]);
    }
    for (int64_t j = N; j < ldc; ++j) pad_written += !std::isnan(all[size_t(i * ldc + j)]);
  }
  std::string what = "matmul f16 strided " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) +
                     " pad " + std::to_string(pad) + " [" + g_last_entry + "]";
  expect_path(what, g_device_cc == 90 && lda % 8 == 0 && ldb % 8 == 0 && ldc % 8 == 0);
  report_rel(what, rel_error(got, ref), tolerance(Ty::F16));
  report((what + " padding untouched").c_str(), size_t(M * (ldc - N)), pad_written, 0, 0);
}

// tests/gpu/hopper.tile: the tma_wgmma path's other shapes. `a_t`: A stored [K, M] (M-major);
// `b_t`: B stored [N, K]. C (f32) = A @ B compared with a float64 product of the rounded inputs.
// One launch of a hopper.tile kernel, C (f32, M x N) = A @ B: fresh A (M K elements) and B
// (K N) of dtype t in [-1, 1), C poisoned. `ar`, `br`: the inputs as the kernel sees them
// (rounded to t), in their stored order.
struct HopperRun {
  std::vector<double> ar, br, c;
};
HopperRun run_hopper(MatmulKernel k, Ty t, int64_t M, int64_t N, int64_t K, std::mt19937_64& rng) {
  std::vector<float> a(static_cast<size_t>(M * K)), b(static_cast<size_t>(K * N));
  fill(a, rng, -1.f, 1.f);
  fill(b, rng, -1.f, 1.f);
  std::vector<uint8_t> ha = pack(a, t), hb = pack(b, t), hc(size_t(M * N) * 4);
  Buffer da(ha.size()), db(hb.size()), dc(hc.size());
  CHECK_CU(cuMemcpyHtoD(da.p, ha.data(), ha.size()));
  CHECK_CU(cuMemcpyHtoD(db.p, hb.data(), hb.size()));
  poison(dc);
  CHECK_CU(k(nullptr, da.p, db.p, dc.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(hc.data(), dc.p, hc.size()));
  return {rounded(a, t), rounded(b, t), unpack(hc, Ty::F32)};
}

// The label of a hopper.tile case ("name MxNxK [entry]"), after checking the path that ran: the
// tma_wgmma entry on a 9.0 device when every row is 16-byte aligned (A's rows hold M elements
// when `a_t` (stored [K, M]) else K, B's K when `b_t` (stored [N, K]) else N, C's N f32 values)
// and K > 0.
std::string hopper_case(const char* name, int64_t M, int64_t N, int64_t K, bool a_t, bool b_t) {
  std::string what = std::string(name) + " " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) +
                     " [" + g_last_entry + "]";
  bool aligned = (a_t ? M : K) % 8 == 0 && (b_t ? K : N) % 8 == 0 && N % 4 == 0;
  expect_path(what, g_device_cc == 90 && aligned && K > 0);
  return what;
}

void check_hopper(const char* name, MatmulKernel k, Ty t, int64_t M, int64_t N, int64_t K, bool a_t, bool b_t,
                  std::mt19937_64& rng, double scale = 1.0) {
  HopperRun run = run_hopper(k, t, M, N, K, rng);
  std::vector<double> ref(size_t(M * N), 0.0);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t kk = 0; kk < K; ++kk) {
      double x = run.ar[size_t(a_t ? kk * M + i : i * K + kk)];
      for (int64_t j = 0; j < N; ++j)
        ref[size_t(i * N + j)] += scale * x * run.br[size_t(b_t ? j * K + kk : kk * N + j)];
    }
  std::string what = hopper_case(name, M, N, K, a_t, b_t);
  report_rel(what, rel_error(run.c, ref), tolerance(t));
}

// hopper.tile's f16-accumulator kernels: C (f32, the f16 accumulator's values exactly) = A @ B
// for f16 A (M, K) and B (K, N), or B stored (N, K) when `b_t`. Checked element by element
// against a float64 product of the rounded inputs, within a bound derived from where the
// kernels round to f16:
//   - every mma instruction (k16 step: mma.sync m16n8k16 and wgmma m64nNk16 alike) forms its
//     16 exact products plus the accumulator in at least f32 precision and rounds once to f16
//     (the behaviour Fasi et al., "Numerical behavior of NVIDIA tensor cores", PeerJ CS 2021,
//     measured on earlier tensor cores; not documented by NVIDIA), so its error is at most
//     2^-10 |result| (2u for f16, any rounding direction), plus at most 17 * 2^-23 times the
//     sum of its addends' magnitudes for the f32-level forming (allowed: 2^-18 sum |a b|);
//   - `fresh_every` > 0: the accumulator restarts from zero every `fresh_every` k (the loop's
//     zero tile) and each partial result is added to the carried sum by one more f16 rounding.
// So |C - ref| <= (1 + n 2^-10) 2^-10 (sum over the roundings of |exact value rounded|) +
// 2^-18 sum_k |a b|, n the number of roundings (the factor covers computed values that differ
// from exact ones by the earlier errors). A lost or repeated k step moves an element by about
// |one step's sum| ~ 1.3, far over the bound (0.1-0.5 at these K).
void check_f16_acc(const char* name, MatmulKernel k, int64_t M, int64_t N, int64_t K, bool b_t, int64_t fresh_every,
                   std::mt19937_64& rng) {
  HopperRun run = run_hopper(k, Ty::F16, M, N, K, rng);
  const std::vector<double>& ar = run.ar;
  const std::vector<double>& br = run.br;
  const std::vector<double>& out = run.c;
  // Row by row: exact partial sums (float64 holds these sums of f16 products to ~1e-16), the
  // magnitudes of every value rounded to f16, and of the products.
  std::vector<double> ref(size_t(M * N)), rounded_sum(size_t(M * N)), abs_sum(size_t(M * N));
  std::vector<double> part(static_cast<size_t>(N)), carried(static_cast<size_t>(N));
  int64_t roundings = 0;
  for (int64_t i = 0; i < M; ++i) {
    std::fill(part.begin(), part.end(), 0.0);
    std::fill(carried.begin(), carried.end(), 0.0);
    double* rs = &rounded_sum[size_t(i * N)];
    double* as = &abs_sum[size_t(i * N)];
    int64_t n = 0;
    for (int64_t kk = 0; kk < K; ++kk) {
      double x = ar[size_t(i * K + kk)];
      for (int64_t j = 0; j < N; ++j) {
        double p = x * br[size_t(b_t ? j * K + kk : kk * N + j)];
        part[size_t(j)] += p;
        as[j] += std::fabs(p);
      }
      bool step_end = kk % 16 == 15 || kk + 1 == K;
      bool tile_end = fresh_every && (kk % fresh_every == fresh_every - 1 || kk + 1 == K);
      if (step_end) {
        ++n;
        for (int64_t j = 0; j < N; ++j) rs[j] += std::fabs(part[size_t(j)]);
      }
      if (tile_end) {
        ++n;
        for (int64_t j = 0; j < N; ++j) {
          carried[size_t(j)] += part[size_t(j)];
          part[size_t(j)] = 0;
          rs[j] += std::fabs(carried[size_t(j)]);
        }
      }
    }
    for (int64_t j = 0; j < N; ++j) ref[size_t(i * N + j)] = carried[size_t(j)] + part[size_t(j)];
    roundings = n;
  }
  size_t bad = 0, first = 0;
  double worst = 0;  // largest |C - ref| / bound
  for (size_t e = 0; e < out.size(); ++e) {
    double bound = (1 + double(roundings) * std::ldexp(1.0, -10)) * std::ldexp(rounded_sum[e], -10) +
                   std::ldexp(abs_sum[e], -18);
    double r = out[e] == ref[e] ? 0.0 : std::fabs(out[e] - ref[e]) / bound;  // K = 0: zeros, bound 0
    if (!(r <= 1.0)) {
      if (!bad) first = e;
      ++bad;
    }
    if (!(r <= worst)) worst = std::isnan(r) ? INFINITY : r;
  }
  std::string what = hopper_case(name, M, N, K, false, b_t);
  char err[64];
  std::snprintf(err, sizeof err, " rel err %.1e, worst=|err|/bound", rel_error(out, ref));
  report((what + err).c_str(), out.size(), bad, worst, first);
}

// The f16-accumulator kernels on both paths: aligned arrays take the tma_wgmma entry on a 9.0
// device, K = 0 and unaligned rows (K odd) the portable one (mma.sync's f16 form).
void check_f16_accumulators(bool small, std::mt19937_64& rng) {
  std::vector<std::tuple<int64_t, int64_t, int64_t>> shapes = {{136, 128, 64}, {17, 33, 1001}};
  if (!small) shapes.insert(shapes.end(), {{1000, 264, 1032}, {300, 500, 2000}, {130, 200, 1001}, {256, 256, 4096}});
  for (auto [M, N, K] : shapes) {
    check_f16_acc("mm_f16acc (carried)", mm_f16acc, M, N, K, false, 0, rng);
    check_f16_acc("mm_f16acc_touched (B^T)", mm_f16acc_touched, M, N, K, true, 0, rng);
    check_f16_acc("mm_f16acc_fresh (acc + s)", mm_f16acc_fresh, M, N, K, false, 64, rng);
  }
  check_f16_acc("mm_f16acc (carried)", mm_f16acc, 130, 200, 0, false, 0, rng);
}

void check_matmul_i8(int64_t M, int64_t N, int64_t K, std::mt19937_64& rng) {
  std::vector<int8_t> a(size_t(M * K)), b(size_t(K * N));
  std::uniform_int_distribution<int> d(-128, 127);
  for (int8_t& x : a) x = int8_t(d(rng));
  for (int8_t& x : b) x = int8_t(d(rng));
  Buffer da(a.size()), db(b.size()), dc(size_t(M * N) * 4);
  CHECK_CU(cuMemcpyHtoD(da.p, a.data(), a.size()));
  CHECK_CU(cuMemcpyHtoD(db.p, b.data(), b.size()));
  poison(dc);
  CHECK_CU(mmi8_matmul(nullptr, da.p, db.p, dc.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  std::vector<int32_t> c(size_t(M * N));
  CHECK_CU(cuMemcpyDtoH(c.data(), dc.p, c.size() * 4));
  size_t bad = 0, first = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      uint32_t ref = 0;  // modulo 2^32, like s32 accumulation
      for (int64_t k = 0; k < K; ++k) ref += uint32_t(int32_t(a[size_t(i * K + k)]) * int32_t(b[size_t(k * N + j)]));
      if (uint32_t(c[size_t(i * N + j)]) != ref && !bad++) first = size_t(i * N + j);
    }
  std::string what = "matmul i8 " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  report(what.c_str(), c.size(), bad, 0, first);
}

void check_batched(int64_t batch, int64_t M, int64_t N, int64_t K, std::mt19937_64& rng) {
  std::vector<float> a(static_cast<size_t>(batch * M * K)), b(static_cast<size_t>(batch * K * N));
  fill(a, rng, -1.f, 1.f);
  fill(b, rng, -1.f, 1.f);
  std::vector<double> ar = rounded(a, Ty::F16), br = rounded(b, Ty::F16);
  std::vector<uint8_t> ha = pack(a, Ty::F16), hb = pack(b, Ty::F16), hc(size_t(batch * M * N) * 2);
  Buffer da(ha.size()), db(hb.size()), dc(hc.size());
  CHECK_CU(cuMemcpyHtoD(da.p, ha.data(), ha.size()));
  CHECK_CU(cuMemcpyHtoD(db.p, hb.data(), hb.size()));
  poison(dc);
  CHECK_CU(batched_matmul(nullptr, da.p, db.p, dc.p, batch, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  expect_path("batched_matmul " + std::to_string(K), g_device_cc == 90 && K % 8 == 0 && N % 8 == 0);
  CHECK_CU(cuMemcpyDtoH(hc.data(), dc.p, hc.size()));
  std::vector<double> ref(size_t(batch * M * N), 0.0);
  for (int64_t z = 0; z < batch; ++z)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t kk = 0; kk < K; ++kk)
        for (int64_t j = 0; j < N; ++j)
          ref[size_t((z * M + i) * N + j)] += ar[size_t((z * M + i) * K + kk)] * br[size_t((z * K + kk) * N + j)];
  report_rel("batched_matmul f16 " + std::to_string(batch) + "x" + std::to_string(M) + "x" + std::to_string(N) + "x" +
                 std::to_string(K),
             rel_error(unpack(hc, Ty::F16), ref), 2e-3);
}

// matmul_epilogue.tile: C = A @ B + D (residual), C = (A @ B) * r[:, None] * c[None, :] in f32
// (scaled), C = A @ B and H = relu(A @ B) in f32 (dual), against float64 products of the rounded
// inputs. `ones` makes A, B, D, r and c all ones: the f32 sums are exact integers, so every
// output must equal the reference rounded once to its dtype. The path expected: tma_wgmma on a
// 9.0 device when every row is 16-byte aligned (K and N multiples of 8) and K > 0.
enum class Epilogue { Residual, Scaled, Dual };

void check_epilogue(Epilogue e, Ty t, int64_t M, int64_t N, int64_t K, std::mt19937_64& rng, bool ones = false) {
  std::vector<float> a(static_cast<size_t>(M * K)), b(static_cast<size_t>(K * N)), d(static_cast<size_t>(M * N));
  std::vector<float> r(static_cast<size_t>(M)), c(static_cast<size_t>(N));
  fill(a, rng, -1.f, 1.f);
  fill(b, rng, -1.f, 1.f);
  fill(d, rng, -2.f, 2.f);
  fill(r, rng, 0.5f, 2.f);
  fill(c, rng, -2.f, 2.f);
  for (std::vector<float>* v : {&a, &b, &d, &r, &c})
    if (ones) std::fill(v->begin(), v->end(), 1.f);
  std::vector<double> ar = rounded(a, t), br = rounded(b, t), dr = rounded(d, t);
  std::vector<uint8_t> ha = pack(a, t), hb = pack(b, t), hd = pack(d, t);
  Buffer da(ha.size()), db(hb.size()), dd(hd.size()), dr32(r.size() * 4), dc32(c.size() * 4);
  Buffer out1(size_t(M * N) * (e == Epilogue::Scaled ? 4 : ty_bytes(t))), out2(size_t(M * N) * 4);
  CHECK_CU(cuMemcpyHtoD(da.p, ha.data(), ha.size()));
  CHECK_CU(cuMemcpyHtoD(db.p, hb.data(), hb.size()));
  CHECK_CU(cuMemcpyHtoD(dd.p, hd.data(), hd.size()));
  CHECK_CU(cuMemcpyHtoD(dr32.p, r.data(), r.size() * 4));
  CHECK_CU(cuMemcpyHtoD(dc32.p, c.data(), c.size() * 4));
  poison(out1);
  poison(out2);
  bool bf = t == Ty::BF16;
  const char* name = e == Epilogue::Residual ? "matmul_residual" : e == Epilogue::Scaled ? "matmul_scaled" : "matmul_dual";
  if (e == Epilogue::Residual)
    CHECK_CU((bf ? ep_matmul_residual : ep16_matmul_residual)(nullptr, da.p, db.p, dd.p, out1.p, M, K, N));
  else if (e == Epilogue::Scaled)
    CHECK_CU((bf ? ep_matmul_scaled : ep16_matmul_scaled)(nullptr, da.p, db.p, dr32.p, dc32.p, out1.p, M, K, N));
  else
    CHECK_CU((bf ? ep_matmul_dual : ep16_matmul_dual)(nullptr, da.p, db.p, out1.p, out2.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  std::string what = std::string(name) + " " + ty_name(t) + " " + std::to_string(M) + "x" + std::to_string(N) + "x" +
                     std::to_string(K) + (ones ? " (ones)" : "") + " [" + g_last_entry + "]";
  if (M > 0 && N > 0) expect_path(what, g_device_cc == 90 && K % 8 == 0 && N % 8 == 0 && K > 0);
  std::vector<double> prod(size_t(M * N), 0.0);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t kk = 0; kk < K; ++kk)
      for (int64_t j = 0; j < N; ++j) prod[size_t(i * N + j)] += ar[size_t(i * K + kk)] * br[size_t(kk * N + j)];
  // Each output with its reference and dtype.
  std::vector<std::tuple<const char*, const Buffer*, Ty, std::vector<double>>> outputs;
  std::vector<double> ref = prod;
  if (e == Epilogue::Residual) {
    for (size_t i = 0; i < ref.size(); ++i) ref[i] += dr[i];
    outputs.emplace_back("C", &out1, t, ref);
  } else if (e == Epilogue::Scaled) {
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) ref[size_t(i * N + j)] *= double(r[size_t(i)]) * double(c[size_t(j)]);
    outputs.emplace_back("C", &out1, Ty::F32, ref);
  } else {
    outputs.emplace_back("C", &out1, t, ref);
    for (double& v : ref) v = std::max(v, 0.0);
    outputs.emplace_back("H", &out2, Ty::F32, ref);
  }
  for (auto& [label, buf, ty, want] : outputs) {
    std::vector<uint8_t> h(size_t(M * N) * ty_bytes(ty));
    CHECK_CU(cuMemcpyDtoH(h.data(), buf->p, h.size()));
    std::vector<double> got = unpack(h, ty);
    std::string w = what + " " + label;
    if (ones) {
      std::vector<float> wf(want.begin(), want.end());
      std::vector<double> exact = rounded(wf, ty);
      size_t bad = 0, first = 0;
      for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != exact[i] && !bad++) first = i;
      report(w.c_str(), got.size(), bad, 0, first);
    } else {
      report_rel(w, rel_error(got, want), ty == Ty::F32 ? 1e-4 : tolerance(ty));
    }
  }
}

// ---- attention: tests/gpu/attention_check.h -------------------------------------------------
// cumsum_rows: prefix sums along whole rows (tiles of BN columns, carried left to right).
template <typename Launch>
void check_cumsum_rows(const char* what, Launch launch, int64_t M, int64_t N, std::mt19937_64& rng) {
  std::vector<float> x(size_t(M * N));
  fill(x, rng, -1.f, 1.f);
  Buffer dx(x.size() * 4), dy(x.size() * 4);
  CHECK_CU(cuMemcpyHtoD(dx.p, x.data(), x.size() * 4));
  poison(dy);
  CHECK_CU(launch(nullptr, dx.p, dy.p, M, N));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> y(x.size());
  CHECK_CU(cuMemcpyDtoH(y.data(), dy.p, y.size() * 4));
  size_t bad = 0, first = 0;
  double worst = 0;
  for (int64_t i = 0; i < M; ++i) {
    double s = 0, a = 0;
    for (int64_t j = 0; j < N; ++j) {
      size_t k = size_t(i * N + j);
      s += x[k];
      a += std::fabs(x[k]);
      double err = std::fabs(y[k] - s) / (a + 1e-30);  // error relative to the sum of magnitudes
      if (!(err <= 1e-5)) {
        if (!bad) first = k;
        ++bad;
      }
      if (err > worst || std::isnan(err)) worst = std::isnan(err) ? INFINITY : err;
    }
  }
  report((std::string(what) + " " + std::to_string(M) + "x" + std::to_string(N)).c_str(), x.size(), bad, worst, first);
}

// histogram: counts per bin over two launches (they accumulate), against the same f32 binning
// on the CPU; NaNs and values outside [lo, hi) are not counted. `histogram` (shared-memory
// counts, nbins <= NBINS: the 256-bin header, or the 1024-bin one) and `histogram_atomic`.
void check_histogram(size_t n, int64_t nbins, float lo, float hi, std::mt19937_64& rng) {
  std::vector<float> x(n);
  fill(x, rng, lo - (hi - lo) * 0.1f, hi + (hi - lo) * 0.1f);
  for (size_t i = 0; i < n; i += 101) x[i] = NAN;
  if (n > 3) {
    x[1] = lo;
    x[2] = std::nextafter(hi, lo);  // rounds into the last bin
    x[3] = hi;                      // not counted
  }
  std::vector<int32_t> ref(static_cast<size_t>(nbins));
  float scale = float(nbins) / (hi - lo);
  for (float v : x) {
    if (!(v >= lo && v < hi)) continue;
    int64_t b = std::min<int64_t>(int64_t(std::floor((v - lo) * scale)), nbins - 1);
    ref[size_t(b)] += 2;
  }
  Buffer dx(n * 4), dbins(size_t(nbins) * 4);
  CHECK_CU(cuMemcpyHtoD(dx.p, x.data(), n * 4));
  using Launch = CUresult (*)(CUstream, CUdeviceptr, CUdeviceptr, int64_t, int64_t, float, float);
  std::vector<std::pair<std::string, Launch>> kernels = {{"histogram_atomic", histogram_atomic}};
  if (nbins <= 256) kernels.push_back({"histogram", histogram});
  kernels.push_back({"histogram (NBINS=1024)", h1k_histogram});
  for (auto& [name, launch] : kernels) {
    CHECK_CU(cuMemsetD8(dbins.p, 0, size_t(nbins) * 4));
    for (int rep = 0; rep < 2; ++rep) CHECK_CU(launch(nullptr, dx.p, dbins.p, int64_t(n), nbins, lo, hi));
    CHECK_CU(cuCtxSynchronize());
    std::vector<int32_t> bins(static_cast<size_t>(nbins));
    CHECK_CU(cuMemcpyDtoH(bins.data(), dbins.p, size_t(nbins) * 4));
    size_t bad = 0, first = 0;
    for (int64_t b = 0; b < nbins; ++b)
      if (bins[size_t(b)] != ref[size_t(b)] && !bad++) first = size_t(b);
    report((name + " nbins=" + std::to_string(nbins)).c_str(), n, bad, 0, first);
  }
}

// embedding_gather: rows of the table by id; ids outside [0, vocab) give zero rows.
template <typename Launch>
void check_embedding(const char* what, Launch launch, Ty t, int64_t vocab, int64_t dim, int64_t n, std::mt19937_64& rng) {
  std::vector<float> table(size_t(vocab * dim));
  fill(table, rng, -1.f, 1.f);
  std::vector<uint8_t> ht = pack(table, t);
  std::vector<int32_t> ids(static_cast<size_t>(n));
  for (auto& id : ids) {
    uint64_t k = rng() % 16;
    id = k == 0 ? -int32_t(1 + rng() % 3) : k == 1 ? int32_t(vocab + int64_t(rng() % 3)) : int32_t(rng() % uint64_t(vocab));
  }
  size_t es = ty_bytes(t);
  Buffer dt(ht.size()), dids(size_t(n) * 4), dout(size_t(n * dim) * es);
  CHECK_CU(cuMemcpyHtoD(dt.p, ht.data(), ht.size()));
  CHECK_CU(cuMemcpyHtoD(dids.p, ids.data(), size_t(n) * 4));
  poison(dout);
  CHECK_CU(launch(nullptr, dt.p, dids.p, dout.p, vocab, dim, n));
  CHECK_CU(cuCtxSynchronize());
  std::vector<uint8_t> out(size_t(n * dim) * es);
  CHECK_CU(cuMemcpyDtoH(out.data(), dout.p, out.size()));
  size_t bad = 0, first = 0;
  for (int64_t r = 0; r < n; ++r)
    for (int64_t c = 0; c < dim; ++c) {
      int32_t id = ids[size_t(r)];
      bool in = id >= 0 && id < vocab;
      size_t k = size_t(r * dim + c);
      bool ok = in ? std::memcmp(&out[k * es], &ht[size_t(id * dim + c) * es], es) == 0
                   : std::all_of(&out[k * es], &out[k * es] + es, [](uint8_t b) { return b == 0; });
      if (!ok && !bad++) first = k;
    }
  report((std::string(what) + " " + std::to_string(vocab) + "x" + std::to_string(dim) + " n=" + std::to_string(n)).c_str(),
         size_t(n * dim), bad, 0, first);
}

// samples/attention.tile in the headers of tests/gpu/make_headers.sh. attention.h and attpc128_
// are built for sm_90 (the portable mma.sync path); the others for sm_90a (the tma_wgmma path,
// register-A wgmma, where the arrays allow it). S = 1, smaller than one tile, ragged, and past
// several pipeline rounds (--small, for the sanitizers: S <= 257). Per header and S: multi-head
// [B, H, S, D] through the dense form; PyTorch's [B, S, H, D] through transposed views;
// grouped-query attention (H = 8, HK = 2) with the LSE in rows padded to 16 bytes (the
// tma_wgmma path) and, at S = 257, the LSE contiguous in [B, H, S] (rows of 257 floats: the
// portable path) and unaligned rows (the general variant). --tiny (racecheck and synccheck, which
// are slow on these kernels): S = 257, one case per path on three headers.
void check_attention_headers(bool small, bool tiny, std::mt19937_64& rng) {
  const AttentionHeader headers[] = {
      ATTENTION_HEADER(, Ty::F16, 64, false, false),
      ATTENTION_HEADER(attpc128_, Ty::BF16, 128, true, false),
      ATTENTION_HEADER(attbf_, Ty::BF16, 64, false, true),
      ATTENTION_HEADER(attc_, Ty::F16, 64, true, true),
      ATTENTION_HEADER(attc128_, Ty::BF16, 128, true, true),
      ATTENTION_HEADER(att128_, Ty::F16, 128, false, true),
  };
  if (tiny) {
    check_attention(headers[0], {1, 2, 2, 257, AttLayout::BSHD, AttLse::None}, rng);
    for (int h : {2, 4}) {
      check_attention(headers[h], {1, 4, 2, 257, AttLayout::BSHD, AttLse::PaddedRows}, rng);
      check_attention(headers[h], {1, 2, 1, 257, AttLayout::PaddedRows, AttLse::None}, rng);
    }
    return;
  }
  for (int64_t S : {int64_t(1), int64_t(40), int64_t(257), int64_t(1000)}) {
    if (small && S > 257) continue;
    for (const AttentionHeader& hdr : headers) {
      check_attention(hdr, {1, 3, 3, S, AttLayout::BHSD, AttLse::None}, rng);
      check_attention(hdr, {2, 2, 2, S, AttLayout::BSHD, AttLse::None}, rng);
      check_attention(hdr, {1, 8, 2, S, AttLayout::BSHD, AttLse::PaddedRows}, rng);
      if (S == 257) {
        check_attention(hdr, {1, 4, 2, S, AttLayout::BHSD, AttLse::Dense}, rng);
        check_attention(hdr, {1, 2, 1, S, AttLayout::PaddedRows, AttLse::PaddedRows}, rng);
      }
    }
  }
  if (small) return;
  check_attention(headers[0], {1, 2, 2, 2100, AttLayout::BHSD, AttLse::None, true}, rng);
  check_attention(headers[4], {1, 2, 1, 1500, AttLayout::BSHD, AttLse::PaddedRows, true}, rng);
}

}  // namespace

int main(int argc, char** argv) {
  bool small = false, only_f16acc = false, only_attention = false, tiny = false, only_jit = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0) small = true;
    else if (std::strcmp(argv[i], "--only=f16acc") == 0) only_f16acc = true;
    else if (std::strcmp(argv[i], "--only=attention") == 0) only_attention = true;
    else if (std::strcmp(argv[i], "--tiny") == 0) only_attention = tiny = true;
    else if (std::strcmp(argv[i], "--jit") == 0) only_jit = true;
    else {
      std::fprintf(stderr, "usage: check_samples [--small] [--only=f16acc | --only=attention] [--tiny] [--jit]\n");
      return 2;
    }
  }
  use_device_0_with_cc();
  std::mt19937_64 rng(uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
  // Run under CUDA_FORCE_PTX_JIT=1, the driver ignores the SASS and compiles the image's PTX
  // (compute_80 in the default target's headers: the portable path alone), as it does on a GPU
  // newer than the header's targets; no tma_wgmma entry is expected then. `--jit` runs the
  // tensor-core samples alone, each image compiled once by the driver.
  if (const char* jit = std::getenv("CUDA_FORCE_PTX_JIT"); jit && std::strcmp(jit, "1") == 0) g_device_cc = 0;
  if (only_jit) {
    for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{17, 1001, 130}, {300, 264, 1032}, {130, 200, 0}}) {
      check_matmul("matmul", mm16_matmul, Ty::F16, M, N, K, rng);
      check_matmul("matmul", mmbf_matmul, Ty::BF16, M, N, K, rng);
      for (Epilogue e : {Epilogue::Residual, Epilogue::Scaled, Epilogue::Dual}) {
        check_epilogue(e, Ty::BF16, M, N, K, rng);
        check_epilogue(e, Ty::F16, M, N, K, rng);
      }
    }
    for (Epilogue e : {Epilogue::Residual, Epilogue::Scaled, Epilogue::Dual}) check_epilogue(e, Ty::BF16, 136, 200, 1000, rng, true);
    check_attention_headers(true, true, rng);
    std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
  }
  if (only_f16acc || only_attention) {
    if (only_f16acc) check_f16_accumulators(small, rng);
    if (only_attention) check_attention_headers(small, tiny, rng);
    std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
  }
  std::vector<size_t> sizes = {1, 1023, 1025, 4096};
  if (!small) {
    sizes.push_back((size_t(1) << 28) + 7);
  }
  for (size_t n : sizes) {
    check_vector_add(n, rng, "dense");
    check_vector_add(n, rng, "strided");
    check_vector_add_views(n, rng);
    check_gelu(n, rng);
  }
  if (!small) check_vector_add((size_t(1) << 31) + 5, rng, "dense");  // more than 2^31 elements
  for (int64_t M : {int64_t(1), int64_t(5), int64_t(257)})
    for (int64_t N : {int64_t(1), int64_t(100), int64_t(1000), int64_t(4096)}) {
      check_softmax(sm32_softmax, Ty::F32, M, N, rng);
      check_softmax(sm16_softmax, Ty::F16, M, N, rng);
      check_layernorm(ln16_layernorm, Ty::F16, M, N, rng);
      check_layernorm(lnbf_layernorm, Ty::BF16, M, N, rng);
      check_rmsnorm(Ty::BF16, M, N, rng);
    }
  check_softmax(sm16l_softmax, Ty::F16, 3, 32768, rng);
  check_softmax(sm16l_softmax, Ty::F16, 2, 20000, rng);
  check_layernorm(lnbf_layernorm, Ty::BF16, 3, 8192, rng);
  check_layernorm(lnbf_layernorm, Ty::BF16, 3, 5000, rng);  // whole vectors, a masked tail
  // layernorm_long: rows of several tiles (4096), ragged and whole vectors
  for (int64_t N : {int64_t(1000), int64_t(9999), int64_t(10000)}) {
    check_layernorm(ln16_layernorm_long, Ty::F16, 3, N, rng);
    check_layernorm(lnbf_layernorm_long, Ty::BF16, 2, N, rng);
  }
  for (auto [M, N] : {std::pair<int64_t, int64_t>{1, 1}, {17, 300}, {100, 1000}})
    check_sum_rows(M, N, rng);
  if (!small) check_sum_rows(2000, 5000, rng);
  for (auto [M, N] : {std::pair<int64_t, int64_t>{1, 1}, {17, 300}, {100, 65}})
    check_transpose(M, N, rng);
  // matmul: ragged M, N, K of 1, 17, 1001 (4099 in the full run); K = 0; all-ones exactness.
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {17, 17, 17}, {1001, 17, 1001},
                         {17, 1001, 130}, {130, 200, 0}}) {
    check_matmul("matmul", mm16_matmul, Ty::F16, M, N, K, rng);
    check_matmul("matmul", mmbf_matmul, Ty::BF16, M, N, K, rng);
    check_matmul("matmul", mm32_matmul, Ty::F32, M, N, K, rng);
  }
  if (!small) {
    check_matmul("matmul", mm16_matmul, Ty::F16, 4099, 1001, 4099, rng);
    check_matmul("matmul", mmbf_matmul, Ty::BF16, 1001, 4099, 1001, rng);
  }
  // Aligned shapes (rows a multiple of 16 bytes) take the vectorized variant and its cp.async
  // pipeline: ragged M and N, K not a multiple of BK, fewer K tiles than stages.
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{1001, 136, 1000}, {130, 200, 72}, {17, 1000, 8},
                         {256, 256, 64}, {300, 520, 2056}}) {
    check_matmul("matmul (aligned)", mm16_matmul, Ty::F16, M, N, K, rng);
    check_matmul("matmul (aligned)", mmbf_matmul, Ty::BF16, M, N, K, rng);
  }
  check_matmul("matmul (aligned)", mm16_matmul, Ty::F16, 136, 200, 1000, rng, true);
  // The tma_wgmma path at sizes with many K tiles (more than its stages) and ragged edges.
  if (!small) {
    check_matmul("matmul (aligned)", mmbf_matmul, Ty::BF16, 4096, 1000, 2056, rng);
    check_matmul("matmul (aligned)", mm16_matmul, Ty::F16, 1000, 4096, 1024, rng);
    check_matmul("matmul (aligned)", mmbf_matmul, Ty::BF16, 1024, 1024, 4096, rng, true);
  }
  // Non-contiguous rows: padded leading dimensions, aligned (pad 8) and not (pad 3).
  for (int64_t pad : {int64_t(8), int64_t(3)}) {
    check_matmul_strided(130, 200, 72, pad, rng);
    check_matmul_strided(17, 1000, 1001, pad, rng);
  }
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{17, 33, 1001}, {130, 200, 72}, {300, 272, 2000}})
    check_matmul_i8(M, N, K, rng);
  // B^T through load(order=(1, 0)): aligned (pipelined, ldmatrix without .trans) and not.
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{1001, 136, 1000}, {130, 200, 72}, {17, 33, 1001},
                         {256, 512, 2048}})
    check_matmul("matmul_bt", mmbt_matmul_bt, Ty::F16, M, N, K, rng, false, false, true);
  check_matmul("matmul", mm16_matmul, Ty::F16, 130, 200, 1001, rng, true);
  check_matmul("matmul", mm32_matmul, Ty::F32, 130, 200, 1001, rng, true);
  check_matmul("matmul_bias_relu", nullptr, Ty::F16, 300, 257, 200, rng, false, true);
  check_matmul("matmul_bias_relu (aligned)", nullptr, Ty::F16, 300, 256, 200, rng, false, true);
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{1000, 264, 1032}, {136, 128, 64}, {300, 500, 2000}}) {
    // mm_at's dimension symbols come in the order K, M, N (A is [K, M]).
    MatmulKernel at = [](CUstream st, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t m, int64_t k, int64_t n) {
      return mm_at(st, a, b, c, k, m, n);
    };
    check_hopper("mm_at (A M-major)", at, Ty::BF16, M, N, K, true, false, rng);
    check_hopper("mm_bk128", mm_bk128, Ty::F16, M, N, K, false, false, rng);
    check_hopper("mm_64 (one warpgroup)", mm_64, Ty::F16, M, N, K, false, false, rng);
    check_hopper("mm_256 (four warpgroups, B^T)", mm_256, Ty::BF16, M, N, K, false, true, rng);
    check_hopper("mm_twice (two pipelined loops)", mm_twice, Ty::F16, M, N, K, false, false, rng, 2.0);
    check_hopper("mm_touched (acc read before the mma)", mm_touched, Ty::F16, M, N, K, false, false, rng);
    check_hopper("mm_persistent (7 CTAs over the tiles)", mm_persistent, Ty::F16, M, N, K, false, false, rng);
  }
  check_f16_accumulators(small, rng);
  // Epilogues: ragged and unaligned (the portable path everywhere), aligned (tma_wgmma on a 9.0
  // device) with ragged M and N edges and more K tiles than stages, K = 0, all-ones exactness.
  for (Ty t : {Ty::BF16, Ty::F16})
    for (Epilogue e : {Epilogue::Residual, Epilogue::Scaled, Epilogue::Dual}) {
      for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {17, 1001, 130}, {257, 136, 72},
                             {300, 264, 1032}, {130, 200, 0}})
        check_epilogue(e, t, M, N, K, rng);
      check_epilogue(e, t, 136, 200, 1000, rng, true);
      check_epilogue(e, t, 17, 33, 1001, rng, true);
      check_epilogue(e, t, 17, 1001, 4099, rng);
      if (!small) check_epilogue(e, t, 1000, 1024, 2048, rng);
    }
  check_batched(3, 130, 200, 70, rng);
  check_batched(3, 130, 200, 72, rng);  // aligned: the pipelined variant
  check_attention_headers(small, false, rng);
  if (!small) check_transpose(1000, 3000, rng);
  for (auto [M, N] : {std::pair<int64_t, int64_t>{1, 1}, {17, 300}, {100, 1000}, {3, 5000}}) {
    check_cumsum_rows("cumsum_rows", cumsum_rows, M, N, rng);
    check_cumsum_rows("cumsum_rows BM=16 BN=256", narrow_cumsum_rows, M, N, rng);
  }
  if (!small) check_cumsum_rows("cumsum_rows", cumsum_rows, 2000, 5000, rng);
  check_histogram(1, 1, 0.f, 1.f, rng);
  check_histogram(4099, 37, -2.f, 3.f, rng);
  check_histogram(100000, 3, 0.f, 1.f, rng);
  check_histogram(70001, 256, -4.f, 4.f, rng);  // several CTAs of PER_CTA tiles, a ragged last one
  if (!small) check_histogram((size_t(1) << 24) + 3, 1000, -1.f, 1.f, rng);
  for (auto [V, D, n] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {100, 300, 17}, {1000, 64, 1000}}) {
    check_embedding("embedding_gather f32", embedding_gather, Ty::F32, V, D, n, rng);
    check_embedding("embedding_gather bf16", eg16_embedding_gather, Ty::BF16, V, D, n, rng);
  }
  if (!small) check_embedding("embedding_gather f32", embedding_gather, Ty::F32, 50000, 1000, 4099, rng);
  // Empty arrays: the grid has a zero dimension, so the stub returns success without launching.
  Buffer d(4);
  CHECK_CU(vector_add(nullptr, d.p, d.p, d.p, 0));
  std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
