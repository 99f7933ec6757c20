// load and store of tiles (language.md §7.2.1-7.2.2), at tile indices or element offsets. One
// 64-bit base address per tile and thread; element offsets inside the tile are immediates
// along the contiguous axis (vectorized variant) or precomputed per row. In the vectorized
// variant, accesses along the innermost dimension move whole vectors under one predicate each
// (no branch: the header guarantees each vector is wholly inside or outside the array, and an
// access at element offsets takes vectors only as wide as its offset's alignment); other
// accesses take a CTA-uniform branch to an unmasked path for interior tiles and a masked one
// (padding on load, dropped stores) for edge tiles.
#include "codegen/ptx/memory.h"

#include <map>

#include <fmt/format.h>

namespace tilec::codegen {

struct MemoryEmitter::Access {
  int rank = 0;
  int esz = 4;                              ///< element bytes in memory
  std::vector<std::string> stride_bytes;    ///< per tile dim, s64
  std::vector<int64_t> const_stride_bytes;  ///< per tile dim: the stride in bytes when known, else 0
  std::vector<std::string> low, limit;      ///< per tile dim, u32: valid coordinates are [low, limit) ("" low: 0)
  std::vector<std::string> origin, rem;     ///< per tile dim, s64: first coordinate, extent - origin
  std::vector<std::string> extent;          ///< per tile dim, s64: the array's extent along it
  /// Per tile dim, s64: origin + this thread's first coordinate, where the vectorized access
  /// tests its coordinates against the extent directly (vector_limits); "" where it clamps.
  std::vector<std::string> coord;
  std::vector<bool> origin_nonneg;          ///< per tile dim: the index is known to be >= 0
  std::vector<bool> inside;                 ///< per tile dim: known wholly inside the array (no test)
  std::vector<int64_t> shape;               ///< the tile's shape
  std::string interior;                     ///< predicate: the whole tile is inside the array ("" = always)
  std::string thread_base;                  ///< u64 address of this thread's first element
  bool contiguous = false;                  ///< last tile dim is the array's innermost, stride 1
  std::map<std::pair<int, int64_t>, std::string> row_off;   ///< (dim, offset) → s64 byte offset
  std::map<std::pair<int, int64_t>, std::string> valid;     ///< (dim, offset) → predicate
};

std::string MemoryEmitter::bounded_extent(const ir::Op& op, size_t axis) {
  // bound= (language.md §7.2.6): the op sees the array as if its extent along `axis` were
  // clamp(bound, 0, extent); every test below compares with it (the vectorized variant's
  // unsigned compares too, hence not below 0).
  const ir::Value* bv = ir::bound_operand(op, axis);
  std::string bound = cx_.regs(bv)[0];
  if (dtype_bits(bv->type.tile.dtype) < 64) {
    std::string w = b_.reg(RegClass::B64);
    b_.ins(is_unsigned_int(bv->type.tile.dtype) ? "cvt.u64.u32" : "cvt.s64.s32", {w, bound});
    bound = w;
  }
  std::string extent = b_.reg(RegClass::B64);
  b_.ins("min.s64", {extent, cx_.arrays_.at(op.operands[0]->type.array).extents[axis], bound});
  b_.ins("max.s64", {extent, extent, "0"});
  return extent;
}

MemoryEmitter::Access MemoryEmitter::plan_access(const ir::Op& op, const ir::Value* array, const Layout& l,
                                                 size_t first_index) {
  Access a;
  const ir::ArrayParam* arr = array->type.array;
  const ArrayRegs& ar = cx_.arrays_.at(arr);
  a.rank = int(arr->dims.size());
  a.esz = dtype_bytes(arr->dtype);
  const ThreadCoords& tc = cx_.coords(l);
  std::string tile_base = b_.reg(RegClass::B64);
  b_.ins("mov.b64", {tile_base, ar.base});
  std::vector<std::string> conds;
  for (int j = 0; j < a.rank; ++j) {
    int ad = op.order.empty() ? j : int(op.order[size_t(j)]);
    const ir::Value* iv = op.operands[first_index + size_t(j)];
    std::string idx = cx_.regs(iv)[0];
    if (dtype_bits(iv->type.tile.dtype) < 64) {
      std::string w = b_.reg(RegClass::B64);
      b_.ins(is_unsigned_int(iv->type.tile.dtype) ? "cvt.u64.u32" : "cvt.s64.s32", {w, idx});
      idx = w;
    }
    int64_t shape = l.shape[size_t(j)];
    int log_shape = log2_exact(shape);
    // origin = index * shape (a shift: tile dims are powers of two), or the element offset
    // itself; the tile base moves by origin * stride bytes, a shift too when the stride is
    // known (no 64-bit multiply).
    std::string origin = idx;
    if (!op.offsets) {
      origin = b_.reg(RegClass::B64);
      b_.ins("shl.b64", {origin, idx, std::to_string(log_shape)});
    }
    const std::string& sb = ar.stride_bytes[size_t(ad)];
    int64_t csb = ar.const_stride_bytes[size_t(ad)];
    if (csb) {
      std::string t = b_.reg(RegClass::B64);
      b_.ins("shl.b64", {t, origin, std::to_string(log2_exact(csb))});
      b_.ins("add.s64", {tile_base, tile_base, t});
    } else {
      b_.ins("mad.lo.s64", {tile_base, origin, sb, tile_base});
    }
    a.stride_bytes.push_back(sb);
    a.const_stride_bytes.push_back(csb);
    // The tile is interior when origin >= 0 and extent - origin >= shape; the valid range of
    // an edge tile is computed on the edge path only (edge_limits). A dimension of extent 1
    // indexed by bid(a) under grid=(..., S, ...) along an array dimension of extent S is
    // always inside (IntegerFacts::below_extent): a row kernel's row needs no test.
    a.origin.push_back(origin);
    a.shape.push_back(shape);
    bool bounded = ir::has_bound(op) && !ir::bound_is_extent(*cx_.k_.fn, op, size_t(ad));
    a.origin_nonneg.push_back(cx_.facts_.nonneg(iv));
    a.inside.push_back(!bounded && shape == 1 && a.origin_nonneg.back() &&
                       cx_.facts_.below_extent(iv, arr->dims[size_t(ad)].symbol));
    a.extent.emplace_back();
    if (a.inside.back()) {
      a.rem.emplace_back();
      continue;
    }
    std::string extent = bounded ? bounded_extent(op, size_t(ad)) : ar.extents[size_t(ad)];
    std::string rem = b_.reg(RegClass::B64);
    b_.ins("sub.s64", {rem, extent, origin});
    a.rem.push_back(rem);
    a.extent.back() = extent;
    std::string in = b_.reg(RegClass::Pred);
    b_.ins("setp.ge.s64", {in, rem, std::to_string(shape)});
    if (!a.origin_nonneg.back()) {
      std::string nonneg = b_.reg(RegClass::Pred);
      b_.ins("setp.ge.s64", {nonneg, origin, "0"});
      b_.ins("and.pred", {in, in, nonneg});
    }
    conds.push_back(in);
  }
  for (size_t i = 0; i < conds.size(); ++i) {
    if (i == 0) a.interior = conds[0];
    else b_.ins("and.pred", {a.interior, a.interior, conds[i]});
  }
  a.thread_base = b_.reg(RegClass::B64);
  b_.ins("mov.b64", {a.thread_base, tile_base});
  for (int j = 0; j < a.rank; ++j) {
    std::string c = b_.reg(RegClass::B64);
    b_.ins("cvt.u64.u32", {c, tc.base[size_t(j)]});
    if (int64_t csb = a.const_stride_bytes[size_t(j)]) {
      b_.ins("shl.b64", {c, c, std::to_string(log2_exact(csb))});
      b_.ins("add.s64", {a.thread_base, a.thread_base, c});
    } else {
      b_.ins("mad.lo.s64", {a.thread_base, c, a.stride_bytes[size_t(j)], a.thread_base});
    }
  }
  int last_ad = op.order.empty() ? a.rank - 1 : int(op.order[size_t(a.rank - 1)]);
  a.contiguous = cx_.o_.vectorized && a.rank > 0 && last_ad == a.rank - 1;
  return a;
}

namespace {

// Valid coordinates of an edge tile: [max(-origin, 0), min(extent - origin, shape)), both
// clamped to [0, shape] so that they fit 32 bits.
void edge_limits(PtxBuilder& b, MemoryEmitter::Access& a) {
  a.low.clear();
  a.limit.clear();
  a.valid.clear();
  for (int j = 0; j < a.rank; ++j) {
    // every coordinate is valid, or each is tested against the extent: no limits
    if (a.inside[size_t(j)] || (!a.coord.empty() && !a.coord[size_t(j)].empty())) {
      a.limit.emplace_back();
      a.low.emplace_back();
      continue;
    }
    std::string shape = std::to_string(a.shape[size_t(j)]);
    std::string lim = b.reg(RegClass::B64), lim32 = b.reg(RegClass::B32);
    b.ins("max.s64", {lim, a.rem[size_t(j)], "0"});
    b.ins("min.s64", {lim, lim, shape});
    b.ins("cvt.u32.u64", {lim32, lim});
    a.limit.push_back(lim32);
    if (a.origin_nonneg[size_t(j)]) {
      a.low.emplace_back();  // valid coordinates start at 0: no lower test
      continue;
    }
    std::string lo = b.reg(RegClass::B64), lo32 = b.reg(RegClass::B32);
    b.ins("neg.s64", {lo, a.origin[size_t(j)]});
    b.ins("max.s64", {lo, lo, "0"});
    b.ins("min.s64", {lo, lo, shape});
    b.ins("cvt.u32.u64", {lo32, lo});
    a.low.push_back(lo32);
  }
}

// The bounds of a vectorized access (one predicate per vector, no branch: on every CTA's
// path). Where the thread's vectors all share one coordinate along each tested dimension (a
// thread holds one vector: silu_gate's, a row kernel's row), each dimension tests that
// coordinate against the extent itself: origin + the thread's coordinate in 64 bits and one
// unsigned 64-bit compare, about 4 SASS instructions; a negative coordinate is above every
// extent as u64, and origin + coordinate cannot wrap into [0, extent) (any s64 origin plus
// less than 2^32). Otherwise the valid range is clamped to 32 bits once (edge_limits: a 64-bit
// max and min, 8 more for a lower bound where the origin may be negative, about 8-16 SASS
// instructions), then each coordinate costs 1-3: cheaper for many coordinates, and with
// several along some dimension, mixing the two forms cost stencil2d 38 SASS instructions
// (ptxas moved predicates through registers). A short CTA waits for these tests before its
// first load: silu_gate's clamps were 16 of 20 instructions per dimension and access.
void vector_limits(PtxBuilder& b, MemoryEmitter::Access& a, const Layout& l, const std::vector<std::string>& tbase,
                   int64_t per) {
  a.coord.clear();
  bool one = true;
  for (int j = 0; j < a.rank && one; ++j) {
    if (a.inside[size_t(j)]) continue;
    for (int64_t r = per; r < l.regs_per_thread() && one; r += per) one = l.reg_offset(r)[size_t(j)] == 0;
  }
  if (one) {
    a.coord.assign(size_t(a.rank), "");
    for (int j = 0; j < a.rank; ++j) {
      if (a.inside[size_t(j)]) continue;
      std::string t = b.reg(RegClass::B64), c = b.reg(RegClass::B64);
      b.ins("cvt.u64.u32", {t, tbase[size_t(j)]});
      b.ins("add.s64", {c, a.origin[size_t(j)], t});
      a.coord[size_t(j)] = c;
    }
  }
  edge_limits(b, a);
}

// Byte offset of dim-j coordinate offset `o` = rep * cta_tile + e: adds of precomputed
// multiples of the stride (no 64-bit multiply per element).
std::string dim_offset(PtxBuilder& b, MemoryEmitter::Access& a, const Layout& l, int j, int64_t o) {
  auto key = std::make_pair(j, o);
  auto it = a.row_off.find(key);
  if (it != a.row_off.end()) return it->second;
  int64_t cta = l.cta_tile(j), rep = o / cta, e = o % cta;
  std::string r;
  if (rep > 0 && e > 0) {
    r = b.reg(RegClass::B64);
    b.ins("add.s64", {r, dim_offset(b, a, l, j, rep * cta), dim_offset(b, a, l, j, e)});
  } else if (rep > 1) {
    r = b.reg(RegClass::B64);
    b.ins("add.s64", {r, dim_offset(b, a, l, j, (rep - 1) * cta), dim_offset(b, a, l, j, cta)});
  } else if (e > 1) {
    r = b.reg(RegClass::B64);
    b.ins("add.s64", {r, dim_offset(b, a, l, j, e - 1), a.stride_bytes[size_t(j)]});
  } else if (e == 1) {
    r = a.stride_bytes[size_t(j)];
  } else {  // o == cta: the one multiply of this dimension
    r = b.reg(RegClass::B64);
    b.ins("mul.lo.s64", {r, a.stride_bytes[size_t(j)], std::to_string(cta)});
  }
  a.row_off.emplace(key, r);
  return r;
}

// Byte offset of register `r` from the thread base: an immediate along the contiguous axis,
// a register (sum of per-dim offsets) for the others. Returns (register or "", immediate).
// The per-dimension offsets it makes are cached in `a.row_off`: a caller that computes
// offsets on both sides of the interior/edge branch clears the cache at the start of each.
std::pair<std::string, int64_t> element_offset(PtxBuilder& b, MemoryEmitter::Access& a, const Layout& l, int64_t r) {
  std::vector<int64_t> off = l.reg_offset(r);
  int64_t imm = 0;
  std::string sum;
  for (int j = 0; j < a.rank; ++j) {
    int64_t o = off[size_t(j)];
    if (o == 0) continue;
    if (j == a.rank - 1 && a.contiguous) {
      imm += o * a.esz;
      continue;
    }
    std::string d = dim_offset(b, a, l, j, o);
    if (sum.empty()) {
      sum = d;
    } else {
      std::string t = b.reg(RegClass::B64);
      b.ins("add.s64", {t, sum, d});
      sum = t;
    }
  }
  return {sum, imm};
}

// The address operand of every register of `l`, computed once, before any branch.
std::vector<std::string> all_addresses(PtxBuilder& b, MemoryEmitter::Access& a, const Layout& l);

std::string address(PtxBuilder& b, const MemoryEmitter::Access& a, const std::pair<std::string, int64_t>& off) {
  std::string base = a.thread_base;
  if (!off.first.empty()) {
    base = b.reg(RegClass::B64);
    b.ins("add.s64", {base, a.thread_base, off.first});
  }
  return off.second ? fmt::format("[{}+{}]", base, off.second) : "[" + base + "]";
}

// The address operand of register `r`, computed where it is used. A thread that holds many
// elements (64 or more) forgets the cached offsets at the start of each run of elements along
// the last dimension, so that only the current run's offsets stay live, not one per row and
// column of its share of the tile (a 128x256 accumulator in the mma layout: 16 rows and 16
// columns of 64-bit offsets beside 128 values); the few adds are recomputed instead.
std::string element_address(PtxBuilder& b, MemoryEmitter::Access& a, const Layout& l, int64_t r) {
  if (l.regs_per_thread() >= 64 && r % l.spt(l.rank() - 1) == 0) a.row_off.clear();
  return address(b, a, element_offset(b, a, l, r));
}

// The element-by-element accesses' addresses: for a thread holding fewer than 64 elements, all
// computed once before the interior/edge branch (both paths use them); for more, computed by
// each path where it uses them (new_path at the start of each path forgets the other's).
class ElementAddresses {
 public:
  ElementAddresses(PtxBuilder& b, MemoryEmitter::Access& a, const Layout& l)
      : b_(b), a_(a), l_(l), per_use_(l.regs_per_thread() >= 64) {
    if (!per_use_) all_ = all_addresses(b, a, l);
  }
  void new_path() {
    if (per_use_) a_.row_off.clear();
  }
  std::string operator()(int64_t r) { return per_use_ ? element_address(b_, a_, l_, r) : all_[size_t(r)]; }

