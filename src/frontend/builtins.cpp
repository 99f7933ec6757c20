// The built-in table: signatures parsed once from their spelling in builtins.h.
#include "frontend/builtins.h"

#include <map>

namespace tilec {
namespace {

struct RawBuiltin {
  Builtin id;
  const char* name;
  const char* params;
};

constexpr RawBuiltin kRaw[] = {
#define X(e, name, params) {Builtin::e, name, params},
    TILEC_BUILTINS(X)
#undef X
};

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

BuiltinFamily builtin_family(Builtin b) {
  using F = BuiltinFamily;
  switch (b) {
    case Builtin::Bid:
    case Builtin::NumBlocks:
    case Builtin::NumTiles:
    case Builtin::Cdiv:
    case Builtin::NumSms:
    case Builtin::Swizzle2d: return F::Grid;
    case Builtin::Load:
    case Builtin::Store: return F::Memory;
    case Builtin::Gather:
    case Builtin::Scatter:
    case Builtin::AtomicAdd:
    case Builtin::AtomicMax:
    case Builtin::AtomicMin:
    case Builtin::AtomicAnd:
    case Builtin::AtomicOr:
    case Builtin::AtomicXor:
    case Builtin::AtomicXchg:
    case Builtin::AtomicCas: return F::ElementMemory;
    case Builtin::Arange:
    case Builtin::Full:
    case Builtin::Zeros:
    case Builtin::Ones: return F::Make;
    case Builtin::Reshape:
    case Builtin::Permute:
    case Builtin::Transpose:
    case Builtin::ExpandDims:
    case Builtin::BroadcastTo:
    case Builtin::Cat:
    case Builtin::Extract: return F::Shape;
    case Builtin::Astype:
    case Builtin::Bitcast: return F::Convert;
    case Builtin::Where:
    case Builtin::Minimum:
    case Builtin::Maximum:
    case Builtin::Abs:
    case Builtin::Fma:
    case Builtin::Exp:
    case Builtin::Exp2:
    case Builtin::Log:
    case Builtin::Log2:
    case Builtin::Sqrt:
    case Builtin::Rsqrt:
    case Builtin::Sin:
    case Builtin::Cos:
    case Builtin::Tanh:
    case Builtin::Sigmoid:
    case Builtin::Floor:
    case Builtin::Ceil:
    case Builtin::Isnan:
    case Builtin::Pow: return F::Elementwise;
    case Builtin::Sum:
    case Builtin::Prod:
    case Builtin::Max:
    case Builtin::Min:
    case Builtin::Argmax:
    case Builtin::Argmin:
    case Builtin::Cumsum:
    case Builtin::Cumprod: return F::Reduce;
    case Builtin::Histogram: return F::Histogram;
    case Builtin::Mma: return F::Mma;
    case Builtin::Print:
    case Builtin::StaticAssert: return F::Debug;
    case Builtin::Range: return F::Range;
    case Builtin::Kernel: return F::Kernel;
  }
  return F::Kernel;  // not reached: the switch names every built-in
}

}  // namespace tilec
