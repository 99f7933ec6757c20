// The tuning table's text form (codegen/header/tuning_table.h): parsing, every error at its
// line:column, the writer's round trip, and the check against a kernel.
#include <catch2/catch.hpp>

#include "codegen/header/tuning_table.h"

using namespace tilec;

namespace {

// A table tilec-tune could have written for matmul_bt, with two GPUs.
const char* const kTable =
    "# made by tilec-tune\n"
    "tilec-tuning 1\n"
    "kernel matmul_bt\n"
    "space 3f2a9c0d11e4b7a2\n"
    "symbols M K N\n"
    "config 0 \"BM=128, BN=256\"          # the default\n"
    "config 1 \"BM=128, BN=128, num_stages=4\"\n"
    "config 2 \"say \\\"hi\\\" \\\\ there\"\n"
    "\n"
    "gpu \"NVIDIA H100 80GB HBM3\" cc 9.0 sms 132\n"
    "4096 4096 4096 0   # 0 1.00, 1 1.07\n"
    "128 4096 4096 1\n"
    "gpu \"NVIDIA H200\" cc 9.0 sms 132  # not measured\n"
    "\t1 0 0 2\r\n";

// Parses `text` as the file t.tuning; fills `out` with each diagnostic as
// "LINE:COL: severity: message" (notes after their diagnostic), "file: ..." for the whole file.
std::optional<TuningTable> parse(const std::string& text, std::vector<std::string>& out) {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  std::optional<TuningTable> t = parse_tuning_table(sm.add("t.tuning", text), diag);
  auto line = [](const Diagnostic& d, const char* sev) {
    std::string at = d.range.is_whole_file() ? "file"
                                              : std::to_string(d.range.begin.line) + ":" + std::to_string(d.range.begin.col);
    return at + ": " + sev + ": " + d.message;
  };
  for (const Diagnostic& d : diag.diagnostics()) {
    out.push_back(line(d, d.severity == Severity::Error ? "error" : "warning"));
    for (const Diagnostic& n : d.notes) out.push_back(line(n, "note"));
  }
  CHECK(t.has_value() == !diag.has_errors());
  return t;
}

// The diagnostics of a table that is kTable's header lines followed by `body`.
std::vector<std::string> errors_of(const std::string& body, bool with_header = true) {
  std::string head =
      "tilec-tuning 1\n"                     // line 1
      "kernel matmul_bt\n"                   // 2
      "space 3f2a9c0d11e4b7a2\n"             // 3
      "symbols M K N\n"                      // 4
      "config 0 \"BM=128, BN=256\"\n"        // 5
      "config 1 \"BM=64, BN=128\"\n";        // 6
  std::vector<std::string> out;
  parse((with_header ? head : "") + body, out);
  return out;
}

// The diagnostics of check_tuning_table on kTable for kernel `kernel` with `space`, symbols
// M K N, `num_configs` configurations, every one valid but `invalid`.
std::vector<std::string> check_errors(const std::string& kernel, const std::string& space, int num_configs,
                                      int invalid = -1, std::vector<std::string> symbols = {"M", "K", "N"}) {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  std::optional<TuningTable> t = parse_tuning_table(sm.add("t.tuning", kTable), diag);
  REQUIRE(t);
  bool ok = check_tuning_table(*t, kernel, space, symbols, num_configs, [&](int i) { return i != invalid; }, diag);
  std::vector<std::string> out;
  for (const Diagnostic& d : diag.diagnostics())
    out.push_back(std::to_string(d.range.begin.line) + ":" + std::to_string(d.range.begin.col) + ": " + d.message);
  CHECK(ok == out.empty());
  return out;
}

}  // namespace

