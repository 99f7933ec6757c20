// The output kinds (output_kinds.h) and their writers.
#include "driver/output_kinds.h"

#include <iterator>

#include "basic/diagnostics.h"
#include "basic/stage_timer.h"
#include "driver/stages.h"
#include "frontend/ast.h"

namespace tilec {
namespace {

std::string print_kernels(const std::vector<std::unique_ptr<ir::Function>>& kernels) {
  std::string out;
  for (const auto& f : kernels) {
    StageTimer timer("print", f->name);
    out += ir::print(*f);
  }
  return out;
}

std::string write_tokens(const Compilation& c) { return c.tokens; }
std::string write_syntax(const Compilation& c) { return print_ast(*c.module, c.sm, false); }
std::string write_ast(const Compilation& c) { return print_ast(*c.program.modules[0], c.sm, true); }
std::string write_tir(const Compilation& c) { return print_kernels(c.kernels); }
std::string write_tir_lowered(const Compilation& c) { return codegen::print_lowered_module(c.code); }
std::string write_ptx(const Compilation& c) { return c.code.targets[0].ptx; }
std::string write_cubin(const Compilation& c) { return c.assembled.modules[0].cubin.bytes; }
std::string write_fatbin(const Compilation& c) { return c.assembled.fatbin.bytes; }
std::string write_header(const Compilation& c) { return c.header; }

// PTX, a cubin and a fatbin are the first or every target's code (options.h EmitKind); the
// header embeds the fatbin. Text forms go to standard output unless -o names a file.
constexpr OutputKind kOutputKinds[] = {
    // name, kind, last stage, extensions, chosen by extension, noun, default suffix, kernel output, writer
    {"tokens", EmitKind::Tokens, Stage::Tokens, "", false, "", "", nullptr, write_tokens},
    {"syntax", EmitKind::Syntax, Stage::Parse, "", false, "", "", nullptr, write_syntax},
    {"ast", EmitKind::Ast, Stage::Check, "", false, "", "", nullptr, write_ast},
    {"tir", EmitKind::Tir, Stage::BuildIr, ".tir ", false, "tile IR", "", nullptr, write_tir},
    {"tir-opt", EmitKind::TirOpt, Stage::Optimize, ".tir ", true, "tile IR", "", nullptr, write_tir},
    {"tir-lowered", EmitKind::TirLowered, Stage::Lower, ".tir ", false, "tile IR", "", nullptr, write_tir_lowered},
    {"ptx", EmitKind::Ptx, Stage::Ptx, ".ptx ", true, "PTX", ".ptx", "a PTX file", write_ptx},
    {"cubin", EmitKind::Cubin, Stage::Assemble, ".cubin ", true, "a cubin", ".cubin", "a cubin", write_cubin},
    {"fatbin", EmitKind::Fatbin, Stage::Assemble, ".fatbin ", true, "a fatbin", ".fatbin", "a fatbin", write_fatbin},
    {"header", EmitKind::Header, Stage::Header, ".h .hpp .hh .cuh ", true, "a header", ".h", "a header",
     write_header},
    // One build per combination of --dispatch values (driver/torch.h), each a header's.
    {"torch", EmitKind::Torch, Stage::Header, "", false, "", "_ops.cpp", "a header", nullptr},
    {"none", EmitKind::None, Stage::BuildIr, "", false, "", "", nullptr, nullptr},
};

// output_kind indexes the table by EmitKind.
constexpr bool in_emit_kind_order() {
  for (size_t i = 0; i < std::size(kOutputKinds); ++i)
    if (size_t(kOutputKinds[i].kind) != i) return false;
  return std::size(kOutputKinds) == size_t(EmitKind::None) + 1;
}
static_assert(in_emit_kind_order(), "kOutputKinds lists every EmitKind once, in the enum's order");

}  // namespace

const OutputKind& output_kind(EmitKind kind) { return kOutputKinds[size_t(kind)]; }

bool lists_extension(const OutputKind& k, const std::string& ext) {
  return (std::string(" ") + k.extensions).find(" " + ext + " ") != std::string::npos;
}

const OutputKind* output_kind_of_extension(const std::string& ext) {
  for (const OutputKind& k : kOutputKinds)
    if (k.chosen_by_extension && lists_extension(k, ext)) return &k;
  return nullptr;
}

const OutputKind* output_kind_named_by(const std::string& path) {
  for (const OutputKind& k : kOutputKinds) {
    if (!k.chosen_by_extension) continue;
    std::string list = k.extensions;
    for (size_t at = 0, space; (space = list.find(' ', at)) != std::string::npos; at = space + 1) {
      std::string ext = list.substr(at, space - at);
      if (path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0) return &k;
    }
  }
  return nullptr;
}

bool parse_emit_kind(const std::string& name, EmitKind& out) {
  for (const OutputKind& k : kOutputKinds)
    if (name == k.name) {
      out = k.kind;
      return true;
    }
  return false;
}

const char* emit_kind_name(EmitKind k) { return output_kind(k).name; }

}  // namespace tilec
