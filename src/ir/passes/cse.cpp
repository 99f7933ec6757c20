// cse: merges pure operations that compute the same thing from the same operands. A value
// found in an enclosing block is reused inside nested regions, never the other way round.
#include <bit>
#include <map>
#include <tuple>

#include "ir/passes/passes.h"

namespace tilec::ir {
namespace {

// Everything that makes two ops compute the same value. Float values compare by their bits:
// as doubles, -0.0 == 0.0 would merge the two zeros, and a NaN would break the map's ordering.
using Key = std::tuple<int, std::vector<const Value*>, std::string, int64_t, uint64_t, std::vector<int64_t>,
                       std::vector<int64_t>, int, int, bool, int>;

Key key_of(const Op& op) {
  std::vector<const Value*> operands(op.operands.begin(), op.operands.end());
  std::string types;
  for (const Value* r : op.results) types += r->type.str() + ";";
  return Key{int(op.kind), operands, types, op.value.i, std::bit_cast<uint64_t>(op.value.f),
             op.shape, op.order, op.axis, int(op.pred), op.approx, int(op.combine)};
}

void cse_block(Function& f, Block& b, std::map<Key, Value*> seen) {
  for (auto& op : b.ops) {
    // Loads can observe stores; control flow and yields are never merged.
    bool candidate = is_pure(*op) && op->regions.empty() && op->results.size() == 1 && op->kind != OpKind::Load;
    if (candidate) {
      Key k = key_of(*op);
      auto it = seen.find(k);
      if (it != seen.end()) {
        replace_uses(f.body, op->results[0], it->second);
        continue;
      }
      seen[k] = op->results[0];
    }
    for (auto& r : op->regions) cse_block(f, *r, seen);
  }
}

}  // namespace

void eliminate_common_subexpressions(Function& f) { cse_block(f, f.body, {}); }

}  // namespace tilec::ir