TEST_CASE("a tuning table parses into its kernel, space, symbols, configurations and sections", "[tuning]") {
  std::vector<std::string> diags;
  std::optional<TuningTable> t = parse(kTable, diags);
  REQUIRE(t);
  CHECK(diags.empty());
  CHECK(t->kernel == "matmul_bt");
  CHECK(t->space == "3f2a9c0d11e4b7a2");
  CHECK(t->symbols == std::vector<std::string>{"M", "K", "N"});
  REQUIRE(t->configs.size() == 3);
  CHECK(t->configs[1].index == 1);
  CHECK(t->configs[1].label == "BM=128, BN=128, num_stages=4");
  CHECK(t->configs[2].label == "say \"hi\" \\ there");
  CHECK(t->configs[2].index_range.begin.line == 8);
  CHECK(t->configs[2].index_range.begin.col == 8);
  REQUIRE(t->sections.size() == 2);
  const TuningSection& h100 = t->sections[0];
  CHECK(h100.gpu == "NVIDIA H100 80GB HBM3");
  CHECK(h100.cc == 90);
  CHECK(h100.sms == 132);
  REQUIRE(h100.rows.size() == 2);
  CHECK(h100.rows[0].extents == std::vector<int64_t>{4096, 4096, 4096});
  CHECK(h100.rows[0].config == 0);
  CHECK(h100.rows[0].comment == "0 1.00, 1 1.07");
  CHECK(h100.rows[1].extents == std::vector<int64_t>{128, 4096, 4096});
  CHECK(h100.rows[1].config == 1);
  CHECK(h100.rows[1].config_range.begin.line == 12);
  CHECK(h100.rows[1].config_range.begin.col == 15);
  CHECK(t->sections[1].comment == "not measured");
  REQUIRE(t->sections[1].rows.size() == 1);
  CHECK(t->sections[1].rows[0].extents == std::vector<int64_t>{1, 0, 0});  // a tab and a CRLF line end
  CHECK(t->sections[1].rows[0].config == 2);
}

TEST_CASE("the writer's text is canonical and parses back to the same table", "[tuning]") {
  std::vector<std::string> diags;
  std::optional<TuningTable> t = parse(kTable, diags);
  REQUIRE(t);
  std::string text = write_tuning_table(*t);
  CHECK(text ==
        "tilec-tuning 1\n"
        "kernel matmul_bt\n"
        "space 3f2a9c0d11e4b7a2\n"
        "symbols M K N\n"
        "config 0 \"BM=128, BN=256\"  # the default\n"
        "config 1 \"BM=128, BN=128, num_stages=4\"\n"
        "config 2 \"say \\\"hi\\\" \\\\ there\"\n"
        "\n"
        "gpu \"NVIDIA H100 80GB HBM3\" cc 9.0 sms 132\n"
        "4096 4096 4096 0  # 0 1.00, 1 1.07\n"
        "128 4096 4096 1\n"
        "\n"
        "gpu \"NVIDIA H200\" cc 9.0 sms 132  # not measured\n"
        "1 0 0 2\n");
  std::optional<TuningTable> back = parse(text, diags);
  REQUIRE(back);
  CHECK(diags.empty());
  CHECK(write_tuning_table(*back) == text);
  CHECK(back->configs[2].label == t->configs[2].label);
  CHECK(back->sections[1].rows[0].extents == t->sections[1].rows[0].extents);
}

TEST_CASE("the writer puts config lines in index order and writes a kernel without symbols", "[tuning]") {
  TuningTable t;
  t.kernel = "scale";
  t.space = "0123456789abcdef";
  t.configs = {{2, "B=2", "", {}, {}}, {0, "", "", {}, {}}};
  t.sections.push_back({"NVIDIA A100-SXM4-80GB", 80, 108, {{{}, 2, "", {}, {}}}, "", {}});
  std::string text = write_tuning_table(t);
  CHECK(text ==
        "tilec-tuning 1\nkernel scale\nspace 0123456789abcdef\nsymbols\nconfig 0 \"\"\nconfig 2 \"B=2\"\n\n"
        "gpu \"NVIDIA A100-SXM4-80GB\" cc 8.0 sms 108\n2\n");
  std::vector<std::string> diags;
  std::optional<TuningTable> back = parse(text, diags);
  REQUIRE(back);
  CHECK(back->symbols.empty());
  CHECK(back->sections[0].rows[0].extents.empty());
  CHECK(back->sections[0].rows[0].config == 2);
}

