// Module-level checking: imports, module constants and -D overrides, kernel signatures,
// @kernel options and grids. Kernel bodies are checked by check_stmt.cpp.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <span>

#include <fmt/format.h>

#include "frontend/checker.h"
#include "basic/consteval.h"
#include "basic/kernel_options.h"
#include "frontend/parse.h"
#include "frontend/python_forms.h"

namespace tilec {

void check_program(SourceManager& sm, DiagnosticEngine& diag, const CheckOptions& opts,
                   std::unique_ptr<Module> main, Program& out) {
  Checker c(sm, diag, opts, out);
  c.run(std::move(main));
}

namespace {

// The kind of a constant for -D compatibility: int, float, bool, dtype, or a tuple of these
// ("tuple (int, int)": a -D value must have as many elements, each of the same kind).
std::string const_kind(const Value& v) {
  if (v.kind == ValueKind::DTypeVal) return "dtype";
  if (v.kind == ValueKind::Tuple) {
    std::string s = "tuple (";
    for (size_t i = 0; i < v.elems.size(); ++i) s += (i ? ", " : "") + const_kind(v.elems[i]);
    return s + (v.elems.size() == 1 ? ",)" : ")");
  }
  if (v.kind == ValueKind::String) return "string";
  if (v.is_const()) {
    if (v.tile.dtype == DType::Bool) return "bool";
    return is_float(v.tile.dtype) ? "float" : "int";
  }
  return "value";
}

// A constant printed for the header's metadata ("1024", "f16", "(64, 64)").
std::string const_text(const Value& v) {
  if (v.kind == ValueKind::DTypeVal) return std::string(dtype_name(v.dtype));
  if (v.kind == ValueKind::Tuple) {
    std::string s = "(";
    for (size_t i = 0; i < v.elems.size(); ++i) s += (i ? ", " : "") + const_text(v.elems[i]);
    return s + (v.elems.size() == 1 ? ",)" : ")");
  }
  if (v.is_const()) {
    std::string full = v.str();
    size_t eq = full.find(" = ");
    return eq == std::string::npos ? full : full.substr(eq + 3);
  }
  return "?";
}

// An int, float, bool or dtype constant, or a tuple of these (tuples may nest, docs §3.2).
bool is_constant_value(const Value& v) {
  if (v.kind == ValueKind::Tuple)
    return std::all_of(v.elems.begin(), v.elems.end(), [](const Value& e) { return is_constant_value(e); });
  return v.is_const() || v.kind == ValueKind::DTypeVal;
}

bool is_kernel_decorator(const Expr& d) {
  const Expr* callee = d.kind == ExprKind::Call ? d.args[0].get() : &d;
  return callee->kind == ExprKind::Name && callee->name == "kernel";
}

}  // namespace

void Checker::run(std::unique_ptr<Module> main) {
  Module* m = main.get();
  out_.modules.push_back(std::move(main));
  out_.dependencies.push_back(sm_.file(m->file).path);
  parse_defines();
  ModuleScope* ms = check_module(m);
  if (!ms) return;
  if (!ms->broken) report_unused_defines();  // the constant may be on a line that did not parse
  for (auto& [name, g] : ms->globals)
    if (g.kind == Global::Kind::Constant && !g.value.is_error()) out_.constants.push_back({name, const_text(g.value)});
  for (StmtPtr& s : m->body)
    if (s->kind == StmtKind::Def && !s->decorators.empty() && is_kernel_decorator(*s->decorators[0])) {
      if (diag_.too_many()) return;
      if (!opts_.only_kernel.empty() && s->name != opts_.only_kernel) continue;
      check_kernel(*ms, *s);
    }
}

ModuleScope* Checker::check_module(Module* m) {
  auto owned = std::make_unique<ModuleScope>();
  ModuleScope* ms = owned.get();
  ms->ast = m;
  ms->checking = true;
  ms->broken = m->broken;
  scopes_.push_back(std::move(owned));
  // Imports look files up by their normalized path, so the main file is keyed the same way
  // (`tilec ./a.tile` with b importing a is a cycle, not a second copy of a).
  by_path_[std::filesystem::path(sm_.file(m->file).path).lexically_normal().string()] = ms;
  ModuleScope* saved = module_;
  module_ = ms;

  // Functions and kernels are visible everywhere in the module (as in Python at call time);
  // constants only after their definition.
  for (StmtPtr& s : m->body) {
    if (s->kind != StmtKind::Def) continue;
    bool is_kernel = !s->decorators.empty() && is_kernel_decorator(*s->decorators[0]);
    auto [it, fresh] = ms->globals.try_emplace(s->name);
    if (!fresh) {
      Diagnostic& d = diag_.error(s->range, "redefinition of '" + s->name + "'");
      DiagnosticEngine::note(d, it->second.range, "'" + s->name + "' first defined here");
      continue;
    }
    if (!is_kernel && is_predeclared(s->name))
      diag_.error(s->range, "'" + s->name + "' is a predeclared name (a dtype or built-in) and cannot be redefined");
    it->second.kind = is_kernel ? Global::Kind::Kernel : Global::Kind::Function;
    it->second.def = s.get();
    it->second.range = s->range;
    it->second.value.kind = ValueKind::Function;
    it->second.value.func = s.get();
    it->second.value.text = s->name;
    if (!is_kernel && !s->decorators.empty())
      diag_.error(s->decorators[0]->range, "unknown decorator: only @kernel(...) is allowed");
  }
  std::vector<Expr*> calls;
  for (StmtPtr& s : m->body) {
    switch (s->kind) {
      case StmtKind::Import: import_module(*s, *ms); break;
      case StmtKind::Assign: define_constant(*ms, *s); break;
      case StmtKind::Def: break;
      case StmtKind::Pass: break;
      case StmtKind::Expr:
        if (s->value->kind == ExprKind::String) break;  // module docstring
        if (s->value->kind == ExprKind::Call) {
          calls.push_back(s->value.get());  // static_assert: checked after the constants
          break;
        }
        if (const char* keyword = s->value->kind == ExprKind::Name ? python_keyword_message(s->value->name) : nullptr) {
          diag_.error(s->value->range, keyword);  // `raise` alone: the construct is what is missing
          break;
        }
        [[fallthrough]];
      default:
        diag_.error(s->range, "only constants, imports, functions and kernels may appear at module level");
    }
  }
  for (Expr* call : calls) check_expr(*call);
  for (StmtPtr& s : m->body)
    if (s->kind == StmtKind::Def && ms->globals[s->name].def == s.get() &&
        ms->globals[s->name].kind == Global::Kind::Function)
      check_helper_defaults(*s);
  ms->checking = false;
  ms->checked = true;
  module_ = saved;
  return ms;
}

void Checker::check_helper_defaults(const Stmt& def) {
  // Defaults are evaluated once, among module names (as Python does at `def` time), so they
  // must be constants; `None` is allowed as a "not given" marker.
  std::set<std::string> seen;
  for (const Param& p : def.params) {
    if (!seen.insert(p.name).second) {
      diag_.error(p.range, "duplicate parameter '" + p.name + "' in the definition of '" + def.name + "'");
      bad_helpers_.insert(&def);
    }
    if (p.annotation) {
      // Under an unknown decorator (reported: `@jit`) the def was meant as a kernel, whose
      // parameters are annotated: nothing more to say.
      if (def.decorators.empty())
        diag_.error(p.annotation->range, "helper parameters take no annotation (reserved); the type comes from each call");
      bad_helpers_.insert(&def);
    }
    if (!p.default_value) continue;
    Value v = check_expr(*p.default_value);
    if (v.is_error()) {
      bad_helpers_.insert(&def);
      continue;
    }
    bool constant = is_constant_value(v) || v.kind == ValueKind::None || v.kind == ValueKind::String;
    if (!constant) {
      diag_.error(p.default_value->range, "the default value of '" + p.name +
                                              "' must be a compile-time constant (int, float, bool, dtype, "
                                              "None or a tuple of these), not " + describe(v));
      bad_helpers_.insert(&def);
    }
  }
  if (def.target) {
    diag_.error(def.target->range, "return annotations are reserved; remove the '->' annotation");
    bad_helpers_.insert(&def);
  }
}

ModuleScope* Checker::import_module(const Stmt& s, ModuleScope& from) {
  std::string rel = s.name;
  std::replace(rel.begin(), rel.end(), '.', '/');
  rel += ".tile";
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  const std::string& here = sm_.file(from.ast->file).path;
  fs::path dir = here == "<stdin>" ? fs::path(".") : fs::path(here).parent_path();
  if (dir.empty()) dir = ".";
  candidates.push_back(dir / rel);
  for (const std::string& inc : opts_.include_dirs) candidates.push_back(fs::path(inc) / rel);
  std::string found;
  for (const fs::path& p : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) {
      found = p.lexically_normal().string();
      break;
    }
  }
  std::string alias = s.name.substr(s.name.find_last_of('.') + 1);
  // A module that could not be imported (reported here) still binds its name, poisoned, so that
  // its uses stay quiet instead of each adding "use of undefined name".
  auto poison = [&] {
    Global g;
    g.kind = Global::Kind::Module;
    g.range = s.range;
    g.value = Value::error();
    from.globals.try_emplace(alias, g);
    from.imports.push_back({alias, nullptr});  // its names, visible unqualified, are unknown
    return nullptr;
  };
  if (found.empty()) {
    Diagnostic& d = diag_.error(s.range, "cannot find module '" + s.name + "' (looked for '" + rel + "')");
    std::string where = "searched " + dir.string();
    for (const std::string& inc : opts_.include_dirs) where += ", " + inc;
    if (foreign_module(s.name))
      DiagnosticEngine::note(d, s.range, foreign_module_note(s.name, ""));
    else
      DiagnosticEngine::note(d, s.range, where + "; add a folder with -I");
    return poison();
  }
  ModuleScope* target = nullptr;
  if (auto it = by_path_.find(found); it != by_path_.end()) {
    target = it->second;
    if (target->checking) {
      diag_.error(s.range, "import cycle: '" + s.name + "' imports this module again, directly or indirectly");
      return poison();
    }
  } else {
    std::string error;
    uint32_t id = sm_.load(found, error);
    if (!id) {
      diag_.error(s.range, "cannot read '" + found + "': " + error);
      return poison();
    }
    out_.dependencies.push_back(found);
    auto m = std::make_unique<Module>();
    int errors = diag_.error_count();
    parse_file(sm_, id, diag_, *m);
    Module* raw = m.get();
    out_.modules.push_back(std::move(m));
    target = check_module(raw);
    target->broken = diag_.error_count() != errors;
  }
  from.imports.push_back({alias, target});
  Global g;
  g.kind = Global::Kind::Module;
  g.module = target;
  g.range = s.range;
  g.value.kind = ValueKind::Module;
  g.value.text = s.name;
  from.globals[alias] = g;
  return target;
}

