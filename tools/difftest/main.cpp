// tilec-difftest: the CPU oracles of issue 37 for one .tile file. Every kernel of the file runs
// in the reference interpreter on deterministic random inputs three times: the IR as built
// (-O0), the optimized IR without contraction, and the default pipeline's IR. The first two
// must agree bit for bit (an optimizer that changes results is wrong); the third may round
// differently only where `c + a @ b` became one mma (--fmad allows it, §5.6), so it is
// compared with a tolerance when the kernel has an mma. Kernels with math functions (exp, ...)
// are compared with a tolerance throughout: the folder may evaluate them in another precision.
// A kernel with an mma that split_k= can split also runs as its two split-K kernels (three
// slices; split_oracle.h), compared with the -O0 results with the contracted mma's tolerance.
//
//   tilec-difftest FILE.tile [--seed N] [--out DIR] [-D NAME=VALUE]... [--set NAME=VALUE]...
//                  [--kernel NAME] [--inputs DIR] [--reverse-ctas] [-v]
//
// -D sets a module constant as tilec's -D does (so `-D TILE_N=1024` builds what the kernel's
// configuration `config(TILE_N=1024)` compiles; the interpreter ignores num_warps and the other
// options); --set gives a dimension extent or a scalar an integer value (a float scalar too),
// over the file's `# difftest:`
// line; --kernel runs that kernel alone; --inputs DIR reads the arrays a kernel reads from
// DIR/<kernel>.in.<param>.bin where those files exist (as --out writes them) instead of the
// seed's values. --reverse-ctas runs each grid's CTAs last first (interp::Options): a CTA that
// writes another's elements then shows it where the forward order hides it.
// --out DIR writes each kernel's inputs and the -O0 results as binary files plus a JSON
// manifest (inputs.h; with "math" and "mma": which comparison rule applies, and "ir_hash"),
// which the GPU runners of gpu_campaign.py compare the compiled kernel against.
// Exit status: 0 agree, 1 a mismatch or an interpreter error, 2 the file does not compile,
// 3 a value the language leaves unspecified was computed (a generator bug), 64 usage.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "difftest/inputs.h"
#include "difftest/kernels.h"
#include "difftest/split_oracle.h"
#include "ir/interp/interp.h"
#include "ir/passes/passes.h"

using namespace tilec;

