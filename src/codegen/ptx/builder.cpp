// PTX text assembly.
#include "codegen/ptx/builder.h"

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

constexpr const char* kPrefix[] = {"%p", "%h", "%r", "%rd"};
constexpr const char* kType[] = {".pred", ".b16", ".b32", ".b64"};

// `opcode operands;` and the newline, after the tab or predicate already written. One append
// per piece: instructions are most of the module's text, written once each.
template <class Operands>
void append_instruction(std::string& text, const std::string& opcode, const Operands& operands) {
  text += opcode;
  bool first = true;
  for (const auto& o : operands) {
    text += first ? " " : ", ";
    text += o;
    first = false;
  }
  text += ";\n";
}

// The tab and guard before a predicated instruction: "\t@pred ".
void append_guard(std::string& text, const std::string& pred) {
  text += "\t@";
  text += pred;
  text += ' ';
}

}  // namespace

RegClass reg_class_for_bits(int bits) {
  if (bits == 1) return RegClass::Pred;
  if (bits <= 16) return RegClass::B16;
  if (bits <= 32) return RegClass::B32;
  return RegClass::B64;
}

std::string PtxBuilder::reg(RegClass c) {
  return kPrefix[int(c)] + std::to_string(counts_[int(c)]++);
}

std::string PtxBuilder::label_name(const char* hint) {
  return fmt::format("$L_{}_{}", hint, labels_++);
}

void PtxBuilder::ins(const std::string& opcode, const std::vector<std::string>& operands) {
  text_ += '\t';
  append_instruction(text_, opcode, operands);
}

void PtxBuilder::ins(const std::string& opcode, std::initializer_list<std::string_view> operands) {
  text_ += '\t';
  append_instruction(text_, opcode, operands);
}

void PtxBuilder::ins_if(const std::string& pred, const std::string& opcode, const std::vector<std::string>& operands) {
  if (pred.empty()) return ins(opcode, operands);
  append_guard(text_, pred);
  append_instruction(text_, opcode, operands);
}

void PtxBuilder::ins_if(const std::string& pred, const std::string& opcode,
                        std::initializer_list<std::string_view> operands) {
  if (pred.empty()) return ins(opcode, operands);
  append_guard(text_, pred);
  append_instruction(text_, opcode, operands);
}

void PtxBuilder::label(const std::string& name) { text_ += name + ":\n"; }

void PtxBuilder::loc(const SourceRange& r) {
  if (!lineinfo_ || !r.valid()) return;
  if (r.begin.line == last_line_ && r.file == last_file_) return;
  last_line_ = r.begin.line;
  last_file_ = r.file;
  text_ += fmt::format("\t.loc {} {} {}\n", r.file, r.begin.line, r.begin.col);
}

void PtxBuilder::comment(const std::string& text) { text_ += "\t// " + text + "\n"; }

void PtxBuilder::raw(const std::string& line) { text_ += "\t" + line + "\n"; }

void PtxBuilder::append_body(std::string& out) const {
  for (int c = 0; c < 4; ++c)
    if (counts_[c]) out += fmt::format("\t.reg {} {}<{}>;\n", kType[c], kPrefix[c], counts_[c]);
  out += text_;
}

}  // namespace tilec::codegen
