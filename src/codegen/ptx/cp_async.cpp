// The cp.async pipeline of a loop (lower.h, Pipeline; PTX ISA §9.7.9.25): the tiles of the
// async loads go from global to shared memory in 16-byte chunks without passing through
// registers, `stages - 1` iterations ahead of the mma that reads them, in a ring of stages:
//
//   prologue:   issue stages 0 .. S-2 (one commit group each, empty past the trip count)
//   iteration:  wait until this iteration's group landed (cp.async.wait_group S-2); bar.sync
//               (every thread's chunks are visible, and every warp is done with the stage
//               read last iteration); issue the iteration S-1 ahead into that stage; run the
//               body, whose mma reads this iteration's stage
//   epilogue:   cp.async.wait_all; bar.sync
//
// When the body's last reader of the stage is an mma at its top level (Pipeline::sync_mma, the
// usual GEMM loop), the barrier moves into that mma, after its last fragment loads and before
// its last k step's mma instructions (the placement of CUTLASS's multistage mainloop), so the
// tensor cores keep working through it:
//
//   prologue:   issue stages 0 .. S-1; wait for stage 0 (wait_group S-1); bar.sync
//   iteration:  the mma reads stage i; after its last fragment loads: wait for stage i+1
//               (wait_group S-2); bar.sync (stage i+1 visible; stage i read by every warp);
//               issue stage i+S into stage i's buffer; the last k step's mma instructions
//   epilogue:   cp.async.wait_all; bar.sync
//
// The same S buffers then keep S stages in flight instead of S-1.
//
// Chunk q of a tile (lines of `pitch` bytes, line = q / chunks_per_line) is copied by thread
// q % threads. Out-of-range parts of edge tiles are zero-filled through the copy's source size
// (bytes past it are written as zeros), so a K that is not a multiple of the tile is exact.
#include "codegen/ptx/cp_async.h"

#include <fmt/format.h>

#include "codegen/lowering/affine_index.h"

