// The tile IR core (ir/ir.h): the builder's helpers, the exact text of the printer, and the
// verifier catching malformed IR (bad yields, type mismatches, uses before definitions).
#include <catch2/catch.hpp>

#include <string>

#include "frontend/builtins.h"
#include "ir/build_env.h"
#include "ir/ir.h"
#include "ir/replacements.h"
#include "ir/test_kernel.h"
#include "ir/users.h"

using namespace tilec::ir;
using tilec::DType;
using tilec::Scalar;
using tilec::test::Kernel;

TEST_CASE("the printer numbers values in program order and names parameters", "[ir]") {
  Kernel k;
  Value* zero = k.c_i32(0);
  Value* t = k.load({64}, zero);
  Value* sum = k.b.binary(OpKind::Add, t, k.b.broadcast_to(k.s, {64}, k.loc), k.loc);
  k.b.create(OpKind::Store, k.loc, {k.arr, sum, zero}, {});
  CHECK(print(k.f) ==
        "kernel @k(%x: array<f32[n]>, %n: i64, %s: f32, %i: i32) {\n"
        "  %0 = constant 0 : i32\n"
        "  %1 = load %x[%0] padding 0.0 : tile<64xf32>\n"
        "  %2 = splat %s : tile<64xf32>\n"
        "  %3 = add %1, %2 : tile<64xf32>\n"
        "  store %3, %x[%0]\n"
        "}\n");
  CHECK(verify(k.f).empty());
}

TEST_CASE("the printer shows regions, iteration arguments and results", "[ir]") {
  Kernel k;
  Value* init = k.b.broadcast_to(k.b.constant(DType::F32, Scalar{0, 0.0}, k.loc), {16}, k.loc);
  Op* loop = k.loop(init, [&](Value* iv, Value* a) {
    Value* c = k.b.cmp(tilec::Op::Lt, iv, k.c_i32(3), k.loc);
    Op* branch = k.b.create(OpKind::If, k.loc, {c}, {a->type});
    Block* then = k.b.new_block(branch);
    Block* other = k.b.new_block(branch);
    Block* body = k.b.block();
    k.b.set_end(then);
    Value* twice = k.b.binary(OpKind::Add, a, a, k.loc);
    k.b.create(OpKind::Yield, k.loc, {twice}, {});
    k.b.set_end(other);
    k.b.create(OpKind::Yield, k.loc, {a}, {});
    k.b.set_end(body);
    return std::vector<Value*>{branch->result()};
  });
  k.b.create(OpKind::Store, k.loc, {k.arr, loop->result(), k.i}, {});
  CHECK(print(k.f) ==
        "kernel @k(%x: array<f32[n]>, %n: i64, %s: f32, %i: i32) {\n"
        "  %0 = constant 0.0 : f32\n"
        "  %1 = splat %0 : tile<16xf32>\n"
        "  %2 = constant 0 : i32\n"
        "  %3 = constant 1 : i32\n"
        "  %4 = for %5 = %2 to %i step %3 iter(%6 = %1) {\n"
        "    %7 = constant 3 : i32\n"
        "    %8 = cmp < %5, %7 : bool\n"
        "    %9 = if %8 {\n"
        "      %10 = add %6, %6 : tile<16xf32>\n"
        "      yield %10\n"
        "    } else {\n"
        "      yield %6\n"
        "    } : tile<16xf32>\n"
        "    yield %9\n"
        "  } : tile<16xf32>\n"
        "  store %4, %x[%i]\n"
        "}\n");
  CHECK(verify(k.f).empty());
}

