// Scalar dtypes of the .tile language (language.md §4) and their properties.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilec {

/// X-macro: name, spelling, bits, kind (B bool, S signed, U unsigned, F float, R restricted
/// float usable only through an explicit cast).
#define TILEC_DTYPES(X)       \
  X(Bool, "bool", 8, B)       \
  X(I8, "i8", 8, S)           \
  X(I16, "i16", 16, S)        \
  X(I32, "i32", 32, S)        \
  X(I64, "i64", 64, S)        \
  X(U8, "u8", 8, U)           \
  X(U16, "u16", 16, U)        \
  X(U32, "u32", 32, U)        \
  X(U64, "u64", 64, U)        \
  X(F16, "f16", 16, F)        \
  X(BF16, "bf16", 16, F)      \
  X(F32, "f32", 32, F)        \
  X(F64, "f64", 64, F)        \
  X(TF32, "tf32", 32, R)      \
  X(F8E4M3, "f8e4m3", 8, R)   \
  X(F8E5M2, "f8e5m2", 8, R)

enum class DType : uint8_t {
#define X(name, spelling, bits, kind) name,
  TILEC_DTYPES(X)
#undef X
};

enum class DTypeKind : uint8_t { Bool, Signed, Unsigned, Float, Restricted };

/// The source spelling ("f16").
std::string_view dtype_name(DType t);
/// Storage size in bits (bool is stored as one byte).
int dtype_bits(DType t);
DTypeKind dtype_kind(DType t);
/// Parses a spelling; nullopt when `name` is not a dtype.
std::optional<DType> parse_dtype(std::string_view name);

inline bool is_float(DType t) { return dtype_kind(t) == DTypeKind::Float; }
inline bool is_restricted(DType t) { return dtype_kind(t) == DTypeKind::Restricted; }
inline bool is_signed_int(DType t) { return dtype_kind(t) == DTypeKind::Signed; }
inline bool is_unsigned_int(DType t) { return dtype_kind(t) == DTypeKind::Unsigned; }
inline bool is_integer(DType t) { return is_signed_int(t) || is_unsigned_int(t); }
inline bool is_bool(DType t) { return t == DType::Bool; }
/// Storage size in bytes.
inline int dtype_bytes(DType t) { return dtype_bits(t) / 8; }

}  // namespace tilec
