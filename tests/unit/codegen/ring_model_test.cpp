// The tma_wgmma path's ring protocol under the CPU model (ring_model.h), on the PTX the compiler
// writes for ring_model.tile: warp-specialized and inline schedules, 1, 2 and 4 consumer
// warpgroups (the accumulator's rows are a power of two, so 3 do not occur), 2 to 8 stages,
// trip counts 0, 1, S - 1, S, S + 1 and 1000, a persistent loop over tiles with a CTA that gets
// none, a CTA that returns before its loop, and ping-pong consumers taking alternate tiles. Then the same PTX with one fact broken (a wait
// parity, an arrive count, the wgmma wait depth) must fail: the model can see such bugs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "driver/options.h"
#include "driver/pipeline.h"
#include "ring_model.h"

using tilec::testing::RingModelConfig;
using tilec::testing::RingModelResult;
using tilec::testing::run_ring_model;
namespace fs = std::filesystem;

namespace {

struct Tiles {
  int consumers, stages, bn, bk;  ///< stages: what the lowering picks for these tiles (checked)
};
// BM = 64 * consumers; stage bytes (BM + BN) * BK * 2 in 227 KB, at most 8 stages.
const Tiles kTiles[] = {
    {1, 2, 256, 128}, {1, 3, 64, 256}, {1, 4, 128, 128}, {1, 5, 256, 64}, {1, 6, 8, 256}, {1, 7, 64, 128},
    {1, 8, 64, 64},   {2, 2, 256, 128}, {2, 3, 128, 128}, {2, 4, 256, 64}, {2, 5, 32, 128}, {2, 6, 8, 128},
    {2, 7, 128, 64},  {2, 8, 8, 64},    {4, 2, 64, 128},  {4, 3, 8, 128}, {4, 4, 128, 64}, {4, 5, 64, 64},
    {4, 6, 8, 64},
};

// The PTX module of ring_model.tile for these tiles (compiled once per configuration).
std::string compile_ring(const Tiles& t) {
  fs::path out = fs::temp_directory_path() /
                 ("tilec_ring_model." + std::to_string(getpid()) + "." + std::to_string(t.consumers) + "." +
                  std::to_string(t.bn) + "." + std::to_string(t.bk) + ".ptx");
  std::string src = std::string(TILEC_SOURCE_DIR) + "/tests/unit/codegen/ring_model.tile";
  std::vector<std::string> args = {"tilec",
                                   src,
                                   "-arch",
                                   "sm_90a",
                                   "--emit=ptx",
                                   "-D",
                                   "BM=" + std::to_string(64 * t.consumers),
                                   "-D",
                                   "BN=" + std::to_string(t.bn),
                                   "-D",
                                   "BK=" + std::to_string(t.bk),
                                   "-o",
                                   out.string()};
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  tilec::Options opts;
  REQUIRE(tilec::parse_command_line(int(argv.size()), argv.data(), opts) == -1);
  REQUIRE(tilec::compile(opts) == 0);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(out);
  return text.str();
}

// The text of one entry: from its .entry line to the next one.
std::string entry_text(const std::string& ptx, const std::string& name) {
  size_t at = ptx.find(".entry " + name + "(");
  REQUIRE(at != std::string::npos);
  return ptx.substr(at, ptx.find(".entry ", at + 1) - at);
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Granlund and Montgomery's magic number and shifts for divisor d >= 1 (PLDI 1994, Fig. 4.1),
// what the header's tilec_divisor_magic passes with a launch divisor.
std::array<uint64_t, 3> divisor_magic(uint64_t d) {
  if (d == 0) return {0, 0, 0};
  uint64_t l = 0;
  while ((uint64_t(1) << l) < d) ++l;
  return {((uint64_t(1) << l) - d) * (uint64_t(1) << 32) / d + 1, std::min<uint64_t>(l, 1), l > 1 ? l - 1 : 0};
}

// A configuration for `kernel` ("ring", "ring_inline", "ring_persistent", "ring_grid") with
// M x N x K: the entry's last three .s64 .params are the extents M, K, N (in the order the
// signature names them), its 128-byte-aligned ones the tensor maps of A and B (and of C's TMA
// store); a persistent grid's three .u32 ones after them the logical grid (tiles, 1, 1); then
// at most one launch divisor (a .b64 and three .u32: cdiv(N, BN) and its magic number).
RingModelConfig config(const std::string& ptx, const std::string& kernel, const Tiles& t, int64_t M, int64_t N,
                       int64_t K) {
  RingModelConfig c;
  c.entry = kernel + "_wgmma";
  std::string head = entry_text(ptx, c.entry);
  head = head.substr(0, head.find(')'));
  std::vector<std::string> params, maps, grid, divisor;
  std::istringstream lines(head);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(".param") == std::string::npos) continue;
    std::string name = line.substr(line.find_last_of(' ') + 1);
    name = name.substr(0, name.find_first_of("[,"));
    bool value = line.find(".b64") != std::string::npos && line.find(".align") == std::string::npos;
    if (value || (!divisor.empty() && divisor.size() < 4)) divisor.push_back(name);
    else if (line.find(".u32") != std::string::npos) grid.push_back(name);
    else params.push_back(name);
    if (line.find(".align 128") != std::string::npos) maps.push_back(name);
  }
  REQUIRE(params.size() >= 3);
  REQUIRE((grid.empty() || grid.size() == 3));
  if (!grid.empty()) {
    int64_t bm = 64 * t.consumers;
    c.params[grid[0]] = uint64_t((M + bm - 1) / bm * ((N + t.bn - 1) / t.bn));
    c.params[grid[1]] = c.params[grid[2]] = 1;
  }
  REQUIRE((divisor.empty() || divisor.size() == 4));
  if (!divisor.empty()) {
    uint64_t d = uint64_t((N + t.bn - 1) / t.bn);
    std::array<uint64_t, 3> magic = divisor_magic(d);
    c.params[divisor[0]] = d;
    for (size_t i = 0; i < 3; ++i) c.params[divisor[i + 1]] = magic[i];
  }
  REQUIRE((maps.size() == 2 || maps.size() == 3));
  c.params[params[params.size() - 3]] = uint64_t(M);
  c.params[params[params.size() - 2]] = uint64_t(K);
  c.params[params[params.size() - 1]] = uint64_t(N);
  c.box_bytes[maps[0]] = 64 * t.consumers * 128;  // A: BM lines of 128 bytes per box
  c.box_bytes[maps[1]] = t.bn * 128;              // B^T: BN lines
  if (maps.size() == 3) c.box_bytes[maps[2]] = 64 * t.consumers * 128;  // C's TMA store: BM lines
  return c;
}

