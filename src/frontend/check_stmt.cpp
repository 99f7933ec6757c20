// Statements: assignment, control flow (with the loop-carried and every-path rules of
// language.md §5), return, assert, and helper functions inlined at each call.
#include <algorithm>

#include <fmt/format.h>

#include "frontend/checker.h"
#include "basic/consteval.h"
#include "frontend/python_forms.h"

namespace tilec {
namespace {

// Names assigned anywhere in `body` (not inside nested defs), for loop-carried analysis.
void assigned_names(const StmtList& body, std::set<std::string>& out) {
  auto target_names = [&out](const Expr& t, auto& self) -> void {
    if (t.kind == ExprKind::Name) out.insert(t.name);
    else if (t.kind == ExprKind::Tuple)
      for (const ExprPtr& e : t.args) self(*e, self);
  };
  for (const StmtPtr& s : body) {
    if ((s->kind == StmtKind::Assign || s->kind == StmtKind::AugAssign || s->kind == StmtKind::For) && s->target)
      target_names(*s->target, target_names);
    assigned_names(s->body, out);
    assigned_names(s->orelse, out);
  }
}

bool same_type(const Value& a, const Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case ValueKind::Tile: return a.tile == b.tile;
    case ValueKind::Array: return a.array == b.array;
    case ValueKind::DTypeVal: return a.dtype == b.dtype;
    case ValueKind::Tuple:
      if (a.elems.size() != b.elems.size()) return false;
      for (size_t i = 0; i < a.elems.size(); ++i)
        if (!same_type(a.elems[i], b.elems[i])) return false;
      return true;
    default: return true;
  }
}

// Descriptions of two values of different types that tell them apart: two arrays of one
// dtype and shape differ in which array they are, two tuples in an element.
std::pair<std::string, std::string> describe_apart(const Value& a, const Value& b) {
  if (a.kind == ValueKind::Array && b.kind == ValueKind::Array && a.array != b.array)
    return {"array '" + a.array->name + "'", "array '" + b.array->name + "'"};
  if (a.kind == ValueKind::Tuple && b.kind == ValueKind::Tuple && a.elems.size() == b.elems.size())
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (!same_type(a.elems[i], b.elems[i])) {
        auto [x, y] = describe_apart(a.elems[i], b.elems[i]);
        std::string t = describe(a) + " whose element " + std::to_string(i) + " is ";
        return {t + x, t + y};
      }
  return {describe(a), describe(b)};
}

// The value a variable holds after two paths merge: constants survive only when equal.
Value merge_values(const Value& a, const Value& b) {
  Value v = a;
  v.weak = a.weak && b.weak;
  if (a.kind == ValueKind::Tile && !(a.constant && b.constant && a.constant->i == b.constant->i &&
                                     (a.constant->f == b.constant->f)))
    v.constant.reset();
  if (a.kind == ValueKind::Tuple)
    for (size_t i = 0; i < v.elems.size(); ++i) v.elems[i] = merge_values(a.elems[i], b.elems[i]);
  return v;
}

// A loop-carried value has a concrete type: no literal weakness and no constant.
Value runtime_value(Value v) {
  v.constant.reset();
  v.weak = false;
  for (Value& e : v.elems) e = runtime_value(e);
  return v;
}

}  // namespace

int Checker::var_id(const std::string& name) {
  auto [it, fresh] = fn_->ids.try_emplace(name, 0);
  if (fresh) {
    // Ids are unique across the kernel, helpers included: count every scope's names.
    it->second = kernel_ ? kernel_->num_vars++ : 0;
  }
  return it->second;
}

bool Checker::check_block(StmtList& body) {
  bool terminated = false;
  for (StmtPtr& s : body) {
    if (diag_.too_many()) return terminated;
    if (terminated) {
      diag_.warning(Warning::UnreachableCode, s->range, "statement is unreachable");
      break;
    }
    terminated = check_stmt(*s);
  }
  return terminated;
}

