// PTX parsing and integer semantics for the ring model (ring_model_ptx.h). Only what the
// emitter writes: one instruction per line, `@%p`/`@!%p` guards, labels `$L_name:`, operands
// registers, immediates (decimal, 0x, 0f/0d float bits), symbols, special registers, `[base+off]`,
// `[map, {coords}]`, `{vectors}`, `_`.
#include "ring_model_ptx.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace tilec::testing::ptx {
namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Splits at commas outside {} and [].
std::vector<std::string> split_operands(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

struct Parser {
  Entry& e;
  std::map<std::string, int> regs;

  int reg(const std::string& name) {
    auto [it, fresh] = regs.emplace(name, int(e.reg_names.size()));
    if (fresh) e.reg_names.push_back(name);
    return it->second;
  }

  bool operand(const std::string& s, Operand& o, std::string& error) {
    if (s.empty()) return error = "empty operand", false;
    if (s == "_") return o.kind = Kind::Sink, true;
    if (s.find('|') != std::string::npos) {  // %r1|%p1
      o.kind = Kind::Vec;
      std::stringstream in(s);
      for (std::string part; std::getline(in, part, '|');) {
        o.elems.emplace_back();
        if (!operand(trim(part), o.elems.back(), error)) return false;
      }
      return true;
    }
    if (s.front() == '{') {
      o.kind = Kind::Vec;
      for (const std::string& p : split_operands(s.substr(1, s.size() - 2))) {
        o.elems.emplace_back();
        if (!operand(p, o.elems.back(), error)) return false;
      }
      return true;
    }
    if (s.front() == '[') {
      o.kind = Kind::Mem;
      std::vector<std::string> inner = split_operands(s.substr(1, s.size() - 2));
      std::string base = inner.at(0);
      if (inner.size() > 1) {
        Operand coords;
        if (!operand(inner[1], coords, error)) return false;
        o.elems = coords.elems;
      }
      size_t plus = base.find('+');
      if (plus != std::string::npos) {
        o.imm = uint64_t(std::strtoll(base.substr(plus + 1).c_str(), nullptr, 0));
        base = trim(base.substr(0, plus));
      }
      if (base.front() == '%') o.reg = reg(base);
      else o.name = base;
      return true;
    }
    if (s.front() == '%') {
      if (s.find('.') != std::string::npos || s == "%laneid" || s == "%warpid") {
        o.kind = Kind::Special;
        o.name = s;
      } else {
        o.kind = Kind::Reg;
        o.reg = reg(s);
      }
      return true;
    }
    if (s.front() == '-' || (s.front() >= '0' && s.front() <= '9')) {
      o.kind = Kind::Imm;
      if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'd' || s[1] == 'F' || s[1] == 'D'))
        o.imm = std::strtoull(s.c_str() + 2, nullptr, 16);
      else if (s.front() == '-')
        o.imm = uint64_t(std::strtoll(s.c_str(), nullptr, 0));
      else
        o.imm = std::strtoull(s.c_str(), nullptr, 0);
      return true;
    }
    o.kind = Kind::Sym;
    o.name = s;
    return true;
  }
};

}  // namespace