std::string describe(const RingModelConfig& c, const Tiles& t, int64_t trips) {
  return c.entry + ": " + std::to_string(t.consumers) + " consumer warpgroup(s), " + std::to_string(t.stages) +
         " stages, " + std::to_string(trips) + " trips, ctaid " + std::to_string(c.ctaid) + ", seed " +
         std::to_string(c.seed);
}

// Copies of `ptx` with one fact broken; each must fail under the model.
std::vector<std::pair<std::string, std::string>> mutants(const std::string& ptx, const std::string& entry) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t begin = ptx.find(".entry " + entry + "("), end = ptx.find(".entry ", begin + 1);
  auto within = [&](size_t at) { return at != std::string::npos && at > begin && at < end; };
  // Each mbarrier wait with the opposite parity: xor the parity register with 1 around it.
  const std::string wait = "mbarrier.try_wait.parity.shared::cta.b64 ";
  int n = 0;
  for (size_t at = ptx.find(wait, begin); within(at); at = ptx.find(wait, at + 1), ++n) {
    size_t semi = ptx.find(';', at), comma = ptx.rfind(',', semi);
    std::string parity = ptx.substr(comma + 2, semi - comma - 2);
    std::string flip = "xor.b32 " + parity + ", " + parity + ", 1;\n\t";
    std::string m = ptx;
    m.insert(semi + 2, "\t" + flip);
    m.insert(at, flip);
    out.emplace_back("the parity of mbarrier wait " + std::to_string(n) + " flipped", m);
  }
  // Each mbarrier's expected arrival count one less and one more.
  const std::string init = "mbarrier.init.shared::cta.b64 ";
  n = 0;
  for (size_t at = ptx.find(init, begin); within(at) && n < 2; at = ptx.find(init, at + 1), ++n) {  // stage 0's
    size_t semi = ptx.find(';', at), comma = ptx.rfind(',', semi);
    int count = std::stoi(ptx.substr(comma + 2, semi - comma - 2));
    for (int d : {-1, 1}) {
      if (count + d < 1) continue;
      std::string m = ptx;
      m.replace(comma + 2, semi - comma - 2, std::to_string(count + d));
      out.emplace_back("the arrival count of " + ptx.substr(at, semi - at) + " changed to " + std::to_string(count + d),
                       m);
    }
  }
  // The loop's wgmma wait one group deeper: the stage is released while its group may run.
  const std::string wg1 = "wgmma.wait_group.sync.aligned 1;";
  size_t at = ptx.find(wg1, begin);
  if (within(at)) {
    std::string m = ptx;
    m.replace(at, wg1.size(), "wgmma.wait_group.sync.aligned 2;");
    out.emplace_back("wait_group 2 in the loop", m);
  }
  return out;
}

}  // namespace