bool Checker::check_stmt(Stmt& s) {
  switch (s.kind) {
    case StmtKind::Expr: {
      Value v = check_expr(*s.value);
      bool effect = s.value->kind == ExprKind::Call || s.value->kind == ExprKind::String;
      if (!effect && !v.is_error()) diag_.warning(Warning::UnusedValue, s.value->range, "expression result unused");
      return false;
    }
    case StmtKind::Assign:
    case StmtKind::AugAssign: check_assign(s); return false;
    case StmtKind::If: return check_if(s);
    case StmtKind::For: check_for(s); return false;
    case StmtKind::While: return check_while(s);
    case StmtKind::Break:
    case StmtKind::Continue:
      if (fn_->loop_depth == 0) {
        diag_.error(s.range, std::string("'") + (s.kind == StmtKind::Break ? "break" : "continue") + "' outside a loop");
        return false;  // already an error: do not also call what follows unreachable
      }
      return true;
    case StmtKind::Pass: return false;
    case StmtKind::Return: check_return(s); return true;
    case StmtKind::Assert: check_assert(s); return false;
    case StmtKind::Import: diag_.error(s.range, "'import' is only allowed at module level"); return false;
    case StmtKind::Def: diag_.error(s.range, "functions cannot be nested; define '" + s.name + "' at module level"); return false;
  }
  return false;
}

void Checker::check_assign(Stmt& s) {
  if (s.kind == StmtKind::AugAssign) {
    if (s.target->kind != ExprKind::Name) {
      diag_.error(s.target->range, "augmented assignment needs a single name on the left");
      return;
    }
    Value lhs = check_expr(*s.target);
    Value rhs = check_expr(*s.value);
    if (lhs.is_error() || rhs.is_error()) return;
    Value v = binary_values(s.op, lhs, rhs, *s.value, *s.target, *s.value);
    if (v.is_error()) return;
    bind_name(*s.target, v);
    return;
  }
  Value v = check_expr(*s.value);
  if (v.is_error()) {
    // Bind the names anyway so later uses do not cascade into "undefined name" errors.
    assign_target(*s.target, Value::error(), s.range);
    return;
  }
  assign_target(*s.target, v, s.range);
}

void Checker::assign_target(Expr& target, const Value& v, const SourceRange& stmt_range) {
  if (target.kind == ExprKind::Name) {
    bind_name(target, v);
    return;
  }
  if (target.kind == ExprKind::Tuple) {
    if (v.is_error()) {
      for (ExprPtr& t : target.args) assign_target(*t, v, stmt_range);
      return;
    }
    if (v.kind != ValueKind::Tuple) {
      diag_.error(target.range, "cannot unpack " + describe(v) + " into " +
                                    std::to_string(target.args.size()) + " names");
      return;
    }
    if (v.elems.size() != target.args.size()) {
      diag_.error(target.range, fmt::format("cannot unpack a tuple of {} values into {} names", v.elems.size(),
                                            target.args.size()));
      return;
    }
    for (size_t i = 0; i < v.elems.size(); ++i) assign_target(*target.args[i], v.elems[i], stmt_range);
    target.value = v;
    return;
  }
  diag_.error(target.range, target.kind == ExprKind::Subscript
                                ? "tiles are values and cannot be assigned in place; build a new tile "
                                  "(for example with where()) or store() into an array"
                                : "cannot assign to this expression; assign to a name");
}

