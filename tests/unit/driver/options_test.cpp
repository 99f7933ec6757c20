// Command-line parsing: single-dash nvcc/gcc spellings, exit codes, output kinds.
#include <catch2/catch.hpp>

#include "driver/options.h"

using namespace tilec;

namespace {
int parse(std::vector<std::string> args, Options& o) {
  std::vector<const char*> argv{"tilec"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  return parse_command_line(int(argv.size()), argv.data(), o);
}
}  // namespace

TEST_CASE("single-dash long options are translated", "[options]") {
  CHECK(translate_single_dash({"-arch", "sm_90", "-arch=sm_80", "-MD", "-MF", "x.d", "-o", "y", "-O2", "--", "-MD"}) ==
        std::vector<std::string>{"--arch", "sm_90", "--arch=sm_80", "--MD", "--MF", "x.d", "-o", "y", "-O2", "--", "-MD"});
  Options o;
  CHECK(parse({"k.tile", "-arch", "sm_90a", "-arch=sm_80", "-MD", "-MF", "k.d", "-MT", "t", "-MP", "-Werror",
               "-DT=f16", "-D", "BM=64", "-I", "inc", "-O3", "-o", "k.h"}, o) == -1);
  CHECK(o.archs == std::vector<std::string>{"sm_90a", "sm_80"});
  CHECK(o.md);
  CHECK(o.mf == "k.d");
  CHECK(o.mt == "t");
  CHECK(o.mp);
  CHECK(o.warnings.is_error(Warning::UnusedValue));
  CHECK(o.defines == std::vector<std::string>{"T=f16", "BM=64"});
  CHECK(o.include_dirs == std::vector<std::string>{"inc"});
  CHECK(o.opt_level == 3);
  CHECK(o.output == "k.h");
}

TEST_CASE("usage errors exit with 2", "[options]") {
  Options o;
  CHECK(parse({"k.tile", "--emit=bogus"}, o) == 2);
  Options p;
  CHECK(parse({}, p) == 2);
  Options q;
  CHECK(parse({"k.tile", "-O7"}, q) == 2);
  Options r;
  CHECK(parse({"k.tile", "--no-such-flag"}, r) == 2);
  Options s;
  CHECK(parse({"k.tile", "-arch", "sm_75"}, s) == 2);
  Options t;
  CHECK(parse({"k.tile", "-D", "N"}, t) == 2);
  Options u;
  CHECK(parse({"k.tile", "--prefix", "9a_"}, u) == 2);
  Options v;
  CHECK(parse({"k.tile", "-arch", "sm_90a", "-D", "N=4", "--prefix", "my_"}, v) == -1);
}

TEST_CASE("-arch values become targets: sm_90 builds sm_90a and sm_80, each target once", "[options]") {
  auto targets = [](std::vector<std::string> args) {
    Options o;
    args.insert(args.begin(), "k.tile");
    std::vector<std::string> out;
    if (parse(args, o) != -1) return std::vector<std::string>{"usage error"};
    for (const codegen::Target& t : o.targets) out.push_back(t.arch);
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(targets({}) == V{"sm_90a", "sm_80"});
  CHECK(targets({"-arch", "sm_90"}) == V{"sm_90a", "sm_80"});
  CHECK(targets({"-arch", "sm_90", "-arch", "sm_80"}) == V{"sm_90a", "sm_80"});
  CHECK(targets({"-arch", "sm_80", "-arch", "sm_90"}) == V{"sm_80", "sm_90a"});
  CHECK(targets({"-arch", "sm_90a", "-arch", "sm_90"}) == V{"sm_90a", "sm_80"});
  CHECK(targets({"-arch", "sm_90", "-arch", "sm_86"}) == V{"sm_90a", "sm_80", "sm_86"});
  CHECK(targets({"-arch", "sm_90a"}) == V{"sm_90a"});
  CHECK(targets({"-arch", "sm_89"}) == V{"sm_89"});
  // A value given twice is built once, like a target two values build (one rule for both).
  CHECK(targets({"-arch", "sm_90", "-arch", "sm_90"}) == V{"sm_90a", "sm_80"});
  CHECK(targets({"-arch", "sm_80", "-arch", "sm_80"}) == V{"sm_80"});
  CHECK(targets({"-arch", "sm_80", "-arch", "sm_90", "-arch", "sm_80"}) == V{"sm_80", "sm_90a"});
  Options o;
  CHECK(parse({"k.tile"}, o) == -1);
  CHECK(o.archs.empty());  // as given
  Options twice;
  CHECK(parse({"k.tile", "-arch", "sm_80", "-arch", "sm_86", "-arch", "sm_80"}, twice) == -1);
  CHECK(twice.archs == V{"sm_80", "sm_86"});  // each once: a cubin's "at most one -arch" counts these
}

TEST_CASE("options that mean nothing without another one are usage errors", "[options]") {
  auto code = [](std::vector<std::string> args) {
    Options o;
    args.insert(args.begin(), "k.tile");
    return parse(args, o);
  };
  CHECK(code({"--dispatch", "T=f16,f32"}) == 2);
  CHECK(code({"--dispatch", "T=f16,f32", "-o", "k_ops.cpp"}) == 2);  // the extension does not make torch
  CHECK(code({"--dispatch", "T=f16,f32", "--emit=torch"}) == -1);
  CHECK(code({"--torch-namespace", "ops"}) == 2);
  CHECK(code({"--torch-namespace", "ops", "--emit=torch"}) == -1);
  CHECK(code({"-MF", "k.d"}) == 2);
  CHECK(code({"-MT", "k"}) == 2);
  CHECK(code({"-MP"}) == 2);
  CHECK(code({"-MD", "-MF", "k.d", "-MT", "k", "-MP"}) == -1);
  CHECK(code({"--emit=none", "-MD"}) == 2);
  CHECK(code({"--emit=none"}) == -1);
  CHECK(code({"--emit=ptx", "-MD"}) == -1);
}

TEST_CASE("--no-device-asserts turns device asserts off", "[options]") {
  Options on, off;
  CHECK(parse({"k.tile"}, on) == -1);
  CHECK(on.device_asserts);
  CHECK(parse({"k.tile", "--no-device-asserts"}, off) == -1);
  CHECK_FALSE(off.device_asserts);
}

TEST_CASE("emit kinds parse", "[options]") {
  Options o;
  CHECK(parse({"k.tile", "--emit=tir-opt"}, o) == -1);
  CHECK(o.emit == EmitKind::TirOpt);
  CHECK(o.emit_given);
}

TEST_CASE("warning flags are taken out before CLI11, in order, up to --", "[options]") {
  std::vector<std::string> args{"k.tile", "-Wno-unused-value", "-o", "k.h", "--Werror=spills", "-Werror", "--", "-Wx"};
  std::vector<std::string> flags;
  take_warning_flags(args, flags);
  CHECK(flags == std::vector<std::string>{"-Wno-unused-value", "--Werror=spills", "-Werror"});
  CHECK(args == std::vector<std::string>{"k.tile", "-o", "k.h", "--", "-Wx"});

  Options o;
  CHECK(parse({"k.tile", "-Wno-unused-value", "-Werror=spills", "-Wshadow-builtin"}, o) == -1);
  CHECK_FALSE(o.warnings.enabled(Warning::UnusedValue));
  CHECK(o.warnings.is_error(Warning::Spills));
  CHECK_FALSE(o.warnings.is_error(Warning::ShadowBuiltin));
  Options p;
  CHECK(parse({"k.tile", "-Wno-such-warning"}, p) == 2);
  Options q;
  CHECK(parse({"k.tile", "-Werror=", "-o", "k.h"}, q) == 2);
}

TEST_CASE("--fmad takes true or false", "[options]") {
  Options o;
  CHECK(parse({"k.tile"}, o) == -1);
  CHECK(o.fmad);
  Options p;
  CHECK(parse({"k.tile", "--fmad=false"}, p) == -1);
  CHECK_FALSE(p.fmad);
  Options q;
  CHECK(parse({"k.tile", "--fmad=maybe"}, q) == 2);
}