namespace tilec::codegen {
std::string smem_chunk_xor(PtxBuilder& b, const std::string& line, int64_t pitch) {
  // (line / max(1, 8 / chunks)) % min(chunks, 8), shifted to a byte offset (layout.h).
  int64_t chunks = pitch / 16;
  int64_t period = std::max<int64_t>(1, 8 / chunks), width = std::min<int64_t>(chunks, 8);
  std::string f = b.reg(RegClass::B32);
  b.ins("shr.u32", {f, line, std::to_string(log2_exact(period))});
  b.ins("and.b32", {f, f, u32(width - 1)});
  b.ins("shl.b32", {f, f, "4"});
  return f;
}

void CpAsyncPipeline::prologue(const ir::Op& loop, const Pipeline& p, State& st) {
  static_cast<EmitContext::LoopCounter&>(st) = cx_.loop_counter(loop);
  st.p = &p;
  bool wide = dtype_bits(st.idx) == 64;
  std::string iv64 = st.iv_issue;
  if (!wide) {
    iv64 = b_.reg(RegClass::B64);
    b_.ins(is_unsigned_int(st.idx) ? "cvt.u64.u32" : "cvt.s64.s32", {iv64, st.iv_issue});
  }
  st.base = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {st.base, cx_.smem_});
  b_.ins("add.u32", {st.base, st.base, u32(cx_.k_.pipeline_offset)});
  st.read = b_.reg(RegClass::B32);
  st.write = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {st.read, "0"});
  b_.ins("mov.u32", {st.write, "0"});
  int threads = cx_.k_.threads();

  for (const AsyncLoad& al : p.loads) {
    AsyncCopy c;
    c.al = &al;
    const ir::Op& ld = *al.load;
    const ArrayRegs& ar = cx_.arrays_.at(ld.operands[0]->type.array);
    const std::vector<int64_t>& shape = ld.results[0]->type.tile.shape;
    int rank = int(shape.size());
    c.line_dim = 0;
    for (int d = 0; d + 1 < rank; ++d)
      if (shape[size_t(d)] > 1) c.line_dim = d;
    c.last_dim = rank - 1;
    // Which chunks this thread copies: line lreg + line_const[j], chunk creg + chunk_const[j].
    int64_t cpl = al.pitch() / 16, total = al.lines * cpl;
    int64_t copies = (total + threads - 1) / threads;
    c.line = b_.reg(RegClass::B32);
    c.chunk = b_.reg(RegClass::B32);
    b_.ins("shr.u32", {c.line, cx_.tid_, std::to_string(log2_exact(cpl))});
    b_.ins("and.b32", {c.chunk, cx_.tid_, u32(cpl - 1)});
    for (int64_t j = 0; j < copies; ++j) {
      int64_t q0 = j * threads;  // the chunk thread 0 copies
      c.line_const.push_back(q0 / cpl);
      c.chunk_const.push_back(q0 % cpl);
    }
    // Only the last round can run past the tile (fewer chunks than threads).
    if (total % threads) {
      c.in_tile = b_.reg(RegClass::Pred);
      b_.ins("setp.lt.u32", {c.in_tile, cx_.tid_, u32(total - (copies - 1) * threads)});
    }
    // Shared offsets of the copies, swizzled: one register and immediates when every line
    // offset is a multiple of 8 and the chunk constant is 0 (the swizzle repeats every 8 lines).
    auto swizzled = [&](int64_t lc, int64_t cc) {
      std::string line = b_.reg(RegClass::B32), bytes = b_.reg(RegClass::B32), off = b_.reg(RegClass::B32);
      b_.ins("add.u32", {line, c.line, u32(lc)});
      b_.ins("add.u32", {bytes, c.chunk, u32(cc)});
      b_.ins("shl.b32", {bytes, bytes, "4"});
      b_.ins("xor.b32", {bytes, bytes, smem_chunk_xor(b_, line, al.pitch())});
      b_.ins("mad.lo.u32", {off, line, u32(al.pitch()), bytes});
      return off;
    };
    bool shared_reg = true;
    for (int64_t j = 0; j < copies; ++j) shared_reg = shared_reg && c.line_const[size_t(j)] % 8 == 0 && c.chunk_const[size_t(j)] == 0;
    for (int64_t j = 0; j < copies; ++j) {
      if (shared_reg) {
        if (j == 0) c.dst.emplace_back(swizzled(0, 0), 0);
        else c.dst.emplace_back(c.dst[0].first, c.line_const[size_t(j)] * al.pitch());
      } else {
        c.dst.emplace_back(swizzled(c.line_const[size_t(j)], c.chunk_const[size_t(j)]), 0);
      }
    }
    c.tile = b_.reg(RegClass::B32);
    b_.ins("add.u32", {c.tile, st.base, u32(al.offset)});

    // The global address of this thread's first chunk of the first tile, what it moves by per
    // iteration, and the bounds: per dim, extent - origin (moving with the induction variable
    // or fixed), origin >= 0 for the fixed dims.
    c.ptr = b_.reg(RegClass::B64);
    b_.ins("mov.b64", {c.ptr, ar.base});
    c.delta = b_.reg(RegClass::B64);
    b_.ins("mov.b64", {c.delta, "0"});
    c.fixed_ok = "";
    c.at_offsets = ld.offsets;
    c.extent = ar.extents;
    for (int d = 0; d < rank; ++d) {
      const ir::Value* index = ld.operands[size_t(d) + 1];
      // A moving index: the induction variable, or slope x it plus values from before the loop
      // (computed in the body: affine_index), evaluated here for the first issued iteration.
      std::optional<AffineIndex> affine = affine_index(index, loop);
      bool moves = affine.has_value();
      int64_t slope = moves ? affine->slope : 0;
      std::string idx;
      if (moves) {
        idx = iv64;
        if (slope != 1) {
          idx = b_.reg(RegClass::B64);
          b_.ins("mul.lo.s64", {idx, iv64, std::to_string(slope)});
        }
        for (const auto& [sign, term] : affine->terms) {
          std::string sum = b_.reg(RegClass::B64);
          b_.ins(sign > 0 ? "add.s64" : "sub.s64", {sum, idx, cx_.regs(term)[0]});
          idx = sum;
        }
      } else {
        idx = cx_.regs(index)[0];
        if (dtype_bits(index->type.tile.dtype) < 64) {
          std::string w = b_.reg(RegClass::B64);
          b_.ins(is_unsigned_int(index->type.tile.dtype) ? "cvt.u64.u32" : "cvt.s64.s32", {w, idx});
          idx = w;
        }
      }
      // The tile's first element along d: the offset itself, or index x shape.
      std::string origin = idx, rem = b_.reg(RegClass::B64);
      if (!c.at_offsets) {
        origin = b_.reg(RegClass::B64);
        b_.ins("mul.lo.s64", {origin, idx, std::to_string(shape[size_t(d)])});
      }
      b_.ins("mad.lo.s64", {c.ptr, origin, ar.stride_bytes[size_t(d)], c.ptr});
      b_.ins("sub.s64", {rem, ar.extents[size_t(d)], origin});
      c.moves.push_back(moves);
      c.advance.push_back(slope * st.step * (c.at_offsets ? 1 : shape[size_t(d)]));
      c.rem.push_back(rem);
      if (moves) {
        std::string t = b_.reg(RegClass::B64);
        b_.ins("mul.lo.s64", {t, ar.stride_bytes[size_t(d)], std::to_string(c.advance.back())});
        b_.ins("add.s64", {c.delta, c.delta, t});
        continue;
      }
      // A fixed dim: its bounds hold for every iteration. `ok`: origin >= 0 (at offsets, along
      // the line and last dims the edge copies bound each line and chunk from below instead),
      // and for a unit dim the one coordinate is inside; `inside`: the whole extent of the tile is.
      bool partial_below = c.at_offsets && (d == c.line_dim || d == c.last_dim);
      std::string nonneg = b_.reg(RegClass::Pred), inside = b_.reg(RegClass::Pred);
      b_.ins("setp.ge.s64", {nonneg, origin, "0"});
      b_.ins("setp.ge.s64", {inside, rem, std::to_string(shape[size_t(d)])});
      b_.ins("and.pred", {inside, inside, nonneg});
      if (!partial_below) {
        std::string ok = nonneg;
        if (d != c.line_dim && d != c.last_dim) {
          std::string in = b_.reg(RegClass::Pred);
          b_.ins("setp.gt.s64", {in, rem, "0"});
          b_.ins("and.pred", {ok, ok, in});
        }
        cx_.and_into(c.fixed_ok, ok);
      }
      cx_.and_into(c.fixed_inside, inside);
    }
    std::string t = b_.reg(RegClass::B64), t2 = b_.reg(RegClass::B64);
    b_.ins("cvt.u64.u32", {t, c.line});
    b_.ins("mad.lo.s64", {c.ptr, t, ar.stride_bytes[size_t(c.line_dim)], c.ptr});
    b_.ins("cvt.u64.u32", {t2, c.chunk});
    b_.ins("shl.b64", {t2, t2, "4"});
    b_.ins("add.s64", {c.ptr, c.ptr, t2});
    // Line strides between successive copies (a multiple of the line stride).
    for (int64_t j = 1; j < copies; ++j) {
      int64_t dl = c.line_const[size_t(j)] - c.line_const[size_t(j - 1)];
      if (dl && !c.line_step.count(dl)) {
        std::string r = b_.reg(RegClass::B64);
        b_.ins("mul.lo.s64", {r, ar.stride_bytes[size_t(c.line_dim)], std::to_string(dl)});
        c.line_step[dl] = r;
      }
    }
    // Elements of the line before this thread's chunk.
    c.chunk_elems = b_.reg(RegClass::B32);
    b_.ins("shl.b32", {c.chunk_elems, c.chunk, std::to_string(log2_exact(16 / al.esz))});
    st.copies.push_back(std::move(c));
  }
  if (p.sync_mma) {
    // Stages 0 .. S-1, every buffer; the loop starts reading stage 0.
    for (int s = 0; s < p.stages; ++s) {
      issue(st);
      b_.ins("add.u32", {st.write, st.write, u32(p.stage_bytes)});
    }
    b_.ins("mov.u32", {st.write, "0"});
    b_.ins("cp.async.wait_group", {std::to_string(p.stages - 1)});
    cx_.cta_barrier();
    return;
  }
  // Stages 0 .. S-2.
  for (int s = 0; s + 1 < p.stages; ++s) {
    issue(st);
    b_.ins("add.u32", {st.write, st.write, u32(p.stage_bytes)});
  }
}

