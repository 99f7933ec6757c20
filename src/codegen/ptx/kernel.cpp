// The kernel entry: parameters in the entry_params.h order, the thread-coordinate prologue, the
// dispatch of each op to its family (emitter.h), structured control flow (for, if, while) and
// the grid special registers.
#include "codegen/ptx/emitter.h"

#include <functional>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "codegen/launch/entry_params.h"

namespace tilec::codegen {
namespace {

// The `.param` declaration of `e` named `name`.
std::string param_declaration(const EntryParam& e, const std::string& name) {
  using K = EntryParam::Kind;
  switch (e.kind) {
    case K::TensorMap: return ".param .align 128 .b8 " + name + "[128]";
    case K::Base: return ".param .u64 " + name;
    case K::Stride: case K::Extent: return ".param .s64 " + name;
    case K::Scalar: return ".param ." + (dtype_bits(e.dtype) == 8 ? std::string("u8") : ptx_bits_type(e.dtype)) + " " + name;
    case K::GridSize: case K::DivisorMagic: return ".param .u32 " + name;
    case K::Divisor: return ".param ." + ptx_bits_type(e.dtype) + " " + name;
  }
  return "";
}

}  // namespace

Emitter::Emitter(const LoweredKernel& k, const EmitOptions& o, DiagnosticEngine& diag) : EmitContext(k, o, diag) {
  if (const CodePathInfo& info = code_path(k.path); info.make_emitter) path_ = info.make_emitter(*this);
}

void Emitter::params() {
  // The entry's parameters (entry_params.h), declared in order; then loaded below.
  const ir::Signature& k = k_.fn->sig;
  // A TMA path's tensor maps come first, 128-byte aligned (what nvcc gives a
  // `const __grid_constant__ CUtensorMap`); the code uses their generic addresses
  // (kernel_abi.h AbiTensorMap); the path takes them in order (take_params).
  std::vector<DType> divisors;
  for (const LaunchDivisor& ld : k_.launch_divisors) divisors.push_back(ld.value->type.tile.dtype);
  std::vector<std::string> map_params;
  std::map<std::string, std::string> extent_of;
  std::vector<std::pair<const ir::ArrayParam*, std::vector<std::string>>> stride_params;
  std::vector<std::pair<const ir::ArrayParam*, std::string>> base_params;
  std::vector<std::pair<const ir::Value*, std::string>> scalar_params;
  std::vector<std::string> grid_params;  // a persistent grid's logical grid
  std::vector<std::pair<DivisorRegs, DType>> divisor_params;
  // The kernel's block arguments: arrays, extents, then scalars.
  size_t arg = k.dims.size();
  for (const ir::Value* a : k_.fn->body.args) {
    if (!a->type.is_array) break;
    ++arg;
  }
  std::vector<std::string> decls;
  for (const EntryParam& e : entry_params(k, size_t(k_.tensor_map_params()), k_.persistent_grid(), divisors)) {
    std::string name = fmt::format("{}_param_{}", k.name, decls.size());
    decls.push_back(param_declaration(e, name));
    switch (e.kind) {
      case EntryParam::Kind::TensorMap: map_params.push_back(name); break;
      case EntryParam::Kind::Base: {
        const ir::ArrayParam* array = k.params[size_t(e.index)].array;
        base_params.push_back({array, name});
        stride_params.push_back({array, {}});
        break;
      }
      case EntryParam::Kind::Stride: stride_params.back().second.push_back(name); break;
      case EntryParam::Kind::Extent: extent_of[k.dims[size_t(e.index)].name] = name; break;
      case EntryParam::Kind::Scalar: scalar_params.push_back({k_.fn->body.args[arg++], name}); break;
      case EntryParam::Kind::GridSize: grid_params.push_back(name); break;
      case EntryParam::Kind::Divisor: divisor_params.push_back({{name, "", "", ""}, e.dtype}); break;
      case EntryParam::Kind::DivisorMagic: {
        DivisorRegs& r = divisor_params.back().first;
        (e.part == 0 ? r.magic : e.part == 1 ? r.shift1 : r.shift2) = name;
        break;
      }
    }
  }
  param_text_ = "";
  for (size_t i = 0; i < decls.size(); ++i) param_text_ += (i ? ",\n\t" : "\n\t") + decls[i];

  // Load the parameters.
  std::vector<std::string> grid;
  for (const std::string& name : grid_params) {
    grid.push_back(b_.reg(RegClass::B32));
    b_.ins("ld.param.u32", {grid.back(), "[" + name + "]"});
  }
  for (const auto& [names, d] : divisor_params) {
    DivisorRegs r{b_.reg(reg_class(d)), b_.reg(RegClass::B32), b_.reg(RegClass::B32), b_.reg(RegClass::B32)};
    b_.ins("ld.param." + ptx_bits_type(d), {r.value, "[" + names.value + "]"});
    b_.ins("ld.param.u32", {r.magic, "[" + names.magic + "]"});
    b_.ins("ld.param.u32", {r.shift1, "[" + names.shift1 + "]"});
    b_.ins("ld.param.u32", {r.shift2, "[" + names.shift2 + "]"});
    launch_divisors_.push_back(r);
  }
  auto map_address = [&](const std::string& name) {
    std::string r = b_.reg(RegClass::B64);
    b_.ins("mov.b64", {r, name});
    b_.ins("cvta.param.u64", {r, r});
    return r;
  };
  std::vector<std::string> maps;
  for (const std::string& name : map_params) maps.push_back(map_address(name));
  if (path_) path_->take_params(maps, grid);
  for (size_t i = 0; i < base_params.size(); ++i) {
    ArrayRegs ar;
    ar.base = b_.reg(RegClass::B64);
    b_.ins("ld.param.u64", {ar.base, "[" + base_params[i].second + "]"});
    b_.ins("cvta.to.global.u64", {ar.base, ar.base});
    const ir::ArrayParam* arr = base_params[i].first;
    int esz = arr->dtype == DType::Bool ? 1 : dtype_bytes(arr->dtype);
    for (size_t d = 0; d < arr->dims.size(); ++d) {
      std::string s = b_.reg(RegClass::B64);
      bool unit = o_.vectorized && d + 1 == arr->dims.size();
      if (unit) {
        b_.ins("mov.b64", {s, std::to_string(esz)});  // the vectorized variant's innermost stride is 1
      } else {
        b_.ins("ld.param.s64", {s, "[" + stride_params[i].second[d] + "]"});
        b_.ins("mul.lo.s64", {s, s, std::to_string(esz)});
      }
      ar.stride_bytes.push_back(s);
      ar.const_stride_bytes.push_back(unit ? esz : 0);
    }
    arrays_[arr] = ar;
  }
  std::map<std::string, std::string> extent_regs;
  for (const ir::DimSymbol& d : k.dims) {
    std::string r = b_.reg(RegClass::B64);
    b_.ins("ld.param.s64", {r, "[" + extent_of[d.name] + "]"});
    extent_regs[d.name] = r;
  }
  for (const ir::Param& p : k.params) {  // source order, not the pointer order of arrays_
    if (!p.is_array) continue;
    ArrayRegs& ar = arrays_[p.array];
    for (const ArrayDim& d : p.array->dims) {
      if (!d.symbol.empty()) {
        ar.extents.push_back(extent_regs[d.symbol]);
      } else {
        std::string r = b_.reg(RegClass::B64);
        b_.ins("mov.b64", {r, std::to_string(d.constant)});
        ar.extents.push_back(r);
      }
    }
  }
  // Block arguments of the kernel: arrays (no registers), extents, scalars.
  size_t i = 0;
  for (const ir::Value* a : k_.fn->body.args) {
    if (a->type.is_array) {
      ++i;
      continue;
    }
    if (i < base_params.size() + k.dims.size()) {
      regs_[a] = {extent_regs[k.dims[i - base_params.size()].name]};
      ++i;
    }
  }
  for (auto& [v, name] : scalar_params) {
    // The parameter's bits widen into the register as a load from memory widens them; a bool
    // byte then becomes a predicate.
    DType d = v->type.tile.dtype;
    std::string r = b_.reg(d == DType::Bool ? RegClass::B32 : reg_class(d));
    b_.ins("ld.param." + ptx_load_type(d), {r, "[" + name + "]"});
    if (d == DType::Bool) {
      std::string p = b_.reg(RegClass::Pred);
      b_.ins("setp.ne.u32", {p, r, "0"});
      r = p;
    }
    regs_[v] = {r};
  }
}

void Emitter::prologue() {
  raw_tid_ = tid_ = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {tid_, "%tid.x"});
  if (path_) path_->prologue();
  // Thread coordinates of every layout, once, where they dominate every use; in program order
  // (k_.layouts is keyed by pointer), so the register numbers are the same on every run.
  for (const ir::Value* v : values_in_program_order(k_))
    if (auto it = k_.layouts.find(v); it != k_.layouts.end() && !it->second.shape.empty()) coords(it->second);
  for (const auto& [v, l] : k_.layouts)  // none left in practice: every value is in the IR
    if (!l.shape.empty()) coords(l);
}

