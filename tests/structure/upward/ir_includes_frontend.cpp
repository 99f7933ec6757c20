// layer: tilec_ir
// The IR is self-contained: the checker's AST is only for the IR builder (tilec_irbuild).
#include "ir/ir.h"
#include "frontend/ast.h"  // refused
