// The engine of the GPU runners that tools/difftest/gpu_campaign.py generates (GitHub issue 37):
// each runner source includes this file, the generated headers of its seeds, and defines a
// table of tests (one kernel from one header) whose launch functions call the header's dense
// launch with the extents and scalars of tilec-difftest's manifest. For each test and each
// memory layout (a: bases 256-byte aligned, so the vectorized variants and the tma_wgmma path
// may run; u: every base one element past that, so the general variants run) the engine
//   - allocates each array with exactly its bytes between two 256-byte sentinel bands (filled
//     with 0xa5; language.md §8.1: a kernel touches nothing outside its arrays),
//   - copies the inputs tilec-difftest wrote (arrays the kernel writes and never reads hold
//     poison there: all bits set, NaN for floats), launches, synchronizes,
//   - compares every array with the interpreter's -O0 results bit for bit (NaN equals NaN
//     whatever its payload; +0 equals -0), or within tilec-difftest's tolerance for kernels with
//     math functions, and checks the bands,
// and prints `seed kernel header/layout entry ok|FAIL (what)|CRASH (what)`, the entry being the PTX entry the
// launch took (TILEC_TRACE_LAUNCH, docs/header.md). Lines starting with '#' are for run.sh: a
// test's start and end, so that a run that crashes or hangs can resume after the test.
//   runner DIR [--from I] [--layouts au]     DIR: the campaign folder's work/ (the data files)
// Exit status: 0 every test ran (whatever the verdicts), 3 a CUDA error left the context unusable
// or a kernel ran longer than kHangSeconds (run.sh resumes after the test), 2 setup failed.
#pragma once

#include <cuda.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

static const char* g_entry = "";
#define TILEC_TRACE_LAUNCH(entry) (g_entry = (entry))

namespace gpurun {

enum class Kind { Int, Bool, F16, BF16, F32, F64 };

struct Array {
  const char* name;
  const char* in_file;        // relative to DIR
  const char* expected_file;  // relative to DIR; the in file for arrays the kernel does not write
  Kind kind;
  int elem_bytes;
  int rank;
  int64_t extents[4];
};

using Launch = CUresult (*)(const CUdeviceptr* arrays);

struct Test {
  int seed;
  const char* kernel;
  const char* header;  // "def" (default target) or "p80" (-arch sm_80: compute_80 PTX, JIT)
  Launch launch;
  const Array* arrays;
  int num_arrays;
  bool math;  // math functions: tilec-difftest's tolerance
};

constexpr size_t kBand = 256;
constexpr int kHangSeconds = 20;
constexpr unsigned char kBandByte = 0xa5;

inline double f16_value(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? std::ldexp(double(m), -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(double(m | 1024), e - 25);
  return (h & 0x8000) ? -v : v;
}

inline double value(const unsigned char* p, Kind k, int bytes) {
  if (k == Kind::F16) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return f16_value(h);
  }
  if (k == Kind::BF16 || k == Kind::F32) {
    uint32_t u = 0;
    if (k == Kind::BF16) {
      uint16_t h;
      std::memcpy(&h, p, 2);
      u = uint32_t(h) << 16;
    } else {
      std::memcpy(&u, p, 4);
    }
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  if (k == Kind::F64) {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  (void)bytes;
  return 0;
}

inline bool is_float(Kind k) { return k == Kind::F16 || k == Kind::BF16 || k == Kind::F32 || k == Kind::F64; }

// tools/difftest/main.cpp's agree(): integers (and bool bytes) exactly; floats exactly with NaN
// equal to NaN and +0 to -0, or with `tolerant` within 2^-10 relative (2^-7 for bf16).
inline bool agree(const unsigned char* want, const unsigned char* got, Kind k, int bytes, bool tolerant) {
  if (!is_float(k)) return std::memcmp(want, got, size_t(bytes)) == 0;
  double a = value(want, k, bytes), b = value(got, k, bytes);
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a == b) return true;
  if (!tolerant || std::isinf(a) || std::isinf(b)) return false;
  double scale = k == Kind::BF16 ? 0x1p-7 : 0x1p-10;
  return std::fabs(a - b) <= scale * std::fmax(std::fmax(std::fabs(a), std::fabs(b)), 1.0);
}

inline std::string show(const unsigned char* p, Kind k, int bytes) {
  char buf[64];
  if (is_float(k)) {
    std::snprintf(buf, sizeof buf, "%.9g", value(p, k, bytes));
    return buf;
  }
  uint64_t u = 0;
  std::memcpy(&u, p, size_t(bytes));
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)u);
  return buf;
}

