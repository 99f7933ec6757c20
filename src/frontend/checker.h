// The checker's internal state, shared by check_module.cpp (modules, constants, kernels),
// check_stmt.cpp (statements, control flow, helper inlining), check_expr.cpp (expressions and
// operators) and check_builtins.cpp (the built-in functions).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frontend/builtins.h"
#include "frontend/check.h"
#include "frontend/local_vars.h"

namespace tilec {

/// A module-level name: a constant, a helper function, a kernel or an imported module.
struct Global {
  enum class Kind { Constant, Function, Kernel, Module } kind = Kind::Constant;
  Value value;
  const Stmt* def = nullptr;        ///< Function, Kernel
  struct ModuleScope* module = nullptr;  ///< Module
  SourceRange range;
};

/// The names one module defines, and the modules it imports.
struct ModuleScope {
  Module* ast = nullptr;
  std::map<std::string, Global> globals;
  std::vector<std::pair<std::string, ModuleScope*>> imports;  ///< null: the import failed (reported)
  bool checked = false;
  bool checking = false;  ///< on the import stack (cycle detection)
  bool broken = false;    ///< had syntax errors: names missing from it are not reported
};

/// The variables of one function body (kernel or inlined helper), Python-style: one scope per
/// function, no block scopes.
struct FunctionScope {
  LocalVars vars;
  std::map<std::string, int> ids;  ///< name → variable id, stable across branches
  const Stmt* def = nullptr;       ///< helper being inlined (null for the kernel)
  std::vector<Value> returns;      ///< values of `return` statements seen
  bool return_error = false;       ///< a `return` whose value had an error (already reported)
  SourceRange first_return;
  int loop_depth = 0;
  /// Loop-carried variables of the enclosing loops: name → (type, loop statement).
  std::map<std::string, std::pair<Value, const Stmt*>> carried;
};

/// Arguments of a call bound to a built-in's parameters.
struct BoundArgs {
  Expr* call = nullptr;
  std::vector<Expr*> slot;     ///< one per parameter (null when not given)
  std::vector<Expr*> rest;     ///< extra positional arguments for a `*rest` parameter
  Expr* get(size_t i) const { return slot[i]; }
  const Value* value(size_t i) const { return slot[i] ? &slot[i]->value : nullptr; }
};

class Checker {
 public:
  Checker(SourceManager& sm, DiagnosticEngine& diag, const CheckOptions& opts, Program& out)
      : sm_(sm), diag_(diag), opts_(opts), out_(out) {}

  void run(std::unique_ptr<Module> main);

  // ---- modules (check_module.cpp)
  ModuleScope* check_module(Module* m);
  ModuleScope* import_module(const Stmt& import, ModuleScope& from);
  void define_constant(ModuleScope& ms, Stmt& s);
  void poison_constant(ModuleScope& ms, const Stmt& s);
  void parse_defines();
  void report_unused_defines();
  void check_kernel(ModuleScope& ms, Stmt& def);
  void check_kernel_params(Stmt& def, KernelInfo& k);
  /// The first name in extent `e` that is neither a constant nor another module-level or
  /// built-in name: a would-be dimension symbol (`D` in `f32[M, 2 * D]`); "" when none.
  std::string extent_symbol(const Expr& e);
  /// The error for an extent computed from dimension symbols, with the workaround.
  void report_derived_extent(const Stmt& def, const Param& p, const Expr& extent, const std::string& symbol);
  void check_kernel_decorator(Expr& dec, KernelInfo& k);
  /// configs=[config(...), ...]: each entry's keywords are module constants of the kernel's
  /// module (a value of the constant's kind) or @kernel options (the option's rule).
  void check_configs(Expr& list, KernelInfo& k);
  bool check_config(Expr& call, KernelConfig& c);
  /// One option of the decorator, `e` its value, under its rule (kernel_options.h); by_target
  /// where the option takes it. Sets the option's field of `out` when the value is allowed.
  void check_kernel_option(const KernelOptionInfo& option, Expr& e, KernelOptions& out);
  void check_grid(Expr& grid, KernelInfo& k);
  std::string doc_comment(const Stmt& def) const;
  void check_helper_defaults(const Stmt& def);

