// The CUDA tools tilec runs: finding the toolkit, PTX → cubin with ptxas (one arch), and cubins +
// PTX → fatbin with fatbinary. Every run happens in a private temporary folder that is always
// removed; a failing PTX is saved where the user can read it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// Where to look for the CUDA toolkit. Tests fill it by hand; the driver uses from_environment().
struct ToolkitSearch {
  /// NVIDIA's nvidia-cuda-nvcc wheel (`pip install tilec[cuda]`): `<site-packages>/nvidia/cu13`,
  /// holding bin/ptxas and bin/fatbinary, when this tilec is the one of tilec's wheel
  /// (`<site-packages>/tilec/bin/tilec`); empty otherwise.
  std::string wheel_root;
  std::string cuda_path;                       ///< $CUDA_PATH, empty when unset
  std::string cuda_home;                       ///< $CUDA_HOME, empty when unset
  std::string default_root = "/usr/local/cuda";
  std::string path;                            ///< $PATH (colon-separated folders)
  /// Reads CUDA_PATH, CUDA_HOME and PATH from the process environment, and wheel_root from
  /// where the running executable lies (/proc/self/exe).
  static ToolkitSearch from_environment();
};

/// The CUDA tools found. Paths are absolute, so a run may change folders.
struct CudaToolkit {
  std::string ptxas;
  std::string fatbinary;
  std::string found_via;  ///< "nvidia-cuda-nvcc wheel", "CUDA_PATH", "CUDA_HOME", "/usr/local/cuda" or "PATH"
  std::vector<std::string> passed_over;  ///< places looked at first and why they did not do
};

/// Finds ptxas and fatbinary: in the nvidia-cuda-nvcc wheel beside tilec's wheel (a pip install
/// of `tilec[cuda]` asked for that release: it comes before any toolkit of the system), then
/// `$CUDA_PATH/bin`, then `$CUDA_HOME/bin`, then `/usr/local/cuda/bin`, then ptxas in the
/// folders of $PATH with fatbinary beside it. A place
/// that lacks either tool is passed over (and listed in `passed_over`, so a set but wrong
/// CUDA_PATH can be reported with -v). Returns false with an `error` that lists every place
/// looked at when none has both tools.
bool find_cuda_toolkit(const ToolkitSearch& where, CudaToolkit& out, std::string& error);

/// The toolkit release that `ptxas --version` reports ("13.0.88" from "release 13.0, V13.0.88").
/// False with `error` when ptxas does not run or prints no such line.
bool ptxas_version(const CudaToolkit& tk, std::string& version, std::string& error);

/// The GPU architectures `ptxas --help` lists for --gpu-name (sm_ names only, oldest first);
/// empty when ptxas cannot be run.
std::vector<std::string> ptxas_gpu_names(const CudaToolkit& tk);

/// What `ptxas -v` reports for one entry function on one arch.
struct EntryResources {
  std::string entry;
  std::string arch;
  int registers = 0;               ///< per thread
  int barriers = 0;                ///< named barriers used
  int64_t stack_bytes = 0;         ///< per thread stack frame
  int64_t spill_store_bytes = 0;   ///< per thread, to local memory
  int64_t spill_load_bytes = 0;
  int64_t shared_bytes = 0;        ///< static shared memory per CTA ("smem"); dynamic is not counted
  bool spills() const { return spill_store_bytes > 0 || spill_load_bytes > 0; }
};

/// One line for -v logs: "vector_add_vec on sm_90: 15 registers, 0 barriers, 0 bytes stack,
/// 0 bytes static shared; spills: 8 bytes stored, 4 bytes loaded" (the spill part only when it spills,
/// which the driver reports as a warning).
std::string describe_resources(const EntryResources& r);

/// Parses the info lines of `ptxas -v` output (`Compiling entry function 'k' for 'sm_90'`,
/// `N bytes stack frame, N bytes spill stores, N bytes spill loads`,
/// `Used N registers, used N barriers, N bytes smem, ...`) into one record per entry, in order.
std::vector<EntryResources> parse_ptxas_resources(std::string_view log);

/// Options shared by assemble_cubin and make_fatbin.
struct AssembleOptions {
  std::vector<std::string> ptxas_flags;  ///< extra ptxas flags ("-lineinfo", "--fmad=false")
  /// When ptxas rejects the PTX for arch A, the PTX is saved as `<failed_ptx_prefix>.A.failed.ptx`
  /// and the error names that file (ptxas's "line N" then refers to it). Empty: not saved. The
  /// driver passes its output path, so `k.h` fails into `k.h.sm_90.failed.ptx`.
  std::string failed_ptx_prefix;
  std::string temp_root;  ///< parent of the private temporary folder; empty: $TMPDIR or /tmp
  int jobs = 1;           ///< ptxas runs at a time in a PtxasPool (1 to kMaxToolRuns)
};

/// ptxas's output for one arch.
struct Cubin {
  std::string arch;
  std::string bytes;                        ///< the ELF image
  std::vector<EntryResources> resources;    ///< one per entry, from -v
  std::vector<std::string> warnings;        ///< ptxas warning lines, in order
  std::string log;                          ///< everything ptxas printed (for -v tracing)
};

/// Assembles `ptx` for `arch` (`sm_80` … `sm_90a` and newer names ptxas knows) with
/// `ptxas -v -arch=<arch> <flags> in.ptx -o out.cubin`. False with `error` holding ptxas's
/// message (and where the PTX was saved) when ptxas fails or cannot be run, or `arch` does not
/// parse. The same PTX and options give byte-identical cubins.
bool assemble_cubin(const CudaToolkit& tk, std::string_view ptx, const std::string& arch,
                    const AssembleOptions& opts, Cubin& out, std::string& error);

/// The PTX the emitter made for one arch.
struct ArchPtx {
  std::string arch;
  std::string ptx;
};

/// A fatbin and what went into it.
struct Fatbin {
  std::string bytes;          ///< the image, as cuLibraryLoadData takes it
  std::vector<Cubin> cubins;  ///< one per arch, in input order
  std::string ptx_arch;       ///< the arch whose PTX is embedded; empty when none is
};

/// Assembles every input with assemble_cubin, `opts.jobs` at a time (PtxasPool), then bundles
/// them (bundle_fatbin). False with `error` on the first failure in input order; an empty or
/// duplicated arch list is an error too.
bool make_fatbin(const CudaToolkit& tk, const std::vector<ArchPtx>& inputs, const AssembleOptions& opts,
                 Fatbin& out, std::string& error);

/// Bundles the SASS of `cubins` (one per arch, as assembled from `inputs`, in the same order)
/// plus the PTX of forward_compatible_ptx_arch() with `fatbinary --create=out.fatbin -64
/// --image3=kind=elf,sm=NN,file=... --image3=kind=ptx,sm=NN,file=...` (the flags nvcc passes;
/// PTX is compressed, fatbinary's default); `out.cubins` takes `cubins`. Fixed file names inside
/// the temporary folder keep the bytes independent of where it ran. False with `error` when
/// fatbinary fails or cannot be run, or the arch list is empty or duplicated; `cubins` that do
/// not match `inputs` are an internal error.
bool bundle_fatbin(const CudaToolkit& tk, const std::vector<ArchPtx>& inputs, std::vector<Cubin> cubins,
                   const AssembleOptions& opts, Fatbin& out, std::string& error);

}  // namespace tilec