std::string Emitter::entry(const std::string& name) {
  b_.set_lineinfo(o_.lineinfo);
  entry_name_ = name;
  need_ptx(o_.target.ptx_version);
  if (o_.target.has_griddepcontrol()) {
    // Programmatic dependent launch (docs/header.md, "Contexts, streams and threads"): the header
    // launches this code with CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, so the CTAs of
    // a kernel launched after this one on the stream may start (and wait here) once every CTA of
    // this one has started, instead of after the grid's end, the memory flush and the launch: 1.35
    // us per launch of silu_gate back to back on the H200 (bench/results/2026-12-03-lead15-h200.md).
    // Nothing is read or written before the wait, which returns once the grids before this one
    // have completed and their memory is visible.
    b_.ins("griddepcontrol.launch_dependents", {});
    b_.ins("griddepcontrol.wait", {});
  }
  params();
  prologue();
  exit_label_ = b_.label_name("exit");
  // The general variant's mma operands that come straight from loads are loaded by the mma,
  // a piece at a time (MmaSyncEmitter::find_staged_loads).
  if (!o_.vectorized) mma_sync_.find_staged_loads(*k_.fn);
  if (!path_ || !path_->body()) block(k_.fn->body);
  if (failed_) return "";
  b_.label(exit_label_);
  b_.ins("ret", {});
  const ir::Signature& k = k_.fn->sig;
  std::string text = ".visible .entry " + name + "(" + param_text_ + "\n)\n";
  text += fmt::format(".maxntid {}, 1, 1\n", k_.launch_threads());
  // setmaxnreg needs the entry's register count fixed: .maxntid with .minnctapersm 1 (ptxas
  // otherwise ignores it with info C7508; perf.md 3.5).
  if (k.options.min_ctas_per_sm) text += fmt::format(".minnctapersm {}\n", k.options.min_ctas_per_sm);
  else if (k_.plan && k_.plan->moves_registers()) text += ".minnctapersm 1\n";
  if (k.options.max_registers) text += fmt::format(".maxnreg {}\n", k.options.max_registers);
  auto cap = o_.register_caps.find(name);
  if (!k.options.max_registers && !k.options.min_ctas_per_sm && !(k_.plan && k_.plan->moves_registers()) &&
      cap != o_.register_caps.end())
    text += fmt::format(".maxnreg {}\n", cap->second);
  text += "{\n";
  // The scratch buffer for conversions, reductions and mma staging is dynamic shared memory,
  // declared once per module (ptx/module.cpp): its size goes to the launch (kernel_abi.h
  // dynamic_shared_bytes), so it may exceed the 48 KiB of static shared memory.
  text.reserve(text.size() + debug_.entry_decls().size() + b_.body_size() + 2);
  text += debug_.entry_decls();
  b_.append_body(text);
  text += "}\n";
  return text;
}

