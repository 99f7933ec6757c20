// The two ops of one kernel, decided once and shared by the C++ and the Python writers: which
// arrays are mutated (and with which alias set), which the functional form allocates, the
// schemas, and the PyTorch dtype of each array in each build.
#pragma once

#include <string>
#include <vector>

#include "codegen/torch/torch_ops.h"

namespace tilec::codegen::torch {

/// A kernel parameter as the ops take it.
struct OpArg {
  const AbiParam* param = nullptr;  ///< of the first build (names, kinds and extents agree in all)
  int array = -1;                   ///< position among the kernel's arrays; -1 for a scalar
  bool read = false;                ///< arrays: loaded, gathered or updated atomically
  bool written = false;             ///< arrays: stored to or updated atomically (AbiParam::may_write)
  std::string alias;                ///< written arrays: the alias set in the out schema ("a", "b", ...)
  bool output = false;              ///< written and not read: returned by the functional form
};

/// The ops of one kernel: `<name>.out(...) -> ()` always, `<name>(...) -> Tensor...` when
/// `functional`.
struct TorchOp {
  std::string name;           ///< the kernel's name, which is the op's
  std::string doc;            ///< the kernel's doc comment
  std::vector<OpArg> args;    ///< source order
  std::vector<std::string> dims;  ///< dimension symbols, order of first appearance
  /// [build][array]: each array's dtype in each build.
  std::vector<std::vector<DType>> dtypes;
  bool functional = false;
  std::string no_functional;  ///< why there is no functional form (when !functional)
  /// Dimension symbols of outputs that no input array has: the functional form takes them as
  /// `SymInt` arguments after the kernel's parameters (indices into `dims`).
  std::vector<int> size_args;
};

/// The ops of kernel `k` (index into each build's kernels). Precondition: check_torch_input.
TorchOp make_op(const TorchInput& in, size_t k);

/// `<name>.out(Tensor a, Tensor(a!) c, float s) -> ()`: every parameter in source order, the
/// written arrays mutable, each in its own alias set.
std::string out_schema(const TorchOp& op);

/// `<name>(Tensor a, float s, SymInt n) -> Tensor`: the parameters that are not outputs, then the
/// size arguments; returns the outputs in source order. Precondition: op.functional.
std::string functional_schema(const TorchOp& op);

/// The schema type of a scalar parameter: `bool`, `int` (every integer dtype) or `float`.
std::string schema_scalar_type(DType t);

/// The C++ type a TORCH_BOX function takes for a scalar (`bool`, `int64_t`, `double`).
std::string cpp_scalar_type(DType t);

}  // namespace tilec::codegen::torch
