// Tile IR of statements and structured control flow: assignments, `if` with merged results,
// `for` and `while` with loop-carried values, break/continue/return, and the early return of
// an inlined helper (language.md §6.7).
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "basic/consteval.h"
#include "ir/ir_builder.h"

namespace tilec::ir {

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
  for (size_t i = 0; i < l.vars->size(); ++i) env_.set_value(size_t((*l.vars)[i]), v[i]);
  if (!l.helper) return;
  // An iteration starts only when the helper has not returned: a return leaves the loop.
  env_.set_value(ret_->flag, body ? ret_->no : v[l.vars->size()]);
  auto it = v.cbegin() + std::ptrdiff_t(l.vars->size() + 1);
  env_.set(ret_->result, unflatten(*ret_->type, it));
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
  env_.set(ret_->result, conform(v, *ret_->type, s.range));
  env_.set_value(ret_->flag, ret_->yes);
  // Inside the helper's own loops, leave them: the flag and result go out with the break.
  if (loops_.size() > ret_->loops) leave(OpKind::Break, s.range);
}

void IrBuilder::rest_unless_returned(const StmtList& body, size_t from) {
  SourceRange r = body[from]->range;
  bool in_loop = loops_.size() > ret_->loops;
  const std::function<void()> branch[2] = {
      [&] {
        env_.set_value(ret_->flag, ret_->yes);
        if (in_loop) leave(OpKind::Break, r);
      },
      [&] {
        env_.set_value(ret_->flag, ret_->no);
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
    if (target.var >= 0) env_.set(size_t(target.var), v);
    return;
  }
  if (target.kind == ExprKind::Tuple)
    for (size_t i = 0; i < target.args.size() && i < v.elems.size(); ++i) assign(*target.args[i], v.elems[i]);
}

namespace {

// Whether `s` may execute a `return` (a constant `if` counts only with its branch taken).
bool stmt_may_return(const Stmt& s) {
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

}  // namespace

bool may_return(const StmtList& body) {
  return std::any_of(body.begin(), body.end(), [](const StmtPtr& s) { return stmt_may_return(*s); });
}

bool has_early_return(const StmtList& body) {
  size_t n = body.size() - (!body.empty() && body.back()->kind == StmtKind::Return ? 1 : 0);
  for (size_t i = 0; i < n; ++i)
    if (stmt_may_return(*body[i])) return true;
  return false;
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
  // Each branch is built in place and rolled back; the values it left in the slots it changed
  // are kept aside (the other slots are as before the `if`, which env_ holds afterwards).
  std::map<size_t, BVal> changed[2];
  bool left[2] = {false, false};  // the branch ends in break/continue/return
  Block* outer = b_.block();
  for (int i = 0; i < 2; ++i) {
    BuildEnv::Mark before = env_.open();
    terminated_ = false;
    b_.set_end(blocks[i]);
    branch[i]();
    left[i] = terminated_;
    for (size_t slot : env_.changed_since(before)) changed[i][slot] = env_[slot];
    env_.rollback(before);
  }
  terminated_ = left[0] && left[1];
  if (failed_) return;
  // A slot's value at the end of branch i.
  auto after = [&](int i, size_t slot) -> const BVal& {
    auto it = changed[i].find(slot);
    return it != changed[i].end() ? it->second : env_[slot];
  };
  auto returned = [&](int i) { return ret_ && after(i, ret_->flag).v == ret_->yes; };

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
        res.in[i] = after(i, size_t(var)).v;
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
  if (!carried) {
    // A slot no branch changed is the same on both paths.
    std::set<size_t> either;
    for (const auto& c : changed)
      for (const auto& [slot, v] : c) either.insert(slot);
    slots.assign(either.begin(), either.end());
  } else if (ret_) {
    slots = {ret_->flag, ret_->result};
  }
  for (size_t slot : slots) {
    const BVal* shape = nullptr;
    bool differs = false;
    for (int i = 0; i < 2; ++i) {
      if (left[i] || same_bval(after(i, slot), env_[slot])) continue;
      differs = true;
      if (!shape || (!shape->v && !shape->tuple)) shape = &after(i, slot);
    }
    if (!differs || (!shape->v && !shape->tuple)) continue;
    Merged m{slot, *shape, {}, {}};
    std::vector<Value*> from[2], old;
    for (int i = 0; i < 2; ++i)
      if (!left[i]) leaves(m.shape, &after(i, slot), from[i]);
    leaves(m.shape, &env_[slot], old);
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
    for (int var : *carried) env_.set_value(size_t(var), op->results[next++]);
  for (Merged& m : merged) {
    for (size_t j = 0; j < m.leaves.size(); ++j)
      if (m.result[j]) m.leaves[j] = op->results[next++];
    std::vector<Value*>::const_iterator it = m.leaves.cbegin();
    env_.set(m.slot, with_leaves(m.shape, it));
  }
}

void IrBuilder::build_while(const Stmt& s) {
  LoopFrame loop{&s.carried, ret_ && may_return(s.body)};
  std::vector<Value*> init = loop_values(loop, s.range);
  if (failed_) return;
  BuildEnv::Mark before = env_.open();
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
  if (!c) return env_.rollback(before);
  b_.create(OpKind::Yield, s.value->range, {c}, {});
  args.clear();
  for (const Type& t : types) args.push_back(b_.block_arg(body, t));
  bind_loop_values(loop, args, true);
  loop_body(s, loop, op, outer, body, before);
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
  BuildEnv::Mark before = env_.open();
  operands.insert(operands.end(), init.begin(), init.end());
  std::vector<Type> result_types;
  for (size_t i = 3; i < operands.size(); ++i) result_types.push_back(operands[i]->type);
  Op* op = b_.create(OpKind::For, s.range, operands, result_types);
  Block* body = b_.new_block(op);
  Value* iv = b_.block_arg(body, Type::scalar(idx));
  std::vector<Value*> iter;
  for (const Type& t : result_types) iter.push_back(b_.block_arg(body, t));
  bind_loop_values(loop, iter, true);
  if (s.target->var >= 0) env_.set_value(size_t(s.target->var), iv);
  loop_body(s, loop, op, b_.block(), body, before);
}

void IrBuilder::loop_body(const Stmt& s, const LoopFrame& loop, Op* op, Block* outer, Block* body,
                          BuildEnv::Mark before) {
  b_.set_end(body);
  loops_.push_back(loop);
  bool saved = terminated_;
  terminated_ = false;
  block(s.body);
  loops_.pop_back();
  if (failed_) return env_.rollback(before);
  if (!terminated_) {
    std::vector<Value*> yields = loop_values(loop, s.range);
    if (failed_) return env_.rollback(before);
    b_.create(OpKind::Yield, s.range, yields, {});
  }
  terminated_ = saved;
  b_.set_end(outer);
  // Names first assigned in the body, and the index, are not available after the loop.
  env_.rollback(before);
  bind_loop_values(loop, op->results, false);
}

}  // namespace tilec::ir