bool parse_entry(const std::string& module, const std::string& name, Entry& e, std::string& error) {
  e = Entry{};
  std::istringstream in(module);
  std::string line;
  int n = 0;
  bool header = false, body = false;
  Parser p{e, {}};
  std::map<std::string, int> labels;
  std::vector<std::pair<size_t, std::string>> branches;
  while (std::getline(in, line)) {
    ++n;
    std::string t = trim(line.substr(0, line.find("//")));
    if (t.empty()) continue;
    if (!header) {
      header = t.find(".entry " + name + "(") != std::string::npos;
      continue;
    }
    if (!body) {
      if (t.rfind(".param", 0) == 0) {
        std::string last = t.substr(t.find_last_of(' ') + 1);
        e.params.push_back(last.substr(0, last.find_first_of("[,")));
      } else if (t.rfind(".maxntid", 0) == 0) {
        e.max_threads = std::atoi(t.c_str() + 8);
      } else if (t == "{") {
        body = true;
      }
      continue;
    }
    if (t == "}") break;
    if (t.front() == '.') continue;  // .reg, .loc, .shared declarations
    if (t.back() == ':') {
      labels[t.substr(0, t.size() - 1)] = int(e.code.size());
      continue;
    }
    if (t.back() != ';') return error = "line " + std::to_string(n) + ": no ';': " + t, false;
    Insn insn;
    insn.line = n;
    insn.text = t;
    std::string rest = trim(t.substr(0, t.size() - 1));
    if (rest.front() == '@') {
      size_t sp = rest.find_first_of(" \t");
      std::string g = rest.substr(1, sp - 1);
      insn.pred_neg = g.front() == '!';
      insn.pred = p.reg(insn.pred_neg ? g.substr(1) : g);
      rest = trim(rest.substr(sp));
    }
    size_t sp = rest.find_first_of(" \t");
    insn.opcode = rest.substr(0, sp);
    std::stringstream parts(insn.opcode);
    for (std::string part; std::getline(parts, part, '.');) insn.parts.push_back(part);
    if (sp != std::string::npos)
      for (const std::string& s : split_operands(rest.substr(sp))) {
        insn.ops.emplace_back();
        if (!p.operand(s, insn.ops.back(), error)) return error = "line " + std::to_string(n) + ": " + error, false;
      }
    if (insn.parts[0] == "bra") branches.emplace_back(e.code.size(), insn.ops.at(0).name);
    e.code.push_back(std::move(insn));
  }
  if (!body) return error = "no entry " + name, false;
  for (auto& [at, label] : branches) {
    auto it = labels.find(label);
    if (it == labels.end()) return error = "unknown label " + label, false;
    e.code[at].target = it->second;
  }
  return true;
}

Type type_of(const std::string& part) {
  Type t;
  if (part == "pred") {
    t.bits = 1;
    t.is_int = t.is_pred = true;
    return t;
  }
  if (part.size() < 2) return t;
  char c = part[0];
  int bits = std::atoi(part.c_str() + 1);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return t;
  if (part.find_first_not_of("0123456789", 1) != std::string::npos) return t;
  if (c == 'u' || c == 's' || c == 'b') {
    t.bits = bits;
    t.is_int = true;
    t.is_signed = c == 's';
  } else if (c == 'f') {
    t.bits = bits;  // a float: not computed
  }
  return t;
}

Type last_type(const Insn& in, Type* dst) {
  Type last, first;
  for (size_t i = 1; i < in.parts.size(); ++i) {
    Type t = type_of(in.parts[i]);
    if (t.bits == 0) continue;
    if (first.bits == 0) first = t;
    last = t;
  }
  if (dst) *dst = first;
  return last;
}

namespace {

uint64_t mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
int64_t sext(uint64_t v, int bits) {
  if (bits >= 64) return int64_t(v);
  uint64_t m = 1ull << (bits - 1);
  v &= mask(bits);
  return int64_t((v ^ m) - m);
}

}  // namespace

