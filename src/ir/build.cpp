// Tile IR construction from the checked AST. The checker has already decided every type, so
// this walk only materializes values: constants in the dtype their use needs, explicit
// broadcasts, structured control flow with loop-carried values.
#include "ir/build.h"

#include <algorithm>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "frontend/builtins.h"
#include "basic/consteval.h"

namespace tilec::ir {
namespace {

/// A built value: an IR value, a tuple of built values, or nothing (dtypes, strings, ...).
struct BVal {
  Value* v = nullptr;
  std::vector<BVal> elems;
  bool tuple = false;
};

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
  BVal builtin(Builtin id, const Expr& e, const std::vector<const Expr*>& slots);
  BVal inline_helper(const Expr& e);
  BVal inline_body(const Expr& e);
  /// gather, scatter and the atomics (§6.3): indices, values and mask broadcast to one shape.
  BVal element_memory(Builtin id, const Expr& e, const std::vector<const Expr*>& a);
  /// Result dim i = operand dim order[i]; nothing for the identity.
  Value* permute(Value* v, const std::vector<int64_t>& order, SourceRange loc);
  /// sum/prod/max/min/argmax/argmin over `axis` (None: all), with keepdims (§6.5, §6.6).
  Value* reduction(Builtin id, const Expr& e, const Expr* t, const Expr* axis, const Expr* keepdims, const Expr*);
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
  std::vector<BVal> env_;          ///< by variable id
  std::map<const tilec::ArrayParam*, Value*> arrays_;
  std::map<std::string, Value*> dims_;
  std::vector<BVal>* returns_ = nullptr;  ///< the helper being inlined collects its return here
  HelperReturn* ret_ = nullptr;           ///< the helper being inlined has an early return
  bool failed_ = false;
  bool device_asserts_ = true;
  bool terminated_ = false;                  ///< the current block ended in break/continue/return
  std::vector<LoopFrame> loops_;              ///< the enclosing loops
};

void IrBuilder::build() {
  f_.name = k_.name;
  signature();
  // Arguments in the kernel ABI order: arrays, dimension extents, scalars.
  for (size_t i = 0; i < k_.params.size(); ++i) {
    const KernelParam& p = k_.params[i];
    if (!p.is_array) continue;
    Value* v = b_.block_arg(&f_.body, Type{true, {}, f_.sig.params[i].array});
    v->name = p.name;
    arrays_[p.array] = v;
    env_[size_t(p.var)].v = v;
  }
  for (const tilec::DimSymbol& d : k_.dims) {
    Value* v = b_.block_arg(&f_.body, Type::scalar(DType::I64));
    v->name = d.name;
    dims_[d.name] = v;
    if (d.var >= 0) env_[size_t(d.var)].v = v;
  }
  for (const KernelParam& p : k_.params)
    if (!p.is_array) {
      Value* v = b_.block_arg(&f_.body, Type::scalar(p.dtype));
      v->name = p.name;
      env_[size_t(p.var)].v = v;
    }
  block(k_.def->body);
}

void IrBuilder::signature() {
  Signature& s = f_.sig;
  s.name = k_.name;
  s.doc = k_.doc;
  s.range = k_.def->range;
  for (const KernelParam& p : k_.params) {
    Param ip{p.name, p.range, p.is_array, nullptr, p.dtype};
    if (p.is_array) {
      s.arrays.push_back(std::make_unique<ArrayParam>(ArrayParam{p.array->name, p.array->dtype, p.array->dims, p.array->index}));
      ip.array = s.arrays.back().get();
    }
    s.params.push_back(ip);
  }
  for (const tilec::DimSymbol& d : k_.dims) s.dims.push_back({d.name, d.first});
  for (const Expr* g : k_.grid) s.grid.push_back(grid_expr(*g));
  s.options = {k_.num_warps, k_.num_stages, k_.max_registers, k_.min_ctas_per_sm};
}

GridExpr IrBuilder::grid_expr(const Expr& e) {
  // The checker admits integers, dimension symbols, integer scalar parameters, + - * //,
  // cdiv, min, max, num_tiles and num_sms() in a grid, with constants folded.
  using K = GridExpr::Kind;
  const tilec::Value& v = e.value;
  if (v.is_const()) return GridExpr::constant(v.constant->i);
  auto arg = [&](size_t i) { return grid_expr(*e.args[i]); };
  switch (e.kind) {
    case ExprKind::Name: {
      GridExpr g;
      for (size_t i = 0; i < k_.dims.size(); ++i)
        if (k_.dims[i].var == e.var) return GridExpr{K::Dim, 0, int(i), {}};
      for (size_t i = 0; i < k_.params.size(); ++i)
        if (k_.params[i].var == e.var) return GridExpr{K::Scalar, 0, int(i), {}};
      break;
    }
    case ExprKind::Unary: return GridExpr::op(K::Neg, {arg(0)});
    case ExprKind::Binary: {
      K k = e.op == tilec::Op::Add ? K::Add : e.op == tilec::Op::Sub ? K::Sub : e.op == tilec::Op::Mul ? K::Mul : K::FloorDiv;
      return GridExpr::op(k, {arg(0), arg(1)});
    }
    case ExprKind::Call: {
      auto call_arg = [&](size_t i) { return grid_expr(*e.args[i + 1]); };
      switch (Builtin(e.args[0]->value.builtin)) {
        case Builtin::Cdiv: return GridExpr::op(K::Cdiv, {call_arg(0), call_arg(1)});
        case Builtin::Min: return GridExpr::op(K::Min, {call_arg(0), call_arg(1)});
        case Builtin::Max: return GridExpr::op(K::Max, {call_arg(0), call_arg(1)});
        case Builtin::NumSms: return GridExpr::op(K::NumSms, {});
        case Builtin::NumTiles: {
          // cdiv(extent of the (permuted) axis, tile size)
          const tilec::ArrayParam* arr = e.args[1]->value.array;
          std::vector<const Expr*> a;
          for (size_t i = 1; i < e.args.size(); ++i) a.push_back(e.args[i].get());
          const Expr* axis = a.size() > 1 ? a[1] : nullptr;
          const Expr* shape = a.size() > 2 ? a[2] : nullptr;
          const Expr* order = a.size() > 3 ? a[3] : nullptr;
          for (const Keyword& kw : e.kwargs) {
            if (kw.name == "axis") axis = kw.value.get();
            if (kw.name == "shape") shape = kw.value.get();
            if (kw.name == "order") order = kw.value.get();
          }
          int64_t ax = axis->value.constant->i;
          int rank = int(arr->dims.size());
          if (ax < 0) ax += rank;
          int64_t src = order ? order->value.elems[size_t(ax)].constant->i : ax;
          const tilec::Value& sv = shape->value;
          int64_t t = sv.kind == ValueKind::Tuple ? sv.elems[size_t(ax)].constant->i : sv.constant->i;
          const ArrayDim& d = arr->dims[size_t(src)];
          GridExpr extent = d.symbol.empty() ? GridExpr::constant(d.constant)
                                             : GridExpr{K::Dim, 0, f_.sig.dim_index(d.symbol), {}};
          return GridExpr::op(K::Cdiv, {extent, GridExpr::constant(t)});
        }
        default: break;
      }
      break;
    }
    default: break;
  }
  TILEC_ASSERT(false, "a grid expression the checker should have rejected");
  return GridExpr::constant(0);
}

void IrBuilder::block(const StmtList& body, size_t from) {
  for (size_t i = from; i < body.size(); ++i) {
    if (failed_ || terminated_) return;  // statements after break/continue/return never run
    if (ret_) {
      Value* returned = env_[ret_->flag].v;
      if (returned == ret_->yes) return;  // the helper has returned on this path
      if (returned != ret_->no) return rest_unless_returned(body, i);
    }
    stmt(*body[i]);
  }
}

void IrBuilder::leave(OpKind k, SourceRange r) {
  // break/continue hand the innermost loop its carried values as they are here.
  std::vector<Value*> carried;
  if (k != OpKind::Return) {
    carried = loop_values(loops_.back(), r);
    if (failed_) return;
  }
  b_.create(k, r, carried, {});
  terminated_ = true;
}

std::vector<Value*> IrBuilder::loop_values(const LoopFrame& l, SourceRange r) {
  std::vector<Value*> out;
  for (int var : *l.vars) {
    if (!env_[size_t(var)].v) {
      unsupported(r, "a tuple or array carried by a loop");
      return {};
    }
    out.push_back(env_[size_t(var)].v);
  }
  if (l.helper) {
    out.push_back(env_[ret_->flag].v);
    flatten(env_[ret_->result], *ret_->type, out, r);
  }
  return out;
}

void IrBuilder::bind_loop_values(const LoopFrame& l, const std::vector<Value*>& v, bool body) {
  for (size_t i = 0; i < l.vars->size(); ++i) env_[size_t((*l.vars)[i])].v = v[i];
  if (!l.helper) return;
  // An iteration starts only when the helper has not returned: a return leaves the loop.
  env_[ret_->flag].v = body ? ret_->no : v[l.vars->size()];
  auto it = v.cbegin() + std::ptrdiff_t(l.vars->size() + 1);
  env_[ret_->result] = unflatten(*ret_->type, it);
}

Value* IrBuilder::placeholder(const Type& t, SourceRange r) {
  // A value on a path where it is never read (the helper has returned there).
  return b_.broadcast_to(b_.constant(t.tile.dtype, Scalar{0, 0}, r), t.tile.shape, r);
}

BVal IrBuilder::conform(const BVal& v, const tilec::Value& t, SourceRange r) {
  switch (t.kind) {
    case ValueKind::Tuple: {
      BVal out;
      out.tuple = true;
      for (size_t i = 0; i < t.elems.size(); ++i)
        out.elems.push_back(conform(i < v.elems.size() ? v.elems[i] : BVal{}, t.elems[i], r));
      return out;
    }
    case ValueKind::Array: return BVal{arrays_[t.array], {}, false};
    case ValueKind::Tile: {
      Value* x = v.v;
      if (!x || x->type.is_array) return BVal{};
      if (x->type.tile.dtype != t.tile.dtype) x = b_.cast(x, t.tile.dtype, r);
      return BVal{b_.broadcast_to(x, t.tile.shape, r), {}, false};
    }
    default: return BVal{};  // dtypes, strings, None: not run-time values
  }
}

void IrBuilder::flatten(const BVal& v, const tilec::Value& t, std::vector<Value*>& out, SourceRange r) {
  if (t.kind == ValueKind::Tuple) {
    for (size_t i = 0; i < t.elems.size(); ++i) flatten(i < v.elems.size() ? v.elems[i] : BVal{}, t.elems[i], out, r);
  } else if (t.kind == ValueKind::Tile) {
    out.push_back(v.v ? v.v : placeholder(Type::tile_of(t.tile.dtype, t.tile.shape), r));
  }
}

BVal IrBuilder::unflatten(const tilec::Value& t, std::vector<Value*>::const_iterator& it) {
  if (t.kind == ValueKind::Tuple) {
    BVal out;
    out.tuple = true;
    for (const tilec::Value& el : t.elems) out.elems.push_back(unflatten(el, it));
    return out;
  }
  if (t.kind == ValueKind::Array) return BVal{arrays_[t.array], {}, false};
  if (t.kind == ValueKind::Tile) return BVal{*it++, {}, false};
  return BVal{};
}

void IrBuilder::helper_return(const Stmt& s) {
  BVal v = s.value ? expr(*s.value) : BVal{};
  if (failed_) return;
  env_[ret_->result] = conform(v, *ret_->type, s.range);
  env_[ret_->flag].v = ret_->yes;
  // Inside the helper's own loops, leave them: the flag and result go out with the break.
  if (loops_.size() > ret_->loops) leave(OpKind::Break, s.range);
}

void IrBuilder::rest_unless_returned(const StmtList& body, size_t from) {
  SourceRange r = body[from]->range;
  bool in_loop = loops_.size() > ret_->loops;
  const std::function<void()> branch[2] = {
      [&] {
        env_[ret_->flag].v = ret_->yes;
        if (in_loop) leave(OpKind::Break, r);
      },
      [&] {
        env_[ret_->flag].v = ret_->no;
        block(body, from);
      }};
  emit_if(env_[ret_->flag].v, r, nullptr, branch);
}

void IrBuilder::stmt(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Expr: expr(*s.value); break;
    case StmtKind::Assign: assign(*s.target, expr(*s.value)); break;
    case StmtKind::AugAssign: {
      const tilec::Value& t = s.target->value;  // the checker stored the result type on the target
      Value* v = binary(s.op, *s.target, *s.value, t.tile.dtype, t.tile.shape, s.range);
      if (v) assign(*s.target, BVal{v, {}, false});
      break;
    }
    case StmtKind::If: build_if(s); break;
    case StmtKind::For: build_for(s); break;
    case StmtKind::Pass: break;
    case StmtKind::Return:
      if (ret_) {
        helper_return(s);
        break;
      }
      if (returns_) {
        returns_->push_back(s.value ? expr(*s.value) : BVal{});
        break;
      }
      leave(OpKind::Return, s.range);
      break;
    case StmtKind::While: build_while(s); break;
    case StmtKind::Break: leave(OpKind::Break, s.range); break;
    case StmtKind::Continue: leave(OpKind::Continue, s.range); break;
    case StmtKind::Assert: {
      if (!device_asserts_) break;
      Value* c = to_bool(expr(*s.value).v, s.value->range);
      if (!c) break;
      Op* op = b_.create(OpKind::Assert, s.range, {c}, {});
      op->text = s.message ? s.message->text : "assertion failed";
      break;
    }
    case StmtKind::Import:
    case StmtKind::Def: break;
  }
}