void Checker::bind_name(Expr& name, const Value& v) {
  if (!fn_) {
    diag_.error(name.range, "assignment outside a function");
    return;
  }
  if (find_builtin(name.name) || parse_dtype(name.name))
    diag_.warning(Warning::ShadowBuiltin, name.range, "'" + name.name + "' shadows a built-in name");
  if (!v.is_error() && (v.kind == ValueKind::Builtin || v.kind == ValueKind::Module || v.kind == ValueKind::Range)) {
    diag_.error(name.range, "cannot assign " + describe(v) + " to a variable");
    return;
  }
  if (const LocalVar* old = lookup_local(name.name); old && old->state == LocalVar::State::Assigned && !v.is_error()) {
    // Kernel arrays and dimension symbols describe the launch: read-only (docs §3.9). Any
    // other name holding an array keeps holding one.
    bool kernel_scope = !fn_->def && kernel_;
    bool dim = kernel_scope && std::any_of(kernel_->dims.begin(), kernel_->dims.end(),
                                           [&](const DimSymbol& d) { return d.name == name.name && d.var == old->id; });
    bool param = kernel_scope && std::any_of(kernel_->params.begin(), kernel_->params.end(), [&](const KernelParam& p) {
                   return p.name == name.name && p.is_array && p.var == old->id;
                 });
    if (dim || param || (old->value.kind == ValueKind::Array && v.kind != ValueKind::Array)) {
      Diagnostic& d = diag_.error(name.range, dim     ? "cannot assign to dimension symbol '" + name.name + "': it is read-only"
                                              : param ? "cannot assign to array parameter '" + name.name + "': it is read-only"
                                                      : "'" + name.name + "' holds an array; it cannot become " + describe(v));
      DiagnosticEngine::note(d, old->def, "'" + name.name + "' declared here");
      return;
    }
  }
  auto carried = fn_->carried.find(name.name);
  if (carried != fn_->carried.end() && !v.is_error() && !carried->second.first.is_error() &&
      !same_type(carried->second.first, v)) {
    auto [was, now] = describe_apart(carried->second.first, v);
    Diagnostic& d = diag_.error(name.range, "'" + name.name + "' is carried by the loop as " + was +
                                               "; it cannot become " + now);
    DiagnosticEngine::note(d, carried->second.second->range, "the loop starts here; a loop-carried value keeps its type");
  }
  // The other fields (an earlier explanation) stay as they were.
  const LocalVar* old = fn_->vars.find(name.name);
  LocalVar lv = old ? *old : LocalVar{};
  lv.state = LocalVar::State::Assigned;
  lv.id = var_id(name.name);
  lv.value = v;
  lv.def = name.range;
  fn_->vars.set(name.name, lv);
  name.var = lv.id;
  name.value = v;
}

bool Checker::check_if(Stmt& s) {
  Value c = check_expr(*s.value);
  if (!c.is_error() && !c.is_scalar()) {
    diag_.error(s.value->range, "an 'if' condition must be a scalar, not " + describe(c) +
                                    "; use where() to select between tiles");
    c = Value::error();
  }
  if (c.is_const()) {
    // A constant condition compiles only the branch taken, like C++ `if constexpr`.
    bool taken = scalar_truth(*c.constant, c.tile.dtype);
    return check_block(taken ? s.body : s.orelse);
  }
  // Each branch is checked in place and rolled back; what it assigned is kept aside, so that
  // joining the paths looks at those names only (the others are the same on both paths).
  using Assigned = std::map<std::string, LocalVar>;
  auto branch = [&](StmtList& body, Assigned& out) {
    LocalVars::Mark m = fn_->vars.open();
    bool done = check_block(body);
    for (const LocalVars::Changed& c : fn_->vars.changed_since(m)) out[c.name] = *fn_->vars.find(c.name);
    fn_->vars.rollback(m);
    return done;
  };
  Assigned after_then, after_else;
  bool then_done = branch(s.body, after_then);
  bool else_done = branch(s.orelse, after_else);

  // Paths that end in return/break/continue do not reach the code after the `if`.
  if (then_done && else_done) return true;
  if (then_done || else_done) {
    for (const auto& [n, lv] : then_done ? after_else : after_then) fn_->vars.set(n, lv);
  } else {
    std::set<std::string> names;
    for (auto& [n, v] : after_then) names.insert(n);
    for (auto& [n, v] : after_else) names.insert(n);
    for (const std::string& n : names) {
      // The variable at the end of each path: as the branch left it, else as before the `if`.
      auto at_end = [&](const Assigned& branch_vars) {
        auto it = branch_vars.find(n);
        return it != branch_vars.end() ? &it->second : fn_->vars.find(n);
      };
      const LocalVar* a = at_end(after_then);
      const LocalVar* b = at_end(after_else);
      if (!a || !b || a->state == LocalVar::State::MaybeUnassigned || b->state == LocalVar::State::MaybeUnassigned) {
        LocalVar lv = a ? *a : *b;
        lv.state = LocalVar::State::MaybeUnassigned;
        lv.why = "'" + n + "' is not assigned on every path through this 'if'";
        lv.why_at = s.range;
        fn_->vars.set(n, lv);
        continue;
      }
      LocalVar lv = *a;
      if (a->state == LocalVar::State::Conflict || b->state == LocalVar::State::Conflict) {
        lv = a->state == LocalVar::State::Conflict ? *a : *b;
      } else if (!same_type(a->value, b->value) && !a->value.is_error() && !b->value.is_error()) {
        lv.state = LocalVar::State::Conflict;
        auto [x, y] = describe_apart(a->value, b->value);
        lv.why = "'" + n + "' is " + x + " on one path through this 'if' and " + y + " on the other";
        if (a->value.kind == ValueKind::Array)
          lv.why += "; which array a name refers to must be known at compile time";
        lv.why_at = s.range;
      } else {
        lv.value = merge_values(a->value, b->value);
      }
      fn_->vars.set(n, lv);
    }
  }
  // Variables the IR must merge: assigned in a branch and defined after the `if`.
  std::set<std::string> assigned;
  StmtList* branches[] = {&s.body, &s.orelse};
  for (StmtList* b : branches) assigned_names(*b, assigned);
  s.carried.clear();
  for (const std::string& n : assigned) {
    const LocalVar* var = fn_->vars.find(n);
    if (var && var->state == LocalVar::State::Assigned) s.carried.push_back(var->id);
  }
  std::sort(s.carried.begin(), s.carried.end());
  return false;
}