  // ---- statements (check_stmt.cpp)
  /// Checks a block; returns true when it always ends in return/break/continue.
  bool check_block(StmtList& body);
  bool check_stmt(Stmt& s);
  void check_assign(Stmt& s);
  void assign_target(Expr& target, const Value& v, const SourceRange& stmt_range);
  void bind_name(Expr& name, const Value& v);
  bool check_if(Stmt& s);
  void check_for(Stmt& s);
  /// True when the loop never falls through to the statement after it (`while True:` that
  /// only a `return` leaves), for -Wunreachable-code.
  bool check_while(Stmt& s);
  void check_loop_body(Stmt& loop, StmtList& body, Expr* index_target, const Value* index_value);
  void check_return(Stmt& s);
  void check_assert(Stmt& s);
  Value inline_helper(const Stmt& def, Expr& call);

  // ---- expressions (check_expr.cpp)
  Value check_expr(Expr& e);
  Value check_name(Expr& e);
  Value check_binary(Expr& e);
  Value binary_values(Op op, const Value& a, const Value& b, Expr& e, Expr& lhs, Expr& rhs);
  /// In grid=, an error at `where` when `divisor` (of `//` or cdiv) is the constant 0; true then.
  bool grid_divides_by_zero(const Value& divisor, const Expr& where);
  Value check_unary(Expr& e);
  Value check_compare(Expr& e);
  Value check_boolop(Expr& e);
  Value check_not(Expr& e);
  Value check_ifexp(Expr& e);
  Value check_tuple(Expr& e);
  Value check_attribute(Expr& e);
  Value check_subscript(Expr& e);
  Value check_call(Expr& e);
  Value check_literal(Expr& e);
  /// The dtype that `a op b` computes in, or nullopt after reporting why not.
  std::optional<DType> promote(const Value& a, const Value& b, Expr& where, Expr& lhs, Expr& rhs);
  /// The NumPy broadcast of two shapes, or nullopt after reporting.
  std::optional<std::vector<int64_t>> broadcast(const std::vector<int64_t>& a,
                                                const std::vector<int64_t>& b, Expr& where);
  /// Converts a tile value to dtype `to` (constants are folded).
  Value cast_value(const Value& v, DType to) const;

  // ---- built-ins (check_builtins.cpp)
  bool bind_args(const BuiltinSig& sig, Expr& call, BoundArgs& out);
  /// `e` is a call of by_target (language.md §3, "Options per target").
  static bool is_by_target(const Expr& e);
  /// The entries of `option=by_target(arch=v, ..., default=v)`: each value checked by `value`
  /// (the option's own rule, errors at the value); `default` goes to `plain`, the others to
  /// `out`. Errors: positional arguments, no entry, a key given twice (whether a key is an
  /// arch is the driver's check: check_target_keys).
  void check_by_target(Expr& call, const std::string& option, const std::function<std::optional<int>(Expr&)>& value,
                       int& plain, std::vector<TargetValue>& out);
  Value call_builtin(const BuiltinSig& sig, Expr& call);
  Value builtin_grid(Builtin b, BoundArgs& a);
  Value builtin_memory(Builtin b, BoundArgs& a);
  bool memory_coords(Expr* e, const char* what, const char* entries, const ArrayParam& arr);
  Value builtin_element_memory(Builtin b, BoundArgs& a);
  Value builtin_make(Builtin b, BoundArgs& a);
  Value builtin_shape(Builtin b, BoundArgs& a);
  Value builtin_convert(Builtin b, BoundArgs& a);
  Value builtin_elementwise(Builtin b, BoundArgs& a);
  Value builtin_reduce(Builtin b, BoundArgs& a);
  Value builtin_mma(BoundArgs& a);
  Value builtin_histogram(BoundArgs& a);
  Value builtin_debug(Builtin b, BoundArgs& a);
  Value builtin_range(BoundArgs& a);