TEST_CASE("printer notes: lines around ops and annotations, numbering unchanged", "[ir]") {
  // A later stage's notes (the lowered form's async copies) may name a value defined after the
  // line they print: every value keeps the number it has without notes.
  Kernel k;
  Value* init = k.b.broadcast_to(k.b.constant(DType::F32, Scalar{0, 0.0}, k.loc), {16}, k.loc);
  Value* loaded = nullptr;
  Op* loop = k.loop(init, [&](Value* iv, Value* a) {
    loaded = k.load({16}, iv);
    return std::vector<Value*>{k.b.binary(OpKind::Add, a, loaded, k.loc)};
  });
  k.b.create(OpKind::Store, k.loc, {k.arr, loop->result(), k.i}, {});
  PrintNotes notes;
  notes.before = [&](const Op& op, const ValueName& name) {
    return &op == loop ? std::vector<std::string>{"copy " + name(loaded) + " first 2"} : std::vector<std::string>{};
  };
  notes.after = [&](const Op& op, const ValueName&) {
    return &op == loop ? std::vector<std::string>{"wait_all", "barrier"} : std::vector<std::string>{};
  };
  notes.annotation = [&](const Op& op, const ValueName&) {
    return !op.results.empty() && op.results[0] == loaded ? std::string(" {stage}") : std::string();
  };
  CHECK(print(k.f, notes) ==
        "kernel @k(%x: array<f32[n]>, %n: i64, %s: f32, %i: i32) {\n"
        "  %0 = constant 0.0 : f32\n"
        "  %1 = splat %0 : tile<16xf32>\n"
        "  %2 = constant 0 : i32\n"
        "  %3 = constant 1 : i32\n"
        "  copy %7 first 2\n"
        "  %4 = for %5 = %2 to %i step %3 iter(%6 = %1) {\n"
        "    %7 = load %x[%5] padding 0.0 : tile<16xf32> {stage}\n"
        "    %8 = add %6, %7 : tile<16xf32>\n"
        "    yield %8\n"
        "  } : tile<16xf32>\n"
        "  wait_all\n"
        "  barrier\n"
        "  store %4, %x[%i]\n"
        "}\n");
}

TEST_CASE("the printer writes constants in their dtype", "[ir]") {
  Kernel k;
  k.b.constant(DType::F32, Scalar{0, 0.1}, k.loc);   // shortest text that reads back
  k.b.constant(DType::F64, Scalar{0, -0.0}, k.loc);  // the sign of zero is kept
  k.b.constant(DType::F32, Scalar{0, 1e20}, k.loc);
  k.b.constant(DType::F16, Scalar{0, -INFINITY}, k.loc);
  k.b.constant(DType::F32, Scalar{0, NAN}, k.loc);
  k.b.constant(DType::U64, Scalar{-1, 0}, k.loc);    // unsigned: all 64 bits set
  k.b.constant(DType::I8, Scalar{-128, 0}, k.loc);
  k.b.constant(DType::Bool, Scalar{1, 0}, k.loc);
  Op* ld = k.b.create(OpKind::Load, k.loc, {k.arr, k.i}, {Type::tile_of(DType::F32, {8, 4})});
  ld->order = {1, 0};
  ld->value = Scalar{0, -INFINITY};
  CHECK(print(k.f) ==
        "kernel @k(%x: array<f32[n]>, %n: i64, %s: f32, %i: i32) {\n"
        "  %0 = constant 0.1 : f32\n"
        "  %1 = constant -0.0 : f64\n"
        "  %2 = constant 1e+20 : f32\n"
        "  %3 = constant -inf : f16\n"
        "  %4 = constant nan : f32\n"
        "  %5 = constant 18446744073709551615 : u64\n"
        "  %6 = constant -128 : i8\n"
        "  %7 = constant true : bool\n"
        "  %8 = load %x[%i] order (1, 0) padding -inf : tile<8x4xf32>\n"
        "}\n");
}