TEST_CASE("the first line must name the format and its version", "[tuning]") {
  CHECK(errors_of("", false) == std::vector<std::string>{
                                    "file: error: the file has no 'tilec-tuning 1' line: it is not a tuning table"});
  CHECK(errors_of("# only a comment\n\n", false).size() == 1);
  CHECK(errors_of("\n  kernel matmul_bt\nspace x\n", false) ==
        std::vector<std::string>{
            "2:3: error: expected 'tilec-tuning 1': the first line of a tuning table names its format"});
  CHECK(errors_of("tilec-tuning 2\nkernel k\n", false) ==
        std::vector<std::string>{"1:14: error: tuning table version 2 is not supported (this tilec reads version 1)"});
  CHECK(errors_of("tilec-tuning one\n", false) ==
        std::vector<std::string>{"1:14: error: expected a version, found 'one'"});
  CHECK(errors_of("tilec-tuning\n", false) == std::vector<std::string>{"1:1: error: expected 'tilec-tuning 1'"});
}

TEST_CASE("kernel, space and symbols are given once each, before the first gpu line", "[tuning]") {
  CHECK(errors_of("", false).size() == 1);
  CHECK(errors_of("tilec-tuning 1\n", false) ==
        std::vector<std::string>{"file: error: the table has no 'kernel' line", "file: error: the table has no 'space' line",
                                 "file: error: the table has no 'symbols' line"});
  CHECK(errors_of("kernel other\n") ==
        std::vector<std::string>{"7:1: error: a second 'kernel' line", "2:1: note: the first is here"});
  CHECK(errors_of("symbols M N\n") ==
        std::vector<std::string>{"7:1: error: a second 'symbols' line", "4:1: note: the first is here"});
  CHECK(errors_of("gpu \"G\" cc 9.0 sms 1\nspace 0000000000000000\n") ==
        std::vector<std::string>{"8:1: error: 'space' must come before the first 'gpu' line"});
  CHECK(errors_of("gpu \"G\" cc 9.0 sms 1\nconfig 2 \"x\"\n") ==
        std::vector<std::string>{"8:1: error: 'config' must come before the first 'gpu' line"});
  CHECK(errors_of("kernel a b\n", false)[0] == "1:1: error: expected 'tilec-tuning 1': the first line of a tuning "
                                               "table names its format");
  CHECK(errors_of("tilec-tuning 1\nkernel a b\nspace 0000000000000000\nsymbols\n", false) ==
        std::vector<std::string>{"2:1: error: expected 'kernel NAME'"});
  CHECK(errors_of("tilec-tuning 1\nkernel 9a\nspace 0000000000000000\nsymbols\n", false) ==
        std::vector<std::string>{"2:8: error: '9a' is not a kernel name"});
  CHECK(errors_of("tilec-tuning 1\nkernel k\nspace 3F2A9C0D11E4B7A2\nsymbols\n", false) ==
        std::vector<std::string>{
            "3:7: error: a configuration space is 16 lower-case hexadecimal digits, as tilec-tune writes it"});
  CHECK(errors_of("tilec-tuning 1\nkernel k\nspace \"3f2a9c0d11e4b7a2\"\nsymbols M \"K\" 2 M\n", false) ==
        std::vector<std::string>{"3:1: error: expected 'space HASH'", "4:11: error: 'K' is not a dimension symbol",
                                 "4:15: error: '2' is not a dimension symbol",
                                 "4:17: error: symbol 'M' is listed twice", "4:9: note: first listed here"});
}

TEST_CASE("an unknown directive is named at its column", "[tuning]") {
  CHECK(errors_of("  shape 4096\n") ==
        std::vector<std::string>{"7:3: error: unknown directive 'shape' (a line is kernel, space, symbols, config, gpu "
                                 "or a row of integers)"});
  CHECK(errors_of("\"gpu\" 1\n") ==
        std::vector<std::string>{"7:1: error: unknown directive '\"gpu\"' (a line is kernel, space, symbols, config, "
                                 "gpu or a row of integers)"});
  CHECK(errors_of("\"\"\n").size() == 1);
}