void Checker::define_constant(ModuleScope& ms, Stmt& s) {
  if (s.target->kind != ExprKind::Name) {
    diag_.error(s.target->range, "a module constant is assigned to one name: NAME = value");
    return;
  }
  const std::string& name = s.target->name;
  if (is_predeclared(name)) {
    diag_.error(s.target->range, "'" + name + "' is a predeclared name (a dtype or built-in) and cannot be redefined");
    return;
  }
  Value v = check_expr(*s.value);
  if (v.is_error()) {
    poison_constant(ms, s);
    return;
  }
  if (auto d = defines_.find(name); d != defines_.end()) {
    d->second.used = true;
    d->second.target = s.target->range;
    Value nv = check_expr(*d->second.expr);
    if (nv.is_error()) nv = v;  // reported; keep the source's value to avoid follow-on errors
    // An int may stand for a float constant (also inside a tuple); every other kind must match.
    auto widen = [](const Value& want, Value given, auto& self) -> Value {
      if (const_kind(want) == "float" && const_kind(given) == "int")
        return Value::make_const(want.tile.dtype, Scalar{0, double(given.constant->i)}, want.weak);
      if (want.kind == ValueKind::Tuple && given.kind == ValueKind::Tuple && want.elems.size() == given.elems.size())
        for (size_t i = 0; i < want.elems.size(); ++i) given.elems[i] = self(want.elems[i], given.elems[i], self);
      return given;
    };
    nv = widen(v, nv, widen);
    if (const_kind(nv) != const_kind(v)) {
      auto article = [](const std::string& k) { return (k == "int" ? "an " : k.rfind("tuple", 0) == 0 ? "a " : "a ") + k; };
      Diagnostic& e = diag_.error(d->second.range, "-D " + name + ": '" + name + "' is " + article(const_kind(v)) +
                                                        " constant, but the value given is " + article(const_kind(nv)));
      DiagnosticEngine::note(e, s.target->range, "'" + name + "' defined here");
    } else {
      v = nv;
    }
  }
  bool constant = is_constant_value(v) || v.kind == ValueKind::String;
  if (!constant) {
    diag_.error(s.value->range, "module constant '" + name +
                                    "' must be a compile-time int, float, bool, dtype or tuple of these");
    poison_constant(ms, s);
    return;
  }
  auto [it, fresh] = ms.globals.try_emplace(name);
  if (!fresh) {
    Diagnostic& d = diag_.error(s.target->range, "redefinition of '" + name + "'");
    DiagnosticEngine::note(d, it->second.range, "'" + name + "' first defined here");
    return;
  }
  it->second.kind = Global::Kind::Constant;
  it->second.value = v;
  it->second.range = s.target->range;
  s.target->value = v;
}

