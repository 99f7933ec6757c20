// The built-in table: families, and signatures parsed once from their spelling in builtins.h.
#include "frontend/builtins.h"

#include <map>

namespace tilec {
namespace {

struct RawBuiltin {
  Builtin id;
  BuiltinFamily family;
  const char* name;
  const char* params;
};

constexpr RawBuiltin kRaw[] = {
#define X(e, family, name, params) {Builtin::e, BuiltinFamily::family, name, params},
    TILEC_BUILTINS(X)
#undef X
};

// builtin_family and builtin_sig index the table by enum value.
constexpr bool in_enum_order() {
  for (size_t i = 0; i < std::size(kRaw); ++i)
    if (kRaw[i].id != Builtin(i)) return false;
  return true;
}
static_assert(in_enum_order(), "kRaw follows TILEC_BUILTINS, as the enum does");

std::vector<BuiltinParam> parse_params(std::string_view text) {
  std::vector<BuiltinParam> out;
  bool kw_only = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    std::string_view item = text.substr(pos, comma == std::string_view::npos ? text.size() - pos : comma - pos);
    pos = comma == std::string_view::npos ? text.size() : comma + 1;
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item == "*") {
      kw_only = true;
      continue;
    }
    BuiltinParam p;
    if (item.front() == '*') {
      p.rest = true;
      p.required = false;
      item.remove_prefix(1);
    }
    if (item.back() == '=') {
      p.required = false;
      item.remove_suffix(1);
    }
    p.name = std::string(item);
    p.keyword_only = kw_only;
    out.push_back(p);
  }
  return out;
}

struct Table {
  std::vector<BuiltinSig> sigs;
  std::map<std::string_view, size_t> by_name;
  std::vector<std::string> spellings;

  Table() {
    spellings.reserve(std::size(kRaw));
    for (const RawBuiltin& r : kRaw) {
      spellings.push_back(std::string(r.name) + "(" + r.params + ")");
      sigs.push_back({r.id, r.name, spellings.back(), parse_params(r.params)});
      by_name[r.name] = sigs.size() - 1;
    }
  }
};

const Table& table() {
  static const Table t;
  return t;
}

}  // namespace

const BuiltinSig* find_builtin(std::string_view name) {
  auto it = table().by_name.find(name);
  return it == table().by_name.end() ? nullptr : &table().sigs[it->second];
}

const BuiltinSig& builtin_sig(Builtin b) { return table().sigs[size_t(b)]; }

std::vector<std::string> builtin_names() {
  std::vector<std::string> out;
  for (const RawBuiltin& r : kRaw) out.push_back(r.name);
  return out;
}

BuiltinFamily builtin_family(Builtin b) { return kRaw[size_t(b)].family; }

}  // namespace tilec