namespace {

struct Variant {
  const char* name;
  std::vector<std::string> passes;
  std::vector<std::unique_ptr<ir::Function>> kernels;
};

bool has_op(const ir::Function& f, bool (*pred)(ir::OpKind)) {
  bool found = false;
  ir::walk(const_cast<ir::Block&>(f.body), [&](ir::Op& op) { found = found || pred(op.kind); });
  return found;
}
bool is_math(ir::OpKind k) { return ir::math_function(k).has_value() || k == ir::OpKind::Pow; }
bool is_mma(ir::OpKind k) { return k == ir::OpKind::Mma; }

std::string show(const Scalar& s, DType t) {
  if (is_float(t) || is_restricted(t)) return fmt::format("{}", s.f);
  return is_unsigned_int(t) ? fmt::format("{}", uint64_t(s.i)) : fmt::format("{}", s.i);
}

// Whether two results agree: integers exactly; floats exactly (NaN equals NaN, whatever its
// bits; +0 equals -0, since min/max may return either zero, language.md §7.6) or, with
// `tolerant`, within a relative 2^-10 (math functions are accurate to a few ulp of f32, f16
// results to 1 ulp) or 2^-7 for bf16 arrays and for a contracted mma (`acc + a @ b` rounds the
// product to bf16 or f16 first, `mma(a, b, acc)` does not: one ulp of the operand dtype).
bool agree(const Scalar& a, const Scalar& b, DType t, bool tolerant, bool contracted) {
  if (!is_float(t) && !is_restricted(t)) return a.i == b.i;
  if (std::isnan(a.f) || std::isnan(b.f)) return std::isnan(a.f) && std::isnan(b.f);
  if (a.f == b.f) return true;
  if (!tolerant || std::isinf(a.f) || std::isinf(b.f)) return false;
  double scale = t == DType::BF16 || contracted ? 0x1p-7 : 0x1p-10;
  return std::fabs(a.f - b.f) <= scale * std::max({std::fabs(a.f), std::fabs(b.f), 1.0});
}

// The first element where `got` differs from `want`, as a message; "" when they agree.
std::string compare(const ir::Function& f, const std::vector<interp::Arg>& want, const std::vector<interp::Arg>& got,
                    bool tolerant, bool contracted) {
  for (size_t i = 0; i < f.sig.params.size(); ++i) {
    if (!f.sig.params[i].is_array) continue;
    const interp::HostArray &a = want[i].array, &b = got[i].array;
    for (size_t e = 0; e < a.data.size(); ++e)
      if (!agree(a.data[e], b.data[e], a.dtype, tolerant, contracted)) {
        std::vector<int64_t> idx(a.extents.size());
        int64_t rest = int64_t(e);
        for (size_t d = idx.size(); d-- > 0;) {
          idx[d] = rest % a.extents[d];
          rest /= a.extents[d];
        }
        return fmt::format("array '{}' element [{}]: {} (-O0) vs {}", f.sig.params[i].name, fmt::join(idx, ", "),
                           show(a.data[e], a.dtype), show(b.data[e], a.dtype));
      }
  }
  return "";
}

// A hash of the kernel's printed IR with its name (and the names derived from it, `m_k0`)
// taken out, so that a GPU campaign can count distinct kernels: FNV-1a, 64 bits.
std::string ir_hash(const ir::Function& f) {
  std::string text = ir::print(f);
  for (size_t at = 0; !f.name.empty() && (at = text.find(f.name, at)) != std::string::npos;) text.replace(at, f.name.size(), "K");
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return fmt::format("{:016x}", h);
}

int usage() {
  std::fprintf(stderr,
               "usage: tilec-difftest FILE.tile [--seed N] [--out DIR] [-D NAME=VALUE]... [--set NAME=VALUE]...\n"
               "                      [--kernel NAME] [--inputs DIR] [--reverse-ctas] [-v]\n");
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path, out_dir, only_kernel, in_dir;
  std::vector<std::string> defines, sets;
  uint64_t seed = 1;
  bool verbose = false;
  interp::Options opts;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--out" && i + 1 < argc) out_dir = argv[++i];
    else if (a == "-D" && i + 1 < argc) defines.push_back(argv[++i]);
    else if (a.size() > 2 && a.compare(0, 2, "-D") == 0) defines.push_back(a.substr(2));
    else if (a == "--set" && i + 1 < argc) sets.push_back(argv[++i]);
    else if (a == "--kernel" && i + 1 < argc) only_kernel = argv[++i];
    else if (a == "--inputs" && i + 1 < argc) in_dir = argv[++i];
    else if (a == "--reverse-ctas") opts.reverse_ctas = true;
    else if (a == "-v") verbose = true;
    else if (!a.empty() && a[0] != '-' && path.empty()) path = a;
    else return usage();
  }
  if (path.empty()) return usage();
  std::string text, error;
  if (!difftest::read_file(path, text, error)) {
    std::fprintf(stderr, "tilec-difftest: %s\n", error.c_str());
    return 2;
  }
  difftest::Header header = difftest::parse_header(text);
  for (const std::string& s : sets) {
    size_t eq = s.find('=');
    char* end = nullptr;
    long long value = eq == std::string::npos ? 0 : std::strtoll(s.c_str() + eq + 1, &end, 10);
    if (eq == std::string::npos || eq == 0 || end == s.c_str() + eq + 1 || *end != '\0') return usage();
    header.values[s.substr(0, eq)] = value;
  }
  if (!header.skip.empty()) {
    std::printf("%s: skipped (%s)\n", path.c_str(), header.skip.c_str());
    return 0;
  }
  Variant variants[] = {{"-O0", {}, {}},
                        {"-O2 --fmad=false", ir::default_pipeline(2, false), {}},
                        {"-O2", ir::default_pipeline(2, true), {}}};
  for (Variant& v : variants) {
    std::string errors;
    if (!difftest::build_kernels(path, text, defines, v.passes, v.kernels, errors)) {
      std::fprintf(stderr, "%s (%s) does not compile:\n%s", path.c_str(), v.name, errors.c_str());
      return 2;
    }
  }
  int status = 0;
  bool found = only_kernel.empty();
  for (size_t k = 0; k < variants[0].kernels.size(); ++k) {
    const ir::Function& f = *variants[0].kernels[k];
    if (!only_kernel.empty() && f.name != only_kernel) continue;
    found = true;
    difftest::Rng rng(seed * 1000003u + k);
    std::vector<interp::Arg> inputs = difftest::make_args(f, header, rng);
    if (!in_dir.empty() && !difftest::read_arrays(in_dir, f, inputs, error)) {
      std::fprintf(stderr, "tilec-difftest: %s\n", error.c_str());
      return 1;
    }
    bool math = has_op(f, is_math), mma = has_op(f, is_mma);
    std::vector<interp::Arg> reference;
    std::string verdict;
    for (Variant& v : variants) {
      std::vector<interp::Arg> args = inputs;
      interp::Result r = interp::run(*v.kernels[k], args, opts);
      if (!r.error.empty()) {
        std::printf("%s: kernel %s (%s): %s\n", path.c_str(), f.name.c_str(), v.name, r.error.c_str());
        status = std::max(status, 1);
        break;
      }
      if (r.unspecified) {
        std::printf("%s: kernel %s (%s): computed a value the language leaves unspecified (x // 0, 0 ** -n)\n",
                    path.c_str(), f.name.c_str(), v.name);
        status = std::max(status, 3);
        break;
      }
      if (&v == &variants[0]) {
        reference = std::move(args);
        verdict = fmt::format("{} CTAs", r.ctas);
        continue;
      }
      bool contracted = mma && &v == &variants[2];
      if (std::string diff = compare(f, reference, args, math || contracted, contracted); !diff.empty()) {
        std::printf("%s: kernel %s: %s differs from -O0: %s\n", path.c_str(), f.name.c_str(), v.name, diff.c_str());
        status = std::max(status, 1);
      }
    }
    if (mma && !reference.empty()) {
      // split_k=3 (odd: slices of unequal length, some possibly empty) must agree with the
      // unsplit kernel up to the rounding of the partial sums.
      std::vector<interp::Arg> split;
      std::string why, failed;
      if (difftest::run_split(f, 3, inputs, split, why, failed)) {
        if (std::string diff = compare(f, reference, split, true, true); !diff.empty()) {
          std::printf("%s: kernel %s: split_k=3 differs from -O0: %s\n", path.c_str(), f.name.c_str(), diff.c_str());
          status = std::max(status, 1);
        } else {
          verdict += ", split_k=3 agrees";
        }
      } else if (!failed.empty()) {
        std::printf("%s: kernel %s: split_k=3: %s\n", path.c_str(), f.name.c_str(), failed.c_str());
        status = std::max(status, 1);
      }
    }
    if (!out_dir.empty() && !reference.empty()) {
      std::vector<int64_t> grid = interp::grid(f, inputs, {}, error);
      std::string extra = fmt::format("\"math\": {}, \"mma\": {}, \"ir_hash\": \"{}\"", math, mma, ir_hash(f));
      if (!difftest::write_arrays(out_dir, f, inputs, grid, "in", error, extra) ||
          !difftest::write_arrays(out_dir, f, reference, grid, "expected", error)) {
        std::fprintf(stderr, "tilec-difftest: %s\n", error.c_str());
        return 1;
      }
    }
    if (verbose && !verdict.empty()) std::printf("%s: kernel %s: %s, optimized IR agrees\n", path.c_str(), f.name.c_str(), verdict.c_str());
  }
  if (!found) {
    std::fprintf(stderr, "tilec-difftest: %s has no kernel '%s'\n", path.c_str(), only_kernel.c_str());
    return 64;
  }
  return status;
}
