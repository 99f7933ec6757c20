// What ptxas says, as diagnostics at the kernels the user wrote: its errors and warnings (which
// name PTX entries, not kernels) and the spills its resource report shows.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "basic/diagnostics.h"
#include "codegen/toolchain/toolchain.h"
#include "ir/ir.h"

namespace tilec::codegen {

/// Reports a ptxas or fatbinary failure (`error` true) or one ptxas warning line. The first line
/// that names an entry function ("Entry function 'k_v16' uses too much shared data (...)",
/// "... in function 'k'") makes the diagnostic, at the def of that entry's kernel in `kernels`
/// and with the kernel's name in front; the other lines, except ptxas's "info" lines (-v),
/// follow as notes. Without such a line the diagnostic has no location. A warning about spilled
/// registers is -Wspills, any other -Wptxas.
void report_ptxas_message(DiagnosticEngine& diag, const std::vector<std::unique_ptr<ir::Function>>& kernels,
                          bool error, const std::string& message);

/// Reports what assembling `cubins` showed, in their order: each ptxas warning
/// (report_ptxas_message), and for each entry that spills a -Wspills warning with its resource
/// line (describe_resources) at its kernel, saying for the general variant whether the
/// vectorized one spills too, and what to change: more warps (num_warps=, twice the kernel's or
/// the compiler's choice, `warps[i]` for kernels[i] on the portable path; 0 when not known) or
/// smaller tiles, with a note at the kernel's largest tile. Traces every entry's resources (-v).
void report_ptxas_results(DiagnosticEngine& diag, const std::vector<std::unique_ptr<ir::Function>>& kernels,
                          const std::vector<const Cubin*>& cubins, const std::vector<int>& warps = {});

}  // namespace tilec::codegen
