// The fixed C++ part of every --emit=torch source: the checks of a call (device, rank, dtype and
// build, extents, written arrays) driven by per-kernel tables, and the launch environment
// (device guard, PyTorch's current stream). Uses only the LibTorch stable ABI of PyTorch 2.10
// and the CUDA driver API.
#include "codegen/torch/runtime.h"

namespace tilec::codegen::torch {

std::string_view cpp_runtime_section() {
  return R"CPP(// ---- tilec's PyTorch glue: the same in every file `tilec --emit=torch` writes (docs/torch.md) ----
namespace {
namespace tilec_torch {

using torch::headeronly::ScalarType;
using torch::stable::Tensor;

// A dtype as Python prints it.
inline std::string dtype_text(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "torch.bool";
    case ScalarType::Char: return "torch.int8";
    case ScalarType::Short: return "torch.int16";
    case ScalarType::Int: return "torch.int32";
    case ScalarType::Long: return "torch.int64";
    case ScalarType::Byte: return "torch.uint8";
    case ScalarType::UInt16: return "torch.uint16";
    case ScalarType::UInt32: return "torch.uint32";
    case ScalarType::UInt64: return "torch.uint64";
    case ScalarType::Half: return "torch.float16";
    case ScalarType::BFloat16: return "torch.bfloat16";
    case ScalarType::Float: return "torch.float32";
    case ScalarType::Double: return "torch.float64";
    case ScalarType::Float8_e4m3fn: return "torch.float8_e4m3fn";
    case ScalarType::Float8_e5m2: return "torch.float8_e5m2";
    case ScalarType::Float8_e4m3fnuz: return "torch.float8_e4m3fnuz";
    case ScalarType::Float8_e5m2fnuz: return "torch.float8_e5m2fnuz";
    default: return "dtype #" + std::to_string(int(t));
  }
}

// The device of `t` as Python prints it.
inline std::string device_text(const Tensor& t) {
  torch::stable::Device d = t.device();
  switch (d.type()) {
    case torch::headeronly::DeviceType::CUDA: return "cuda:" + std::to_string(int(d.index()));
    case torch::headeronly::DeviceType::CPU: return "cpu";
    case torch::headeronly::DeviceType::Meta: return "meta";
    default: return "a device that is neither CPU nor CUDA";
  }
}

// One extent of an array parameter: a dimension symbol (index into Kernel::dims) or a constant.
struct Extent {
  int symbol;        // -1 for a constant
  int64_t constant;
};

// One array parameter of a kernel, in source order.
struct Array {
  const char* name;
  int rank;
  const Extent* extents;
  bool written;      // the kernel stores to it or updates it atomically
};

// What a kernel's op checks: generated once per kernel from its signature and its builds.
struct Kernel {
  const char* name;             // the kernel's (and the op's) name
  const char* qualname;         // "ns::name"
  int num_dims;
  const char* const* dims;      // dimension symbols, order of first appearance
  int num_arrays;
  const Array* arrays;
  int num_builds;
  const char* const* builds;    // per build, its -D values ("T=f16"); "" for a single build
  const ScalarType* dtypes;     // [build][array]
  const char* const* tile_dtypes;  // [build][array]: the .tile dtype ("f16")
};

// The checks of one call, in the order of docs/torch.md: device, rank, dtype (which picks the
// build), extents, written arrays. Throws std::runtime_error (RuntimeError in Python) naming the
// op, the argument and what was expected, before anything is launched.
class Call {
 public:
  // `arrays` has Kernel::num_arrays entries; null for an output the functional form allocates.
  Call(const Kernel& k, const char* overload, const Tensor* const* arrays, const int64_t* sizes = nullptr)
      : k_(k), overload_(overload), t_(arrays) {
    for (int s = 0; s < k.num_dims && s < kMaxDims; ++s) extent_[s] = -1;
    if (k.num_dims > kMaxDims) fail("more than 64 dimension symbols");
    check_devices();
    for (int i = 0; i < k.num_arrays; ++i)
      if (t_[i] && t_[i]->dim() != k.arrays[i].rank)
        fail(arg(i) + " must have " + std::to_string(k.arrays[i].rank) + " dimensions " + shape_text(i) + ", got " +
             std::to_string(t_[i]->dim()));
    pick_build();
    if (sizes) bind_sizes(sizes);
    for (int i = 0; i < k.num_arrays; ++i)
      if (t_[i]) check_extents(i);
    for (int i = 0; i < k.num_arrays; ++i)
      if (t_[i] && k.arrays[i].written) check_written(i);
  }

  int build() const { return build_; }
  int32_t device() const { return device_; }
  int64_t extent(int symbol) const { return extent_[symbol]; }

  // A fresh contiguous tensor for output array `i` of the functional form: the bound extents,
  // the build's dtype, on the device of the first input.
  Tensor output(int i, const Tensor& like) const {
    const Array& a = k_.arrays[i];
    std::vector<int64_t> shape;
    for (int d = 0; d < a.rank; ++d)
      shape.push_back(a.extents[d].symbol >= 0 ? extent_[a.extents[d].symbol] : a.extents[d].constant);
    return torch::stable::new_empty(like, shape, k_.dtypes[build_ * k_.num_arrays + i]);
  }

  // Scratch memory for a split-K configuration's partial sums (docs/torch.md, "Workspace"):
  // `bytes` (at least 1) from PyTorch's caching allocator on the device of `like`, uninitialized.
  Tensor workspace(const Tensor& like, size_t bytes) const {
    std::vector<int64_t> shape{int64_t(bytes > 0 ? bytes : 1)};  // as output() passes its shape
    return torch::stable::new_empty(like, shape, ScalarType::Byte);
  }

  // A scalar argument as the kernel's integer dtype: fails when it does not fit.
  template <typename T>
  T integer(const char* name, const char* tile_dtype, int64_t v) const {
    if (std::is_unsigned<T>::value ? v < 0 || uint64_t(v) > uint64_t(std::numeric_limits<T>::max())
                                   : v < int64_t(std::numeric_limits<T>::min()) || v > int64_t(std::numeric_limits<T>::max()))
      fail("argument '" + std::string(name) + "' = " + std::to_string(v) + " does not fit the kernel's " + tile_dtype);
    return T(v);
  }

  // Turns a failed launch into an exception with the CUDA error's name.
  void check(CUresult r) const {
    if (r == CUDA_SUCCESS) return;
    const char* name = nullptr;
    const char* text = nullptr;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS) name = nullptr;
    if (cuGetErrorString(r, &text) != CUDA_SUCCESS) text = nullptr;
    std::string what = "the launch failed with " + (name ? std::string(name) : "CUresult " + std::to_string(int(r)));
    if (text) what += " (" + std::string(text) + ")";
    if (r == CUDA_ERROR_INVALID_VALUE)
      what += ": the header's launch checks refused the arguments (docs/header.md, \"Errors are values\")";
    fail(what);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(std::string(k_.qualname) + overload_ + " (tilec kernel '" + k_.name + "'): " + what);
  }

 private:
  static constexpr int kMaxDims = 64;

  std::string arg(int i) const { return "argument '" + std::string(k_.arrays[i].name) + "'"; }

  // "[M, N]" or "[M, 64]"
  std::string shape_text(int i) const {
    const Array& a = k_.arrays[i];
    std::string s = "[";
    for (int d = 0; d < a.rank; ++d) {
      if (d) s += ", ";
      s += a.extents[d].symbol >= 0 ? k_.dims[a.extents[d].symbol] : std::to_string(a.extents[d].constant);
    }
    return s + "]";
  }

  void check_devices() {
    int first = -1;
    for (int i = 0; i < k_.num_arrays; ++i) {
      if (!t_[i]) continue;
      if (!t_[i]->is_cuda()) fail(arg(i) + " must be a CUDA tensor, got one on " + device_text(*t_[i]));
      if (first < 0) {
        first = i;
        device_ = t_[i]->get_device_index();
      } else if (t_[i]->get_device_index() != device_) {
        fail(arg(i) + " is on " + device_text(*t_[i]) + ", but argument '" + k_.arrays[first].name + "' is on " +
             device_text(*t_[first]) + ": every tensor must be on one CUDA device");
      }
    }
    if (first < 0) device_ = torch::stable::accelerator::getCurrentDeviceIndex();
  }

  bool dtypes_match(int b) const {
    for (int i = 0; i < k_.num_arrays; ++i)
      if (t_[i] && t_[i]->scalar_type() != k_.dtypes[b * k_.num_arrays + i]) return false;
    return true;
  }

  std::string expected_dtype(int b, int i) const {
    std::string s = dtype_text(k_.dtypes[b * k_.num_arrays + i]) + " (the kernel's " +
                    k_.tile_dtypes[b * k_.num_arrays + i];
    if (k_.num_builds > 1) s += std::string(" in the build ") + k_.builds[b];
    s += ")";
    return s;
  }

  // The build whose dtypes all match; otherwise an error about the first argument no build
  // accepts, or the first one that disagrees with the build the arguments before it chose.
  void pick_build() {
    for (int b = 0; b < k_.num_builds; ++b)
      if (dtypes_match(b)) {
        build_ = b;
        return;
      }
    std::vector<bool> alive(size_t(k_.num_builds), true);
    for (int i = 0; i < k_.num_arrays; ++i) {
      if (!t_[i]) continue;
      ScalarType got = t_[i]->scalar_type();
      std::vector<bool> next = alive;
      bool any = false;
      for (int b = 0; b < k_.num_builds; ++b) {
        next[size_t(b)] = alive[size_t(b)] && k_.dtypes[b * k_.num_arrays + i] == got;
        any = any || next[size_t(b)];
      }
      if (any) {
        alive = next;
        continue;
      }
      std::string want;
      int shown = 0;
      for (int b = 0; b < k_.num_builds; ++b)
        if (alive[size_t(b)]) want += (shown++ ? " or " : "") + expected_dtype(b, i);
      std::string hint;
      if (got == ScalarType::Float8_e4m3fnuz || got == ScalarType::Float8_e5m2fnuz)
        hint = "; the fnuz float8 types (another exponent bias, one NaN) are not the kernel's f8e4m3/f8e5m2";
      fail(arg(i) + " must have dtype " + want + ", got " + dtype_text(got) + hint);
    }
    fail("no build matches the dtypes");  // unreachable: some build matched every argument
  }

  // Where a symbol was bound: array `i`, extent `d`; array -1: the functional form's size argument.
  struct Origin {
    int array, dim;
  };

  std::string origin_text(Origin o) const {
    if (o.array < 0) return "argument '" + std::string(k_.dims[o.dim]) + "'";
    return "extent " + std::to_string(o.dim) + " of " + arg(o.array) + " " + shape_text(o.array);
  }

  void bind(int symbol, int64_t value, Origin o) {
    if (extent_[symbol] < 0) {
      extent_[symbol] = value;
      origin_[symbol] = o;
    } else if (extent_[symbol] != value) {
      fail(origin_text(o) + " is " + std::to_string(value) + ", but " + origin_text(origin_[symbol]) + " is " +
           std::to_string(extent_[symbol]) + ": both are the dimension symbol " + k_.dims[symbol]);
    }
  }

  // Extents the functional form takes as arguments (symbols no input array has).
  void bind_sizes(const int64_t* sizes) {
    for (int s = 0; s < k_.num_dims; ++s)
      if (sizes[s] >= 0)
        bind(s, sizes[s], Origin{-1, s});
      else if (sizes[s] != -1)
        fail("argument '" + std::string(k_.dims[s]) + "' is an extent and must not be negative, got " +
             std::to_string(sizes[s]));
  }

  void check_extents(int i) {
    const Array& a = k_.arrays[i];
    for (int d = 0; d < a.rank; ++d) {
      int64_t got = t_[i]->size(d);
      if (a.extents[d].symbol >= 0)
        bind(a.extents[d].symbol, got, Origin{i, d});
      else if (got != a.extents[d].constant)
        fail(origin_text(Origin{i, d}) + " must be " + std::to_string(a.extents[d].constant) + " (a constant of the kernel's signature), got " +
             std::to_string(got));
    }
  }

  // The lowest and one past the highest byte `t` spans (lo == hi when it is empty).
  static void span(const Tensor& t, uintptr_t& lo, uintptr_t& hi) {
    lo = hi = uintptr_t(t.data_ptr());
    if (t.numel() == 0) return;
    int64_t low = 0, high = 0;
    for (int64_t d = 0; d < t.dim(); ++d) {
      int64_t step = (t.size(d) - 1) * t.stride(d);
      (step < 0 ? low : high) += step;
    }
    int64_t bytes = int64_t(t.element_size());
    lo += uintptr_t(low * bytes);
    hi += uintptr_t(high * bytes + bytes);
  }

  static bool same_view(const Tensor& a, const Tensor& b) {
    if (a.data_ptr() != b.data_ptr() || a.element_size() != b.element_size() || a.dim() != b.dim()) return false;
    for (int64_t d = 0; d < a.dim(); ++d)
      if (a.size(d) != b.size(d) || a.stride(d) != b.stride(d)) return false;
    return true;
  }

  // A written array has one address per element, overlaps no other written array, and overlaps
  // a read array only as the same view (an in-place call such as vector_add.out(c, b, c)).
  void check_written(int i) {
    const Tensor& t = *t_[i];
    for (int64_t d = 0; d < t.dim(); ++d)
      if (t.stride(d) == 0 && t.size(d) > 1)
        fail(arg(i) + " is written by the kernel, but its dimension " + std::to_string(d) +
             " has stride 0 (an expanded view): several elements would share one address; pass a tensor with "
             "distinct elements (.contiguous() or .clone())");
    uintptr_t lo, hi;
    span(t, lo, hi);
    if (lo == hi) return;
    for (int j = 0; j < k_.num_arrays; ++j) {
      if (j == i || !t_[j]) continue;
      if (k_.arrays[j].written && j < i) continue;  // that pair was checked from j
      uintptr_t lo2, hi2;
      span(*t_[j], lo2, hi2);
      if (lo2 == hi2 || hi <= lo2 || hi2 <= lo) continue;
      if (k_.arrays[j].written)
        fail(arg(i) + " and argument '" + k_.arrays[j].name +
             "' are both written by the kernel and overlap in memory; pass separate tensors");
      if (!same_view(t, *t_[j]))
        fail(arg(i) + " is written by the kernel and partially overlaps argument '" + k_.arrays[j].name +
             "', which it reads; pass the same view (an in-place call) or separate tensors");
    }
  }

  const Kernel& k_;
  const char* overload_;
  const Tensor* const* t_;
  int build_ = 0;
  int32_t device_ = 0;
  int64_t extent_[kMaxDims];
  Origin origin_[kMaxDims];
};

// The launch environment: the arrays' device made current (which makes its primary context
// current for the header's launch function) and PyTorch's current stream on it.
class Launch {
 public:
  explicit Launch(const Call& c) : guard_(c.device()) {
    void* s = nullptr;
    if (aoti_torch_get_current_cuda_stream(c.device(), &s) != AOTI_TORCH_SUCCESS)
      c.fail("cannot get the current CUDA stream");
    stream_ = CUstream(s);
  }
  CUstream stream() const { return stream_; }

 private:
  torch::stable::accelerator::DeviceGuard guard_;
  CUstream stream_ = nullptr;
};

inline CUdeviceptr ptr(const Tensor& t) { return CUdeviceptr(uintptr_t(t.data_ptr())); }

}  // namespace tilec_torch
}  // namespace
)CPP";
}

}  // namespace tilec::codegen::torch
