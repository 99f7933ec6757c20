// Device assert and printf through the CUDA device runtime's __assertfail and vprintf, which
// ptxas resolves itself (they are the same calls nvcc emits for assert() and printf()).
// A failed assert stops the kernel; the launch then reports CUDA_ERROR_ASSERT (language.md §6.12).
#include <filesystem>

#include "codegen/ptx/debug.h"

#include <fmt/format.h>

namespace tilec::codegen {

DebugEmitter::DebugEmitter(EmitContext& cx, ArithEmitter& arith) : FamilyEmitter(cx), arith_(arith) {
  for (const auto& [op, condition] : cx.k_.host_asserts) host_checked_.insert(op);
}

std::string DebugEmitter::string_constant(const std::string& text) {
  std::string name = fmt::format("tilec_str_{}_{}", cx_.entry_name_, strings_++);
  std::string bytes;
  for (unsigned char c : text) bytes += std::to_string(c) + ", ";
  globals_ += fmt::format(".global .align 1 .b8 {}[{}] = {{{}0}};\n", name, text.size() + 1, bytes);
  std::string r = b_.reg(RegClass::B64);
  b_.ins("mov.u64", {r, name});
  b_.ins("cvta.global.u64", {r, r});
  return r;
}

void DebugEmitter::emit_assert(const ir::Op& op) {
  // The launch stub checks asserts on extents before it takes the vectorized variant
  // (LoweredKernel::host_asserts): there they hold. Leaving them out keeps __assertfail, an external call,
  // out of the kernel, which otherwise costs an R2UR before every global load and store.
  if (cx_.o_.vectorized && host_checked_.count(&op)) return;
  uses_assertfail_ = true;
  // Every element of the condition must hold; a thread that sees a false one fails.
  const std::vector<std::string>& c = cx_.regs(op.operands[0]);
  std::string all = c[0];
  for (size_t i = 1; i < c.size(); ++i) {
    std::string t = b_.reg(RegClass::Pred);
    b_.ins("and.pred", {t, all, c[i]});
    all = t;
  }
  std::string file = "<unknown>", function = cx_.k_.fn->name;
  // The file's name without its folder, as the header names it: the bytes do not depend on how
  // the path was typed (a build by CMake with absolute paths and one by hand are the same).
  if (cx_.o_.sm && op.loc.valid()) file = std::filesystem::path(cx_.o_.sm->file(op.loc.file).path).filename().string();
  if (op.operands[0]->type.is_scalar()) {
    // The same in every thread: thread 0 reports it.
    std::string not0 = b_.reg(RegClass::Pred), t = b_.reg(RegClass::Pred);
    b_.ins("setp.ne.u32", {not0, cx_.tid_, "0"});
    b_.ins("or.pred", {t, all, not0});
    all = t;
  }
  std::string skip = b_.label_name("assert_ok");
  b_.ins_if(all, "bra", {skip});
  std::string msg = string_constant(op.text), f = string_constant(file), fn = string_constant(function);
  b_.raw("{");
  for (int i = 0; i < 5; ++i) b_.raw(fmt::format(".param .b{} tilec_assert_p{};", i == 2 ? 32 : 64, i));
  b_.ins("st.param.b64", {"[tilec_assert_p0]", msg});
  b_.ins("st.param.b64", {"[tilec_assert_p1]", f});
  b_.ins("st.param.b32", {"[tilec_assert_p2]", std::to_string(op.loc.begin.line)});
  b_.ins("st.param.b64", {"[tilec_assert_p3]", fn});
  b_.ins("st.param.b64", {"[tilec_assert_p4]", "1"});
  b_.raw("call.uni __assertfail, (tilec_assert_p0, tilec_assert_p1, tilec_assert_p2, tilec_assert_p3, tilec_assert_p4);");
  b_.raw("}");
  b_.label(skip);
}

void DebugEmitter::emit_print(const ir::Op& op) {
  uses_vprintf_ = true;
  // printf's argument buffer: each value at its natural alignment, floats promoted to double,
  // narrow integers to int (C's default argument promotions).
  int64_t size = 0;
  std::vector<std::pair<int64_t, std::string>> stores;  // offset, "type value"
  std::vector<std::string> types, values;
  for (const ir::Value* v : op.operands) {
    DType d = v->type.tile.dtype;
    std::string r = cx_.regs(v)[0];
    if (is_float(d)) {
      std::string x = d == DType::F64 ? r : arith_.cast_reg(r, d, DType::F64);
      size = (size + 7) / 8 * 8;
      stores.push_back({size, "st.local.b64|" + x});
      size += 8;
    } else if (dtype_bits(d) == 64) {
      size = (size + 7) / 8 * 8;
      stores.push_back({size, "st.local.b64|" + r});
      size += 8;
    } else {
      std::string x = d == DType::Bool ? arith_.cast_reg(r, DType::Bool, DType::I32) : r;
      size = (size + 3) / 4 * 4;
      stores.push_back({size, "st.local.b32|" + x});
      size += 4;
    }
  }
  std::string buf = fmt::format("tilec_printf_{}", strings_);
  entry_decls_ += fmt::format("\t.local .align 8 .b8 {}[{}];\n", buf, std::max<int64_t>(size, 8));
  // Scalars are the same in every thread: thread 0 of the CTA prints.
  std::string first = b_.reg(RegClass::Pred), skip = b_.label_name("print_done");
  b_.ins("setp.ne.u32", {first, cx_.tid_, "0"});
  b_.ins_if(first, "bra", {skip});
  for (auto& [off, s] : stores) {
    size_t bar = s.find('|');
    b_.ins(s.substr(0, bar), {fmt::format("[{}+{}]", buf, off), s.substr(bar + 1)});
  }
  std::string fmtp = string_constant(op.text);
  std::string argp = b_.reg(RegClass::B64);
  b_.ins("mov.u64", {argp, buf});
  b_.ins("cvta.local.u64", {argp, argp});
  b_.raw("{");
  b_.raw(".param .b64 tilec_printf_p0;");
  b_.raw(".param .b64 tilec_printf_p1;");
  b_.raw(".param .b32 tilec_printf_ret;");
  b_.ins("st.param.b64", {"[tilec_printf_p0]", fmtp});
  b_.ins("st.param.b64", {"[tilec_printf_p1]", argp});
  b_.raw("call.uni (tilec_printf_ret), vprintf, (tilec_printf_p0, tilec_printf_p1);");
  b_.raw("}");
  b_.label(skip);
}

}  // namespace tilec::codegen
