// Device assert and printf through the CUDA device runtime (debug.cpp), and the module-scope
// declarations they need.
#pragma once

#include <set>
#include <string>

#include "codegen/ptx/arith.h"
#include "codegen/ptx/context.h"

namespace tilec::codegen {

class DebugEmitter : FamilyEmitter {
 public:
  /// The asserts the launch stub checks are the lowering's (LoweredKernel::host_asserts).
  DebugEmitter(EmitContext& cx, ArithEmitter& arith);

  /// Fails (__assertfail, CUDA_ERROR_ASSERT at the launch) where an element of the condition
  /// is false; left out of the vectorized variant when the launch stub checks it.
  void emit_assert(const ir::Op& op);
  /// vprintf of the scalar operands from thread 0.
  void emit_print(const ir::Op& op);

  /// Module-scope declarations this entry needs (its string constants).
  const std::string& globals() const { return globals_; }
  /// Entry-scope declarations (the .local printf buffers).
  const std::string& entry_decls() const { return entry_decls_; }
  /// Whether the entry calls the device runtime's __assertfail or vprintf (declared once per
  /// module by emit_module).
  bool uses_assertfail() const { return uses_assertfail_; }
  bool uses_vprintf() const { return uses_vprintf_; }

 private:
  /// A generic address of a NUL-terminated string constant (a module-scope .global).
  std::string string_constant(const std::string& text);

  ArithEmitter& arith_;                   ///< printf's argument promotions
  std::set<const ir::Op*> host_checked_;  ///< asserts the launch stub checks (LoweredKernel::host_asserts)
  std::string globals_;                   ///< module-scope declarations (string constants)
  std::string entry_decls_;               ///< entry-scope declarations (.local printf buffers)
  int strings_ = 0;
  bool uses_assertfail_ = false, uses_vprintf_ = false;
};

}  // namespace tilec::codegen