void IrBuilder::assign(const Expr& target, const BVal& v) {
  if (target.kind == ExprKind::Name) {
    if (target.var >= 0) env_[size_t(target.var)] = v;
    return;
  }
  if (target.kind == ExprKind::Tuple)
    for (size_t i = 0; i < target.args.size() && i < v.elems.size(); ++i) assign(*target.args[i], v.elems[i]);
}

// Whether `s` may execute a `return` (a constant `if` counts only with its branch taken).
bool may_return(const StmtList& body);
bool may_return(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Return: return true;
    case StmtKind::If: {
      const tilec::Value& c = s.value->value;
      if (c.is_const()) return may_return(scalar_truth(*c.constant, c.tile.dtype) ? s.body : s.orelse);
      return may_return(s.body) || may_return(s.orelse);
    }
    case StmtKind::For:
    case StmtKind::While: return may_return(s.body);
    default: return false;
  }
}
bool may_return(const StmtList& body) {
  return std::any_of(body.begin(), body.end(), [](const StmtPtr& s) { return may_return(*s); });
}

// Whether a helper body has a return other than its last statement (an early return).
bool has_early_return(const StmtList& body) {
  size_t n = body.size() - (!body.empty() && body.back()->kind == StmtKind::Return ? 1 : 0);
  for (size_t i = 0; i < n; ++i)
    if (may_return(*body[i])) return true;
  return false;
}

// Whether `v` is defined in `b` or a block around it (so an op at the end of `b` may use it).
bool visible(const Value* v, const Block* b) {
  const Block* home = v->def ? v->def->parent : v->owner;
  for (; b; b = b->parent ? b->parent->parent : nullptr)
    if (b == home) return true;
  return false;
}

bool same_bval(const BVal& a, const BVal& b) {
  if (a.v != b.v || a.tuple != b.tuple || a.elems.size() != b.elems.size()) return false;
  for (size_t i = 0; i < a.elems.size(); ++i)
    if (!same_bval(a.elems[i], b.elems[i])) return false;
  return true;
}

// The leaves of `v` laid out like `shape` (null where `v` lacks one).
void leaves(const BVal& shape, const BVal* v, std::vector<Value*>& out) {
  if (!shape.tuple) return out.push_back(v ? v->v : nullptr);
  for (size_t i = 0; i < shape.elems.size(); ++i)
    leaves(shape.elems[i], v && v->tuple && i < v->elems.size() ? &v->elems[i] : nullptr, out);
}

BVal with_leaves(const BVal& shape, std::vector<Value*>::const_iterator& it) {
  if (!shape.tuple) return BVal{*it++, {}, false};
  BVal out;
  out.tuple = true;
  for (const BVal& el : shape.elems) out.elems.push_back(with_leaves(el, it));
  return out;
}

