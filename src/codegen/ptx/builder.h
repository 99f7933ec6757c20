// The PTX builder: every line of PTX tilec writes goes through it. It hands out virtual
// registers by class, formats instructions from an opcode and operands, and assembles the
// module text (version, target, entries with their register declarations).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "basic/source.h"

namespace tilec::codegen {

/// PTX register classes (PTX ISA §5.2: bit-size types are usable by every same-size typed
/// instruction, so three sizes plus predicates cover every dtype).
enum class RegClass { Pred, B16, B32, B64 };

/// Builds the body of one `.entry`.
class PtxBuilder {
 public:
  /// A fresh virtual register of class `c` ("%r12").
  std::string reg(RegClass c);
  /// A fresh label name with a readable hint ("$L_loop_3").
  std::string label_name(const char* hint);

  /// Emits `opcode a, b, c;` (operands joined with ", "). The list holds views, so that the
  /// operands (register names, mostly) are appended where they are, not copied first.
  void ins(const std::string& opcode, std::initializer_list<std::string_view> operands);
  void ins(const std::string& opcode, const std::vector<std::string>& operands);
  /// Emits `@pred opcode operands;` (a predicated instruction; `pred` may start with '!'); an
  /// empty `pred` means "always": the plain instruction.
  void ins_if(const std::string& pred, const std::string& opcode, std::initializer_list<std::string_view> operands);
  void ins_if(const std::string& pred, const std::string& opcode, const std::vector<std::string>& operands);
  void label(const std::string& name);
  /// A `.loc` line for the source range (only when line info is on).
  void loc(const SourceRange& r);
  void comment(const std::string& text);
  /// A line as written (scope braces and .param declarations around a call).
  void raw(const std::string& line);

  void set_lineinfo(bool on) { lineinfo_ = on; }

  /// Appends the entry's register declarations followed by its body to `out` (the body is
  /// most of the module: appended where it goes, not copied through a temporary).
  void append_body(std::string& out) const;
  /// The size in bytes of what append_body appends, at most (for reserving).
  size_t body_size() const { return text_.size() + 4 * 32; }

 private:
  std::string text_;
  int counts_[4] = {0, 0, 0, 0};
  int labels_ = 0;
  bool lineinfo_ = false;
  uint32_t last_line_ = 0, last_file_ = 0;
};

/// A register's class for a dtype's storage size in bits (1 = predicate).
RegClass reg_class_for_bits(int bits);

}  // namespace tilec::codegen
