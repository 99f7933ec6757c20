// The IR builder's class, shared by its files (private to src/ir/build*.cpp; the public entry is
// build.h). As the checker's files do for the AST (frontend/checker.h): build.cpp holds the
// kernel and its signature, build_stmt.cpp statements and control flow, build_expr.cpp
// expressions and helper inlining, build_builtins.cpp the built-in dispatch and the small
// families, build_memory.cpp and build_reduce.cpp the larger ones.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "frontend/builtins.h"
#include "ir/build.h"
#include "ir/build_env.h"

namespace tilec::ir {

class IrBuilder {
 public:
  IrBuilder(const KernelInfo& k, DiagnosticEngine& diag, Function& f, bool device_asserts)
      : k_(k), diag_(diag), f_(f), b_(f, &f.body), env_(size_t(k.num_vars) + 1), device_asserts_(device_asserts) {}

  void build();

 private:
  /// The inlining of a helper with an early return (language.md §6.7): a "returned" flag and
  /// the result live in two extra env_ slots, which ifs merge and loops carry like variables.
  /// A return sets them (and leaves the helper's innermost loop with break); the statements
  /// after one that may have returned run under `if not returned`.
  struct HelperReturn {
    size_t flag = 0, result = 0;          ///< env_ slots
    Value* no = nullptr;                  ///< constant False and True, defined before the body
    Value* yes = nullptr;
    size_t loops = 0;                     ///< loops_.size() at the call: deeper loops are the helper's
    const tilec::Value* type = nullptr;   ///< the call's checked result
  };
  /// An enclosing loop: its checked carried variables, then (helper) the flag and the result
  /// of the helper being inlined.
  struct LoopFrame {
    const std::vector<int>* vars;
    bool helper;
  };

  // statements
  void block(const StmtList& body, size_t from = 0);
  void stmt(const Stmt& s);
  void assign(const Expr& target, const BVal& v);
  void build_if(const Stmt& s);
  /// An `if` op on `cond` whose branches `branch[0]` and `branch[1]` build; its results are
  /// the `carried` variables (null: every variable a branch changed), then the helper's flag
  /// and result when a branch changed them.
  void emit_if(Value* cond, SourceRange r, const std::vector<int>* carried, const std::function<void()> (&branch)[2]);
  void build_for(const Stmt& s);
  void build_while(const Stmt& s);
  /// The statements of loop `s` into `body`, the block of loop op `op` (env_ names its
  /// arguments), ending in a yield of the carried values; then, back at the end of `outer`,
  /// env_ rolled back to `before` (opened before the loop) with the carried variables bound
  /// to the loop's results.
  void loop_body(const Stmt& s, const LoopFrame& loop, Op* op, Block* outer, Block* body, BuildEnv::Mark before);
  /// break, continue or return: ends the current block.
  void leave(OpKind k, SourceRange r);
  /// The values a loop carries, as they are now; empty after an error.
  std::vector<Value*> loop_values(const LoopFrame& l, SourceRange r);
  /// Points env_ at the values a loop carries (block arguments or results).
  void bind_loop_values(const LoopFrame& l, const std::vector<Value*>& v, bool body);
  // helper early return
  void helper_return(const Stmt& s);
  /// The statements body[from...] under `if not returned`.
  void rest_unless_returned(const StmtList& body, size_t from);
  /// `v` in the checked type `t`: dtype and shape of tiles, the array an array value names.
  BVal conform(const BVal& v, const tilec::Value& t, SourceRange r);
  /// The tile leaves of `v` (of checked type `t`); zero placeholders where `v` has none.
  void flatten(const BVal& v, const tilec::Value& t, std::vector<Value*>& out, SourceRange r);
  BVal unflatten(const tilec::Value& t, std::vector<Value*>::const_iterator& it);
  Value* placeholder(const Type& t, SourceRange r);