// A constant whose definition had an error (reported) is still defined, with an error value,
// so that its uses stay quiet instead of each adding "use of undefined name", and a -D of it
// is not "no module constant named".
void Checker::poison_constant(ModuleScope& ms, const Stmt& s) {
  const std::string& name = s.target->name;
  if (auto d = defines_.find(name); d != defines_.end()) d->second.used = true;
  auto [it, fresh] = ms.globals.try_emplace(name);
  if (!fresh) return;  // a redefinition: the first definition stands
  it->second.kind = Global::Kind::Constant;
  it->second.value = Value::error();
  it->second.range = s.target->range;
}

void Checker::parse_defines() {
  for (const std::string& d : opts_.defines) {
    size_t eq = d.find('=');
    std::string name = d.substr(0, eq);
    if (eq == std::string::npos || name.empty()) {
      uint32_t file = sm_.add("<command line>", "-D " + d + "\n");
      diag_.error(SourceRange{file, {1, 1, 0}, {1, uint32_t(d.size() + 4), uint32_t(d.size() + 3)}},
                  "-D needs NAME=VALUE");
      continue;
    }
    // The value is parsed as a one-line file named after the option, so errors point into it.
    uint32_t vfile = sm_.add("<-D " + name + ">", d.substr(eq + 1) + "\n");
    SourceRange whole{vfile, {1, 1, 0}, {1, uint32_t(d.size() - eq), uint32_t(d.size() - eq - 1)}};
    auto m = std::make_unique<Module>();
    int errors = diag_.error_count();
    parse_file(sm_, vfile, diag_, *m);
    if (diag_.error_count() != errors) continue;
    if (m->body.size() != 1 || m->body[0]->kind != StmtKind::Expr) {
      diag_.error(whole, "-D " + name + ": the value must be one expression");
      continue;
    }
    Define def;
    def.range = m->body[0]->value->range;
    def.expr = m->body[0]->value.get();
    def.option = d;
    define_modules_.push_back(std::move(m));
    defines_[name] = def;  // a later -D of the same name wins
  }
}