void Checker::check_loop_body(Stmt& loop, StmtList& body, Expr* index_target, const Value* index_value) {
  std::set<std::string> assigned;
  assigned_names(body, assigned);
  if (index_target && index_target->kind == ExprKind::Name) assigned.erase(index_target->name);
  // The enclosing loops' carried names this loop overrides, to put back after it.
  std::vector<std::pair<std::string, std::optional<std::pair<Value, const Stmt*>>>> shadowed;
  loop.carried.clear();
  for (const std::string& n : assigned) {
    const LocalVar* var = fn_->vars.find(n);
    if (!var || var->state != LocalVar::State::Assigned) continue;
    LocalVar lv = *var;
    lv.value = runtime_value(lv.value);
    fn_->vars.set(n, lv);
    auto [it, fresh] = fn_->carried.try_emplace(n);
    shadowed.push_back({n, fresh ? std::nullopt : std::optional(it->second)});
    it->second = {lv.value, &loop};
    loop.carried.push_back(lv.id);
  }
  std::sort(loop.carried.begin(), loop.carried.end());
  LocalVars::Mark entry = fn_->vars.open();
  if (index_target) {
    if (index_target->kind != ExprKind::Name) diag_.error(index_target->range, "a loop index must be a single name");
    else bind_name(*index_target, *index_value);
  }
  ++fn_->loop_depth;
  check_block(body);
  --fn_->loop_depth;
  for (auto it = shadowed.rbegin(); it != shadowed.rend(); ++it) {
    if (it->second) fn_->carried[it->first] = *it->second;
    else fn_->carried.erase(it->first);
  }
  // After the loop: carried names keep their entry type; names first assigned inside it may
  // be unassigned (the loop can run zero times).
  const std::string* index_name =
      index_target && index_target->kind == ExprKind::Name ? &index_target->name : nullptr;
  std::vector<std::pair<std::string, LocalVar>> unassigned;
  auto may_be_unassigned = [&](const std::string& n, bool is_index) {
    LocalVar lv = *fn_->vars.find(n);
    lv.state = LocalVar::State::MaybeUnassigned;
    lv.why = is_index ? "the loop index '" + n + "' is not available after the loop"
                      : "'" + n + "' is assigned only inside the loop, which may run zero times";
    lv.why_at = loop.range;
    unassigned.push_back({n, lv});
  };
  for (const LocalVars::Changed& c : fn_->vars.changed_since(entry))
    if (!c.existed && !(index_name && c.name == *index_name)) may_be_unassigned(c.name, false);
  // The index is not carried, so a value it had before the loop is gone too.
  if (index_name && fn_->vars.find(*index_name)) may_be_unassigned(*index_name, true);
  fn_->vars.rollback(entry);
  for (const auto& [n, lv] : unassigned) fn_->vars.set(n, lv);
}

void Checker::check_for(Stmt& s) {
  Value it = Value::error();
  Value index = Value::error();
  if (s.value->kind == ExprKind::List)
    diag_.error(s.value->range, list_message(ListForm::ForIterable));
  else
    it = check_expr(*s.value);
  if (!it.is_error()) {
    if (it.kind != ValueKind::Range)
      diag_.error(s.value->range, "a 'for' loop iterates over range(...), not " + describe(it));
    else
      index = Value::make_scalar(it.tile.dtype);
  }
  check_loop_body(s, s.body, s.target.get(), &index);
}