void CpAsyncPipeline::issue(State& st) {
  std::string ty = st.type();
  std::string go = b_.reg(RegClass::Pred), skip = b_.label_name("no_copy");
  b_.ins(fmt::format("setp.lt.{}", ty), {go, st.iv_issue, st.upper});
  b_.ins_if("!" + go, "bra.uni", {skip});
  // Interior tiles (the usual case) copy whole chunks with no bounds arithmetic: along each
  // moving dim, origin >= 0 (extent - origin <= extent) and the whole tile below the extent.
  std::string inside;
  auto both = [&](std::string& acc, const std::string& p) { cx_.and_into(acc, p); };
  for (AsyncCopy& c : st.copies) {
    const std::vector<int64_t>& shape = c.al->load->results[0]->type.tile.shape;
    both(inside, c.fixed_inside);
    for (size_t d = 0; d < c.moves.size(); ++d) {
      if (!c.moves[d]) continue;
      std::string in = b_.reg(RegClass::Pred), nonneg = b_.reg(RegClass::Pred);
      b_.ins("setp.ge.s64", {in, c.rem[d], std::to_string(shape[d])});
      b_.ins("setp.le.s64", {nonneg, c.rem[d], c.extent[d]});
      both(inside, in);
      both(inside, nonneg);
    }
  }
  std::string edge = b_.label_name("edge_copy"), issued = b_.label_name("copied");
  if (!inside.empty()) b_.ins_if("!" + inside, "bra.uni", {edge});
  for (AsyncCopy& c : st.copies) {
    std::string wbase = b_.reg(RegClass::B32);
    b_.ins("add.u32", {wbase, c.tile, st.write});
    std::map<std::string, std::string> dst_for;  // offset register → shared address
    std::string src = b_.reg(RegClass::B64);
    for (size_t j = 0; j < c.dst.size(); ++j) {
      std::string at = copy_source(c, j, src), dst = copy_dest(c, j, wbase, dst_for);
      if (j + 1 == c.dst.size() && !c.in_tile.empty())
        b_.ins_if(c.in_tile, "cp.async.cg.shared.global", {dst, at, "16"});
      else
        b_.ins("cp.async.cg.shared.global", {dst, at, "16"});
    }
  }
  if (!inside.empty()) {
    b_.ins("bra.uni", {issued});
    b_.label(edge);
    for (AsyncCopy& c : st.copies) edge_copies(st, c);
  }
  b_.label(issued);
  b_.label(skip);
  b_.ins("cp.async.commit_group", {});
  // The next tile: the induction variable, the addresses and the bounds move on.
  b_.ins(fmt::format("add.{}", ty), {st.iv_issue, st.iv_issue, std::to_string(st.step)});
  for (AsyncCopy& c : st.copies) {
    b_.ins("add.s64", {c.ptr, c.ptr, c.delta});
    for (size_t d = 0; d < c.moves.size(); ++d)
      if (c.moves[d]) b_.ins("sub.s64", {c.rem[d], c.rem[d], std::to_string(c.advance[d])});
  }
}

