// The ring model's machine (ring_model.h): simulated threads running one entry's PTX, the
// mbarriers, the bulk copies in flight, the wgmma groups, the scheduler and the checks.
#include "ring_model.h"

#include <algorithm>
#include <deque>
#include <random>
#include <set>

#include <fmt/format.h>

#include "ring_model_ptx.h"

namespace tilec::testing {
namespace {

using ptx::Insn;
using ptx::Kind;
using ptx::Operand;
using ptx::Val;

constexpr uint64_t kSmemBase = 16;            // the dynamic buffer's address (not 1024-aligned)
constexpr uint64_t kParamBase = 0x70000000;   // address of .param i: kParamBase + 256 i

uint64_t low_bits(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

struct MBarrier {
  bool valid = false;
  int count = 0, pending = 0;
  int64_t tx = 0;
  uint64_t phase = 0;    ///< completed phases
  uint64_t version = 0;  ///< bumped whenever a waiter could see something new
};

// One arrive.expect_tx and the copies that complete on its barrier: one stage of one iteration.
struct Fill {
  int ring = 0;
  int64_t tag = 0;       ///< fills of this ring before it
  uint64_t bar = 0;
  uint64_t phase = 0;    ///< the barrier phase it completes
  std::vector<std::pair<uint64_t, uint64_t>> bytes;  ///< [begin, end) of its copies
};

struct Copy {
  uint64_t dst = 0, end = 0, bar = 0;
  int64_t bytes = 0;
  int fill = 0;
  int line = 0;
};

struct Region {
  uint64_t end = 0;
  int fill = 0;
  bool landed = false;
};

struct Thread {
  int wg = 0;
  uint32_t tid = 0;
  size_t pc = 0;
  enum State { Run, WaitMbar, WaitCta, WaitGroup, Exited } state = Run;
  uint64_t wait_bar = 0, wait_version = 0;
  int cta_barrier = -1;
  std::vector<Val> r;
  std::map<uint64_t, uint64_t> observed;  ///< mbarrier -> phases seen completed (try_wait)
};

struct WarpGroup {
  std::vector<int> threads;
  std::set<int> open;                  ///< fills read by wgmma not yet committed
  std::deque<std::set<int>> groups;    ///< committed, not yet retired
  std::map<int, int64_t> last_tag;     ///< ring -> last fill tag read
  std::vector<int64_t> reads;          ///< the fill tags read, in order, each once
  size_t collective_pc = SIZE_MAX;     ///< the wgmma instruction its threads are meeting at
  bool consumer = false;
};

class Machine {
 public:
  Machine(const ptx::Entry& e, const RingModelConfig& cfg) : e_(e), cfg_(cfg), rng_(cfg.seed) {}

  RingModelResult run() {
    int wgs = std::max(1, e_.max_threads / 128);
    for (int g = 0; g < wgs; ++g) {
      wg_.emplace_back();
      for (int i = 0; i < cfg_.threads_per_warpgroup; ++i) {
        Thread t;
        t.wg = g;
        t.tid = uint32_t(128 * g + 32 * i);
        t.r.resize(e_.reg_names.size());
        wg_[size_t(g)].threads.push_back(int(th_.size()));
        th_.push_back(std::move(t));
      }
    }
    while (error_.empty()) {
      std::vector<int> runnable;
      for (size_t i = 0; i < th_.size(); ++i) {
        Thread& t = th_[i];
        if (t.state == Thread::WaitMbar && mbar_[t.wait_bar].version != t.wait_version) t.state = Thread::Run;
        if (t.state == Thread::Run) runnable.push_back(int(i));
      }
      size_t choices = runnable.size() + copies_.size();
      if (choices == 0) break;
      size_t pick = std::uniform_int_distribution<size_t>(0, choices - 1)(rng_);
      if (pick >= runnable.size()) {
        land(pick - runnable.size());
        continue;
      }
      Thread& t = th_[size_t(runnable[pick])];
      for (int burst = std::uniform_int_distribution<int>(1, 16)(rng_); burst > 0 && t.state == Thread::Run; --burst) {
        step(t);
        if (!error_.empty() || ++steps_ > cfg_.max_steps) break;
      }
      if (steps_ > cfg_.max_steps && error_.empty()) error_ = fmt::format("no end after {} instructions", steps_);
    }
    if (error_.empty()) finish();
    RingModelResult res;
    res.error = error_;
    res.fills = ring_fills_;
    for (size_t g = 0; g < wg_.size(); ++g)
      if (wg_[g].consumer) {
        res.consumers.push_back(int(g));
        res.reads.push_back(wg_[g].reads);
      }
    res.max_groups_pending = max_pending_;
    res.steps = steps_;
    return res;
  }

 private:
  const ptx::Entry& e_;
  const RingModelConfig& cfg_;
  std::mt19937_64 rng_;
  std::vector<Thread> th_;
  std::vector<WarpGroup> wg_;
  std::map<uint64_t, MBarrier> mbar_;
  std::vector<Fill> fills_;
  std::vector<Copy> copies_;
  std::map<uint64_t, Region> regions_;  ///< shared memory by start address: the last copy into it
  std::vector<int64_t> ring_fills_;
  /// A named barrier (bar.sync / bar.arrive id [, count]): the threads waiting at it, the
  /// arrivals so far (waiting or not), and the simulated threads it expects (-1: every live one).
  struct CtaBarrier {
    std::vector<int> waiting;
    size_t arrivals = 0;
    int64_t want = -1;
  };
  std::map<int, CtaBarrier> cta_bar_;
  /// Fill (index into fills_) -> the consumer warpgroup that read it (ping-pong: exactly one).
  std::map<int, int> reader_;
  std::string error_;
  int64_t steps_ = 0;
  int max_pending_ = 0;

  void fail(const Insn& in, const std::string& what) {
    if (error_.empty()) error_ = fmt::format("line {} ({}): {}", in.line, in.text, what);
  }

  Val value(const Thread& t, const Operand& o) const {
    switch (o.kind) {
      case Kind::Reg: return t.r[size_t(o.reg)];
      case Kind::Imm: return Val{o.imm, true};
      case Kind::Special: {
        if (o.name == "%tid.x") return Val{t.tid, true};
        if (o.name == "%ntid.x") return Val{uint64_t(e_.max_threads), true};
        if (o.name == "%ctaid.x") return Val{cfg_.ctaid, true};
        if (o.name == "%nctaid.x") return Val{cfg_.nctaid, true};
        if (o.name == "%tid.y" || o.name == "%tid.z" || o.name == "%ctaid.y" || o.name == "%ctaid.z")
          return Val{0, true};
        if (o.name == "%nctaid.y" || o.name == "%nctaid.z" || o.name == "%ntid.y" || o.name == "%ntid.z")
          return Val{1, true};
        if (o.name == "%laneid") return Val{t.tid % 32, true};
        return Val{};
      }
      case Kind::Sym: {
        if (o.name == "tilec_smem") return Val{kSmemBase, true};
        for (size_t i = 0; i < e_.params.size(); ++i)
          if (e_.params[i] == o.name) return Val{kParamBase + 256 * i, true};
        return Val{};
      }
      default: return Val{};
    }
  }

  void set(Thread& t, const Operand& o, Val v) {
    if (o.kind == Kind::Reg) t.r[size_t(o.reg)] = v;
    if (o.kind == Kind::Vec)
      for (const Operand& x : o.elems) set(t, x, Val{});
  }

  // The shared address of a [reg+off] operand; an error when unknown.
  bool address(const Thread& t, const Insn& in, const Operand& o, uint64_t& addr) {
    Val base = o.reg >= 0 ? t.r[size_t(o.reg)] : value(t, Operand{Kind::Sym, -1, 0, o.name, {}});
    if (!base.known) return fail(in, "address the model does not know"), false;
    addr = (base.v + o.imm) & 0xffffffffu;
    return true;
  }

  MBarrier* barrier(const Thread& t, const Insn& in, const Operand& o, uint64_t& addr) {
    if (!address(t, in, o, addr)) return nullptr;
    MBarrier& b = mbar_[addr];
    if (!b.valid) return fail(in, fmt::format("mbarrier {:#x} is not initialized (or was invalidated)", addr)), nullptr;
    return &b;
  }

  void complete_if_done(MBarrier& b) {
    if (b.pending == 0 && b.tx == 0) {
      ++b.phase;
      b.pending = b.count;
      ++b.version;
    }
  }

  void arrive(const Insn& in, MBarrier& b) {
    if (b.pending == 0) return fail(in, "arrival beyond the expected count of the phase");
    --b.pending;
    complete_if_done(b);
  }

  void step(Thread& t) {
    if (t.pc >= e_.code.size()) return exit_thread(t, e_.code.back());
    const Insn& in = e_.code[t.pc];
    const std::string& op = in.parts[0];
    bool effect = op == "bra" || op == "ret" || op == "exit" || op == "trap" || op == "bar" || op == "barrier" ||
                  op == "mbarrier" || op == "cp" || op == "wgmma";
    if (in.pred >= 0) {
      Val g = t.r[size_t(in.pred)];
      if (!g.known) {
        if (effect) return fail(in, "guard the model does not know");
        if (!in.ops.empty()) set(t, in.ops[0], Val{});
        ++t.pc;
        return;
      }
      if ((g.v != 0) == in.pred_neg) {
        ++t.pc;
        return;
      }
    }
    if (op == "wgmma") return collective(t, in);
    if (op == "bra") {
      t.pc = size_t(in.target);
      return;
    }
    if (op == "ret" || op == "exit") return exit_thread(t, in);
    if (op == "trap") return fail(in, "trap (a bounded mbarrier wait gave up)");
    if (op == "bar" && in.parts.at(1) == "warp") {
      ++t.pc;
      return;
    }
    if (op == "bar" || op == "barrier") return cta_barrier(t, in);
    if (op == "mbarrier") return mbarrier(t, in);
    if (op == "cp" && in.opcode.find("cp.async.bulk.tensor") == 0) {
      if (in.opcode.find(".global.shared::cta") != std::string::npos) return bulk_store(t, in);
      return bulk_copy(t, in);
    }
    if (op == "st" && in.parts.at(1) == "shared") return shared_store(t, in);
    ++t.pc;
    if (op == "mov") return mov(t, in);
    if (op == "shfl") return shuffle(t, in);
    if (op == "ld" && in.parts.at(1) == "param") {
      const Operand& m = in.ops.at(1);
      auto it = cfg_.params.find(m.name);
      set(t, in.ops[0], m.imm == 0 ? Val{it == cfg_.params.end() ? 0 : it->second, true} : Val{});
      return;
    }
    std::vector<Val> a;
    for (size_t i = 1; i < in.ops.size(); ++i) a.push_back(value(t, in.ops[i]));
    Val r;
    if (ptx::eval_scalar(in, a, r)) return set(t, in.ops.at(0), r);
    // Anything else: its destination (if it has one) becomes unknown; stores do nothing here.
    if (!in.ops.empty() && op != "st" && op != "red" && op != "prefetch" && op != "fence") set(t, in.ops[0], Val{});
  }

  void mov(Thread& t, const Insn& in) {
    const Operand &d = in.ops.at(0), &s = in.ops.at(1);
    int bits = std::max(1, ptx::last_type(in).bits);
    if (d.kind == Kind::Vec) {  // unpack
      Val v = value(t, s);
      int w = bits / int(d.elems.size());
      for (size_t i = 0; i < d.elems.size(); ++i)
        set(t, d.elems[i], v.known ? Val{(v.v >> (w * int(i))) & low_bits(w), true} : Val{});
      return;
    }
    if (s.kind == Kind::Vec) {  // pack
      int w = bits / int(s.elems.size());
      Val r{0, true};
      for (size_t i = 0; i < s.elems.size(); ++i) {
        Val x = value(t, s.elems[i]);
        r.known = r.known && x.known;
        r.v |= (x.v & low_bits(w)) << (w * int(i));
      }
      return set(t, d, r);
    }
    set(t, d, value(t, s));
  }

  // shfl.sync.idx from the thread's own lane (every simulated thread is lane 0 of its warp, so
  // a broadcast from lane 0, as the emitter makes the warpgroup index warp-uniform, is exact);
  // from any other lane, or in another mode, the value is unknown.
  void shuffle(Thread& t, const Insn& in) {
    Val a = value(t, in.ops.at(1)), lane = value(t, in.ops.at(2));
    bool own = in.parts.at(2) == "idx" && lane.known && (lane.v & 31) == t.tid % 32;
    const Operand& d = in.ops.at(0);
    if (d.kind == Kind::Vec) {  // d|p: p says whether the source lane was in range
      set(t, d.elems.at(0), own ? a : Val{});
      set(t, d.elems.at(1), own ? Val{1, true} : Val{});
    } else {
      set(t, d, own ? a : Val{});
    }
  }

  void exit_thread(Thread& t, const Insn& in) {
    t.state = Thread::Exited;
    WarpGroup& g = wg_[size_t(t.wg)];
    if (g.collective_pc != SIZE_MAX) return fail(in, "a thread exits while its warpgroup meets at a wgmma instruction");
    bool live = false;
    for (int i : g.threads) live = live || th_[size_t(i)].state != Thread::Exited;
    if (!live && (!g.groups.empty() || !g.open.empty())) fail(in, "a warpgroup exits with wgmma groups pending");
    release_cta_barriers();
  }

  // bar.sync (wait) or bar.arrive (count, go on) at barrier id [, count]: every live simulated
  // thread, or those of count / 128 warpgroups (PTX ISA §9.7.13.1).
  void cta_barrier(Thread& t, const Insn& in) {
    Val id = value(t, in.ops.at(0));
    if (!id.known) return fail(in, "barrier id the model does not know");
    int64_t want = -1;
    if (in.ops.size() > 1) {
      Val n = value(t, in.ops[1]);
      if (!n.known || n.v % 128) return fail(in, "a barrier count that is not whole warpgroups");
      want = int64_t(n.v / 128) * cfg_.threads_per_warpgroup;
    }
    CtaBarrier& b = cta_bar_[int(id.v)];
    if (b.arrivals && b.want != want) return fail(in, "one barrier used with two thread counts at once");
    b.want = want;
    ++b.arrivals;
    if (in.parts.size() > 1 && in.parts[1] == "arrive") {
      ++t.pc;
    } else {
      t.state = Thread::WaitCta;
      t.cta_barrier = int(id.v);
      b.waiting.push_back(int(&t - th_.data()));
    }
    release_cta_barriers();
  }

  void release_cta_barriers() {
    for (auto& [id, b] : cta_bar_) {
      if (b.arrivals == 0) continue;
      size_t want = 0;
      if (b.want >= 0) {
        want = size_t(b.want);
      } else {
        for (const Thread& x : th_) want += x.state != Thread::Exited;
      }
      if (b.arrivals < want) continue;
      if (b.arrivals > want) return fail(e_.code[0], fmt::format("barrier {}: {} arrivals for {}", id, b.arrivals, want));
      for (int i : b.waiting) {
        th_[size_t(i)].state = Thread::Run;
        ++th_[size_t(i)].pc;
      }
      b = CtaBarrier{};
    }
  }

  void mbarrier(Thread& t, const Insn& in) {
    const std::string& what = in.parts.at(1);
    uint64_t addr = 0;
    if (what == "init") {
      if (!address(t, in, in.ops.at(0), addr)) return;
      Val n = value(t, in.ops.at(1));
      if (!n.known || n.v == 0) return fail(in, "arrival count the model does not know");
      bool any_valid = false;
      for (auto& [a, b] : mbar_) any_valid = any_valid || b.valid;
      if (!any_valid) ring_fills_.push_back(0);  // a new ring
      MBarrier& b = mbar_[addr];
      if (b.valid) return fail(in, "init of an mbarrier in use (no inval before)");
      b = MBarrier{true, int(n.v), int(n.v), 0, 0, b.version + 1};
      for (Thread& x : th_) x.observed.erase(addr);
    } else if (what == "inval") {
      MBarrier* b = barrier(t, in, in.ops.at(0), addr);
      if (!b) return;
      for (const Copy& c : copies_)
        if (c.bar == addr) return fail(in, "inval of an mbarrier a bulk copy in flight will signal");
      b->valid = false;
      ++b->version;
    } else if (what == "arrive") {
      MBarrier* b = barrier(t, in, in.ops.at(1), addr);
      if (!b) return;
      if (in.opcode.find("expect_tx") != std::string::npos) {
        Val bytes = value(t, in.ops.at(2));
        if (!bytes.known) return fail(in, "byte count the model does not know");
        Fill f;
        f.ring = int(ring_fills_.size()) - 1;
        f.tag = ring_fills_.back()++;
        f.bar = addr;
        f.phase = b->phase;
        fills_.push_back(f);
        b->tx += int64_t(bytes.v);
      }
      set(t, in.ops[0], Val{});
      arrive(in, *b);
    } else if (what == "try_wait" || what == "test_wait") {
      MBarrier* b = barrier(t, in, in.ops.at(1), addr);
      if (!b) return;
      Val parity = value(t, in.ops.at(2));
      if (!parity.known) return fail(in, "parity the model does not know");
      bool done = (b->phase & 1) != (parity.v & 1);
      set(t, in.ops[0], Val{done ? 1u : 0u, true});
      if (done) {
        t.observed[addr] = std::max(t.observed[addr], b->phase);
      } else {
        t.state = Thread::WaitMbar;  // runs on (to the retry) when the barrier changes
        t.wait_bar = addr;
        t.wait_version = b->version;
      }
    } else {
      return fail(in, "mbarrier operation the model does not know");
    }
    ++t.pc;
  }

  // The bytes of one box of the tensor map that operand `m` ([map, {...}]) names (the
  // configuration's box_bytes of its .param), or -1 after reporting a map the model lacks.
  int64_t box_bytes(const Thread& t, const Insn& in, const Operand& m) {
    Val map = m.reg >= 0 ? t.r[size_t(m.reg)] : value(t, Operand{Kind::Sym, -1, 0, m.name, {}});
    std::string param;
    for (size_t i = 0; i < e_.params.size(); ++i)
      if (map.known && map.v == kParamBase + 256 * i) param = e_.params[i];
    auto box = cfg_.box_bytes.find(param);
    if (box == cfg_.box_bytes.end()) return fail(in, "a tensor map the model has no box size for"), -1;
    return int64_t(box->second);
  }

  void bulk_copy(Thread& t, const Insn& in) {
    uint64_t dst = 0, bar = 0;
    if (!address(t, in, in.ops.at(0), dst)) return;
    MBarrier* b = barrier(t, in, in.ops.at(2), bar);
    if (!b) return;
    int64_t box = box_bytes(t, in, in.ops.at(1));
    if (box < 0) return;
    int fill = -1;
    for (int i = int(fills_.size()) - 1; i >= 0 && fill < 0; --i)
      if (fills_[size_t(i)].bar == bar && fills_[size_t(i)].ring == int(ring_fills_.size()) - 1) fill = i;
    if (fill < 0 || fills_[size_t(fill)].phase != b->phase)
      return fail(in, "a bulk copy signals an mbarrier phase no arrive.expect_tx opened");
    Copy c{dst, dst + uint64_t(box), bar, box, fill, in.line};
    // Overwritten before released: a wgmma group that has not retired still reads these bytes.
    size_t g = 0;
    if (int f = read_by_wgmma(c.dst, c.end, g); f >= 0)
      return fail(in, fmt::format("stage overwritten while warpgroup {} has a wgmma group reading it "
                                  "(fill {} of ring {}) not yet retired",
                                  g, fills_[size_t(f)].tag, fills_[size_t(f)].ring));
    for (auto it = regions_.begin(); it != regions_.end();) {
      if (it->first < c.end && c.dst < it->second.end) {
        if (!it->second.landed) return fail(in, "a bulk copy into bytes another copy in flight writes");
        it = regions_.erase(it);
      } else {
        ++it;
      }
    }
    regions_[dst] = Region{c.end, fill, false};
    fills_[size_t(fill)].bytes.emplace_back(c.dst, c.end);
    copies_.push_back(c);
    ++t.pc;
  }

  // The fill whose bytes overlap [lo, hi) and that a wgmma group of warpgroup `g` (set) has not
  // retired yet (open or committed), or -1.
  int read_by_wgmma(uint64_t lo, uint64_t hi, size_t& g) const {
    for (g = 0; g < wg_.size(); ++g) {
      std::vector<const std::set<int>*> reading(1, &wg_[g].open);
      for (const std::set<int>& grp : wg_[g].groups) reading.push_back(&grp);
      for (const std::set<int>* r : reading)
        for (int f : *r)
          for (auto [a, b] : fills_[size_t(f)].bytes)
            if (a < hi && lo < b) return f;
    }
    return -1;
  }

  // Bytes [lo, hi) of shared memory that a generic store writes or a bulk store reads (the TMA
  // store epilogue's staging buffer, paths/tma_wgmma/store_emitter.cpp): no wgmma group that has not retired
  // may still read them, and no bulk copy in flight may still write them.
  void check_free(const Insn& in, uint64_t lo, uint64_t hi, const char* what) {
    size_t g = 0;
    if (int f = read_by_wgmma(lo, hi, g); f >= 0)
      return fail(in, fmt::format("{} bytes a wgmma group of warpgroup {} still reads (fill {} of ring {})", what, g,
                                  fills_[size_t(f)].tag, fills_[size_t(f)].ring));
    for (const auto& [start, r] : regions_)
      if (start < hi && lo < r.end && !r.landed) return fail(in, fmt::format("{} bytes a bulk copy in flight writes", what));
  }

  // st.shared[.vN].bW [addr], value: the bytes it writes must be free.
  void shared_store(Thread& t, const Insn& in) {
    uint64_t at = 0;
    if (!address(t, in, in.ops.at(0), at)) return;
    const Operand& v = in.ops.at(1);
    uint64_t bytes = uint64_t(std::max(1, ptx::last_type(in).bits) / 8) * (v.kind == Kind::Vec ? v.elems.size() : 1);
    check_free(in, at, at + bytes, "st.shared writes");
    ++t.pc;
  }

  // cp.async.bulk.tensor global.shared::cta [map, {..}], [src]: reads one box from src.
  void bulk_store(Thread& t, const Insn& in) {
    uint64_t src = 0;
    if (!address(t, in, in.ops.at(1), src)) return;
    int64_t box = box_bytes(t, in, in.ops.at(0));
    if (box < 0) return;
    check_free(in, src, src + uint64_t(box), "a bulk store reads");
    ++t.pc;
  }

  // A copy lands: its bytes are in, then its complete_tx.
  void land(size_t i) {
    Copy c = copies_[i];
    copies_.erase(copies_.begin() + long(i));
    auto r = regions_.find(c.dst);
    if (r != regions_.end() && r->second.fill == c.fill) r->second.landed = true;
    MBarrier& b = mbar_[c.bar];
    if (!b.valid) {
      error_ = fmt::format("the bulk copy of line {} completes on an invalid mbarrier", c.line);
      return;
    }
    b.tx -= c.bytes;
    if (b.tx < 0) {
      error_ = fmt::format("the bulk copy of line {} delivers more bytes than expect_tx announced", c.line);
      return;
    }
    complete_if_done(b);
  }

  // wgmma.*: the warpgroup's live threads meet at the instruction, then it runs once.
  void collective(Thread& t, const Insn& in) {
    WarpGroup& g = wg_[size_t(t.wg)];
    if (g.collective_pc == SIZE_MAX) g.collective_pc = t.pc;
    if (g.collective_pc != t.pc)
      return fail(in, fmt::format("warpgroup {} diverged: its threads are at different wgmma instructions (line {})",
                                  t.wg, e_.code[g.collective_pc].line));
    t.state = Thread::WaitGroup;
    for (int i : g.threads)
      if (th_[size_t(i)].state != Thread::Exited && th_[size_t(i)].state != Thread::WaitGroup) return;
    const std::string& what = in.parts.at(1);
    if (what == "mma_async") read_operands(t, g, in);
    if (what == "commit_group") {
      g.groups.push_back(g.open);
      g.open.clear();
      max_pending_ = std::max(max_pending_, int(g.groups.size()));
    }
    if (what == "wait_group") {
      Val n = value(t, in.ops.at(0));
      while (g.groups.size() > n.v) g.groups.pop_front();
    }
    g.collective_pc = SIZE_MAX;
    for (int i : g.threads) {
      Thread& x = th_[size_t(i)];
      if (x.state == Thread::WaitGroup) {
        x.state = Thread::Run;
        ++x.pc;
      }
    }
  }

  // The shared-memory operands of one wgmma.mma_async: descriptor operands (.b64 registers).
  void read_operands(const Thread& t, WarpGroup& g, const Insn& in) {
    g.consumer = true;
    int64_t tag = -1;
    for (size_t i = 1; i < in.ops.size() && in.ops[i].kind != Kind::Imm; ++i) {
      const Operand& o = in.ops[i];
      if (o.kind != Kind::Reg || e_.reg_names[size_t(o.reg)].rfind("%rd", 0) != 0) continue;
      Val d = t.r[size_t(o.reg)];
      if (!d.known) return fail(in, "a descriptor the model does not know");
      uint64_t addr = (d.v & 0x3fff) << 4;  // bits 0-13: start address >> 4
      auto it = regions_.upper_bound(addr);
      if (it == regions_.begin() || (--it)->second.end <= addr)
        return fail(in, fmt::format("wgmma reads shared memory {:#x} that no bulk copy wrote", addr));
      const Fill& f = fills_[size_t(it->second.fill)];
      if (!it->second.landed)
        return fail(in, fmt::format("read before full: fill {} of ring {} has not landed", f.tag, f.ring));
      for (int k : g.threads) {
        const Thread& x = th_[size_t(k)];
        auto seen = x.observed.find(f.bar);
        if (x.state != Thread::Exited && (seen == x.observed.end() || seen->second <= f.phase))
          return fail(in, fmt::format("read before full: thread {} has not waited for the full mbarrier of fill {} "
                                      "of ring {}",
                                      x.tid, f.tag, f.ring));
      }
      if (tag >= 0 && f.tag != tag) return fail(in, "the operands of one wgmma come from different fills");
      tag = f.tag;
      int64_t& last = g.last_tag.emplace(f.ring, -1).first->second;
      // Ping-pong: each consumer reads its own tiles' fills, in order, skipping the other's;
      // every fill is read by one consumer.
      bool in_order = cfg_.pingpong ? f.tag >= last : (f.tag == last || f.tag == last + 1);
      if (!in_order)
        return fail(in, fmt::format("warpgroup {} reads fill {} of ring {} after fill {}", t.wg, f.tag, f.ring, last));
      int& reader = reader_.emplace(it->second.fill, t.wg).first->second;
      if (cfg_.pingpong && reader != t.wg)
        return fail(in, fmt::format("fill {} of ring {} read by warpgroups {} and {}", f.tag, f.ring, reader, t.wg));
      if (f.tag != last) g.reads.push_back(f.tag);
      last = f.tag;
      g.open.insert(it->second.fill);
    }
  }

  void finish() {
    for (const Thread& t : th_)
      if (t.state != Thread::Exited) {
        std::string why = "deadlock:";
        for (const Thread& x : th_) {
          if (x.state == Thread::Exited) continue;
          const Insn& in = e_.code[std::min(x.pc, e_.code.size() - 1)];
          why += fmt::format(" [thread {} at line {} '{}'", x.tid, in.line, in.text);
          if (x.state == Thread::WaitMbar) {
            const MBarrier& b = mbar_[x.wait_bar];
            why += fmt::format(" waiting on mbarrier {:#x}: phase {}, {} of {} arrivals pending, tx {}", x.wait_bar,
                               b.phase, b.pending, b.count, b.tx);
          }
          why += "]";
        }
        error_ = why;
        return;
      }
    for (size_t g = 0; g < wg_.size(); ++g) {
      if (!wg_[g].groups.empty()) error_ = fmt::format("warpgroup {} ended with wgmma groups pending", g);
      if (!wg_[g].consumer || cfg_.pingpong) continue;
      for (size_t ring = 0; ring < ring_fills_.size(); ++ring) {
        auto it = wg_[g].last_tag.find(int(ring));
        int64_t last = it == wg_[g].last_tag.end() ? -1 : it->second;
        if (last + 1 != ring_fills_[ring] && error_.empty())
          error_ = fmt::format("warpgroup {} read {} of the {} fills of ring {}", g, last + 1, ring_fills_[ring], ring);
      }
    }
    if (cfg_.pingpong && error_.empty()) {
      int64_t total = 0;
      for (int64_t n : ring_fills_) total += n;
      if (int64_t(reader_.size()) != total)
        error_ = fmt::format("the consumers read {} of the {} fills", reader_.size(), total);
    }
    for (const auto& [addr, b] : mbar_)
      if (b.valid && (b.pending != b.count || b.tx != 0) && error_.empty())
        error_ = fmt::format("mbarrier {:#x} ends inside a phase: {} of {} arrivals pending, tx {}", addr, b.pending,
                             b.count, b.tx);
  }
};

}  // namespace

RingModelResult run_ring_model(const std::string& ptx_text, const RingModelConfig& cfg) {
  ptx::Entry e;
  RingModelResult res;
  if (!ptx::parse_entry(ptx_text, cfg.entry, e, res.error)) return res;
  return Machine(e, cfg).run();
}

}  // namespace tilec::testing
