// Reference points for the per-call overhead of tilec's PyTorch ops (bench/torch_overhead.py),
// registered through the same LibTorch stable ABI as the generated ops:
//   tilec_bench::noop(Tensor x) -> ()          a C++ custom op that does nothing: the floor of
//                                              any op called through the dispatcher
//   tilec_bench::raw_launch_loop(Tensor a, Tensor b, Tensor(a!) c, int iters) -> float
//                                              seconds per call of the header's strided launch
//                                              (vector_add, --prefix bench_) in a C++ loop on the
//                                              current stream: the launch without PyTorch
// Build: tilec samples/vector_add.tile --prefix bench_ -o bench_vector_add.h, then compile with
// the generated ops (tests/gpu/torch/make_ext.sh).
#ifndef TORCH_TARGET_VERSION
#define TORCH_TARGET_VERSION (((0ULL + 2) << 56) | ((0ULL + 10) << 48))
#endif
#ifndef USE_CUDA
#define USE_CUDA
#endif
#include <cuda.h>

#include <chrono>
#include <stdexcept>

#include <torch/csrc/stable/accelerator.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/tensor.h>

#pragma GCC visibility push(hidden)
#include "bench_vector_add.h"
#pragma GCC visibility pop

namespace {

void noop(const torch::stable::Tensor&) {}

double raw_launch_loop(const torch::stable::Tensor& a, const torch::stable::Tensor& b, const torch::stable::Tensor& c,
                       int64_t iters) {
  torch::stable::accelerator::DeviceGuard guard{a.get_device_index()};
  void* stream = nullptr;
  if (aoti_torch_get_current_cuda_stream(a.get_device_index(), &stream) != AOTI_TORCH_SUCCESS)
    throw std::runtime_error("no current stream");
  auto p = [](const torch::stable::Tensor& t) { return CUdeviceptr(uintptr_t(t.data_ptr())); };
  auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < iters; ++i) {
    CUresult r = bench_vector_add_strided(CUstream(stream), p(a), a.sizes().data(), a.strides().data(), p(b),
                                          b.sizes().data(), b.strides().data(), p(c), c.sizes().data(),
                                          c.strides().data());
    if (r != CUDA_SUCCESS) throw std::runtime_error("launch failed");
  }
  std::chrono::duration<double> d = std::chrono::steady_clock::now() - start;
  return d.count() / double(iters);
}

}  // namespace

STABLE_TORCH_LIBRARY(tilec_bench, m) {
  m.def("noop(Tensor x) -> ()");
  m.def("raw_launch_loop(Tensor a, Tensor b, Tensor(a!) c, int iters) -> float");
}
STABLE_TORCH_LIBRARY_IMPL(tilec_bench, CUDA, m) {
  m.impl("noop", TORCH_BOX(&noop));
  m.impl("raw_launch_loop", TORCH_BOX(&raw_launch_loop));
}