TEST_CASE("config lines take an index and a label, each index once", "[tuning]") {
  CHECK(errors_of("config 1 \"again\"\n") ==
        std::vector<std::string>{"7:8: error: a second 'config 1' line", "6:1: note: the first is here"});
  CHECK(errors_of("config 2 BM=1\n") == std::vector<std::string>{"7:1: error: expected 'config INDEX \"LABEL\"'"});
  CHECK(errors_of("config -1 \"x\"\n") ==
        std::vector<std::string>{"7:8: error: -1 is out of range for a configuration index (0 to 2147483647)"});
  CHECK(errors_of("config 2 \"unterminated\n") == std::vector<std::string>{"7:10: error: unterminated string"});
  CHECK(errors_of("config 2 \"a\\nb\"\n") ==
        std::vector<std::string>{"7:12: error: unknown escape in a string (only \\\" and \\\\ are escapes)"});
}

TEST_CASE("gpu lines name the GPU, its compute capability and SM count, each GPU once", "[tuning]") {
  CHECK(errors_of("gpu \"G\" cc 9.0 sms 132\ngpu \"G\" cc 9.0 sms 114\n") ==
        std::vector<std::string>{"8:5: error: a second section for GPU \"G\"", "7:1: note: the first is here"});
  CHECK(errors_of("gpu G cc 9.0 sms 132\n") ==
        std::vector<std::string>{"7:1: error: expected 'gpu \"NAME\" cc MAJOR.MINOR sms COUNT'"});
  CHECK(errors_of("gpu \"G\" arch 9.0 sms 132\n") ==
        std::vector<std::string>{"7:9: error: expected 'gpu \"NAME\" cc MAJOR.MINOR sms COUNT'"});
  CHECK(errors_of("gpu \"G\" cc 9.0 SMs 132\n") ==
        std::vector<std::string>{"7:16: error: expected 'gpu \"NAME\" cc MAJOR.MINOR sms COUNT'"});
  CHECK(errors_of("gpu \"G\" cc 90 sms 132\n") ==
        std::vector<std::string>{"7:12: error: expected a compute capability MAJOR.MINOR (9.0), found '90'"});
  CHECK(errors_of("gpu \"G\" cc 9.10 sms 132\n").size() == 1);
  CHECK(errors_of("gpu \"G\" cc 9.0 sms 0\n") ==
        std::vector<std::string>{"7:20: error: 0 is out of range for a multiprocessor count (1 to 65535)"});
  std::vector<std::string> diags;
  std::optional<TuningTable> t = parse(std::string(kTable) + "gpu \"B\" cc 12.1 sms 188\n", diags);
  REQUIRE(t);
  CHECK(t->sections.back().cc == 121);
}

TEST_CASE("rows come after a gpu line, with one extent per symbol and a listed configuration", "[tuning]") {
  CHECK(errors_of("4096 4096 4096 0\n") ==
        std::vector<std::string>{"7:1: error: a row before any 'gpu' line: rows belong to the section of a GPU"});
  const std::string gpu = "gpu \"G\" cc 9.0 sms 132\n";  // line 7
  CHECK(errors_of(gpu + "4096 4096 0\n") ==
        std::vector<std::string>{"8:1: error: a row has 4 integers (the extents of M K N then a configuration index), "
                                 "found 3"});
  CHECK(errors_of(gpu + "  1 2 3 4 5\n")[0].substr(0, 30) == "8:3: error: a row has 4 intege");
  CHECK(errors_of(gpu + "1 2 3 7\n") ==
        std::vector<std::string>{"8:7: error: configuration 7 has no 'config' line in this table"});
  CHECK(errors_of(gpu + "1 -2 3 0\n") ==
        std::vector<std::string>{"8:3: error: -2 is out of range for an extent (at least 0)"});
  CHECK(errors_of(gpu + "1 2 x3 0\n") == std::vector<std::string>{"8:5: error: expected an extent, found 'x3'"});
  CHECK(errors_of(gpu + "1 2 99999999999999999999 0\n") ==
        std::vector<std::string>{"8:5: error: 99999999999999999999 is out of range for an extent (at least 0)"});
  CHECK(errors_of(gpu + "1 2 3 \"0\"\n") ==
        std::vector<std::string>{"8:7: error: expected a configuration index, found '0'"});
  CHECK(errors_of(gpu + "1 2 3 0\n8 8 8 1\n1 2 3 1  # again\n") ==
        std::vector<std::string>{"10:1: error: a second row for these extents in this GPU's section",
                                 "8:1: note: the first is here"});
  // The same extents in another GPU's section are another measurement, not a duplicate.
  CHECK(errors_of(gpu + "1 2 3 0\ngpu \"H\" cc 9.0 sms 132\n1 2 3 1\n").empty());
}

