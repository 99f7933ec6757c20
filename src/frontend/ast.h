// The abstract syntax tree. One Expr struct and one Stmt struct, each tagged by a kind (as in
// chibicc's Node): the fields each kind uses are listed beside the kind. Every node carries a
// source range; the checker fills `Expr::value` and `Expr::var`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "basic/operators.h"
#include "basic/source.h"
#include "frontend/types.h"

namespace tilec {

struct Expr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

enum class ExprKind : uint8_t {
  Name,       // name
  Int,        // text, int_value, overflow
  Float,      // text, float_value
  Bool,       // int_value (0/1)
  None,       //
  String,     // text (decoded)
  Tuple,      // args: the elements
  List,       // args: the elements ([a, b]: only the value of configs=)
  Unary,      // op (Neg, Pos, Invert), args[0]
  Not,        // args[0]
  Binary,     // op, args[0], args[1]
  BoolOp,     // op (And, Or), args[0], args[1]
  Compare,    // args: n+1 operands, cmp_ops: n operators (a < b <= c)
  IfExp,      // args: cond, then, else
  Call,       // args[0]: callee, args[1..]: positional arguments; kwargs
  Attribute,  // args[0]: base, name: the attribute
  Subscript,  // args[0]: base, args[1..]: indices (a Slice, None or an expression)
  Slice,      // args: lo, hi, step (each may be null); `:` alone has all three null
};

/// `name=value` in a call.
struct Keyword {
  std::string name;
  SourceRange name_range;
  ExprPtr value;
};

struct Expr {
  ExprKind kind;
  SourceRange range;
  Op op = Op::Add;
  std::string name;              ///< Name, Attribute
  std::string text;              ///< literal spelling (Int, Float) or decoded String
  uint64_t int_value = 0;        ///< Int, Bool
  bool overflow = false;         ///< Int literal does not fit in 64 bits
  double float_value = 0;        ///< Float
  std::vector<ExprPtr> args;     ///< children, see ExprKind
  std::vector<Op> cmp_ops;       ///< Compare
  std::vector<Keyword> kwargs;   ///< Call
  uint16_t depth = 1;            ///< parser: 1 + the deepest child (bounded by kMaxExprDepth)
  /// Parser: this node stands for an expression dropped after an error that was reported (one
  /// nested too deeply); the checker gives it an error value without a message of its own.
  bool poisoned = false;

  // Filled by the checker.
  Value value;                   ///< what the expression denotes
  std::vector<DType> cmp_dtypes; ///< Compare: the dtype each comparison converts its operands to
  int var = -1;                  ///< Name: the variable id inside its kernel (-1: not a local)
  std::shared_ptr<Stmt> inlined; ///< Call of a helper: the checked copy of its `def`

  Expr(ExprKind k, SourceRange r) : kind(k), range(r) {}
  /// Frees children iteratively: a million-term `a+a+...` must not overflow the stack.
  ~Expr();
};

enum class StmtKind : uint8_t {
  Expr,      // value
  Assign,    // target (Name or Tuple of Names), value
  AugAssign, // op, target (Name), value
  If,        // value: condition, body, orelse (an `elif` is an If alone in orelse)
  For,       // target, value: the iterable, body
  While,     // value: condition, body
  Break,
  Continue,
  Pass,
  Return,    // value (may be null)
  Assert,    // value: condition, message (may be null)
  Import,    // name: the module
  Def,       // name, params, decorators, body, target: return annotation (may be null)
};

/// A parameter of a `def`: `name: annotation = default`.
struct Param {
  std::string name;
  SourceRange range;
  ExprPtr annotation;  ///< may be null
  ExprPtr default_value;  ///< may be null
  int var = -1;  ///< checker: the variable id bound to this parameter in an inlined copy
};

struct Stmt {
  StmtKind kind;
  SourceRange range;
  Op op = Op::Add;
  std::string name;
  ExprPtr target;
  ExprPtr value;
  ExprPtr message;
  StmtList body;
  StmtList orelse;
  std::vector<Param> params;
  std::vector<ExprPtr> decorators;

  // Filled by the checker.
  std::vector<int> carried;  ///< For/While/If: variable ids assigned inside and live outside

  Stmt(StmtKind k, SourceRange r) : kind(k), range(r) {}
};

/// One parsed `.tile` file.
struct Module {
  uint32_t file = 0;
  std::string name;  ///< file name without folder and `.tile`
  StmtList body;
  bool broken = false;  ///< had lexer or syntax errors: `body` lacks the statements they dropped
};

ExprPtr make_expr(ExprKind k, SourceRange r);
StmtPtr make_stmt(StmtKind k, SourceRange r);
/// Deep copy of the syntax (checker annotations are not copied).
ExprPtr clone(const Expr& e);
StmtPtr clone(const Stmt& s);

/// Prints the tree, one node per line, indented by depth; with `typed`, each checked
/// expression is followed by ` : <type>`. Output is stable (no pointers).
std::string print_ast(const Module& m, const SourceManager& sm, bool typed);

}  // namespace tilec
