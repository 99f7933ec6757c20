// Atomic output files and Make depfiles.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "driver/output.h"

using namespace tilec;

TEST_CASE("depfiles escape spaces, # and $", "[output]") {
  CHECK(make_depfile("out.h", {"a b.tile", "c#d.tile", "e$f.tile"}, false) ==
        "out.h: \\\n  a\\ b.tile \\\n  c\\#d.tile \\\n  e$$f.tile\n");
  CHECK(make_depfile("o", {"x.tile"}, true) == "o: \\\n  x.tile\n");  // no rule for the main file
  CHECK(make_depfile("o", {"x.tile", "a b.tile", "c.tile"}, true) ==
        "o: \\\n  x.tile \\\n  a\\ b.tile \\\n  c.tile\n\na\\ b.tile:\n\nc.tile:\n");
}

TEST_CASE("atomic writes leave either the whole file or nothing", "[output]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "tilec_output_test";
  fs::create_directories(dir);
  std::string err;
  CHECK(write_file_atomic((dir / "ok.txt").string(), "hello", err));
  std::ifstream in(dir / "ok.txt");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  CHECK(text == "hello");
  CHECK_FALSE(write_file_atomic((dir / "missing-dir" / "x.txt").string(), "data", err));
  CHECK(err == "the folder '" + (dir / "missing-dir").string() + "' does not exist");
  size_t leftovers = 0;
  for (auto& e : fs::directory_iterator(dir)) leftovers += e.path().filename().string().find(".tmp.") != std::string::npos;
  CHECK(leftovers == 0);
  fs::remove_all(dir);
}

TEST_CASE("several files are written together or not at all", "[output]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "tilec_output_test_many";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "out.h.d") << "old deps";
  std::string failed, err;
  // The second file cannot be written: the first (an existing depfile) keeps its old bytes.
  CHECK_FALSE(write_files_atomic({{(dir / "out.h.d").string(), "new deps"}, {(dir / "no" / "out.h").string(), "x"}},
                                 failed, err));
  CHECK(failed == (dir / "no" / "out.h").string());
  std::ifstream in(dir / "out.h.d");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  CHECK(text == "old deps");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
  CHECK(write_files_atomic({{(dir / "out.h.d").string(), "new deps"}, {(dir / "out.h").string(), "header"}}, failed,
                           err));
  CHECK(fs::file_size(dir / "out.h") == 6);
  fs::remove_all(dir);
}

TEST_CASE("-Woutput-extension: the -o extension against the output kind", "[output]") {
  CHECK(output_extension_problem("k.h", EmitKind::Ptx, true) ==
        "writing --emit=ptx output to 'k.h', whose extension .h is that of a header");
  CHECK(output_extension_problem("dir.v2/k", EmitKind::Header, false) ==
        "'dir.v2/k' has no extension (.h, .ptx, .cubin, .fatbin, .tir): writing a header; name it .h, or say what "
        "to write with --emit");
  CHECK(output_extension_problem(".hidden", EmitKind::Header, false).find("has no extension") != std::string::npos);
  CHECK(output_extension_problem("k.ptx", EmitKind::Ptx, false).empty());
  CHECK(output_extension_problem("k.tir", EmitKind::TirLowered, true).empty());
  CHECK(output_extension_problem("k.s", EmitKind::Ptx, true).empty());
  CHECK(output_extension_problem("k.hpp", EmitKind::Header, false).empty());
  CHECK(output_extension_problem("-", EmitKind::Header, false).empty());
  CHECK(output_extension_problem("/dev/null", EmitKind::Header, false).empty());
  CHECK(output_extension_problem("k.txt", EmitKind::None, true).empty());
}