TEST_CASE("a table checks against the kernel it is given to", "[tuning]") {
  CHECK(check_errors("matmul_bt", "3f2a9c0d11e4b7a2", 3).empty());
  CHECK(check_errors("matmul", "3f2a9c0d11e4b7a2", 3) ==
        std::vector<std::string>{"3:1: this table was made for kernel 'matmul_bt', not 'matmul'"});
  CHECK(check_errors("matmul_bt", "00000000000000ff", 3) ==
        std::vector<std::string>{"4:7: this table was made for another configuration space ('matmul_bt' has space "
                                 "00000000000000ff): the kernel's signature or its configurations changed since it "
                                 "was tuned; tune it again"});
  CHECK(check_errors("matmul_bt", "3f2a9c0d11e4b7a2", 3, -1, {"M", "N", "K"}) ==
        std::vector<std::string>{
            "5:1: the table's symbols (M K N) are not the dimension symbols of 'matmul_bt' (M N K)"});
  CHECK(check_errors("matmul_bt", "3f2a9c0d11e4b7a2", 2) ==
        std::vector<std::string>{"8:8: configuration 2 is not in the space of 'matmul_bt', which has 2 configurations"});
  CHECK(check_errors("matmul_bt", "3f2a9c0d11e4b7a2", 1)[0] ==
        "7:8: configuration 1 is not in the space of 'matmul_bt', which has 1 configuration");
  CHECK(check_errors("matmul_bt", "3f2a9c0d11e4b7a2", 3, 1) ==
        std::vector<std::string>{
            "12:15: configuration 1 of 'matmul_bt' is not in this build (it failed to build or -D left it out)"});
}

TEST_CASE("a table for a kernel the file lacks is reported at its kernel line", "[tuning]") {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  std::optional<TuningTable> t = parse_tuning_table(sm.add("t.tuning", kTable), diag);
  REQUIRE(t);
  report_table_kernel_missing(*t, {"matmul", "matmul_f8"}, diag);
  REQUIRE(diag.diagnostics().size() == 1);
  CHECK(diag.format(diag.diagnostics()[0]) ==
        "t.tuning:3:1: error: this table is for kernel 'matmul_bt', which the file does not have (its kernels: "
        "matmul matmul_f8)\n"
        "kernel matmul_bt\n"
        "^~~~~~~~~~~~~~~~\n");
}

TEST_CASE("a file that cannot be read is an error without a place", "[tuning]") {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  CHECK_FALSE(load_tuning_table("/nonexistent/t.tuning", sm, diag));
  REQUIRE(diag.diagnostics().size() == 1);
  CHECK(diag.diagnostics()[0].message == "cannot read tuning table '/nonexistent/t.tuning': No such file or directory");
}

TEST_CASE("tables tilec-tune wrote are in the writer's canonical form", "[tuning]") {
  // The goldens of the tilec-tune tests (tests/lit/tools/tune_fake_gpu.test): tilec reads
  // what the tool writes, and writing it back gives the same bytes.
  for (const char* name : {"scale.tuning", "scale_appended.tuning"}) {
    SourceManager sm;
    DiagnosticEngine diag(sm);
    std::string path = std::string(TILEC_SOURCE_DIR) + "/tests/lit/tools/Inputs/tune/" + name;
    std::optional<TuningTable> t = load_tuning_table(path, sm, diag);
    INFO(name);
    REQUIRE(t);
    CHECK(write_tuning_table(*t) == sm.file(1).text);
    CHECK(t->symbols == std::vector<std::string>{"m", "n"});
    CHECK(check_tuning_table(*t, "scale", "00c0ffee00c0ffee", {"m", "n"}, 5, [](int i) { return i != 4; }, diag));
  }
}