namespace {

// A `break` of the loop whose body is `body`: in it or in its `if` branches, not in a loop
// nested inside (that one's own).
bool breaks_out(const StmtList& body) {
  for (const StmtPtr& s : body) {
    if (s->kind == StmtKind::Break) return true;
    if (s->kind == StmtKind::If && (breaks_out(s->body) || breaks_out(s->orelse))) return true;
  }
  return false;
}

// A `return` anywhere in `body`, nested loops included.
bool returns_somewhere(const StmtList& body) {
  for (const StmtPtr& s : body)
    if (s->kind == StmtKind::Return || returns_somewhere(s->body) || returns_somewhere(s->orelse)) return true;
  return false;
}

}  // namespace

bool Checker::check_while(Stmt& s) {
  // The condition is evaluated each iteration, with the carried values of the loop.
  std::set<std::string> assigned;
  assigned_names(s.body, assigned);
  LocalVars::Mark m = fn_->vars.open();
  for (const std::string& n : assigned)
    if (const LocalVar* var = fn_->vars.find(n)) {
      LocalVar lv = *var;
      lv.value = runtime_value(lv.value);
      fn_->vars.set(n, lv);
    }
  Value c = check_expr(*s.value);
  fn_->vars.rollback(m);
  if (!c.is_error() && !c.is_scalar())
    diag_.error(s.value->range, "a 'while' condition must be a scalar, not " + describe(c));
  check_loop_body(s, s.body, nullptr, nullptr);
  // `while True:` that no break leaves: the code after it is never reached. Without a return
  // either, the CTA never ends (the launch hangs): one warning for that, at the loop, rather
  // than a second one at the statement after it.
  bool endless = c.is_const() && scalar_truth(*c.constant, c.tile.dtype) && !breaks_out(s.body);
  if (endless && !returns_somewhere(s.body)) {
    diag_.warning(Warning::InfiniteLoop, SourceRange{s.range.file, s.range.begin, s.value->range.end},
                  "this loop never ends: its condition is always true and no 'break' or 'return' leaves it");
    return false;
  }
  return endless;
}

void Checker::check_return(Stmt& s) {
  Value v;
  if (s.value) {
    v = check_expr(*s.value);
  } else {
    v.kind = ValueKind::None;
  }
  if (!fn_->def) {
    if (s.value) diag_.error(s.value->range, "a kernel returns nothing; store() results into an array");
    return;
  }
  if (v.is_error()) {
    fn_->return_error = true;
    return;
  }
  if (fn_->returns.empty()) {
    fn_->first_return = s.range;
  } else if (!same_type(fn_->returns[0], v)) {
    auto [now, was] = describe_apart(v, fn_->returns[0]);
    Diagnostic& d = diag_.error(s.range, "this return gives " + now + ", but an earlier return gives " + was);
    DiagnosticEngine::note(d, fn_->first_return, "the earlier return");
    return;
  }
  fn_->returns.push_back(v);
}

void Checker::check_assert(Stmt& s) {
  Value c = check_expr(*s.value);
  if (!c.is_error() && c.kind != ValueKind::Tile)
    diag_.error(s.value->range, "an assert condition must be a tile or scalar, not " + describe(c));
  if (s.message) {
    Value m = check_expr(*s.message);
    if (!m.is_error() && m.kind != ValueKind::String)
      diag_.error(s.message->range, "an assert message must be a string literal");
  }
  if (c.is_const() && !scalar_truth(*c.constant, c.tile.dtype))
    diag_.warning(Warning::AssertAlwaysFails, s.value->range, "this assert always fails; use static_assert for compile-time checks");
}