TEST_CASE("ring model: every schedule, stage count, consumer count and trip count", "[ring_model]") {
  for (const Tiles& t : kTiles) {
    std::string ptx = compile_ring(t);
    // The stages and the consumer count the lowering chose for these tiles.
    std::string spec = entry_text(ptx, "ring_wgmma");
    INFO("BM " << 64 * t.consumers << " BN " << t.bn << " BK " << t.bk);
    REQUIRE(count(spec, "mbarrier.init.shared::cta.b64") == 2 * t.stages);
    int64_t BM = 64 * t.consumers, S = t.stages;
    std::vector<int64_t> trips = {0, 1, S - 1, S, S + 1, 1000};
    std::sort(trips.begin(), trips.end());
    trips.erase(std::unique(trips.begin(), trips.end()), trips.end());
    for (const char* kernel : {"ring", "ring_inline"})
      for (int64_t n : trips)
        for (uint64_t seed : {1u, 2u, 3u}) {
          if (n == 1000 && seed > 1) continue;
          RingModelConfig c = config(ptx, kernel, t, BM, t.bn, n * t.bk);
          c.seed = seed;
          RingModelResult r = run_ring_model(ptx, c);
          INFO(describe(c, t, n));
          REQUIRE(r.error == "");
          // The model ran the protocol: one ring, n fills, every consumer warpgroup read them.
          REQUIRE(r.fills == std::vector<int64_t>{n});
          CHECK(int(r.consumers.size()) == (n ? t.consumers : 0));
          // One wgmma group stays in flight across iterations (wait_group 1), none beyond.
          CHECK(r.max_groups_pending == std::min<int64_t>(n, 2));
        }
  }
}

TEST_CASE("ring model: a CTA with no tile leaves at once", "[ring_model]") {
  const Tiles& t = kTiles[9];  // 2 consumers, 4 stages
  std::string ptx = compile_ring(t);
  // ring_inline returns before its loop when bid(0) is past the last tile.
  RingModelConfig c = config(ptx, "ring_inline", t, 128, t.bn, 10 * t.bk);
  c.ctaid = 1;
  RingModelResult r = run_ring_model(ptx, c);
  REQUIRE(r.error == "");
  CHECK(r.fills.empty());
  // ring_persistent over 2, 5 and 7 tiles with 3 CTAs: CTA 2 of the first gets none; the others
  // run one ring per tile, each initialized, filled and invalidated anew.
  for (int64_t tiles : {2, 5, 7})
    for (uint32_t cta = 0; cta < 3; ++cta)
      for (int64_t n : {int64_t(0), int64_t(1), int64_t(5), int64_t(9)}) {
        RingModelConfig p = config(ptx, "ring_persistent", t, 128 * tiles, t.bn, n * t.bk);
        p.ctaid = cta;
        p.nctaid = 3;
        RingModelResult q = run_ring_model(ptx, p);
        INFO(describe(p, t, n) << ", " << tiles << " tiles");
        REQUIRE(q.error == "");
        int64_t mine = tiles > cta ? (tiles - cta + 2) / 3 : 0;
        CHECK(q.fills == std::vector<int64_t>(size_t(mine), n));
      }
}