 private:
  PtxBuilder& b_;
  MemoryEmitter::Access& a_;
  const Layout& l_;
  bool per_use_;
  std::vector<std::string> all_;
};

std::vector<std::string> all_addresses(PtxBuilder& b, MemoryEmitter::Access& a, const Layout& l) {
  std::vector<std::string> out;
  for (int64_t r = 0; r < l.regs_per_thread(); ++r) out.push_back(address(b, a, element_offset(b, a, l, r)));
  return out;
}

// The conjunction of predicates p and q, either "" for "always".
std::string both(PtxBuilder& b, const std::string& p, const std::string& q) {
  if (p.empty() || q.empty()) return p.empty() ? q : p;
  std::string r = b.reg(RegClass::Pred);
  b.ins("and.pred", {r, p, q});
  return r;
}

// Predicate: element `r` lies inside the array ("" when it always does).
std::string element_valid(PtxBuilder& b, MemoryEmitter::Access& a, const Layout& l, const std::vector<std::string>& tbase,
                          int64_t r) {
  // As element_address: with many elements per thread, only the current run's tests stay live.
  if (l.regs_per_thread() >= 64 && r % l.spt(l.rank() - 1) == 0) a.valid.clear();
  std::vector<int64_t> off = l.reg_offset(r);
  std::string all;
  for (int j = 0; j < a.rank; ++j) {
    if (a.inside[size_t(j)]) continue;
    auto key = std::make_pair(j, off[size_t(j)]);
    auto it = a.valid.find(key);
    if (it == a.valid.end() && !a.coord.empty() && !a.coord[size_t(j)].empty()) {
      std::string p = b.reg(RegClass::Pred);  // off[j] is 0 (vector_limits)
      b.ins("setp.lt.u64", {p, a.coord[size_t(j)], a.extent[size_t(j)]});
      it = a.valid.emplace(key, p).first;
    } else if (it == a.valid.end()) {
      std::string c = b.reg(RegClass::B32), p = b.reg(RegClass::Pred);
      b.ins("add.u32", {c, tbase[size_t(j)], std::to_string(off[size_t(j)])});
      b.ins("setp.lt.u32", {p, c, a.limit[size_t(j)]});
      if (!a.low[size_t(j)].empty()) {
        std::string q = b.reg(RegClass::Pred);
        b.ins("setp.ge.u32", {q, c, a.low[size_t(j)]});
        b.ins("and.pred", {p, p, q});
      }
      it = a.valid.emplace(key, p).first;
    }
    if (all.empty()) {
      all = it->second;
    } else {
      std::string t = b.reg(RegClass::Pred);
      b.ins("and.pred", {t, all, it->second});
      all = t;
    }
  }
  return all;
}

// The unmasked path(false) for a tile wholly inside the array and the masked path(true) for an
// edge tile, behind a CTA-uniform branch on a.interior (labels `what`_edge, `what`_done); only
// the first when the tile is always inside.
void interior_or_edge(PtxBuilder& b, const MemoryEmitter::Access& a, const char* what,
                      const std::function<void(bool edge)>& path) {
  if (a.interior.empty()) {
    path(false);
    return;
  }
  std::string masked = b.label_name(fmt::format("{}_edge", what).c_str());
  std::string done = b.label_name(fmt::format("{}_done", what).c_str());
  b.ins_if("!" + a.interior, "bra.uni", {masked});
  path(false);
  b.ins("bra.uni", {done});
  b.label(masked);
  path(true);
  b.label(done);
}

}  // namespace

void MemoryEmitter::load_element(DType dt, const std::string& dst, const std::string& addr, const std::string& pred) {
  // Loads into a scratch register of the memory width, then converts (bool) if needed.
  if (dt == DType::Bool) {
    std::string w = b_.reg(RegClass::B32);
    b_.ins("mov.b32", {w, "0"});
    b_.ins_if(pred, "ld.global.u8", {w, addr});
    std::string p = b_.reg(RegClass::Pred);
    b_.ins("setp.ne.u32", {p, w, "0"});
    // A masked-off bool keeps its padding (selected below by the caller's mov).
    b_.ins_if(pred, "mov.pred", {dst, p});
    return;
  }
  b_.ins_if(pred, "ld.global." + ptx_load_type(dt), {dst, addr});
}

void MemoryEmitter::load_in_groups(
    const ir::Op& op, int64_t group,
    const std::function<void(int64_t first, const std::vector<std::string>& regs)>& consume) {
  const ir::Value* res = op.results[0];
  DType dt = res->type.tile.dtype;
  const Layout& l = cx_.k_.layout(res);
  Access a = plan_access(op, op.operands[0], l, 1);
  const ThreadCoords& tc = cx_.coords(l);
  int64_t n = l.regs_per_thread();
  RegClass c = reg_class(dt);
  std::string pad = dt == DType::Bool ? (op.value.i ? "1" : "0") : imm(dt, op.value);
  // One path: every group loaded, then consumed. The offsets and predicates it computes stay
  // on that path (the other one computes its own).
  auto path = [&](bool edge) {
    a.row_off.clear();
    a.valid.clear();
    if (edge) edge_limits(b_, a);
    // Without vectors (no immediate offsets along the last dimension), each element's address
    // is an earlier one's plus one dimension's offset where they differ along one dimension
    // only: the next element of a run is one stride on, the first of the next group one step
    // of the layout's CTA tile on. Offsets from the thread base (offset times stride, one per
    // element of a run and per group) are loop-invariant, and ptxas kept them all live across
    // a loop of staged loads (an f8 group of 16 and 8 groups: about 44 registers).
    std::string group_addr;             // the previous group's first address register
    std::vector<int64_t> group_off;     // its offsets
    auto stepped = [&](const std::string& from, const std::vector<int64_t>& from_off,
                       const std::vector<int64_t>& to_off) -> std::string {
      if (a.contiguous || from.empty()) return "";
      int dim = -1;
      for (int j = 0; j < a.rank; ++j) {
        if (to_off[size_t(j)] == from_off[size_t(j)]) continue;
        if (dim >= 0 || to_off[size_t(j)] < from_off[size_t(j)]) return "";
        dim = j;
      }
      if (dim < 0) return "";
      std::string next = b_.reg(RegClass::B64);
      b_.ins("add.s64", {next, from, dim_offset(b_, a, l, dim, to_off[size_t(dim)] - from_off[size_t(dim)])});
      return next;
    };
    for (int64_t first = 0; first < n; first += group) {
      // Each group computes its own offsets (a few adds), so none stays live across groups.
      a.row_off.clear();
      std::vector<std::string> regs;
      std::string prev;  // the previous element's address register
      std::vector<int64_t> prev_off;
      for (int64_t r = first; r < first + group; ++r) {
        std::string dst = b_.reg(c);
        std::vector<int64_t> off = l.reg_offset(r);
        std::string reg = r == first ? stepped(group_addr, group_off, off) : stepped(prev, prev_off, off);
        std::string addr = reg.empty() ? element_address(b_, a, l, r) : "[" + reg + "]";
        if (reg.empty() && !a.contiguous && addr.find('+') == std::string::npos) reg = addr.substr(1, addr.size() - 2);
        prev = reg;
        prev_off = off;
        if (r == first) {
          group_addr = reg;
          group_off = off;
        }
        std::string p;
        if (edge) {
          if (c == RegClass::Pred) b_.ins("setp.ne.u32", {dst, pad, "0"});
          else b_.ins(c == RegClass::B16 ? "mov.b16" : c == RegClass::B32 ? "mov.b32" : "mov.b64", {dst, pad});
          p = element_valid(b_, a, l, tc.base, r);
        }
        load_element(dt, dst, addr, p);
        regs.push_back(dst);
      }
      consume(first, regs);
    }
  };
  interior_or_edge(b_, a, "load", path);
}

void MemoryEmitter::load(const ir::Op& op) {
  auto w = cx_.windows_.find(&op);
  const std::vector<std::string>& out = cx_.define(op.results[0]);
  // The base's registers exist unless its mma staged it (then the window loads plainly).
  if (w != cx_.windows_.end() && cx_.regs_.count(w->second.base->results[0])) load_window(op, w->second, out);
  else load_plain(op, out);
}

void MemoryEmitter::load_elements_where(const ir::Op& op, const std::vector<int64_t>& regs,
                                        const std::vector<std::string>& out, const std::string& pred) {
  if (regs.empty()) return;
  const ir::Value* res = op.results[0];
  DType dt = res->type.tile.dtype;
  const Layout& l = cx_.k_.layout(res);
  Access a = plan_access(op, op.operands[0], l, 1);
  const ThreadCoords& tc = cx_.coords(l);
  edge_limits(b_, a);
  RegClass c = reg_class(dt);
  std::string pad = imm(dt, op.value);
  for (int64_t r : regs) {
    const std::string& dst = out[size_t(r)];
    b_.ins_if(pred, c == RegClass::B16 ? "mov.b16" : c == RegClass::B32 ? "mov.b32" : "mov.b64", {dst, pad});
    std::string p = both(b_, pred, element_valid(b_, a, l, tc.base, r));
    load_element(dt, dst, element_address(b_, a, l, r), p);
  }
}

void MemoryEmitter::load_plain(const ir::Op& op, const std::vector<std::string>& out) {
  const ir::Value* arr = op.operands[0];
  const ir::Value* res = op.results[0];
  DType dt = res->type.tile.dtype;
  auto load_one = [&](const std::string& dst, const std::string& addr, const std::string& pred) {
    load_element(dt, dst, addr, pred);
  };
  if (res->type.is_scalar()) {
    // A rank-0 array has one element; a scalar load reads it in every thread.
    load_one(out[0], "[" + cx_.arrays_.at(arr->type.array).base + "]", "");
    return;
  }
  const Layout& l = cx_.k_.layout(res);
  Access a = plan_access(op, arr, l, 1);
  const ThreadCoords& tc = cx_.coords(l);
  int64_t n = l.regs_per_thread();
  RegClass c = reg_class(dt);
  std::string pad = dt == DType::Bool ? (op.value.i ? "1" : "0") : imm(dt, op.value);
  if (int bytes = a.contiguous ? cx_.vector_bytes_.at(&op) : 0) {
    // Vectors along the innermost dimension, each wholly inside the array or wholly outside
    // (the header launches this variant only then: vector_access_bytes): one predicate per
    // vector and no branch, so ptxas schedules the loads with the code around them. 16-bit
    // floats travel in 32-bit words, two halves each, taken apart after the loads (ptxas then
    // reads the halves in place).
    std::vector<std::string> addrs = all_addresses(b_, a, l);
    int per = bytes / a.esz;
    vector_limits(b_, a, l, tc.base, per);
    bool halves = a.esz == 2;
    std::string fill = pad;
    if (halves) {
      std::string h = b_.reg(RegClass::B16);
      b_.ins("mov.b16", {h, pad});
      fill = b_.reg(RegClass::B32);
      b_.ins("mov.b32", {fill, "{" + h + ", " + h + "}"});
    }
    std::string ty = a.esz == 8 ? "b64" : "b32";
    std::vector<std::string> words;
    for (int64_t r = 0; r < n; r += per) {
      std::vector<std::string> dst;
      if (halves) {
        for (int i = 0; i < per / 2; ++i) dst.push_back(b_.reg(RegClass::B32));
        words.insert(words.end(), dst.begin(), dst.end());
      } else {
        dst.assign(out.begin() + r, out.begin() + r + per);
      }
      for (const std::string& d : dst) b_.ins(a.esz == 8 ? "mov.b64" : "mov.b32", {d, fill});
      std::string p = element_valid(b_, a, l, tc.base, r);  // the vector's first element
      std::string opcode = dst.size() == 1 ? "ld.global." + ty : fmt::format("ld.global.v{}.{}", dst.size(), ty);
      std::string operand = dst.size() == 1 ? dst[0] : "{" + fmt::format("{}", fmt::join(dst, ", ")) + "}";
      b_.ins_if(p, opcode, {operand, addrs[size_t(r)]});
    }
    for (size_t i = 0; i < words.size(); ++i)
      b_.ins("mov.b32", {"{" + out[2 * i] + ", " + out[2 * i + 1] + "}", words[i]});
    return;
  }

  // Element by element: a CTA-uniform branch picks the unmasked path for tiles wholly inside
  // the array, else each element in bounds is loaded and the rest read the padding value.
  // The addresses are computed once before the branch, or, when a thread holds 64 or more
  // elements, by each path just before each load (element_address): all of them up front
  // would hold two registers per element (a 128x256 tile: 256 per thread).
  ElementAddresses at(b_, a, l);
  if (a.interior.empty()) {  // always inside
    for (int64_t r = 0; r < n; ++r) load_one(out[size_t(r)], at(r), "");
    return;
  }
  std::string masked = b_.label_name("load_edge"), done = b_.label_name("load_done");
  b_.ins_if("!" + a.interior, "bra.uni", {masked});
  at.new_path();
  for (int64_t r = 0; r < n; ++r) load_one(out[size_t(r)], at(r), "");
  b_.ins("bra.uni", {done});
  b_.label(masked);
  at.new_path();
  edge_limits(b_, a);
  for (int64_t r = 0; r < n; ++r) {
    if (c == RegClass::Pred) b_.ins("setp.ne.u32", {out[size_t(r)], pad, "0"});
    else b_.ins(c == RegClass::B16 ? "mov.b16" : c == RegClass::B32 ? "mov.b32" : "mov.b64", {out[size_t(r)], pad});
    std::string p = element_valid(b_, a, l, tc.base, r);
    load_one(out[size_t(r)], at(r), p);
  }
  b_.label(done);
}

void MemoryEmitter::store_element(DType dt, const std::string& v, const std::string& addr, const std::string& pred) {
  std::string src = v;
  if (dt == DType::Bool) {
    src = b_.reg(RegClass::B32);
    b_.ins("selp.b32", {src, "1", "0", v});
  }
  b_.ins_if(pred, "st.global." + ptx_store_type(dt), {addr, src});
}

void MemoryEmitter::store_in_groups(const ir::Op& op, const Layout& l, int64_t group,
                                    const std::function<std::vector<std::string>(int64_t first)>& produce) {
  DType dt = op.operands[1]->type.tile.dtype;
  Access a = plan_access(op, op.operands[0], l, 2);
  const ThreadCoords& tc = cx_.coords(l);
  int64_t n = l.regs_per_thread();
  // One path: group after group produced, then stored, each element's address and bounds test
  // computed where it is used (the mirror of load_in_groups).
  auto path = [&](bool edge) {
    a.row_off.clear();
    a.valid.clear();
    if (edge) edge_limits(b_, a);
    for (int64_t first = 0; first < n; first += group) {
      std::vector<std::string> regs = produce(first);
      a.row_off.clear();
      for (int64_t r = first; r < first + group; ++r) {
        std::string p = edge ? both(b_, element_valid(b_, a, l, tc.base, r), tc.primary) : tc.primary;
        store_element(dt, regs[size_t(r - first)], element_address(b_, a, l, r), p);
      }
    }
  };
  interior_or_edge(b_, a, "store", path);
}

void MemoryEmitter::store(const ir::Op& op) {
  const ir::Value* arr = op.operands[0];
  const ir::Value* val = op.operands[1];
  DType dt = val->type.tile.dtype;
  const std::vector<std::string>& in = cx_.regs(val);
  auto store_one = [&](const std::string& v, const std::string& addr, const std::string& pred) {
    store_element(dt, v, addr, pred);
  };
  if (val->type.is_scalar()) {
    // One element: thread 0 writes it.
    std::string p = b_.reg(RegClass::Pred);
    b_.ins("setp.eq.u32", {p, cx_.tid_, "0"});
    store_one(in[0], "[" + cx_.arrays_.at(arr->type.array).base + "]", p);
    return;
  }
  const Layout& l = cx_.k_.layout(val);
  Access a = plan_access(op, arr, l, 2);
  const ThreadCoords& tc = cx_.coords(l);
  int64_t n = l.regs_per_thread();
  const std::string& primary = tc.primary;  // threads holding copies do not store
  if (int bytes = a.contiguous ? cx_.vector_bytes_.at(&op) : 0) {
    // Vectors wholly inside or wholly outside the array (the mirror of load): one predicate
    // per vector, no branch; 16-bit floats packed two to a 32-bit word.
    std::vector<std::string> addrs = all_addresses(b_, a, l);
    int per = bytes / a.esz;
    vector_limits(b_, a, l, tc.base, per);
    std::string ty = a.esz == 8 ? "b64" : "b32";
    for (int64_t r = 0; r < n; r += per) {
      std::vector<std::string> src;
      if (a.esz == 2) {
        for (int64_t e = r; e < r + per; e += 2) {
          src.push_back(b_.reg(RegClass::B32));
          b_.ins("mov.b32", {src.back(), "{" + in[size_t(e)] + ", " + in[size_t(e + 1)] + "}"});
        }
      } else {
        src.assign(in.begin() + r, in.begin() + r + per);
      }
      std::string p = both(b_, element_valid(b_, a, l, tc.base, r), primary);
      std::string opcode = src.size() == 1 ? "st.global." + ty : fmt::format("st.global.v{}.{}", src.size(), ty);
      std::string operand = src.size() == 1 ? src[0] : "{" + fmt::format("{}", fmt::join(src, ", ")) + "}";
      b_.ins_if(p, opcode, {addrs[size_t(r)], operand});
    }
    return;
  }

  // Element by element: the unmasked path for interior tiles, else each element in bounds;
  // the addresses as load computes them (ElementAddresses).
  ElementAddresses at(b_, a, l);
  if (a.interior.empty()) {  // always inside
    for (int64_t r = 0; r < n; ++r) store_one(in[size_t(r)], at(r), primary);
    return;
  }
  std::string masked = b_.label_name("store_edge"), done = b_.label_name("store_done");
  b_.ins_if("!" + a.interior, "bra.uni", {masked});
  at.new_path();
  for (int64_t r = 0; r < n; ++r) store_one(in[size_t(r)], at(r), primary);
  b_.ins("bra.uni", {done});
  b_.label(masked);
  at.new_path();
  edge_limits(b_, a);
  for (int64_t r = 0; r < n; ++r) {
    // The test, then the address, in statements of their own: a call's argument order is
    // unspecified (GCC's is last to first), and both emit instructions.
    std::string p = both(b_, element_valid(b_, a, l, tc.base, r), primary);
    store_one(in[size_t(r)], at(r), p);
  }
  b_.label(done);
}

}  // namespace tilec::codegen
