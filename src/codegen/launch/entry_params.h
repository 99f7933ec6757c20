// The parameters of a kernel's PTX entry, computed once: the PTX emitter declares them, the
// parameter-space limit and the launch divisors' budget add them up, and the header's launch
// stub packs them, each by iterating this list instead of knowing the order itself.
//
// The order (all in the `.param` space, each at its natural alignment):
//   0. a path with tensor maps (AbiPath::tensor_maps): one `.param .align 128 .b8 [128]` (a
//      CUtensorMap by value) each, the loads' first, then the stores'
//   1. for each array parameter, in source order: .u64 base address, then one .s64 stride per
//      dimension (in elements, outermost first)
//   2. for each dimension symbol, in order of first appearance: .s64 extent
//   3. for each scalar parameter, in source order: its dtype's natural size
//      (bool/i8/u8: .u8; i16/u16/f16/bf16: .b16; 32-bit: .b32; 64-bit: .b64)
//   4. a persistent grid (AbiPath::persistent): the logical grid, three .u32
//   5. for each launch divisor (AbiPath::divisors): the divisor (.b32 for 32-bit dtypes, else
//      .b64), then its magic number and two shifts, three .u32 (tilec_divisor_magic)
// Constant dimensions (`f32[n, 4]`) are not passed. Every variant of a kernel's path
// (vectorized, general) takes the same parameters.
#pragma once

#include <cstdint>
#include <vector>

#include "basic/dtype.h"
#include "codegen/launch/kernel_abi.h"
#include "ir/signature.h"

namespace tilec::codegen {

/// One parameter of a PTX entry.
struct EntryParam {
  enum class Kind {
    TensorMap,     ///< a CUtensorMap, 128 bytes
    Base,          ///< an array's base address
    Stride,        ///< one of an array's strides
    Extent,        ///< a dimension symbol's extent
    Scalar,        ///< a scalar parameter
    GridSize,      ///< one axis of a persistent grid's logical grid
    Divisor,       ///< a launch divisor's value
    DivisorMagic,  ///< a launch divisor's magic number or one of its shifts
  };
  Kind kind = Kind::Base;
  /// TensorMap: the map's position; Base, Stride, Scalar: the source parameter's (in
  /// Signature::params, KernelAbi::params); Extent: the dimension symbol's; GridSize: the axis
  /// (x, y, z); Divisor, DivisorMagic: the divisor's.
  int index = 0;
  /// Stride: the dimension (outermost first); DivisorMagic: 0 the magic number, 1 and 2 the
  /// shifts.
  int part = 0;
  /// The value's dtype: Base U64; Stride and Extent I64; Scalar and Divisor theirs; GridSize and
  /// DivisorMagic U32. TensorMap: unused.
  DType dtype = DType::U32;

  /// Bytes, which are also its alignment: 128 for a tensor map, else the dtype's (at least 1).
  int64_t bytes() const;
};

/// What a path's entry parameters are made of, per source parameter.
struct EntrySourceParam {
  bool is_array = false;
  size_t rank = 0;  ///< an array's dimensions
  DType dtype = DType::F32;
};

/// The entry parameters, in order, of a kernel with source parameters `params`, `dim_symbols`
/// dimension symbols, and on its path `tensor_maps` maps, a persistent grid or not and
/// divisors of dtypes `divisors`.
std::vector<EntryParam> entry_params(const std::vector<EntrySourceParam>& params, size_t dim_symbols,
                                     size_t tensor_maps, bool persistent, const std::vector<DType>& divisors);

/// The same for a kernel's signature, with the path's extras.
std::vector<EntryParam> entry_params(const ir::Signature& k, size_t tensor_maps = 0, bool persistent = false,
                                     const std::vector<DType>& divisors = {});

/// The same for path `p` of `k` (the launch stub's view).
std::vector<EntryParam> entry_params(const KernelAbi& k, const AbiPath& p);

/// Bytes of the `.param` space `params` take, each at its natural alignment after the one
/// before.
int64_t entry_param_bytes(const std::vector<EntryParam>& params);

}  // namespace tilec::codegen
