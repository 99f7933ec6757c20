// ptxas's messages and resource reports as diagnostics at the user's kernels (ptxas_report.h).
#include "codegen/backend/ptxas_report.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include <spdlog/spdlog.h>

#include "codegen/lowering/abi.h"
#include "codegen/lowering/path_table.h"

namespace tilec::codegen {
namespace {

// The signature of the kernel that a PTX entry name belongs to, or null.
const ir::Signature* entry_kernel(const std::vector<std::unique_ptr<ir::Function>>& kernels, const std::string& entry) {
  for (const auto& f : kernels)
    if (entry_path(f->sig.name, entry)) return &f->sig;
  return nullptr;
}

// The function of the kernel that a PTX entry name belongs to, or null.
ir::Function* entry_function(const std::vector<std::unique_ptr<ir::Function>>& kernels, const std::string& entry) {
  for (const auto& f : kernels)
    if (&f->sig == entry_kernel(kernels, entry)) return f.get();
  return nullptr;
}

// The kernel's largest tile in bytes (the first of equals, among the results of ops with a
// source range), or null, and its op.
const ir::Value* largest_tile(ir::Function& f, const ir::Op*& at) {
  const ir::Value* best = nullptr;
  int64_t most = 0;
  ir::walk(f.body, [&](ir::Op& op) {
    if (!op.loc.valid()) return;
    for (const ir::Value* v : op.results) {
      if (v->type.array || v->type.tile.is_scalar()) continue;
      int64_t bytes = v->type.tile.numel() * dtype_bytes(v->type.tile.dtype);
      if (bytes > most) {
        most = bytes;
        best = v;
        at = &op;
      }
    }
  });
  return best;
}

// A configuration's kernel (ir::Signature::config) is named in a note at its config(...) call:
// the diagnostic's own text names the internal kernel `<k>_config<i>`.
void note_configuration(Diagnostic& d, const ir::Signature* k) {
  if (k && !k->config.text.empty()) DiagnosticEngine::note(d, k->config.range, k->config.text);
}

}  // namespace

void report_ptxas_message(DiagnosticEngine& diag, const std::vector<std::unique_ptr<ir::Function>>& kernels,
                          bool error, const std::string& message) {
  static const std::regex entry_re(R"(function '([^']+)')");
  static const std::regex prefix_re(R"(^ptxas[^:]*:\s*)");
  std::vector<std::string> lines;
  for (size_t pos = 0; pos <= message.size();) {
    size_t nl = std::min(message.find('\n', pos), message.size());
    std::string line = message.substr(pos, nl - pos);
    bool info = line.rfind("ptxas info", 0) == 0 || line.rfind("    ", 0) == 0;  // and its indented lines
    if (!line.empty() && !info) lines.push_back(line);
    pos = nl + 1;
  }
  if (lines.empty()) lines.push_back(message);
  size_t main = 0;
  SourceRange at;
  std::string text = lines[0];
  const ir::Signature* kernel = nullptr;
  for (size_t i = 0; i < lines.size() && !at.valid(); ++i) {
    std::smatch m;
    if (!std::regex_search(lines[i], m, entry_re)) continue;
    if (const ir::Signature* k = entry_kernel(kernels, m[1])) {
      kernel = k;
      at = k->range;
      main = i;
      text = "kernel '" + k->name + "': ptxas: " + std::regex_replace(lines[i], prefix_re, "");
    }
  }
  Warning w = text.find("spilled") != std::string::npos ? Warning::Spills : Warning::Ptxas;
  Diagnostic& d = error ? diag.error(at, text) : diag.warning(w, at, text);
  for (size_t i = 0; i < lines.size(); ++i)
    if (i != main) DiagnosticEngine::note(d, SourceRange{}, lines[i]);
  note_configuration(d, kernel);
}

void report_ptxas_results(DiagnosticEngine& diag, const std::vector<std::unique_ptr<ir::Function>>& kernels,
                          const std::vector<const Cubin*>& cubins, const std::vector<int>& warps) {
  for (const Cubin* c : cubins) {
    for (const std::string& w : c->warnings) report_ptxas_message(diag, kernels, false, w);
    for (const EntryResources& r : c->resources) {
      spdlog::trace("{}", describe_resources(r));
      if (!r.spills()) continue;
      std::string text = describe_resources(r);
      // Say which variant spills: the general one runs only for unaligned arrays.
      const ir::Signature* k = entry_kernel(kernels, r.entry);
      for (const EntryResources& other : c->resources)
        if (k && r.entry == general_entry(k->name) && other.entry == vectorized_entry(k->name))
          text += " (the general variant, which runs when an array is not 16-byte aligned or not "
                  "whole vectors; " + other.entry + (other.spills() ? " spills too)" : " does not spill)");
      // What the user can change: the registers a thread needs grow with the tile elements it
      // holds, which more warps per CTA (the portable path) or smaller tiles divide.
      ir::Function* f = entry_function(kernels, r.entry);
      size_t ki = 0;
      while (f && kernels[ki].get() != f) ++ki;
      int w = f && ki < warps.size() ? warps[ki] : 0;
      bool warps_per_target = k && std::any_of(k->options.by_target.begin(), k->options.by_target.end(),
                                               [](const TargetValue& v) { return v.option == "num_warps"; });
      const CodePathInfo* path = k ? entry_path(k->name, r.entry) : nullptr;
      int given = k && !warps_per_target ? k->options.num_warps : 0;
      if (path && *path->register_advice) {
        text += std::string("; fewer registers per thread: ") + path->register_advice;
      } else if (k && (given ? given : w) >= 32) {
        // Already the most warps a CTA may have: only smaller tiles are left.
        text += "; fewer registers per thread: smaller tiles (32 warps, the most a CTA has, already run it)";
      } else if (k && k->options.num_warps && !warps_per_target) {
        text += fmt::format("; fewer registers per thread: more warps (num_warps={} instead of {}) or smaller tiles",
                            std::min(2 * k->options.num_warps, 32), k->options.num_warps);
      } else if (k && w && warps_per_target) {
        // Given per target: w is the value this entry was built with (the plan's target's).
        text += fmt::format("; fewer registers per thread: more warps (num_warps={} instead of {} in its by_target) "
                            "or smaller tiles",
                            std::min(2 * w, 32), w);
      } else if (k && w) {
        text += fmt::format("; fewer registers per thread: more warps (num_warps={}; the compiler chose {}) or "
                            "smaller tiles", std::min(2 * w, 32), w);
      } else if (k) {
        text += "; fewer registers per thread: more warps (num_warps=) or smaller tiles";
      }
      Diagnostic& d = diag.warning(Warning::Spills, k ? k->range : SourceRange{}, text);
      note_configuration(d, k);
      // Where the tile to make smaller is: the kernel's largest.
      const ir::Op* at = nullptr;
      if (const ir::Value* big = f ? largest_tile(*f, at) : nullptr) {
        const TileType& t = big->type.tile;
        std::string per_thread =
            w && path && !path->specific
                ? fmt::format(": {} elements per thread with {} warp{}", t.numel() / (32 * w), w, w == 1 ? "" : "s")
                : std::string();
        DiagnosticEngine::note(d, at->loc, "the kernel's largest tile, " + t.str() + per_thread);
      }
    }
  }
}

}  // namespace tilec::codegen
