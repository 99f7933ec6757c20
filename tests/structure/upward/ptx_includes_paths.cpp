// layer: tilec_codegen_ptx
// The emitter asks the paths table (lowering/path_table.h); a path's room is above it.
#include "codegen/lowering/path_table.h"
#include "codegen/ptx/path_emitter.h"
#include "codegen/paths/tma_wgmma/path.h"  // refused