Value Checker::inline_helper(const Stmt& def, Expr& call) {
  if (bad_helpers_.count(&def)) return Value::error();  // its signature was reported already
  if (std::find(call_stack_.begin(), call_stack_.end(), &def) != call_stack_.end()) {
    Diagnostic& d = diag_.error(call.range, "recursive call of '" + def.name + "': helper functions are inlined, so recursion is not allowed");
    DiagnosticEngine::note(d, def.range, "'" + def.name + "' defined here");
    return Value::error();
  }
  if (call_stack_.size() >= 64) {
    diag_.error(call.range, "helper calls nested more than 64 deep");
    return Value::error();
  }
  if (++inlined_calls_ > kMaxInlinedCalls) {
    if (inlined_calls_ == kMaxInlinedCalls + 1)
      diag_.error(call.range, fmt::format("more than {} helper calls are inlined into kernel '{}'; each call is a "
                                          "copy of the helper, so calls that double at every level grow "
                                          "exponentially",
                                          kMaxInlinedCalls, kernel_ ? kernel_->name : std::string("?")));
    return Value::error();
  }
  // Bind arguments: positional, then keywords, then defaults (evaluated among module names).
  std::vector<Expr*> slots(def.params.size(), nullptr);
  bool ok = true;
  size_t npos = call.args.size() - 1;
  if (npos > def.params.size()) {
    diag_.error(call.args[def.params.size() + 1]->range,
                fmt::format("'{}' takes {} arguments, but {} were given", def.name, def.params.size(), npos));
    return Value::error();
  }
  for (size_t i = 0; i < npos; ++i) slots[i] = call.args[i + 1].get();
  for (Keyword& k : call.kwargs) {
    auto p = std::find_if(def.params.begin(), def.params.end(), [&](const Param& q) { return q.name == k.name; });
    if (p == def.params.end()) {
      Diagnostic& d = diag_.error(k.name_range, "'" + def.name + "' has no parameter named '" + k.name + "'");
      DiagnosticEngine::note(d, def.range, "'" + def.name + "' defined here");
      ok = false;
      continue;
    }
    size_t i = size_t(p - def.params.begin());
    if (slots[i]) {
      diag_.error(k.name_range, "argument '" + k.name + "' given twice");
      ok = false;
      continue;
    }
    slots[i] = k.value.get();
  }
  std::vector<Value> values(def.params.size());
  for (size_t i = 0; i < def.params.size(); ++i) {
    if (slots[i]) {
      values[i] = slots[i]->value;
    } else if (!def.params[i].default_value) {
      Diagnostic& d = diag_.error(call.range, "missing argument '" + def.params[i].name + "' in call of '" + def.name + "'");
      DiagnosticEngine::note(d, def.params[i].range, "parameter declared here");
      ok = false;
    }
  }
  if (!ok) return Value::error();
  for (const Value& v : values)
    if (slots[&v - values.data()] && v.is_error()) return Value::error();

  // Check a fresh copy of the helper's body with the arguments bound.
  std::shared_ptr<Stmt> copy(clone(def).release());
  FunctionScope fn;
  fn.def = &def;
  FunctionScope* saved_fn = fn_;
  bool saved_grid = in_grid_;
  in_grid_ = false;
  // Names in a helper (its defaults too) resolve in the helper's own module.
  ModuleScope* saved_module = module_;
  for (auto& ms : scopes_)
    if (ms->ast && ms->ast->file == def.range.file) module_ = ms.get();
  fn_ = nullptr;
  for (size_t i = 0; i < def.params.size(); ++i)
    if (!slots[i]) values[i] = check_expr(*copy->params[i].default_value);
  fn_ = &fn;
  call_stack_.push_back(&def);
  diag_.push_context(call.range, "in this call of '" + def.name + "'");
  for (size_t i = 0; i < def.params.size(); ++i) {
    Expr name(ExprKind::Name, copy->params[i].range);
    name.name = copy->params[i].name;
    bind_name(name, values[i]);
    copy->params[i].var = name.var;
  }
  bool returns_always = check_block(copy->body);
  diag_.pop_context();
  in_grid_ = saved_grid;
  module_ = saved_module;
  call_stack_.pop_back();
  fn_ = saved_fn;
  call.inlined = copy;
  // Falling off the end returns nothing, which cannot agree with a `return value`.
  if (!returns_always && !fn.returns.empty() && fn.returns[0].kind != ValueKind::None) {
    Diagnostic& d = diag_.error(def.range, "'" + def.name + "' returns a value on some paths but not at the end of its body");
    DiagnosticEngine::note(d, fn.first_return, "a value is returned here");
    return Value::error();
  }
  if (fn.return_error) return Value::error();  // reported inside; not "returns None"
  if (fn.returns.empty()) {
    Value none;
    none.kind = ValueKind::None;
    return none;
  }
  Value result = fn.returns[0];
  for (const Value& r : fn.returns) result = merge_values(result, r);
  return result;
}

}  // namespace tilec
