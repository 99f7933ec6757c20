// AST construction, deep copy, and the --emit=ast printer.
#include "frontend/ast.h"

#include <fmt/format.h>

namespace tilec {

Expr::~Expr() {
  std::vector<ExprPtr> work;
  auto take = [&work](Expr& e) {
    for (ExprPtr& a : e.args)
      if (a) work.push_back(std::move(a));
    for (Keyword& k : e.kwargs)
      if (k.value) work.push_back(std::move(k.value));
  };
  take(*this);
  while (!work.empty()) {
    ExprPtr e = std::move(work.back());
    work.pop_back();
    take(*e);
  }  // each `e` dies here with no children left
}

ExprPtr make_expr(ExprKind k, SourceRange r) { return std::make_unique<Expr>(k, r); }
StmtPtr make_stmt(StmtKind k, SourceRange r) { return std::make_unique<Stmt>(k, r); }

namespace {

ExprPtr clone_opt(const ExprPtr& e) { return e ? clone(*e) : nullptr; }

StmtList clone_list(const StmtList& l) {
  StmtList out;
  out.reserve(l.size());
  for (const StmtPtr& s : l) out.push_back(clone(*s));
  return out;
}

}  // namespace

ExprPtr clone(const Expr& e) {
  ExprPtr c = make_expr(e.kind, e.range);
  c->op = e.op;
  c->name = e.name;
  c->text = e.text;
  c->int_value = e.int_value;
  c->overflow = e.overflow;
  c->float_value = e.float_value;
  for (const ExprPtr& a : e.args) c->args.push_back(clone_opt(a));
  c->cmp_ops = e.cmp_ops;
  for (const Keyword& k : e.kwargs) c->kwargs.push_back({k.name, k.name_range, clone_opt(k.value)});
  return c;
}

StmtPtr clone(const Stmt& s) {
  StmtPtr c = make_stmt(s.kind, s.range);
  c->op = s.op;
  c->name = s.name;
  c->target = clone_opt(s.target);
  c->value = clone_opt(s.value);
  c->message = clone_opt(s.message);
  c->body = clone_list(s.body);
  c->orelse = clone_list(s.orelse);
  for (const Param& p : s.params)
    c->params.push_back({p.name, p.range, clone_opt(p.annotation), clone_opt(p.default_value)});
  for (const ExprPtr& d : s.decorators) c->decorators.push_back(clone(*d));
  return c;
}

namespace {

const char* expr_kind_name(ExprKind k) {
  switch (k) {
    case ExprKind::Name: return "name";
    case ExprKind::Int: return "int";
    case ExprKind::Float: return "float";
    case ExprKind::Bool: return "bool";
    case ExprKind::None: return "none";
    case ExprKind::String: return "string";
    case ExprKind::Tuple: return "tuple";
    case ExprKind::List: return "list";
    case ExprKind::Unary: return "unary";
    case ExprKind::Not: return "not";
    case ExprKind::Binary: return "binary";
    case ExprKind::BoolOp: return "boolop";
    case ExprKind::Compare: return "compare";
    case ExprKind::IfExp: return "ifexp";
    case ExprKind::Call: return "call";
    case ExprKind::Attribute: return "attr";
    case ExprKind::Subscript: return "subscript";
    case ExprKind::Slice: return "slice";
  }
  return "?";
}

const char* stmt_kind_name(StmtKind k) {
  switch (k) {
    case StmtKind::Expr: return "expr";
    case StmtKind::Assign: return "assign";
    case StmtKind::AugAssign: return "augassign";
    case StmtKind::If: return "if";
    case StmtKind::For: return "for";
    case StmtKind::While: return "while";
    case StmtKind::Break: return "break";
    case StmtKind::Continue: return "continue";
    case StmtKind::Pass: return "pass";
    case StmtKind::Return: return "return";
    case StmtKind::Assert: return "assert";
    case StmtKind::Import: return "import";
    case StmtKind::Def: return "def";
  }
  return "?";
}

// Escapes a string literal for printing.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += char(c);
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c >= 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += char(c);
  }
  return out + "\"";
}

class Printer {
 public:
  Printer(bool typed) : typed_(typed) {}
  std::string out;

  void line(int depth, const std::string& text, const SourceRange& r) {
    out += std::string(depth * 2, ' ') + text + fmt::format(" @{}:{}", r.begin.line, r.begin.col);
  }

  void expr(const Expr& e, int depth, const std::string& label = "") {
    std::string head = label + expr_kind_name(e.kind);
    switch (e.kind) {
      case ExprKind::Name: head += " " + e.name; break;
      case ExprKind::Attribute: head += " ." + e.name; break;
      case ExprKind::Int: head += " " + e.text; break;
      case ExprKind::Float: head += " " + e.text; break;
      case ExprKind::Bool: head += e.int_value ? " True" : " False"; break;
      case ExprKind::String: head += " " + quoted(e.text); break;
      case ExprKind::Unary:
      case ExprKind::Binary:
      case ExprKind::BoolOp: head += std::string(" ") + op_spelling(e.op); break;
      case ExprKind::Compare:
        for (Op op : e.cmp_ops) head += std::string(" ") + op_spelling(op);
        break;
      default: break;
    }
    line(depth, head, e.range);
    if (typed_ && e.value.kind != ValueKind::Error) out += " : " + e.value.str();
    out += "\n";
    for (const ExprPtr& a : e.args) {
      if (a) expr(*a, depth + 1);
      else out += std::string((depth + 1) * 2, ' ') + "<empty>\n";
    }
    for (const Keyword& k : e.kwargs) expr(*k.value, depth + 1, k.name + "=");
    if (e.inlined && typed_) stmt(*e.inlined, depth + 1);
  }

  void stmts(const StmtList& l, int depth) {
    for (const StmtPtr& s : l) stmt(*s, depth);
  }

  void stmt(const Stmt& s, int depth) {
    std::string head = stmt_kind_name(s.kind);
    if (s.kind == StmtKind::AugAssign) head += std::string(" ") + op_spelling(s.op) + "=";
    if (!s.name.empty()) head += " " + s.name;
    line(depth, head, s.range);
    out += "\n";
    for (const ExprPtr& d : s.decorators) expr(*d, depth + 1, "decorator ");
    for (const Param& p : s.params) {
      line(depth + 1, "param " + p.name, p.range);
      out += "\n";
      if (p.annotation) expr(*p.annotation, depth + 2, "annotation ");
      if (p.default_value) expr(*p.default_value, depth + 2, "default ");
    }
    if (s.target) expr(*s.target, depth + 1, s.kind == StmtKind::Def ? "returns " : "target ");
    if (s.value) expr(*s.value, depth + 1);
    if (s.message) expr(*s.message, depth + 1, "message ");
    if (!s.body.empty()) stmts(s.body, depth + 1);
    if (!s.orelse.empty()) {
      out += std::string((depth + 1) * 2, ' ') + "else\n";
      stmts(s.orelse, depth + 2);
    }
  }

 private:
  bool typed_;
};

}  // namespace

std::string print_ast(const Module& m, const SourceManager& sm, bool typed) {
  Printer p(typed);
  p.out = "module " + m.name + " (" + sm.file(m.file).path + ")\n";
  p.stmts(m.body, 1);
  return p.out;
}

}  // namespace tilec
