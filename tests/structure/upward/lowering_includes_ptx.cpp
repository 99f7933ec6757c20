// layer: tilec_codegen_lowering
// Lowering sees target and launch below it; the emitter is above it.
#include "codegen/launch/kernel_abi.h"
#include "codegen/lowering/lower.h"
#include "codegen/ptx/emitter.h"  // refused