void IrBuilder::build_if(const Stmt& s) {
  const tilec::Value& c = s.value->value;
  if (c.is_const()) {
    block(scalar_truth(*c.constant, c.tile.dtype) ? s.body : s.orelse);
    return;
  }
  Value* cond = to_bool(expr(*s.value).v, s.value->range);
  const std::function<void()> branch[2] = {[&] { block(s.body); }, [&] { block(s.orelse); }};
  emit_if(cond, s.range, &s.carried, branch);
}

void IrBuilder::emit_if(Value* cond, SourceRange r, const std::vector<int>* carried,
                        const std::function<void()> (&branch)[2]) {
  Op* op = b_.create(OpKind::If, r, {cond}, {});
  Block* blocks[2] = {b_.new_block(op), b_.new_block(op)};
  std::vector<BVal> before = env_;
  std::vector<BVal> after[2];
  bool left[2] = {false, false};  // the branch ends in break/continue/return
  Block* outer = b_.block();
  for (int i = 0; i < 2; ++i) {
    env_ = before;
    terminated_ = false;
    b_.set_end(blocks[i]);
    branch[i]();
    left[i] = terminated_;
    after[i] = std::move(env_);
    after[i].resize(before.size());
  }
  terminated_ = left[0] && left[1];
  env_ = before;
  if (failed_) return;
  auto returned = [&](int i) { return ret_ && after[i][ret_->flag].v == ret_->yes; };

  // Each result: its value from each branch (null: a placeholder, where it is never read).
  struct Result {
    Value* in[2];
    Type type;
  };
  std::vector<Result> results;
  // The checked variables, in order.
  if (carried)
    for (int var : *carried) {
      Result res{{nullptr, nullptr}, {}};
      for (int i = 0; i < 2; ++i) {
        if (left[i]) continue;
        res.in[i] = after[i][size_t(var)].v;
        if (res.in[i]) res.type = res.in[i]->type;
        else if (!returned(i)) return (void)unsupported(r, "a tuple or array assigned inside an 'if'");
      }
      if (!res.in[0] && !res.in[1] && !(left[0] && left[1]))
        return (void)unsupported(r, "a tuple or array assigned inside an 'if'");
      results.push_back(res);
    }
  // Then, leaf by leaf, the other slots a branch that falls through changed: the helper's
  // flag and result, or under `if not returned` every variable.
  struct Merged {
    size_t slot;
    BVal shape;
    std::vector<Value*> leaves;  ///< a value that dominates the `if`, or the next result
    std::vector<bool> result;
  };
  std::vector<Merged> merged;
  std::vector<size_t> slots;
  if (!carried)
    for (size_t i = 0; i < before.size(); ++i) slots.push_back(i);
  else if (ret_)
    slots = {ret_->flag, ret_->result};
  for (size_t slot : slots) {
    const BVal* shape = nullptr;
    bool changed = false;
    for (int i = 0; i < 2; ++i) {
      if (left[i] || same_bval(after[i][slot], before[slot])) continue;
      changed = true;
      if (!shape || (!shape->v && !shape->tuple)) shape = &after[i][slot];
    }
    if (!changed || (!shape->v && !shape->tuple)) continue;
    Merged m{slot, *shape, {}, {}};
    std::vector<Value*> from[2], old;
    for (int i = 0; i < 2; ++i)
      if (!left[i]) leaves(m.shape, &after[i][slot], from[i]);
    leaves(m.shape, &before[slot], old);
    std::vector<Value*> tmpl;
    leaves(m.shape, &m.shape, tmpl);
    for (size_t j = 0; j < tmpl.size(); ++j) {
      Value* in[2] = {left[0] ? nullptr : from[0][j], left[1] ? nullptr : from[1][j]};
      if ((in[0] && !visible(in[0], blocks[0])) || (in[1] && !visible(in[1], blocks[1]))) {
        m.leaves.push_back(old[j]);  // a value left inside a nested region: never read here
        m.result.push_back(false);
        continue;
      }
      // Not a tile (arrays are named statically), or one value that dominates the `if`; a
      // flag that is True exactly when the `then` branch ran is the condition.
      Value* same = left[0] ? in[1] : left[1] || in[0] == in[1] ? in[0] : nullptr;
      if (ret_ && !left[0] && !left[1] && in[0] == ret_->yes && in[1] == ret_->no) same = cond;
      if (!tmpl[j] || tmpl[j]->type.is_array ||
          (same && (same == old[j] || same == cond || (ret_ && (same == ret_->no || same == ret_->yes))))) {
        m.leaves.push_back(tmpl[j] && tmpl[j]->type.is_array ? tmpl[j] : same);
        m.result.push_back(false);
        continue;
      }
      m.leaves.push_back(nullptr);
      m.result.push_back(true);
      results.push_back(Result{{in[0], in[1]}, tmpl[j]->type});
    }
    merged.push_back(std::move(m));
  }
  // The results come from the branches that fall through.
  for (int i = 0; i < 2; ++i) {
    if (left[i]) continue;
    b_.set_end(blocks[i]);
    std::vector<Value*> yields;
    for (const Result& res : results) yields.push_back(res.in[i] ? res.in[i] : placeholder(res.type, r));
    b_.create(OpKind::Yield, r, yields, {});
  }
  b_.set_end(outer);
  if (terminated_) return;
  for (size_t j = 0; j < results.size(); ++j) {
    Value* v = f_.new_value(results[j].type);
    v->def = op;
    v->index = int(j);
    op->results.push_back(v);
  }
  size_t next = 0;
  if (carried)
    for (int var : *carried) env_[size_t(var)].v = op->results[next++];
  for (Merged& m : merged) {
    for (size_t j = 0; j < m.leaves.size(); ++j)
      if (m.result[j]) m.leaves[j] = op->results[next++];
    std::vector<Value*>::const_iterator it = m.leaves.cbegin();
    env_[m.slot] = with_leaves(m.shape, it);
  }
}

void IrBuilder::build_while(const Stmt& s) {
  LoopFrame loop{&s.carried, ret_ && may_return(s.body)};
  std::vector<Value*> init = loop_values(loop, s.range);
  if (failed_) return;
  std::vector<BVal> before = env_;
  std::vector<Type> types;
  for (Value* v : init) types.push_back(v->type);
  Op* op = b_.create(OpKind::While, s.range, init, types);
  Block* cond = b_.new_block(op);
  Block* body = b_.new_block(op);
  Block* outer = b_.block();
  // The condition sees the carried values of each iteration.
  std::vector<Value*> args;
  for (const Type& t : types) args.push_back(b_.block_arg(cond, t));
  bind_loop_values(loop, args, false);
  b_.set_end(cond);
  Value* c = to_bool(expr(*s.value).v, s.value->range);
  if (!c) return;
  b_.create(OpKind::Yield, s.value->range, {c}, {});
  args.clear();
  for (const Type& t : types) args.push_back(b_.block_arg(body, t));
  bind_loop_values(loop, args, true);
  b_.set_end(body);
  loops_.push_back(loop);
  bool saved = terminated_;
  terminated_ = false;
  block(s.body);
  loops_.pop_back();
  if (failed_) return;
  if (!terminated_) {
    std::vector<Value*> yields = loop_values(loop, s.range);
    if (failed_) return;
    b_.create(OpKind::Yield, s.range, yields, {});
  }
  terminated_ = saved;
  b_.set_end(outer);
  // Names first assigned in the body, and the index, are not available after the loop.
  env_ = std::move(before);
  bind_loop_values(loop, op->results, false);
}