void Emitter::block(const ir::Block& b) {
  for (const auto& o : b.ops) {
    if (failed_) return;
    op(*o);
  }
}

void Emitter::recompute_scalars(const ir::Op& at) {
  // Recomputable: a scalar from a constant, a grid register or scalar arithmetic on kernel
  // arguments and other recomputable scalars, defined in `at`'s block before its last loop (or
  // other op with regions); values defined after that loop are still in registers.
  const ir::Block& b = *at.parent;
  std::map<const ir::Op*, size_t> pos;
  size_t last_region = 0;
  for (const auto& o : b.ops) {
    if (o.get() == &at) break;
    pos[o.get()] = pos.size();
    if (!o->regions.empty()) last_region = pos[o.get()];
  }
  std::map<const ir::Op*, bool> known;
  std::function<bool(const ir::Value*)> available = [&](const ir::Value* v) -> bool {
    if (!v->def) return v->owner == &k_.fn->body;  // a kernel argument
    auto p = pos.find(v->def);
    if (p == pos.end()) return false;  // another block
    if (p->second > last_region) return true;
    if (auto k = known.find(v->def); k != known.end()) return k->second;
    const ir::Op& d = *v->def;
    bool pure = d.kind == ir::OpKind::Constant || d.kind == ir::OpKind::BlockId || d.kind == ir::OpKind::NumBlocks ||
                ir::is_elementwise(d.kind);
    bool ok = pure && d.regions.empty() && d.results.size() == 1 && d.results[0]->type.is_scalar();
    for (const ir::Value* o : d.operands) ok = ok && available(o);
    known[v->def] = ok;
    return ok;
  };
  bool any = false;
  for (size_t i = 2; i < at.operands.size(); ++i) any = available(at.operands[i]) || any;
  if (!any) return;
  for (const auto& o : b.ops) {
    if (o.get() == &at) break;
    if (auto k = known.find(o.get()); k != known.end() && k->second) op(*o);
  }
  b_.loc(at.loc);
  op_loc_ = at.loc;
}

