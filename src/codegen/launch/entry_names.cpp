// The PTX entry names (entry_names.h).
#include "codegen/launch/entry_names.h"

namespace tilec::codegen {

std::string vectorized_entry(const std::string& kernel) { return kernel + kVectorizedSuffix; }
std::string general_entry(const std::string& kernel) { return kernel; }

}  // namespace tilec::codegen
