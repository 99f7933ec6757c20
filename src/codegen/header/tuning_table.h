// A kernel's tuning table (docs/tuning.md "The tuning table"): its text form parsed into a
// TuningTable with a source range on every part, written back deterministically, and checked
// against the kernel it is embedded for. tilec-tune (tools/tune/) writes the same text.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "basic/diagnostics.h"

namespace tilec {

/// The version the `tilec-tuning N` line names; the only one read and written.
inline constexpr int kTuningTableVersion = 1;

/// One measured shape: its extents, one per symbol of the table in the `symbols` order, and
/// the configuration index tilec-tune chose for it.
struct TuningRow {
  std::vector<int64_t> extents;
  int config = 0;
  std::string comment;        ///< text after '#' on the row's line, trimmed (tilec-tune's ratios)
  SourceRange range;          ///< the row's tokens
  SourceRange config_range;   ///< the configuration index
};

/// The rows measured on one GPU model. `cc` is major * 10 + minor (9.0 -> 90).
struct TuningSection {
  std::string gpu;            ///< the name cuDeviceGetName gives ("NVIDIA H100 80GB HBM3")
  int cc = 0;
  int sms = 0;                ///< multiprocessors of the device
  std::vector<TuningRow> rows;
  std::string comment;        ///< text after '#' on the gpu line, trimmed
  SourceRange range;          ///< the `gpu` line's tokens
};

/// A `config N "label"` line: the label of configuration N when the table was made.
struct TuningConfig {
  int index = 0;
  std::string label;
  std::string comment;        ///< text after '#' on the line, trimmed
  SourceRange range;
  SourceRange index_range;
};

/// A whole table. The ranges point into the file it was parsed from (invalid when built in code).
struct TuningTable {
  std::string kernel;                ///< the kernel's name in the source (without --prefix)
  std::string space;                 ///< 16 hex digits: tilec_kernel_metadata::config_space
  std::vector<std::string> symbols;  ///< the kernel's dimension symbols, in metadata order
  std::vector<TuningConfig> configs; ///< in file order
  std::vector<TuningSection> sections;
  SourceRange kernel_range, space_range, symbols_range;
};

/// Parses file `file` of the engine's SourceManager. Every error is reported at its
/// line:column (kinds listed in docs/tuning.md "The tuning table"); returns nullopt when there
/// was any. A valid table has exactly one `tilec-tuning 1`, `kernel`, `space` and `symbols`
/// line, then its `config` lines, all before the first `gpu` line; rows after a `gpu` line,
/// each with one extent per symbol and the index of one of the `config` lines, no two rows of
/// a section with the same extents and no two sections with the same GPU name.
std::optional<TuningTable> parse_tuning_table(uint32_t file, DiagnosticEngine& diag);

/// Reads `path` into `sm` and parses it; a file that cannot be read is an error without a
/// place ("cannot read tuning table 'PATH': REASON").
std::optional<TuningTable> load_tuning_table(const std::string& path, SourceManager& sm, DiagnosticEngine& diag);

/// The text of `t`: the header line, kernel, space, symbols, config lines in index order,
/// then each section (a blank line, its gpu line, its rows in their order). Comments are kept
/// after two blanks; ranges are ignored. Same table, same bytes; parse_tuning_table gives `t`
/// back (but its ranges and the configs' order).
std::string write_tuning_table(const TuningTable& t);

/// Checks that `t` was made for this kernel: its `kernel` is `kernel`, its `space` is
/// `space` (a hash of the signature and the configurations' labels, so a table for another
/// kernel, another build of the signature or an edited configuration list is refused), its
/// symbols are `symbols`, every `config` line names an index below `num_configs`, and every
/// row chooses a configuration for which `valid_config(index)` holds (one this build has: not
/// dropped, not left out by -D). Errors point at the table's lines; returns true when there
/// was none.
bool check_tuning_table(const TuningTable& t, std::string_view kernel, std::string_view space,
                        const std::vector<std::string>& symbols, int num_configs,
                        const std::function<bool(int)>& valid_config, DiagnosticEngine& diag);

/// Reports, at the table's `kernel` line, that the file being compiled has no kernel named as
/// the table says (`kernels`: those it has, listed in the message). For the driver, when it
/// finds no kernel for a --tuning table.
void report_table_kernel_missing(const TuningTable& t, const std::vector<std::string>& kernels,
                                 DiagnosticEngine& diag);

}  // namespace tilec
