// The @kernel option table (basic/kernel_options.h): its rules as the errors say them, the
// `kernel` decorator's keywords, and language.md's table of options against it.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "basic/kernel_options.h"
#include "frontend/builtins.h"

using namespace tilec;

TEST_CASE("the rules read as the errors say them", "[kernel_options]") {
  CHECK(OptionRule::powers(1, 32).text() == "one of 1, 2, 4, 8, 16, 32");
  CHECK(OptionRule::range(24, 255).text() == "between 24 and 255");
  CHECK(by_target_option_list() == "num_warps=, num_stages=, max_registers= and min_ctas_per_sm=");
}

TEST_CASE("the kernel decorator takes grid=, the table's options in its order, then configs=", "[kernel_options]") {
  const BuiltinSig& kernel = *find_builtin("kernel");
  REQUIRE(kernel.params.size() == 1 + kernel_options().size() + 1);
  CHECK(kernel.params[0].name == "grid");
  for (size_t i = 0; i < kernel_options().size(); ++i) {
    CHECK(kernel.params[i + 1].name == kernel_options()[i].name);
    CHECK(kernel.params[i + 1].keyword_only);
  }
  CHECK(kernel.params.back().name == "configs");
  CHECK(kernel.params.back().keyword_only);
}

TEST_CASE("an option not given leaves the choice to the compiler", "[kernel_options]") {
  KernelOptions o;
  for (const KernelOptionInfo& info : kernel_options())
    CHECK(o.*info.field == (info.type == OptionType::Flag ? -1 : 0));
}

TEST_CASE("language.md's table of options lists the table's, in order, with by_target where it may",
          "[kernel_options]") {
  std::ifstream in(TILEC_SOURCE_DIR "/docs/language.md");
  REQUIRE(in);
  // | `num_warps=` | constant 1, 2, 4, 8, 16 or 32, or `by_target(...)` (below) | ...
  std::regex row(R"(^\| `([a-z_]+)=` \| ([^|]*) \|)");
  std::vector<std::pair<std::string, std::string>> rows;  // name, value
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, row) && m[1] != "grid") rows.emplace_back(m[1], m[2]);
  REQUIRE(rows.size() == kernel_options().size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const KernelOptionInfo& o = kernel_options()[i];
    INFO(rows[i].first << ": " << rows[i].second);
    CHECK(rows[i].first == o.name);
    CHECK((rows[i].second.find("by_target") != std::string::npos) == o.by_target);
  }
}