TEST_CASE("ring model: a broken parity, arrive count or wait depth fails", "[ring_model]") {
  const Tiles& t = kTiles[9];  // 2 consumers, 4 stages
  std::string ptx = compile_ring(t);
  for (const char* kernel : {"ring", "ring_inline"}) {
    std::vector<std::pair<std::string, std::string>> ms = mutants(ptx, std::string(kernel) + "_wgmma");
    // Every mbarrier wait (specialized: the producer's empty wait, the consumers' full wait;
    // inline: also thread 0's waits for the first stages); the full and empty counts of stage 0
    // each one less and one more (the full count 1 only one more); the wait depth.
    int waits = count(entry_text(ptx, std::string(kernel) + "_wgmma"), "mbarrier.try_wait");
    CHECK(waits >= 2);
    CHECK(int(ms.size()) == waits + 3 + 1);
    for (const auto& [what, text] : ms)
      for (uint64_t seed : {1u, 2u, 3u}) {
        RingModelConfig c = config(ptx, kernel, t, 128, t.bn, 40 * t.bk);
        c.seed = seed;
        RingModelResult r = run_ring_model(text, c);
        INFO(kernel << ": " << what << ", seed " << seed);
        CHECK(r.error != "");
      }
    // Unbroken, the same runs pass.
    RingModelResult ok = run_ring_model(ptx, config(ptx, kernel, t, 128, t.bn, 40 * t.bk));
    CHECK(ok.error == "");
  }
}

TEST_CASE("ring model: the TMA store's staging waits for every consumer warpgroup", "[ring_model]") {
  // store_emitter.cpp stages C in the dead stages after a barrier of the consumers; without it,
  // one warpgroup's st.shared may overwrite a stage the other's last wgmma group still reads.
  // 41 trips of 4 stages end on stage 0, where the staging buffer starts.
  const Tiles& t = kTiles[9];  // 2 consumers, 4 stages
  std::string ptx = compile_ring(t);
  std::string entry = entry_text(ptx, "ring_wgmma");
  REQUIRE(count(entry, "cp.async.bulk.tensor.2d.global.shared::cta") >= 1);
  size_t begin = ptx.find(".entry ring_wgmma(");
  size_t drained = ptx.find("wgmma.wait_group.sync.aligned 0;", begin);
  const std::string bar = "bar.sync 1, 256;";
  size_t at = ptx.find(bar, drained);
  REQUIRE(at != std::string::npos);
  std::string broken = ptx;
  broken.erase(at, bar.size());
  int caught = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    RingModelConfig c = config(ptx, "ring", t, 128, t.bn, 41 * t.bk);
    c.seed = seed;
    INFO("seed " << seed);
    REQUIRE(run_ring_model(ptx, c).error == "");
    caught += run_ring_model(broken, c).error != "";
  }
  CHECK(caught > 0);
}

TEST_CASE("ring model: a persistent grid runs one ring over its tiles", "[ring_model]") {
  // ring_grid (two or more consumers): min(tiles, SMs) CTAs, here 3, loop over the logical CTAs;
  // the ring is set up once and its counters run on, C is staged apart from the stages, and the
  // previous tile's TMA store may still read its buffer until the next tile's staging.
  for (const Tiles& t : {kTiles[9], kTiles[8], kTiles[16]}) {
    std::string ptx = compile_ring(t);
    std::string entry = entry_text(ptx, "ring_grid_wgmma");
    REQUIRE(count(entry, "%nctaid.x") == 2);  // the producer's and the consumers' tile loops
    REQUIRE(count(entry, "cp.async.bulk.tensor.2d.global.shared::cta") >= 1);
    int64_t BM = 64 * t.consumers;
    INFO("BM " << BM << " BN " << t.bn << " BK " << t.bk);
    for (int64_t tiles : {1, 2, 5, 7})
      for (uint32_t cta = 0; cta < 3; ++cta)
        for (int64_t n : {int64_t(0), int64_t(1), int64_t(3), int64_t(9)}) {
          RingModelConfig c = config(ptx, "ring_grid", t, BM * tiles, t.bn, n * t.bk);
          c.ctaid = cta;
          c.nctaid = uint32_t(std::min<int64_t>(tiles, 3));
          if (cta >= c.nctaid) continue;
          c.seed = 1 + cta + uint64_t(tiles);
          RingModelResult r = run_ring_model(ptx, c);
          INFO(describe(c, t, n) << ", " << tiles << " tiles");
          REQUIRE(r.error == "");
          int64_t mine = (tiles - cta + c.nctaid - 1) / c.nctaid;
          CHECK(r.fills == std::vector<int64_t>{mine * n});
        }
  }
  // A broken parity, arrive count or wait depth fails here too.
  const Tiles& t = kTiles[9];
  std::string ptx = compile_ring(t);
  for (const auto& [what, text] : mutants(ptx, "ring_grid_wgmma"))
    for (uint64_t seed : {1u, 2u}) {
      RingModelConfig c = config(ptx, "ring_grid", t, 128 * 5, t.bn, 7 * t.bk);
      c.nctaid = 2;
      c.seed = seed;
      INFO(what << ", seed " << seed);
      CHECK(run_ring_model(text, c).error != "");
    }
}

