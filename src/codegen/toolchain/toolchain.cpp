// Finding the CUDA toolkit and running ptxas and fatbinary on PTX the emitter made.
#include "codegen/toolchain/toolchain.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <regex>
#include <set>

#include "basic/diagnostics.h"
#include "codegen/target/target.h"
#include "codegen/toolchain/ptxas_pool.h"
#include "codegen/toolchain/subprocess.h"

namespace tilec {
namespace {

namespace fs = std::filesystem;

// Fixed names inside the private folder: the tools see the same command line on every run, so
// nothing that depends on where tilec ran can reach the output.
constexpr const char* kPtxName = "tilec-input.ptx";
constexpr const char* kCubinName = "tilec-output.cubin";
constexpr const char* kFatbinName = "tilec-output.fatbin";

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

bool is_executable_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

std::string absolute_text(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  return (ec ? p : abs).lexically_normal().string();
}

// Looks for both tools in `bin`; on success fills `out`, else says why in `why`.
bool tools_in(const fs::path& bin, CudaToolkit& out, std::string& why) {
  fs::path ptxas = bin / "ptxas";
  fs::path fatbinary = bin / "fatbinary";
  if (!is_executable_file(ptxas)) {
    why = "no executable " + ptxas.string();
    return false;
  }
  if (!is_executable_file(fatbinary)) {
    why = "no executable " + fatbinary.string();
    return false;
  }
  out.ptxas = absolute_text(ptxas);
  out.fatbinary = absolute_text(fatbinary);
  return true;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

std::string exit_text(const ToolRun& run) {
  if (run.signal) return "killed by signal " + std::to_string(run.signal);
  return "exit code " + std::to_string(run.exit_code);
}

// The `sm=` value fatbinary's --image3 takes: the arch without "sm_" ("90a").
std::string fatbin_sm(const std::string& arch) { return arch.substr(3); }

constexpr const char* kWheelLabel = "nvidia-cuda-nvcc wheel";

// Where the nvidia-cuda-nvcc wheel keeps its tools, when this executable is the one of tilec's
// wheel: pip puts tilec at <site-packages>/tilec/bin/tilec and CUDA 13's nvcc wheel (the one
// the tilec[cuda] extra pins) at <site-packages>/nvidia/cu13/bin. Empty for any other tilec.
std::string wheel_tools_root() {
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (ec) return "";
  fs::path bin = exe.parent_path(), package = bin.parent_path();
  if (bin.filename() != "bin" || package.filename() != "tilec") return "";
  return (package.parent_path() / "nvidia" / "cu13").string();
}

}  // namespace

ToolkitSearch ToolkitSearch::from_environment() {
  ToolkitSearch s;
  s.wheel_root = wheel_tools_root();
  s.cuda_path = env_or_empty("CUDA_PATH");
  s.cuda_home = env_or_empty("CUDA_HOME");
  s.path = env_or_empty("PATH");
  return s;
}

bool find_cuda_toolkit(const ToolkitSearch& where, CudaToolkit& out, std::string& error) {
  out = CudaToolkit{};
  std::vector<std::string> looked;
  struct Root {
    std::string found_via;  // what CudaToolkit::found_via says
    std::string label;      // how the error names the place: "$CUDA_PATH", or the folder itself
    std::string dir;
    bool report_unset;      // an unset variable is worth a line of the error; no wheel is not
  };
  const Root roots[] = {{kWheelLabel, kWheelLabel, where.wheel_root, false},
                        {"CUDA_PATH", "$CUDA_PATH", where.cuda_path, true},
                        {"CUDA_HOME", "$CUDA_HOME", where.cuda_home, true},
                        {where.default_root, where.default_root, where.default_root, false}};
  for (const Root& r : roots) {
    if (r.dir.empty()) {
      if (r.report_unset) looked.push_back(r.label + ": not set");
      continue;
    }
    std::string why;
    if (tools_in(fs::path(r.dir) / "bin", out, why)) {
      out.found_via = r.found_via;
      out.passed_over = looked;
      return true;
    }
    looked.push_back(r.label + (r.label == r.dir ? "" : "=" + r.dir) + ": " + why);
  }
  // Last, ptxas on PATH, fatbinary beside it (mixing two toolkits' tools is asking for trouble).
  std::string path = where.path;
  bool any_ptxas = false;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    if (dir.empty()) dir = ".";  // POSIX: an empty PATH entry is the current folder
    start = end + 1;
    if (!is_executable_file(fs::path(dir) / "ptxas")) continue;
    any_ptxas = true;
    std::string why;
    if (tools_in(dir, out, why)) {
      out.found_via = "PATH";
      out.passed_over = looked;
      return true;
    }
    looked.push_back("$PATH folder " + dir + ": " + why);
  }
  if (!any_ptxas) looked.push_back("$PATH: no ptxas");

