// What the header needs of kernel and parameter names, checked before it is generated so the
// driver can report problems as diagnostics instead of emitting a header that does not compile.
#include <map>
#include <set>

#include "codegen/header/c_text.h"
#include "codegen/header/header.h"

namespace tilec {
namespace {

// Names the launch functions use besides the parameters (docs/header.md "Names").
const std::set<std::string, std::less<>> kReservedParamNames = {"stream", "grid", "num_sms"};

// Grid helpers defined by every header (kernel_abi.h AbiGrid).
const std::set<std::string, std::less<>> kGridHelpers = {"tilec_cdiv", "tilec_floordiv",
                                                        "tilec_min", "tilec_max"};

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Type and macro names the header itself uses (<stdint.h>, <stddef.h>, <stdbool.h>, cuda.h):
// a parameter, dimension symbol or kernel of that name would shadow them.
const std::set<std::string, std::less<>> kHeaderTypeNames = {
    "int8_t",  "int16_t",  "int32_t",  "int64_t",  "uint8_t",     "uint16_t",   "uint32_t",
    "uint64_t", "size_t",  "uintptr_t", "intptr_t", "ptrdiff_t", "bool",       "true",
    "false",   "NULL",     "INT64_MIN", "INT64_MAX", "UINT64_MAX", "INT32_MAX", "UINT32_MAX"};

// Why `name` shadows something of <stdint.h> or cuda.h in the header, or "".
std::string header_type_problem(std::string_view name) {
  if (kHeaderTypeNames.count(name)) return "is a C type or macro the header uses";
  if (name.size() > 2 && starts_with(name, "CU") && ((name[2] >= 'a' && name[2] <= 'z') || name[2] == '_'))
    return "is a CUDA driver API type name ('CU' and a lower-case letter or '_')";
  return "";
}

// Why `name` cannot be a parameter or dimension symbol in C, or "" when it can.
std::string param_name_problem(const std::string& name) {
  if (!is_c_identifier(name)) return "is not a C identifier";
  if (is_c_keyword(name)) return "is a C or C++ keyword";
  if (is_reserved_identifier(name)) return "is reserved in C and C++ ('_' and a capital, or '__')";
  if (kReservedParamNames.count(name) || name.find("tilec_") != std::string::npos)
    return "is reserved by the generated header ('stream', 'grid', 'num_sms', '...tilec_...')";
  if (is_c_library_macro(name)) return "is a macro of the C standard library (errno.h, stdio.h, assert.h, ...)";
  return header_type_problem(name);
}

bool is_integer_scalar(const AbiParam& p) {
  return p.kind == AbiParam::Kind::Scalar && (is_integer(p.dtype) || is_bool(p.dtype));
}

}  // namespace

std::string array_argument_name(const std::string& array, std::string_view what) {
  bool trailing = !array.empty() && array.back() == '_';
  return array + (trailing ? "" : "_") + std::string(what);
}

const std::vector<std::string>& header_symbol_suffixes() {
  static const std::vector<std::string> suffixes = {"",      "_strided", "_grid",   "_config", "_launch_config",
                                                    "_launch_config_strided", "_workspace_bytes", "_load", "_unload", "_metadata"};
  return suffixes;
}

bool check_kernel_name(const std::string& prefix, const std::string& name,
                       const std::vector<std::string>& all_names, std::string& error) {
  std::string symbol = prefix + name;
  auto fail = [&](const std::string& why) {
    error = "kernel name '" + name + "' cannot be used in the C header: " + why;
    return false;
  };
  if (!prefix.empty() && !is_c_identifier(prefix))
    return fail("the prefix '" + prefix + "' is not the start of a C identifier");
  if (!is_c_identifier(symbol)) return fail("'" + symbol + "' is not a C identifier");
  if (is_c_keyword(symbol)) return fail("'" + symbol + "' is a C or C++ keyword");
  if (is_reserved_identifier(symbol))
    return fail("'" + symbol + "' is reserved in C and C++ ('_' and a capital, or '__')");
  if (starts_with(symbol, "tilec_") || symbol.find("_tilec_") != std::string::npos)
    return fail("names with 'tilec_' or '_tilec_' are reserved for the header's own symbols");
  if (symbol == "main") return fail("'main' is the program's entry point");
  if (is_c_library_function(symbol) || is_c_library_macro(symbol))
    return fail("'" + symbol + "' is a name of the C standard library or POSIX, which the header's plain-name "
                "alias would replace in the whole program; rename the kernel or give --prefix");
  if (std::string why = header_type_problem(symbol); !why.empty()) return fail("'" + symbol + "' " + why);
  if (symbol.size() > 2 && starts_with(symbol, "cu") && symbol[2] >= 'A' && symbol[2] <= 'Z')
    return fail("'cu' and a capital letter start the CUDA driver API's names");
  int same = 0;
  for (const std::string& other : all_names) {
    if (other == name && ++same > 1) return fail("two kernels have this name");
    if (other == name) continue;
    for (const std::string& suffix : header_symbol_suffixes()) {
      if (suffix.empty()) continue;
      if (symbol == prefix + other + suffix)
        return fail("'" + symbol + "' is the '" + suffix + "' function of kernel '" + other + "'");
    }
    // Configuration i of a kernel has the entries "<kernel>_config<i>..." (driver/configs.h).
    std::string config = prefix + other + "_config";
    if (symbol.size() > config.size() && starts_with(symbol, config) &&
        symbol.find_first_not_of("0123456789", config.size()) == std::string::npos)
      return fail("'" + symbol + "' names the entries of configuration " + symbol.substr(config.size()) +
                  " of kernel '" + other + "'");
  }
  return true;
}

bool check_kernel_abi(const KernelAbi& k, std::vector<std::string>& errors, std::vector<std::string>* subjects) {
  size_t before = errors.size();
  auto error = [&](const std::string& msg, const std::string& subject = "") {
    errors.push_back("kernel '" + k.name + "': " + msg);
    if (subjects) subjects->push_back(subject);
  };

  // Every C name the launch functions declare, to find collisions. `subject` is the source
  // name behind it (an array `a` for `a_shape`).
  // Each name's owner, as a collision names it ("array 'a'", "the strided form of array 'a'").
  std::map<std::string, std::string> names;
  auto claim = [&](const std::string& name, const std::string& what, const std::string& subject) {
    std::string problem = param_name_problem(name);
    std::string owner = subject == name ? what + " '" + name + "'" : "the strided form of array '" + subject + "'";
    if (!problem.empty()) {
      error(what + " '" + name + "' " + problem, subject);
      return false;
    }
    if (auto [it, fresh] = names.try_emplace(name, owner); !fresh) {
      error(what + " '" + name + "' collides with " + it->second + " in the launch functions", subject);
      return false;
    }
    return true;
  };
  // A kernel with a split-K configuration: its launches take the workspace last.
  if (k.workspace_arg) {
    names.emplace("workspace", "the workspace argument of the split-K configurations");
    names.emplace("workspace_bytes", "the workspace argument of the split-K configurations");
  }
  std::set<std::string> used_symbols;
  std::set<std::string, std::less<>> grid_names = {"num_sms"};
  for (const AbiParam& p : k.params) {
    bool named = claim(p.name, p.kind == AbiParam::Kind::Array ? "array" : "scalar", p.name);
    if (p.kind == AbiParam::Kind::Scalar) {
      if (is_restricted(p.dtype))
        error("scalar '" + p.name + "' of dtype " + std::string(dtype_name(p.dtype)) +
                  " cannot be passed through the C header (only bool, integers, f16, bf16, f32, f64)",
              p.name);
      if (is_integer_scalar(p)) grid_names.insert(p.name);
      continue;
    }
    if (named && !p.dims.empty()) {  // a bad array name is one error, not three
      claim(array_argument_name(p.name, "shape"), "strided-form parameter", p.name);
      claim(array_argument_name(p.name, "strides"), "strided-form parameter", p.name);
    }
    for (const ArrayDim& d : p.dims) {
      if (!d.symbol.empty()) {
        used_symbols.insert(d.symbol);
      } else if (d.constant < 0) {
        error("array '" + p.name + "' has a negative constant dimension", p.name);
      }
    }
  }
  std::set<std::string> declared;
  for (const std::string& s : k.dim_symbols) {
    claim(s, "dimension symbol", s);
    declared.insert(s);
    grid_names.insert(s);
    if (!used_symbols.count(s)) error("dimension symbol '" + s + "' is not used by any array", s);
  }
  for (const std::string& s : used_symbols)
    if (!declared.count(s)) error("dimension symbol '" + s + "' is missing from dim_symbols");

  if (k.grid.dims_c.empty() || k.grid.dims_c.size() > 3) error("the grid needs 1 to 3 expressions");
  for (const std::string& expr : k.grid.dims_c) {
    for (const std::string& id : c_identifiers(normalize_grid_expr(expr))) {
      if (id == "num_sms" && !k.grid.uses_num_sms) {
        error("the grid uses num_sms but uses_num_sms is false");
      } else if (!grid_names.count(id) && !kGridHelpers.count(id)) {
        error("grid expression '" + expr + "' names '" + id +
              "', which is neither a dimension symbol, an integer scalar, num_sms nor a helper");
      }
    }
  }

  if (k.paths.empty()) error("a kernel needs at least one code path");
  size_t entries = 0;
  std::set<std::string> entry_names;
  for (size_t p = 0; p < k.paths.size(); ++p) {
    const AbiPath& path = k.paths[p];
    bool portable = p + 1 == k.paths.size();
    if (portable == path.target.has_value())
      error("only the last code path is the portable one (no arch); path '" + path.name + "' breaks that");
    if (!portable && path.target && !path.target->arch_specific())
      error("code path '" + path.name + "' names -arch '" + path.target->arch +
            "': an arch-specific path needs an 'a' target");
    if (path.variants.empty() || path.variants.size() > 2) error("code path '" + path.name + "' needs 1 or 2 variants");
    for (size_t i = 0; i < path.variants.size(); ++i) {
      const std::string& e = path.variants[i].entry;
      if (!is_c_identifier(e)) error("variant entry '" + e + "' is not a PTX identifier");
      if (!entry_names.insert(e).second) error("variant entry '" + e + "' appears twice");
      if (path.variants[i].vectorized && i != 0) error("only the first variant may be the vectorized one");
    }
    entries += path.variants.size();
    for (const AbiTensorMap& tm : path.tensor_maps) {
      const AbiParam* a = tm.param >= 0 && size_t(tm.param) < k.params.size() ? &k.params[size_t(tm.param)] : nullptr;
      if (!a || a->kind != AbiParam::Kind::Array ||
          (a->dtype != DType::F16 && a->dtype != DType::BF16 && a->dtype != DType::F32 && a->dtype != DType::TF32 &&
           !is_f8(a->dtype) && a->dtype != DType::I8))
        error("a tensor map of code path '" + path.name +
              "' names a parameter that is not an f16, bf16, f32, tf32, f8e4m3, f8e5m2 or i8 array");
      else if (tm.box.size() != a->dims.size() || tm.box.empty() || tm.box.size() > 5)
        error("a tensor map of code path '" + path.name + "' needs one box extent per dimension of '" + a->name + "' (1 to 5)");
      for (int64_t b : tm.box)
        if (b < 1 || b > 256) error("tensor-map box extents must be 1 to 256");
    }
    if (path.threads_per_cta < 1 || path.threads_per_cta > 1024) error("threads per CTA must be 1 to 1024");
    if (path.dynamic_shared_bytes < 0) error("negative dynamic shared memory");
    for (int c : path.cluster_dims)
      if (c < 1) error("cluster dimensions must be at least 1");
  }
  if (entries > 8) error("a kernel has at most 8 entries over all its code paths");
  return errors.size() == before;
}

}  // namespace tilec
