// A CPU model of the tma_wgmma path's ring protocol (paths/tma_wgmma/ring.cpp, wgmma.cpp) that runs the
// PTX the emitter wrote for a real kernel, for the ring model test (ring_model_test.cpp).
//
// Why the PTX and not a restatement of the rules: the bugs this test is for (a wrong parity, an
// arrive count, a release placed before the wgmma group that read the stage finished, a slot
// that does not advance with the phase) live in the order and the operands of the emitted
// instructions, and a model written from the same rules as the emitter would share its
// mistakes. Interpreting the emitted code checks what ships, and checks the other schedules and
// wait placements the emitter grows without the model changing. The model needs only the PTX
// ISA's semantics of the instructions that carry the protocol, which do not change with it:
//   - mbarrier (§9.7.13.15): init (expected count, phase 0), arrive (one pending arrival
//     less), arrive.expect_tx (tx-count += bytes, then arrive), complete_tx by a bulk copy
//     (tx-count -= bytes); a phase completes when pending arrivals and tx-count are both zero,
//     then the parity flips and the count is expected again; try_wait.parity P succeeds when
//     the phase of parity P has completed, i.e. when the current phase's parity is not P; inval;
//   - cp.async.bulk.tensor (§9.7.9.25.5.1): writes its box to shared memory at some time
//     before it signals complete_tx on its mbarrier;
//   - wgmma (§9.7.15): mma_async reads its shared-memory operands (descriptor bits 0-13: start
//     address >> 4) until the group that commit_group closes is retired by a wait_group N
//     that leaves at most N groups pending; warpgroup-collective (.sync.aligned).
// Everything else is plain integer arithmetic and branches, interpreted exactly; values the model
// does not compute (floats, loads from memory, shuffles from other lanes) are unknown, and an
// unknown branch condition, mbarrier address or wgmma descriptor is an error rather than a
// guess. One ring per mbarrier initialization: an operand loaded once into a stage of its own
// (Pipeline::resident, attention's Q) would need its own fill order, which the model lacks.
//
// Threads: `threads_per_warpgroup` simulated threads per warpgroup of the CTA (.maxntid / 128):
// its thread 0 (the one that arrives for the warpgroup and, in warpgroup 0, produces) and lane
// 0 of its other warps (tid 128 g + 32, + 64, ...); a shfl.sync.idx from lane 0 is then exact. The threads run interleaved by a
// seeded random scheduler, a few instructions at a time; a bulk copy completes at a random
// later point, in any order. The wgmma instructions are collective: a warpgroup's simulated
// threads meet at each one (it is an error to arrive at different ones).
//
// Checks, each an error naming the PTX line:
//   - deadlock: no thread can run and no copy is in flight while a thread has not exited;
//   - read before full: a wgmma reads a stage whose copy has not landed, or whose full
//     mbarrier phase the reading threads have not observed by a successful try_wait;
//   - overwritten before released: a copy is issued into bytes that a wgmma group not yet
//     retired reads;
//   - order: each consumer warpgroup reads the fills of a ring in issue order, none skipped
//     (a fill is one arrive.expect_tx and its copies; its tag counts the fills since the
//     mbarriers were initialized); ping-pong (cfg.pingpong): each fill read by exactly one
//     consumer, each consumer's in issue order;
//   - named barriers (bar.sync waits, bar.arrive counts and goes on): a thread count that is
//     not whole warpgroups, more arrivals than the count;
//   - mbarrier misuse: init of a valid barrier, use of one not initialized or invalidated,
//     an arrival beyond the expected count, complete_tx beyond expect_tx, inval with copies
//     in flight, a copy completing on an invalid barrier;
//   - clean end: every thread exited, every copy landed, no wgmma group pending, every valid
//     mbarrier between phases (all arrivals and bytes of its last phase in), and every
//     consumer warpgroup read every fill of every ring.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilec::testing {

struct RingModelConfig {
  std::string entry;                          ///< the .entry to run ("matmul_wgmma")
  std::map<std::string, uint64_t> params;     ///< scalar .param values by name (others read 0)
  std::map<std::string, int64_t> box_bytes;   ///< tensor-map .param name -> bytes one copy writes
  uint32_t ctaid = 0, nctaid = 1;             ///< %ctaid.x, %nctaid.x
  int threads_per_warpgroup = 2;              ///< simulated threads per warpgroup (1-4)
  uint64_t seed = 1;                          ///< the scheduler's
  int64_t max_steps = 20000000;               ///< instructions before the run counts as hung
  /// Ping-pong consumers (paths/tma_wgmma/plan.h Specialization::pingpong): each fill is read by exactly one
  /// consumer warpgroup, each in order but skipping the other's; without, every consumer reads
  /// every fill in order.
  bool pingpong = false;
};

struct RingModelResult {
  std::string error;                  ///< empty when every check passed
  std::vector<int64_t> fills;         ///< per ring (mbarrier initialization), the fills issued
  std::vector<int> consumers;         ///< warpgroups that ran wgmma
  std::vector<std::vector<int64_t>> reads;  ///< per consumer in `consumers`: the fill tags it read
  int max_groups_pending = 0;         ///< most wgmma groups of one warpgroup not yet retired
  int64_t steps = 0;                  ///< instructions run
  bool ok() const { return error.empty(); }
};

/// Runs `cfg.entry` of the PTX module text `ptx` under the model. A parse error or an
/// instruction the model cannot follow is reported in `error` like a protocol error.
RingModelResult run_ring_model(const std::string& ptx, const RingModelConfig& cfg);

}  // namespace tilec::testing
