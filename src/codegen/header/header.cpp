// The generated C header: banner, declarations with their documentation, then the weak
// definitions (metadata, image, launch functions). The shared helpers are in runtime.cpp; the
// rules of the interface are in docs/header.md.
#include "codegen/header/header.h"

#include <fmt/format.h>

#define XXH_INLINE_ALL  // header-only: no libxxhash to link
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <optional>

#include "codegen/launch/entry_params.h"
#include "codegen/target/target.h"
#include "codegen/header/c_text.h"
#include "codegen/header/kernel_parts.h"
#include "codegen/header/runtime.h"
#include "basic/diagnostics.h"

namespace tilec::header_parts {


std::string upper_identifier(const std::string& s) {
  std::string out;
  for (char c : s) out += char(std::toupper((unsigned char)c));
  return out;
}

bool is_array(const AbiParam& p) { return p.kind == AbiParam::Kind::Array; }
bool is_grid_scalar(const AbiParam& p) {
  return p.kind == AbiParam::Kind::Scalar && (is_integer(p.dtype) || is_bool(p.dtype));
}

// The C type a caller passes for a scalar (f16/bf16 cross the ABI as float).
std::string scalar_c_type(DType t) {
  std::string c = c_type(t);
  TILEC_ASSERT(!c.empty(), "scalar dtype without a C type: " + std::string(dtype_name(t)));
  return c;
}

// The expression that converts the caller's value to the C type of the PTX parameter
// (c_param_type; kernel_abi.h: bool/8-bit .u8, 16-bit .b16, ...).
std::string ptx_scalar_value(const AbiParam& p) {
  switch (p.dtype) {
    case DType::Bool: return "(uint8_t)(" + p.name + " ? 1 : 0)";
    case DType::F16: return "tilec_f32_to_f16(" + p.name + ")";
    case DType::BF16: return "tilec_f32_to_bf16(" + p.name + ")";
    default: return p.name;
  }
}

std::string array_type_text(const AbiParam& p) {
  std::string s = std::string(dtype_name(p.dtype)) + "[";
  for (size_t i = 0; i < p.dims.size(); ++i) {
    if (i) s += ", ";
    s += p.dims[i].symbol.empty() ? std::to_string(p.dims[i].constant) : p.dims[i].symbol;
  }
  return s + "]";
}

// The CUtensorMapDataType of a tensor map over an array of `t` (f16, bf16, f32, tf32, f8e4m3,
// f8e5m2 or i8: what kernel_abi.h AbiTensorMap allows). TMA only copies: f8 and i8
// bytes are UINT8 and tf32 values (f32 bits) FLOAT32.
const char* tensor_map_dtype(DType t) {
  switch (t) {
    case DType::BF16: return "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16";
    case DType::F32:
    case DType::TF32: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT32";
    case DType::I8:
    case DType::F8E4M3:
    case DType::F8E5M2: return "CU_TENSOR_MAP_DATA_TYPE_UINT8";
    default: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
  }
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

// Wraps `text` at `width` columns, every line starting with `indent`.
std::string wrap(const std::string& text, const std::string& indent, size_t width = 96) {
  std::string out, line = indent;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    start = end + 1;
    if (line.size() > indent.size() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = indent;
    }
    line += (line.size() > indent.size() ? " " : "") + word;
  }
  return out + line;
}

// The grid's three expressions, with helper names normalized; missing ones are 1.
std::vector<std::string> grid_exprs(const KernelAbi& k) {
  std::vector<std::string> g;
  for (const std::string& e : k.grid.dims_c) g.push_back(normalize_grid_expr(e));
  while (g.size() < 3) g.push_back("1");
  return g;
}

// The compute capability (major * 10 + minor) of an arch-specific path's devices: sm_90a -> 90;
// 0 for the portable path.
int path_compute_capability(const AbiPath& p) { return p.target ? p.target->sm : 0; }

// Module::pdl for `targets`: the driver runs a target's SASS on devices of its compute
// capability (the JIT-compiled PTX of a later one is the oldest target's, without griddepcontrol
// below sm_90).
std::string pdl_condition(const std::vector<codegen::Target>& targets) {
  std::vector<std::string> ccs;
  for (const codegen::Target& t : targets) {
    std::string cc = t.has_griddepcontrol() ? fmt::format("tilec_cc == {}", t.sm) : "";
    if (!cc.empty() && std::find(ccs.begin(), ccs.end(), cc) == ccs.end()) ccs.push_back(cc);
  }
  return join(ccs, " || ");
}

// The pieces of `k` as configuration `index` of `pub` (or, with index -1, as the public
// interface), its entries from `entry_base` on in the kernel's entry table.
Kernel make_kernel(const Module& m, const KernelAbi& k, const std::string& pub, int index, size_t entry_base) {
  Kernel out{k, index < 0 ? pub : pub + "_tilec_c" + std::to_string(index), pub, "", "", {}, {}, false, {}, 0,
             std::max(index, 0), 1, false, {}};
  out.state = pub + "_tilec_" + m.config + "_state";
  out.lock = pub + "_tilec_" + m.config + "_lock";
  for (const AbiParam& p : k.params) (is_array(p) ? out.arrays : out.scalars).push_back(&p);
  out.needs_device = k.grid.uses_num_sms || k.paths.size() > 1 || !m.pdl.empty();
  for (const AbiPath& p : k.paths) {
    out.needs_device = out.needs_device || p.dynamic_shared_bytes > kDefaultSharedLimit;
    out.first_entry.push_back(entry_base + out.num_entries);
    out.num_entries += p.variants.size();
  }
  return out;
}

// Kernel `i` of the header with its configurations (HeaderInput::configs, else the one it is).
Public make_public(const Module& m, size_t i) {
  const KernelAbi& abi = m.in.kernels[i];
  std::string pub = m.in.prefix + abi.name;
  Public out{make_kernel(m, abi, pub, -1, 0), {}, {""}, "", nullptr, {}, false};
  const HeaderConfigs* hc = m.in.configs.empty() ? nullptr : &m.in.configs[i];
  size_t base = 0;
  if (!hc) {
    out.configs.push_back(make_kernel(m, abi, pub, 0, 0));
    base = out.configs.back().num_entries;
  } else {
    for (size_t c = 0; c < hc->abis.size(); ++c) {
      out.configs.push_back(make_kernel(m, hc->abis[c], pub, hc->indices[c], base));
      Kernel& k = out.configs.back();
      k.work = hc->work[c];
      base += k.num_entries;
      if (c < hc->reduce.size() && !hc->reduce[c].name.empty()) {
        // A split-K configuration: its reduce kernel's entries follow the partials kernel's.
        k.reduce.push_back(make_kernel(m, hc->reduce[c], pub, hc->indices[c], base));
        k.reduce[0].sym += "_reduce";
        base += k.reduce[0].num_entries;
        out.k.workspace = true;
      }
    }
    out.labels = hc->labels;
    out.space = hc->space;
    out.tuning = &hc->tuning;
  }
  out.k.num_entries = base;
  out.choose = out.labels.size() > 1;
  for (const Kernel& c : out.configs) out.k.needs_device = out.k.needs_device || c.needs_device;
  for (size_t a = 0; a < out.k.arrays.size(); ++a) {
    int vb = out.configs[0].arrays[a]->vector_bytes;
    for (const Kernel& c : out.configs)
      if (c.arrays[a]->vector_bytes != vb) vb = 1;
    out.vector_bytes.push_back(vb);
  }
  return out;
}

// ---- declarations ---------------------------------------------------------------------------

// The workspace parameters a public launch takes last (Kernel::workspace).
const char* const kWorkspaceParams = "CUdeviceptr workspace, size_t workspace_bytes";

std::string dense_params(const Kernel& k) {
  std::vector<std::string> ps = {"CUstream stream"};
  for (const AbiParam* a : k.arrays) ps.push_back("CUdeviceptr " + a->name);
  for (const std::string& s : k.abi.dim_symbols) ps.push_back("int64_t " + s);
  for (const AbiParam* s : k.scalars) ps.push_back(scalar_c_type(s->dtype) + " " + s->name);
  if (k.workspace) ps.push_back(kWorkspaceParams);
  return join(ps, ", ");
}

std::string strided_params(const Kernel& k) {
  std::vector<std::string> ps = {"CUstream stream"};
  for (const AbiParam* a : k.arrays) {
    if (a->dims.empty()) {
      ps.push_back("CUdeviceptr " + a->name);
      continue;
    }
    size_t r = a->dims.size();
    ps.push_back(fmt::format("CUdeviceptr {0}, const int64_t {1}[{3}], const int64_t {2}[{3}]", a->name,
                             array_argument_name(a->name, "shape"), array_argument_name(a->name, "strides"), r));
  }
  for (const AbiParam* s : k.scalars) ps.push_back(scalar_c_type(s->dtype) + " " + s->name);
  if (k.workspace) ps.push_back(kWorkspaceParams);
  return join(ps, ",\n    ");
}

std::string extent_params(const Kernel& k) {
  std::vector<std::string> ps;
  for (const std::string& s : k.abi.dim_symbols) ps.push_back("int64_t " + s);
  for (const AbiParam* s : k.scalars) ps.push_back(scalar_c_type(s->dtype) + " " + s->name);
  return ps.empty() ? "void" : join(ps, ", ");
}

std::string grid_params(const Kernel& k) {
  std::vector<std::string> ps;
  for (const std::string& s : k.abi.dim_symbols) ps.push_back("int64_t " + s);
  for (const AbiParam* s : k.scalars) ps.push_back(scalar_c_type(s->dtype) + " " + s->name);
  ps.push_back("uint32_t grid[3]");
  return join(ps, ", ");
}

std::string describe_kernel(const Module& m, const Kernel& k) {
  const KernelAbi& a = k.abi;
  std::string out = "/* ---- " + k.sym + " ----\n";
  if (!a.doc.empty()) {
    std::string doc = comment_text(a.doc);
    while (!doc.empty() && (doc.back() == '\n' || doc.back() == ' ')) doc.pop_back();
    size_t start = 0;
    while (start <= doc.size()) {
      size_t end = doc.find('\n', start);
      if (end == std::string::npos) end = doc.size();
      std::string line = doc.substr(start, end - start);
      out += line.empty() ? "\n" : "   " + line + "\n";
      start = end + 1;
    }
    out += "\n";
  }
  std::vector<std::string> arrays, scalars;
  for (const AbiParam* p : k.arrays)
    arrays.push_back(p->name + ": " + array_type_text(*p) + (p->may_write ? "" : " (read only)"));
  for (const AbiParam* p : k.scalars) {
    std::string t(dtype_name(p->dtype));
    scalars.push_back(p->name + ": " + t +
                      (p->dtype == DType::F16 || p->dtype == DType::BF16 ? " (passed as float, rounded to nearest even)" : ""));
  }
  if (!arrays.empty()) out += wrap("Arrays: " + join(arrays, ", ") + ".", "   ") + "\n";
  if (!scalars.empty()) out += wrap("Scalars: " + join(scalars, ", ") + ".", "   ") + "\n";
  std::vector<std::string> g = grid_exprs(a);
  std::string grid = fmt::format("Grid: ({}, {}, {}).", g[0], g[1], g[2]);
  if (a.grid.uses_num_sms) grid += " num_sms is the multiprocessor count of the stream's device.";
  out += wrap(comment_text(grid), "   ") + "\n";
  for (const AbiPath& p : a.paths) {
    std::string shared = p.dynamic_shared_bytes == 0 ? "no dynamic shared memory"
                         : fmt::format("{} bytes of dynamic shared memory", p.dynamic_shared_bytes);
    std::string where = !p.target ? (a.paths.size() > 1 ? "Otherwise" : "Launch")
                                  : "On " + p.target->arch + " devices (compute capability " +
                                             fmt::format("{}.{}", path_compute_capability(p) / 10,
                                                         path_compute_capability(p) % 10) + ")";
    if (!p.tensor_maps.empty()) {
      std::vector<std::string> names;
      for (const AbiTensorMap& tm : p.tensor_maps) {
        const std::string& n = a.params[size_t(tm.param)].name;
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
      }
      where += ", when every array's base is 16-byte aligned, its innermost stride is 1 and its other strides are "
               "multiples of 16 bytes, and " + join(names, " and ") + " (read or written by TMA) have no zero extent and none over 2^31 - 1";
    }
    std::string path = a.paths.size() > 1 ? "the " + p.name + " path, " : "";
    std::string launch = fmt::format("{}: {}{} threads per CTA ({} warp{}); {}", where, path, p.threads_per_cta,
                                     p.num_warps, p.num_warps == 1 ? "" : "s", shared);
    if (p.num_stages > 1) launch += fmt::format("; {} pipeline stages", p.num_stages);
    if (p.cluster_dims[0] * p.cluster_dims[1] * p.cluster_dims[2] > 1)
      launch += fmt::format("; clusters of ({}, {}, {}) CTAs", p.cluster_dims[0], p.cluster_dims[1], p.cluster_dims[2]);
    launch += ".";
    if (p.variants.size() > 1 && p.variants[0].vectorized) {
      launch += " Variants: " + p.variants[0].entry +
                " when every array's base is 16-byte aligned, its innermost stride is 1, its other "
                "strides are multiples of 16 bytes and, for arrays moved in vectors, its innermost "
                "extent is a multiple of the vector; else " + p.variants.back().entry + ".";
    } else {
      launch += " Entry: " + p.variants[0].entry + ".";
    }
    out += wrap(comment_text(launch), "   ") + "\n";
  }
  if (!a.host_assert_messages.empty()) {
    std::vector<std::string> quoted;
    for (const std::string& msg : a.host_assert_messages) quoted.push_back("\"" + msg + "\"");
    out += wrap(comment_text("Asserts on extents, checked here: when one fails the launch returns "
                             "CUDA_ERROR_INVALID_VALUE before any driver call (nothing runs, the context stays "
                             "usable): " + join(quoted, ", ") + "."),
                "   ") + "\n";
  }
  out += "   Returns CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE for a bad argument, or the driver's error. */\n";
  (void)m;
  return out;
}

// The linker name of public symbol `name` (a kernel's symbol plus a suffix of
// header_symbol_suffixes()): `name_tilec_CONFIG`. Callers that include the header reach the
// definitions of their own configuration only, so two configurations of one kernel (other -D
// values, archs or flags, without --prefix) never merge; the plain `name` is a weak alias.
std::string linker_name(const Module& m, const std::string& name) { return name + "_tilec_" + m.config; }

// The asm label that gives a declaration its linker name (GCC and Clang; C and C++).
std::string asm_label(const Module& m, const std::string& name) {
  return " __asm__(\"" + linker_name(m, name) + "\")";
}

// k_config's parameters: the stream, the dimension symbols, the scalars.
std::string config_params(const Kernel& k) {
  std::string g = grid_params(k);
  return "CUstream stream" + (g == "uint32_t grid[3]" ? std::string() : ", " + g.substr(0, g.size() - 18));
}

std::string declare_kernel(const Module& m, const Public& pk) {
  const Kernel& k = pk.k;
  std::string out = describe_kernel(m, k);
  out += "CUresult " + k.sym + "(" + dense_params(k) + ")" + asm_label(m, k.sym) + ";\n\n";
  out += "/* The same launch on strided views: per array its extents and strides, in elements. */\n";
  out += "CUresult " + k.sym + "_strided(" + strided_params(k) + ")" + asm_label(m, k.sym + "_strided") + ";\n\n";
  out += "/* The grid the launch would use (CUDA_ERROR_INVALID_VALUE for negative extents or a grid\n"
         "   past the hardware limits).";
  if (k.abi.grid.uses_num_sms) out += " num_sms is read from the current context's device.";
  out += " */\n";
  out += "CUresult " + k.sym + "_grid(" + grid_params(k) + ")" + asm_label(m, k.sym + "_grid") + ";\n\n";
  out += fmt::format("/* Which configuration a launch with these extents takes on the stream's device (docs/tuning.md):\n"
                     "   its index (0 .. {}), or -1 when none is eligible (an assert on extents fails), an extent is\n"
                     "   negative or the driver fails. Arrays are taken as dense and 16-byte aligned. */\n",
                     pk.labels.size() - 1);
  out += "int " + k.sym + "_config(" + config_params(k) + ")" + asm_label(m, k.sym + "_config") + ";\n\n";
  out += "/* The launch of one configuration, whatever the choice would be: CUDA_ERROR_INVALID_VALUE when\n"
         "   `config` is not built into the image or its asserts on extents fail. */\n";
  out += "CUresult " + k.sym + "_launch_config(int config, " + dense_params(k) + ")" +
         asm_label(m, k.sym + "_launch_config") + ";\n";
  out += "CUresult " + k.sym + "_launch_config_strided(int config, " + strided_params(k) + ")" +
         asm_label(m, k.sym + "_launch_config_strided") + ";\n\n";
  if (k.workspace) {
    out += "/* Split-K configurations (split_k=) sum partial products in a workspace the caller gives each\n"
           "   launch: `workspace` (16-byte aligned; cuMemAlloc's are), `workspace_bytes` its size. This is\n"
           "   the most any configuration eligible for these extents needs (0: none); a launch with less\n"
           "   takes none of the configurations that need more (a forced one returns\n"
           "   CUDA_ERROR_INVALID_VALUE). Launches that may run at once need workspaces of their own. */\n";
    out += "size_t " + k.sym + "_workspace_bytes(" + extent_params(k) + ")" + asm_label(m, k.sym + "_workspace_bytes") +
           ";\n\n";
  }
  out += "/* Loads the kernel now (and into the current context, if any) instead of at the first launch:\n"
         "   call it before capturing a CUDA graph. Calls cuInit(0). */\n";
  out += "CUresult " + k.sym + "_load(void)" + asm_label(m, k.sym + "_load") + ";\n\n";
  out += "/* Frees the loaded kernel; the next launch loads it again. Must not race with launches. */\n";
  out += "CUresult " + k.sym + "_unload(void)" + asm_label(m, k.sym + "_unload") + ";\n\n";
  out += "extern const tilec_kernel_metadata " + k.sym + "_metadata" + asm_label(m, k.sym + "_metadata") + ";\n\n";
  return out;
}

// Weak aliases with the plain public names (`k`, `k_strided`, ..., `k_metadata`) for callers that
// do not include the header (dlsym, ctypes, hand-written declarations). ELF only.
std::string define_aliases(const Module& m, const Kernel& k) {
  auto alias = [&](const std::string& name) {
    return fmt::format("__asm__(\"{}\") __attribute__((weak, alias(\"{}\")))", name, linker_name(m, name));
  };
  auto local = [&](const std::string& name) { return linker_name(m, name) + "_alias"; };
  std::string out;
  out += fmt::format("CUresult {}({}) {};\n", local(k.sym), dense_params(k), alias(k.sym));
  out += fmt::format("CUresult {}({}) {};\n", local(k.sym + "_strided"), strided_params(k), alias(k.sym + "_strided"));
  out += fmt::format("CUresult {}({}) {};\n", local(k.sym + "_grid"), grid_params(k), alias(k.sym + "_grid"));
  out += fmt::format("int {}({}) {};\n", local(k.sym + "_config"), config_params(k), alias(k.sym + "_config"));
  out += fmt::format("CUresult {}(int config, {}) {};\n", local(k.sym + "_launch_config"), dense_params(k),
                     alias(k.sym + "_launch_config"));
  out += fmt::format("CUresult {}(int config, {}) {};\n", local(k.sym + "_launch_config_strided"), strided_params(k),
                     alias(k.sym + "_launch_config_strided"));
  if (k.workspace)
    out += fmt::format("size_t {}({}) {};\n", local(k.sym + "_workspace_bytes"), extent_params(k),
                       alias(k.sym + "_workspace_bytes"));
  out += fmt::format("CUresult {}(void) {};\n", local(k.sym + "_load"), alias(k.sym + "_load"));
  out += fmt::format("CUresult {}(void) {};\n", local(k.sym + "_unload"), alias(k.sym + "_unload"));
  out += fmt::format("extern const tilec_kernel_metadata {} {};\n", local(k.sym + "_metadata"), alias(k.sym + "_metadata"));
  return out;
}

// ---- definitions ----------------------------------------------------------------------------

std::string define_state(const Public& pk) {
  const Kernel& k = pk.k;
  std::vector<std::string> entries;
  auto add = [&](const Kernel& c) {
    for (const AbiPath& p : c.abi.paths)
      for (const AbiVariant& v : p.variants)
        entries.push_back(fmt::format("{{{}, {}, {}}}", c_string_literal(v.entry), path_compute_capability(p),
                                      p.dynamic_shared_bytes));
  };
  for (const Kernel& c : pk.configs) {
    add(c);
    for (const Kernel& r : c.reduce) add(r);
  }
  return fmt::format(
      "TILEC_ABI6_WEAK extern pthread_mutex_t {3};\n"
      "pthread_mutex_t {3} = PTHREAD_MUTEX_INITIALIZER;\n"
      "TILEC_ABI6_WEAK extern tilec_kernel_state {4};\n"
      "tilec_kernel_state {4} = TILEC_ABI6_ZERO;\n"
      "static const tilec_entry_desc {0}_tilec_entries[{1}] = {{\n    {2}}};\n\n",
      k.sym, entries.size(), join(entries, ",\n    "), k.lock, k.state);
}

// A configuration's path table (tilec_path_info), `<sym>_tilec_paths`, after what it points to.
std::string define_paths(const Kernel& k) {
  const KernelAbi& a = k.abi;
  std::string out;
  std::vector<std::string> paths;
  for (size_t i = 0; i < a.paths.size(); ++i) {
    const AbiPath& p = a.paths[i];
    std::vector<std::string> names;
    for (const AbiVariant& v : p.variants) names.push_back(c_string_literal(v.entry));
    std::string entries = fmt::format("{}_tilec_path{}_entries", k.sym, i);
    out += fmt::format("static const char* const {}[{}] = {{{}}};\n", entries, names.size(), join(names, ", "));
    std::string maps = "NULL";
    if (!p.tensor_maps.empty()) {
      std::vector<std::string> ms;
      for (const AbiTensorMap& tm : p.tensor_maps) {
        std::vector<std::string> box;
        for (int64_t b : tm.box) box.push_back(std::to_string(b));
        ms.push_back(fmt::format("{{{}, {}, {{{}}}}}", tm.param, tm.box.size(), join(box, ", ")));
      }
      maps = fmt::format("{}_tilec_path{}_maps", k.sym, i);
      out += fmt::format("static const tilec_tensor_map_info {}[{}] = {{{}}};\n", maps, ms.size(), join(ms, ", "));
    }
    std::string divisors = "NULL", divisor_dtypes = "NULL";
    if (!p.divisors.empty()) {
      std::vector<std::string> exprs, dtypes;
      for (const AbiDivisor& d : p.divisors) {
        exprs.push_back(c_string_literal(d.c_expr));
        dtypes.push_back(c_string_literal(dtype_name(d.dtype)));
      }
      divisors = fmt::format("{}_tilec_path{}_divisor_exprs", k.sym, i);
      divisor_dtypes = fmt::format("{}_tilec_path{}_divisor_dtypes", k.sym, i);
      out += fmt::format("static const char* const {}[{}] = {{{}}};\n", divisors, exprs.size(), join(exprs, ", "));
      out += fmt::format("static const char* const {}[{}] = {{{}}};\n", divisor_dtypes, dtypes.size(),
                         join(dtypes, ", "));
    }
    paths.push_back(fmt::format("{{{}, {}, {}, {}, {}, {}, {{{}, {}, {}}}, {}, {}, {}, {}, {}, {}, {}, {}}}",
                                c_string_literal(p.name), p.target ? c_string_literal(p.target->arch) : "NULL",
                                p.num_warps, p.num_stages, p.threads_per_cta, p.dynamic_shared_bytes,
                                p.cluster_dims[0], p.cluster_dims[1], p.cluster_dims[2], p.variants.size(), entries,
                                p.tensor_maps.size(), maps, p.persistent ? 1 : 0, p.divisors.size(), divisors,
                                divisor_dtypes));
  }
  out += fmt::format("static const tilec_path_info {}_tilec_paths[{}] = {{\n    {}}};\n", k.sym, paths.size(),
                     join(paths, ",\n    "));
  return out;
}

// The grid's expressions as a C initializer of string literals, for the metadata.
std::string grid_literals(const KernelAbi& a) {
  std::vector<std::string> g;
  for (const std::string& e : grid_exprs(a)) g.push_back(c_string_literal(e));
  return "{" + join(g, ", ") + "}";
}

std::string define_metadata(const Module& m, const Public& pk) {
  const Kernel& k = pk.k;
  const KernelAbi& a = k.abi;
  std::string out;
  std::vector<std::string> params;
  for (const AbiParam& p : a.params) {
    std::string dims = "NULL";
    if (is_array(p) && !p.dims.empty()) {
      std::vector<std::string> ds;
      for (const ArrayDim& d : p.dims)
        ds.push_back(c_string_literal(d.symbol.empty() ? std::to_string(d.constant) : d.symbol));
      dims = k.sym + "_tilec_dims_" + p.name;
      out += fmt::format("static const char* const {}[{}] = {{{}}};\n", dims, ds.size(), join(ds, ", "));
    }
    params.push_back(fmt::format("{{{}, {}, {}, {}, {}, {}, {}}}", c_string_literal(p.name),
                                 c_string_literal(dtype_name(p.dtype)),
                                 is_array(p) ? "TILEC_PARAM_ARRAY" : "TILEC_PARAM_SCALAR", dtype_bytes(p.dtype),
                                 is_array(p) ? p.dims.size() : 0, dims, is_array(p) && p.may_write ? 1 : 0));
  }
  std::string params_name = "NULL";
  if (!params.empty()) {
    params_name = k.sym + "_tilec_params";
    out += fmt::format("static const tilec_param_info {}[{}] = {{\n    {}}};\n", params_name, params.size(),
                       join(params, ",\n    "));
  }
  std::string symbols_name = "NULL";
  if (!a.dim_symbols.empty()) {
    std::vector<std::string> ss;
    for (const std::string& s : a.dim_symbols) ss.push_back(c_string_literal(s));
    symbols_name = k.sym + "_tilec_symbols";
    out += fmt::format("static const char* const {}[{}] = {{{}}};\n", symbols_name, ss.size(), join(ss, ", "));
  }
  std::vector<std::string> configs;
  size_t built = 0;
  for (size_t i = 0; i < pk.labels.size(); ++i) {
    if (built < pk.configs.size() && pk.configs[built].index == int(i)) {
      const Kernel& c = pk.configs[built++];
      out += define_paths(c);
      configs.push_back(fmt::format("{{{}, {}, {}, {}_tilec_paths}}", c_string_literal(pk.labels[i]),
                                    grid_literals(c.abi), c.abi.paths.size(), c.sym));
    } else {
      configs.push_back("{NULL, {NULL, NULL, NULL}, 0, NULL}");
    }
  }
  out += fmt::format("static const tilec_config_info {}_tilec_configs[{}] = {{\n    {}}};\n", k.sym, configs.size(),
                     join(configs, ",\n    "));
  const Kernel& first = pk.configs[0];
  out += fmt::format("TILEC_ABI6_WEAK extern const tilec_kernel_metadata {}_metadata;\n", k.sym);
  out += fmt::format("const tilec_kernel_metadata {}_metadata = {{\n", k.sym);
  out += fmt::format("    {}, {}, {}, {}, {},\n", kHeaderAbiVersion, c_string_literal(a.name),
                     c_string_literal(m.in.source_name), c_string_literal(m.in.tilec_version),
                     c_string_literal(m.in.cuda_version));
  out += fmt::format("    {}, {}, {}, {},\n", a.params.size(), params_name, a.dim_symbols.size(), symbols_name);
  out += fmt::format("    {}, {},\n", m.in.constants.size(),
                     m.in.constants.empty() ? "NULL" : m.base + "_tilec_constants");
  out += fmt::format("    {},\n", grid_literals(first.abi));
  out += fmt::format("    {}, {}_tilec_paths,\n", first.abi.paths.size(), first.sym);
  out += fmt::format("    {}, {}, {},\n", m.archs.size(),
                     m.archs.empty() ? "NULL" : m.base + "_tilec_archs",
                     m.ptx_arch.empty() ? "NULL" : c_string_literal(m.ptx_arch));
  out += fmt::format("    {}, {},\n", m.image, m.in.image.size());
  out += fmt::format("    {}, {}_tilec_configs, {}, {}}};\n\n", configs.size(), k.sym,
                     pk.space.empty() ? "NULL" : c_string_literal(pk.space), pk.tuning ? pk.tuning->size() : 0);
  return out;
}

// A static inline function `name` that sets out[i] to exprs[i], C expressions over int64_t
// parameters named after the dimension symbols, the integer scalars and, with `num_sms`,
// num_sms: how the stub computes the grid and a path's launch divisors from the same values.
std::string define_symbol_function(const Kernel& k, const std::string& name, bool num_sms, const std::string& out,
                                   const std::vector<std::string>& exprs) {
  std::vector<std::string> ps, voids;
  for (const std::string& s : k.abi.dim_symbols) ps.push_back("int64_t " + s);
  for (const AbiParam* s : k.scalars)
    if (is_grid_scalar(*s)) ps.push_back("int64_t " + s->name);
  if (num_sms) ps.push_back("int64_t num_sms");
  for (const std::string& p : ps) voids.push_back("(void)" + p.substr(p.rfind(' ') + 1) + ";");
  ps.push_back(fmt::format("int64_t {}[{}]", out, exprs.size()));
  std::string text = fmt::format("static inline void {}({}) {{\n", name, join(ps, ", "));
  if (!voids.empty()) text += "  " + join(voids, " ") + "\n";
  for (size_t i = 0; i < exprs.size(); ++i) text += fmt::format("  {}[{}] = {};\n", out, i, exprs[i]);
  return text + "}\n\n";
}

// The grid expressions as a function of the dimension symbols, the integer scalars and num_sms.
std::string define_grid_expr(const Kernel& k) {
  return define_symbol_function(k, k.sym + "_tilec_grid_expr", k.abi.grid.uses_num_sms, "tilec_g", grid_exprs(k.abi));
}

// Per path with launch divisors (kernel_abi.h AbiDivisor): their values, like the grid's.
std::string define_divisor_exprs(const Kernel& k) {
  std::string out;
  for (size_t i = 0; i < k.abi.paths.size(); ++i) {
    std::vector<std::string> exprs;
    for (const AbiDivisor& d : k.abi.paths[i].divisors) exprs.push_back(d.c_expr);
    if (!exprs.empty())
      out += define_symbol_function(k, fmt::format("{}_tilec_path{}_divisors", k.sym, i), false, "tilec_d", exprs);
  }
  return out;
}

// The stub's extents, for symbol_function_args.
std::string stub_extent(size_t i) { return "tilec_sym[" + std::to_string(i) + "]"; }

// K_grid: configuration c's grid (`c` the public interface's, the first, for a kernel without
// a choice); with a choice, the configuration a launch on the current context's device takes.
std::string define_grid_function(const Public& pk) {
  const Kernel& k = pk.k;
  std::string out = fmt::format("TILEC_ABI6_WEAK CUresult {0}_grid({1});\nCUresult {0}_grid({1}) {{\n", k.sym,
                                grid_params(k));
  bool sms = false;
  for (const Kernel& c : pk.configs) sms = sms || c.abi.grid.uses_num_sms;
  out += "  int64_t tilec_g[3];\n";
  if (sms) out += "  int64_t tilec_sms = 0;\n  CUdevice tilec_dev = 0;\n  CUresult tilec_r;\n";
  for (const AbiParam* s : k.scalars)
    if (!is_grid_scalar(*s)) out += "  (void)" + s->name + ";\n";
  for (const std::string& s : k.abi.dim_symbols)
    out += "  if (" + s + " < 0) return CUDA_ERROR_INVALID_VALUE;\n";
  if (sms) {
    out += "  tilec_r = cuCtxGetDevice(&tilec_dev);\n"
           "  if (tilec_r == CUDA_SUCCESS) tilec_r = tilec_num_sms(tilec_dev, &tilec_sms);\n"
           "  if (tilec_r != CUDA_SUCCESS) return tilec_r;\n";
  }
  auto grid_of = [&](const Kernel& c, const std::string& ind) {
    return fmt::format("{}{}_tilec_grid_expr({});\n", ind, c.sym,
                       symbol_function_args(c, [&](size_t i) { return k.abi.dim_symbols[i]; },
                                            c.abi.grid.uses_num_sms ? "tilec_sms" : "", "tilec_g"));
  };
  if (!pk.choose) {
    out += grid_of(pk.configs[0], "  ");
  } else {
    std::vector<std::string> args = {"NULL"};
    for (const std::string& d : k.abi.dim_symbols) args.push_back(d);
    for (const AbiParam* s : k.scalars) args.push_back(s->name);
    out += fmt::format("  switch ({}_config({})) {{\n", k.sym, join(args, ", "));
    for (const Kernel& c : pk.configs) out += fmt::format("    case {}:\n{}      break;\n", c.index, grid_of(c, "      "));
    out += "    default: return CUDA_ERROR_INVALID_VALUE;\n  }\n";
  }
  out += "  return tilec_grid_to_u32(tilec_g, grid);\n}\n\n";
  return out;
}

// The array descriptions: per array, which symbol or constant each dimension is.
std::string array_tables(const Kernel& k, const std::vector<int>& vector_bytes) {
  std::string out;
  std::vector<std::string> descs;
  for (size_t ai = 0; ai < k.arrays.size(); ++ai) {
    const AbiParam* a = k.arrays[ai];
    std::string sym = "NULL", cst = "NULL";
    if (!a->dims.empty()) {
      std::vector<std::string> syms, csts;
      for (const ArrayDim& d : a->dims) {
        auto it = std::find(k.abi.dim_symbols.begin(), k.abi.dim_symbols.end(), d.symbol);
        syms.push_back(d.symbol.empty() ? "-1" : std::to_string(it - k.abi.dim_symbols.begin()));
        csts.push_back(d.symbol.empty() ? std::to_string(d.constant) : "0");
      }
      sym = "tilec_sym_" + a->name;
      cst = "tilec_const_" + a->name;
      out += fmt::format("  static const int {}[{}] = {{{}}};\n", sym, syms.size(), join(syms, ", "));
      out += fmt::format("  static const int64_t {}[{}] = {{{}}};\n", cst, csts.size(), join(csts, ", "));
    }
    descs.push_back(fmt::format("{{{}, {}, {}, {}, {}, {}}}", a->dims.size(), dtype_bytes(a->dtype),
                                a->may_write ? 1 : 0, vector_bytes[ai], sym, cst));
  }
  out += fmt::format("  static const tilec_array_desc tilec_desc[{}] = {{\n      {}}};\n", descs.size(),
                     join(descs, ",\n      "));
  return out;
}

// The launch stub's values of path `p`'s (the kernel's path `path`) entry parameters after its
// tensor maps (whose arguments `args` holds), each in a variable `tilec_p<n>` whose address
// goes to `args`: a persistent grid's logical grid, and each launch divisor with its magic
// number and shifts (tilec_divisor_magic), come last.
void pack_params(const Kernel& k, const AbiPath& p, size_t path, const std::string& ind, std::string& out,
                 std::vector<std::string>& args) {
  const KernelAbi& a = k.abi;
  int n = 0;
  auto param = [&](const std::string& type, const std::string& value) {
    out += fmt::format("{}{} tilec_p{} = {};\n", ind, type, n, value);
    args.push_back(fmt::format("&tilec_p{}", n++));
  };
  using K = codegen::EntryParam::Kind;
  for (const codegen::EntryParam& e : codegen::entry_params(a, p)) {
    auto source = [&]() -> const AbiParam& { return a.params[size_t(e.index)]; };  // Base, Stride, Scalar
    switch (e.kind) {
      case K::TensorMap: break;  // encoded before
      case K::Base: param("CUdeviceptr", source().name); break;
      case K::Stride:
        param("int64_t", fmt::format("{}[{}]", array_argument_name(source().name, "strides"), e.part));
        break;
      case K::Extent: param("int64_t", fmt::format("tilec_sym[{}]", e.index)); break;
      case K::Scalar: param(c_param_type(source().dtype), ptx_scalar_value(source())); break;
      case K::GridSize: param("uint32_t", fmt::format("tilec_grid[{}]", e.index)); break;
      case K::Divisor: {
        if (e.index == 0) {
          out += fmt::format("{}int64_t tilec_dv[{}];\n{}uint32_t tilec_mg[{}][3];\n", ind, p.divisors.size(), ind,
                             p.divisors.size());
          out += fmt::format("{}{}_tilec_path{}_divisors({});\n", ind, k.sym, path,
                             symbol_function_args(k, stub_extent, "", "tilec_dv"));
        }
        bool wide = dtype_bits(e.dtype) == 64;
        out += fmt::format("{}tilec_divisor_magic({}tilec_dv[{}], tilec_mg[{}]);\n", ind,
                           wide ? "(uint64_t)" : "(uint32_t)", e.index, e.index);
        param(c_param_type(e.dtype), fmt::format("({})tilec_dv[{}]", c_param_type(e.dtype), e.index));
        break;
      }
      case K::DivisorMagic: param("uint32_t", fmt::format("tilec_mg[{}][{}]", e.index, e.part)); break;
    }
  }
}

// The arguments a configuration's launch function takes after the stream: the strided
// launch's arrays and scalars, as named there.
std::vector<std::string> strided_args(const Kernel& k) {
  std::vector<std::string> args;
  for (const AbiParam* a : k.arrays) {
    args.push_back(a->name);
    if (!a->dims.empty())
      args.push_back(array_argument_name(a->name, "shape") + ", " + array_argument_name(a->name, "strides"));
  }
  for (const AbiParam* s : k.scalars) args.push_back(s->name);
  if (k.workspace) args.push_back("workspace, workspace_bytes");
  return args;
}

// Configuration c's launch once the arrays are checked (tilec_sym, tilec_vec): its asserts on
// extents, its own vector condition, its grid, then the path the device runs. tilec_dev is the
// stream's device, or -1 until asked.
std::string define_config_launch(const Module& m, const Public& pk, const Kernel& k) {
  const KernelAbi& a = k.abi;
  std::string out = fmt::format("static CUresult {}_launch({},\n    const int64_t* tilec_sym, int tilec_vec, CUdevice tilec_dev) {{\n",
                                k.sym, strided_params(k));
  out += "  int64_t tilec_g[3];\n  uint32_t tilec_grid[3];\n  int tilec_entry;\n";
  if (k.abi.paths.size() > 1 || !m.pdl.empty()) out += "  int tilec_cc = 0;\n";
  if (a.grid.uses_num_sms) out += "  int64_t tilec_sms = 0;\n";
  out += "  CUresult tilec_r = CUDA_SUCCESS;\n  (void)tilec_sym;\n  (void)tilec_dev;\n";
  // Not every path reads every argument (a portable path takes no extents, only strides).
  std::vector<std::string> unused;
  for (const std::string& arg : strided_args(k))
    for (size_t at = 0; at < arg.size();) {
      size_t comma = arg.find(", ", at);
      unused.push_back("(void)" + arg.substr(at, comma == std::string::npos ? std::string::npos : comma - at) + ";");
      at = comma == std::string::npos ? arg.size() : comma + 2;
    }
  if (!unused.empty()) out += wrap(join(unused, " "), "  ") + "\n";
  if (!a.host_asserts.empty()) {
    // Asserts the host can check (host_assert.h): a failing one is a bad argument, refused
    // before the driver is touched, instead of a device assert that ends the CUDA context.
    out += fmt::format("  if (!({})) return CUDA_ERROR_INVALID_VALUE;  /* the kernel's asserts on extents */\n",
                       join(a.host_asserts, " && "));
  }
  for (size_t i = 0; i < k.arrays.size(); ++i) {
    const AbiParam* p = k.arrays[i];
    if (p->workspace) continue;  // the split launch checked it (define_split_launch)
    if (p->vector_bytes != pk.vector_bytes[i])
      out += fmt::format("  if (!tilec_vector_extent({}, {}, {}, {})) tilec_vec = 0;\n", p->dims.size(),
                         array_argument_name(p->name, "shape"), dtype_bytes(p->dtype), p->vector_bytes);
  }
  // The grid, then nothing more for an empty one; a grid with num_sms needs the device first.
  std::string grid = fmt::format("  {}_tilec_grid_expr({});\n", k.sym,
                                 symbol_function_args(k, stub_extent, a.grid.uses_num_sms ? "tilec_sms" : "",
                                                      "tilec_g")) +
                     "  tilec_r = tilec_grid_to_u32(tilec_g, tilec_grid);\n"
                     "  if (tilec_r != CUDA_SUCCESS) return tilec_r;\n"
                     "  if (tilec_grid[0] == 0 || tilec_grid[1] == 0 || tilec_grid[2] == 0) return CUDA_SUCCESS;\n";
  if (!a.grid.uses_num_sms) out += grid;
  if (k.needs_device) {
    out += "  if (tilec_dev < 0) {\n"
           "    tilec_r = tilec_stream_device(stream, &tilec_dev);\n"
           "    if (tilec_r != CUDA_SUCCESS) return tilec_r;\n"
           "  }\n";
  }
  if (a.grid.uses_num_sms) {
    out += "  tilec_r = tilec_num_sms(tilec_dev, &tilec_sms);\n"
           "  if (tilec_r != CUDA_SUCCESS) return tilec_r;\n";
    out += grid;
  }
  out += fmt::format("  tilec_r = tilec_load(&{3}, &{4}, {1}, {2}, {0}_tilec_entries);\n"
                     "  if (tilec_r != CUDA_SUCCESS) return tilec_r;\n",
                     k.pub, m.image, pk.k.num_entries, k.state, k.lock);
  out += "  (void)tilec_vec;\n";
  // An arch-specific path where the device has its code (and, for a TMA path, the arrays take
  // tensor maps), else the portable one. Each path launches with its own threads, shared memory,
  // clusters and parameters.
  if (a.paths.size() > 1 || !m.pdl.empty()) {
    out += fmt::format("  tilec_r = tilec_compute_capability(&{}, tilec_dev, &tilec_cc);\n"
                       "  if (tilec_r != CUDA_SUCCESS) return tilec_r;\n",
                       k.state);
  }
  for (size_t i = 0; i < a.paths.size(); ++i) {
    const AbiPath& p = a.paths[i];
    size_t e = k.first_entry[i];
    bool last = i + 1 == a.paths.size();
    bool pvec = p.variants.size() > 1 && p.variants[0].vectorized;
    bool vec_only = p.variants.size() == 1 && p.variants[0].vectorized;
    std::string choose = pvec ? fmt::format("tilec_vec ? {} : {}", e, e + 1) : std::to_string(e);
    std::string ind = "    ";
    if (last) {
      out += fmt::format("  tilec_entry = {};\n  {{\n", choose);
    } else {
      out += fmt::format("  if ({}tilec_entry_runs(&{}, {}_tilec_entries, {}, tilec_cc)) {{\n",
                         vec_only ? "tilec_vec && " : "", k.state, k.pub, e);
      out += fmt::format("    tilec_entry = {};\n", choose);
    }
    // Tensor maps first (the stub falls through to the next path when one cannot be encoded).
    std::vector<std::string> args;
    if (!p.tensor_maps.empty()) {
      std::vector<std::string> encoded;
      for (size_t t = 0; t < p.tensor_maps.size(); ++t) {
        const AbiTensorMap& tm = p.tensor_maps[t];
        const AbiParam& arr = a.params[size_t(tm.param)];
        std::vector<std::string> box;
        for (int64_t b : tm.box) box.push_back(std::to_string(b));
        out += fmt::format("    CUtensorMap tilec_map{} __attribute__((aligned(128)));\n", t);
        out += fmt::format("    static const uint32_t tilec_box{}[{}] = {{{}}};\n", t, box.size(), join(box, ", "));
        encoded.push_back(fmt::format("tilec_encode_tensor_map(&tilec_map{}, {}, {}, {}, {}, {}, {}, tilec_box{}) == CUDA_SUCCESS",
                                      t, tensor_map_dtype(arr.dtype), dtype_bytes(arr.dtype), arr.dims.size(), arr.name,
                                      array_argument_name(arr.name, "shape"), array_argument_name(arr.name, "strides"), t));
        args.push_back(fmt::format("&tilec_map{}", t));
      }
      out += "    if (" + join(encoded, " &&\n        ") + ") {\n";
      ind = "      ";
    }
    out += fmt::format("{}/* PTX parameters (kernel_abi.h): {}per array its base and strides, then the\n"
                       "{}   dimension symbols, then the scalars. */\n",
                       ind, p.tensor_maps.empty() ? "" : "the tensor maps, then ", ind);
    pack_params(k, p, i, ind, out, args);
    std::string grid = "tilec_grid";
    bool clustered = p.cluster_dims[0] * p.cluster_dims[1] * p.cluster_dims[2] > 1;
    if (args.empty()) {
      out += ind + "void** tilec_args = NULL;\n";
    } else {
      out += fmt::format("{}void* tilec_args[{}] = {{{}}};\n", ind, args.size(), join(args, ", "));
    }
    out += fmt::format("{}static const int tilec_cluster[3] = {{{}, {}, {}}};\n", ind, p.cluster_dims[0],
                       p.cluster_dims[1], p.cluster_dims[2]);
    if (p.dynamic_shared_bytes > kDefaultSharedLimit) {
      out += fmt::format(
          "{0}tilec_r = tilec_raise_shared_limit({1}.shared_limit_done[tilec_entry],\n"
          "{0}                                   {1}.kernels[tilec_entry], tilec_dev, {2});\n"
          "{0}if (tilec_r != CUDA_SUCCESS) return tilec_r;\n",
          ind, k.state, p.dynamic_shared_bytes);
    }
    if (p.persistent) {
      // min(CTAs, SMs) CTAs along x loop over the logical grid. In clusters (along x only): as
      // many CTAs as clusters fit (after the shared memory limit is raised: occupancy depends on
      // it), and the logical CTAs rounded up to whole clusters (a CTA past the last takes no tile).
      out += fmt::format("{0}int64_t tilec_nsm = 0;\n"
                         "{0}uint32_t tilec_pgrid[3] = {{1, 1, 1}};\n"
                         "{0}uint64_t tilec_ctas = (uint64_t)tilec_grid[0] * tilec_grid[1] * tilec_grid[2];\n",
                         ind);
      if (clustered) {
        out += fmt::format("{0}static int64_t tilec_resident[256];\n"
                           "{0}tilec_r = tilec_cluster_ctas(tilec_resident, {1}.kernels[tilec_entry], "
                           "tilec_dev, {2}, {3}, tilec_cluster, stream, &tilec_nsm);\n"
                           "{0}tilec_ctas = (tilec_ctas + {4}) / {5} * {5};\n",
                           ind, k.state, p.threads_per_cta, p.dynamic_shared_bytes, p.cluster_dims[0] - 1,
                           p.cluster_dims[0]);
      } else {
        out += fmt::format("{0}tilec_r = tilec_num_sms(tilec_dev, &tilec_nsm);\n", ind);
      }
      out += fmt::format("{0}if (tilec_r != CUDA_SUCCESS) return tilec_r;\n"
                         "{0}tilec_pgrid[0] = (uint32_t)(tilec_ctas < (uint64_t)tilec_nsm ? tilec_ctas : (uint64_t)tilec_nsm);\n",
                         ind);
      grid = "tilec_pgrid";
    }
    out += fmt::format("{0}return tilec_launch({5}.kernels[tilec_entry], {1}_tilec_entries[tilec_entry].name,\n"
                       "{0}                    {4}, {2}, {3}, tilec_cluster, {6}, stream, tilec_args);\n",
                       ind, k.pub, p.threads_per_cta, p.dynamic_shared_bytes, grid, k.state,
                       m.pdl.empty() ? "0" : "(" + m.pdl + ")");
    if (!p.tensor_maps.empty()) out += "    }\n";
    out += "  }\n";
  }
  out += "}\n\n";
  return out;
}

// K and K_launch_config: the dense forms of K_strided and K_launch_config_strided.
std::string define_dense(const Kernel& k, bool forced) {
  std::string name = forced ? k.sym + "_launch_config" : k.sym;
  std::string params = (forced ? "int config, " : "") + dense_params(k);
  std::string out = fmt::format("TILEC_ABI6_WEAK CUresult {0}({1});\nCUresult {0}({1}) {{\n", name, params);
  std::vector<std::string> checks, call = {"stream"};
  if (forced) call.insert(call.begin(), "config");
  for (const AbiParam* p : k.arrays) {
    call.push_back(p->name);
    if (p->dims.empty()) continue;
    std::vector<std::string> extents, ones;
    for (const ArrayDim& d : p->dims) {
      extents.push_back(d.symbol.empty() ? std::to_string(d.constant) : d.symbol);
      ones.push_back("1");
    }
    size_t r = p->dims.size();
    std::string shape = "tilec_" + array_argument_name(p->name, "shape");
    std::string strides = "tilec_" + array_argument_name(p->name, "strides");
    out += fmt::format("  const int64_t {0}[{2}] = {{{3}}};\n  int64_t {1}[{2}] = {{{4}}};\n", shape, strides, r,
                       join(extents, ", "), join(ones, ", "));
    checks.push_back(fmt::format("!tilec_row_major({}, {}, {})", r, shape, strides));
    call.push_back(shape + ", " + strides);
  }
  for (const AbiParam* s : k.scalars) call.push_back(s->name);
  if (k.workspace) call.push_back("workspace, workspace_bytes");
  if (!checks.empty()) out += "  if (" + join(checks, " || ") + ") return CUDA_ERROR_INVALID_VALUE;\n";
  out += fmt::format("  return {}_{}strided({});\n}}\n\n", k.sym, forced ? "launch_config_" : "", join(call, ", "));
  return out;
}

std::string define_load_unload(const Kernel& k, const Module& m) {
  return fmt::format(
      "TILEC_ABI6_WEAK CUresult {0}_load(void);\n"
      "CUresult {0}_load(void) {{\n"
      "  CUresult tilec_r = tilec_load(&{3}, &{4}, {1}, {2}, {0}_tilec_entries);\n"
      "  if (tilec_r != CUDA_SUCCESS) return tilec_r;\n"
      "  return tilec_load_into_current(&{3}, {2}, {0}_tilec_entries);\n"
      "}}\n\n"
      "TILEC_ABI6_WEAK CUresult {0}_unload(void);\n"
      "CUresult {0}_unload(void) {{ return tilec_unload(&{3}, &{4}); }}\n\n",
      k.sym, m.image, k.num_entries, k.state, k.lock);
}

std::string define_module(const Module& m) {
  std::string out;
  if (!m.in.constants.empty()) {
    std::vector<std::string> cs;
    for (const HeaderConstant& c : m.in.constants)
      cs.push_back("{" + c_string_literal(c.name) + ", " + c_string_literal(c.value) + "}");
    out += fmt::format("static const tilec_constant_info {}_tilec_constants[{}] = {{\n    {}}};\n", m.base,
                       cs.size(), join(cs, ",\n    "));
  }
  if (!m.archs.empty()) {
    std::vector<std::string> as;
    for (const std::string& a : m.archs) as.push_back(c_string_literal(a));
    out += fmt::format("static const char* const {}_tilec_archs[{}] = {{{}}};\n", m.base, as.size(), join(as, ", "));
  }
  size_t words = image_word_count(m.in.image.size());
  out += fmt::format(
      "\n/* The fatbin ({} bytes) as little-endian 64-bit words: 8-byte aligned, as the driver wants. */\n"
      "TILEC_ABI6_WEAK extern const uint64_t {}[{}];\n"
      "const uint64_t {}[{}] = {{\n",
      m.in.image.size(), m.image, words, m.image, words);
  out += image_words(m.in.image);
  out += "};\n\n";
  return out;
}

// The header text with `config` as the configuration hash.
std::string render_header(const HeaderInput& in, const std::string& config) {
  std::vector<std::string> archs;
  for (const codegen::Target& t : in.targets) archs.push_back(t.arch);
  Module m{in, in.prefix + in.kernels[0].name, "", archs, codegen::forward_compatible_ptx_arch(archs), config, "",
           pdl_condition(in.targets)};
  m.guard = upper_identifier(m.base) + "_TILEC";
  m.image = m.base + "_tilec_" + config + "_image";
  std::vector<Public> kernels;
  for (size_t i = 0; i < in.kernels.size(); ++i) kernels.push_back(make_public(m, i));
  std::vector<std::string> kernel_names;
  for (const Public& k : kernels) kernel_names.push_back(k.k.sym);

  std::string out;
  std::string sass = archs.empty() ? "none" : join(archs, " ");
  std::string ptx = m.ptx_arch.empty() ? "no PTX" : "PTX for " + m.ptx_arch;
  out += "/* " + comment_text("Generated by tilec " + in.tilec_version + " from " + in.source_name + ". Do not edit.") + "\n";
  out += wrap(comment_text("Image: SASS for " + sass + ", " + ptx + " (ptxas " + in.cuda_version + ")."), "   ") + "\n";
  out += wrap("Kernels: " + join(kernel_names, ", ") + ".", "   ") + "\n";
  out += wrap(fmt::format("Needs cuda.h from CUDA 12.0 or newer and GCC or Clang; link with -lcuda. Every "
                          "translation unit may include this header (its definitions are weak: one copy is "
                          "kept and each kernel loads once per process); define {0}_DECLARATIONS_ONLY before "
                          "including it to leave the image out of that unit. Linker symbols carry the "
                          "configuration hash {0}_CONFIG, so headers of other -D values, -arch or flags "
                          "never share definitions; to include two in one file, give them different "
                          "--prefix. Usage and rules: tilec's docs/header.md. */",
                          m.guard),
              "   ") + "\n";
  // One translation unit with two configurations of the same names is an error here; in two
  // translation units they do not meet (linker_name).
  out += fmt::format("#if defined({0}_H) && {0}_CONFIG != 0x{1}\n"
                     "#error {2}\n"
                     "#endif\n"
                     "#ifndef {0}_H\n#define {0}_H\n#define {0}_CONFIG 0x{1}\n\n",
                     m.guard, m.config,
                     c_string_literal("another configuration of " + join(kernel_names, ", ") + " (other -D values, "
                                      "-arch or flags) is already included in this translation unit; give one of "
                                      "them a --prefix"));
  // cuda.h itself uses anonymous unions, which -std=c99 -Wpedantic rejects; keep that out of
  // the user's build when cuda.h is found through -I instead of -isystem.
  out += "#if defined(__GNUC__)\n#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Wpedantic\"\n#endif\n"
         "#include <cuda.h>\n"
         "#if defined(__GNUC__)\n#pragma GCC diagnostic pop\n#endif\n";
  out += "#include <pthread.h>\n#include <stdbool.h>\n#include <stdint.h>\n#include <stdlib.h>\n#include <string.h>\n\n";
  out += "#if !defined(CUDA_VERSION) || CUDA_VERSION < 12000\n"
         "#error \"this tilec header needs cuda.h from CUDA 12.0 or newer (cuLibraryLoadData)\"\n#endif\n"
         "#if !defined(__GNUC__)\n"
         "#error \"this tilec header needs GCC or Clang (weak symbols, __atomic builtins)\"\n#endif\n"
         "#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__\n"
         "#error \"the embedded image is stored as little-endian words\"\n#endif\n\n";
  out += fmt::format("#define {}_ABI_VERSION {}\n\n", m.guard, kHeaderAbiVersion);
  out += "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  out += header_runtime_section();
  out += "\n";
  for (const Public& k : kernels) out += declare_kernel(m, k);

  out += fmt::format("#ifndef {}_DECLARATIONS_ONLY\n\n", m.guard);
  out += define_module(m);
  for (const Public& pk : kernels) {
    const Kernel& k = pk.k;
    out += "/* ---- " + k.sym + ": definitions ---- */\n";
    out += define_state(pk);
    out += define_metadata(m, pk);
    for (const Kernel& c : pk.configs) {
      out += define_grid_expr(c);
      out += define_divisor_exprs(c);
      out += define_config_launch(m, pk, c);
      for (const Kernel& r : c.reduce) {
        out += define_grid_expr(r);
        out += define_divisor_exprs(r);
        out += define_config_launch(m, pk, r);
        out += define_split_launch(pk, c);
      }
    }
    if (pk.tuning && !pk.tuning->empty()) out += define_tuning(pk);
    if (pk.choose) out += define_choose(pk);
    out += define_config_function(pk);
    out += define_grid_function(pk);
    out += define_run(pk);
    out += define_dense(k, false);
    out += define_dense(k, true);
    if (k.workspace) out += define_workspace_function(pk);
    out += define_load_unload(k, m);
  }
  out += "#if defined(__ELF__)\n/* The plain public names, for callers without this header (dlsym, ctypes). */\n";
  for (const Public& k : kernels) out += define_aliases(m, k.k);
  out += "#endif\n\n";
  out += fmt::format("#endif /* {}_DECLARATIONS_ONLY */\n\n", m.guard);
  out += "#ifdef __cplusplus\n}  /* extern \"C\" */\n#endif\n\n";
  out += fmt::format("#endif /* {}_H */\n", m.guard);
  return out;
}

}  // namespace tilec::header_parts

namespace tilec {

using namespace header_parts;

std::string generate_header(const HeaderInput& in) {
  TILEC_ASSERT(!in.kernels.empty(), "a header needs at least one kernel");
  std::vector<std::string> names, errors;
  for (const KernelAbi& k : in.kernels) names.push_back(k.name);
  for (const KernelAbi& k : in.kernels) {
    std::string error;
    if (!check_kernel_name(in.prefix, k.name, names, error)) errors.push_back(error);
    check_kernel_abi(k, errors);
  }
  TILEC_ASSERT(errors.empty(), "header input not checked: " + join(errors, "; "));
  // The configuration hash: 48 bits of a hash of the whole text (image, launch data, constants,
  // archs, versions) written with a placeholder hash. The same tilec, source and flags give the
  // same hash in every translation unit; any difference in the header gives another.
  // XXH3 (xxHash 0.8): its 64-bit output is specified, the same on every platform and build.
  std::string draft = render_header(in, "000000000000");
  uint64_t h = XXH3_64bits(draft.data(), draft.size()) & 0xffffffffffffull;
  return render_header(in, fmt::format("{:012x}", h));
}

}  // namespace tilec
