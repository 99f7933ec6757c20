// The split-K oracle (split_oracle.h).
#include "difftest/split_oracle.h"

#include <cmath>

#include "ir/split_k.h"

namespace tilec::difftest {

bool run_split(const ir::Function& f, int slices, const std::vector<interp::Arg>& inputs,
               std::vector<interp::Arg>& out, std::string& why, std::string& error) {
  ir::SplitKernels parts;
  SourceRange where;
  if (!ir::split_k(f, slices, parts, why, where)) return false;
  std::vector<int64_t> grid = interp::grid(f, inputs, {}, error);
  if (!error.empty()) return false;
  int64_t ctas = 1;
  for (int64_t g : grid) ctas *= g;
  // The workspace as the header describes it: slices x CTAs tile rows. The IR's constant first
  // extent (ir::kWorkspaceRows) is what no launch reaches; the interpreter checks extents
  // against it, so both kernels take this launch's instead.
  ir::ArrayParam& ws = *parts.partials->sig.arrays.back();
  int64_t rows = slices * ctas * parts.partials->sig.split.tile_rows, elements = rows;
  for (size_t d = 1; d < ws.dims.size(); ++d) elements *= ws.dims[d].constant;
  if (elements > (int64_t(1) << 24)) {
    why = "its workspace would hold more than 2^24 elements";
    return false;
  }
  ws.dims[0].constant = rows;
  parts.reduce->sig.arrays.back()->dims[0].constant = rows;
  interp::HostArray w{ws.dtype, {rows}, {}};
  for (size_t d = 1; d < ws.dims.size(); ++d) w.extents.push_back(ws.dims[d].constant);
  // Poisoned: an element the partials kernel does not write and the reduce kernel reads is NaN.
  w.data.assign(size_t(elements), Scalar{-1, std::nan("")});
  out = inputs;
  out.push_back(interp::Arg{w, {}});
  for (const ir::Function* k : {parts.partials.get(), parts.reduce.get()}) {
    interp::Result r = interp::run(*k, out);
    if (!r.error.empty()) {
      error = k->name + ": " + r.error;
      return false;
    }
  }
  out.pop_back();
  return true;
}

}  // namespace tilec::difftest