void Checker::report_unused_defines() {
  for (auto& [name, d] : defines_)
    if (!d.used) diag_.error(d.range, "-D " + name + ": the program has no module constant named '" + name + "'");
}

namespace {

// A docstring's text as PEP 257's trim (Python's inspect.cleandoc) gives it: the first line
// without its leading blanks, the common indentation of the other lines removed, and blank lines
// at the start and end dropped.
std::string clean_docstring(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t at = 0;;) {
    size_t nl = text.find('\n', at);
    lines.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  size_t indent = std::string::npos;
  for (size_t i = 1; i < lines.size(); ++i)
    if (size_t p = lines[i].find_first_not_of(' '); p != std::string::npos) indent = std::min(indent, p);
  lines[0].erase(0, std::min(lines[0].size(), lines[0].find_first_not_of(' ')));
  for (size_t i = 1; i < lines.size(); ++i) lines[i].erase(0, std::min(indent, lines[i].size()));
  for (std::string& l : lines) l.erase(l.find_last_not_of(' ') + 1);
  size_t first = 0, last = lines.size();
  while (first < last && lines[first].empty()) ++first;
  while (last > first && lines[last - 1].empty()) --last;
  std::string doc;
  for (size_t i = first; i < last; ++i) doc += (i == first ? "" : "\n") + lines[i];
  return doc;
}

}  // namespace

std::string Checker::doc_comment(const Stmt& def) const {
  // A docstring (a string as the body's first statement) wins; else the comment block right
  // above the decorator or `def`.
  if (!def.body.empty() && def.body[0]->kind == StmtKind::Expr && def.body[0]->value->kind == ExprKind::String)
    return clean_docstring(def.body[0]->value->text);
  const SourceFile& f = sm_.file(def.range.file);
  uint32_t line = def.decorators.empty() ? def.range.begin.line : def.decorators[0]->range.begin.line;
  std::vector<std::string> lines;
  while (line > 1) {
    std::string_view t = f.line_text(--line);
    size_t p = t.find_first_not_of(' ');
    if (p == std::string_view::npos || t[p] != '#') break;
    std::string_view body = t.substr(p + 1);
    if (!body.empty() && body[0] == ' ') body.remove_prefix(1);
    lines.insert(lines.begin(), std::string(body));
  }
  std::string doc;
  for (const std::string& l : lines) doc += (doc.empty() ? "" : "\n") + l;
  return doc;
}

