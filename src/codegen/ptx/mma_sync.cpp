// mma(a, b, acc) on tensor cores with mma.sync (PTX ISA §9.7.13.3-4, sm_80+). Both operands
// are read from shared memory: from the stage an async load (cp.async pipeline, cp_async.cpp)
// filled, with XOR-swizzled lines, or else staged there from registers (rows padded by 16
// bytes). Then each warp loads its fragments — ldmatrix (.trans for the other majorness)
// where the element size allows, ld.shared otherwise — and issues one instruction per 16×8
// (or 8×8 for f64) piece of its block of the accumulator (layout.h, Kind::Mma).
#include "codegen/ptx/mma_sync.h"

#include <fmt/format.h>

#include "codegen/lowering/staging.h"

namespace tilec::codegen {
namespace {

// One mma.sync shape and type combination.
struct MmaKind {
  int m, n, k;               ///< instruction shape
  int a_regs, b_regs;        ///< 32- or 64-bit registers per fragment
  int per_reg;               ///< elements per A/B register
  std::string opcode;        ///< "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
  bool wide = false;         ///< f64 fragments (64-bit registers)
};

// `b` matters for f8 only: e4m3 and e5m2 operands may be paired either way (the other types
// are the same on both sides).
MmaKind mma_kind(DType a, DType b, DType c) {
  std::string ab = ptx_type(a), cd = ptx_type(c);
  switch (a) {
    case DType::F16:
    case DType::BF16:
      return {16, 8, 16, 4, 2, 2, fmt::format("mma.sync.aligned.m16n8k16.row.col.{}.{}.{}.{}", cd, ab, ab, cd)};
    case DType::TF32:
      return {16, 8, 8, 4, 2, 1, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"};
    case DType::I8:
      return {16, 8, 32, 4, 2, 4, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"};
    case DType::F8E4M3:
    case DType::F8E5M2:
      return {16, 8, 32, 4, 2, 4, fmt::format("mma.sync.aligned.m16n8k32.row.col.f32.{}.{}.f32", ab, ptx_type(b))};
    default:  // f64
      return {8, 8, 4, 1, 1, 1, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", true};
  }
}

int elem_bytes(DType d) { return d == DType::TF32 ? 4 : dtype_bytes(d); }

}  // namespace

// ldmatrix addressing of one operand for one warp (PTX ISA §9.7.13.4.15): lane l gives the
// address of one line of matrix l/8. `reg` holds that address for the first x4 group; the
// others are `line_off` lines and `chunk_off` 16-byte chunks away. Lines are a multiple of 8
// apart, so a line's swizzle pattern is the lane's; chunk offsets never share a bit with the
// lane's chunk (see lane_address), so in a swizzled tile they go in with XOR.
struct MmaSyncEmitter::LaneAddress {
  std::string reg;
  int64_t pitch = 0;
  bool swizzled = false;
  std::map<int64_t, std::string> xored;  ///< chunk offset → reg ^ (offset * 16)
};

MmaSyncEmitter::LaneAddress MmaSyncEmitter::lane_address(const SmemOperand& s, bool line_bit_high,
                                                         const std::string& warp_line, const std::string& warp_chunk) {
  // Lane l: line (l % 8) + 8 * bit + warp_line, chunk bit' + warp_chunk, where (bit, bit') are
  // ((l/8) % 2, l/16) or, with line_bit_high, (l/16, (l/8) % 2). warp_chunk is a multiple of
  // the warp's width in chunks (a power of two), so adding the group offsets is an OR.
  std::string lane = b_.reg(RegClass::B32), l7 = b_.reg(RegClass::B32), lb = b_.reg(RegClass::B32),
              cb = b_.reg(RegClass::B32);
  b_.ins("and.b32", {lane, cx_.tid_, "31"});
  b_.ins("and.b32", {l7, lane, "7"});
  b_.ins("bfe.u32", {lb, lane, line_bit_high ? "4" : "3", "1"});
  b_.ins("bfe.u32", {cb, lane, line_bit_high ? "3" : "4", "1"});
  std::string line = b_.reg(RegClass::B32);
  b_.ins("mad.lo.u32", {line, lb, "8", l7});
  if (!warp_line.empty()) b_.ins("add.u32", {line, line, warp_line});
  if (!warp_chunk.empty()) b_.ins("add.u32", {cb, cb, warp_chunk});
  std::string bytes = b_.reg(RegClass::B32);
  b_.ins("shl.b32", {bytes, cb, "4"});
  if (s.swizzled) b_.ins("xor.b32", {bytes, bytes, smem_chunk_xor(b_, l7, s.pitch)});
  LaneAddress a;
  a.reg = b_.reg(RegClass::B32);
  a.pitch = s.pitch;
  a.swizzled = s.swizzled;
  b_.ins("mad.lo.u32", {a.reg, line, u32(s.pitch), s.base});
  b_.ins("add.u32", {a.reg, a.reg, bytes});
  return a;
}

std::string MmaSyncEmitter::lane_at(LaneAddress& a, int64_t line_off, int64_t chunk_off) {
  if (!a.swizzled) return fmt::format("[{}+{}]", a.reg, line_off * a.pitch + chunk_off * 16);
  std::string r = a.reg;
  if (chunk_off) {
    std::string& x = a.xored[chunk_off];
    if (x.empty()) {
      x = b_.reg(RegClass::B32);
      b_.ins("xor.b32", {x, a.reg, u32(chunk_off * 16)});
    }
    r = x;
  }
  return fmt::format("[{}+{}]", r, line_off * a.pitch);
}

std::string MmaSyncEmitter::smem_element(const SmemOperand& s, const std::string& r, int64_t r_off, const std::string& c,
                                         int64_t c_off) {
  // Element (r, c) of the operand: line r, position c (contiguous_dim 1) or the other way.
  const std::string& lr = s.contiguous_dim == 1 ? r : c;
  const std::string& pr = s.contiguous_dim == 1 ? c : r;
  int64_t lo = s.contiguous_dim == 1 ? r_off : c_off, po = s.contiguous_dim == 1 ? c_off : r_off;
  std::string line = b_.reg(RegClass::B32), bytes = b_.reg(RegClass::B32), addr = b_.reg(RegClass::B32);
  b_.ins("add.u32", {line, lr, u32(lo)});
  b_.ins("add.u32", {bytes, pr, u32(po)});
  b_.ins("mul.lo.u32", {bytes, bytes, u32(s.esz)});
  if (s.swizzled) b_.ins("xor.b32", {bytes, bytes, smem_chunk_xor(b_, line, s.pitch)});
  b_.ins("mad.lo.u32", {addr, line, u32(s.pitch), s.base});
  b_.ins("add.u32", {addr, addr, bytes});
  return "[" + addr + "]";
}

MmaSyncEmitter::StagePlan MmaSyncEmitter::stage_plan(const Layout& l, DType d, const std::string& base,
                                                     int64_t pitch) {
  // Every thread writes the elements it holds, 16 bytes at a time where its layout has them
  // contiguous along the row (the usual blocked layout of a load).
  StagePlan s;
  s.e = elem_bytes(d);
  s.pitch = pitch;
  const ThreadCoords& tc = cx_.coords(l);
  int rank = l.rank();
  s.addr = b_.reg(RegClass::B32);
  b_.ins("mad.lo.u32", {s.addr, tc.base[size_t(rank - 2)], u32(pitch), base});
  std::string cb = b_.reg(RegClass::B32);
  b_.ins("mul.lo.u32", {cb, tc.base[size_t(rank - 1)], u32(s.e)});
  b_.ins("add.u32", {s.addr, s.addr, cb});
  s.per_store = std::max(1, std::min(l.spt(rank - 1), 16 / s.e));
  s.guard = tc.primary;
  return s;
}

void MmaSyncEmitter::stage_registers(const Layout& l, const StagePlan& s, int64_t first,
                                     const std::vector<std::string>& r) {
  int rank = l.rank(), e = s.e, spt = l.spt(rank - 1);
  int64_t len = int64_t(r.size());
  for (int64_t i = 0; i < len;) {
    std::vector<int64_t> off = l.reg_offset(first + i);
    int64_t row = off[size_t(rank - 2)], col = off[size_t(rank - 1)];
    std::string at = fmt::format("[{}+{}]", s.addr, row * s.pitch + col * e);
    int per = s.per_store;
    int n = (col % spt == 0 && (per * e) % 4 == 0 && per > 1 && i + per <= len) ? per : 1;
    std::vector<std::string> words;
    if (n > 1 && e == 2) {
      for (int k = 0; k < n; k += 2) {
        std::string w = b_.reg(RegClass::B32);
        b_.ins("mov.b32", {w, "{" + r[size_t(i + k)] + ", " + r[size_t(i + k + 1)] + "}"});
        words.push_back(w);
      }
    } else if (n > 1 && e == 1) {
      for (int k = 0; k < n; k += 4) {
        std::string w = b_.reg(RegClass::B32);
        b_.ins("mov.b32", {w, "0"});
        for (int j = 0; j < 4; ++j)
          b_.ins("bfi.b32", {w, r[size_t(i + k + j)], w, std::to_string(8 * j), "8"});
        words.push_back(w);
      }
    } else if (n > 1) {
      words.assign(r.begin() + i, r.begin() + i + n);
    }
    std::string opcode;
    std::vector<std::string> ops{at};
    if (n == 1) {
      std::string v0 = r[size_t(i)];
      opcode = e == 8 ? "st.shared.b64" : e == 4 ? "st.shared.b32" : e == 2 ? "st.shared.b16" : "st.shared.b8";
      if (e == 1) {
        std::string w = b_.reg(RegClass::B16);
        b_.ins("cvt.u16.u32", {w, v0});
        v0 = w;
      }
      ops.push_back(v0);
    } else {
      std::string ty = e == 8 ? "b64" : "b32";
      opcode = words.size() == 1 ? "st.shared." + ty : fmt::format("st.shared.v{}.{}", words.size(), ty);
      ops.push_back(words.size() == 1 ? words[0] : "{" + fmt::format("{}", fmt::join(words, ", ")) + "}");
    }
    if (!s.guard.empty()) b_.ins_if(s.guard, opcode, {ops[0], ops[1]});
    else b_.ins(opcode, {ops[0], ops[1]});
    i += n;
  }
}

void MmaSyncEmitter::stage_operand(const ir::Value* v, const std::string& base, int64_t pitch) {
  const Layout& l = cx_.k_.layout(v);
  StagePlan s = stage_plan(l, v->type.tile.dtype, base, pitch);
  stage_registers(l, s, 0, cx_.regs(v));
}

int64_t MmaSyncEmitter::store_group(const Layout& l, DType d) {
  // One store's worth of registers (16 bytes of a row where the layout allows; stage_plan),
  // dividing the registers per thread.
  int64_t group = std::max(1, std::min(l.spt(l.rank() - 1), 16 / elem_bytes(d)));
  while (group > 1 && l.regs_per_thread() % group) group /= 2;
  return group;
}

void MmaSyncEmitter::stage_load(const ir::Op& load, const std::string& base, int64_t pitch) {
  const ir::Value* t = load.results[0];
  const Layout& l = cx_.k_.layout(t);
  StagePlan s = stage_plan(l, t->type.tile.dtype, base, pitch);
  int64_t group = store_group(l, t->type.tile.dtype);
  SourceRange at = cx_.op_loc_;
  b_.loc(load.loc);
  memory_.load_in_groups(load, group, [&](int64_t first, const std::vector<std::string>& regs) {
    stage_registers(l, s, first, regs);
  });
  b_.loc(at);
}

void MmaSyncEmitter::load_packed(const ir::Op& load) {
  bool packed = false;
  for (const auto& [operand, sl] : staged_) packed = packed || (sl.load == &load && sl.packed);
  if (!packed) return;
  const ir::Value* t = load.results[0];
  const Layout& l = cx_.k_.layout(t);
  int64_t group = store_group(l, t->type.tile.dtype);
  // The words are the same registers on the interior and the edge path.
  std::vector<std::string>& words = packed_[&load];
  for (int64_t i = 0; i < l.regs_per_thread(); i += 2) words.push_back(b_.reg(RegClass::B32));
  b_.loc(load.loc);
  memory_.load_in_groups(load, group, [&](int64_t first, const std::vector<std::string>& regs) {
    for (size_t k = 0; k + 1 < regs.size(); k += 2)
      b_.ins("mov.b32", {words[size_t(first) / 2 + k / 2], "{" + regs[k] + ", " + regs[k + 1] + "}"});
  });
}

void MmaSyncEmitter::stage_packed(const ir::Op& load, const std::string& base, int64_t pitch) {
  const ir::Value* t = load.results[0];
  const Layout& l = cx_.k_.layout(t);
  StagePlan s = stage_plan(l, t->type.tile.dtype, base, pitch);
  int64_t group = store_group(l, t->type.tile.dtype);
  const std::vector<std::string>& words = packed_.at(&load);
  int rank = l.rank();
  for (int64_t first = 0; first < l.regs_per_thread(); first += group) {
    // A group is `group` elements of one row, contiguous (store_group): one st.shared.
    std::vector<int64_t> off = l.reg_offset(first);
    std::string at = fmt::format("[{}+{}]", s.addr, off[size_t(rank - 2)] * s.pitch + off[size_t(rank - 1)] * s.e);
    std::vector<std::string> w(words.begin() + first / 2, words.begin() + (first + group) / 2);
    std::string opcode = w.size() == 1 ? "st.shared.b32" : fmt::format("st.shared.v{}.b32", w.size());
    std::string val = w.size() == 1 ? w[0] : "{" + fmt::format("{}", fmt::join(w, ", ")) + "}";
    if (!s.guard.empty()) b_.ins_if(s.guard, opcode, {at, val});
    else b_.ins(opcode, {at, val});
  }
}

void MmaSyncEmitter::find_staged_loads(const ir::Function& f) {
  staged_.clear();
  skipped_.clear();
  packed_.clear();
  std::map<const ir::Value*, int> uses;
  ir::Function& fn = const_cast<ir::Function&>(f);
  ir::walk(fn.body, [&](ir::Op& op) {
    for (const ir::Value* v : op.operands) ++uses[v];
  });
  ir::walk(fn.body, [&](ir::Op& mma) {
    if (mma.kind != ir::OpKind::Mma) return;
    for (int i = 0; i < 2; ++i) {
      const ir::Value* operand = mma.operands[size_t(i)];
      std::vector<const ir::Op*> chain;
      bool transposed;
      const ir::Value* v = viewed_value(operand, transposed, &chain);
      bool single = true;
      for (const ir::Op* c : chain) single = single && uses[c->results[0]] == 1;
      const ir::Op* ld = v->def;
      if (!single || !ld || ld->kind != ir::OpKind::Load || uses[v] != 1 || v->type.is_scalar()) continue;
      // The load's shape is the operand's (transposed when a permute was passed) after leading
      // unit dimensions (the staging keeps the load's last two dimensions).
      const std::vector<int64_t>& ls = v->type.tile.shape;
      const std::vector<int64_t>& os = operand->type.tile.shape;
      size_t rows = transposed ? 1 : 0;
      bool shape_ok = ls.size() >= 2 && os.size() == 2 && ls[ls.size() - 2] == os[rows] && ls.back() == os[1 - rows];
      for (size_t d = 0; d + 2 < ls.size(); ++d) shape_ok = shape_ok && ls[d] == 1;
      if (!shape_ok) continue;
      // A 16-bit load in a block around the mma's (a loop-invariant operand, attention's Q):
      // loaded where it is, two elements to a register, and staged from those registers by
      // every run of the mma (load_packed).
      bool same_block = ld->parent == mma.parent;
      for (const ir::Op* c : chain) same_block = same_block && c->parent == mma.parent;
      if (!same_block) {
        bool around = false;
        for (const ir::Block* b = mma.parent; b && !around; b = b->parent ? b->parent->parent : nullptr)
          around = b == ld->parent;
        DType d = v->type.tile.dtype;
        if (!around || elem_bytes(d) != 2 || store_group(cx_.k_.layout(v), d) < 2) continue;
        staged_[operand] = {ld, transposed, true};
        skipped_.insert(ld);
        skipped_.insert(chain.begin(), chain.end());
        continue;
      }
      bool quiet = true, after = false;
      for (const auto& o : mma.parent->ops) {
        if (o.get() == &mma) break;
        if (o.get() == ld) {
          after = true;
          continue;
        }
        if (!after) continue;
        switch (o->kind) {
          case ir::OpKind::Store:
          case ir::OpKind::Scatter:
          case ir::OpKind::Atomic:
          case ir::OpKind::Print:
          case ir::OpKind::Assert: quiet = false; break;
          default: quiet = quiet && o->regions.empty();
        }
      }
      if (!quiet || !after) continue;
      staged_[operand] = {ld, transposed};
      skipped_.insert(ld);
      skipped_.insert(chain.begin(), chain.end());
    }
  });
}

void MmaSyncEmitter::mma(const ir::Op& op) {
  DType ta = op.operands[0]->type.tile.dtype;
  if (is_f8(ta) && !cx_.o_.target.has_f8_mma_sync()) {
    cx_.error_needs_sm89(op.loc, "mma on f8");
    cx_.define(op.results[0]);  // the rest of the kernel still finds registers for the result
    return;
  }
  if (is_f8(ta)) cx_.need_ptx(84);
  // Each operand is either where an async load put it (the stage the loop reads now) or is
  // staged row-major, unswizzled, with 16 bytes of padding per row, in the conversion buffer.
  int e = elem_bytes(ta);
  SmemOperand s[2];
  int64_t staged = 0;
  for (int i = 0; i < 2; ++i) {
    const ir::Value* v = op.operands[size_t(i)];
    const AsyncLoad* al = cx_.o_.vectorized ? cx_.k_.async_load(v) : nullptr;
    if (al) {
      s[i] = {cx_.async_base_.at(al), e, al->contiguous_dim, al->pitch(), true};
      continue;
    }
    std::string base = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {base, cx_.smem_});
    if (staged) b_.ins("add.u32", {base, base, u32(staged)});
    // A staged load is written as the load's tile: lines along the operand's columns, or,
    // transposed, along its rows (contiguous_dim 0: ldmatrix reads them as it reads the
    // cp.async stage of the same load).
    auto staged_load = staged_.find(v);
    bool transposed = staged_load != staged_.end() && staged_load->second.transposed;
    const std::vector<int64_t>& shape = v->type.tile.shape;
    int64_t lines = transposed ? shape[1] : shape[0], line_elems = transposed ? shape[0] : shape[1];
    s[i] = {base, e, transposed ? 0 : 1, line_elems * e + 16, false};
    if (staged_load != staged_.end() && staged_load->second.packed)
      stage_packed(*staged_load->second.load, base, s[i].pitch);
    else if (staged_load != staged_.end())
      stage_load(*staged_load->second.load, base, s[i].pitch);
    else
      stage_operand(v, base, s[i].pitch);
    staged += lines * s[i].pitch;
  }
  if (staged) cx_.cta_barrier();
  mma_compute(op, s[0], s[1]);
  // The conversion buffer is reused by the next mma or conversion.
  if (staged) cx_.cta_barrier();
}

void MmaSyncEmitter::mma_compute(const ir::Op& op, const SmemOperand& sa, const SmemOperand& sb) {
  const ir::Value* A = op.operands[0];
  const ir::Value* B = op.operands[1];
  const ir::Value* C = op.operands[2];
  DType ta = A->type.tile.dtype, tc = C->type.tile.dtype;
  MmaKind mk = mma_kind(ta, B->type.tile.dtype, tc);
  const Layout& lc = cx_.k_.layout(C);
  int64_t M = A->type.tile.shape[0], K = A->type.tile.shape[1], N = B->type.tile.shape[1];
  int e = elem_bytes(ta);

  // This warp's block of the result: rows row0.., columns col0...
  std::string lane = b_.reg(RegClass::B32), warp = b_.reg(RegClass::B32);
  b_.ins("and.b32", {lane, cx_.tid_, "31"});
  b_.ins("shr.u32", {warp, cx_.tid_, "5"});
  if (lc.mma_copies > 1) b_.ins("rem.u32", {warp, warp, u32(lc.warps_m * lc.warps_n)});  // copies
  int64_t wm_rows = M / lc.warps_m, wn_cols = N / lc.warps_n;
  std::string wm = b_.reg(RegClass::B32), wn = b_.reg(RegClass::B32);
  b_.ins("div.u32", {wm, warp, u32(lc.warps_n)});
  b_.ins("rem.u32", {wn, warp, u32(lc.warps_n)});
  std::string g = b_.reg(RegClass::B32), t = b_.reg(RegClass::B32);
  b_.ins("shr.u32", {g, lane, "2"});
  b_.ins("and.b32", {t, lane, "3"});
  std::string row0 = b_.reg(RegClass::B32), col0 = b_.reg(RegClass::B32);
  b_.ins("mul.lo.u32", {row0, wm, u32(wm_rows)});
  b_.ins("mul.lo.u32", {col0, wn, u32(wn_cols)});
  int64_t reps_m = wm_rows / mk.m, reps_n = wn_cols / mk.n;

  // Accumulator registers: a fresh copy of C that the instructions update in place.
  const std::vector<std::string>& cin = cx_.regs(C);
  std::vector<std::string>& acc = cx_.define(op.results[0]);
  RegClass cc = reg_class(tc);
  for (size_t i = 0; i < acc.size(); ++i)
    b_.ins(cc == RegClass::B64 ? "mov.b64" : cc == RegClass::B16 ? "mov.b16" : "mov.b32", {acc[i], cin[i]});

  // ldmatrix reads 16-byte rows of 8x8 16-bit matrices: any 16-bit operand (.trans when its
  // lines run along M or N), and 8- or 32-bit ones whose lines run along K (a 32-bit element
  // is two 16-bit halves of one row). The rest load elements with ld.shared.
  bool ldsm_a = !mk.wide && (e == 2 || sa.contiguous_dim == 1);
  bool ldsm_b = !mk.wide && (e == 2 || sb.contiguous_dim == 0);
  std::string chunk_row0, chunk_col0;
  if (ldsm_a && sa.contiguous_dim == 0) {
    chunk_row0 = b_.reg(RegClass::B32);
    b_.ins("shr.u32", {chunk_row0, row0, "3"});
  }
  if (ldsm_b && sb.contiguous_dim == 1) {
    chunk_col0 = b_.reg(RegClass::B32);
    b_.ins("shr.u32", {chunk_col0, col0, "3"});
  }
  // A: matrices (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15, k 8-15) → a0..a3.
  // B: (k 0-7, n 0-7), (k 8-15, n 0-7) → b0, b1 of one n8 piece, then the next piece.
  LaneAddress la, lb;
  if (ldsm_a)
    la = sa.contiguous_dim == 1 ? lane_address(sa, false, row0, "") : lane_address(sa, true, "", chunk_row0);
  if (ldsm_b)
    lb = sb.contiguous_dim == 1 ? lane_address(sb, false, "", chunk_col0) : lane_address(sb, true, col0, "");

  // Element loads: lane parts of the fragment coordinates (PTX ISA §9.7.13.4.7-14): A rows g,
  // columns t * per; B rows t * per, columns g.
  std::string tper, arow, bcol;
  if (!ldsm_a || !ldsm_b) {
    tper = b_.reg(RegClass::B32), arow = b_.reg(RegClass::B32), bcol = b_.reg(RegClass::B32);
    b_.ins("mul.lo.u32", {tper, t, u32(mk.per_reg)});
    b_.ins("add.u32", {arow, g, row0});
    b_.ins("add.u32", {bcol, g, col0});
  }
  // One fragment register: `count` elements from (r, c) on, along the columns (A) or rows (B).
  auto load_register = [&](const std::string& dst, const SmemOperand& s, const std::string& r, int64_t ro,
                           const std::string& c, int64_t co, bool along_rows) {
    int count = mk.per_reg;
    bool contiguous = count == 1 || (along_rows ? s.contiguous_dim == 0 : s.contiguous_dim == 1);
    if (contiguous) {
      b_.ins(mk.wide ? "ld.shared.b64" : "ld.shared.b32", {dst, smem_element(s, r, ro, c, co)});
      return;
    }
    b_.ins("mov.b32", {dst, "0"});
    for (int j = 0; j < count; ++j) {
      std::string part = b_.reg(RegClass::B32);
      std::string at = along_rows ? smem_element(s, r, ro + j, c, co) : smem_element(s, r, ro, c, co + j);
      b_.ins(e == 1 ? "ld.shared.u8" : "ld.shared.u16", {part, at});
      b_.ins("bfi.b32", {dst, part, dst, std::to_string(8 * e * j), std::to_string(8 * e)});
    }
  };

  RegClass fr = mk.wide ? RegClass::B64 : RegClass::B32;
  bool f8_as_f16 = is_f8(ta) && !cx_.o_.target.has_native_f8_mma_sync();
  int64_t k_chunks = mk.k * e / 16;  // 16-byte chunks per k step (2; f64 has no ldmatrix)
  for (int64_t kk = 0; kk < K / mk.k; ++kk) {
    std::vector<std::vector<std::string>> fa(static_cast<size_t>(reps_m)), fb(static_cast<size_t>(reps_n));
    for (int64_t rm = 0; rm < reps_m; ++rm) {
      for (int i = 0; i < mk.a_regs; ++i) fa[size_t(rm)].push_back(b_.reg(fr));
      if (ldsm_a) {
        std::string at = sa.contiguous_dim == 1 ? lane_at(la, rm * 16, kk * k_chunks) : lane_at(la, kk * 16, rm * 2);
        b_.ins(sa.contiguous_dim == 1 ? "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
                                      : "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
               {"{" + fmt::format("{}", fmt::join(fa[size_t(rm)], ", ")) + "}", at});
        continue;
      }
      for (int i = 0; i < mk.a_regs; ++i) {
        // registers alternate rows +0/+8 (m16), then columns + k/2
        int64_t r = rm * mk.m + (mk.m == 16 ? 8 * (i % 2) : 0);
        int64_t c = kk * mk.k + (mk.a_regs > 1 ? (i / 2) * (mk.k / 2) : 0);
        load_register(fa[size_t(rm)][size_t(i)], sa, arow, r, tper, c, false);
      }
    }
    for (int64_t rn = 0; rn < reps_n; ++rn)
      for (int i = 0; i < mk.b_regs; ++i) fb[size_t(rn)].push_back(b_.reg(fr));
    if (ldsm_b) {
      std::string trans = sb.contiguous_dim == 1 ? ".trans" : "";
      for (int64_t rn = 0; rn < reps_n; rn += 2) {
        std::string at = sb.contiguous_dim == 1 ? lane_at(lb, kk * 16, rn) : lane_at(lb, rn * 8, kk * k_chunks);
        if (rn + 1 < reps_n) {
          b_.ins("ldmatrix.sync.aligned.m8n8.x4" + trans + ".shared.b16",
                 {"{" + fb[size_t(rn)][0] + ", " + fb[size_t(rn)][1] + ", " + fb[size_t(rn + 1)][0] + ", " +
                      fb[size_t(rn + 1)][1] + "}",
                  at});
        } else {
          b_.ins("ldmatrix.sync.aligned.m8n8.x2" + trans + ".shared.b16",
                 {"{" + fb[size_t(rn)][0] + ", " + fb[size_t(rn)][1] + "}", at});
        }
      }
    } else {
      for (int64_t rn = 0; rn < reps_n; ++rn)
        for (int i = 0; i < mk.b_regs; ++i)
          load_register(fb[size_t(rn)][size_t(i)], sb, tper, kk * mk.k + i * (mk.k / mk.b_regs), bcol, rn * mk.n, true);
    }
    // The pipeline's late sync (cp_async.cpp) once every fragment is in registers.
    if (kk + 1 == K / mk.k) pipeline_.late_sync_at(op);
    if (f8_as_f16) {
      f8_mmas_as_f16(ta, B->type.tile.dtype, fa, fb, acc);
      continue;
    }
    for (int64_t rm = 0; rm < reps_m; ++rm)
      for (int64_t rn = 0; rn < reps_n; ++rn) {
        int per = mk.m == 16 ? 4 : 2;
        size_t first = size_t((rm * reps_n + rn) * per);
        std::vector<std::string> d(acc.begin() + first, acc.begin() + first + per);
        std::string fa_list = "{" + fmt::format("{}", fmt::join(fa[size_t(rm)], ", ")) + "}";
        std::string fb_list = "{" + fmt::format("{}", fmt::join(fb[size_t(rn)], ", ")) + "}";
        if (tc == DType::F16) {
          // f16 accumulators travel as two packed words
          std::string w0 = b_.reg(RegClass::B32), w1 = b_.reg(RegClass::B32);
          b_.ins("mov.b32", {w0, "{" + d[0] + ", " + d[1] + "}"});
          b_.ins("mov.b32", {w1, "{" + d[2] + ", " + d[3] + "}"});
          b_.ins(mk.opcode, {"{" + w0 + ", " + w1 + "}", fa_list, fb_list, "{" + w0 + ", " + w1 + "}"});
          b_.ins("mov.b32", {"{" + d[0] + ", " + d[1] + "}", w0});
          b_.ins("mov.b32", {"{" + d[2] + ", " + d[3] + "}", w1});
          continue;
        }
        std::string dlist = "{" + fmt::format("{}", fmt::join(d, ", ")) + "}";
        b_.ins(mk.opcode, {dlist, fa_list, fb_list, dlist});
      }
  }
}

void MmaSyncEmitter::f8_mmas_as_f16(DType ta, DType tb, const std::vector<std::vector<std::string>>& fa,
                                    const std::vector<std::vector<std::string>>& fb, const std::vector<std::string>& acc) {
  // One k step of f8 m16n8k32 mmas (fragments fa[rm], fb[rn]; accumulator piece (rm, rn) at
  // acc[4 * (rm * reps_n + rn)]) as f16 m16n8k16 pairs on the same accumulators (exact: every
  // e4m3 and e5m2 value is an f16, and an f16 product is exact in f32). Fragments (PTX ISA,
  // "Matrix Fragments for mma.m16n8k32" and "for mma.m16n8k16"): for m16n8k32, thread t holds
  // in a0/a1 (rows g, g+8) the k columns 4t..4t+3 and in a2/a3 16+4t..16+4t+3, in b0 the k
  // rows 4t..4t+3 and in b1 16+4t..; for m16n8k16, a0/a1 hold k 2t, 2t+1 and a2/a3 2t+8, 2t+9,
  // b0 k 2t, 2t+1 and b1 2t+8, 2t+9. A product's terms may be summed in any k order as long as
  // A and B use the same one, so the first f16 mma takes k 4t, 4t+1 (each register's low byte
  // pair) as its 2t, 2t+1 and 4t+2, 4t+3 (the high pair) as its 2t+8, 2t+9; the second one
  // the same from a2/a3 and b1. cvt.rn.f16x2.e4m3x2 puts the low byte in the low half
  // (§9.7.9.21). Every accumulator takes its first half, then its second, as the f8 mma's
  // order would be; all first halves are issued before the second ones, so a2/a3/b1 stay
  // 8-bit until then and a0/a1/b0 and their widened forms are dead after (about 48 registers
  // fewer live at once than widening the whole k step). Each register is widened where its
  // first mma needs it.
  std::map<std::string, std::pair<std::string, std::string>> widened;
  auto widen = [&](const std::string& r, DType t) {
    auto& w = widened[r];
    if (w.first.empty()) {
      std::string lo = b_.reg(RegClass::B16), hi = b_.reg(RegClass::B16);
      w = {b_.reg(RegClass::B32), b_.reg(RegClass::B32)};
      b_.ins("mov.b32", {"{" + lo + ", " + hi + "}", r});
      b_.ins("cvt.rn.f16x2." + ptx_type(t) + "x2", {w.first, lo});
      b_.ins("cvt.rn.f16x2." + ptx_type(t) + "x2", {w.second, hi});
    }
    return w;
  };
  size_t reps_n = fb.size();
  for (size_t half = 0; half < 2; ++half)
    for (size_t rm = 0; rm < fa.size(); ++rm)
      for (size_t rn = 0; rn < reps_n; ++rn) {
        auto a0 = widen(fa[rm][2 * half], ta), a1 = widen(fa[rm][2 * half + 1], ta), b0 = widen(fb[rn][half], tb);
        size_t first = (rm * reps_n + rn) * 4;
        std::string d = "{" + fmt::format("{}", fmt::join(acc.begin() + long(first), acc.begin() + long(first + 4), ", ")) + "}";
        b_.ins("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
               {d, fmt::format("{{{}, {}, {}, {}}}", a0.first, a1.first, a0.second, a1.second),
                fmt::format("{{{}, {}}}", b0.first, b0.second), d});
      }
}

}  // namespace tilec::codegen
