// The lowered IR's text form, `--emit=tir-lowered` (lowered_text.cpp), and the pieces of it
// that each path's text uses too.
#pragma once

#include <string>

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// The IR with each value's layout and the launch choices (`--emit=tir-lowered`), and the
/// asynchronous copies, waits and barriers of its pipelines where the emitter puts them.
std::string print_lowered(const LoweredKernel& k);

/// The pipelined loop whose body `op` opens (`first`: its first op) or closes (its last op), or
/// null.
const Pipeline* body_of(const LoweredKernel& k, const ir::Op& op, bool first);
/// "%31, %32": the loads whose tiles pipeline `p` copies.
std::string loads_text(const Pipeline& p, const ir::ValueName& name);

}  // namespace tilec::codegen