void Checker::check_kernel(ModuleScope& ms, Stmt& def) {
  out_.kernels.emplace_back();
  KernelInfo& k = out_.kernels.back();
  k.def = &def;
  k.name = def.name;
  k.doc = doc_comment(def);
  if (def.target) diag_.error(def.target->range, "a kernel returns nothing; remove the '->' annotation");
  for (size_t i = 1; i < def.decorators.size(); ++i)
    diag_.error(def.decorators[i]->range, "a kernel takes exactly one decorator, @kernel(...)");

  FunctionScope fn;
  fn.def = nullptr;
  FunctionScope* saved_fn = fn_;
  KernelInfo* saved_kernel = kernel_;
  ModuleScope* saved_module = module_;
  fn_ = &fn;
  kernel_ = &k;
  module_ = &ms;
  inlined_calls_ = 0;
  check_kernel_params(def, k);
  check_kernel_decorator(*def.decorators[0], k);
  check_block(def.body);
  fn_ = saved_fn;
  kernel_ = saved_kernel;
  module_ = saved_module;
}

void Checker::check_kernel_params(Stmt& def, KernelInfo& k) {
  std::map<std::string, SourceRange> seen;
  auto declare = [&](const std::string& name, const SourceRange& r) {
    auto [it, fresh] = seen.try_emplace(name, r);
    if (!fresh) {
      Diagnostic& d = diag_.error(r, "duplicate name '" + name + "' in the kernel signature");
      DiagnosticEngine::note(d, it->second, "'" + name + "' first declared here");
    }
    return fresh;
  };
  for (size_t pi = 0; pi < def.params.size(); ++pi) {
    Param& p = def.params[pi];
    if (p.default_value)
      diag_.error(p.default_value->range, "kernel parameters cannot have default values");
    // A parameter whose type is missing or wrong is still bound, poisoned, so that its uses in
    // the body report nothing more.
    auto poison = [&] {
      LocalVar lv;
      lv.id = var_id(p.name);
      lv.value = Value::error();
      lv.def = p.range;
      fn_->vars.set(p.name, lv);
    };
    if (!p.annotation) {
      diag_.error(p.range, "kernel parameter '" + p.name + "' needs a type: an array such as '" + p.name +
                               ": f32[n]' or a scalar such as '" + p.name + ": i32'");
      poison();
      continue;
    }
    declare(p.name, p.range);
    KernelParam kp;
    kp.name = p.name;
    kp.range = p.range;
    Expr& ann = *p.annotation;
    Expr* dtype_expr = ann.kind == ExprKind::Subscript ? ann.args[0].get() : &ann;
    FunctionScope* saved = fn_;
    fn_ = nullptr;  // annotations are evaluated among module names only
    check_expr(*dtype_expr);
    std::optional<DType> dt = const_dtype(dtype_expr, "a parameter's element type");
    fn_ = saved;
    if (!dt) {
      poison();
      continue;
    }
    kp.dtype = *dt;
    kp.var = var_id(p.name);
    Value pv;
    if (ann.kind == ExprKind::Subscript) {
      auto arr = std::make_unique<ArrayParam>();
      arr->name = p.name;
      arr->dtype = *dt;
      arr->index = int(pi);
      bool bad_dim = false;
      for (size_t i = 1; i < ann.args.size(); ++i) {
        Expr& d = *ann.args[i];
        ArrayDim dim;
        const Global* g = d.kind == ExprKind::Name ? lookup_global(d.name, *module_, d.range) : nullptr;
        if (d.kind == ExprKind::Name && !(g && g->kind == Global::Kind::Constant)) {
          dim.symbol = d.name;
          auto it = std::find_if(k.dims.begin(), k.dims.end(), [&](const DimSymbol& s) { return s.name == d.name; });
          if (it == k.dims.end()) {
            bool clash = std::any_of(def.params.begin(), def.params.end(), [&](const Param& q) { return q.name == d.name; });
            if (clash) {
              diag_.error(d.range, "dimension symbol '" + d.name + "' has the name of a kernel parameter");
            } else if (is_predeclared(d.name)) {
              diag_.error(d.range, "dimension symbol '" + d.name + "' has a predeclared name (a dtype or built-in)");
            } else {
              DimSymbol s{d.name, d.range, var_id(d.name)};
              k.dims.push_back(s);
              LocalVar lv;
              lv.id = s.var;
              lv.value = Value::make_scalar(DType::I64);
              lv.def = d.range;
              fn_->vars.set(d.name, lv);
            }
          }
        } else if (std::string sym = extent_symbol(d); !sym.empty()) {
          report_derived_extent(def, p, d, sym);
          bad_dim = true;
          continue;
        } else {
          FunctionScope* saved2 = fn_;
          fn_ = nullptr;
          check_expr(d);
          std::optional<int64_t> c = const_int(&d, "an array dimension");
          fn_ = saved2;
          if (!c || *c < 0) {
            if (c) diag_.error(d.range, fmt::format("array dimension {} is negative", *c));
            bad_dim = true;
            continue;
          }
          dim.constant = *c;
        }
        d.value = dim.symbol.empty() ? Value::make_const(DType::I64, Scalar{dim.constant, 0})
                                     : Value::make_scalar(DType::I64);
        arr->dims.push_back(dim);
      }
      if (bad_dim) {
        // Reported: the array's uses are not checked against a rank it does not have.
        LocalVar lv;
        lv.id = kp.var;
        lv.value = Value::error();
        lv.def = p.range;
        fn_->vars.set(p.name, lv);
        continue;
      }
      kp.is_array = true;
      kp.array = arr.get();
      pv.kind = ValueKind::Array;
      pv.array = arr.get();
      k.arrays.push_back(std::move(arr));
    } else {
      if (is_restricted(*dt)) {
        diag_.error(ann.range, "scalar parameters cannot have dtype " + std::string(dtype_name(*dt)) +
                                   "; pass f32 and convert with astype");
        continue;
      }
      pv = Value::make_scalar(*dt);
    }
    ann.value = pv;
    LocalVar lv;
    lv.id = kp.var;
    lv.value = pv;
    lv.def = p.range;
    fn_->vars.set(p.name, lv);
    k.params.push_back(kp);
  }
  for (const DimSymbol& s : k.dims)
    if (seen.count(s.name) == 0) seen[s.name] = s.first;
}