  // expressions
  BVal expr(const Expr& e);
  /// `e` as a value of dtype `d` broadcast to `shape`.
  Value* expr_as(const Expr& e, DType d, const std::vector<int64_t>& shape);
  /// `e` converted to dtype `d`, keeping its own shape.
  Value* expr_dtype(const Expr& e, DType d);
  Value* to_bool(Value* v, SourceRange loc);
  Value* binary(tilec::Op op, const Expr& a, const Expr& b, DType operand, const std::vector<int64_t>& shape, SourceRange loc);
  /// mma(x, y, c) on 2-D tiles (lowering pads tiles smaller than one instruction).
  Value* mma(Value* x, Value* y, Value* c, SourceRange loc);
  BVal call(const Expr& e);
  BVal inline_helper(const Expr& e);
  BVal inline_body(const Expr& e);
  /// Result dim i = operand dim order[i]; nothing for the identity.
  Value* permute(Value* v, const std::vector<int64_t>& order, SourceRange loc);

  // built-in functions (build_builtins.cpp, build_memory.cpp, build_reduce.cpp): one member per
  // family of check_builtins.cpp; `a` holds the call's arguments by parameter slot (null: not
  // given), `e` is the call with its checked result type.
  using Args = std::vector<const Expr*>;
  BVal builtin(Builtin id, const Expr& e, const Args& a);
  /// bid, num_blocks, num_tiles, cdiv, num_sms, swizzle2d.
  BVal builtin_grid(Builtin id, const Expr& e, const Args& a);
  /// load and store (tile-index memory, §6.2), with order= and padding=.
  BVal builtin_memory(Builtin id, const Expr& e, const Args& a);
  /// The values of load/store's index=, offset= or bound= (a tuple written out, a tuple value,
  /// or one scalar), in the order written; a null entry where one failed to build.
  std::vector<Value*> memory_coords(const Expr& where);
  /// gather, scatter and the atomics (§6.3): indices, values and mask broadcast to one shape.
  BVal builtin_element_memory(Builtin id, const Expr& e, const Args& a);
  /// arange, full, zeros, ones.
  BVal builtin_make(Builtin id, const Expr& e, const Args& a);
  /// reshape, permute, transpose, expand_dims, broadcast_to, cat, extract.
  BVal builtin_shape(Builtin id, const Expr& e, const Args& a);
  /// astype, bitcast.
  BVal builtin_convert(Builtin id, const Expr& e, const Args& a);
  /// where, minimum, maximum, fma, pow and the one-operand math functions.
  BVal builtin_elementwise(Builtin id, const Expr& e, const Args& a);
  /// sum, prod, max, min (two operands: elementwise), argmax, argmin, cumsum, cumprod.
  BVal builtin_reduce(Builtin id, const Expr& e, const Args& a);
  /// sum/prod/max/min/argmax/argmin of `t` over `axis` (None: all), with keepdims (§6.5, §6.6).
  Value* reduction(Builtin id, const Expr& e, const Expr* t, const Expr* axis, const Expr* keepdims);
  /// histogram(t, nbins, mask=) (§7.8).
  BVal builtin_histogram(const Expr& e, const Args& a);
  /// mma(a, b, acc) (§6.10), a batch of one included.
  BVal builtin_mma(const Expr& e, const Args& a);
  /// print, static_assert.
  BVal builtin_debug(Builtin id, const Expr& e, const Args& a);
  BVal attribute(const Expr& e);
  BVal subscript(const Expr& e);

  /// Fills f_.sig from the checked kernel.
  void signature();
  GridExpr grid_expr(const Expr& e);

  bool unsupported(SourceRange r, const std::string& what) {
    diag_.error(r, what + " is not yet supported by the code generator");
    failed_ = true;
    return false;
  }

  const KernelInfo& k_;
  DiagnosticEngine& diag_;
  Function& f_;
  Builder b_;
  BuildEnv env_;                   ///< by variable id
  std::map<const tilec::ArrayParam*, Value*> arrays_;
  std::map<std::string, Value*> dims_;
  std::vector<BVal>* returns_ = nullptr;  ///< the helper being inlined collects its return here
  HelperReturn* ret_ = nullptr;           ///< the helper being inlined has an early return
  bool failed_ = false;
  bool device_asserts_ = true;
  bool terminated_ = false;                  ///< the current block ended in break/continue/return
  std::vector<LoopFrame> loops_;              ///< the enclosing loops
};

/// Whether the statements may execute a `return` (a constant `if` counts only with its branch
/// taken).
bool may_return(const StmtList& body);
/// Whether a helper body has a return other than its last statement (an early return).
bool has_early_return(const StmtList& body);

}  // namespace tilec::ir
