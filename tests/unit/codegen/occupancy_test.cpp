// Register-limited occupancy (codegen/toolchain/occupancy.h). Expected values worked by hand from the
// limits the header cites: 65536 registers per SM, 256 per warp granule, 64 warps, 32 CTAs.
#include <catch2/catch.hpp>

#include "../frontend/test_util.h"
#include "codegen/backend/backend.h"
#include "codegen/toolchain/occupancy.h"
#include "ir/build.h"

using namespace tilec::codegen;
using tilec::Cubin;
using tilec::EntryResources;

TEST_CASE("CTAs per SM from registers", "[occupancy]") {
  // 256 threads = 8 warps: 64 registers -> 8 * 32 * 64 = 16384 per CTA -> 4 CTAs.
  CHECK(ctas_per_sm_by_registers(64, 256) == 4);
  // 66 rounds up to 72 per thread: 18432 per CTA -> 3.
  CHECK(ctas_per_sm_by_registers(66, 256) == 3);
  // 128 threads at 48 registers: 6144 per CTA -> 10.
  CHECK(ctas_per_sm_by_registers(48, 128) == 10);
  // 32 threads at 16 registers: the 32-CTA limit binds before the registers (128 CTAs).
  CHECK(ctas_per_sm_by_registers(16, 32) == 32);
  // 1024 threads: the 64-warp limit allows 2 CTAs whatever the registers.
  CHECK(ctas_per_sm_by_registers(32, 1024) == 2);
  CHECK(ctas_per_sm_by_registers(255, 256) == 1);
}

TEST_CASE("the register cap that buys one more CTA", "[occupancy]") {
  CHECK(occupancy_register_cap(66, 256) == 64);   // 3 -> 4 CTAs, a 3 % cut
  CHECK(occupancy_register_cap(64, 256) == 0);    // 5 CTAs would need 51 -> 48: a 25 % cut
  CHECK(occupancy_register_cap(52, 128) == 48);   // 9 -> 10 CTAs of 4 warps
  CHECK(occupancy_register_cap(96, 256) == 0);    // 2 -> 3 CTAs needs 80: a 17 % cut
  CHECK(occupancy_register_cap(96, 256, 0.2) == 80);
  CHECK(occupancy_register_cap(40, 1024) == 0);   // the warp limit binds
  CHECK(occupancy_register_cap(34, 256) == 32);   // 7 -> 8 CTAs
  CHECK(occupancy_register_cap(33, 1024) == 32);  // 1 -> 2 CTAs of 32 warps
  CHECK(occupancy_register_cap(30, 64) == 0);     // the 32-CTA limit binds
}

namespace {

// The checked program and lowered kernels of `text` (4 warps each unless the kernel says).
struct Lowered {
  std::unique_ptr<tilec::test::Compiled> c;
  std::vector<std::unique_ptr<tilec::ir::Function>> fns;
  std::vector<LoweredKernel> kernels;
};

Lowered lower(const std::string& text) {
  Lowered l;
  l.c = tilec::test::check(text);
  REQUIRE(l.c->messages.empty());
  for (const tilec::KernelInfo& k : l.c->program.kernels) {
    l.fns.push_back(tilec::ir::build_kernel(k, *l.c->diag));
    if (!l.fns.back()->sig.options.num_warps) l.fns.back()->sig.options.num_warps = 4;
    l.kernels.push_back(lower_kernel(*l.fns.back(), *parse_target("sm_90"), 227 * 1024));
  }
  return l;
}

EntryResources resources(const std::string& entry, int registers, int64_t spill = 0) {
  EntryResources r;
  r.entry = entry;
  r.arch = "sm_90";
  r.registers = registers;
  r.spill_store_bytes = spill;
  return r;
}

}  // namespace

TEST_CASE("register caps go to memory-bound entries just above an occupancy step", "[occupancy]") {
  Lowered l = lower(
      "@kernel(grid=(1,), num_warps=8)\n"
      "def rows(x: f32[n], y: f32[n]):\n"
      "    store(y, index=(0,), tile=load(x, index=(0,), shape=(2048,)) * 2.0)\n"
      "@kernel(grid=(1,), num_warps=8, max_registers=128)\n"
      "def pinned(x: f32[n], y: f32[n]):\n"
      "    store(y, index=(0,), tile=load(x, index=(0,), shape=(2048,)))\n"
      "@kernel(grid=(1,), num_warps=8)\n"
      "def mm(a: f16[m, k], b: f16[k, m], c: f32[m, m]):\n"
      "    store(c, index=(0, 0), tile=mma(load(a, index=(0, 0), shape=(64, 16)), load(b, index=(0, 0), shape=(16, 64)), zeros((64, 64), f32)))\n");
  Cubin cubin;
  cubin.arch = "sm_90";
  cubin.resources = {resources("rows_v16", 66), resources("rows", 70, 8), resources("pinned_v16", 66),
                     resources("mm_v16", 66), resources("mm", 66)};
  std::map<std::string, int> caps = register_caps(cap_candidates(l.kernels), cubin, 228 * 1024);
  // rows_v16: 66 -> 64 registers, 4 CTAs of 8 warps. rows spills already; pinned has its own
  // option; mm has tensor-core work (more registers there buy ILP, not occupancy).
  CHECK(caps == std::map<std::string, int>{{"rows_v16", 64}});
  // A shared-memory budget that holds only 3 CTAs leaves the registers alone.
  CHECK(register_caps(cap_candidates(l.kernels), cubin, 3 * 1024 + 512).empty());
}
