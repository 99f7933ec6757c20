// Kernel ABIs the codegen unit tests share.
#pragma once

#include "codegen/launch/kernel_abi.h"

namespace tilec::test {

/// The targets of -arch values that parse (codegen::parse_target).
inline std::vector<codegen::Target> targets(std::initializer_list<const char*> archs) {
  std::vector<codegen::Target> out;
  for (const char* a : archs) out.push_back(*codegen::parse_target(a));
  return out;
}

inline AbiParam array_param(const std::string& name, DType t, std::vector<ArrayDim> dims, bool written = true) {
  AbiParam p;
  p.name = name;
  p.dtype = t;
  p.dims = std::move(dims);
  p.may_write = written;
  return p;
}

inline AbiParam scalar_param(const std::string& name, DType t) {
  AbiParam p;
  p.kind = AbiParam::Kind::Scalar;
  p.name = name;
  p.dtype = t;
  return p;
}

/// vector_add (tests/backend/vector_add.ptx.in): c[i] = a[i] + b[i], two variants.
inline KernelAbi vector_add_abi() {
  KernelAbi k;
  k.name = "vector_add";
  k.doc = "c[i] = a[i] + b[i] for 0 <= i < n.";
  k.params = {array_param("a", DType::F32, {{"n", 0}}, false), array_param("b", DType::F32, {{"n", 0}}, false),
              array_param("c", DType::F32, {{"n", 0}})};
  k.dim_symbols = {"n"};
  k.grid.dims_c = {"tilec_cdiv(n, 1024)"};
  AbiPath p;
  p.variants = {{"vector_add_vec", true}, {"vector_add_general", false}};
  k.paths = {p};
  return k;
}

}  // namespace tilec::test
