// The output kinds (--emit=), one table: each kind's name, the file extensions that name it, the
// last stage it needs and the writer that turns a compilation into its bytes.
#pragma once

#include <string>

#include "driver/options.h"

namespace tilec {

struct Compilation;

/// The stages of a compilation, in order (driver/pipeline.cpp runs them).
enum class Stage {
  Tokens,    ///< read the input and lex it
  Parse,     ///< the parse tree
  Check,     ///< the checked program and its imports
  BuildIr,   ///< tile IR, one function per kernel
  Optimize,  ///< the optimizer's passes
  Lower,     ///< codegen::compile_module, stopped after lowering
  Ptx,       ///< codegen::compile_module: lowering, PTX and the kernels' KernelAbi
  Assemble,  ///< ptxas and fatbinary (codegen::assemble_module)
  Header,    ///< the header text
};

/// One output kind.
struct OutputKind {
  const char* name;  ///< the --emit= value
  EmitKind kind;
  Stage last;        ///< the last stage it needs
  /// The file extensions of this kind's output, each with its dot and a space after it
  /// (".h .hpp "); -Woutput-extension stays quiet when -o has one of them.
  const char* extensions;
  bool chosen_by_extension;  ///< an -o with one of `extensions` and no --emit writes this kind
  const char* noun;          ///< what a file with one of `extensions` holds ("a cubin"), for messages
  /// The default output's suffix after the input's stem (".h"); "" writes standard output.
  const char* default_suffix;
  /// The output made of kernels, as "no @kernel in this file: ... needs at least one" names it;
  /// null when the output needs no kernel.
  const char* kernel_output;
  /// The output's bytes from a compilation that ran up to `last`; null: none written
  /// (--emit=none) or written by its own driver (--emit=torch, driver/torch.h).
  std::string (*write)(const Compilation&);
};

/// The row of `kind`.
const OutputKind& output_kind(EmitKind kind);

/// Whether `ext` (".h") is one of `k.extensions`.
bool lists_extension(const OutputKind& k, const std::string& ext);

/// The row that an -o name ending in `ext` (".ptx") chooses when --emit is not given, or null.
const OutputKind* output_kind_of_extension(const std::string& ext);

/// The row that an -o `path` ending in one of its extensions chooses when --emit is not given
/// (`k.ptx`: PTX), or null (a header is written then).
const OutputKind* output_kind_named_by(const std::string& path);

/// Maps an `--emit=` name; false when unknown.
bool parse_emit_kind(const std::string& name, EmitKind& out);
const char* emit_kind_name(EmitKind k);

}  // namespace tilec
