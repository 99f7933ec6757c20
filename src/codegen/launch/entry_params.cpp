// The entry parameter list (entry_params.h).
#include "codegen/launch/entry_params.h"

#include <algorithm>

namespace tilec::codegen {

int64_t EntryParam::bytes() const {
  if (kind == Kind::TensorMap) return 128;
  return std::max(1, dtype_bytes(dtype));
}

std::vector<EntryParam> entry_params(const std::vector<EntrySourceParam>& params, size_t dim_symbols,
                                     size_t tensor_maps, bool persistent, const std::vector<DType>& divisors) {
  using K = EntryParam::Kind;
  std::vector<EntryParam> out;
  for (size_t m = 0; m < tensor_maps; ++m) out.push_back({K::TensorMap, int(m), 0, DType::U32});
  for (size_t p = 0; p < params.size(); ++p) {
    if (!params[p].is_array) continue;
    out.push_back({K::Base, int(p), 0, DType::U64});
    for (size_t d = 0; d < params[p].rank; ++d) out.push_back({K::Stride, int(p), int(d), DType::I64});
  }
  for (size_t s = 0; s < dim_symbols; ++s) out.push_back({K::Extent, int(s), 0, DType::I64});
  for (size_t p = 0; p < params.size(); ++p)
    if (!params[p].is_array) out.push_back({K::Scalar, int(p), 0, params[p].dtype});
  if (persistent)
    for (int axis = 0; axis < 3; ++axis) out.push_back({K::GridSize, axis, 0, DType::U32});
  for (size_t d = 0; d < divisors.size(); ++d) {
    out.push_back({K::Divisor, int(d), 0, divisors[d]});
    for (int part = 0; part < 3; ++part) out.push_back({K::DivisorMagic, int(d), part, DType::U32});
  }
  return out;
}

std::vector<EntryParam> entry_params(const ir::Signature& k, size_t tensor_maps, bool persistent,
                                     const std::vector<DType>& divisors) {
  std::vector<EntrySourceParam> params;
  for (const ir::Param& p : k.params) params.push_back({p.is_array, p.is_array ? p.array->dims.size() : 0, p.dtype});
  return entry_params(params, k.dims.size(), tensor_maps, persistent, divisors);
}

std::vector<EntryParam> entry_params(const KernelAbi& k, const AbiPath& p) {
  std::vector<EntrySourceParam> params;
  for (const AbiParam& a : k.params) params.push_back({a.kind == AbiParam::Kind::Array, a.dims.size(), a.dtype});
  std::vector<DType> divisors;
  for (const AbiDivisor& d : p.divisors) divisors.push_back(d.dtype);
  return entry_params(params, k.dim_symbols.size(), p.tensor_maps.size(), p.persistent, divisors);
}

int64_t entry_param_bytes(const std::vector<EntryParam>& params) {
  int64_t bytes = 0;
  for (const EntryParam& p : params) bytes = (bytes + p.bytes() - 1) / p.bytes() * p.bytes() + p.bytes();
  return bytes;
}

}  // namespace tilec::codegen