  // ---- helpers for built-ins and operators
  /// A constant integer argument (`axis=1`), or nullopt after reporting.
  std::optional<int64_t> const_int(Expr* e, const char* what);
  /// A constant shape: an int or a tuple of ints, each a power of two (§4).
  std::optional<std::vector<int64_t>> const_shape(Expr* e, const char* what);
  /// A dtype argument (`f32`, or a constant naming a dtype).
  std::optional<DType> const_dtype(Expr* e, const char* what);
  /// Reports a shape that is not a valid tile shape; true when valid.
  /// Errors at `where` when `shape` is not a tile shape (powers of two, at most 2^24 elements),
  /// with a note for each -D override `where` names (the bad value may come from the command line).
  bool check_tile_shape(const std::vector<int64_t>& shape, const Expr& where);
  /// Notes on `d`, at the constant's definition, for each module constant set by -D that
  /// expression `e` names.
  void note_defines(Diagnostic& d, const Expr& e);
  /// Tile (or scalar) argument; reports otherwise.
  bool expect_tile(Expr* e, const char* what);
  /// An integer literal written as `dtype` must fit it: reports "literal ... does not fit in
  /// <dtype>, <whose>" and returns false otherwise (store(y_u8, ..., tile=300) or
  /// full((4,), 300, i8) would wrap silently).
  bool literal_fits(const Value& v, DType dtype, Expr& e, const std::string& whose);
  bool expect_scalar_int(Expr* e, const char* what);
  /// Normalizes axis `axis` (negative counts from the end) for rank `rank`.
  std::optional<int> normalize_axis(int64_t axis, int rank, Expr* where, const char* subject = "a tile");

  // ---- names and scopes
  const LocalVar* lookup_local(const std::string& name) const;
  const Global* lookup_global(const std::string& name, ModuleScope& ms, const SourceRange& r);
  /// Every name a use could mean here (locals, the module's and its imports' names, dtypes,
  /// built-ins, and True, False and None), for the "did you mean" of an undefined one.
  std::vector<std::string> visible_names() const;
  /// True when this module or one it imports had syntax errors: a name may be undefined only
  /// because its definition did not parse, so no error is reported for it.
  bool definitions_may_be_lost() const;
  int var_id(const std::string& name);

  SourceManager& sm_;
  DiagnosticEngine& diag_;
  const CheckOptions& opts_;
  Program& out_;

  std::vector<std::unique_ptr<ModuleScope>> scopes_;
  std::map<std::string, ModuleScope*> by_path_;
  ModuleScope* module_ = nullptr;     ///< module whose code is being checked
  FunctionScope* fn_ = nullptr;       ///< null at module level (constant expressions)
  KernelInfo* kernel_ = nullptr;      ///< kernel being checked
  bool in_grid_ = false;              ///< checking a grid= expression
  std::vector<const Stmt*> call_stack_;  ///< helpers being inlined, for recursion errors
  std::set<const Stmt*> bad_helpers_;    ///< helpers whose signature had errors (calls are skipped)
  /// Helper calls inlined into the current kernel. Each call is a checked copy, so a helper
  /// calling another twice, 30 levels deep, would make 2^30 copies: past the limit the
  /// kernel is an error.
  int inlined_calls_ = 0;
  static constexpr int kMaxInlinedCalls = 10000;

  /// A -D NAME=VALUE override: parsed up front, evaluated at NAME's definition (so it may
  /// name the constants above it).
  struct Define {
    Expr* expr = nullptr;
    SourceRange range;
    bool used = false;
    std::string option;   ///< "NAME=VALUE" as given
    SourceRange target;   ///< the module constant it overrides (once used)
  };
  std::map<std::string, Define> defines_;
  std::vector<std::unique_ptr<Module>> define_modules_;  ///< keeps the -D values' trees alive
};

/// "i32 scalar", "tile (64, 64) of f16", "array f16[M, K]": a value's type in diagnostics.
std::string describe(const Value& v);
/// A constant's value as the user would write it ("300", "1.5"), or "value".
std::string const_spelling(const Value& v);

/// True for the predeclared names (dtypes, built-ins, `kernel`, `inf`, `nan`), which no
/// module-level declaration or dimension symbol may take (docs/language.md §2.4).
bool is_predeclared(const std::string& name);

}  // namespace tilec
