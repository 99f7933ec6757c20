// Dtype table lookups.
#include "basic/dtype.h"

namespace tilec {
namespace {

struct DTypeInfo {
  std::string_view name;
  int bits;
  DTypeKind kind;
};

constexpr DTypeKind kB = DTypeKind::Bool, kS = DTypeKind::Signed, kU = DTypeKind::Unsigned,
                    kF = DTypeKind::Float, kR = DTypeKind::Restricted;

constexpr DTypeInfo kInfo[] = {
#define X(name, spelling, bits, kind) {spelling, bits, k##kind},
    TILEC_DTYPES(X)
#undef X
};

}  // namespace

std::string_view dtype_name(DType t) { return kInfo[int(t)].name; }
int dtype_bits(DType t) { return kInfo[int(t)].bits; }
DTypeKind dtype_kind(DType t) { return kInfo[int(t)].kind; }

std::optional<DType> parse_dtype(std::string_view name) {
  for (size_t i = 0; i < std::size(kInfo); ++i)
    if (kInfo[i].name == name) return DType(i);
  return std::nullopt;
}

}  // namespace tilec
