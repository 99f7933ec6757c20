// layer: tilec_codegen_launch
// The launch contract sits below lowering, which builds on it.
#include "codegen/launch/entry_params.h"
#include "codegen/lowering/lower.h"  // refused