std::string Checker::extent_symbol(const Expr& e) {
  if (e.kind == ExprKind::Name) {
    bool known = lookup_global(e.name, *module_, e.range) || parse_dtype(e.name) || find_builtin(e.name) ||
                 e.name == "inf" || e.name == "nan";
    return known ? "" : e.name;
  }
  // `mod.C`: only the base can be a name of its own.
  size_t n = e.kind == ExprKind::Attribute ? std::min<size_t>(e.args.size(), 1) : e.args.size();
  for (size_t i = 0; i < n; ++i)
    if (e.args[i])
      if (std::string s = extent_symbol(*e.args[i]); !s.empty()) return s;
  for (const Keyword& k : e.kwargs)
    if (k.value)
      if (std::string s = extent_symbol(*k.value); !s.empty()) return s;
  return "";
}

void Checker::report_derived_extent(const Stmt& def, const Param& p, const Expr& extent, const std::string& symbol) {
  Diagnostic& d = diag_.error(extent.range, "an extent computed from '" + symbol +
                                                "' is not supported: each extent is one dimension symbol or a constant");
  // The workaround, spelled with this parameter: a symbol of its own for the extent, related to
  // the others by an assert (checked at run time, docs/language.md §7.10).
  std::set<std::string> taken;
  std::function<void(const Expr&)> collect = [&](const Expr& e) {
    if (e.kind == ExprKind::Name) taken.insert(e.name);
    for (const ExprPtr& a : e.args)
      if (a) collect(*a);
  };
  for (const Param& q : def.params) {
    taken.insert(q.name);
    if (q.annotation) collect(*q.annotation);
  }
  std::string fresh;
  for (const char* c : {"N", "E", "L", "S", "W", "R", "N2", "E2"})
    if (!taken.count(c)) {
      fresh = c;
      break;
    }
  const std::string& text = sm_.file(extent.range.file).text;
  const SourceRange& ann = p.annotation->range;
  bool one_line = ann.begin.line == ann.end.line && ann.end.offset - ann.begin.offset < 80;
  if (fresh.empty() || !one_line) {
    DiagnosticEngine::note(d, extent.range, "give this extent a symbol of its own and assert how it relates to '" +
                                                symbol + "' in the kernel's body");
    return;
  }
  std::string expr = text.substr(extent.range.begin.offset, extent.range.end.offset - extent.range.begin.offset);
  std::string declared = p.name + ": " + text.substr(ann.begin.offset, extent.range.begin.offset - ann.begin.offset) +
                         fresh + text.substr(extent.range.end.offset, ann.end.offset - extent.range.end.offset);
  DiagnosticEngine::note(d, extent.range, "give this extent a symbol of its own and assert how it relates: '" +
                                              declared + "' and, in the body, 'assert " + fresh + " == " + expr +
                                              "' (checked at run time)");
}

bool Checker::is_by_target(const Expr& e) {
  return e.kind == ExprKind::Call && e.args[0]->kind == ExprKind::Name && e.args[0]->name == "by_target";
}