TEST_CASE("broadcast_to adds leading unit dimensions, then stretches", "[ir]") {
  Kernel k;
  Value* row = k.load({32}, k.i);
  Value* same = k.b.broadcast_to(row, {32}, k.loc);
  CHECK(same == row);
  Value* padded = k.b.broadcast_to(row, {1, 32}, k.loc);
  REQUIRE(padded->def->kind == OpKind::Reshape);
  CHECK(padded->type.str() == "tile<1x32xf32>");
  Value* wide = k.b.broadcast_to(row, {16, 32}, k.loc);
  REQUIRE(wide->def->kind == OpKind::Broadcast);
  CHECK(wide->def->shape == std::vector<int64_t>{16, 32});
  const Value* reshaped = wide->def->operands[0];
  REQUIRE(reshaped->def->kind == OpKind::Reshape);
  CHECK(reshaped->type.str() == "tile<1x32xf32>");
  CHECK(reshaped->def->operands[0] == row);
  Value* splat = k.b.broadcast_to(k.s, {4, 4}, k.loc);
  CHECK(splat->def->kind == OpKind::Splat);
  CHECK(splat->type.str() == "tile<4x4xf32>");
  CHECK(verify(k.f).empty());
}

TEST_CASE("cast returns its operand for the same dtype and folds constants", "[ir]") {
  Kernel k;
  CHECK(k.b.cast(k.i, DType::I32, k.loc) == k.i);
  Value* wrapped = k.b.cast(k.c_i32(300), DType::I8, k.loc);
  REQUIRE(wrapped->def->kind == OpKind::Constant);
  CHECK(wrapped->def->value.i == 44);  // keeps the low 8 bits
  CHECK(wrapped->type.str() == "i8");
  Value* runtime = k.b.cast(k.i, DType::F32, k.loc);
  CHECK(runtime->def->kind == OpKind::Cast);
  CHECK(runtime->def->dtype == DType::F32);
  CHECK(k.b.cmp(tilec::Op::Lt, k.s, k.s, k.loc)->type.str() == "bool");
  CHECK(k.b.unary(OpKind::IsNan, k.load({8}, k.i), k.loc)->type.str() == "tile<8xbool>");
}

TEST_CASE("the verifier catches a yield that does not match its loop", "[ir][verify]") {
  SECTION("a yielded type differs from the loop's result type") {
    Kernel k;
    k.loop(k.s, [&](Value*, Value*) { return std::vector<Value*>{k.i}; });
    CHECK(verify(k.f) == "yield: yielded type differs from the parent's result type");
  }
  SECTION("a yield with too many values") {
    Kernel k;
    k.loop(k.s, [&](Value*, Value* a) { return std::vector<Value*>{a, a}; });
    CHECK(verify(k.f) == "yield: yields 2 values, the parent has 1 results");
  }
  SECTION("a yield before the end of its block") {
    Kernel k;
    k.loop(k.s, [&](Value*, Value* a) {
      k.b.create(OpKind::Yield, k.loc, {a}, {});
      return std::vector<Value*>{a};
    });
    CHECK(verify(k.f) == "yield: a terminator must be the last op of its block");
  }
  SECTION("a region without a yield") {
    Kernel k;
    Op* loop = k.loop(k.s, [&](Value*, Value* a) { return std::vector<Value*>{a}; });
    loop->regions[0]->ops.pop_back();
    CHECK(verify(k.f) == "region does not end with yield");
  }
  SECTION("an iteration argument of another type than its initial value") {
    Kernel k;
    Op* loop = k.loop(k.s, [&](Value*, Value* a) { return std::vector<Value*>{a}; });
    loop->regions[0]->args[1]->type = Type::scalar(DType::F16);
    CHECK(verify(k.f) == "for: operand types differ: f32 and f16");
  }
}

TEST_CASE("the verifier catches operand type mismatches", "[ir][verify]") {
  Kernel k;
  k.b.create(OpKind::Add, k.loc, {k.s, k.i}, {k.s->type});
  CHECK(verify(k.f) == "add: operand types differ: f32 and i32");
}

TEST_CASE("the verifier catches an if on a value that is not a bool scalar", "[ir][verify]") {
  Kernel k;
  Op* op = k.b.create(OpKind::If, k.loc, {k.i}, {});
  for (int r = 0; r < 2; ++r) {
    k.b.set_end(k.b.new_block(op));
    k.b.create(OpKind::Yield, k.loc, {}, {});
  }
  CHECK(verify(k.f) == "if: condition is not a bool scalar");
}

