// The architecture table and the -arch parser.
#include "codegen/target/target.h"

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

// Per compute capability: the lowest PTX ISA version of the plain, `a` and `f` targets (0: no
// such target). Checked with ptxas 13.0 (--gpu-name and a one-entry module per version).
struct Row {
  int sm, ptx, ptx_a, ptx_f;
};
constexpr Row kRows[] = {{80, 70, 0, 0},   {86, 71, 0, 0},   {87, 74, 0, 0},   {88, 73, 0, 0},
                         {89, 78, 0, 0},   {90, 78, 80, 0},  {100, 86, 86, 88}, {103, 88, 88, 88},
                         {110, 90, 90, 90}, {120, 87, 87, 88}, {121, 88, 88, 88}};

}  // namespace

std::optional<Target> parse_target(std::string_view arch, std::string* why) {
  auto fail = [&](std::string text) {
    if (why) *why = std::move(text);
    return std::nullopt;
  };
  constexpr std::string_view kPrefix = "sm_";
  if (arch.substr(0, kPrefix.size()) != kPrefix) return fail("not a GPU architecture (sm_<number>, like sm_90a)");
  std::string_view rest = arch.substr(kPrefix.size());
  Target t;
  t.arch = std::string(arch);
  t.sm = 0;
  size_t i = 0;
  for (; i < rest.size() && rest[i] >= '0' && rest[i] <= '9' && i < 4; ++i) t.sm = t.sm * 10 + (rest[i] - '0');
  if (i < 2 || rest[0] == '0') return fail("not a GPU architecture (sm_<number>, like sm_90a)");
  if (i + 1 == rest.size() && (rest[i] == 'a' || rest[i] == 'f')) {
    t.suffix = rest[i];
  } else if (i != rest.size()) {
    return fail("not a GPU architecture (sm_<number>, like sm_90a)");
  }
  for (const Row& r : kRows) {
    if (r.sm != t.sm) continue;
    int ptx = t.suffix == 'a' ? r.ptx_a : t.suffix == 'f' ? r.ptx_f : r.ptx;
    if (!ptx) return fail(fmt::format("sm_{} has no '{}' variant", t.sm, t.suffix));
    t.ptx_version = ptx;
    return t;
  }
  return fail(t.sm < 80 ? "tilec emits code for sm_80 and newer" : "an architecture tilec does not know");
}

std::vector<std::string> known_targets() {
  std::vector<std::string> out;
  for (const Row& r : kRows) {
    out.push_back(fmt::format("sm_{}", r.sm));
    if (r.ptx_a) out.push_back(fmt::format("sm_{}a", r.sm));
    if (r.ptx_f) out.push_back(fmt::format("sm_{}f", r.sm));
  }
  return out;
}

int64_t max_shared_per_cta(int cc) {
  if (cc == 80 || cc == 87) return 163 * 1024;
  if (cc == 86 || cc == 88 || cc == 89 || cc >= 120) return 99 * 1024;
  return 227 * 1024;
}

int64_t Target::max_shared_per_cta() const { return codegen::max_shared_per_cta(sm); }

bool Target::sass_runs_on(int cc) const {
  if (suffix == 'a') return cc == sm;
  return cc / 10 == sm / 10 && cc >= sm;
}

bool Target::ptx_runs_on(int cc) const { return suffix ? sass_runs_on(cc) : cc >= sm; }

std::vector<std::string> arch_builds(std::string_view arch) {
  if (arch == "sm_90") return {"sm_90a", "sm_80"};
  return {std::string(arch)};
}

int64_t image_shared_per_cta(const std::vector<Target>& sass, const std::string& ptx_arch) {
  std::optional<Target> ptx = ptx_arch.empty() ? std::nullopt : parse_target(ptx_arch);
  int64_t least = 0;
  for (const Row& r : kRows) {
    bool runs = ptx && ptx->ptx_runs_on(r.sm);
    for (const Target& t : sass) runs = runs || t.sass_runs_on(r.sm);
    if (runs && (!least || max_shared_per_cta(r.sm) < least)) least = max_shared_per_cta(r.sm);
  }
  return least ? least : max_shared_per_cta(90);
}

std::string forward_compatible_ptx_arch(const std::vector<std::string>& archs) {
  std::optional<Target> best;
  for (const std::string& name : archs) {
    std::optional<Target> t = parse_target(name);
    if (!t || t->suffix) continue;
    if (!best || t->sm > best->sm) best = t;
  }
  return best ? best->arch : std::string();
}

std::string ptx_version_text(int v) { return fmt::format("{}.{}", v / 10, v % 10); }

}  // namespace tilec::codegen