void Checker::check_by_target(Expr& call, const std::string& option,
                              const std::function<std::optional<int>(Expr&)>& value, int& plain,
                              std::vector<TargetValue>& out) {
  if (call.args.size() > 1) {
    diag_.error(call.args[1]->range, "by_target takes arch=value keywords: by_target(sm_90=4, default=2)");
    return;
  }
  if (call.kwargs.empty()) {
    diag_.error(call.range, "by_target() needs at least one arch=value: by_target(sm_90=4, default=2)");
    return;
  }
  std::set<std::string> seen;
  // Arch keys are checked against -arch's own table by the driver (check_target_keys).
  for (Keyword& kw : call.kwargs) {
    if (!seen.insert(kw.name).second) {
      diag_.error(kw.name_range, "'" + kw.name + "' is given twice in by_target");
      continue;
    }
    std::optional<int> v = value(*kw.value);
    if (!v) continue;
    if (kw.name == "default")
      plain = *v;
    else
      out.push_back({option, kw.name, *v, SourceRange{kw.name_range.file, kw.name_range.begin, kw.value->range.end}});
  }
}

void Checker::check_kernel_decorator(Expr& dec, KernelInfo& k) {
  if (dec.kind != ExprKind::Call) {
    diag_.error(dec.range, "@kernel needs a grid: @kernel(grid=(cdiv(n, TILE),))");
    return;
  }
  BoundArgs a;
  if (!bind_args(*find_builtin("kernel"), dec, a)) return;
  // The options follow grid= in the decorator's keywords, in the table's order (kernel_options.h).
  std::span<const KernelOptionInfo> options = kernel_options();
  for (size_t i = 0; i < options.size(); ++i)
    if (Expr* e = a.get(i + 1)) check_kernel_option(options[i], *e, k.options);
  if (a.get(0)) check_grid(*a.get(0), k);
  if (Expr* e = a.get(options.size() + 1)) check_configs(*e, k);
}

void Checker::check_configs(Expr& list, KernelInfo& k) {
  const char* form = "configs= takes a list of config(...) entries: configs=[config(BM=128, BN=256), config(BM=64)]";
  if (list.kind != ExprKind::List || list.args.empty()) {
    diag_.error(list.range, form);
    return;
  }
  std::set<std::string> labels;
  for (ExprPtr& entry : list.args) {
    Expr& call = *entry;
    if (call.kind != ExprKind::Call || call.args[0]->kind != ExprKind::Name || call.args[0]->name != "config") {
      diag_.error(call.range, form);
      continue;
    }
    if (call.args.size() > 1) {
      diag_.error(call.args[1]->range, "config takes NAME=value keywords: config(BM=128, num_warps=8)");
      continue;
    }
    if (call.kwargs.empty()) {
      diag_.error(call.range, "config() needs at least one NAME=value: config(BM=128, num_warps=8)");
      continue;
    }
    KernelConfig c;
    c.range = call.range;
    if (check_config(call, c)) {
      if (!labels.insert(c.label).second)
        diag_.error(call.range, "configuration (" + c.label + ") is given twice in configs=");
      k.configs.push_back(std::move(c));
    }
  }
}

bool Checker::check_config(Expr& call, KernelConfig& c) {
  std::span<const KernelOptionInfo> options = kernel_options();
  const std::string& text = sm_.file(call.range.file).text;
  std::set<std::string> seen;
  bool ok = true;
  for (Keyword& kw : call.kwargs) {
    std::string value_text = text.substr(kw.value->range.begin.offset, kw.value->range.end.offset - kw.value->range.begin.offset);
    c.label += (c.label.empty() ? "" : ", ") + kw.name + "=" + value_text;
    if (!seen.insert(kw.name).second) {
      diag_.error(kw.name_range, "'" + kw.name + "' is given twice in config");
      ok = false;
      continue;
    }
    auto option = std::find_if(options.begin(), options.end(), [&](const KernelOptionInfo& o) { return kw.name == o.name; });
    if (option != options.end()) {
      if (is_by_target(*kw.value)) {
        diag_.error(kw.value->range, "by_target(...) cannot be a configuration's value: give the option by_target "
                                     "in @kernel(...), or one value per configuration");
        ok = false;
        continue;
      }
      KernelOptions scratch;
      int errors = diag_.error_count();
      check_kernel_option(*option, *kw.value, scratch);
      if (diag_.error_count() != errors) {
        ok = false;
        continue;
      }
      c.options.push_back({size_t(option - options.begin()), scratch.*option->field});
      continue;
    }
    auto global = module_->globals.find(kw.name);
    if (global == module_->globals.end() || global->second.kind != Global::Kind::Constant) {
      diag_.error(kw.name_range, "'" + kw.name + "' is not a module constant of this file or a @kernel option: a "
                                 "configuration sets constants (as -D does) and the options " + by_target_option_list() +
                                 ", persistent=, cluster=, consumers=, pingpong=, split_k=");
      ok = false;
      continue;
    }
    if (global->second.value.is_error()) {
      ok = false;
      continue;
    }
    Value v = check_expr(*kw.value);
    if (v.is_error()) {
      ok = false;
      continue;
    }
    const Value& want = global->second.value;
    bool int_for_float = const_kind(want) == "float" && const_kind(v) == "int";
    if (!is_constant_value(v) || (const_kind(v) != const_kind(want) && !int_for_float)) {
      Diagnostic& d = diag_.error(kw.value->range, "config " + kw.name + "=: '" + kw.name + "' is " +
                                                       (const_kind(want) == "int" ? "an " : "a ") + const_kind(want) +
                                                       " constant, but this value is " + describe(v));
      DiagnosticEngine::note(d, global->second.range, "'" + kw.name + "' defined here");
      ok = false;
      continue;
    }
    // -D pins a constant: a configuration that gives it another value is left out.
    if (defines_.count(kw.name) && const_text(v) != const_text(want)) c.pinned_out = true;
    // The value as -D takes it: its printed constant (the expression may name constants that the
    // module defines after this one), or the expression as written for a float (exact digits).
    c.defines.push_back(kw.name + "=" + (const_kind(v).find("float") == std::string::npos ? const_text(v) : value_text));
  }
  return ok;
}

