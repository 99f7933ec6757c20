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

// One walk over the function in program order. `seen` holds the candidates of the enclosing
// blocks and of the current one before the op being looked at; `added` lists what each open
// block put there, so that leaving the block takes exactly that out again (a value found in a
// region is not available after it, nor in its sibling region).
class Cse {
 public:
  void block(Block& b) {
    size_t mark = added_.size();
    for (auto& op : b.ops) {
      replacements_.apply(*op);
      // Loads can observe stores; control flow and yields are never merged.
      bool candidate = op->regions.empty() && is_pure(*op) && op->results.size() == 1 && op->kind != OpKind::Load;
      if (candidate) {
        auto [it, inserted] = seen_.try_emplace(key_of(*op), op->results[0]);
        if (!inserted) {
          replacements_.replace(op->results[0], it->second);
          continue;
        }
        added_.push_back(it);
      }
      for (auto& r : op->regions) block(*r);
    }
    for (; added_.size() > mark; added_.pop_back()) seen_.erase(added_.back());
  }

 private:
  std::map<Key, Value*> seen_;
  std::vector<std::map<Key, Value*>::iterator> added_;
  ValueReplacements replacements_;
};

}  // namespace

void eliminate_common_subexpressions(Function& f) { Cse().block(f.body); }

}  // namespace tilec::ir