void IrBuilder::build_for(const Stmt& s) {
  const Expr& range = *s.value;  // a call of range(...)
  DType idx = range.value.tile.dtype;
  std::vector<const Expr*> args;
  for (size_t i = 1; i < range.args.size(); ++i) args.push_back(range.args[i].get());
  for (const Keyword& kw : range.kwargs) args.push_back(kw.value.get());
  if (range.kind != ExprKind::Call || args.empty() || !range.kwargs.empty()) {
    unsupported(range.range, "this form of range()");
    return;
  }
  Value* lower = args.size() >= 2 ? expr_dtype(*args[0], idx) : b_.constant(idx, Scalar{0, 0}, range.range);
  Value* upper = expr_dtype(*args[args.size() >= 2 ? 1 : 0], idx);
  Value* step = args.size() == 3 ? expr_dtype(*args[2], idx) : b_.constant(idx, Scalar{1, 0}, range.range);
  if (!lower || !upper || !step) return;
  LoopFrame loop{&s.carried, ret_ && may_return(s.body)};
  std::vector<Value*> operands{lower, upper, step};
  std::vector<Value*> init = loop_values(loop, s.range);
  if (failed_) return;
  std::vector<BVal> before = env_;
  operands.insert(operands.end(), init.begin(), init.end());
  std::vector<Type> result_types;
  for (size_t i = 3; i < operands.size(); ++i) result_types.push_back(operands[i]->type);
  Op* op = b_.create(OpKind::For, s.range, operands, result_types);
  Block* body = b_.new_block(op);
  Value* iv = b_.block_arg(body, Type::scalar(idx));
  std::vector<Value*> iter;
  for (const Type& t : result_types) iter.push_back(b_.block_arg(body, t));
  bind_loop_values(loop, iter, true);
  if (s.target->var >= 0) env_[size_t(s.target->var)].v = iv;
  Block* outer = b_.block();
  b_.set_end(body);
  loops_.push_back(loop);
  bool saved = terminated_;
  terminated_ = false;
  block(s.body);
  loops_.pop_back();
  if (failed_) return;
  if (!terminated_) {
    std::vector<Value*> yields = loop_values(loop, s.range);
    if (failed_) return;
    b_.create(OpKind::Yield, s.range, yields, {});
  }
  terminated_ = saved;
  b_.set_end(outer);
  // Names first assigned in the body, and the index, are not available after the loop.
  env_ = std::move(before);
  bind_loop_values(loop, op->results, false);
}

// ---------------------------------------------------------------------------------------------
// Expressions

Value* IrBuilder::expr_dtype(const Expr& e, DType d) {
  const tilec::Value& cv = e.value;
  if (cv.is_const()) {
    Scalar s = cv.weak && is_float(cv.tile.dtype) && is_float(d) ? Scalar{0, round_float(cv.constant->f, d)}
                                                                  : convert_scalar(*cv.constant, cv.tile.dtype, d);
    return b_.constant(d, s, e.range);
  }
  BVal v = expr(e);
  if (!v.v) return nullptr;
  return b_.cast(v.v, d, e.range);
}

Value* IrBuilder::expr_as(const Expr& e, DType d, const std::vector<int64_t>& shape) {
  Value* v = expr_dtype(e, d);
  return v ? b_.broadcast_to(v, shape, e.range) : nullptr;
}

Value* IrBuilder::to_bool(Value* v, SourceRange loc) {
  if (!v || v->type.tile.dtype == DType::Bool) return v;
  Value* zero = b_.broadcast_to(b_.constant(v->type.tile.dtype, Scalar{0, 0}, loc), v->type.tile.shape, loc);
  return b_.cmp(tilec::Op::Ne, v, zero, loc);
}

Value* IrBuilder::mma(Value* x, Value* y, Value* c, SourceRange loc) {
  // Tiles smaller than one tensor-core instruction are padded per target by lowering
  // (codegen/mma_shape.h).
  return b_.create(OpKind::Mma, loc, {x, y, c}, {c->type})->result();
}

Value* IrBuilder::binary(tilec::Op op, const Expr& a, const Expr& b, DType operand,
                         const std::vector<int64_t>& shape, SourceRange loc) {
  if (op == tilec::Op::MatMul) {
    // a @ b: the operands in their promoted dtype, an f32 (i32 for i8, f64 for f64)
    // accumulator, the result in the operands' dtype (language.md §6.10).
    DType t = a.value.tile.dtype == b.value.tile.dtype ? a.value.tile.dtype : operand;
    if (is_integer(t) && t != DType::I8) {
      unsupported(loc, "@ on " + std::string(dtype_name(t)) + " tiles (the tensor cores multiply i8: mma on i8 tiles)");
      return nullptr;
    }
    // f32 products go to the f64 tensor cores (exact products, f64 sums, one rounding).
    if (t == DType::F32) t = DType::F64;
    Value* x = expr_dtype(a, t);
    Value* y = expr_dtype(b, t);
    if (!x || !y) return nullptr;
    DType acc = t == DType::I8 ? DType::I32 : t == DType::F64 ? DType::F64 : DType::F32;
    std::vector<int64_t> shape = {x->type.tile.shape[0], y->type.tile.shape[1]};
    if (x->type.tile.rank() != 2) {
      unsupported(loc, "a batched (3-D) @");
      return nullptr;
    }
    Value* zero = b_.broadcast_to(b_.constant(acc, Scalar{0, 0}, loc), shape, loc);
    return b_.cast(mma(x, y, zero, loc), operand, loc);
  }
  Value* x = expr_as(a, operand, shape);
  Value* y = expr_as(b, operand, shape);
  if (!x || !y) return nullptr;
  switch (op) {
    case tilec::Op::Add: return b_.binary(OpKind::Add, x, y, loc);
    case tilec::Op::Sub: return b_.binary(OpKind::Sub, x, y, loc);
    case tilec::Op::Mul: return b_.binary(OpKind::Mul, x, y, loc);
    case tilec::Op::Div: return b_.binary(OpKind::Div, x, y, loc);
    case tilec::Op::FloorDiv: return b_.binary(OpKind::FloorDiv, x, y, loc);
    case tilec::Op::Mod: return b_.binary(OpKind::Mod, x, y, loc);
    case tilec::Op::Pow: return b_.binary(OpKind::Pow, x, y, loc);
    case tilec::Op::BitAnd: return b_.binary(OpKind::And, x, y, loc);
    case tilec::Op::BitOr: return b_.binary(OpKind::Or, x, y, loc);
    case tilec::Op::BitXor: return b_.binary(OpKind::Xor, x, y, loc);
    case tilec::Op::Shl: return b_.binary(OpKind::Shl, x, y, loc);
    case tilec::Op::Shr: return b_.binary(OpKind::Shr, x, y, loc);
    default: return b_.cmp(op, x, y, loc);
  }
}

BVal IrBuilder::expr(const Expr& e) {
  const tilec::Value& cv = e.value;
  if (cv.is_const()) return BVal{b_.constant(cv.tile.dtype, convert_scalar(*cv.constant, cv.tile.dtype, cv.tile.dtype), e.range), {}, false};
  if (cv.kind == ValueKind::Tuple && e.kind != ExprKind::Call && e.kind != ExprKind::Name &&
      e.kind != ExprKind::Tuple && e.kind != ExprKind::Attribute && e.kind != ExprKind::Subscript) {
    // a constant tuple (shapes): never a runtime value
    return BVal{};
  }
  switch (e.kind) {
    case ExprKind::Name:
      if (e.var >= 0) return env_[size_t(e.var)];
      if (cv.kind == ValueKind::Array) return BVal{arrays_[cv.array], {}, false};
      if (cv.kind == ValueKind::Tuple) {
        // a tuple constant from the module
        BVal t;
        t.tuple = true;
        for (const tilec::Value& el : cv.elems)
          t.elems.push_back(el.is_const() ? BVal{b_.constant(el.tile.dtype, *el.constant, e.range), {}, false} : BVal{});
        return t;
      }
      return BVal{};
    case ExprKind::Tuple: {
      BVal t;
      t.tuple = true;
      for (const ExprPtr& a : e.args) t.elems.push_back(expr(*a));
      return t;
    }
    case ExprKind::Binary: {
      DType operand = cv.tile.dtype;
      return BVal{binary(e.op, *e.args[0], *e.args[1], operand, cv.tile.shape, e.range), {}, false};
    }
    case ExprKind::Compare: {
      Value* acc = nullptr;
      for (size_t i = 0; i < e.cmp_ops.size(); ++i) {
        Value* c = binary(e.cmp_ops[i], *e.args[i], *e.args[i + 1], e.cmp_dtypes[i], cv.tile.shape, e.range);
        if (!c) return BVal{};
        acc = acc ? b_.binary(OpKind::And, acc, c, e.range) : c;
      }
      return BVal{acc, {}, false};
    }
    case ExprKind::Unary: {
      Value* a = expr_as(*e.args[0], cv.tile.dtype, cv.tile.shape);
      if (!a) return BVal{};
      if (e.op == tilec::Op::Pos) return BVal{a, {}, false};
      return BVal{b_.unary(e.op == tilec::Op::Neg ? OpKind::Neg : OpKind::Not, a, e.range), {}, false};
    }
    case ExprKind::Not: {
      Value* a = to_bool(expr(*e.args[0]).v, e.range);
      return BVal{a ? b_.unary(OpKind::Not, a, e.range) : nullptr, {}, false};
    }
    case ExprKind::BoolOp: {
      Value* a = to_bool(expr(*e.args[0]).v, e.range);
      Value* b = to_bool(expr(*e.args[1]).v, e.range);
      if (!a || !b) return BVal{};
      return BVal{b_.binary(e.op == tilec::Op::And ? OpKind::And : OpKind::Or, a, b, e.range), {}, false};
    }
    case ExprKind::IfExp: {
      const tilec::Value& c = e.args[0]->value;
      if (c.is_const()) return expr(scalar_truth(*c.constant, c.tile.dtype) ? *e.args[1] : *e.args[2]);
      Value* cond = to_bool(expr(*e.args[0]).v, e.range);
      Value* x = expr_as(*e.args[1], cv.tile.dtype, cv.tile.shape);
      Value* y = expr_as(*e.args[2], cv.tile.dtype, cv.tile.shape);
      if (!cond || !x || !y) return BVal{};
      cond = b_.broadcast_to(cond, cv.tile.shape, e.range);
      return BVal{b_.create(OpKind::Select, e.range, {cond, x, y}, {x->type})->result(), {}, false};
    }
    case ExprKind::Call: return call(e);
    case ExprKind::Attribute: return attribute(e);
    case ExprKind::Subscript: return subscript(e);
    default: return BVal{};
  }
}

