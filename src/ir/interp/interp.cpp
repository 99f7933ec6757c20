// The interpreter's walker (interp.h): arguments, the grid, the CTAs in turn, structured
// control flow (for, while, if, break, continue, return) and the dispatch to the op families.
#include "ir/interp/interp.h"

#include <fmt/format.h>

#include <unordered_map>

#include "ir/interp/interp_ops.h"
#include "ir/interp/numerics.h"

namespace tilec::interp {
namespace {

using ir::OpKind;

// Evaluates a grid term in 64 bits with Python floor semantics (language.md §3.5).
int64_t eval_grid(const ir::GridExpr& g, const std::vector<int64_t>& dims, const std::vector<Arg>& args,
                  const ir::Signature& sig, const Options& opts) {
  using K = ir::GridExpr::Kind;
  auto a = [&](size_t i) { return eval_grid(g.args[i], dims, args, sig, opts); };
  auto floordiv = [](int64_t x, int64_t y) {
    if (y == 0) return int64_t(0);
    int64_t q = x / y;
    return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
  };
  switch (g.kind) {
    case K::Const: return g.value;
    case K::Dim: return dims[size_t(g.index)];
    case K::Scalar: return int64_t(int_value(args[size_t(g.index)].scalar, sig.params[size_t(g.index)].dtype));
    case K::Neg: return -a(0);
    case K::Add: return a(0) + a(1);
    case K::Sub: return a(0) - a(1);
    case K::Mul: return a(0) * a(1);
    case K::FloorDiv: return floordiv(a(0), a(1));
    case K::Cdiv: return -floordiv(-a(0), a(1));
    case K::Min: return std::min(a(0), a(1));
    case K::Max: return std::max(a(0), a(1));
    case K::NumSms: return opts.num_sms;
  }
  return 0;
}

// The extent of every dimension symbol, from the arrays that name it.
std::vector<int64_t> dim_extents(const ir::Function& f, const std::vector<Arg>& args, std::string& error) {
  std::vector<int64_t> dims(f.sig.dims.size(), -1);
  for (const auto& arr : f.sig.arrays) {
    const HostArray& h = args[size_t(arr->index)].array;
    if (h.extents.size() != arr->dims.size()) {
      error = fmt::format("interp: array '{}' has rank {}, its argument {}", arr->name, arr->dims.size(), h.extents.size());
      return dims;
    }
    for (size_t i = 0; i < arr->dims.size(); ++i) {
      const ArrayDim& d = arr->dims[i];
      int64_t want = d.symbol.empty() ? d.constant : dims[size_t(f.sig.dim_index(d.symbol))];
      if (want >= 0 && want != h.extents[i]) {
        error = fmt::format("interp: array '{}' dimension {} is {}, expected {}", arr->name, i, h.extents[i], want);
        return dims;
      }
      if (!d.symbol.empty()) dims[size_t(f.sig.dim_index(d.symbol))] = h.extents[i];
    }
  }
  return dims;
}

// How a block ended: fell through (its yield's values), or left by a terminator.
enum class Exit { Normal, Break, Continue, Return };
struct Flow {
  Exit exit = Exit::Normal;
  std::vector<Tile> values;  // yield, break or continue operands
};

class Cta {
 public:
  Cta(const ir::Function& f, Memory& mem, const Options& opts, int64_t& ops_left)
      : f_(f), mem_(mem), opts_(opts), ops_left_(ops_left) {}

  std::string error;
  int64_t bid[3] = {0, 0, 0}, nblocks[3] = {1, 1, 1};

  void run(const std::vector<Tile>& scalars_and_dims) {
    size_t next = 0;
    for (const ir::Value* a : f_.body.args)
      if (!a->type.is_array) env_[a] = scalars_and_dims[next++];
    block(f_.body, {});
  }

 private:
  const ir::Function& f_;
  Memory& mem_;
  const Options& opts_;
  int64_t& ops_left_;
  std::unordered_map<const ir::Value*, Tile> env_;