  error = "cannot find the CUDA toolkit (ptxas and fatbinary); looked at:";
  for (const std::string& l : looked) error += "\n  " + l;
  error += "\nset CUDA_PATH to the toolkit's folder (the one holding bin/ptxas)";
  if (!where.wheel_root.empty()) error += ", or install NVIDIA's beside tilec: pip install 'tilec[cuda]'";
  return false;
}

bool ptxas_version(const CudaToolkit& tk, std::string& version, std::string& error) {
  ToolRun run;
  if (!run_tool({tk.ptxas, "--version"}, "/", run, error)) return false;
  std::smatch m;
  static const std::regex re(R"(release [0-9.]+, V([0-9][0-9.]*))");
  if (!run.succeeded() || !std::regex_search(run.output, m, re)) {
    error = "'" + tk.ptxas + " --version' did not report a release (" + exit_text(run) + "):\n" + run.output;
    return false;
  }
  version = m[1];
  return true;
}

std::vector<std::string> ptxas_gpu_names(const CudaToolkit& tk) {
  ToolRun run;
  std::string error;
  std::vector<std::string> names;
  if (!run_tool({tk.ptxas, "--help"}, "/", run, error) || !run.succeeded()) return names;
  static const std::regex re(R"('(sm_[0-9]+[af]?)')");
  for (auto it = std::sregex_iterator(run.output.begin(), run.output.end(), re); it != std::sregex_iterator(); ++it)
    if (std::find(names.begin(), names.end(), (*it)[1].str()) == names.end()) names.push_back((*it)[1]);
  std::stable_sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return std::stoi(a.substr(3)) < std::stoi(b.substr(3));
  });
  return names;
}

std::string describe_resources(const EntryResources& r) {
  std::string s = r.entry + " on " + r.arch + ": " + std::to_string(r.registers) + " registers, " +
                  std::to_string(r.barriers) + " barriers, " + std::to_string(r.stack_bytes) +
                  " bytes stack, " + std::to_string(r.shared_bytes) + " bytes static shared";
  if (r.spills())
    s += "; spills: " + std::to_string(r.spill_store_bytes) + " bytes stored, " +
         std::to_string(r.spill_load_bytes) + " bytes loaded";
  return s;
}