void Checker::check_kernel_option(const KernelOptionInfo& option, Expr& e, KernelOptions& out) {
  int& field = out.*option.field;
  if (option.type == OptionType::Flag) {
    check_expr(e);
    if (!e.value.is_error() && (!e.value.is_const() || e.value.tile.dtype != DType::Bool))
      diag_.error(e.range, fmt::format("{}= must be the constant True or False", option.name));
    else if (!e.value.is_error())
      field = e.value.constant->i ? 1 : 0;
    return;
  }
  const OptionRule& rule = option.rule;
  auto value = [&](Expr& x) -> std::optional<int> {
    check_expr(x);
    if (x.value.is_const() && x.value.tile.dtype == DType::Bool) {
      diag_.error(x.range, fmt::format("{}= must be an integer, not a bool", option.name));
      return std::nullopt;
    }
    std::optional<int64_t> v = const_int(&x, "a @kernel option");
    if (!v) return std::nullopt;
    bool power = *v > 0 && (*v & (*v - 1)) == 0;
    if (*v < rule.lo || *v > rule.hi || (rule.powers_of_two && !power)) {
      diag_.error(x.range, fmt::format("{}={} is not allowed: it must be {}", option.name, *v, rule.text()));
      return std::nullopt;
    }
    if (rule.refused && *v == rule.refused) {
      diag_.error(x.range, fmt::format("{}={} is not allowed: it must be {}", option.name, *v, rule.refused_allowed));
      return std::nullopt;
    }
    return int(*v);
  };
  if (option.by_target && is_by_target(e)) {
    check_by_target(e, option.name, value, field, out.by_target);
    return;
  }
  if (std::optional<int> v = value(e)) field = *v;
}

void Checker::check_grid(Expr& grid, KernelInfo& k) {
  k.grid_range = grid.range;
  std::vector<Expr*> dims;
  if (grid.kind == ExprKind::Tuple)
    for (ExprPtr& e : grid.args) dims.push_back(e.get());
  else
    dims.push_back(&grid);
  if (dims.empty() || dims.size() > 3) {
    diag_.error(grid.range, fmt::format("grid= takes 1 to 3 dimensions, got {}", dims.size()));
    return;
  }
  k.grid_axes = dims.size();
  in_grid_ = true;
  for (size_t axis = 0; axis < dims.size(); ++axis) {
    Expr* d = dims[axis];
    Value v = check_expr(*d);
    if (v.is_error()) continue;
    if (!v.is_scalar() || !is_integer(v.tile.dtype)) {
      diag_.error(d->range, "a grid dimension must be an integer expression, not " + describe(v));
      continue;
    }
    // A constant extent is checked now against the launch limits of docs §3.5.
    if (v.constant) {
      int64_t limit = axis == 0 ? INT64_C(0x7fffffff) : 65535;
      bool negative = is_signed_int(v.tile.dtype) && v.constant->i < 0;
      if (negative || uint64_t(v.constant->i) > uint64_t(limit)) {
        diag_.error(d->range, negative ? fmt::format("grid extent {} of axis {} is negative", v.constant->i, axis)
                                       : fmt::format("grid extent {} of axis {} is more than the limit {}",
                                                     uint64_t(v.constant->i), axis, limit));
        continue;
      }
    }
    k.grid.push_back(d);
  }
  in_grid_ = false;
  if (grid.kind == ExprKind::Tuple && k.grid.size() == dims.size()) {
    grid.value.kind = ValueKind::Tuple;
    for (Expr* d : dims) grid.value.elems.push_back(d->value);
  }
}

}  // namespace tilec