BVal IrBuilder::attribute(const Expr& e) {
  const tilec::Value& base = e.args[0]->value;
  if (base.kind == ValueKind::Array && e.name == "shape") {
    BVal t;
    t.tuple = true;
    for (const ArrayDim& d : base.array->dims)
      t.elems.push_back(d.symbol.empty() ? BVal{b_.constant(DType::I64, Scalar{d.constant, 0}, e.range), {}, false}
                                         : BVal{dims_[d.symbol], {}, false});
    return t;
  }
  return BVal{};  // module attributes and tile metadata are constants, handled above
}

BVal IrBuilder::subscript(const Expr& e) {
  const tilec::Value& base = e.args[0]->value;
  if (base.kind == ValueKind::Tuple) {
    BVal t = expr(*e.args[0]);
    int64_t i = e.args[1]->value.constant->i;
    int64_t n = int64_t(t.elems.size());
    return i < 0 ? t.elems[size_t(i + n)] : t.elems[size_t(i)];
  }
  BVal v = expr(*e.args[0]);
  if (!v.v) return BVal{};
  if (v.v->type.tile.shape == e.value.tile.shape) return v;
  Op* op = b_.create(OpKind::Reshape, e.range, {v.v}, {Type::tile_of(v.v->type.tile.dtype, e.value.tile.shape)});
  op->shape = e.value.tile.shape;
  return BVal{op->result(), {}, false};
}

BVal IrBuilder::call(const Expr& e) {
  if (e.inlined) return inline_helper(e);
  const tilec::Value& callee = e.args[0]->value;
  if (callee.kind == ValueKind::DTypeVal) {
    return BVal{expr_dtype(*e.args[1], callee.dtype), {}, false};
  }
  if (callee.kind != ValueKind::Builtin) return BVal{};
  const BuiltinSig& sig = builtin_sig(Builtin(callee.builtin));
  // Bind arguments to parameter slots the same way the checker did.
  std::vector<const Expr*> slots(sig.params.size(), nullptr);
  size_t p = 0;
  for (size_t i = 1; i < e.args.size(); ++i) {
    while (p < sig.params.size() && sig.params[p].keyword_only && !sig.params[p].rest) ++p;
    if (p < sig.params.size() && !sig.params[p].rest) slots[p++] = e.args[i].get();
  }
  for (const Keyword& kw : e.kwargs)
    for (size_t i = 0; i < sig.params.size(); ++i)
      if (sig.params[i].name == kw.name) slots[i] = kw.value.get();
  return builtin(sig.id, e, slots);
}

BVal IrBuilder::inline_helper(const Expr& e) {
  if (!ret_) return inline_body(e);
  // Inside a helper with an early return, `if not returned` carries every variable its rest
  // changes: forget the callee's locals (the caller's variables do not change).
  std::vector<BVal> saved = env_;
  BVal r = inline_body(e);
  env_ = std::move(saved);
  return r;
}

BVal IrBuilder::inline_body(const Expr& e) {
  const Stmt& def = *e.inlined;
  // Bind parameters: positional, keywords, then the checked defaults of the copy.
  std::vector<BVal> values(def.params.size());
  std::vector<bool> given(def.params.size(), false);
  for (size_t i = 1; i < e.args.size(); ++i) {
    values[i - 1] = expr(*e.args[i]);
    given[i - 1] = true;
  }
  for (const Keyword& kw : e.kwargs)
    for (size_t i = 0; i < def.params.size(); ++i)
      if (def.params[i].name == kw.name) {
        values[i] = expr(*kw.value);
        given[i] = true;
      }
  for (size_t i = 0; i < def.params.size(); ++i) {
    if (!given[i] && def.params[i].default_value) values[i] = expr(*def.params[i].default_value);
    if (def.params[i].var >= 0) env_[size_t(def.params[i].var)] = values[i];
  }
  // A helper whose only `return` is its last statement inlines as straight-line code.
  if (!has_early_return(def.body)) {
    std::vector<BVal> returns;
    std::vector<BVal>* saved = returns_;
    HelperReturn* saved_ret = ret_;
    returns_ = &returns;
    ret_ = nullptr;
    block(def.body);
    returns_ = saved;
    ret_ = saved_ret;
    if (returns.empty()) return BVal{};
    // Constant results were already folded by the checker; otherwise take the value built.
    if (e.value.is_const()) return expr(e);
    BVal r = returns.back();
    if (r.v && e.value.kind == ValueKind::Tile && r.v->type.tile.dtype != e.value.tile.dtype)
      r.v = b_.cast(r.v, e.value.tile.dtype, e.range);
    return r;
  }
  // An early return: the flag and the result in two extra slots of env_.
  HelperReturn hr;
  hr.flag = env_.size();
  hr.result = hr.flag + 1;
  hr.no = b_.constant(DType::Bool, Scalar{0, 0}, e.range);
  hr.yes = b_.constant(DType::Bool, Scalar{1, 0}, e.range);
  hr.loops = loops_.size();
  hr.type = &e.value;
  env_.resize(hr.flag + 2);
  env_[hr.flag].v = hr.no;
  std::vector<BVal>* saved = returns_;
  HelperReturn* saved_ret = ret_;
  returns_ = nullptr;
  ret_ = &hr;
  block(def.body);
  returns_ = saved;
  ret_ = saved_ret;
  BVal r = env_[hr.result];
  env_.resize(hr.flag);
  if (failed_) return BVal{};
  if (e.value.is_const()) return expr(e);
  return r;
}