inline bool read_file(const std::string& path, std::vector<unsigned char>& out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  out.clear();
  unsigned char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.insert(out.end(), buf, buf + n);
  std::fclose(f);
  return true;
}

inline const char* error_name(CUresult r) {
  const char* name = "?";
  cuGetErrorName(r, &name);
  return name;
}

// Whether `r` leaves the context unusable (the errors after which every later call fails).
inline bool sticky(CUresult r) {
  return r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED || r == CUDA_ERROR_ASSERT ||
         r == CUDA_ERROR_ILLEGAL_INSTRUCTION || r == CUDA_ERROR_MISALIGNED_ADDRESS ||
         r == CUDA_ERROR_INVALID_ADDRESS_SPACE || r == CUDA_ERROR_INVALID_PC || r == CUDA_ERROR_HARDWARE_STACK_ERROR ||
         r == CUDA_ERROR_LAUNCH_TIMEOUT || r == CUDA_ERROR_UNKNOWN;
}

// One test in one layout. Returns false when the context is unusable afterwards.
inline bool run_one(const std::string& dir, const Test& t, char layout, std::string& verdict) {
  std::vector<CUdeviceptr> alloc(size_t(t.num_arrays), 0), base(size_t(t.num_arrays), 0);
  std::vector<size_t> bytes(size_t(t.num_arrays)), pre(size_t(t.num_arrays));
  std::vector<std::vector<unsigned char>> expected(size_t(t.num_arrays));
  bool usable = true;
  auto cleanup = [&]() {
    for (CUdeviceptr p : alloc)
      if (p) cuMemFree(p);
  };
  for (int i = 0; i < t.num_arrays; ++i) {
    const Array& a = t.arrays[i];
    std::vector<unsigned char> in;
    if (!read_file(dir + "/" + a.in_file, in) || !read_file(dir + "/" + a.expected_file, expected[size_t(i)])) {
      verdict = std::string("FAIL (cannot read the files of array ") + a.name + ")";
      cleanup();
      return true;
    }
    bytes[size_t(i)] = in.size();
    pre[size_t(i)] = kBand + (layout == 'u' ? size_t(a.elem_bytes) : 0);
    size_t total = pre[size_t(i)] + in.size() + kBand;
    CUresult r = cuMemAlloc(&alloc[size_t(i)], total);
    if (r == CUDA_SUCCESS) r = cuMemsetD8(alloc[size_t(i)], kBandByte, total);
    base[size_t(i)] = alloc[size_t(i)] + pre[size_t(i)];
    if (r == CUDA_SUCCESS && !in.empty()) r = cuMemcpyHtoD(base[size_t(i)], in.data(), in.size());
    if (r != CUDA_SUCCESS) {
      verdict = std::string("FAIL (setup: ") + error_name(r) + ")";
      cleanup();
      return !sticky(r);
    }
  }
  g_entry = "-";
  CUresult r = t.launch(base.data());
  if (r != CUDA_SUCCESS) {
    verdict = std::string("FAIL (launch returned ") + error_name(r) + ")";
    if (r != CUDA_ERROR_INVALID_VALUE) {
      CUresult s = cuCtxSynchronize();
      usable = !sticky(r) && !sticky(s);
      if (!usable) verdict = std::string("CRASH (launch returned ") + error_name(r) + ", synchronize " + error_name(s) + ")";
    }
    cleanup();
    return usable;
  }
  // Wait at most kHangSeconds: a kernel that hangs (a pipeline waiting forever) ends the
  // runner, and run.sh resumes after this test.
  CUevent done = nullptr;
  r = cuEventCreate(&done, CU_EVENT_DISABLE_TIMING);
  if (r == CUDA_SUCCESS) r = cuEventRecord(done, nullptr);
  if (r == CUDA_SUCCESS)
    for (auto t0 = std::chrono::steady_clock::now(); (r = cuEventQuery(done)) == CUDA_ERROR_NOT_READY;) {
      if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(kHangSeconds)) {
        verdict = "CRASH (hung: not done after " + std::to_string(kHangSeconds) + " s)";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  if (done) cuEventDestroy(done);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) {
    verdict = std::string(sticky(r) ? "CRASH" : "FAIL") + " (synchronize: " + error_name(r) + ")";
    cleanup();
    return !sticky(r);
  }
  std::string what;
  size_t bad_total = 0;
  for (int i = 0; i < t.num_arrays && usable; ++i) {
    const Array& a = t.arrays[i];
    size_t total = pre[size_t(i)] + bytes[size_t(i)] + kBand;
    std::vector<unsigned char> host(total);
    r = cuMemcpyDtoH(host.data(), alloc[size_t(i)], total);
    if (r != CUDA_SUCCESS) {
      verdict = std::string("FAIL (copy back: ") + error_name(r) + ")";
      cleanup();
      return !sticky(r);
    }
    for (size_t b = 0; b < total; ++b) {
      if (b >= pre[size_t(i)] && b < pre[size_t(i)] + bytes[size_t(i)]) continue;
      if (host[b] != kBandByte) {
        long long at = b < pre[size_t(i)] ? -(long long)(pre[size_t(i)] - b) : (long long)(b - pre[size_t(i)] - bytes[size_t(i)]);
        if (what.empty())
          what = std::string("array ") + a.name + ": wrote outside it, byte " + std::to_string(at) +
                 (at < 0 ? " before its start" : " past its end");
        ++bad_total;
        break;
      }
    }
    const unsigned char* got = host.data() + pre[size_t(i)];
    const std::vector<unsigned char>& want = expected[size_t(i)];
    size_t n = want.size() / size_t(a.elem_bytes), bad = 0, first = 0;
    for (size_t e = 0; e < n; ++e)
      if (!agree(&want[e * size_t(a.elem_bytes)], got + e * size_t(a.elem_bytes), a.kind, a.elem_bytes, t.math) && !bad++)
        first = e;
    if (bad) {
      bad_total += bad;
      if (what.empty()) {
        std::string idx;
        size_t rest = first;
        for (int d = a.rank; d-- > 0;) {
          idx = std::to_string(rest % size_t(a.extents[d])) + (idx.empty() ? "" : ", ") + idx;
          rest /= size_t(a.extents[d]);
        }
        what = std::string("array ") + a.name + " [" + idx + "]: expected " +
               show(&want[first * size_t(a.elem_bytes)], a.kind, a.elem_bytes) + ", got " +
               show(got + first * size_t(a.elem_bytes), a.kind, a.elem_bytes) + "; " + std::to_string(bad) + " of " +
               std::to_string(n) + " elements differ";
      }
    }
  }
  cleanup();
  verdict = bad_total ? "FAIL (" + what + ")" : "ok";
  return true;
}