  const Tile& get(const ir::Value* v) { return env_.at(v); }
  std::vector<Tile> values(const std::vector<ir::Value*>& vs, size_t from = 0) {
    std::vector<Tile> out;
    for (size_t i = from; i < vs.size(); ++i) out.push_back(get(vs[i]));
    return out;
  }
  void bind(const std::vector<ir::Value*>& names, std::vector<Tile> vals, size_t from = 0) {
    for (size_t i = 0; i < vals.size() && from + i < names.size(); ++i) env_[names[from + i]] = std::move(vals[i]);
  }

  Flow block(const ir::Block& b, std::vector<Tile> args) {
    bind(b.args, std::move(args));
    for (const auto& op : b.ops) {
      if (!error.empty()) return Flow{Exit::Return, {}};
      if (--ops_left_ < 0) {
        error = "interp: more ops than the limit (a loop that never ends?)";
        return Flow{Exit::Return, {}};
      }
      switch (op->kind) {
        case OpKind::Yield: return Flow{Exit::Normal, values(op->operands)};
        case OpKind::Break: return Flow{Exit::Break, values(op->operands)};
        case OpKind::Continue: return Flow{Exit::Continue, values(op->operands)};
        case OpKind::Return: return Flow{Exit::Return, {}};
        default: break;
      }
      if (Flow fl = this->op(*op); fl.exit != Exit::Normal) return fl;  // out of an if: to the loop
    }
    return Flow{};
  }

  // Runs one op; control-flow ops may end the CTA (Exit::Return).
  Flow op(const ir::Op& op) {
    switch (op.kind) {
      case OpKind::If: {
        bool c = truth(get(op.operands[0]).v[0], DType::Bool);
        Flow fl = block(*op.regions[c ? 0 : 1], {});
        if (fl.exit != Exit::Normal) return fl;  // break, continue, return: to the loop or the kernel
        bind(op.results, std::move(fl.values));
        return Flow{};
      }
      case OpKind::For: return for_loop(op);
      case OpKind::While: return while_loop(op);
      default: break;
    }
    std::vector<const Tile*> in;
    for (const ir::Value* v : op.operands) in.push_back(v->type.is_array ? nullptr : &get(v));
    Tile out;
    if (!op.results.empty()) out = make_tile(op.results[0]->type);
    bool done = false;
    switch (op.kind) {
      case OpKind::BlockId:
      case OpKind::NumBlocks:
        out.v[0].i = wrap(op.kind == OpKind::BlockId ? bid[op.axis] : nblocks[op.axis], out.dtype);
        done = true;
        break;
      case OpKind::NumSms:
        out.v[0].i = opts_.num_sms;
        done = true;
        break;
      case OpKind::Assert:
        for (const Scalar& s : in[0]->v)
          if (!truth(s, in[0]->dtype)) {
            error = fmt::format("interp: assert failed in CTA ({}, {}, {}): {}", bid[0], bid[1], bid[2], op.text);
            return Flow{Exit::Return, {}};
          }
        return Flow{};
      case OpKind::Print: return Flow{};  // device printf: nothing to compare
      default:
        done = eval_value_op(op, in, out, mem_) || eval_reduce_op(op, in, out) || eval_memory_op(op, in, out, mem_);
    }
    if (!done) {
      error = fmt::format("interp: op {} not supported", ir::op_name(op.kind));
      return Flow{Exit::Return, {}};
    }
    if (!op.results.empty()) env_[op.results[0]] = std::move(out);
    return Flow{};
  }

