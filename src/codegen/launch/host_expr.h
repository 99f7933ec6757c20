// Scalar integer values of a kernel that the launch stub can compute on the host, as C.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "ir/ir.h"

namespace tilec::codegen {

/// How the C text names the leaves of a host expression: dimension symbol `dim` (its position
/// in fn.sig.dims) and integer scalar parameter `param` (its position in fn.sig.params); an
/// empty `scalar` leaves scalars out (the expression is then not host-computable).
struct HostLeaves {
  std::function<std::string(int dim)> dim;
  std::function<std::string(int param)> scalar;
};

/// `v` as a C `int64_t` expression (0 or 1 for a bool) over the leaves, or nothing when its value
/// does not depend on dimension extents, integer scalar parameters and constants alone, through
/// integer + - * neg // % min max, integer casts (narrowing ones wrap: `(int64_t)(uint32_t)x`),
/// comparisons of 64-bit signed integers, and/or/not. Arithmetic is int64_t wrapping like the
/// device's (64-bit signed and unsigned values have the same bits); // and % take Python's floor
/// semantics through the header's tilec_floordiv_wrap, as the device computes them (a zero
/// divisor, unspecified on the device, gives INT64_MIN for // and `a` itself for %). Unsigned
/// 64-bit // and %, and arithmetic on 32-bit or narrower values other than casts, are not
/// translated.
std::optional<std::string> host_c_expr(const ir::Function& fn, const ir::Value* v, const HostLeaves& leaves);

/// `v` as a Python expression over the leaves, for the fake implementations of --emit=torch
/// (torch/python_runtime.cpp defines the helpers it calls), exactly when host_c_expr has one: on
/// ints and torch.SymInts alike, an int or SymInt for an integer, a bool or SymBool for a
/// condition (& | and torch.sym_not, which put no guard on symbolic sizes). // and % go through
/// _tilec_floordiv and _tilec_mod (the C's zero-divisor results), narrowing casts through
/// _tilec_wrap; + - * are Python's exact integers, not wrapped at 64 bits: they differ from the
/// C only past 2^63, where the op's C++ check still applies when it runs.
std::optional<std::string> host_python_expr(const ir::Function& fn, const ir::Value* v, const HostLeaves& leaves);

/// The position in fn.sig.params of the integer scalar parameter whose kernel argument is `v`,
/// or -1.
int integer_scalar_index(const ir::Function& fn, const ir::Value* v);

}  // namespace tilec::codegen
