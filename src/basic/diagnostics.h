// The diagnostic engine: user errors are recorded (never thrown) and printed in clang's format.
#pragma once

#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "basic/source.h"
#include "basic/warnings.h"

namespace tilec {

enum class Severity { Error, Warning, Note };

/// One diagnostic with its attached notes ("'K' first declared here").
struct Diagnostic {
  Severity severity = Severity::Error;
  SourceRange range;
  std::string message;
  std::vector<Diagnostic> notes;
  size_t context_notes = 0;  ///< the last notes come from push_context (printed last)
  /// A named warning's flag, printed after the message: "-Wunused-value", or
  /// "-Werror,-Wunused-value" when -Werror made it an error. Empty for other diagnostics.
  std::string flag = {};
};

/// Thrown (and caught in the driver) only for broken compiler invariants, never for user
/// errors. The message starts with "internal compiler error".
struct InternalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Checks an internal invariant; on failure throws InternalError naming the file and line.
#define TILEC_ASSERT(cond, msg)                                                           \
  do {                                                                                    \
    if (!(cond))                                                                          \
      throw ::tilec::InternalError(std::string("internal compiler error: ") + (msg) +     \
                                   " (" __FILE__ ":" + std::to_string(__LINE__) + ")");   \
  } while (0)

/// Collects diagnostics for one compilation. Errors past `max_errors` are dropped and one
/// "too many errors" line is printed instead; the warning settings (-Wno-name, -Werror=name)
/// drop warnings or turn them into errors. A diagnostic identical to an earlier one (same
/// place, same text: a helper inlined twice) is dropped.
class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(const SourceManager& sm) : sm_(sm) {}

  /// Records an error; returns it so that notes can be attached with `note()`.
  Diagnostic& error(const SourceRange& r, std::string msg);
  /// Records warning `w` ("message [-Wname]"); a warning turned off returns a diagnostic that
  /// is never printed (notes attached to it go nowhere).
  Diagnostic& warning(Warning w, const SourceRange& r, std::string msg);
  /// Attaches a note to the most recent diagnostic `d`.
  static void note(Diagnostic& d, const SourceRange& r, std::string msg);

  /// While a context is pushed, every error and warning gets a note at `r` ("in this call of
  /// 'f'"), innermost first: the checker pushes one per inlined helper call.
  void push_context(const SourceRange& r, std::string note) { contexts_.push_back({Severity::Note, r, std::move(note), {}}); }
  void pop_context() { contexts_.pop_back(); }

  bool has_errors() const { return error_count_ > 0; }
  int error_count() const { return error_count_; }
  /// True once `max_errors` errors were recorded: stages should stop early.
  bool too_many() const { return max_errors_ > 0 && error_count_ >= max_errors_; }

  void set_max_errors(int n) { max_errors_ = n; }
  void set_warnings(const WarningSettings& w) { warnings_ = w; }
  void set_color(bool on) { color_ = on; }

  /// Prints every diagnostic not printed yet to `out`, in line order within each file (files in
  /// the order of their first diagnostic, diagnostics without a place last), and the
  /// "too many errors" notice once the limit was reached.
  void flush(FILE* out);
  /// Formats one diagnostic (with its notes) as text.
  std::string format(const Diagnostic& d) const;

  /// Compares the recorded diagnostics with the `# expected-error {{...}}` comments of every
  /// loaded file. Prints mismatches to `out`; returns true when both sets agree. Forms:
  /// `expected-error {{text}}` (this line), `@+N`, `@-N`, `@N` (another line), `:COL` after the
  /// line pins the column, `@*` matches a diagnostic anywhere (in a `-D` value, or with no
  /// location); the text is a substring of the message, or of the message followed by a named
  /// warning's " [-Wname]". Also expected-warning, expected-note.
  bool verify(FILE* out) const;

  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  /// The files the diagnostics point into.
  const SourceManager& sources() const { return sm_; }

 private:
  Diagnostic& add(Severity s, const SourceRange& r, std::string msg);
  std::string limit_message() const;
  void format_one(std::string& out, const Diagnostic& d) const;

  const SourceManager& sm_;
  std::vector<Diagnostic> diags_;
  std::vector<Diagnostic> contexts_;
  Diagnostic dropped_;  // sink for diagnostics past the error limit and duplicates
  std::set<std::tuple<int, uint32_t, uint32_t, uint32_t, std::string>> seen_;
  size_t printed_ = 0;
  int error_count_ = 0;
  int max_errors_ = 20;
  WarningSettings warnings_;
  bool color_ = false;
  bool limit_reported_ = false;
};

}  // namespace tilec
