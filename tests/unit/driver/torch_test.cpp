// --emit=torch's options: the kind, the namespace, and --dispatch's value lists.
#include <catch2/catch.hpp>

#include "driver/options.h"
#include "driver/torch.h"

using namespace tilec;

TEST_CASE("--emit=torch, --torch-namespace and repeated --dispatch", "[torch]") {
  std::vector<const char*> argv{"tilec", "k.tile", "--emit=torch", "--torch-namespace", "my_ops", "--dispatch",
                                "T=f16,bf16", "--dispatch=BLOCK=(64, 32),(128, 64)", "-o", "k_ops.cpp"};
  Options o;
  REQUIRE(parse_command_line(int(argv.size()), argv.data(), o) == -1);
  CHECK(o.emit == EmitKind::Torch);
  CHECK(o.torch_namespace == "my_ops");
  CHECK(o.dispatch == std::vector<std::string>{"T=f16,bf16", "BLOCK=(64, 32),(128, 64)"});
}

TEST_CASE("--dispatch values split at commas outside parentheses", "[torch]") {
  std::string name;
  CHECK(dispatch_values("T=f16, bf16 ,f32", name) == std::vector<std::string>{"f16", "bf16", "f32"});
  CHECK(name == "T");
  CHECK(dispatch_values("BLOCK=(64, 32),(128, 64)", name) == std::vector<std::string>{"(64, 32)", "(128, 64)"});
  CHECK(name == "BLOCK");
  CHECK(dispatch_values("T", name).empty());
  CHECK(dispatch_values("=f16", name).empty());
  CHECK(dispatch_values("T=f16,,f32", name).empty());
  CHECK(dispatch_values("T=", name).empty());
}