inline int run_tests(int argc, char** argv, const Test* tests, int num_tests) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [--from I] [--layouts au]\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1], layouts = "au";
  int from = 0;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--from") == 0) from = std::atoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--layouts") == 0) layouts = argv[i + 1];
  }
  CUdevice dev;
  CUcontext ctx;
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS) r = cuDeviceGet(&dev, 0);
  if (r == CUDA_SUCCESS) r = cuDevicePrimaryCtxRetain(&ctx, dev);
  if (r == CUDA_SUCCESS) r = cuCtxSetCurrent(ctx);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "no CUDA device: %s\n", error_name(r));
    return 2;
  }
  // Test i in layout l is step i * layouts + l, so that a resume skips only what crashed.
  int steps = num_tests * int(layouts.size());
  for (int s = from; s < steps; ++s) {
    const Test& t = tests[s / int(layouts.size())];
    char layout = layouts[size_t(s) % layouts.size()];
    std::printf("# start %d %d %s %s/%c\n", s, t.seed, t.kernel, t.header, layout);
    std::fflush(stdout);
    std::string verdict;
    bool usable = run_one(dir, t, layout, verdict);
    std::printf("%d %s %s/%c %s %s%s\n# done %d\n", t.seed, t.kernel, t.header, layout, g_entry, verdict.c_str(),
                t.math && verdict != "ok" ? " [math]" : "", s);
    std::fflush(stdout);
    if (!usable) return 3;
  }
  return 0;
}

}  // namespace gpurun
