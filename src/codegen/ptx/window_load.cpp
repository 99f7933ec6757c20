// A load whose tile is a window of an earlier load's tile (codegen/lowering/window_loads.h), shifted by
// `delta` elements along the last axis, taken from that tile's registers instead of memory.
// In the blocked layout a thread holds runs of spt consecutive elements along the last axis and
// the lanes next to it (lane ± lane_stride) hold the runs beside its own, so element e of a
// run is the base's element e + delta of the same run (a mov) or of the neighbour's run (one
// shfl.sync per element that crosses: one per run for delta = ±1). The lanes at the end of a
// warp's run along the axis receive nothing useful from the shuffle: they load those elements
// themselves, with the load's full bounds test. A 5-point stencil's left and right tiles, which
// loaded one 4-byte element per access (each warp's access spanning four times the bytes it
// used), thus cost two shuffles and two single-lane loads per run (language.md §7.2.1, "Cost").
#include <fmt/format.h>

#include "codegen/ptx/memory.h"

namespace tilec::codegen {

namespace {

// The offset operand `v` (a scalar of any integer dtype) as an s64 register.
std::string offset64(PtxBuilder& b, const std::string& reg, DType dt) {
  if (dtype_bits(dt) == 64) return reg;
  std::string w = b.reg(RegClass::B64);
  b.ins(is_unsigned_int(dt) ? "cvt.u64.u32" : "cvt.s64.s32", {w, reg});
  return w;
}

// dst = src of the lane `lanes` above (down: lane + lanes) or below (up: lane - lanes), in 32-bit
// pieces; a lane with no such source keeps its own value (the caller overwrites it).
void shuffle(PtxBuilder& b, RegClass c, const std::string& dst, const std::string& src, bool down, int lanes) {
  std::string op = fmt::format("shfl.sync.{}.b32", down ? "down" : "up");
  std::string clamp = down ? "31" : "0", all = "-1", n = std::to_string(lanes);
  if (c == RegClass::B32) {
    b.ins(op, {dst, src, n, clamp, all});
  } else if (c == RegClass::B16) {
    std::string w = b.reg(RegClass::B32), junk = b.reg(RegClass::B16);
    b.ins("mov.b32", {w, "{" + src + ", " + src + "}"});
    b.ins(op, {w, w, n, clamp, all});
    b.ins("mov.b32", {"{" + dst + ", " + junk + "}", w});
  } else {  // B64: two halves
    std::string lo = b.reg(RegClass::B32), hi = b.reg(RegClass::B32);
    b.ins("mov.b64", {"{" + lo + ", " + hi + "}", src});
    b.ins(op, {lo, lo, n, clamp, all});
    b.ins(op, {hi, hi, n, clamp, all});
    b.ins("mov.b64", {dst, "{" + lo + ", " + hi + "}"});
  }
}

}  // namespace

void MemoryEmitter::load_window(const ir::Op& op, const WindowLoad& w, const std::vector<std::string>& out) {
  const ir::Value* res = op.results[0];
  const Layout& l = cx_.k_.layout(res);
  const std::vector<std::string>& base = cx_.regs(w.base->results[0]);
  RegClass c = reg_class(res->type.tile.dtype);
  int last = l.rank() - 1, spt = l.spt(last), stride = l.lane_stride(last), lanes = l.lanes_along(last);
  int64_t cta = l.cta_tile(last);
  std::string plain, done;
  if (w.check_wrap) {
    // Offsets computed in fewer than 64 bits may have wrapped: the window holds only where the
    // offsets still differ by delta (one test per CTA, the same in every thread).
    size_t at = op.operands.size() - 1;
    const ir::Value* ow = op.operands[at];
    const ir::Value* ob = w.base->operands[at];
    std::string d = b_.reg(RegClass::B64), off = b_.reg(RegClass::Pred);
    b_.ins("sub.s64", {d, offset64(b_, cx_.regs(ow)[0], ow->type.tile.dtype),
                       offset64(b_, cx_.regs(ob)[0], ob->type.tile.dtype)});
    b_.ins("setp.ne.s64", {off, d, std::to_string(w.delta)});
    plain = b_.label_name("window_plain");
    done = b_.label_name("window_done");
    b_.ins_if(off, "bra.uni", {plain});
  }
  // The lanes whose neighbour in the direction of delta holds no run of this warp.
  std::string coord = b_.reg(RegClass::B32), end = b_.reg(RegClass::Pred);
  b_.ins("and.b32", {coord, cx_.tid_, "31"});
  if (stride > 1) b_.ins("shr.u32", {coord, coord, std::to_string(log2_exact(stride))});
  if (stride * lanes < 32) b_.ins("and.b32", {coord, coord, std::to_string(lanes - 1)});
  b_.ins("setp.eq.u32", {end, coord, w.delta > 0 ? std::to_string(lanes - 1) : "0"});
  const char* mov = c == RegClass::B16 ? "mov.b16" : c == RegClass::B32 ? "mov.b32" : "mov.b64";
  // The elements that cross into the neighbour's run, loaded first into registers of their
  // own: the loads then depend on nothing but addresses and overlap the base's loads, instead
  // of waiting for the shuffles, which wait for the base's data (measured: loading after the
  // shuffles made the stencil 8 % slower than no window at all).
  int64_t n = l.regs_per_thread();
  std::vector<int64_t> crossing;
  std::vector<std::string> edge(static_cast<size_t>(n));
  for (int64_t r = 0; r < n; ++r) {
    int64_t e = l.reg_offset(r)[size_t(last)] % cta + w.delta;  // in the thread's run: [0, spt)
    if (e >= 0 && e < spt) continue;
    crossing.push_back(r);
    edge[size_t(r)] = b_.reg(c);
  }
  load_elements_where(op, crossing, edge, end);
  for (int64_t r = 0; r < n; ++r) {
    std::vector<int64_t> off = l.reg_offset(r);
    if (edge[size_t(r)].empty()) {
      off[size_t(last)] += w.delta;
      b_.ins(mov, {out[size_t(r)], base[size_t(l.reg_of(off))]});
      continue;
    }
    off[size_t(last)] += w.delta > 0 ? w.delta - spt : w.delta + spt;  // the neighbour's register
    shuffle(b_, c, out[size_t(r)], base[size_t(l.reg_of(off))], w.delta > 0, stride);
    b_.ins_if(end, mov, {out[size_t(r)], edge[size_t(r)]});
  }
  if (w.check_wrap) {
    b_.ins("bra.uni", {done});
    b_.label(plain);
    load_plain(op, out);
    b_.label(done);
  }
}

}  // namespace tilec::codegen
