// The pieces of a generated header's kernels that header.cpp (declarations, metadata, launch
// functions) and dispatch.cpp (the choice among configurations) share: the names of one header,
// of one configuration's code and of one kernel with its configurations, and the helpers both
// use. Internal to src/codegen/header/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/header/header.h"

namespace tilec::header_parts {

// Kernels above this need the per-device opt-in (CUDA C++ Programming Guide, "Shared Memory").
constexpr int kDefaultSharedLimit = 48 * 1024;

// Names shared by everything one header defines.
struct Module {
  const HeaderInput& in;
  std::string base;    // prefix + first kernel: names the header-level symbols
  std::string guard;   // BASE_TILEC
  std::vector<std::string> archs;  // the targets' -arch names
  std::string ptx_arch;
  std::string config;  // the configuration hash (12 hex digits), in every linker-visible name
  std::string image;   // the image's (weak) symbol: BASE_tilec_CONFIG_image
  /// C condition on tilec_cc under which the device runs code that opens with griddepcontrol
  /// (SASS of a target of sm_90 or newer for exactly its compute capability), so a launch is
  /// programmatic (tilec_launch's pdl); "" when no target has it (pdl_condition).
  std::string pdl;
};

// Names and pieces of one kernel.
// One configuration's code, or (Public::k) the kernel's public interface.
struct Kernel {
  const KernelAbi& abi;
  std::string sym;  // configuration i: PUB_tilec_c<i>; the public interface: PUB (prefix + name)
  std::string pub;  // prefix + name
  std::string state, lock;  // the loader state's and lock's (weak) symbols: PUB_tilec_CONFIG_state, _lock
  std::vector<const AbiParam*> arrays, scalars;
  bool needs_device;  // the launch asks which device the stream is on
  std::vector<size_t> first_entry;  // per path: its first entry's index in the kernel's entry table
  size_t num_entries = 0;           // this configuration's entries (the public interface: all of them)
  int index = 0;                    // its index in configs=
  int64_t work = 1;                 // its largest tile's elements
  // The public interface: its launches take `CUdeviceptr workspace, size_t workspace_bytes` last
  // (a configuration is split-K). A split-K configuration (abi is its partials kernel): its
  // reduce kernel, one element, entries right after the partials kernel's.
  bool workspace = false;
  std::vector<Kernel> reduce;
};

// A kernel of the header: its public interface and its configurations.
struct Public {
  Kernel k;
  std::vector<Kernel> configs;        // built, by increasing index
  std::vector<std::string> labels;    // per declared index ("" when left out, or without configs=)
  std::string space;
  const std::vector<HeaderTuningSection>* tuning = nullptr;
  std::vector<int> vector_bytes;      // per array: the public check's (1 where configurations differ)
  bool choose = false;                // more than one configuration declared: the launch chooses
};

bool is_grid_scalar(const AbiParam& p);
std::string join(const std::vector<std::string>& parts, const std::string& sep);
/// The compute capability (major * 10 + minor) of an arch-specific path's devices; 0: portable.
int path_compute_capability(const AbiPath& p);
/// The strided launch's parameters (after the stream, with it), and its arguments as named there
/// (the public interface's with the workspace arguments, when it takes them).
std::string strided_params(const Kernel& k);
std::vector<std::string> strided_args(const Kernel& k);
/// The dimension symbols and the scalars as C parameters ("void" when none): K_workspace_bytes's.
std::string extent_params(const Kernel& k);
/// k_config's parameters: the stream, the dimension symbols, the scalars.
std::string config_params(const Kernel& k);
/// The array descriptions of the launch's check (tilec_array_desc), per array its vector bytes.
std::string array_tables(const Kernel& k, const std::vector<int>& vector_bytes);
/// The stub's extents, for symbol_function_args: tilec_sym[i].
std::string stub_extent(size_t i);

// Arguments for a define_symbol_function function: `symbol(i)` gives dimension symbol i's
// value; `num_sms` the multiprocessor count, when the function takes it; `out` the array.
template <class F>
std::string symbol_function_args(const Kernel& k, F symbol, const std::string& num_sms, const std::string& out) {
  std::vector<std::string> args;
  for (size_t i = 0; i < k.abi.dim_symbols.size(); ++i) args.push_back(symbol(i));
  for (const AbiParam* s : k.scalars)
    if (is_grid_scalar(*s)) args.push_back(s->dtype == DType::I64 ? s->name : "(int64_t)" + s->name);
  if (!num_sms.empty()) args.push_back(num_sms);
  args.push_back(out);
  return join(args, ", ");
}

// ---- dispatch.cpp: the choice among a kernel's configurations (docs/tuning.md) ----

/// The embedded tuning table's sections (HeaderTuningSection): K_tilec_tuning.
std::string define_tuning(const Public& pk);
/// K_tilec_choose: the configuration a launch takes.
std::string define_choose(const Public& pk);
/// K_tilec_run (checks the arrays, takes a configuration, launches it), K_strided and
/// K_launch_config_strided.
std::string define_run(const Public& pk);
/// K_config: the configuration a launch with these extents would take.
std::string define_config_function(const Public& pk);

// ---- split_k.cpp: split-K configurations (ir/split_k.h) ----

/// Configuration c's workspace size, K_tilec_cI_workspace_bytes(tilec_sym, grid scalars), and
/// its launch, K_tilec_cI_split: the workspace checked and described, the partials kernel, then
/// the reduce kernel, on the stream.
std::string define_split_launch(const Public& pk, const Kernel& c);
/// K_workspace_bytes: the most any configuration eligible for these extents needs.
std::string define_workspace_function(const Public& pk);
/// The arguments of a K_tilec_cI_workspace_bytes call, over `tilec_sym`.
std::string workspace_bytes_args(const Kernel& c);

}  // namespace tilec::header_parts
