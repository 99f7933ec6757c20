// Helpers for front-end unit tests: compile a snippet and collect its diagnostics as text.
#pragma once

#include <memory>
#include <string>

#include "frontend/check.h"
#include "basic/diagnostics.h"
#include "frontend/parse.h"

namespace tilec::test {

/// Everything one checked snippet leaves behind.
struct Compiled {
  SourceManager sm;
  std::unique_ptr<DiagnosticEngine> diag;
  Program program;
  std::string messages;  ///< every diagnostic, formatted as tilec prints it (no colour)
};

/// Parses and checks `text` as file "t.tile".
inline std::unique_ptr<Compiled> check(const std::string& text, std::vector<std::string> defines = {}) {
  auto c = std::make_unique<Compiled>();
  c->diag = std::make_unique<DiagnosticEngine>(c->sm);
  c->diag->set_max_errors(0);
  uint32_t id = c->sm.add("t.tile", text);
  auto m = std::make_unique<Module>();
  parse_file(c->sm, id, *c->diag, *m);
  if (!c->diag->has_errors()) {
    CheckOptions opts{defines, {}};
    check_program(c->sm, *c->diag, opts, std::move(m), c->program);
  }
  for (const Diagnostic& d : c->diag->diagnostics()) c->messages += c->diag->format(d);
  return c;
}

/// The first line of the first diagnostic ("t.tile:3:5: error: ..."), or "" when clean.
inline std::string first_error(const Compiled& c) {
  return c.messages.substr(0, c.messages.find('\n'));
}

}  // namespace tilec::test
