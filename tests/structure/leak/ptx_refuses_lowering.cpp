// layer: tilec_codegen_ptx
// A fixture that is wrong on purpose (structure.layers_fails): the emitter does see lowering,
// so the check must report that this "refused" include resolves.
#include "codegen/ptx/context.h"
#include "codegen/lowering/lower.h"  // refused