TEST_CASE("the verifier catches shape ops that change the wrong things", "[ir][verify]") {
  SECTION("broadcast stretches a dimension that is not 1") {
    Kernel k;
    k.b.create(OpKind::Broadcast, k.loc, {k.load({2, 4}, k.i)}, {Type::tile_of(DType::F32, {2, 8})});
    CHECK(verify(k.f) == "broadcast: stretches a dimension that is not 1");
  }
  SECTION("reshape changes the element count") {
    Kernel k;
    k.b.create(OpKind::Reshape, k.loc, {k.load({2, 4}, k.i)}, {Type::tile_of(DType::F32, {16})});
    CHECK(verify(k.f) == "reshape: changes the element count");
  }
}

TEST_CASE("the verifier catches a use before the definition", "[ir][verify]") {
  SECTION("later in the same block") {
    Kernel k;
    Value* one = k.c_i32(1);
    Value* sum = k.b.binary(OpKind::Add, k.i, one, k.loc);
    // Move the constant after its use.
    k.f.body.ops.splice(k.f.body.ops.end(), k.f.body.ops, k.f.body.ops.begin());
    CHECK(sum->def->operands[1] == one);
    CHECK(verify(k.f) == "add: uses a value that does not dominate it");
  }
  SECTION("a value of a loop body used after the loop") {
    Kernel k;
    Value* inner = nullptr;
    k.loop(k.s, [&](Value*, Value* a) {
      inner = k.b.binary(OpKind::Mul, a, a, k.loc);
      return std::vector<Value*>{inner};
    });
    k.b.binary(OpKind::Add, inner, k.s, k.loc);
    CHECK(verify(k.f) == "add: uses a value that does not dominate it");
  }
  SECTION("a value of an if's then branch used in its else branch") {
    // The verifier takes each block's values out of its visible set when the block ends.
    Kernel k;
    Op* branch = k.b.create(OpKind::If, k.loc, {k.b.cmp(tilec::Op::Gt, k.s, k.s, k.loc)}, {k.s->type});
    k.b.set_end(k.b.new_block(branch));
    Value* then_value = k.b.binary(OpKind::Mul, k.s, k.s, k.loc);
    k.b.create(OpKind::Yield, k.loc, {then_value}, {});
    k.b.set_end(k.b.new_block(branch));
    k.b.create(OpKind::Yield, k.loc, {k.b.binary(OpKind::Add, then_value, k.s, k.loc)}, {});
    CHECK(verify(k.f) == "add: uses a value that does not dominate it");
  }
}

TEST_CASE("value replacements apply to the operands of each op the walk reaches", "[ir]") {
  Kernel k;
  Value* a = k.b.binary(OpKind::Add, k.s, k.s, k.loc);
  Value* b = k.b.binary(OpKind::Mul, a, a, k.loc);
  Value* c = k.b.binary(OpKind::Sub, b, a, k.loc);
  ValueReplacements r;
  CHECK(r.empty());
  CHECK(r.get(a) == a);
  r.replace(a, k.s);
  r.replace(b, a);  // resolves to what a stands for
  CHECK(r.get(b) == k.s);
  r.replace(k.s, k.s);  // a value standing for itself is no replacement (and no cycle)
  CHECK(r.get(k.s) == k.s);
  r.apply(*c->def);
  CHECK(c->def->operands == std::vector<Value*>{k.s, k.s});
  CHECK(b->def->operands == std::vector<Value*>{a, a});  // untouched until the walk gets there
}

TEST_CASE("use lists: each value's users in program order, by Value::id", "[ir]") {
  Kernel k;
  Value* a = k.b.binary(OpKind::Add, k.s, k.s, k.loc);
  Value* b = k.b.binary(OpKind::Mul, a, k.s, k.loc);
  Op* loop = k.loop(a, [&](Value*, Value* it) { return std::vector<Value*>{k.b.binary(OpKind::Sub, it, b, k.loc)}; });
  Users users(k.f);
  Value* later = k.b.binary(OpKind::Add, b, b, k.loc);  // made after the table
  CHECK(k.f.values[a->id].get() == a);
  std::vector<const Op*> of_s(users.of(k.s).begin(), users.of(k.s).end());
  CHECK(of_s == std::vector<const Op*>{a->def, a->def, b->def});  // once per operand
  REQUIRE(users.of(b).size() == 1);
  CHECK(users.of(b)[0]->parent == loop->regions[0].get());  // the sub in the loop body
  CHECK(users.of(later).empty());
  CHECK(users.of(loop->result()).empty());
}

