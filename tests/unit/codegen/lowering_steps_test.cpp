// The lowering steps' registry (codegen/lowering/lowering_steps.h): every step a code path runs is in
// the table, once per path, and every step of the table runs on some path.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "codegen/lowering/lowering_steps.h"

using namespace tilec::codegen;

TEST_CASE("lowering steps: each path's steps are in the table, and each step runs", "[lowering]") {
  std::set<std::string> table, used;
  for (const LoweringStep& s : all_lowering_steps()) {
    CHECK(table.insert(s.name).second);  // names are unique
    CHECK(std::string(s.summary).size() > 0);
    CHECK(s.run != nullptr);
  }
  for (const CodePathInfo& p : code_paths()) {
    std::set<std::string> seen;
    for (const std::string& name : p.steps) {
      INFO(p.name << ": " << name);
      CHECK(table.count(name));
      CHECK(seen.insert(name).second);
      used.insert(name);
    }
  }
  CHECK(used == table);
}

TEST_CASE("lowering steps: layouts come after pipelines, stages after layouts", "[lowering]") {
  // The pipelines are planned before layouts (async loads need no conversion) and placed
  // after them (the conversion buffer's size is known then).
  for (const CodePathInfo& p : code_paths()) {
    std::vector<std::string> steps = p.steps;
    auto at = [&](const std::string& n) { return std::find(steps.begin(), steps.end(), n) - steps.begin(); };
    std::string stages = p.id == CodePath::Portable ? "stages" : "tma-stages";
    CHECK(at("mma-shapes") < at("pipelines"));
    CHECK(at("warps") < at("layouts"));
    CHECK(at("pipelines") < at("layouts"));
    CHECK(at("layouts") < at(stages));
  }
}
