// The ring model's view of PTX (ring_model.h): one .entry parsed into instructions with
// resolved operands, and the integer semantics of the scalar instructions that compute slots,
// phases, addresses and loop bounds. Values the model does not compute are unknown.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilec::testing::ptx {

enum class Kind { Reg, Imm, Sym, Special, Mem, Vec, Sink };

struct Operand {
  Kind kind = Kind::Imm;
  int reg = -1;                 ///< Reg; Mem whose base is a register
  uint64_t imm = 0;             ///< Imm; Mem's byte offset
  std::string name;             ///< Sym, Special, Mem whose base is a symbol
  std::vector<Operand> elems;   ///< Vec; Mem's coordinates ([map, {c0, c1}])
};

struct Insn {
  int line = 0;                 ///< line in the module text (1-based)
  std::string text;             ///< the instruction as written
  int pred = -1;                ///< guard register, or -1
  bool pred_neg = false;        ///< @!%p
  std::string opcode;           ///< "mbarrier.try_wait.parity.shared::cta.b64"
  std::vector<std::string> parts;  ///< opcode split at '.'
  std::vector<Operand> ops;
  int target = -1;              ///< bra: index of the target instruction
};

struct Entry {
  std::vector<Insn> code;
  std::vector<std::string> reg_names;          ///< by register index
  std::vector<std::string> params;             ///< .param names in order
  int max_threads = 0;                         ///< .maxntid
};

/// Parses `name` out of the module text; returns false with `error` set when it is missing or
/// malformed.
bool parse_entry(const std::string& module, const std::string& name, Entry& out, std::string& error);

struct Val {
  uint64_t v = 0;
  bool known = false;
};

/// A type suffix: bit width, signedness, and whether it is an integer (or .pred) type.
struct Type {
  int bits = 0;
  bool is_signed = false, is_int = false, is_pred = false;
};
Type type_of(const std::string& part);

/// The last type suffix of the opcode (cvt: `dst` set to the first, the result to the second).
Type last_type(const Insn& in, Type* dst = nullptr);

/// Integer (and predicate) semantics of add, sub, mul, mad, div, rem, min, max, neg, abs, and,
/// or, xor, not, shl, shr, bfe, cvt, cvta, setp, selp, and the boolean ops on predicates: the
/// result for operand values `a` (in operand order, after the destination). Returns false when
/// the opcode is not one of these; the result is unknown when an operand is, or for float types.
bool eval_scalar(const Insn& in, const std::vector<Val>& a, Val& out);

}  // namespace tilec::testing::ptx
