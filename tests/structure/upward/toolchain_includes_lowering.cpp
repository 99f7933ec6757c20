// layer: tilec_codegen_toolchain
// The toolchain knows entries by name and what ptxas says of them, no lowered kernel.
#include "codegen/target/target.h"
#include "codegen/toolchain/occupancy.h"
#include "codegen/lowering/lower.h"  // refused
