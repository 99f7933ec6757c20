// The lookups of the code paths' table (path_table.h); its rows are paths/paths.cpp's.
#include "codegen/lowering/path_table.h"

#include "basic/diagnostics.h"

namespace tilec::codegen {

const CodePathInfo& code_path(CodePath p) {
  for (const CodePathInfo& info : code_paths())
    if (info.id == p) return info;
  TILEC_ASSERT(false, "a code path without a row in the table");
  return code_paths().front();
}

const char* code_path_name(CodePath p) { return code_path(p).name; }

const CodePathInfo* specific_path(const Target& target) {
  for (const CodePathInfo& info : code_paths())
    if (info.specific && info.on_target(target)) return &info;
  return nullptr;
}

std::string entry_name(const std::string& kernel, const EntryVariant& v) { return kernel + v.suffix; }

const CodePathInfo* entry_path(const std::string& kernel, const std::string& entry) {
  for (const CodePathInfo& info : code_paths())
    for (const EntryVariant& v : info.entries)
      if (entry == entry_name(kernel, v)) return &info;
  return nullptr;
}

}  // namespace tilec::codegen
