// PyTorch custom operators for a module's kernels (`tilec --emit=torch`): a C++ source that
// embeds the generated header and registers two ops per kernel through the LibTorch stable ABI,
// and a companion Python module with the fake (meta) implementations torch.compile needs.
// What the ops promise their user is in docs/torch.md. Built on the launch interface alone
// (KernelAbi's parameters and dimension symbols, the header's `<k>_strided` and `<k>_load`
// functions), never on launch data or frontend types.
#pragma once

#include <string>
#include <vector>

#include "codegen/launch/kernel_abi.h"
#include "ir/ir.h"

namespace tilec::codegen::torch {

/// One kernel of one build: its launch interface and which of its arrays it reads.
struct TorchKernel {
  KernelAbi abi;
  /// Per parameter (source order): an array the kernel loads, gathers or updates atomically
  /// (arrays_read). Scalars: false. An array that is written and not read is an output the
  /// functional op allocates.
  std::vector<bool> reads;
};

/// The module compiled with one set of -D values; its header is embedded in the C++ source.
struct TorchBuild {
  std::string defines;  ///< the values that make this build ("T=f16"); "" for the only build
  std::string prefix;   ///< the --prefix its header was generated with (symbols `<prefix><k>_strided`)
  std::string header;   ///< the header text (generate_header)
  std::vector<TorchKernel> kernels;
};

/// Everything one --emit=torch output is made from.
struct TorchInput {
  std::string source_name;    ///< the .tile file's name without its folder (banners), or "<stdin>"
  std::string tilec_version;  ///< "0.1.0"
  std::string ns;             ///< the torch.library namespace: ops are torch.ops.<ns>.<kernel>
  std::string module;         ///< the companion Python module's name and the library's (`softmax_ops`)
  std::vector<TorchBuild> builds;  ///< at least one; the same kernels and parameters in each
};

/// The arrays the kernel reads, per parameter of `fn`'s signature: operand 0 of every load,
/// gather and atomic (an atomic update reads the old value) in its body.
std::vector<bool> arrays_read(const ir::Function& fn);

/// Checks what the ops need beyond what the header checked: the namespace is a Python
/// identifier; every build has the same kernels with the same parameter names, kinds, ranks and
/// extents (only dtypes may differ); builds differ in the dtypes of some array; every array
/// dtype has a PyTorch dtype (not tf32); no parameter or dimension symbol is a Python keyword.
/// Appends one message per problem; returns whether there was none.
bool check_torch_input(const TorchInput& in, std::vector<std::string>& errors);

/// The C++ source: the headers of every build, then per kernel the checks, the launch on
/// PyTorch's current stream and the registration of `<k>.out` and (where it exists) `<k>`, and
/// the op `<ns>::tilec_load(int device)`. Deterministic. Precondition: check_torch_input passes.
std::string generate_torch_cpp(const TorchInput& in);

/// The companion Python module: `load()` (builds or loads the library, then registers the fake
/// implementations), `load_kernels(device)` (before CUDA graph capture) and one fake
/// implementation per op making the same checks as the C++ on symbolic shapes.
std::string generate_torch_python(const TorchInput& in);

}  // namespace tilec::codegen::torch