void Emitter::op(const ir::Op& op) {
  using ir::OpKind;
  // A launch divisor's own computation: the launch stub passes its value (LaunchDivisor).
  if (k_.computed_at_launch.count(&op)) return;
  // The load, permute and reshapes of an async load: the pipeline moves the tile and mma
  // reads it from shared memory.
  if (o_.vectorized && !op.results.empty() && k_.async_load(op.results[0])) return;
  // The general variant's staged loads (and their reshapes): the mma that reads them loads them.
  if (!o_.vectorized && mma_sync_.emitted_by_mma(op)) {
    mma_sync_.load_packed(op);
    return;
  }
  b_.loc(op.loc);
  op_loc_ = op.loc;
  switch (op.kind) {
    case OpKind::Constant: elementwise_.constant(op); break;
    case OpKind::Iota: elementwise_.iota(op); break;
    case OpKind::Splat:
    case OpKind::Broadcast:
    case OpKind::Reshape:
    case OpKind::ConvertLayout:
    case OpKind::Permute: elementwise_.convert_layout(op); break;
    case OpKind::Cat: shape_.cat(op); break;
    case OpKind::Extract: shape_.extract(op); break;
    case OpKind::Cast: elementwise_.cast(op); break;
    case OpKind::Bitcast: elementwise_.bitcast(op); break;
    case OpKind::Neg:
    case OpKind::Not:
    case OpKind::Abs:
#define X(e, name, extra) case OpKind::e:
    TILEC_MATH_FUNCTIONS(X, _)
#undef X
    case OpKind::Floor:
    case OpKind::Ceil:
    case OpKind::IsNan: elementwise_.unary(op); break;
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::FloorDiv:
    case OpKind::Mod:
    case OpKind::Pow:
    case OpKind::And:
    case OpKind::Or:
    case OpKind::Xor:
    case OpKind::Shl:
    case OpKind::Shr:
    case OpKind::Min:
    case OpKind::Max: elementwise_.binary(op); break;
    case OpKind::Cmp: elementwise_.compare(op); break;
    case OpKind::Select: elementwise_.select(op); break;
    case OpKind::Fma: elementwise_.fma(op); break;
    case OpKind::Mma:
      if (!path_ || !path_->mma(op)) mma_sync_.mma(op);
      break;
    case OpKind::Reduce: reduce_.reduce(op); break;
    case OpKind::Scan: scan_.scan(op); break;
    case OpKind::Histogram: histogram_.histogram(op); break;
    case OpKind::BlockId:
    case OpKind::NumBlocks:
    case OpKind::NumSms: grid_op(op); break;
    case OpKind::Load: memory_.load(op); break;
    case OpKind::Store:
      if (path_ && path_->store(op)) {
        // the path's own store (a TMA store)
      } else if (mma_sync_.large_accumulator(op)) {
        // The general variant's epilogue, after a main loop that needs every register: its
        // index arithmetic and thread coordinates are computed again rather than held across
        // the loop (issue 20: a few of them spilled).
        recompute_scalars(op);
        FreshCoords fresh(*this);
        if (mma_sync_.stores_accumulator(op)) mma_sync_.store_accumulator(op);
        else memory_.store(op);
      } else {
        memory_.store(op);
      }
      break;
    case OpKind::Gather: gather_.gather(op); break;
    case OpKind::Scatter: gather_.scatter(op); break;
    case OpKind::Atomic: atomic_.atomic(op); break;
    case OpKind::For: emit_for(op); break;
    case OpKind::If: emit_if(op); break;
    case OpKind::While: emit_while(op); break;
    case OpKind::Break:
    case OpKind::Continue: emit_leave(op); break;
    case OpKind::Return: b_.ins("bra.uni", {exit_label_}); break;
    case OpKind::Yield: break;  // handled by the parent
    case OpKind::Assert: debug_.emit_assert(op); break;
    case OpKind::Print: debug_.emit_print(op); break;
  }
}

