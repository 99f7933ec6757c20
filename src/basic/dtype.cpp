// Lookups in the dtype table (TILEC_DTYPES, dtype.h).
#include "basic/dtype.h"

namespace tilec {
namespace {

struct DTypeInfo {
  std::string_view name;
  int bits;
  DTypeKind kind;
  std::string_view ptx, arith, ld, st, c, c_param, torch_scalar, torch;
};

constexpr DTypeKind kB = DTypeKind::Bool, kS = DTypeKind::Signed, kU = DTypeKind::Unsigned,
                    kF = DTypeKind::Float, kR = DTypeKind::Restricted;

constexpr DTypeInfo kInfo[] = {
#define X(name, spelling, bits, kind, ptx, arith, ld, st, c, c_param, torch_scalar, torch) \
  {spelling, bits, k##kind, ptx, arith, ld, st, c, c_param, torch_scalar, torch},
    TILEC_DTYPES(X)
#undef X
};

}  // namespace

std::string_view dtype_name(DType t) { return kInfo[int(t)].name; }
int dtype_bits(DType t) { return kInfo[int(t)].bits; }
DTypeKind dtype_kind(DType t) { return kInfo[int(t)].kind; }
std::string ptx_type(DType t) { return std::string(kInfo[int(t)].ptx); }
std::string ptx_arith_type(DType t) { return std::string(kInfo[int(t)].arith); }
std::string ptx_load_type(DType t) { return std::string(kInfo[int(t)].ld); }
std::string ptx_store_type(DType t) { return std::string(kInfo[int(t)].st); }
std::string c_type(DType t) { return std::string(kInfo[int(t)].c); }
std::string c_param_type(DType t) { return std::string(kInfo[int(t)].c_param); }
std::string torch_scalar_type(DType t) { return std::string(kInfo[int(t)].torch_scalar); }
std::string torch_name(DType t) { return std::string(kInfo[int(t)].torch); }
std::string ptx_bits_type(DType t) { return "b" + std::to_string(dtype_bits(t)); }

std::optional<DType> parse_dtype(std::string_view name) {
  for (size_t i = 0; i < std::size(kInfo); ++i)
    if (kInfo[i].name == name) return DType(i);
  return std::nullopt;
}

}  // namespace tilec