TEST_CASE("the IR builder's environment rolls back to a mark", "[ir]") {
  Kernel k;
  BuildEnv env(3);
  env.set_value(0, k.s);  // no scope open: not recorded
  BuildEnv::Mark outer = env.open();
  env.set(2, BVal{nullptr, {BVal::of(k.i)}, true});
  BuildEnv::Mark inner = env.open();
  env.resize(5);  // a helper's early-return slots
  env.set_value(4, k.i);
  env.set_value(2, k.n);  // keeps the tuple's elements
  CHECK(env[2].tuple);
  CHECK(env.changed_since(inner) == std::vector<size_t>{2});  // slots past the mark's size left out
  env.resize(3);
  env.rollback(inner);
  CHECK(env.size() == 3);
  CHECK(env[2].v == nullptr);
  CHECK(env.changed_since(outer) == std::vector<size_t>{2});
  env.rollback(outer);
  CHECK(env[0].v == k.s);
  CHECK_FALSE(env[2].tuple);
}

TEST_CASE("the verifier reports wrong operand and result counts instead of crashing", "[ir][verify]") {
  SECTION("a binary op with one operand") {
    Kernel k;
    k.b.create(OpKind::Add, k.loc, {k.i}, {k.i->type});
    CHECK(verify(k.f) == "add: expects 2 operands, has 1");
  }
  SECTION("a binary op without a result") {
    Kernel k;
    k.b.create(OpKind::Mul, k.loc, {k.i, k.i}, {});
    CHECK(verify(k.f) == "mul: expects 1 results, has 0");
  }
  SECTION("a loop without its bounds") {
    Kernel k;
    k.b.create(OpKind::For, k.loc, {k.i}, {});
    CHECK(verify(k.f) == "for: needs a lower bound, an upper bound and a step");
  }
  SECTION("an if without regions") {
    Kernel k;
    k.b.create(OpKind::If, k.loc, {k.b.cmp(tilec::Op::Eq, k.i, k.i, k.loc)}, {});
    CHECK(verify(k.f) == "if: needs 2 regions, has 0");
  }
}

TEST_CASE("each math function is an elementwise built-in and a unary op of the same name", "[ir]") {
  // basic/math_functions.h's one list makes both; docs/internals.md relies on it.
  int n = 0;
#define X(e, name, extra)                                                                  \
  {                                                                                        \
    const tilec::BuiltinSig* sig = tilec::find_builtin(name);                              \
    REQUIRE(sig);                                                                          \
    CHECK(sig->id == tilec::Builtin::e);                                                   \
    CHECK(tilec::builtin_family(sig->id) == tilec::BuiltinFamily::Elementwise);            \
    CHECK(sig->spelling == std::string(name) + "(x, *, approx=)");                         \
    CHECK(std::string(op_name(OpKind::e)) == name);                                        \
    CHECK(is_unary_elementwise(OpKind::e));                                                \
    CHECK(math_function(OpKind::e) == tilec::MathFunction::e);                             \
    ++n;                                                                                   \
  }
  TILEC_MATH_FUNCTIONS(X, _)
#undef X
  CHECK(n == 11);
  CHECK(!math_function(OpKind::Abs));
  CHECK(!math_function(OpKind::Floor));
  CHECK(tilec::builtin_family(tilec::Builtin::Clamp) == tilec::BuiltinFamily::Elementwise);
  CHECK(tilec::builtin_family(tilec::Builtin::Load) == tilec::BuiltinFamily::Memory);
  CHECK(tilec::builtin_family(tilec::Builtin::Kernel) == tilec::BuiltinFamily::Kernel);
}