std::string CpAsyncPipeline::copy_source(const AsyncCopy& c, size_t j, const std::string& src) {
  if (j == 0) {
    b_.ins("mov.b64", {src, c.ptr});
  } else {
    int64_t dl = c.line_const[j] - c.line_const[j - 1];
    int64_t dc = c.chunk_const[j] - c.chunk_const[j - 1];
    if (dl) b_.ins("add.s64", {src, src, c.line_step.at(dl)});
    if (dc) b_.ins("add.s64", {src, src, std::to_string(dc * 16)});
  }
  return "[" + src + "]";
}

std::string CpAsyncPipeline::copy_dest(const AsyncCopy& c, size_t j, const std::string& wbase,
                                       std::map<std::string, std::string>& dst_for) {
  const auto& [dreg, dimm] = c.dst[j];
  std::string& dst = dst_for[dreg];
  if (dst.empty()) {
    dst = b_.reg(RegClass::B32);
    b_.ins("add.u32", {dst, wbase, dreg});
  }
  return fmt::format("[{}+{}]", dst, dimm);
}

void CpAsyncPipeline::edge_copies(State& st, AsyncCopy& c) {
  // An edge tile: per chunk, the valid lines and elements. Whole chunks still go through
  // cp.async; an empty chunk is zeroed with a shared store and a partial one is loaded element
  // by element (a 16-byte copy that reads past the array's end could leave its allocation).
  const AsyncLoad& al = *c.al;
  auto rem32 = [&](int d) {
    std::string r = b_.reg(RegClass::B64), r32 = b_.reg(RegClass::B32);
    b_.ins("max.s64", {r, c.rem[size_t(d)], "0"});
    b_.ins("min.s64", {r, r, std::to_string(1 << 30)});
    b_.ins("cvt.u32.u64", {r32, r});
    return r32;
  };
  std::string lines = rem32(c.line_dim), elems = rem32(c.last_dim);
  // At offsets: the lines and elements below 0, -origin = rem - extent clamped the same way.
  std::string first_line, first_elem;
  if (c.at_offsets) {
    auto below = [&](int d) {
      std::string r = b_.reg(RegClass::B64), r32 = b_.reg(RegClass::B32);
      b_.ins("sub.s64", {r, c.rem[size_t(d)], c.extent[size_t(d)]});
      b_.ins("max.s64", {r, r, "0"});
      b_.ins("min.s64", {r, r, std::to_string(1 << 30)});
      b_.ins("cvt.u32.u64", {r32, r});
      return r32;
    };
    first_line = below(c.line_dim);
    first_elem = below(c.last_dim);
  }
  std::string ok = c.fixed_ok;
  auto also = [&](const std::string& p) { cx_.and_into(ok, p); };
  for (size_t d = 0; d < c.moves.size(); ++d) {
    if (!c.moves[d]) continue;
    // A negative origin reads nothing, but at offsets along the line and last dims, where
    // first_line and first_elem bound each line and chunk from below.
    if (!(c.at_offsets && (int(d) == c.line_dim || int(d) == c.last_dim))) {
      std::string nonneg = b_.reg(RegClass::Pred);
      b_.ins("setp.le.s64", {nonneg, c.rem[d], c.extent[d]});
      also(nonneg);
    }
    if (int(d) != c.line_dim && int(d) != c.last_dim) {
      std::string in = b_.reg(RegClass::Pred);
      b_.ins("setp.gt.s64", {in, c.rem[d], "0"});
      also(in);
    }
  }
  std::string wbase = b_.reg(RegClass::B32);
  b_.ins("add.u32", {wbase, c.tile, st.write});
  std::map<std::string, std::string> dst_for;
  std::map<int64_t, std::string> count_for;  // chunk constant → valid elements of the chunk
  int64_t epc = 16 / al.esz;
  std::string src = b_.reg(RegClass::B64);
  for (size_t j = 0; j < c.dst.size(); ++j) {
    std::string at = copy_source(c, j, src), dst = copy_dest(c, j, wbase, dst_for);
    std::string next = b_.label_name("chunk_done");
    if (j + 1 == c.dst.size() && !c.in_tile.empty()) b_.ins_if("!" + c.in_tile, "bra", {next});
    std::string& count = count_for[c.chunk_const[j]];
    if (count.empty()) {
      count = b_.reg(RegClass::B32);
      b_.ins("sub.s32", {count, elems, c.chunk_elems});
      if (c.chunk_const[j]) b_.ins("sub.s32", {count, count, u32(c.chunk_const[j] * epc)});
      b_.ins("min.s32", {count, count, u32(epc)});
      b_.ins("max.s32", {count, count, "0"});
      if (c.at_offsets) {  // a chunk below 0 holds no element of the array
        std::string at = b_.reg(RegClass::B32), low = b_.reg(RegClass::Pred);
        b_.ins("add.u32", {at, c.chunk_elems, u32(c.chunk_const[j] * epc)});
        b_.ins("setp.lt.s32", {low, at, first_elem});
        b_.ins_if(low, "mov.b32", {count, "0"});
      }
    }
    std::string lim = b_.reg(RegClass::B32), in = b_.reg(RegClass::Pred), n = b_.reg(RegClass::B32),
                whole = b_.reg(RegClass::Pred);
    b_.ins("sub.s32", {lim, lines, u32(c.line_const[j])});
    b_.ins("setp.lt.s32", {in, c.line, lim});
    if (c.at_offsets) {  // and the line is not below 0
      std::string from = b_.reg(RegClass::B32), low = b_.reg(RegClass::Pred);
      b_.ins("sub.s32", {from, first_line, u32(c.line_const[j])});
      b_.ins("setp.ge.s32", {low, c.line, from});
      b_.ins("and.pred", {in, in, low});
    }
    if (!ok.empty()) b_.ins("and.pred", {in, in, ok});
    b_.ins("selp.b32", {n, count, "0", in});
    b_.ins("setp.eq.s32", {whole, n, u32(epc)});
    b_.ins_if(whole, "cp.async.cg.shared.global", {dst, at, "16"});
    b_.ins_if(whole, "bra", {next});
    // n < epc valid elements: zeros, then the valid ones.
    std::vector<std::string> w(4);
    for (std::string& x : w) {
      x = b_.reg(RegClass::B32);
      b_.ins("mov.b32", {x, "0"});
    }
    for (int64_t e = 0; e < epc; ++e) {
      std::string p = b_.reg(RegClass::Pred);
      b_.ins("setp.gt.s32", {p, n, u32(e)});
      std::string elem_at = fmt::format("[{}+{}]", src, e * al.esz);
      if (al.esz == 8) {
        std::string x = b_.reg(RegClass::B64);
        b_.ins("mov.b64", {x, "0"});
        b_.ins_if(p, "ld.global.b64", {x, elem_at});
        b_.ins("mov.b64", {"{" + w[size_t(2 * e)] + ", " + w[size_t(2 * e + 1)] + "}", x});
      } else if (al.esz == 4) {
        b_.ins_if(p, "ld.global.b32", {w[size_t(e)], elem_at});
      } else {
        std::string x = b_.reg(RegClass::B32);
        b_.ins("mov.b32", {x, "0"});
        b_.ins_if(p, al.esz == 2 ? "ld.global.u16" : "ld.global.u8", {x, elem_at});
        int64_t bit = e * al.esz * 8;
        std::string& word = w[size_t(bit / 32)];
        b_.ins("bfi.b32", {word, x, word, std::to_string(bit % 32), std::to_string(al.esz * 8)});
      }
    }
    b_.ins("st.shared.v4.b32", {dst, "{" + w[0] + ", " + w[1] + ", " + w[2] + ", " + w[3] + "}"});
    b_.label(next);
  }
}

