// The binary interface between a generated kernel and its launch function: what the PTX entry
// takes, in which order, and what the launch stub must compute. Shared by the PTX emitter and
// the header generator, so the two cannot disagree.
//
// The PTX entry's parameters, in order, are entry_params.h's list, computed from a KernelAbi
// and its path as from the kernel's signature.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "basic/tile_type.h"
#include "codegen/target/target.h"

namespace tilec {

/// One source parameter of a kernel.
struct AbiParam {
  enum class Kind { Array, Scalar };
  Kind kind = Kind::Array;
  std::string name;
  DType dtype = DType::F32;
  std::vector<ArrayDim> dims;  ///< Array: one entry per dimension (symbol or constant)
  /// Array: the kernel may store to it. The launch stub rejects partially overlapping arrays
  /// only in pairs where at least one may be written, so read-only views of one buffer (q, k, v
  /// slices of a qkv tensor) pass. True, the safe default, unless proven read-only.
  bool may_write = true;
  /// Array: the vectorized variant reads or writes it in vectors of this many bytes along its
  /// innermost dimension (lowering/vector_access.h); the launch stub takes that variant only
  /// when the innermost extent in bytes is a multiple. 1: no condition.
  int vector_bytes = 1;
  /// Array: the workspace of a split-K configuration (ir/split_k.h kPartialsParam), which the
  /// header fills from the caller's workspace argument; not a parameter of the public interface.
  bool workspace = false;
};

/// A term of the grid computation, as C code over `int64_t` variables named after the dimension
/// symbols and integer scalar parameters. Uses the helper functions the header defines:
/// `tilec_cdiv(a, b)` (ceil-div, Python floor semantics for negative values), `tilec_floordiv`,
/// `tilec_min`, `tilec_max` (shared by all tilec headers, so unprefixed; a `<prefix>` written in
/// front is accepted and dropped), and `num_sms` (an `int64_t` the stub reads from the device when
/// the grid uses `num_sms()`). Division by zero gives a negative extent, which the stub rejects.
struct AbiGrid {
  std::vector<std::string> dims_c;  ///< 1 to 3 C expressions (x, y, z)
  bool uses_num_sms = false;
};

/// One kernel variant in the image.
struct AbiVariant {
  std::string entry;      ///< PTX `.entry` name
  bool vectorized = false;  ///< assumes 16-byte aligned bases, unit innermost stride, 16-byte aligned other strides
};

/// A tensor map the launch stub encodes for a TMA path and passes by value before the other
/// parameters (cuTensorMapEncodeTiled, cuda.h; perf.md §3.4): it covers array parameter `param`
/// with boxes of `box` elements (innermost dimension first; the innermost 128 bytes, in the
/// 128-byte swizzle), out-of-bounds elements read as zeros (loads) or not written (stores).
/// The TMA loads' maps come first, then the TMA stores' (paths/tma_wgmma/plan.h TmaStore).
struct AbiTensorMap {
  int param = 0;               ///< index into KernelAbi::params (an array of f16, bf16, f32, tf32, f8 or i8)
  std::vector<int64_t> box;    ///< one extent per array dimension, innermost first
};

/// A divisor of integer // and % that the launch stub computes on the host and passes with its
/// magic number (lower.h LaunchDivisor; Granlund & Montgomery, PLDI 1994, Fig. 4.1): the kernel
/// divides by a multiply-high and two shifts instead of a division.
struct AbiDivisor {
  std::string c_expr;          ///< over int64_t variables named after the dimension symbols and integer scalars
  DType dtype = DType::U32;    ///< the divisor's dtype: its parameter is 32 or 64 bits wide
};

/// One code path of a kernel: the entries of one lowering, the devices that have them and how
/// they launch. Paths for an arch-specific target (sm_90a) come first; the stub takes one only
/// on a device of exactly that compute capability whose code has its entries. The last path is
/// the portable one: its entries exist in the code of every -arch in the image, with the same
/// launch data everywhere.
struct AbiPath {
  std::string name = "portable";  ///< what the path is, for the header's comments and metadata
  /// nullopt for the portable path; else the target (sm_90a) whose code alone has it
  std::optional<codegen::Target> target;
  std::vector<AbiVariant> variants;  ///< vectorized first when present; the last is general
  int threads_per_cta = 128;
  int dynamic_shared_bytes = 0;      ///< over 48 KiB needs the per-device attribute
  int num_warps = 4;
  int num_stages = 1;                ///< the pipeline stages the code runs with (1: none)
  int cluster_dims[3] = {1, 1, 1};   ///< >1 launches through cuLaunchKernelEx
  /// TMA paths: the maps, in parameter order. The path runs only when the stub can encode every
  /// one (the array's base 16-byte aligned, innermost stride 1, other strides multiples of 16
  /// bytes, every extent from 1 to 2^32); its single variant is compiled like the vectorized
  /// one and also needs the vectorized variant's conditions.
  std::vector<AbiTensorMap> tensor_maps;
  /// A persistent grid (paths/tma_wgmma/plan.h Specialization::persistent): the stub launches
  /// min(gx * gy * gz, SMs) CTAs along x and passes the logical grid (gx, gy, gz) as three .u32
  /// parameters after the others; each CTA loops over the logical CTAs.
  bool persistent = false;
  /// The divisors the stub computes and passes, after the other parameters (and after a
  /// persistent grid's), each with its magic number.
  std::vector<AbiDivisor> divisors;
};

/// Everything the header needs to know about one kernel.
struct KernelAbi {
  std::string name;                       ///< source name (`vector_add`)
  std::string doc;                        ///< what it computes, in the words of the source (may be empty)
  std::vector<AbiParam> params;           ///< source order
  std::vector<std::string> dim_symbols;   ///< order of first appearance
  AbiGrid grid;
  /// C conditions over the stub's extents (`tilec_sym[i]`) of the asserts the host can check
  /// (host_assert.h): the stub returns CUDA_ERROR_INVALID_VALUE, before any driver call, unless
  /// all of them hold; the vectorized variant leaves them out.
  std::vector<std::string> host_asserts;
  std::vector<std::string> host_assert_messages;  ///< per host assert: its message, for the header's comment
  /// Per host assert: its condition in Python over the dict `e` of extents by dimension symbol
  /// (`e["N"] <= 1024`; host_python_expr), for the fake implementations of --emit=torch.
  std::vector<std::string> host_asserts_python;
  std::vector<AbiPath> paths;             ///< arch-specific paths first, the portable path last
  /// A split-K configuration's kernel (ir/split_k.h): its slices (1 for every other kernel) and
  /// whether it is the reduce kernel; the partials kernel's grid has the slices as its last axis.
  int split_k = 1;
  bool split_reduce = false;
  /// Bytes of one slice's partial accumulator per CTA of the original grid: the workspace holds
  /// split_k * CTAs of them (0 without split_k).
  int64_t partial_bytes = 0;
  int64_t partial_rows = 0;  ///< the workspace's rows per accumulator tile (its first extent)
  /// The public interface (codegen/lowering/abi.h public_view): its launch functions take a workspace,
  /// because a configuration of the kernel is split-K.
  bool workspace_arg = false;

  const AbiPath& portable() const { return paths.back(); }
};

}  // namespace tilec
