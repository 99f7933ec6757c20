// Shared by the GPU check programs that test compiled samples through their generated headers
// (check_samples.cpp, check_shapes.cpp, check_offsets.cpp): fresh random inputs, poisoned outputs, f16/bf16 on the
// CPU, relative errors against float64 references, and which code path a launch took.
// Include it before the generated headers: it defines TILEC_TRACE_LAUNCH (docs/header.md), which
// the headers call before each launch with the PTX entry's name.
// Each program is one translation unit, so the helpers live in an unnamed namespace; they are
// inline so that a program using some of them compiles without unused-function warnings.
#pragma once

#include <cuda.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuda_check.h"

// The PTX entry of the last launch, so that a check can tell which code path ran.
static const char* g_last_entry = "";
#define TILEC_TRACE_LAUNCH(entry) (g_last_entry = (entry))

namespace {

int failures = 0;

// Fills with uniform values in [lo, hi) from a per-run seed (fresh inputs every run).
inline void fill(std::vector<float>& v, std::mt19937_64& rng, float lo, float hi) {
  // A fast generator for multi-gigabyte arrays: xorshift seeded from the Mersenne twister.
  uint64_t s = rng() | 1;
  for (float& x : v) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    x = lo + (hi - lo) * float((s >> 40) * (1.0 / 16777216.0));
  }
}

struct Buffer {
  CUdeviceptr p = 0;
  size_t bytes = 0;
  explicit Buffer(size_t n) : bytes(n) { CHECK_CU(cuMemAlloc(&p, n ? n : 1)); }
  ~Buffer() { cuMemFree(p); }
  template <typename T>
  void put(const std::vector<T>& v) { CHECK_CU(cuMemcpyHtoD(p, v.data(), v.size() * sizeof(T))); }
  template <typename T>
  std::vector<T> get(size_t n) const {
    std::vector<T> v(n);
    CHECK_CU(cuMemcpyDtoH(v.data(), p, n * sizeof(T)));
    return v;
  }
};

// Poison: all-ones bits are a NaN for f32, so an unwritten element never passes.
inline void poison(const Buffer& b) { CHECK_CU(cuMemsetD8(b.p, 0xff, b.bytes)); }

inline void report(const char* what, size_t n, size_t bad, double worst, size_t first_bad) {
  std::printf("%-34s n=%-11zu %s  worst=%.3g%s\n", what, n, bad ? "FAIL" : "ok  ", worst,
              bad ? (" first bad index " + std::to_string(first_bad)).c_str() : "");
  if (bad) ++failures;
}

// ---- f16 / bf16 on the CPU ----------------------------------------------------------------

inline uint16_t to_f16(float f) {
  _Float16 h = (_Float16)f;
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
inline float from_f16(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return float(h);
}
inline uint16_t to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}
inline float from_bf16(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

enum class Ty { F32, F16, BF16 };
inline size_t ty_bytes(Ty t) { return t == Ty::F32 ? 4 : 2; }

// Host data of type `t` from floats, and back.
inline std::vector<uint8_t> pack(const std::vector<float>& v, Ty t) {
  std::vector<uint8_t> out(v.size() * ty_bytes(t));
  for (size_t i = 0; i < v.size(); ++i) {
    if (t == Ty::F32) std::memcpy(&out[i * 4], &v[i], 4);
    else {
      uint16_t h = t == Ty::F16 ? to_f16(v[i]) : to_bf16(v[i]);
      std::memcpy(&out[i * 2], &h, 2);
    }
  }
  return out;
}
inline std::vector<double> unpack(const std::vector<uint8_t>& b, Ty t) {
  size_t n = b.size() / ty_bytes(t);
  std::vector<double> out(n);
  for (size_t i = 0; i < n; ++i) {
    if (t == Ty::F32) {
      float f;
      std::memcpy(&f, &b[i * 4], 4);
      out[i] = f;
    } else {
      uint16_t h;
      std::memcpy(&h, &b[i * 2], 2);
      out[i] = t == Ty::F16 ? from_f16(h) : from_bf16(h);
    }
  }
  return out;
}
// The inputs as the kernel sees them (rounded to the dtype).
inline std::vector<double> rounded(const std::vector<float>& v, Ty t) { return unpack(pack(v, t), t); }

// ||out - ref|| / ||ref|| (NaN and unwritten poison never pass).
inline double rel_error(const std::vector<double>& out, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (std::isnan(out[i])) return INFINITY;
    num += (out[i] - ref[i]) * (out[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / (den ? den : 1));
}

inline void report_rel(const std::string& what, double err, double bound) {
  std::printf("%-34s %s  rel err %.2e (bound %.0e)\n", what.c_str(), err <= bound ? "ok  " : "FAIL", err, bound);
  if (!(err <= bound)) ++failures;
}

inline double tolerance(Ty t) { return t == Ty::F32 ? 1e-5 : t == Ty::F16 ? 2e-3 : 1e-2; }
inline const char* ty_name(Ty t) { return t == Ty::F32 ? "f32" : t == Ty::F16 ? "f16" : "bf16"; }

// The matmul headers hold the tma_wgmma path (the default target: sm_90a and sm_80): on a 9.0
// device it runs when every row is 16-byte aligned and no extent is 0 (tensor maps need extents
// >= 1); the portable path runs otherwise.
inline bool is_wgmma_entry() { return std::strstr(g_last_entry, "_wgmma") != nullptr; }
inline void expect_path(const std::string& what, bool wgmma) {
  if (is_wgmma_entry() == wgmma) return;
  std::printf("FAIL %s: ran %s, expected the %s path\n", what.c_str(), g_last_entry, wgmma ? "tma_wgmma" : "portable");
  ++failures;
}
int g_device_cc = 0;  // the device's compute capability (major * 10 + minor)

// Makes device 0's primary context current (cuda_check.h) and records its compute capability in
// g_device_cc.
inline void use_device_0_with_cc() {
  CUdevice dev = use_device_0();
  int major = 0, minor = 0;
  CHECK_CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CHECK_CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  g_device_cc = major * 10 + minor;
}

}  // namespace
