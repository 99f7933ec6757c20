// The tma_wgmma path's TMA stores (tma_store.h; plan.h TmaStore): which tile stores leave through shared
// memory and cp.async.bulk.tensor, where their staging buffers go, and how each thread
// addresses its registers there. The PTX is written by TmaStoreEmitter (store_emitter.h).
//
// The staging layout is a TMA box's: the tile's last dimension is cut into spans of 128 bytes
// (boxes, one after the other), each box holds every line (the product of the other
// dimensions) at 128 bytes a line, in the 128-byte swizzle: 16-byte chunk c of line r sits at
// chunk c ^ (r % 8) (CU_TENSOR_MAP_SWIZZLE_128B; the pattern repeats every 1024 bytes, so each
// box starts 1024-byte aligned). Within a warp, the 8 lines that a store instruction reaches
// then fall in 8 different groups of banks.
//
// A thread's address for register r is split into a part per thread and one per register: with
// line = Lt + Lr and byte = Bt + Br (the thread's and the register's parts of its coordinates),
//   address = T[key_r] + imm_r,   T[c] = Lt * 128 + ((chunk(Bt) ^ (Lt % 8) ^ c) * 16) + Bt % 16,
//   key_r = chunk(Br) ^ (Lr % 8),   imm_r = box(Br) * box_bytes + Lr * 128 + Br % 16,
// which holds when the two parts' bits do not carry into each other (the accumulator fragments
// of wgmma and mma.sync: threads own the low bits, registers step in whole chunks and 8-line
// groups). plan_tma_stores checks it for every thread and register, so a layout that breaks it
// keeps its st.global store.
#include <algorithm>
#include <climits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "codegen/paths/tma_wgmma/tma_store.h"