  // for iv = lower to upper step s: Python's range (a negative step counts down); the index
  // has the bounds' dtype, computed wide so that the last step cannot wrap into another lap.
  Flow for_loop(const ir::Op& op) {
    DType t = op.operands[0]->type.tile.dtype;
    __int128 lo = int_value(get(op.operands[0]).v[0], t), hi = int_value(get(op.operands[1]).v[0], t),
             step = int_value(get(op.operands[2]).v[0], t);
    std::vector<Tile> carried = values(op.operands, 3);
    if (step == 0) {
      error = "interp: for loop with step 0";
      return Flow{Exit::Return, {}};
    }
    for (__int128 i = lo; step > 0 ? i < hi : i > hi; i += step) {
      Tile iv = make_tile(op.regions[0]->args[0]->type);
      iv.v[0].i = wrap(int64_t(i), t);
      std::vector<Tile> args{std::move(iv)};
      for (Tile& c : carried) args.push_back(std::move(c));
      Flow fl = block(*op.regions[0], std::move(args));
      if (fl.exit == Exit::Return) return fl;
      carried = std::move(fl.values);
      if (fl.exit == Exit::Break) break;
    }
    bind(op.results, std::move(carried));
    return Flow{};
  }

  Flow while_loop(const ir::Op& op) {
    std::vector<Tile> carried = values(op.operands);
    for (;;) {
      Flow c = block(*op.regions[0], carried);
      if (c.exit == Exit::Return) return c;
      if (!truth(c.values.at(0).v[0], DType::Bool)) break;
      Flow fl = block(*op.regions[1], std::move(carried));
      if (fl.exit == Exit::Return) return fl;
      carried = std::move(fl.values);
      if (fl.exit == Exit::Break) break;
    }
    bind(op.results, std::move(carried));
    return Flow{};
  }
};

}  // namespace

std::vector<int64_t> grid(const ir::Function& f, const std::vector<Arg>& args, const Options& opts, std::string& error) {
  std::vector<int64_t> dims = dim_extents(f, args, error);
  std::vector<int64_t> g;
  if (!error.empty()) return g;
  for (const ir::GridExpr& e : f.sig.grid) g.push_back(eval_grid(e, dims, args, f.sig, opts));
  return g;
}

Result run(const ir::Function& f, std::vector<Arg>& args, const Options& opts) {
  Result r;
  if (args.size() != f.sig.params.size()) {
    r.error = fmt::format("interp: kernel '{}' takes {} arguments, given {}", f.name, f.sig.params.size(), args.size());
    return r;
  }
  std::vector<int64_t> g = grid(f, args, opts, r.error);
  if (!r.error.empty()) return r;
  std::vector<int64_t> dims = dim_extents(f, args, r.error);
  int64_t total = 1;
  for (int64_t e : g) {
    if (e < 0) {
      r.error = fmt::format("interp: the grid of '{}' has a negative extent", f.name);
      return r;
    }
    total *= std::min<int64_t>(e, opts.max_ctas + 1);
  }
  if (total > opts.max_ctas) {
    r.error = fmt::format("interp: the grid of '{}' has more than {} CTAs", f.name, opts.max_ctas);
    return r;
  }
  // The non-array arguments in the order of the function's block arguments: extents, scalars.
  std::vector<Tile> scalars;
  for (int64_t d : dims) scalars.push_back(Tile{DType::I64, {}, {Scalar{d, 0}}});
  for (size_t i = 0; i < f.sig.params.size(); ++i)
    if (!f.sig.params[i].is_array) scalars.push_back(Tile{f.sig.params[i].dtype, {}, {args[i].scalar}});
  Memory mem;
  mem.args = &args;
  int64_t ops_left = opts.max_ops;
  int64_t n[3] = {1, 1, 1};
  for (size_t i = 0; i < g.size(); ++i) n[i] = g[i];
  int64_t count = n[0] * n[1] * n[2];
  for (int64_t i = 0; i < count; ++i) {
    int64_t l = opts.reverse_ctas ? count - 1 - i : i;
    Cta cta(f, mem, opts, ops_left);
    cta.bid[0] = l % n[0], cta.bid[1] = l / n[0] % n[1], cta.bid[2] = l / (n[0] * n[1]);
    for (int a = 0; a < 3; ++a) cta.nblocks[a] = n[a];
    cta.run(scalars);
    ++r.ctas;
    if (!cta.error.empty()) {
      r.error = cta.error;
      r.unspecified = mem.unspecified;
      return r;
    }
  }
  r.unspecified = mem.unspecified;
  return r;
}

}  // namespace tilec::interp
