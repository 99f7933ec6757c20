// The generated C header: the kernels' launch functions, the embedded fatbin and the metadata,
// C99 and C++ compatible. What it promises its user is in docs/header.md and
// shared/design/header-abi.md; the PTX parameter order it packs is kernel_abi.h's.
#pragma once

#include <string>
#include <vector>

#include "codegen/launch/kernel_abi.h"
#include "codegen/target/target.h"

namespace tilec {

/// A module-level constant, listed in every kernel's metadata (`TILE = 1024`).
struct HeaderConstant {
  std::string name;
  std::string value;  ///< as the front end prints it ("1024", "0.5", "f16")
};

/// One GPU's section of a kernel's tuning table (docs/tuning.md): per row, the extents of the
/// kernel's dimension symbols and the configuration (its index in configs=) tuned best for them.
struct HeaderTuningSection {
  std::string gpu;   ///< the device's name (cuDeviceGetName)
  int compute_capability = 0;  ///< major * 10 + minor
  int sms = 0;
  std::vector<std::vector<int64_t>> extents;
  std::vector<int> configs;
};

/// A kernel's configurations (language.md §3.5, "Configurations"), beside its HeaderInput::kernels
/// entry. Without configs= a kernel has one: index 0, label "", its own KernelAbi.
struct HeaderConfigs {
  std::vector<KernelAbi> abis;       ///< per configuration built; abis[i].name is its entries' base name
  std::vector<int> indices;          ///< per configuration built: its index in configs=, increasing
  std::vector<std::string> labels;   ///< per index declared: its keywords as written ("" when left out)
  std::vector<int64_t> work;         ///< per configuration built: its largest tile's elements (the heuristic's work per CTA)
  std::string space;                 ///< 16 hex digits: hash of the signature and every declared label
  std::vector<HeaderTuningSection> tuning;  ///< the embedded table's sections, in the table's order
  /// Per configuration built (or empty: none): a split-K configuration's reduce kernel (abis[i] is then its
  /// partials kernel, KernelAbi::split_k > 1); an empty KernelAbi (no name) for the others.
  std::vector<KernelAbi> reduce;
};

/// Everything one header is made from.
struct HeaderInput {
  std::string source_name;         ///< the source file's name, without its folder (banner, metadata)
  std::vector<codegen::Target> targets;  ///< in command-line order: SASS in the image
  std::string prefix;              ///< --prefix, put in front of every public symbol ("" or "mylib_")
  std::string tilec_version;       ///< "0.1.0"
  std::string cuda_version;        ///< ptxas's release ("13.0.88"), see ptxas_version()
  std::string image;               ///< the fatbin bytes (make_fatbin)
  std::vector<KernelAbi> kernels;  ///< at least one; names pass check_kernel_name
  /// Per kernel, its configurations (kernels[i] is the first built one's under the kernel's name).
  /// Empty: every kernel has one, its kernels[i].
  std::vector<HeaderConfigs> configs;
  std::vector<HeaderConstant> constants;
};

/// The fixed suffixes of a kernel's public symbols, in the order the header declares them:
/// "" (dense launch), "_strided", "_grid", "_config", "_launch_config", "_launch_config_strided",
/// "_workspace_bytes" (kernels with a split-K configuration), "_load", "_unload", "_metadata".
const std::vector<std::string>& header_symbol_suffixes();

/// The C name of the extents (`what` = "shape") or strides ("strides") argument that array
/// `array` has in the strided launch function: `a_shape`, but `in_shape` for an array named
/// `in_` (Python's way around a keyword), because C++ reserves every name containing "__".
std::string array_argument_name(const std::string& array, std::string_view what);

/// Checks that `prefix + name` can be a kernel's public symbol: a C identifier that is not a
/// C or C++ keyword, not reserved (`_X…`, `…__…`, `tilec_…`, `…_tilec_…` are the header's, `cu[A-Z]…`
/// the CUDA API's, `main`), and not equal to another kernel's symbol or to another kernel's symbol
/// plus a suffix of header_symbol_suffixes() (`foo_grid` beside `foo`). `all_names` holds every
/// kernel name of the module (`name` included). On failure `error` is a one-line diagnostic.
bool check_kernel_name(const std::string& prefix, const std::string& name,
                       const std::vector<std::string>& all_names, std::string& error);

/// Checks what the header needs of one kernel beyond its name: parameter and dimension-symbol
/// names are C identifiers that are neither keywords nor reserved (`stream`, `grid`, `num_sms`,
/// names containing `tilec_`) and do not collide, also with the strided form's `<array>_shape`/`<array>_strides`
/// (array_argument_name);
/// scalar dtypes can cross the C ABI (not tf32/f8); every dimension symbol is used; the grid has
/// 1 to 3 expressions naming only dimension symbols, integer scalars, `num_sms` (when declared)
/// and the helpers; variants, threads and cluster dims are sane. Appends one message per problem,
/// and, with `subjects`, the parameter or dimension symbol each one is about ("" when none), so
/// that a diagnostic can point at it.
bool check_kernel_abi(const KernelAbi& kernel, std::vector<std::string>& errors,
                      std::vector<std::string>* subjects = nullptr);

/// The header text. Deterministic: the same input gives the same bytes (no time, no paths beyond
/// `source_name`). Precondition: check_kernel_name and check_kernel_abi pass for every kernel, and
/// there is at least one kernel; otherwise throws InternalError.
std::string generate_header(const HeaderInput& in);

}  // namespace tilec
