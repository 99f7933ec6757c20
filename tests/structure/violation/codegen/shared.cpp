// Fixture of structure.path_rooms_fails: shared code that names the demo path's plan type (the
// check must fail here); the mentions in this comment, DemoPlan, and in the string below do not
// count.
#include "codegen/paths/demo/plan.h"

const char* kName = "DemoPlan";
int stages(const tilec::codegen::demo::DemoPlan& p) { return p.stages; }