TEST_CASE("ring model: ping-pong consumers take alternate tiles of one ring", "[ring_model]") {
  // ring_pp (pingpong=True): two consumer warpgroups, each with a whole BM x BN tile, take the
  // CTA's tiles 0, 2, ... and 1, 3, ...; the producer fills the ring for every tile in order and
  // each consumer skips the other's fills (as many as its own tile's trips), passing the tensor
  // cores back and forth through named barriers 4 and 5. Tiles of 128 rows (two m64 wgmma per k
  // step) and of 64; 2, 3, 4 and 5 stages; CTAs with no tile, one tile, an odd number.
  for (const Tiles& t : {kTiles[12], kTiles[8], kTiles[1], Tiles{1, 4, 256, 64}}) {
    std::string ptx = compile_ring(t);
    std::string entry = entry_text(ptx, "ring_pp_wgmma");
    INFO("BM " << 64 * t.consumers << " BN " << t.bn << " BK " << t.bk);
    REQUIRE(count(entry, ".maxntid 384, 1, 1") == 1);  // a producer and two consumers
    REQUIRE(count(entry, "bar.arrive") == 1);
    REQUIRE(count(entry, "mbarrier.init.shared::cta.b64") >= 4);
    int64_t BM = 64 * t.consumers;
    for (int64_t tiles : {1, 2, 5, 7})
      for (uint32_t cta = 0; cta < 3; ++cta)
        for (int64_t n : {int64_t(0), int64_t(1), int64_t(3), int64_t(9)}) {
          RingModelConfig c = config(ptx, "ring_pp", t, BM * tiles, t.bn, n * t.bk);
          c.ctaid = cta;
          c.nctaid = uint32_t(std::min<int64_t>(tiles, 3));
          c.pingpong = true;
          if (cta >= c.nctaid) continue;
          c.seed = 1 + cta + uint64_t(tiles);
          RingModelResult r = run_ring_model(ptx, c);
          INFO(describe(c, t, n) << ", " << tiles << " tiles");
          REQUIRE(r.error == "");
          int64_t mine = (tiles - cta + c.nctaid - 1) / c.nctaid;
          CHECK(r.fills == std::vector<int64_t>{mine * n});
          // Consumer 0 (warpgroup 1) read the fills of the CTA's tiles 0, 2, ..., consumer 1
          // (warpgroup 2) those of tiles 1, 3, ..., in order.
          std::vector<std::vector<int64_t>> want(2);
          for (int64_t i = 0; i < mine; ++i)
            for (int64_t f = 0; f < n; ++f) want[size_t(i % 2)].push_back(i * n + f);
          std::vector<int> readers;
          std::vector<std::vector<int64_t>> got;
          for (size_t w = 0; w < 2; ++w)
            if (!want[w].empty()) {
              readers.push_back(int(w) + 1);
              got.push_back(want[w]);
            }
          CHECK(r.consumers == readers);
          CHECK(r.reads == got);
        }
  }
  // A broken parity, arrive count or wait depth fails, and so does a consumer that does not
  // skip the other's fills.
  const Tiles& t = kTiles[12];
  std::string ptx = compile_ring(t);
  std::vector<std::pair<std::string, std::string>> ms = mutants(ptx, "ring_pp_wgmma");
  size_t begin = ptx.find(".entry ring_pp_wgmma(");
  size_t sel = ptx.find("selp.b32", begin);
  REQUIRE(sel != std::string::npos);
  size_t comma = ptx.find(", ", ptx.find(", ", sel) + 2);  // selp d, trips, 0, skip: trips -> 0
  std::string no_skip = ptx;
  no_skip.replace(ptx.find(", ", sel) + 2, comma - ptx.find(", ", sel) - 2, "0");
  ms.emplace_back("no skip of the other consumer's fills", no_skip);
  for (const auto& [what, text] : ms)
    for (uint64_t seed : {1u, 2u}) {
      RingModelConfig c = config(ptx, "ring_pp", t, 128 * 5, t.bn, 7 * t.bk);
      c.nctaid = 2;
      c.pingpong = true;
      c.seed = seed;
      INFO(what << ", seed " << seed);
      CHECK(run_ring_model(text, c).error != "");
    }
}