void Emitter::grid_op(const ir::Op& op) {
  static const char* kAxis[] = {"x", "y", "z"};
  std::string r = define(op.results[0])[0];
  if (path_ && path_->grid_op(op, r)) return;  // a persistent grid's logical CTA and grid
  if (op.kind == ir::OpKind::NumSms) b_.ins("mov.u32", {r, "%nsmid"});
  else b_.ins("mov.u32", {r, std::string(op.kind == ir::OpKind::BlockId ? "%ctaid." : "%nctaid.") + kAxis[op.axis]});
}

namespace {

// Copies the yielded registers of a region into `dst` (moves of the right width).
void move_all(PtxBuilder& b, const std::vector<std::string>& dst, const std::vector<std::string>& src, DType d) {
  for (size_t i = 0; i < dst.size(); ++i) {
    if (dst[i] == src[i]) continue;
    RegClass c = reg_class(d);
    const char* mov = c == RegClass::Pred ? "mov.pred" : c == RegClass::B16 ? "mov.b16" : c == RegClass::B32 ? "mov.b32" : "mov.b64";
    b.ins(mov, {dst[i], src[i]});
  }
}

// Copies several values at once (a parallel copy): when a source register is also a
// destination (a, b = b, a in a loop), the sources go through temporaries first.
void parallel_move(PtxBuilder& b, std::vector<std::tuple<std::string, std::string, DType>> moves) {
  std::set<std::string> dsts;
  for (auto& [d, s, t] : moves)
    if (d != s) dsts.insert(d);
  auto mov_for = [](DType t) {
    RegClass c = reg_class(t);
    return c == RegClass::Pred ? "mov.pred" : c == RegClass::B16 ? "mov.b16" : c == RegClass::B32 ? "mov.b32" : "mov.b64";
  };
  for (auto& [d, s, t] : moves)
    if (d != s && dsts.count(s)) {
      std::string tmp = b.reg(reg_class(t));
      b.ins(mov_for(t), {tmp, s});
      s = tmp;
    }
  for (auto& [d, s, t] : moves)
    if (d != s) b.ins(mov_for(t), {d, s});
}

}  // namespace

void Emitter::emit_for(const ir::Op& op) {
  const ir::Block& body = *op.regions[0];
  DType idx = op.operands[0]->type.tile.dtype;
  std::string ty = ptx_arith_type(idx);
  // The induction variable and the carried values live in the body's argument registers;
  // results alias them after the loop.
  std::string iv = define(body.args[0])[0];
  b_.ins(dtype_bits(idx) == 64 ? "mov.b64" : "mov.b32", {iv, regs(op.operands[0])[0]});
  for (size_t i = 1; i < body.args.size(); ++i) {
    std::vector<std::string>& r = define(body.args[i]);
    move_all(b_, r, regs(op.operands[i + 2]), body.args[i]->type.tile.dtype);
  }
  // Loads that go through a pipeline start before the loop: cp.async (ptx/cp_async.cpp), or the
  // code path's own pipeline (PathEmitter: the tma_wgmma path's TMA ring).
  const Pipeline* pipe = o_.vectorized ? k_.pipeline(&op) : nullptr;
  bool own = pipe && path_;
  CpAsyncPipeline::State ps;
  if (pipe) own ? path_->loop_prologue(op, *pipe) : cp_async_.prologue(op, *pipe, ps);
  std::string top = b_.label_name("loop"), done = b_.label_name("loop_end");
  const std::string& upper = regs(op.operands[1])[0];
  const std::string& step = regs(op.operands[2])[0];
  const ir::Op* step_def = op.operands[2]->def;
  std::string p = b_.reg(RegClass::Pred);
  b_.label(top);
  if (step_def && step_def->kind == ir::OpKind::Constant) {
    bool up = is_unsigned_int(idx) || step_def->value.i > 0;
    b_.ins(fmt::format("setp.{}.{}", up ? "ge" : "le", ty), {p, iv, upper});
  } else {
    // A runtime step: continue while (step > 0 ? iv < upper : iv > upper).
    std::string pos = b_.reg(RegClass::Pred), npos = b_.reg(RegClass::Pred);
    std::string lt = b_.reg(RegClass::Pred), gt = b_.reg(RegClass::Pred), cont = b_.reg(RegClass::Pred);
    b_.ins(fmt::format("setp.gt.{}", ty), {pos, step, "0"});
    b_.ins("not.pred", {npos, pos});
    b_.ins(fmt::format("setp.lt.{}", ty), {lt, iv, upper});
    b_.ins(fmt::format("setp.gt.{}", ty), {gt, iv, upper});
    b_.ins("and.pred", {lt, lt, pos});
    b_.ins("and.pred", {gt, gt, npos});
    b_.ins("or.pred", {cont, lt, gt});
    b_.ins("not.pred", {p, cont});
  }
  b_.ins_if(p, "bra.uni", {done});
  if (pipe) own ? path_->loop_iteration() : cp_async_.iteration(ps);
  Loop loop{done, b_.label_name("loop_next"), {}};
  for (size_t i = 1; i < body.args.size(); ++i) loop.carried.push_back(body.args[i]);
  loops_.push_back(loop);
  if (pipe && !own) cp_async_.begin_body(ps);
  block(body);
  if (pipe && !own) cp_async_.end_body(ps);
  loops_.pop_back();
  if (failed_) return;  // the body's values may have no registers
  const ir::Op& y = *body.ops.back();
  if (y.kind == ir::OpKind::Yield) move_values(loop.carried, y.operands);
  b_.label(loop.continue_label);
  if (pipe) own ? path_->loop_advance() : cp_async_.advance(ps);
  b_.ins(fmt::format("add.{}", ty), {iv, iv, step});
  b_.ins("bra.uni", {top});
  b_.label(done);
  if (pipe) own ? path_->loop_epilogue() : cp_async_.epilogue(ps);
  for (size_t i = 0; i < op.results.size(); ++i) regs_[op.results[i]] = regs(body.args[i + 1]);
}

