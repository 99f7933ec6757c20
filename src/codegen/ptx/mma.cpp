// mma(a, b, acc) on tensor cores with mma.sync (PTX ISA §9.7.13.3-4, sm_80+). The operands
// are staged in shared memory (rows padded by 16 bytes, so that the 8 rows one ldmatrix reads
// fall in 8 different bank groups), then each warp loads its fragments — ldmatrix for 16-bit
// types (.trans for B), ld.shared for the others — and issues one instruction per 16×8 (or
// 8×8 for f64) piece of its block of the accumulator (layout.h, Kind::Mma).
#include <fmt/format.h>

#include "codegen/ptx/emitter.h"

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

std::string type_name(DType d) {
  switch (d) {
    case DType::F16: return "f16";
    case DType::BF16: return "bf16";
    case DType::TF32: return "tf32";
    case DType::I8: return "s8";
    case DType::F8E4M3: return "e4m3";
    case DType::F8E5M2: return "e5m2";
    case DType::F64: return "f64";
    case DType::I32: return "s32";
    default: return "f32";
  }
}

MmaKind mma_kind(DType a, DType c) {
  std::string ab = type_name(a), cd = type_name(c);
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
      return {16, 8, 32, 4, 2, 4, fmt::format("mma.sync.aligned.m16n8k32.row.col.f32.{}.{}.f32", ab, ab)};
    default:  // f64
      return {8, 8, 4, 1, 1, 1, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", true};
  }
}

int elem_bytes(DType d) { return d == DType::TF32 ? 4 : dtype_bytes(d); }

}  // namespace

int64_t mma_staging_bytes(const ir::Op& op) {
  const auto& a = op.operands[0]->type.tile.shape;
  const auto& b = op.operands[1]->type.tile.shape;
  int e = elem_bytes(op.operands[0]->type.tile.dtype);
  return a[0] * (a[1] * e + 16) + b[0] * (b[1] * e + 16);
}

void Emitter::stage_operand(const ir::Value* v, const std::string& base, int64_t pitch) {
  // Every thread writes the elements it holds, 16 bytes at a time where its layout has them
  // contiguous along the row (the usual blocked layout of a load).
  const Layout& l = k_.layout(v);
  DType d = v->type.tile.dtype;
  int e = elem_bytes(d);
  const ThreadCoords& tc = coords(l);
  std::string row = tc.base[0], col = tc.base[1];
  std::string addr = b_.reg(RegClass::B32);
  b_.ins("mad.lo.u32", {addr, row, u32(pitch), base});
  std::string cb = b_.reg(RegClass::B32);
  b_.ins("mul.lo.u32", {cb, col, u32(e)});
  b_.ins("add.u32", {addr, addr, cb});
  const std::vector<std::string>& r = regs(v);
  int spt = l.spt(1);
  int per_store = std::max(1, std::min(spt, 16 / e));
  bool guard = !tc.primary.empty();
  for (int64_t i = 0; i < l.regs_per_thread();) {
    std::vector<int64_t> off = l.reg_offset(i);
    std::string at = fmt::format("[{}+{}]", addr, off[0] * pitch + off[1] * e);
    int n = (off[1] % spt == 0 && (per_store * e) % 4 == 0 && per_store > 1) ? per_store : 1;
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
    if (guard) b_.ins_if(tc.primary, opcode, {ops[0], ops[1]});
    else b_.ins(opcode, {ops[0], ops[1]});
    i += n;
  }
}