namespace tilec::codegen::tma_wgmma {
namespace {

constexpr int64_t kAlign = 1024;

bool tma_store_dtype(DType d) { return d == DType::F16 || d == DType::BF16 || d == DType::F32; }

// Whether `op` or an op nested in it reads or writes array `arr`.
// Adds the arrays `op` and the ops of its regions access to `out`.
void accessed_arrays(const ir::Op& op, std::set<const ir::ArrayParam*>& out) {
  switch (op.kind) {
    case ir::OpKind::Load:
    case ir::OpKind::Store:
    case ir::OpKind::Gather:
    case ir::OpKind::Scatter:
    case ir::OpKind::Atomic: out.insert(op.operands[0]->type.array); break;
    default: break;
  }
  for (const auto& r : op.regions)
    for (const auto& o : r->ops) accessed_arrays(*o, out);
}

// The swizzled staging address of element (line, byte) (see the top of the file).
int64_t staged_address(const TmaStore& ts, int64_t line, int64_t byte) {
  int64_t b = byte % 128;
  return (byte / 128) * ts.box_bytes() + line * 128 + (((b / 16) ^ (line % 8)) * 16) + b % 16;
}

// The runs of `ts` (registers of layout `l` written with one st.shared each), or false when
// the per-thread / per-register split of the address fails for some thread of `threads`.
bool plan_runs(TmaStore& ts, const Layout& l, int threads) {
  int rank = l.rank();
  int64_t n = l.regs_per_thread();
  // Line and byte of a coordinate vector: the leading dimensions row-major, the last in bytes.
  auto line_of = [&](const std::vector<int64_t>& c) {
    int64_t line = 0;
    for (int d = 0; d + 1 < rank; ++d) line = line * l.shape[size_t(d)] + c[size_t(d)];
    return line;
  };
  auto byte_of = [&](const std::vector<int64_t>& c) { return c[size_t(rank - 1)] * ts.esz; };
  std::vector<int64_t> Lr(size_t(n), 0), Br(size_t(n), 0);
  for (int64_t r = 0; r < n; ++r) {
    std::vector<int64_t> off = l.reg_offset(r);
    Lr[size_t(r)] = line_of(off);
    Br[size_t(r)] = byte_of(off);
  }
  std::vector<int> key(static_cast<size_t>(n));
  std::vector<int64_t> imm(static_cast<size_t>(n));
  for (int64_t r = 0; r < n; ++r) {
    int64_t br = Br[size_t(r)];
    key[size_t(r)] = int(((br % 128) / 16) ^ (Lr[size_t(r)] % 8));
    imm[size_t(r)] = ts.offset + Lr[size_t(r)] * 128 + br % 16;  // plus the box's slot (store_emitter.cpp)
  }
  // Every thread: coords(t, r) is its base plus the register's offsets (Layout::add_thread_base),
  // and line_of / byte_of are linear, so its line and byte are Lt + Lr[r] and Bt + Br[r]; the
  // split address must equal the swizzled one. Threads with the same (Lt, Bt) have the same
  // addresses: each such base is checked once, and the runs below look at those only.
  std::vector<int64_t> base(size_t(rank), 0);
  std::vector<char> seen(size_t(ts.lines) * 128, 0);
  std::vector<std::vector<int64_t>> addr;  // per distinct base, per register
  for (int t = 0; t < threads; ++t) {
    std::fill(base.begin(), base.end(), 0);
    l.add_thread_base(t, base);
    for (int d = 0; d < rank; ++d)
      if (base[size_t(d)] < 0 || base[size_t(d)] >= l.shape[size_t(d)]) return false;
    int64_t Lt = line_of(base), Bt = byte_of(base);
    if (Bt >= 128) return false;
    char& s = seen[size_t(Lt * 128 + Bt)];
    if (s) continue;
    s = 1;
    std::vector<int64_t>& at = addr.emplace_back(size_t(n));
    int64_t thread_part = Lt * 128 + Bt % 16;
    for (int64_t r = 0; r < n; ++r) {
      int64_t a = staged_address(ts, Lt + Lr[size_t(r)], Bt + Br[size_t(r)]) + ts.offset;
      int64_t split = thread_part + ((((Bt % 128) / 16) ^ (Lt % 8) ^ key[size_t(r)]) * 16) + imm[size_t(r)] +
                      (Br[size_t(r)] / 128) * ts.box_bytes();
      if (a != split) return false;
      at[size_t(r)] = a;
    }
  }
  // Runs: the widest group of consecutive registers (4, 2 or 1 elements, at most 16 bytes)
  // that is contiguous and aligned to its size in every thread.
  for (int64_t r = 0; r < n;) {
    int count = 1;
    for (int g : {4, 2}) {
      if (g * ts.esz > 16 || r + g > n) continue;
      bool ok = true;
      for (size_t t = 0; t < addr.size() && ok; ++t) {
        const std::vector<int64_t>& a = addr[t];
        ok = a[size_t(r)] % (g * ts.esz) == 0;
        for (int i = 1; i < g && ok; ++i) ok = a[size_t(r + i)] == a[size_t(r)] + i * ts.esz;
      }
      if (ok) {
        count = g;
        break;
      }
    }
    ts.runs.push_back({r, count, key[size_t(r)], imm[size_t(r)], Br[size_t(r)] / 128});
    r += count;
  }
  return true;
}

}  // namespace

void plan_tma_stores(LoweredKernel& k, int64_t smem_limit) {
  Plan& pl = plan_of(k);
  pl.tma_stores.clear();
  if (k.pipelines.empty()) return;
  const ir::Block& body = k.fn->body;
  for (const Pipeline& p : k.pipelines)
    if (p.loop->parent != &body) return;
  // Stores after the last pipelined loop qualify; the TMA store completes asynchronously, so
  // nothing after it may access its array.
  std::vector<const ir::Op*> ops;
  for (const auto& o : body.ops) ops.push_back(o.get());
  size_t last_loop = 0;
  for (size_t i = 0; i < ops.size(); ++i)
    if (k.pipeline(ops[i])) last_loop = i;
  // The last op that accesses each array (found once: asking each store about every op after
  // it was quadratic in a kernel of many stores).
  std::map<const ir::ArrayParam*, size_t> last_access;
  for (size_t i = last_loop + 1; i < ops.size(); ++i) {
    std::set<const ir::ArrayParam*> arrays;
    accessed_arrays(*ops[i], arrays);
    for (const ir::ArrayParam* a : arrays) last_access[a] = i;
  }
  std::vector<TmaStore> candidates;
  for (size_t i = last_loop + 1; i < ops.size(); ++i) {
    const ir::Op& op = *ops[i];
    // (The copy engine clips at the tensor map's extents only: a bound= store stays in registers.)
    if (op.kind != ir::OpKind::Store || op.offsets || ir::has_bound(op) || !op.order.empty()) continue;
    const ir::Value* tile = op.operands[1];
    const ir::ArrayParam* arr = op.operands[0]->type.array;
    if (tile->type.is_scalar() || arr->dims.size() > 5 || !tma_store_dtype(arr->dtype) ||
        tile->type.tile.dtype != arr->dtype)
      continue;
    TmaStore ts;
    ts.store = &op;
    ts.esz = dtype_bytes(arr->dtype);
    const std::vector<int64_t>& shape = tile->type.tile.shape;
    ts.line_elems = shape.back();
    ts.lines = 1;
    for (size_t d = 0; d + 1 < shape.size(); ++d) ts.lines *= shape[d];
    // Box extents are at most 256 per dimension: the lines (the product of the other
    // dimensions) are at most 256, so each of them is.
    if (ts.pitch() % 128 || ts.lines % 8 || ts.lines > 256) continue;
    bool later = last_access.at(arr) > i;
    if (k.layout(tile).replicated() || later) continue;
    candidates.push_back(std::move(ts));
  }
  auto aligned = [](int64_t n) { return (n + kAlign - 1) / kAlign * kAlign; };
  for (TmaStore& ts : candidates) ts.slots = ts.boxes();
  // The room: the stages of the smallest pipeline, dead after the last loop. A persistent grid's
  // producer fills them for the next tile meanwhile: there the staging buffers get shared memory
  // of their own after the mbarriers, and the ring gives up stages for them (down to 2).
  int64_t room = INT64_MAX, base = 0;
  for (const Pipeline& p : k.pipelines) room = std::min(room, p.stages * p.stage_bytes);
  if (pl.spec.persistent && !candidates.empty()) {
    Pipeline& p = k.pipelines[0];
    auto end_of_barriers = [&] { return aligned(pl.barriers_of(p) + Plan::mbarrier_bytes(p, p.stages)); };
    // The stages start 1024-aligned at run time after pipeline_offset: up to 1024 bytes later.
    int64_t limit = smem_limit - k.pipeline_offset - kAlign;
    // Ping-pong: a set of buffers per consumer.
    int copies = pl.spec.pingpong ? 2 : 1;
    auto want = [&] {
      int64_t w = 0;
      for (const TmaStore& ts : candidates) w += copies * aligned(ts.staging_bytes());
      return w;
    };
    auto fit_stages = [&] {  // the stages that fit beside the staging buffers, at least 2
      int s = p.stages;
      auto end = [&] { return aligned(s * p.stage_bytes + p.resident_bytes() + Plan::mbarrier_bytes(p, s)); };
      while (s > 2 && end() + want() > limit) --s;
      return s;
    };
    // When num_stages= asks for more stages than fit beside a whole tile's staging, the tile's
    // boxes pass through a ring of two slots instead (each stored as soon as it is written, the
    // next waiting only for the copy that read its slot two boxes before). Not by default: on
    // the H200 (bench/results/2026-12-02-lead11-h200.md) the ring's 4 stages made the batched
    // matmul (K = 2048) 10 % faster than 3 stages with whole-tile staging, but matmul at
    // 4096^3 and 8192^3 0.3-0.6 % slower and matmul_f8 1.5-3 % slower. (Not with ping-pong
    // consumers: that pairing has not run on a GPU.)
    int full = fit_stages();
    int asked_stages = k.fn->sig.options.num_stages;
    if (asked_stages && full < p.stages && !pl.spec.pingpong) {
      for (TmaStore& ts : candidates) ts.slots = std::min<int64_t>(ts.boxes(), 2);
      if (fit_stages() <= full)  // the ring buys no stage: stage whole tiles
        for (TmaStore& ts : candidates) ts.slots = ts.boxes();
    }
    int before = p.stages;
    p.stages = fit_stages();
    pl.barriers[p.loop] = p.stages * p.stage_bytes + p.resident_bytes();
    int64_t staged = want();
    if (asked_stages && p.stages < before)
      k.warnings.push_back({Warning::NumStages, p.loop->loc,
                            fmt::format("num_stages={}: the persistent grid's TMA stores stage {} bytes of their own "
                                        "in shared memory; this loop runs {} stages on the tma_wgmma path",
                                        asked_stages, staged, p.stages)});
    base = end_of_barriers();
    room = (limit - base) / copies;
  }
  int64_t offset = base;
  for (TmaStore& ts : candidates) {
    ts.offset = offset;
    if (offset - base + ts.staging_bytes() > room || !plan_runs(ts, k.layout(ts.store->operands[1]), k.threads()))
      continue;
    offset += aligned(ts.staging_bytes());
    pl.tma_stores.push_back(std::move(ts));
  }
  if (pl.spec.pingpong) pl.staging_stride = offset - base;
}

}  // namespace tilec::codegen::tma_wgmma