void CpAsyncPipeline::iteration(State& st) {
  const Pipeline& p = *st.p;
  if (!p.sync_mma) {
    b_.ins("cp.async.wait_group", {std::to_string(p.stages - 2)});
    cx_.cta_barrier();
    issue_next(st);
  }
  for (const AsyncCopy& c : st.copies) {
    std::string r = b_.reg(RegClass::B32);
    b_.ins("add.u32", {r, c.tile, st.read});
    cx_.async_base_[c.al] = r;
  }
}

void CpAsyncPipeline::issue_next(State& st) {
  const Pipeline& p = *st.p;
  issue(st);
  // The stage after the one just filled, round the ring.
  std::string wrap = b_.reg(RegClass::Pred);
  b_.ins("add.u32", {st.write, st.write, u32(p.stage_bytes)});
  b_.ins("setp.ge.u32", {wrap, st.write, u32(p.stages * p.stage_bytes)});
  b_.ins_if(wrap, "mov.u32", {st.write, "0"});
}

void CpAsyncPipeline::late_sync(State& st) {
  // Groups committed so far end with stage i + S - 1; the next iteration reads stage i + 1.
  b_.ins("cp.async.wait_group", {std::to_string(st.p->stages - 2)});
  cx_.cta_barrier();
  issue_next(st);
}

void CpAsyncPipeline::advance(State& st) {
  const Pipeline& p = *st.p;
  std::string wrap = b_.reg(RegClass::Pred);
  b_.ins("add.u32", {st.read, st.read, u32(p.stage_bytes)});
  b_.ins("setp.ge.u32", {wrap, st.read, u32(p.stages * p.stage_bytes)});
  b_.ins_if(wrap, "mov.u32", {st.read, "0"});
}

void CpAsyncPipeline::epilogue(State&) {
  b_.ins("cp.async.wait_all", {});
  cx_.cta_barrier();
}

void CpAsyncPipeline::begin_body(State& st) {
  st.outer_sync = late_sync_;
  if (st.p->sync_mma) late_sync_ = &st;
}

void CpAsyncPipeline::end_body(State& st) { late_sync_ = st.outer_sync; }

void CpAsyncPipeline::late_sync_at(const ir::Op& mma) {
  if (late_sync_ && late_sync_->p->sync_mma == &mma) late_sync(*late_sync_);
}

}  // namespace tilec::codegen