void Emitter::mma(const ir::Op& op) {
  const ir::Value* A = op.operands[0];
  const ir::Value* B = op.operands[1];
  const ir::Value* C = op.operands[2];
  DType ta = A->type.tile.dtype, tc = C->type.tile.dtype;
  if ((ta == DType::F8E4M3 || ta == DType::F8E5M2) && o_.target.sm < 89) {
    error(op.loc, "mma on f8 needs sm_89 or newer (the -arch is " + o_.target.arch + ")");
    return;
  }
  if (ta == DType::F8E4M3 || ta == DType::F8E5M2) need_ptx(84);
  MmaKind mk = mma_kind(ta, tc);
  const Layout& lc = k_.layout(C);
  int64_t M = A->type.tile.shape[0], K = A->type.tile.shape[1], N = B->type.tile.shape[1];
  int e = elem_bytes(ta);
  int64_t pitch_a = K * e + 16, pitch_b = N * e + 16;

  // 1. Both operands into shared memory.
  std::string base_a = b_.reg(RegClass::B32), base_b = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {base_a, smem_});
  b_.ins("add.u32", {base_b, base_a, u32(M * pitch_a)});
  stage_operand(A, base_a, pitch_a);
  stage_operand(B, base_b, pitch_b);
  b_.ins("bar.sync", {"0"});

  // 2. This warp's block of the result.
  std::string lane = b_.reg(RegClass::B32), warp = b_.reg(RegClass::B32);
  b_.ins("and.b32", {lane, tid_, "31"});
  b_.ins("shr.u32", {warp, tid_, "5"});
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
  const std::vector<std::string>& cin = regs(C);
  std::vector<std::string>& acc = define(op.results[0]);
  RegClass cc = reg_class(tc);
  for (size_t i = 0; i < acc.size(); ++i)
    b_.ins(cc == RegClass::B64 ? "mov.b64" : cc == RegClass::B16 ? "mov.b16" : "mov.b32", {acc[i], cin[i]});
  bool ldmatrix = e == 2;
  // ldmatrix lane addresses (PTX ISA §9.7.13.4.15): lane l gives the row address of matrix l/8.
  std::string a_lane, b_lane;
  if (ldmatrix) {
    // A: rows l%16 of the m16 piece, columns (l/16)*8 of the k16 step.
    a_lane = b_.reg(RegClass::B32);
    std::string r = b_.reg(RegClass::B32), c = b_.reg(RegClass::B32);
    b_.ins("and.b32", {r, lane, "15"});
    b_.ins("add.u32", {r, r, row0});
    b_.ins("shr.u32", {c, lane, "4"});
    b_.ins("shl.b32", {c, c, "4"});  // (l/16)*8 elements * 2 bytes
    b_.ins("mad.lo.u32", {a_lane, r, u32(pitch_a), base_a});
    b_.ins("add.u32", {a_lane, a_lane, c});
    // B (.trans): k rows l%8 + 8*((l/8)%2), n columns + 8*(l/16) of the n16 pair.
    b_lane = b_.reg(RegClass::B32);
    std::string k = b_.reg(RegClass::B32), h = b_.reg(RegClass::B32), n = b_.reg(RegClass::B32);
    b_.ins("and.b32", {k, lane, "15"});
    b_.ins("shr.u32", {n, lane, "4"});
    b_.ins("shl.b32", {n, n, "3"});
    b_.ins("add.u32", {n, n, col0});
    b_.ins("mad.lo.u32", {b_lane, k, u32(pitch_b), base_b});
    b_.ins("mad.lo.u32", {h, n, u32(e), b_lane});
    b_lane = h;
  }
  for (int64_t kk = 0; kk < K / mk.k; ++kk) {
    // Fragments of A for each m piece, of B for each n piece.
    std::vector<std::vector<std::string>> fa(static_cast<size_t>(reps_m)), fb(static_cast<size_t>(reps_n));
    RegClass fr = mk.wide ? RegClass::B64 : RegClass::B32;
    for (int64_t rm = 0; rm < reps_m; ++rm) {
      for (int i = 0; i < mk.a_regs; ++i) fa[size_t(rm)].push_back(b_.reg(fr));
      if (ldmatrix) {
        b_.ins("ldmatrix.sync.aligned.m8n8.x4.shared.b16",
               {"{" + fmt::format("{}", fmt::join(fa[size_t(rm)], ", ")) + "}",
                fmt::format("[{}+{}]", a_lane, rm * mk.m * pitch_a + kk * mk.k * e)});
      }
    }
    for (int64_t rn = 0; rn < reps_n; ++rn)
      for (int i = 0; i < mk.b_regs; ++i) fb[size_t(rn)].push_back(b_.reg(fr));
    if (ldmatrix) {
      for (int64_t rn = 0; rn < reps_n; rn += 2) {
        std::string at = fmt::format("[{}+{}]", b_lane, kk * mk.k * pitch_b + rn * mk.n * e);
        if (rn + 1 < reps_n) {
          b_.ins("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
                 {"{" + fb[size_t(rn)][0] + ", " + fb[size_t(rn)][1] + ", " + fb[size_t(rn + 1)][0] + ", " +
                      fb[size_t(rn + 1)][1] + "}",
                  at});
        } else {
          b_.ins("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16", {"{" + fb[size_t(rn)][0] + ", " + fb[size_t(rn)][1] + "}", at});
        }
      }
    } else {
      // ld.shared per fragment element, from the fragment layouts of PTX ISA §9.7.13.4.
      auto load_elems = [&](const std::string& dst, const std::string& base, int64_t pitch, int64_t r0, const std::string& rr,
                            int64_t c0, const std::string& cr, int count, bool along_rows) {
        // element j of the register sits at (r0 + rr, c0 + cr) + j along the columns (A) or rows (B)
        std::string a = b_.reg(RegClass::B32);
        b_.ins("mad.lo.u32", {a, rr, u32(pitch), base});
        std::string cb = b_.reg(RegClass::B32);
        b_.ins("mul.lo.u32", {cb, cr, u32(e)});
        b_.ins("add.u32", {a, a, cb});
        int64_t off = r0 * pitch + c0 * e;
        if (count == 1 || !along_rows) {
          // contiguous along the row: one load of the whole register
          std::string w = mk.wide ? "ld.shared.b64" : "ld.shared.b32";
          b_.ins(w, {dst, fmt::format("[{}+{}]", a, off)});
          return;
        }
        // bytes along the rows (B of i8/f8): four loads packed into one word
        b_.ins("mov.b32", {dst, "0"});
        for (int j = 0; j < count; ++j) {
          std::string by = b_.reg(RegClass::B32);
          b_.ins("ld.shared.u8", {by, fmt::format("[{}+{}]", a, off + j * pitch)});
          b_.ins("bfi.b32", {dst, by, dst, std::to_string(8 * j), "8"});
        }
      };
      // Lane parts: A rows g, columns t*per; B rows t*per, columns g.
      std::string tcol = b_.reg(RegClass::B32), arow = b_.reg(RegClass::B32), bcol = b_.reg(RegClass::B32);
      b_.ins("mul.lo.u32", {tcol, t, u32(mk.per_reg)});
      b_.ins("add.u32", {arow, g, row0});
      b_.ins("add.u32", {bcol, g, col0});
      for (int64_t rm = 0; rm < reps_m; ++rm)
        for (int i = 0; i < mk.a_regs; ++i) {
          // registers alternate rows +0/+8 (m16), then columns + k/2
          int64_t r = rm * mk.m + (mk.m == 16 ? 8 * (i % 2) : 0);
          int64_t c = kk * mk.k + (mk.a_regs > 1 ? (i / 2) * (mk.k / 2) : 0);
          load_elems(fa[size_t(rm)][size_t(i)], base_a, pitch_a, r, arow, c, tcol, mk.per_reg, false);
        }
      for (int64_t rn = 0; rn < reps_n; ++rn)
        for (int i = 0; i < mk.b_regs; ++i) {
          int64_t r = kk * mk.k + i * (mk.k / mk.b_regs);
          int64_t c = rn * mk.n;
          load_elems(fb[size_t(rn)][size_t(i)], base_b, pitch_b, r, tcol, c, bcol, mk.per_reg, true);
        }
    }
    for (int64_t rm = 0; rm < reps_m; ++rm)
      for (int64_t rn = 0; rn < reps_n; ++rn) {
        int per = mk.m == 16 ? 4 : 2;
        size_t first = size_t((rm * reps_n + rn) * per);
        std::vector<std::string> d(acc.begin() + first, acc.begin() + first + per);
        std::string dlist;
        if (tc == DType::F16) {
          // f16 accumulators travel as two packed words
          std::string w0 = b_.reg(RegClass::B32), w1 = b_.reg(RegClass::B32);
          b_.ins("mov.b32", {w0, "{" + d[0] + ", " + d[1] + "}"});
          b_.ins("mov.b32", {w1, "{" + d[2] + ", " + d[3] + "}"});
          b_.ins(mk.opcode, {"{" + w0 + ", " + w1 + "}", "{" + fmt::format("{}", fmt::join(fa[size_t(rm)], ", ")) + "}",
                             "{" + fmt::format("{}", fmt::join(fb[size_t(rn)], ", ")) + "}", "{" + w0 + ", " + w1 + "}"});
          b_.ins("mov.b32", {"{" + d[0] + ", " + d[1] + "}", w0});
          b_.ins("mov.b32", {"{" + d[2] + ", " + d[3] + "}", w1});
          continue;
        }
        dlist = "{" + fmt::format("{}", fmt::join(d, ", ")) + "}";
        b_.ins(mk.opcode, {dlist, "{" + fmt::format("{}", fmt::join(fa[size_t(rm)], ", ")) + "}",
                           "{" + fmt::format("{}", fmt::join(fb[size_t(rn)], ", ")) + "}", dlist});
      }
  }
  // The staging buffer is reused by the next mma or conversion.
  b_.ins("bar.sync", {"0"});
}

}  // namespace tilec::codegen