void Emitter::move_values(const std::vector<const ir::Value*>& dst, const std::vector<ir::Value*>& src) {
  std::vector<std::tuple<std::string, std::string, DType>> moves;
  for (size_t i = 0; i < dst.size(); ++i) {
    const std::vector<std::string>& d = regs(dst[i]);
    const std::vector<std::string>& s = regs(src[i]);
    for (size_t k = 0; k < d.size(); ++k) moves.emplace_back(d[k], s[k], dst[i]->type.tile.dtype);
  }
  parallel_move(b_, moves);
}

void Emitter::emit_leave(const ir::Op& op) {
  const Loop& loop = loops_.back();
  move_values(loop.carried, op.operands);
  b_.ins("bra.uni", {op.kind == ir::OpKind::Break ? loop.break_label : loop.continue_label});
}

void Emitter::emit_while(const ir::Op& op) {
  // The condition's and the body's arguments share the carried registers; so do the results.
  const ir::Block& cond = *op.regions[0];
  const ir::Block& body = *op.regions[1];
  for (size_t i = 0; i < cond.args.size(); ++i) {
    std::vector<std::string>& r = define(cond.args[i]);
    move_all(b_, r, regs(op.operands[i]), cond.args[i]->type.tile.dtype);
    regs_[body.args[i]] = r;
    regs_[op.results[i]] = r;
  }
  std::string top = b_.label_name("while"), done = b_.label_name("while_end");
  b_.label(top);
  block(cond);
  if (failed_) return;
  const std::string& c = regs(cond.ops.back()->operands[0])[0];
  b_.ins_if("!" + c, "bra.uni", {done});
  Loop loop{done, top, {}};
  for (const ir::Value* a : body.args) loop.carried.push_back(a);
  loops_.push_back(loop);
  block(body);
  loops_.pop_back();
  if (failed_) return;
  const ir::Op& y = *body.ops.back();
  if (y.kind == ir::OpKind::Yield) move_values(loop.carried, y.operands);
  b_.ins("bra.uni", {top});
  b_.label(done);
}

void Emitter::emit_if(const ir::Op& op) {
  // Conditions are scalars, so every thread of the CTA takes the same branch (bra.uni).
  for (const ir::Value* r : op.results) define(r);
  std::string else_label = b_.label_name("else"), end = b_.label_name("endif");
  b_.ins_if("!" + regs(op.operands[0])[0], "bra.uni", {else_label});
  for (int side = 0; side < 2; ++side) {
    const ir::Block& blk = *op.regions[size_t(side)];
    block(blk);
    if (failed_) return;
    if (!blk.ops.empty() && blk.ops.back()->kind == ir::OpKind::Yield)
      for (size_t i = 0; i < op.results.size(); ++i)
        move_all(b_, regs(op.results[i]), regs(blk.ops.back()->operands[i]), op.results[i]->type.tile.dtype);
    if (side == 0) {
      b_.ins("bra.uni", {end});
      b_.label(else_label);
    }
  }
  b_.label(end);
}

}  // namespace tilec::codegen