bool eval_scalar(const Insn& in, const std::vector<Val>& a, Val& out) {
  const std::string& op = in.parts[0];
  static const char* kOps[] = {"add", "sub", "mul", "mad", "div", "rem", "min", "max", "neg", "abs", "and", "or",
                               "xor", "not", "shl", "shr", "bfe", "cvt", "cvta", "setp", "selp"};
  bool ours = false;
  for (const char* k : kOps) ours = ours || op == k;
  if (!ours) return false;
  out = Val{};
  Type dst;
  Type t = last_type(in, &dst);
  bool wide = in.parts.size() > 1 && in.parts[1] == "wide";
  if (op == "cvta") t = Type{64, false, true, false};
  if (!t.is_int) return true;  // floats: unknown
  if (op == "cvt" && !dst.is_int) return true;
  for (const Val& v : a)
    if (!v.known) return true;
  auto u = [&](size_t i) { return a.at(i).v & mask(t.bits); };
  auto s = [&](size_t i) { return sext(a.at(i).v, t.bits); };
  int bits = wide ? 2 * t.bits : t.bits;
  uint64_t r = 0;
  if (op == "setp") {
    const std::string& cmp = in.parts.at(1);
    bool c = false;
    if (cmp == "eq") c = u(0) == u(1);
    else if (cmp == "ne") c = u(0) != u(1);
    else if (cmp == "lt") c = t.is_signed ? s(0) < s(1) : u(0) < u(1);
    else if (cmp == "le") c = t.is_signed ? s(0) <= s(1) : u(0) <= u(1);
    else if (cmp == "gt") c = t.is_signed ? s(0) > s(1) : u(0) > u(1);
    else if (cmp == "ge") c = t.is_signed ? s(0) >= s(1) : u(0) >= u(1);
    else if (cmp == "lo") c = u(0) < u(1);
    else if (cmp == "ls") c = u(0) <= u(1);
    else if (cmp == "hi") c = u(0) > u(1);
    else if (cmp == "hs") c = u(0) >= u(1);
    else return true;
    out = Val{c ? 1u : 0u, true};
    return true;
  }
  if (t.is_pred) {  // and/or/xor/not.pred
    bool x = a.at(0).v != 0, y = a.size() > 1 && a[1].v != 0;
    bool c = op == "and" ? x && y : op == "or" ? x || y : op == "xor" ? x != y : op == "not" ? !x : false;
    out = Val{c ? 1u : 0u, true};
    return true;
  }
  if (op == "add") r = u(0) + u(1);
  else if (op == "sub") r = u(0) - u(1);
  else if (op == "mul" || op == "mad") {
    if (in.parts.at(1) == "hi") {  // the high half of the double-width product
      unsigned __int128 p = t.is_signed ? (unsigned __int128)((__int128)s(0) * s(1)) : (unsigned __int128)u(0) * u(1);
      out = Val{uint64_t(p >> t.bits) & mask(t.bits), true};
      return true;
    }
    r = wide ? (t.is_signed ? uint64_t(s(0) * s(1)) : u(0) * u(1)) : u(0) * u(1);
    if (op == "mad") r += a.at(2).v;
  } else if (op == "div" || op == "rem") {
    if (u(1) == 0) return true;
    if (t.is_signed && s(1) == -1) r = op == "div" ? 0 - u(0) : 0;  // no INT_MIN / -1 overflow
    else if (t.is_signed) r = uint64_t(op == "div" ? s(0) / s(1) : s(0) % s(1));
    else r = op == "div" ? u(0) / u(1) : u(0) % u(1);
  } else if (op == "min") r = t.is_signed ? uint64_t(std::min(s(0), s(1))) : std::min(u(0), u(1));
  else if (op == "max") r = t.is_signed ? uint64_t(std::max(s(0), s(1))) : std::max(u(0), u(1));
  else if (op == "neg") r = 0 - u(0);
  else if (op == "abs") r = s(0) < 0 ? 0 - u(0) : u(0);
  else if (op == "and") r = u(0) & u(1);
  else if (op == "or") r = u(0) | u(1);
  else if (op == "xor") r = u(0) ^ u(1);
  else if (op == "not") r = ~u(0);
  else if (op == "shl") r = a.at(1).v >= uint64_t(t.bits) ? 0 : u(0) << a[1].v;
  else if (op == "shr") {
    uint64_t n = std::min<uint64_t>(a.at(1).v, uint64_t(t.bits));
    r = t.is_signed ? uint64_t(n >= uint64_t(t.bits) ? (s(0) < 0 ? -1 : 0) : s(0) >> n) : (n >= 64 ? 0 : u(0) >> n);
  } else if (op == "bfe") {
    uint64_t pos = a.at(1).v & 0xff, len = a.at(2).v & 0xff;
    if (t.is_signed || pos + len > uint64_t(t.bits)) return true;
    r = (u(0) >> pos) & mask(int(len));
  } else if (op == "cvt") {
    // dst from the source type: sign- or zero-extend from the source width, then truncate.
    r = t.is_signed ? uint64_t(s(0)) : u(0);
    bits = dst.bits;
  } else if (op == "cvta") {
    r = a.at(0).v;
  } else if (op == "selp") {
    r = a.at(2).v ? u(0) : u(1);
  }
  out = Val{r & mask(bits), true};
  return true;
}

}  // namespace tilec::testing::ptx