Value* IrBuilder::permute(Value* v, const std::vector<int64_t>& order, SourceRange loc) {
  bool identity = true;
  for (size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == int64_t(i);
  if (identity) return v;
  std::vector<int64_t> shape;
  for (int64_t o : order) shape.push_back(v->type.tile.shape[size_t(o)]);
  Op* op = b_.create(OpKind::Permute, loc, {v}, {Type::tile_of(v->type.tile.dtype, shape)});
  op->order = order;
  return op->result();
}

// ---------------------------------------------------------------------------------------------
// Reductions

Value* IrBuilder::reduction(Builtin id, const Expr& e, const Expr* t, const Expr* axis, const Expr* keepdims,
                            const Expr*) {
  const tilec::Value& tv = t->value;
  const tilec::Value& rv = e.value;
  int rank = tv.tile.rank();
  Combine c = id == Builtin::Sum ? Combine::Sum : id == Builtin::Prod ? Combine::Prod
            : id == Builtin::Max ? Combine::Max : id == Builtin::Min ? Combine::Min
            : id == Builtin::Argmax ? Combine::Argmax : Combine::Argmin;
  bool arg = c == Combine::Argmax || c == Combine::Argmin;
  // Accumulate f16/bf16 in f32 (§6.6); compare them in f32 too (exact).
  DType acc = arg ? tv.tile.dtype : rv.tile.dtype;
  if (acc == DType::F16 || acc == DType::BF16) acc = DType::F32;
  Value* x = expr_dtype(*t, acc);
  if (!x) return nullptr;
  if (rank == 0) {
    if (arg) return b_.constant(DType::I32, Scalar{0, 0}, e.range);
    return b_.cast(x, rv.tile.dtype, e.range);
  }
  std::vector<int> axes;
  if (!axis || axis->value.kind == ValueKind::None) {
    for (int d = 0; d < rank; ++d) axes.push_back(d);
  } else {
    for (const tilec::Value& v : axis->value.kind == ValueKind::Tuple ? axis->value.elems : std::vector<tilec::Value>{axis->value})
      axes.push_back(int(v.constant->i < 0 ? v.constant->i + rank : v.constant->i));
  }
  if (arg && axes.size() > 1) {
    // argmax over several axes indexes the flattened tile.
    Op* r = b_.create(OpKind::Reshape, e.range, {x}, {Type::tile_of(acc, {tv.tile.numel()})});
    r->shape = {tv.tile.numel()};
    x = r->result();
    axes = {0};
  }
  std::sort(axes.rbegin(), axes.rend());  // highest first, so lower axis numbers stay valid
  for (int ax : axes) {
    std::vector<int64_t> shape = x->type.tile.shape;
    shape.erase(shape.begin() + ax);
    Op* op = b_.create(OpKind::Reduce, e.range, {x}, {Type::tile_of(arg ? DType::I32 : acc, shape)});
    op->combine = c;
    op->axis = ax;
    x = op->result();
  }
  if (keepdims && keepdims->value.is_const() && keepdims->value.constant->i && x->type.tile.shape != rv.tile.shape) {
    Op* r = b_.create(OpKind::Reshape, e.range, {x}, {Type::tile_of(x->type.tile.dtype, rv.tile.shape)});
    r->shape = rv.tile.shape;
    x = r->result();
  }
  return b_.cast(x, rv.tile.dtype, e.range);
}

// ---------------------------------------------------------------------------------------------
// Element-index memory

namespace {

// NumPy broadcasting of two shapes the checker has already found compatible.
std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1, y = i < b.size() ? b[b.size() - 1 - i] : 1;
    out[out.size() - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

ir::AtomicOp atomic_of(Builtin id) {
  switch (id) {
    case Builtin::AtomicMax: return ir::AtomicOp::Max;
    case Builtin::AtomicMin: return ir::AtomicOp::Min;
    case Builtin::AtomicAnd: return ir::AtomicOp::And;
    case Builtin::AtomicOr: return ir::AtomicOp::Or;
    case Builtin::AtomicXor: return ir::AtomicOp::Xor;
    case Builtin::AtomicXchg: return ir::AtomicOp::Xchg;
    case Builtin::AtomicCas: return ir::AtomicOp::Cas;
    default: return ir::AtomicOp::Add;
  }
}

}  // namespace

BVal IrBuilder::element_memory(Builtin id, const Expr& e, const std::vector<const Expr*>& a) {
  const tilec::ArrayParam* arr = a[0]->value.array;
  // Indices: a tuple written out, a tuple value, or one tile for a rank-1 array.
  std::vector<Value*> idx;
  std::vector<const Expr*> idx_exprs;
  if (a[1]->kind == ExprKind::Tuple) {
    for (const ExprPtr& x : a[1]->args) idx_exprs.push_back(x.get());
  } else if (a[1]->value.kind == ValueKind::Tuple) {
    for (BVal& el : expr(*a[1]).elems) idx.push_back(el.v);
  } else {
    idx_exprs.push_back(a[1]);
  }
  for (const Expr* x : idx_exprs) idx.push_back(expr_dtype(*x, x->value.tile.dtype));
  for (Value* v : idx)
    if (!v) return BVal{};
  // Values (none for gather, two for atomic_cas) and the mask.
  size_t nvalues = id == Builtin::Gather ? 0 : id == Builtin::AtomicCas ? 2 : 1;
  const Expr* mask = a[id == Builtin::Gather ? 2 : 2 + nvalues];
  std::vector<int64_t> shape;
  for (Value* v : idx) shape = broadcast_shapes(shape, v->type.tile.shape);
  for (size_t i = 0; i < nvalues; ++i) shape = broadcast_shapes(shape, a[2 + i]->value.tile.shape);
  if (mask) shape = broadcast_shapes(shape, mask->value.tile.shape);
  std::vector<Value*> ops{arrays_[arr]};
  for (size_t i = 0; i < nvalues; ++i) ops.push_back(expr_as(*a[2 + i], arr->dtype, shape));
  for (Value* v : idx) ops.push_back(b_.broadcast_to(v, shape, e.range));
  if (mask) ops.push_back(expr_as(*mask, DType::Bool, shape));
  for (Value* v : ops)
    if (!v) return BVal{};
  OpKind k = id == Builtin::Gather ? OpKind::Gather : id == Builtin::Scatter ? OpKind::Scatter : OpKind::Atomic;
  std::vector<Type> results;
  if (k != OpKind::Scatter) results.push_back(Type::tile_of(arr->dtype, shape));
  Op* op = b_.create(k, e.range, ops, results);
  op->atomic = atomic_of(id);
  if (id == Builtin::Gather && a[3])
    op->value = convert_scalar(*a[3]->value.constant, a[3]->value.tile.dtype, arr->dtype);
  return k == OpKind::Scatter ? BVal{} : BVal{op->result(), {}, false};
}

// ---------------------------------------------------------------------------------------------
// Built-in functions

BVal IrBuilder::builtin(Builtin id, const Expr& e, const std::vector<const Expr*>& a) {
  const tilec::Value& rv = e.value;
  auto one = [](Value* v) { return BVal{v, {}, false}; };
  auto unary_math = [&](OpKind k) -> BVal {
    Value* x = expr_as(*a[0], rv.tile.dtype, rv.tile.shape);
    if (!x) return BVal{};
    Op* op = b_.create(k, e.range, {x}, {Type::tile_of(k == OpKind::IsNan ? DType::Bool : rv.tile.dtype, rv.tile.shape)});
    if (a.size() > 1 && a[1] && a[1]->value.is_const()) op->approx = a[1]->value.constant->i != 0;
    return one(op->result());
  };
  switch (id) {
    case Builtin::Bid:
    case Builtin::NumBlocks: {
      Op* op = b_.create(id == Builtin::Bid ? OpKind::BlockId : OpKind::NumBlocks, e.range, {}, {Type::scalar(DType::I32)});
      op->axis = int(a[0]->value.constant->i);
      return one(op->result());
    }
    case Builtin::NumSms: return one(b_.create(OpKind::NumSms, e.range, {}, {Type::scalar(DType::I32)})->result());
    case Builtin::Cdiv: {
      // cdiv(a, b) = -((-a) // b): Python floor semantics also for negative operands.
      DType t = rv.tile.dtype;
      Value* x = expr_as(*a[0], t, {});
      Value* y = expr_as(*a[1], t, {});
      Value* q = b_.binary(OpKind::FloorDiv, b_.unary(OpKind::Neg, x, e.range), y, e.range);
      return one(b_.unary(OpKind::Neg, q, e.range));
    }
    case Builtin::Max:
    case Builtin::Min:
      if (a[1]) {
        Value* x = expr_as(*a[0], rv.tile.dtype, rv.tile.shape);
        Value* y = expr_as(*a[1], rv.tile.dtype, rv.tile.shape);
        return one(b_.binary(id == Builtin::Max ? OpKind::Max : OpKind::Min, x, y, e.range));
      }
      return one(reduction(id, e, a[0], a[2], a[3], nullptr));
    case Builtin::Sum:
    case Builtin::Prod:
    case Builtin::Argmax:
    case Builtin::Argmin: return one(reduction(id, e, a[0], a[1], a[2], nullptr));
    case Builtin::Minimum:
    case Builtin::Maximum: {
      Value* x = expr_as(*a[0], rv.tile.dtype, rv.tile.shape);
      Value* y = expr_as(*a[1], rv.tile.dtype, rv.tile.shape);
      if (!x || !y) return BVal{};
      return one(b_.binary(id == Builtin::Maximum ? OpKind::Max : OpKind::Min, x, y, e.range));
    }
    case Builtin::Swizzle2d: {
      // Grouped tile order (language.md §7.1, Triton's matmul tutorial): GROUP rows of tiles
      // are walked column by column so that consecutive CTAs share A and B tiles in L2. Both
      // coordinates come from i's position inside its band, i % width: the last band may have
      // fewer than GROUP rows, and then i % rows is not (i % width) % rows.
      DType t = rv.elems[0].tile.dtype;
      Value* i = expr_as(*a[0], t, {});
      Value* nm = expr_as(*a[1], t, {});
      Value* nn = expr_as(*a[2], t, {});
      Value* g = expr_as(*a[3], t, {});
      SourceRange l = e.range;
      Value* width = b_.binary(OpKind::Mul, g, nn, l);
      Value* group_id = b_.binary(OpKind::FloorDiv, i, width, l);
      Value* first_m = b_.binary(OpKind::Mul, group_id, g, l);
      Value* group_size = b_.binary(OpKind::Min, b_.binary(OpKind::Sub, nm, first_m, l), g, l);
      Value* in_band = b_.binary(OpKind::Mod, i, width, l);
      Value* im = b_.binary(OpKind::Add, first_m, b_.binary(OpKind::Mod, in_band, group_size, l), l);
      Value* in = b_.binary(OpKind::FloorDiv, in_band, group_size, l);
      BVal r;
      r.tuple = true;
      r.elems = {one(im), one(in)};
      return r;
    }
    case Builtin::Load: {
      const tilec::ArrayParam* arr = a[0]->value.array;
      std::vector<Value*> ops{arrays_[arr]};
      std::vector<const Expr*> idx;
      if (a[1]->kind == ExprKind::Tuple) for (const ExprPtr& x : a[1]->args) idx.push_back(x.get());
      else if (a[1]->value.kind == ValueKind::Tuple) {
        BVal t = expr(*a[1]);
        for (BVal& el : t.elems) ops.push_back(el.v);
      } else idx.push_back(a[1]);
      for (const Expr* x : idx) {
        BVal v = expr(*x);
        if (!v.v) v.v = expr_dtype(*x, x->value.tile.dtype);
        ops.push_back(v.v);
      }
      // load(order=p): tile dim i is array dim p[i]. Load in the array's own order (coalesced,
      // vectorized along its innermost axis), then permute the tile in shared memory.
      std::vector<int64_t> order;
      if (a[3]) for (const tilec::Value& o : a[3]->value.elems) order.push_back(o.constant->i);
      std::vector<int64_t> inverse(order.size()), array_shape = rv.tile.shape;
      std::vector<Value*> array_index(ops.size());
      array_index[0] = ops[0];
      for (size_t i = 0; i < order.size(); ++i) {
        inverse[size_t(order[i])] = int64_t(i);
        array_shape[size_t(order[i])] = rv.tile.shape[i];
        array_index[size_t(order[i]) + 1] = ops[i + 1];
      }
      if (!order.empty()) ops = array_index;
      Op* op = b_.create(OpKind::Load, e.range, ops, {Type::tile_of(arr->dtype, order.empty() ? rv.tile.shape : array_shape)});
      if (a[4]) op->value = convert_scalar(*a[4]->value.constant, a[4]->value.tile.dtype, arr->dtype);
      return one(order.empty() ? op->result() : permute(op->result(), order, e.range));
    }
    case Builtin::Store: {
      const tilec::ArrayParam* arr = a[0]->value.array;
      const tilec::Value& tv = a[2]->value;
      std::vector<int64_t> shape = tv.tile.shape;
      if (shape.empty()) shape.assign(arr->dims.size(), 1);
      Value* t = expr_dtype(*a[2], arr->dtype);
      if (!t) return BVal{};
      if (t->type.tile.shape != shape) {
        Op* r = b_.create(OpKind::Reshape, e.range, {t}, {Type::tile_of(arr->dtype, shape)});
        r->shape = shape;
        t = r->result();
      }
      std::vector<Value*> ops{arrays_[arr], t};
      if (a[1]->kind == ExprKind::Tuple) {
        for (const ExprPtr& x : a[1]->args) ops.push_back(expr(*x).v);
      } else if (a[1]->value.kind == ValueKind::Tuple) {
        BVal tt = expr(*a[1]);
        for (BVal& el : tt.elems) ops.push_back(el.v);
      } else {
        ops.push_back(expr(*a[1]).v);
      }
      for (Value* v : ops)
        if (!v) return BVal{};
      // store(order=p) writes tile dim i to array dim p[i]: permute into the array's order first.
      std::vector<int64_t> order;
      if (a[3]) for (const tilec::Value& o : a[3]->value.elems) order.push_back(o.constant->i);
      if (!order.empty()) {
        std::vector<int64_t> inverse(order.size());
        std::vector<Value*> idx(ops.size() - 2);
        for (size_t i = 0; i < order.size(); ++i) {
          inverse[size_t(order[i])] = int64_t(i);
          idx[size_t(order[i])] = ops[i + 2];
        }
        ops[1] = permute(ops[1], inverse, e.range);
        for (size_t i = 0; i < idx.size(); ++i) ops[i + 2] = idx[i];
      }
      b_.create(OpKind::Store, e.range, ops, {});
      return BVal{};
    }
    case Builtin::Arange: {
      Op* op = b_.create(OpKind::Iota, e.range, {}, {Type::tile_of(rv.tile.dtype, rv.tile.shape)});
      op->shape = rv.tile.shape;
      op->dtype = rv.tile.dtype;
      return one(op->result());
    }
    case Builtin::Full: {
      Value* v = expr_dtype(*a[1], rv.tile.dtype);
      return one(v ? b_.broadcast_to(v, rv.tile.shape, e.range) : nullptr);
    }
    case Builtin::Zeros:
    case Builtin::Ones: {
      Value* v = b_.constant(rv.tile.dtype, convert_scalar(Scalar{id == Builtin::Ones, 0}, DType::I32, rv.tile.dtype), e.range);
      return one(b_.broadcast_to(v, rv.tile.shape, e.range));
    }
    case Builtin::Astype: return one(expr_dtype(*a[0], rv.tile.dtype));
    case Builtin::Bitcast: {
      BVal x = expr(*a[0]);
      if (!x.v) return BVal{};
      Op* op = b_.create(OpKind::Bitcast, e.range, {x.v}, {Type::tile_of(rv.tile.dtype, rv.tile.shape)});
      op->dtype = rv.tile.dtype;
      return one(op->result());
    }
    case Builtin::Reshape:
    case Builtin::ExpandDims: {
      BVal x = expr(*a[0]);
      if (!x.v) return BVal{};
      Op* op = b_.create(OpKind::Reshape, e.range, {x.v}, {Type::tile_of(rv.tile.dtype, rv.tile.shape)});
      op->shape = rv.tile.shape;
      return one(op->result());
    }
    case Builtin::Permute:
    case Builtin::Transpose: {
      BVal x = expr(*a[0]);
      if (!x.v) return BVal{};
      int rank = x.v->type.tile.rank();
      std::vector<int64_t> order(static_cast<size_t>(rank));
      for (int i = 0; i < rank; ++i) order[size_t(i)] = i;
      if (id == Builtin::Permute) {
        order.clear();
        const tilec::Value& dv = a[1]->value;
        for (const tilec::Value& v : dv.kind == ValueKind::Tuple ? dv.elems : std::vector<tilec::Value>{dv})
          order.push_back(v.constant->i);
      } else {
        int64_t x0 = a[1] ? a[1]->value.constant->i : rank - 2, x1 = a[2] ? a[2]->value.constant->i : rank - 1;
        if (x0 < 0) x0 += rank;
        if (x1 < 0) x1 += rank;
        std::swap(order[size_t(x0)], order[size_t(x1)]);
      }
      return one(permute(x.v, order, e.range));
    }
    case Builtin::BroadcastTo: {
      BVal x = expr(*a[0]);
      return one(x.v ? b_.broadcast_to(x.v, rv.tile.shape, e.range) : nullptr);
    }
    case Builtin::Where: {
      Value* c = b_.broadcast_to(expr(*a[0]).v, rv.tile.shape, e.range);
      Value* x = expr_as(*a[1], rv.tile.dtype, rv.tile.shape);
      Value* y = expr_as(*a[2], rv.tile.dtype, rv.tile.shape);
      if (!c || !x || !y) return BVal{};
      return one(b_.create(OpKind::Select, e.range, {c, x, y}, {x->type})->result());
    }
    case Builtin::Fma: {
      Value* x = expr_as(*a[0], rv.tile.dtype, rv.tile.shape);
      Value* y = expr_as(*a[1], rv.tile.dtype, rv.tile.shape);
      Value* z = expr_as(*a[2], rv.tile.dtype, rv.tile.shape);
      if (!x || !y || !z) return BVal{};
      return one(b_.create(OpKind::Fma, e.range, {x, y, z}, {x->type})->result());
    }
    case Builtin::Pow: {
      Value* x = expr_as(*a[0], rv.tile.dtype, rv.tile.shape);
      Value* y = expr_as(*a[1], rv.tile.dtype, rv.tile.shape);
      if (!x || !y) return BVal{};
      Op* op = b_.create(OpKind::Pow, e.range, {x, y}, {x->type});
      if (a[2]) op->approx = a[2]->value.constant->i != 0;
      return one(op->result());
    }
    case Builtin::Abs: return unary_math(OpKind::Abs);
    case Builtin::Exp: return unary_math(OpKind::Exp);
    case Builtin::Exp2: return unary_math(OpKind::Exp2);
    case Builtin::Log: return unary_math(OpKind::Log);
    case Builtin::Log2: return unary_math(OpKind::Log2);
    case Builtin::Sqrt: return unary_math(OpKind::Sqrt);
    case Builtin::Rsqrt: return unary_math(OpKind::Rsqrt);
    case Builtin::Sin: return unary_math(OpKind::Sin);
    case Builtin::Cos: return unary_math(OpKind::Cos);
    case Builtin::Tanh: return unary_math(OpKind::Tanh);
    case Builtin::Sigmoid: return unary_math(OpKind::Sigmoid);
    case Builtin::Floor: return unary_math(OpKind::Floor);
    case Builtin::Ceil: return unary_math(OpKind::Ceil);
    case Builtin::Isnan: {
      Value* x = expr_as(*a[0], a[0]->value.tile.dtype, rv.tile.shape);
      return one(x ? b_.unary(OpKind::IsNan, x, e.range) : nullptr);
    }
    case Builtin::Mma: {
      Value* x = expr(*a[0]).v;
      Value* y = expr(*a[1]).v;
      Value* c = expr_dtype(*a[2], a[2]->value.tile.dtype);
      if (!x || !y || !c) return BVal{};
      // A batch of one (the batched_matmul sample's (1, M, K) tiles): the 2-D product.
      if (x->type.tile.rank() == 3) {
        if (x->type.tile.shape[0] != 1) {
          unsupported(e.range, "a batched mma with more than one matrix per tile");
          return BVal{};
        }
        auto drop = [&](Value* v) {
          std::vector<int64_t> s(v->type.tile.shape.begin() + 1, v->type.tile.shape.end());
          Op* r = b_.create(OpKind::Reshape, e.range, {v}, {Type::tile_of(v->type.tile.dtype, s)});
          r->shape = s;
          return r->result();
        };
        Value* m = mma(drop(x), drop(y), drop(c), e.range);
        Op* r = b_.create(OpKind::Reshape, e.range, {m}, {c->type});
        r->shape = c->type.tile.shape;
        return one(r->result());
      }
      return one(mma(x, y, c, e.range));
    }
    case Builtin::Gather:
    case Builtin::Scatter:
    case Builtin::AtomicAdd:
    case Builtin::AtomicMax:
    case Builtin::AtomicMin:
    case Builtin::AtomicAnd:
    case Builtin::AtomicOr:
    case Builtin::AtomicXor:
    case Builtin::AtomicXchg:
    case Builtin::AtomicCas: return element_memory(id, e, a);
    case Builtin::Cumsum:
    case Builtin::Cumprod: {
      // Accumulate in the result dtype, f16/bf16 in f32 like the reductions (§6.6).
      DType acc = rv.tile.dtype == DType::F16 || rv.tile.dtype == DType::BF16 ? DType::F32 : rv.tile.dtype;
      Value* x = expr_dtype(*a[0], acc);
      if (!x) return BVal{};
      int rank = x->type.tile.rank();
      int64_t axis = a[1]->value.constant->i;
      Op* op = b_.create(OpKind::Scan, e.range, {x}, {x->type});
      op->combine = id == Builtin::Cumsum ? Combine::Sum : Combine::Prod;
      op->axis = int(axis < 0 ? axis + rank : axis);
      return one(b_.cast(op->result(), rv.tile.dtype, e.range));
    }
    case Builtin::Histogram: {
      // The bin indices keep their dtype; the mask is broadcast to their shape.
      Value* x = expr_dtype(*a[0], a[0]->value.tile.dtype);
      if (!x) return BVal{};
      std::vector<Value*> ops{x};
      if (a[2]) ops.push_back(expr_as(*a[2], DType::Bool, x->type.tile.shape));
      if (!ops.back()) return BVal{};
      Op* op = b_.create(OpKind::Histogram, e.range, ops, {Type::tile_of(DType::I32, rv.tile.shape)});
      op->shape = rv.tile.shape;
      return one(op->result());
    }
    case Builtin::Cat: {
      Value* x = expr(*a[0]).v;
      Value* y = expr(*a[1]).v;
      if (!x || !y) return BVal{};
      int64_t axis = a[2]->value.constant->i;
      Op* op = b_.create(OpKind::Cat, e.range, {x, y}, {Type::tile_of(rv.tile.dtype, rv.tile.shape)});
      op->axis = int(axis < 0 ? axis + x->type.tile.rank() : axis);
      return one(op->result());
    }
    case Builtin::Extract: {
      Value* x = expr(*a[0]).v;
      if (!x) return BVal{};
      if (x->type.tile.shape == rv.tile.shape) return one(x);  // the whole tile
      Op* op = b_.create(OpKind::Extract, e.range, {x}, {Type::tile_of(rv.tile.dtype, rv.tile.shape)});
      const tilec::Value& iv = a[1]->value;
      for (const tilec::Value& v : iv.kind == ValueKind::Tuple ? iv.elems : std::vector<tilec::Value>{iv})
        op->order.push_back(v.constant->i);
      return one(op->result());
    }
    case Builtin::StaticAssert: return BVal{};
    case Builtin::Print: {
      std::vector<Value*> args;
      for (size_t i = 2; i < e.args.size(); ++i) {
        BVal v = expr(*e.args[i]);
        if (!v.v) v.v = expr_dtype(*e.args[i], e.args[i]->value.tile.dtype);
        args.push_back(v.v);
      }
      Op* op = b_.create(OpKind::Print, e.range, args, {});
      op->text = a[0]->value.text;
      return BVal{};
    }
    case Builtin::NumTiles: {
      // cdiv(extent of the (permuted) axis, tile size), computed in i64.
      const tilec::ArrayParam* arr = a[0]->value.array;
      int rank = int(arr->dims.size());
      int64_t axis = a[1]->value.constant->i;
      if (axis < 0) axis += rank;
      std::vector<int64_t> perm;
      if (a[3]) for (const tilec::Value& o : a[3]->value.elems) perm.push_back(o.constant->i);
      int64_t src = perm.empty() ? axis : perm[size_t(axis)];
      const std::vector<tilec::Value>& sh = a[2]->value.kind == ValueKind::Tuple ? a[2]->value.elems
                                                                                : std::vector<tilec::Value>{a[2]->value};
      int64_t t = sh[size_t(axis)].constant->i;
      Value* n = dims_[arr->dims[size_t(src)].symbol];
      Value* tv = b_.constant(DType::I64, Scalar{t, 0}, e.range);
      Value* q = b_.binary(OpKind::FloorDiv, b_.unary(OpKind::Neg, n, e.range), tv, e.range);
      return one(b_.unary(OpKind::Neg, q, e.range));
    }
    default: break;
  }
  unsupported(e.range, std::string("'") + std::string(builtin_sig(id).name) + "'");
  return BVal{};
}

}  // namespace

std::unique_ptr<Function> build_kernel(const KernelInfo& k, DiagnosticEngine& diag, bool device_asserts) {
  auto f = std::make_unique<Function>();
  IrBuilder b(k, diag, *f, device_asserts);
  b.build();
  return f;
}

}  // namespace tilec::ir
