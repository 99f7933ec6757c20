// Scalar dtypes of the .tile language (language.md §4) and their properties.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilec {

/// The one dtype table (X-macro). Columns:
///   name, spelling   the enumerator and the .tile spelling
///   bits, kind       storage size (bool is stored as one byte); B bool, S signed, U unsigned,
///                    F float, R restricted float usable only through an explicit cast
///   ptx              PTX ISA §5.2.1 fundamental type of an element in typed instructions (mma,
///                    wgmma, cvt): pred for bool, e4m3/e5m2 for the f8 types
///   arith            the PTX type of arithmetic and comparisons on the register holding a value:
///                    f16/bf16/tf32 compute in f32, 8- and 16-bit integers widened to 32 bits,
///                    bools as 0/1 words; "" where the language has no arithmetic (f8)
///   ld, st           the type of ld.global / ld.param and st.global of one element (PTX ISA
///                    §9.7.9.8): narrow integers sign- or zero-extend on load, f8 and bool bytes
///                    zero-extend; stores write the low bits
///   c                the C type the generated header takes for a scalar (f16/bf16 as float);
///                    "" where a scalar of the dtype cannot cross the ABI
///   c_param          the C type of the bits of the kernel's PTX parameter (kernel_abi.h)
///   torch_scalar     PyTorch's c10::ScalarType enumerator (at::k<this>, ScalarType::<this>)
///   torch            PyTorch's Python name (torch.<this>); "" where PyTorch has no tensor dtype
// clang-format off
#define TILEC_DTYPES(X) \
  /* name   spelling  bits kind ptx     arith  ld     st     c           c_param     torch_scalar     torch */ \
  X(Bool,   "bool",    8, B, "pred", "u32", "u8",  "u8",  "bool",     "uint8_t",  "Bool",          "bool")           \
  X(I8,     "i8",      8, S, "s8",   "s32", "s8",  "u8",  "int8_t",   "int8_t",   "Char",          "int8")           \
  X(I16,    "i16",    16, S, "s16",  "s32", "s16", "u16", "int16_t",  "int16_t",  "Short",         "int16")          \
  X(I32,    "i32",    32, S, "s32",  "s32", "b32", "b32", "int32_t",  "int32_t",  "Int",           "int32")          \
  X(I64,    "i64",    64, S, "s64",  "s64", "b64", "b64", "int64_t",  "int64_t",  "Long",          "int64")          \
  X(U8,     "u8",      8, U, "u8",   "u32", "u8",  "u8",  "uint8_t",  "uint8_t",  "Byte",          "uint8")          \
  X(U16,    "u16",    16, U, "u16",  "u32", "u16", "u16", "uint16_t", "uint16_t", "UInt16",        "uint16")         \
  X(U32,    "u32",    32, U, "u32",  "u32", "b32", "b32", "uint32_t", "uint32_t", "UInt32",        "uint32")         \
  X(U64,    "u64",    64, U, "u64",  "u64", "b64", "b64", "uint64_t", "uint64_t", "UInt64",        "uint64")         \
  X(F16,    "f16",    16, F, "f16",  "f32", "b16", "b16", "float",    "uint16_t", "Half",          "float16")        \
  X(BF16,   "bf16",   16, F, "bf16", "f32", "b16", "b16", "float",    "uint16_t", "BFloat16",      "bfloat16")       \
  X(F32,    "f32",    32, F, "f32",  "f32", "b32", "b32", "float",    "float",    "Float",         "float32")        \
  X(F64,    "f64",    64, F, "f64",  "f64", "b64", "b64", "double",   "double",   "Double",        "float64")        \
  X(TF32,   "tf32",   32, R, "tf32", "f32", "b32", "b32", "",         "",         "",              "")               \
  X(F8E4M3, "f8e4m3",  8, R, "e4m3", "",    "u8",  "u8",  "",         "",         "Float8_e4m3fn", "float8_e4m3fn")  \
  X(F8E5M2, "f8e5m2",  8, R, "e5m2", "",    "u8",  "u8",  "",         "",         "Float8_e5m2",   "float8_e5m2")
// clang-format on
// language.md §4.2: f8e4m3 is OCP E4M3 (bias 7, no infinities, one NaN pattern per sign), which
// is PyTorch's float8_e4m3fn; the fnuz variants (bias 8, a single NaN at -0) are other types.

enum class DType : uint8_t {
#define X(name, spelling, bits, kind, ptx, arith, ld, st, c, c_param, torch_scalar, torch) name,
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

/// The spellings of a dtype in what tilec writes: the columns of TILEC_DTYPES.
std::string ptx_type(DType t);
std::string ptx_arith_type(DType t);
std::string ptx_load_type(DType t);
std::string ptx_store_type(DType t);
std::string c_type(DType t);
std::string c_param_type(DType t);
std::string torch_scalar_type(DType t);
std::string torch_name(DType t);
/// The PTX bit-size type of the dtype's storage: b8, b16, b32 or b64.
std::string ptx_bits_type(DType t);

inline bool is_float(DType t) { return dtype_kind(t) == DTypeKind::Float; }
inline bool is_restricted(DType t) { return dtype_kind(t) == DTypeKind::Restricted; }
inline bool is_signed_int(DType t) { return dtype_kind(t) == DTypeKind::Signed; }
inline bool is_unsigned_int(DType t) { return dtype_kind(t) == DTypeKind::Unsigned; }
inline bool is_integer(DType t) { return is_signed_int(t) || is_unsigned_int(t); }
inline bool is_bool(DType t) { return t == DType::Bool; }
/// The 8-bit floats f8e4m3 and f8e5m2.
inline bool is_f8(DType t) { return t == DType::F8E4M3 || t == DType::F8E5M2; }
/// Storage size in bytes.
inline int dtype_bytes(DType t) { return dtype_bits(t) / 8; }

}  // namespace tilec
