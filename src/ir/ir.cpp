// Tile IR: the op table, the builder, the printer and the verifier.
#include "ir/ir.h"

#include <cmath>
#include <map>
#include <set>
#include <unordered_set>

#include <fmt/format.h>

#include "basic/consteval.h"
#include "basic/kernel_options.h"
#include "basic/diagnostics.h"

namespace tilec::ir {
namespace {

struct OpInfo {
  const char* name;
  int arity;
};

constexpr OpInfo kOps[] = {
#define X(e, name, n) {name, n},
    TILEC_IR_OPS(X)
#undef X
};

}  // namespace

const char* combine_name(Combine c) {
  static const char* kNames[] = {"sum", "prod", "max", "min", "argmax", "argmin"};
  return kNames[int(c)];
}

const char* atomic_name(AtomicOp a) {
  static const char* kNames[] = {"add", "max", "min", "and", "or", "xor", "xchg", "cas"};
  return kNames[int(a)];
}

int element_values(const Op& op) {
  if (op.kind == OpKind::Gather) return 0;
  return op.kind == OpKind::Atomic && op.atomic == AtomicOp::Cas ? 2 : 1;
}

bool has_mask(const Op& op) {
  size_t rank = op.operands.empty() || !op.operands[0]->type.is_array ? 0 : op.operands[0]->type.array->dims.size();
  return op.operands.size() > 1 + size_t(element_values(op)) + rank;
}

size_t first_index(const Op& op) { return op.kind == OpKind::Store ? 2 : 1; }

bool has_bound(const Op& op) {
  if (op.kind != OpKind::Load && op.kind != OpKind::Store) return false;
  size_t rank = op.operands.empty() || !op.operands[0]->type.is_array ? 0 : op.operands[0]->type.array->dims.size();
  return rank > 0 && op.operands.size() == first_index(op) + 2 * rank;
}

Value* bound_operand(const Op& op, size_t axis) {
  return op.operands[first_index(op) + op.operands[0]->type.array->dims.size() + axis];
}

const char* op_name(OpKind k) { return kOps[int(k)].name; }

int dimension_index(const Function& fn, const Value* v) {
  // The builder names each extent argument after its symbol (ir/build.cpp).
  if (v->def || v->owner != &fn.body) return -1;
  return fn.sig.dim_index(v->name);
}
bool bound_is_extent(const Function& fn, const Op& op, size_t axis) {
  int d = dimension_index(fn, bound_operand(op, axis));
  return d >= 0 && fn.sig.dims[size_t(d)].name == op.operands[0]->type.array->dims[axis].symbol;
}
int op_arity(OpKind k) { return kOps[int(k)].arity; }

bool is_unary_elementwise(OpKind k) { return k >= OpKind::Neg && k <= OpKind::IsNan; }
bool is_binary_elementwise(OpKind k) { return k >= OpKind::Add && k <= OpKind::Cmp; }
std::optional<MathFunction> math_function(OpKind k) {
  switch (k) {
#define X(e, name, extra) \
  case OpKind::e: return MathFunction::e;
    TILEC_MATH_FUNCTIONS(X, _)
#undef X
    default: return std::nullopt;
  }
}

bool is_terminator(OpKind k) {
  return k == OpKind::Yield || k == OpKind::Break || k == OpKind::Continue || k == OpKind::Return;
}

bool is_elementwise(OpKind k) {
  return is_unary_elementwise(k) || is_binary_elementwise(k) || k == OpKind::Select || k == OpKind::Fma ||
         k == OpKind::Cast || k == OpKind::Bitcast;
}

std::string Type::str() const {
  if (!is_array) return tile.str();
  std::string s = "array<" + std::string(dtype_name(array->dtype)) + "[";
  for (size_t i = 0; i < array->dims.size(); ++i) {
    const ArrayDim& d = array->dims[i];
    s += (i ? ", " : "") + (d.symbol.empty() ? std::to_string(d.constant) : d.symbol);
  }
  return s + "]>";
}

// ---------------------------------------------------------------------------------------------
// Builder

void copy_attributes(const Op& from, Op& to) {
  to.dtype = from.dtype;
  to.value = from.value;
  to.shape = from.shape;
  to.order = from.order;
  to.axis = from.axis;
  to.pred = from.pred;
  to.approx = from.approx;
  to.offsets = from.offsets;
  to.combine = from.combine;
  to.atomic = from.atomic;
  to.text = from.text;
}

Op* Builder::create(OpKind k, SourceRange loc, std::vector<Value*> operands, std::vector<Type> results) {
  auto op = std::make_unique<Op>(k, loc);
  op->operands = std::move(operands);
  op->parent = block_;
  for (size_t i = 0; i < results.size(); ++i) {
    Value* v = f_.new_value(results[i]);
    v->def = op.get();
    v->index = int(i);
    op->results.push_back(v);
  }
  Op* raw = op.get();
  block_->ops.insert(before_, std::move(op));
  return raw;
}

Value* Builder::constant(DType d, Scalar v, SourceRange loc) {
  Op* op = create(OpKind::Constant, loc, {}, {Type::scalar(d)});
  op->dtype = d;
  op->value = v;
  return op->result();
}

Value* Builder::unary(OpKind k, Value* a, SourceRange loc) {
  Type t = a->type;
  if (k == OpKind::IsNan) t.tile.dtype = DType::Bool;
  return create(k, loc, {a}, {t})->result();
}

Value* Builder::binary(OpKind k, Value* a, Value* b, SourceRange loc) {
  return create(k, loc, {a, b}, {a->type})->result();
}

Value* Builder::cmp(tilec::Op pred, Value* a, Value* b, SourceRange loc) {
  Type t = a->type;
  t.tile.dtype = DType::Bool;
  Op* op = create(OpKind::Cmp, loc, {a, b}, {t});
  op->pred = pred;
  return op->result();
}

Value* Builder::cast(Value* a, DType d, SourceRange loc) {
  if (a->type.tile.dtype == d) return a;
  // Casting a constant makes a new constant (the folder would do it anyway).
  if (a->def && a->def->kind == OpKind::Constant)
    return constant(d, convert_scalar(a->def->value, a->type.tile.dtype, d), loc);
  Type t = a->type;
  t.tile.dtype = d;
  Op* op = create(OpKind::Cast, loc, {a}, {t});
  op->dtype = d;
  return op->result();
}

Value* Builder::broadcast_to(Value* a, const std::vector<int64_t>& shape, SourceRange loc) {
  const std::vector<int64_t>& in = a->type.tile.shape;
  if (in == shape) return a;
  if (in.empty()) {
    Op* op = create(OpKind::Splat, loc, {a}, {Type::tile_of(a->type.tile.dtype, shape)});
    op->shape = shape;
    return op->result();
  }
  Value* v = a;
  if (in.size() < shape.size()) {
    std::vector<int64_t> padded(shape.size() - in.size(), 1);
    padded.insert(padded.end(), in.begin(), in.end());
    Op* r = create(OpKind::Reshape, loc, {v}, {Type::tile_of(a->type.tile.dtype, padded)});
    r->shape = padded;
    v = r->result();
    if (padded == shape) return v;
  }
  Op* op = create(OpKind::Broadcast, loc, {v}, {Type::tile_of(a->type.tile.dtype, shape)});
  op->shape = shape;
  return op->result();
}

Block* Builder::new_block(Op* parent) {
  parent->regions.push_back(std::make_unique<Block>());
  parent->regions.back()->parent = parent;
  return parent->regions.back().get();
}

Value* Builder::block_arg(Block* b, Type t) {
  Value* v = f_.new_value(std::move(t));
  v->owner = b;
  v->index = int(b->args.size());
  b->args.push_back(v);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Clone

namespace {

class Cloner {
 public:
  Cloner(const Function& from, Function& to) : to_(to), map_(from.values.size(), nullptr) {
    to.values.reserve(from.values.size());
  }

  Value* value(const Value* v) {
    Value* c = map_.at(v->id);
    TILEC_ASSERT(c, "clone: a value is used before its definition");
    return c;
  }
  Type type(Type t) const {
    if (t.is_array) t.array = arrays_.at(t.array);
    return t;
  }
  void block(const Block& from, Block& into, Op* parent) {
    into.parent = parent;
    for (const Value* a : from.args) {
      Value* v = to_.new_value(type(a->type));
      v->owner = &into;
      v->index = a->index;
      v->name = a->name;
      into.args.push_back(v);
      map_.at(a->id) = v;
    }
    for (const auto& op : from.ops) {
      auto c = std::make_unique<Op>(op->kind, op->loc);
      // The clone test in tests/unit/ir compares printed forms.
      copy_attributes(*op, *c);
      c->parent = &into;
      // Sized once: growing them one push at a time left small freed blocks between the
      // clone's ops, which made every later walk over a large clone slower (issue 35).
      c->operands.reserve(op->operands.size());
      c->results.reserve(op->results.size());
      for (const Value* o : op->operands) c->operands.push_back(value(o));
      for (const Value* old : op->results) {
        Value* r = to_.new_value(type(old->type));
        r->def = c.get();
        r->index = old->index;
        r->name = old->name;
        map_.at(old->id) = r;
        c->results.push_back(r);
      }
      for (const auto& region : op->regions) {
        c->regions.push_back(std::make_unique<Block>());
        block(*region, *c->regions.back(), c.get());
      }
      into.ops.push_back(std::move(c));
    }
  }
  std::map<const ArrayParam*, const ArrayParam*> arrays_;

 private:
  Function& to_;
  std::vector<Value*> map_;  ///< by the original's Value::id
};

}  // namespace

std::unique_ptr<Function> clone(const Function& f) {
  auto out = std::make_unique<Function>();
  out->name = f.name;
  Signature& s = out->sig;
  s.name = f.sig.name;
  s.doc = f.sig.doc;
  s.range = f.sig.range;
  s.dims = f.sig.dims;
  s.grid = f.sig.grid;
  s.options = f.sig.options;
  s.split = f.sig.split;
  s.config = f.sig.config;
  Cloner c(f, *out);
  for (const auto& a : f.sig.arrays) {
    s.arrays.push_back(std::make_unique<ArrayParam>(*a));
    c.arrays_[a.get()] = s.arrays.back().get();
  }
  s.params = f.sig.params;
  for (Param& p : s.params)
    if (p.array) p.array = c.arrays_.at(p.array);
  c.block(f.body, out->body, nullptr);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Printer

namespace {

std::string scalar_text(DType d, Scalar s) {
  if (is_float(d) || is_restricted(d)) {
    if (std::isnan(s.f)) return "nan";
    if (std::isinf(s.f)) return s.f < 0 ? "-inf" : "inf";
    for (int prec = 1; prec <= 17; ++prec) {
      std::string t = fmt::format("{:.{}g}", s.f, prec);
      if (std::strtod(t.c_str(), nullptr) == s.f) return t.find_first_of(".e") == std::string::npos ? t + ".0" : t;
    }
  }
  if (d == DType::Bool) return s.i ? "true" : "false";
  if (is_unsigned_int(d)) return std::to_string(uint64_t(s.i));
  return std::to_string(s.i);
}

std::string ints_text(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

class Printer {
 public:
  std::string out;
  const PrintNotes* notes = nullptr;

  // Load and Store: "[%i, %j]", then " bound [%e, %n]" for a bounded access.
  std::string indices_text(const Op& op) {
    size_t first = first_index(op), rank = op.operands[0]->type.array->dims.size();
    auto list = [&](size_t from) {
      std::string t = "[";
      for (size_t i = 0; i < rank; ++i) t += (i ? ", " : "") + name(op.operands[from + i]);
      return t + "]";
    };
    return list(first) + (has_bound(op) ? " bound " + list(first + rank) : "");
  }

  std::string name(const Value* v) {
    auto it = names_.find(v);
    if (it != names_.end()) return it->second;
    std::string n = v->name.empty() ? "%" + std::to_string(next_++) : "%" + v->name;
    names_[v] = n;
    return n;
  }

  void block(const Block& b, int depth) {
    for (const auto& op : b.ops) this->op(*op, depth);
  }

  void op(const Op& op, int depth) {
    std::string ind(size_t(depth) * 2, ' ');
    ValueName namer = [this](const Value* v) { return name(v); };
    if (notes && notes->before)
      for (const std::string& line : notes->before(op, namer)) out += ind + line + "\n";
    out += ind;
    if (!op.results.empty()) {
      for (size_t i = 0; i < op.results.size(); ++i) out += (i ? ", " : "") + name(op.results[i]);
      out += " = ";
    }
    out += op_name(op.kind);
    auto operands = [&](size_t from) {
      for (size_t i = from; i < op.operands.size(); ++i) out += (i > from ? ", " : " ") + name(op.operands[i]);
    };
    switch (op.kind) {
      case OpKind::Constant: out += " " + scalar_text(op.dtype, op.value); break;
      case OpKind::Iota: break;
      case OpKind::BlockId:
      case OpKind::NumBlocks: out += " " + std::to_string(op.axis); break;
      case OpKind::Reduce:
        out += std::string(" ") + combine_name(op.combine) + " " + name(op.operands[0]) + " axis " + std::to_string(op.axis);
        break;
      case OpKind::Cmp: out += std::string(" ") + op_spelling(op.pred); operands(0); break;
      case OpKind::Permute: operands(0); out += " order " + ints_text(op.order); break;
      case OpKind::Scan:
        out += std::string(" ") + combine_name(op.combine) + " " + name(op.operands[0]) + " axis " + std::to_string(op.axis);
        break;
      case OpKind::Cat: operands(0); out += " axis " + std::to_string(op.axis); break;
      case OpKind::Histogram:
        out += " " + name(op.operands[0]);
        if (op.operands.size() > 1) out += " mask " + name(op.operands[1]);
        break;
      case OpKind::Extract: operands(0); out += " index " + ints_text(op.order); break;
      case OpKind::Gather:
      case OpKind::Scatter:
      case OpKind::Atomic: {
        // gather %a[%i, %j] mask %m padding 0; scatter %v, %a[%i]; atomic add %v, %a[%i]
        size_t values = size_t(element_values(op)), first = 1 + values;
        size_t last = op.operands.size() - (has_mask(op) ? 1 : 0);
        if (op.kind == OpKind::Atomic) out += std::string(" ") + atomic_name(op.atomic);
        for (size_t i = 1; i <= values; ++i) out += (i > 1 ? ", " : " ") + name(op.operands[i]);
        out += (values ? ", " : " ") + name(op.operands[0]) + "[";
        for (size_t i = first; i < last; ++i) out += (i > first ? ", " : "") + name(op.operands[i]);
        out += "]";
        if (has_mask(op)) out += " mask " + name(op.operands.back());
        if (op.kind == OpKind::Gather) out += " padding " + scalar_text(op.results[0]->type.tile.dtype, op.value);
        break;
      }
      case OpKind::Load: {
        // load %a[%i, %j] (tile indices); load %a at [%r, %c] (element offsets)
        out += " " + name(op.operands[0]) + (op.offsets ? " at " : "") + indices_text(op);
        if (!op.order.empty()) out += " order " + ints_text(op.order);
        out += " padding " + scalar_text(op.results[0]->type.tile.dtype, op.value);
        break;
      }
      case OpKind::Store: {
        out += " " + name(op.operands[1]) + ", " + name(op.operands[0]) + (op.offsets ? " at " : "") + indices_text(op);
        if (!op.order.empty()) out += " order " + ints_text(op.order);
        break;
      }
      case OpKind::For: {
        const Block& body = *op.regions[0];
        out += " " + name(body.args[0]) + " = " + name(op.operands[0]) + " to " + name(op.operands[1]) + " step " +
               name(op.operands[2]);
        if (op.operands.size() > 3) {
          out += " iter(";
          for (size_t i = 3; i < op.operands.size(); ++i)
            out += (i > 3 ? ", " : "") + name(body.args[i - 2]) + " = " + name(op.operands[i]);
          out += ")";
        }
        out += " {\n";
        block(body, depth + 1);
        out += ind + "}";
        break;
      }
      case OpKind::While: {
        const Block& cond = *op.regions[0];
        const Block& body = *op.regions[1];
        out += " iter(";
        for (size_t i = 0; i < op.operands.size(); ++i)
          out += (i ? ", " : "") + name(cond.args[i]) + " = " + name(op.operands[i]);
        out += ") {\n";
        block(cond, depth + 1);
        out += ind + "} do (";
        for (size_t i = 0; i < body.args.size(); ++i) out += (i ? ", " : "") + name(body.args[i]);
        out += ") {\n";
        block(body, depth + 1);
        out += ind + "}";
        break;
      }
      case OpKind::If: {
        operands(0);
        out += " {\n";
        block(*op.regions[0], depth + 1);
        out += ind + "} else {\n";
        block(*op.regions[1], depth + 1);
        out += ind + "}";
        break;
      }
      case OpKind::Assert:
      case OpKind::Print: {
        std::string q = "\"";
        for (char ch : op.text) q += ch == '"' || ch == '\\' ? std::string("\\") + ch : ch == '\n' ? std::string("\\n") : std::string(1, ch);
        out += " " + q + "\"";
        operands(0);
        break;
      }
      default: operands(0); break;
    }
    if (op.approx) out += " approx";
    if (!op.results.empty()) {
      out += " : ";
      for (size_t i = 0; i < op.results.size(); ++i) out += (i ? ", " : "") + op.results[i]->type.str();
    }
    if (notes && notes->annotation) out += notes->annotation(op, namer);
    out += "\n";
    if (notes && notes->after)
      for (const std::string& line : notes->after(op, namer)) out += ind + line + "\n";
  }

  /// The names of a printer that has printed the whole function (print with notes).
  void take_names(const Printer& other) {
    names_ = other.names_;
    next_ = other.next_;
  }

 private:
  std::map<const Value*, std::string> names_;
  int next_ = 0;
};

std::string print_with(const Function& f, Printer& p) {
  p.out = "kernel @" + f.name + "(";
  for (size_t i = 0; i < f.body.args.size(); ++i)
    p.out += (i ? ", " : "") + p.name(f.body.args[i]) + ": " + f.body.args[i]->type.str();
  p.out += ")";
  // The grid and the launch options the source gives (the lowered form adds the chosen ones).
  if (!f.sig.grid.empty()) {
    p.out += " grid(";
    for (size_t i = 0; i < f.sig.grid.size(); ++i) p.out += (i ? ", " : "") + grid_text(f.sig, f.sig.grid[i]);
    p.out += ")";
  }
  // The options as written: the counts (by_target as written), then the flags.
  const LaunchOptions& o = f.sig.options;
  for (const KernelOptionInfo& info : kernel_options()) {
    int v = o.*info.field;
    if (info.type != OptionType::Count) continue;
    std::vector<std::string> per_arch;
    for (const TargetValue& t : o.by_target)
      if (t.option == info.name) per_arch.push_back(fmt::format("{}={}", t.arch, t.value));
    if (!per_arch.empty()) {
      if (v) per_arch.push_back(fmt::format("default={}", v));
      p.out += fmt::format(" {}=by_target({})", info.name, fmt::join(per_arch, ", "));
    } else if (v) {
      p.out += fmt::format(" {}={}", info.name, v);
    }
  }
  for (const KernelOptionInfo& info : kernel_options())
    if (info.type == OptionType::Flag && o.*info.field >= 0)
      p.out += fmt::format(" {}={}", info.name, o.*info.field ? "True" : "False");
  p.out += " {\n";
  p.block(f.body, 1);
  p.out += "}\n";
  return p.out;
}

}  // namespace

std::string print(const Function& f) {
  Printer p;
  return print_with(f, p);
}

std::string print(const Function& f, const PrintNotes& notes) {
  // A first pass names every value in program order; the notes may then name values that
  // their op's line comes before (a loop's prologue names the loads of its body).
  Printer names;
  print_with(f, names);
  Printer p;
  p.take_names(names);
  p.notes = &notes;
  return print_with(f, p);
}

// ---------------------------------------------------------------------------------------------
// Verifier

namespace {

class Verifier {
 public:
  std::string error;

  void fail(const Op& op, const std::string& msg) {
    if (error.empty()) error = std::string(op_name(op.kind)) + ": " + msg;
  }

  // Checks `b`; the values visible in it are those of the enclosing blocks up to its parent
  // op, then its arguments and its ops' results. They are added to one set and taken out again
  // when the block ends, rather than copying the set into every region (quadratic in a kernel
  // of many small regions).
  void block(const Block& b, bool needs_yield, size_t yields) {
    size_t mark = defined_.size();
    bool complete = ops(b);
    for (; defined_.size() > mark; defined_.pop_back()) visible_.erase(defined_.back());
    if (complete && needs_yield) check_yield(b, yields);
  }

  void define(const Value* v) {
    if (visible_.insert(v).second) defined_.push_back(v);
  }

  // False when an op's counts are wrong (the rest of the block is not checked).
  bool ops(const Block& b) {
    for (const Value* a : b.args) define(a);
    for (auto it = b.ops.begin(); it != b.ops.end(); ++it) {
      const Op& op = **it;
      if (op.parent != &b) fail(op, "parent pointer does not match its block");
      if (!counts(op)) return false;  // the checks below index operands, results and regions
      for (const Value* v : op.operands)
        if (!visible_.count(v)) fail(op, "uses a value that does not dominate it");
      if (is_terminator(op.kind) && std::next(it) != b.ops.end())
        fail(op, "a terminator must be the last op of its block");
      check(op);
      if (op.kind == OpKind::For) block(*op.regions[0], true, op.results.size());
      if (op.kind == OpKind::While) {
        block(*op.regions[0], true, 1);
        block(*op.regions[1], true, op.results.size());
      }
      if (op.kind == OpKind::If)
        for (auto& r : op.regions) block(*r, !op.results.empty(), op.results.size());
      for (const Value* r : op.results) define(r);
    }
    return true;
  }

  // The end of a region that produces values.
  void check_yield(const Block& b, size_t yields) {
    // A block that leaves early (break, continue, return) yields nothing.
    bool leaves = !b.ops.empty() && is_terminator(b.ops.back()->kind) && b.ops.back()->kind != OpKind::Yield;
    if (!leaves) {
      if (b.ops.empty() || b.ops.back()->kind != OpKind::Yield) {
        if (error.empty()) error = "region does not end with yield";
      } else if (b.ops.back()->operands.size() != yields) {
        fail(*b.ops.back(), fmt::format("yields {} values, the parent has {} results", b.ops.back()->operands.size(), yields));
      } else if (b.parent && b.parent->kind == OpKind::While && &b == b.parent->regions[0].get()) {
        if (!(b.ops.back()->operands[0]->type == Type::scalar(DType::Bool))) fail(*b.ops.back(), "a while condition must yield a bool scalar");
      } else if (b.parent) {
        for (size_t i = 0; i < yields; ++i)
          if (!(b.ops.back()->operands[i]->type == b.parent->results[i]->type))
            fail(*b.ops.back(), "yielded type differs from the parent's result type");
      }
    }
  }

  // Operand, result, region and block argument counts: false (with the error) when one is wrong.
  bool counts(const Op& op) {
    int arity = op_arity(op.kind);
    if (arity >= 0 && int(op.operands.size()) != arity) {
      fail(op, fmt::format("expects {} operands, has {}", arity, op.operands.size()));
      return false;
    }
    if (op.kind == OpKind::For && op.operands.size() < 3) {
      fail(op, "needs a lower bound, an upper bound and a step");
      return false;
    }
    size_t regions = op.kind == OpKind::For ? 1 : (op.kind == OpKind::If || op.kind == OpKind::While) ? 2 : 0;
    if (op.regions.size() != regions) {
      fail(op, fmt::format("needs {} regions, has {}", regions, op.regions.size()));
      return false;
    }
    // An `if` has as many results as its regions yield; every other op a fixed number.
    size_t results = 1;
    if (op.kind == OpKind::Store || is_terminator(op.kind) || op.kind == OpKind::Assert || op.kind == OpKind::Print ||
        op.kind == OpKind::Scatter)
      results = 0;
    if (op.kind == OpKind::While) results = op.operands.size();
    if (op.kind == OpKind::For) results = op.operands.size() - 3;
    if (op.kind != OpKind::If && op.results.size() != results) {
      fail(op, fmt::format("expects {} results, has {}", results, op.results.size()));
      return false;
    }
    if (op.kind == OpKind::For && op.regions[0]->args.size() != op.operands.size() - 2) {
      fail(op, "body arguments do not match the iteration values");
      return false;
    }
    return true;
  }

  // Gather, scatter, atomics: an array, value tiles of its dtype, one integer index per
  // dimension, an optional bool mask; all tiles of one shape.
  void element_memory(const Op& op) {
    if (!op.operands[0]->type.is_array) return fail(op, "first operand is not an array");
    const ArrayParam* arr = op.operands[0]->type.array;
    size_t values = size_t(element_values(op)), first = 1 + values;
    size_t last = first + arr->dims.size();
    if (op.operands.size() != last && op.operands.size() != last + 1)
      return fail(op, fmt::format("needs {} index operands", arr->dims.size()));
    const std::vector<int64_t>& shape = op.kind == OpKind::Scatter ? op.operands[1]->type.tile.shape
                                                                  : op.results[0]->type.tile.shape;
    for (size_t i = 1; i < op.operands.size(); ++i) {
      const Value* v = op.operands[i];
      if (v->type.is_array || v->type.tile.shape != shape) return fail(op, "tile operands differ in shape");
      if (i < first && v->type.tile.dtype != arr->dtype) fail(op, "a value's dtype is not the array's");
      if (i >= first && i < last && !is_integer(v->type.tile.dtype)) fail(op, "an index is not an integer tile");
      if (i == last && v->type.tile.dtype != DType::Bool) fail(op, "the mask is not bool");
    }
    if (op.kind != OpKind::Scatter && op.results[0]->type.tile.dtype != arr->dtype) fail(op, "result dtype");
  }

  void tile_memory(const Op& op) {
    if (op.operands.empty() || !op.operands[0]->type.is_array) return fail(op, "first operand is not an array");
    size_t first = first_index(op), rank = op.operands[0]->type.array->dims.size();
    if (op.operands.size() != first + rank && !has_bound(op))
      return fail(op, fmt::format("needs {} index operands, and as many bounds or none", rank));
    for (size_t i = first; i < op.operands.size(); ++i)
      if (op.operands[i]->type.is_array || !op.operands[i]->type.is_scalar() ||
          !is_integer(op.operands[i]->type.tile.dtype))
        return fail(op, "an index or bound is not an integer scalar");
  }

  void check(const Op& op) {
    auto same = [&](const Value* a, const Value* b) {
      if (!(a->type == b->type)) fail(op, "operand types differ: " + a->type.str() + " and " + b->type.str());
    };
    if (is_binary_elementwise(op.kind)) {
      same(op.operands[0], op.operands[1]);
      if (op.kind != OpKind::Cmp) same(op.operands[0], op.results[0]);
    }
    if (is_unary_elementwise(op.kind) && op.kind != OpKind::IsNan) same(op.operands[0], op.results[0]);
    if (op.kind == OpKind::Select) {
      same(op.operands[1], op.operands[2]);
      if (op.operands[0]->type.tile.dtype != DType::Bool) fail(op, "condition is not bool");
      if (op.operands[0]->type.tile.shape != op.results[0]->type.tile.shape) fail(op, "condition shape differs");
    }
    if (op.kind == OpKind::Broadcast) {
      const auto &in = op.operands[0]->type.tile.shape, &outs = op.results[0]->type.tile.shape;
      if (in.size() != outs.size()) fail(op, "rank changes");
      for (size_t i = 0; i < in.size() && i < outs.size(); ++i)
        if (in[i] != outs[i] && in[i] != 1) fail(op, "stretches a dimension that is not 1");
    }
    if (op.kind == OpKind::Permute) {
      const auto& in = op.operands[0]->type.tile.shape;
      std::vector<int64_t> want;
      for (int64_t o : op.order) want.push_back(o >= 0 && o < int64_t(in.size()) ? in[size_t(o)] : -1);
      if (want != op.results[0]->type.tile.shape) fail(op, "result shape is not the permuted operand shape");
    }
    if (op.kind == OpKind::Reshape &&
        op.operands[0]->type.tile.numel() != op.results[0]->type.tile.numel())
      fail(op, "changes the element count");
    if (op.kind == OpKind::Mma) {
      const auto &a = op.operands[0]->type.tile.shape, &b = op.operands[1]->type.tile.shape,
                 &c = op.operands[2]->type.tile.shape;
      if (a.size() != 2 || b.size() != 2 || c.size() != 2 || a[1] != b[0] || c[0] != a[0] || c[1] != b[1])
        fail(op, "shapes are not (M, K) @ (K, N) + (M, N)");
      same(op.operands[2], op.results[0]);
    }
    if (op.kind == OpKind::Reduce) {
      std::vector<int64_t> s = op.operands[0]->type.tile.shape;
      if (op.axis < 0 || op.axis >= int(s.size())) fail(op, "axis out of range");
      else s.erase(s.begin() + op.axis);
      if (s != op.results[0]->type.tile.shape) fail(op, "result shape is not the operand's without the axis");
      bool arg = op.combine == Combine::Argmax || op.combine == Combine::Argmin;
      if (arg ? op.results[0]->type.tile.dtype != DType::I32
              : op.results[0]->type.tile.dtype != op.operands[0]->type.tile.dtype)
        fail(op, "result dtype");
    }
    if (op.kind == OpKind::Load || op.kind == OpKind::Store) tile_memory(op);
    if (op.kind == OpKind::Gather || op.kind == OpKind::Scatter || op.kind == OpKind::Atomic) element_memory(op);
    if (op.kind == OpKind::Scan) {
      same(op.operands[0], op.results[0]);
      if (op.axis < 0 || op.axis >= op.operands[0]->type.tile.rank()) fail(op, "axis out of range");
      if (op.combine != Combine::Sum && op.combine != Combine::Prod) fail(op, "a scan sums or multiplies");
    }
    if (op.kind == OpKind::Histogram) {
      const Type& r = op.results[0]->type;
      if (op.operands.empty() || op.operands.size() > 2 || !is_integer(op.operands[0]->type.dtype()) ||
          op.operands[0]->type.is_array)
        fail(op, "operands are not an integer tile and an optional mask");
      else if (op.operands.size() == 2 && !(op.operands[1]->type ==
                                             Type::tile_of(DType::Bool, op.operands[0]->type.tile.shape)))
        fail(op, "the mask is not a bool tile of the indices' shape");
      if (r.is_array || r.tile.dtype != DType::I32 || r.tile.shape != op.shape || op.shape.size() != 1)
        fail(op, "result is not the i32 counts of `shape`");
    }
    if (op.kind == OpKind::Cat) {
      same(op.operands[0], op.operands[1]);
      std::vector<int64_t> s = op.operands[0]->type.tile.shape;
      if (op.axis < 0 || op.axis >= int(s.size())) fail(op, "axis out of range");
      else s[size_t(op.axis)] *= 2;
      if (s != op.results[0]->type.tile.shape) fail(op, "result shape is not the operands' doubled along the axis");
    }
    if (op.kind == OpKind::Extract) {
      const auto &in = op.operands[0]->type.tile.shape, &outs = op.results[0]->type.tile.shape;
      bool ok = in.size() == outs.size() && op.order.size() == in.size();
      for (size_t i = 0; ok && i < in.size(); ++i)
        ok = outs[i] <= in[i] && op.order[i] >= 0 && (op.order[i] + 1) * outs[i] <= in[i];
      if (!ok) fail(op, "the sub-tile lies outside the operand");
    }
    if (op.kind == OpKind::If && !(op.operands[0]->type == Type::scalar(DType::Bool)))
      fail(op, "condition is not a bool scalar");
    if (op.kind == OpKind::For) {
      // The index has the bounds' type; each iteration argument has its initial value's type,
      // which is also the loop's result type (the yield is checked against the results).
      const Block& body = *op.regions[0];
      same(op.operands[0], op.operands[1]);
      same(op.operands[0], op.operands[2]);
      same(op.operands[0], body.args[0]);
      for (size_t i = 3; i < op.operands.size(); ++i) {
        same(op.operands[i], body.args[i - 2]);
        same(op.operands[i], op.results[i - 3]);
      }
    }
  }

 private:
  std::unordered_set<const Value*> visible_;
  std::vector<const Value*> defined_;  ///< what the open blocks added to visible_, in order
};

}  // namespace

std::string verify(const Function& f) {
  Verifier v;
  v.block(f.body, false, 0);
  return v.error;
}

}  // namespace tilec::ir