std::vector<EntryResources> parse_ptxas_resources(std::string_view log) {
  static const std::regex entry_re(R"(Compiling entry function '([^']+)' for '([^']+)')");
  static const std::regex props_re(R"(Function properties for (\S+))");
  static const std::regex stack_re(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used_re(R"(Used (\d+) registers)");
  static const std::regex barriers_re(R"(used (\d+) barriers)");
  static const std::regex smem_re(R"((\d+) bytes smem)");
  std::vector<EntryResources> out;
  bool props_for_entry = false;  // the "stack frame" line that follows belongs to the entry
  for (const std::string& line : split_lines(log)) {
    std::smatch m;
    if (std::regex_search(line, m, entry_re)) {
      out.push_back(EntryResources{});
      out.back().entry = m[1];
      out.back().arch = m[2];
      props_for_entry = false;
    } else if (std::regex_search(line, m, props_re)) {
      props_for_entry = !out.empty() && m[1] == out.back().entry;
    } else if (std::regex_search(line, m, stack_re)) {
      if (props_for_entry) {
        out.back().stack_bytes = std::stoll(m[1]);
        out.back().spill_store_bytes = std::stoll(m[2]);
        out.back().spill_load_bytes = std::stoll(m[3]);
      }
      props_for_entry = false;
    } else if (!out.empty() && std::regex_search(line, m, used_re)) {
      out.back().registers = std::stoi(m[1]);
      if (std::regex_search(line, m, barriers_re)) out.back().barriers = std::stoi(m[1]);
      if (std::regex_search(line, m, smem_re)) out.back().shared_bytes = std::stoll(m[1]);
    }
  }
  return out;
}

bool assemble_cubin(const CudaToolkit& tk, std::string_view ptx, const std::string& arch,
                    const AssembleOptions& opts, Cubin& out, std::string& error) {
  out = Cubin{};
  out.arch = arch;
  // Only the name's form is checked here: which numbers exist is for ptxas to say.
  static const std::regex arch_re("sm_[1-9][0-9]+[af]?");
  if (!std::regex_match(arch, arch_re)) {
    error = "'" + arch + "' is not a GPU architecture (expected sm_<number>, like sm_80 or sm_90a)";
    return false;
  }
  TempDir dir(opts.temp_root);
  if (!dir.ok()) {
    error = dir.error();
    return false;
  }
  if (!write_whole_file(dir.file(kPtxName), ptx, error)) return false;

  std::vector<std::string> argv = {tk.ptxas, "-v", "-arch=" + arch};
  argv.insert(argv.end(), opts.ptxas_flags.begin(), opts.ptxas_flags.end());
  argv.insert(argv.end(), {kPtxName, "-o", kCubinName});
  ToolRun run;
  if (!run_tool(argv, dir.path(), run, error)) return false;
  out.log = run.output;

  if (!run.succeeded()) {
    // ptxas names its input in every message; point those at a copy the user can open.
    std::string message = run.output;
    std::string where;
    if (!opts.failed_ptx_prefix.empty()) {
      std::string saved = opts.failed_ptx_prefix + "." + arch + ".failed.ptx";
      std::string save_error;
      if (write_whole_file(saved, ptx, save_error)) {
        replace_all(message, kPtxName, saved);
        where = "; the PTX is saved as '" + saved + "'";
      } else {
        where = "; the PTX could not be saved (" + save_error + ")";
      }
    }
    replace_all(message, kPtxName, "<PTX for " + arch + ">");
    while (!message.empty() && message.back() == '\n') message.pop_back();
    error = "ptxas failed for " + arch + " (" + exit_text(run) + ")" + where + ":\n" + message;
    return false;
  }

  static const std::regex warning_re(R"(^ptxas.*\bwarning\s*:)");
  for (const std::string& line : split_lines(run.output))
    if (std::regex_search(line, warning_re)) out.warnings.push_back(line);
  out.resources = parse_ptxas_resources(run.output);
  return read_whole_file(dir.file(kCubinName), out.bytes, error);
}

namespace {

// An empty or duplicated arch list, in the words of make_fatbin's errors; empty when fine.
std::string arch_list_problem(const std::vector<ArchPtx>& inputs) {
  if (inputs.empty()) return "no architecture to build a fatbin for";
  std::set<std::string> seen;
  for (const ArchPtx& in : inputs)
    if (!seen.insert(in.arch).second) return "architecture '" + in.arch + "' is given twice";
  return "";
}

}  // namespace

bool make_fatbin(const CudaToolkit& tk, const std::vector<ArchPtx>& inputs, const AssembleOptions& opts,
                 Fatbin& out, std::string& error) {
  out = Fatbin{};
  error = arch_list_problem(inputs);
  if (!error.empty()) return false;
  std::vector<Cubin> cubins;
  PtxasPool pool(tk, opts);
  std::vector<size_t> jobs;
  for (const ArchPtx& in : inputs) jobs.push_back(pool.submit(in.arch, in.ptx));
  for (size_t job : jobs) {  // the first failure in input order, whichever run ends first
    pool.wait_any({job});
    const PtxasResult& r = pool.result(job);
    if (!r.ok) {
      error = r.error;
      return false;
    }
    cubins.push_back(r.cubin);
  }
  return bundle_fatbin(tk, inputs, std::move(cubins), opts, out, error);
}

bool bundle_fatbin(const CudaToolkit& tk, const std::vector<ArchPtx>& inputs, std::vector<Cubin> cubins,
                   const AssembleOptions& opts, Fatbin& out, std::string& error) {
  out = Fatbin{};
  error = arch_list_problem(inputs);
  if (!error.empty()) return false;
  std::vector<std::string> archs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    TILEC_ASSERT(i < cubins.size() && cubins[i].arch == inputs[i].arch,
                 "no cubin for " + inputs[i].arch + " to bundle into the fatbin");
    archs.push_back(inputs[i].arch);
  }
  out.cubins = std::move(cubins);
  out.ptx_arch = codegen::forward_compatible_ptx_arch(archs);

  TempDir dir(opts.temp_root);
  if (!dir.ok()) {
    error = dir.error();
    return false;
  }
  std::vector<std::string> argv = {tk.fatbinary, std::string("--create=") + kFatbinName, "-64"};
  for (const Cubin& c : out.cubins) {
    std::string name = c.arch + ".cubin";  // arch names parsed: letters, digits, '_' only
    if (!write_whole_file(dir.file(name), c.bytes, error)) return false;
    argv.push_back("--image3=kind=elf,sm=" + fatbin_sm(c.arch) + ",file=" + name);
  }
  for (const ArchPtx& in : inputs) {
    if (in.arch != out.ptx_arch) continue;
    std::string name = in.arch + ".ptx";
    if (!write_whole_file(dir.file(name), in.ptx, error)) return false;
    argv.push_back("--image3=kind=ptx,sm=" + fatbin_sm(in.arch) + ",file=" + name);
  }
  ToolRun run;
  if (!run_tool(argv, dir.path(), run, error)) return false;
  if (!run.succeeded()) {
    std::string message = run.output;
    while (!message.empty() && message.back() == '\n') message.pop_back();
    error = "fatbinary failed (" + exit_text(run) + "):\n" + message;
    return false;
  }
  return read_whole_file(dir.file(kFatbinName), out.bytes, error);
}

}  // namespace tilec
