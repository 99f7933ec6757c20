// Which arrays a kernel reads: what decides, beside the write set (KernelAbi's may_write),
// whether a written array is an output the functional op can allocate.
#include "codegen/torch/torch_ops.h"

#include <set>

namespace tilec::codegen::torch {
namespace {

void collect_reads(const ir::Block& b, std::set<const ir::ArrayParam*>& read) {
  for (const auto& op : b.ops) {
    // Loads and gathers read their array (operand 0); an atomic update reads the old value.
    if (op->kind == ir::OpKind::Load || op->kind == ir::OpKind::Gather || op->kind == ir::OpKind::Atomic)
      read.insert(op->operands[0]->type.array);
    for (const auto& r : op->regions) collect_reads(*r, read);
  }
}

}  // namespace

std::vector<bool> arrays_read(const ir::Function& fn) {
  std::set<const ir::ArrayParam*> read;
  collect_reads(fn.body, read);
  std::vector<bool> out;
  for (const ir::Param& p : fn.sig.params) out.push_back(p.is_array && read.count(p.array) > 0);
  return out;
}

}  // namespace tilec::codegen::torch
