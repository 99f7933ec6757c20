// The optimizer passes (ir/passes/*.cpp) on IR built with ir::Builder, checked through the
// printed result, and the pass registry (run_passes, default_pipeline, is_pure). Complements
// tests/lit/passes/, which starts from .tile source: here the IR can hold what the front end
// never produces (a cast to the same dtype, NaN constants, attributes that differ).
#include <catch2/catch.hpp>
#include <cmath>

#include "ir/passes/passes.h"
#include "ir/test_kernel.h"

using namespace tilec::ir;
using tilec::DType;
using tilec::Scalar;
using tilec::test::Kernel;

namespace {

// The printed body of the kernel, without the signature line and the closing brace.
std::string body(const Kernel& k) {
  std::string text = print(k.f);
  text = text.substr(text.find('\n') + 1);
  return text.substr(0, text.size() - 2);
}

Value* f32(Kernel& k, double v) { return k.b.constant(DType::F32, Scalar{0, v}, k.loc); }

// An op built by hand (the builder's helpers would fold or skip it).
Value* make(Kernel& k, OpKind kind, std::vector<Value*> operands, Type result) {
  return k.b.create(kind, k.loc, std::move(operands), {std::move(result)})->result();
}

void store(Kernel& k, Value* v) { k.b.create(OpKind::Store, k.loc, {k.arr, v, k.i}, {}); }

}  // namespace

TEST_CASE("fold: min and max propagate NaN, casts saturate, not on bool is logical", "[passes][fold]") {
  Kernel k;
  Value* one = f32(k, 1.0);
  Value* nan_max = k.b.binary(OpKind::Max, one, f32(k, NAN), k.loc);
  Value* two = f32(k, 2.0);
  Value* min = k.b.binary(OpKind::Min, two, f32(k, -3.0), k.loc);
  Op* big = k.b.create(OpKind::Cast, k.loc, {f32(k, 1e10)}, {Type::scalar(DType::I32)});
  big->dtype = DType::I32;
  Value* t = k.b.constant(DType::Bool, Scalar{1, 0}, k.loc);
  Value* not_t = k.b.unary(OpKind::Not, t, k.loc);
  for (Value* v : {nan_max, min, big->result()}) store(k, k.b.cast(v, DType::F32, k.loc));
  store(k, k.b.cast(not_t, DType::F32, k.loc));
  fold_constants(k.f);
  CHECK(verify(k.f).empty());
  CHECK(body(k) ==
        "  %0 = constant 1.0 : f32\n"
        "  %1 = constant nan : f32\n"
        "  %2 = constant nan : f32\n"
        "  %3 = max %0, %1 : f32\n"
        "  %4 = constant 2.0 : f32\n"
        "  %5 = constant -3.0 : f32\n"
        "  %6 = constant -3.0 : f32\n"
        "  %7 = min %4, %5 : f32\n"
        "  %8 = constant 1e+10 : f32\n"
        "  %9 = constant 2147483647 : i32\n"  // saturates (language.md §7.5)
        "  %10 = cast %8 : i32\n"
        "  %11 = constant true : bool\n"
        "  %12 = constant false : bool\n"
        "  %13 = not %11 : bool\n"
        "  store %2, %x[%i]\n"
        "  store %6, %x[%i]\n"
        // The casts back to f32 fold too, once their operands have become constants.
        "  %14 = constant 2147483648.0 : f32\n"
        "  %15 = cast %9 : f32\n"
        "  store %14, %x[%i]\n"
        "  %16 = constant 0.0 : f32\n"
        "  %17 = cast %12 : f32\n"
        "  store %16, %x[%i]\n");
}

TEST_CASE("fold: tiles are left alone, loop bodies are folded", "[passes][fold]") {
  Kernel k;
  Value* two = k.b.broadcast_to(f32(k, 2.0), {8}, k.loc);
  store(k, k.b.binary(OpKind::Add, two, two, k.loc));
  k.loop(k.s, [&](Value*, Value* a) {
    Value* five = f32(k, 5.0);
    Value* diff = k.b.binary(OpKind::Sub, five, f32(k, 1.5), k.loc);
    return std::vector<Value*>{k.b.binary(OpKind::Mul, a, diff, k.loc)};
  });
  fold_constants(k.f);
  CHECK(verify(k.f).empty());
  CHECK(body(k) ==
        "  %0 = constant 2.0 : f32\n"
        "  %1 = splat %0 : tile<8xf32>\n"
        "  %2 = add %1, %1 : tile<8xf32>\n"
        "  store %2, %x[%i]\n"
        "  %3 = constant 0 : i32\n"
        "  %4 = constant 1 : i32\n"
        "  %5 = for %6 = %3 to %i step %4 iter(%7 = %s) {\n"
        "    %8 = constant 5.0 : f32\n"
        "    %9 = constant 1.5 : f32\n"
        "    %10 = constant 3.5 : f32\n"
        "    %11 = sub %8, %9 : f32\n"
        "    %12 = mul %7, %10 : f32\n"
        "    yield %12\n"
        "  } : f32\n");
}

TEST_CASE("canonicalize: casts and broadcasts to the same type, integer identities", "[passes][canonicalize]") {
  Kernel k;
  Op* cast = k.b.create(OpKind::Cast, k.loc, {k.i}, {k.i->type});
  cast->dtype = DType::I32;
  Value* row = k.load({8}, k.i);
  Value* same = make(k, OpKind::Broadcast, {row}, row->type);
  Value* zero = k.c_i32(0);
  Value* one = k.c_i32(1);
  Value* x = k.b.binary(OpKind::Or, cast->result(), zero, k.loc);
  x = k.b.binary(OpKind::Xor, zero, x, k.loc);
  x = k.b.binary(OpKind::Mul, one, x, k.loc);
  Value* fx = k.b.binary(OpKind::Mul, k.s, f32(k, 1.0), k.loc);
  k.b.create(OpKind::Store, k.loc, {k.arr, same, x}, {});
  k.b.create(OpKind::Store, k.loc, {k.arr, k.b.broadcast_to(fx, {8}, k.loc), x}, {});
  canonicalize(k.f);
  CHECK(verify(k.f).empty());
  // The stores read %i and the loaded row directly; the float multiply by 1.0 stays.
  CHECK(body(k) ==
        "  %0 = cast %i : i32\n"
        "  %1 = load %x[%i] padding 0.0 : tile<8xf32>\n"
        "  %2 = broadcast %1 : tile<8xf32>\n"
        "  %3 = constant 0 : i32\n"
        "  %4 = constant 1 : i32\n"
        "  %5 = or %i, %3 : i32\n"
        "  %6 = xor %3, %i : i32\n"
        "  %7 = mul %4, %i : i32\n"
        "  %8 = constant 1.0 : f32\n"
        "  %9 = mul %s, %8 : f32\n"
        "  store %1, %x[%i]\n"
        "  %10 = splat %9 : tile<8xf32>\n"
        "  store %10, %x[%i]\n");
}

TEST_CASE("canonicalize: a reshape of a reshape inside a loop body", "[passes][canonicalize]") {
  Kernel k;
  Value* row = k.load({8}, k.i);
  k.loop(row, [&](Value*, Value* a) {
    Value* col = make(k, OpKind::Reshape, {a}, Type::tile_of(DType::F32, {8, 1}));
    return std::vector<Value*>{make(k, OpKind::Reshape, {col}, a->type)};
  });
  canonicalize(k.f);
  CHECK(verify(k.f).empty());
  CHECK(body(k) ==
        "  %0 = load %x[%i] padding 0.0 : tile<8xf32>\n"
        "  %1 = constant 0 : i32\n"
        "  %2 = constant 1 : i32\n"
        "  %3 = for %4 = %1 to %i step %2 iter(%5 = %0) {\n"
        "    %6 = reshape %5 : tile<8x1xf32>\n"
        "    %7 = reshape %5 : tile<8xf32>\n"
        "    yield %5\n"
        "  } : tile<8xf32>\n");
}

TEST_CASE("cse: attributes and bit patterns tell ops apart", "[passes][cse]") {
  Kernel k;
  Value* row = k.load({8}, k.i);
  Value* e1 = k.b.unary(OpKind::Exp, row, k.loc);
  Value* e2 = k.b.unary(OpKind::Exp, row, k.loc);
  e2->def->approx = true;
  Value* e3 = k.b.unary(OpKind::Exp, row, k.loc);
  Value* lt = k.b.cmp(tilec::Op::Lt, k.s, k.s, k.loc);
  Value* le = k.b.cmp(tilec::Op::Le, k.s, k.s, k.loc);
  Value* nan1 = f32(k, NAN);
  Value* nan2 = f32(k, NAN);
  Value* pz = f32(k, 0.0);
  Value* nz = f32(k, -0.0);
  for (Value* v : {e1, e2, e3}) store(k, v);
  for (Value* v : {lt, le}) store(k, k.b.cast(v, DType::F32, k.loc));
  for (Value* v : {nan1, nan2, pz, nz}) store(k, v);
  eliminate_common_subexpressions(k.f);
  CHECK(verify(k.f).empty());
  CHECK(body(k) ==
        "  %0 = load %x[%i] padding 0.0 : tile<8xf32>\n"
        "  %1 = exp %0 : tile<8xf32>\n"
        "  %2 = exp %0 approx : tile<8xf32>\n"
        "  %3 = exp %0 : tile<8xf32>\n"
        "  %4 = cmp < %s, %s : bool\n"
        "  %5 = cmp <= %s, %s : bool\n"
        "  %6 = constant nan : f32\n"
        "  %7 = constant nan : f32\n"
        "  %8 = constant 0.0 : f32\n"
        "  %9 = constant -0.0 : f32\n"
        "  store %1, %x[%i]\n"
        "  store %2, %x[%i]\n"
        "  store %1, %x[%i]\n"
        "  %10 = cast %4 : f32\n"
        "  store %10, %x[%i]\n"
        "  %11 = cast %5 : f32\n"
        "  store %11, %x[%i]\n"
        "  store %6, %x[%i]\n"
        "  store %6, %x[%i]\n"
        "  store %8, %x[%i]\n"
        "  store %9, %x[%i]\n");
}

TEST_CASE("cse: the two branches of an if do not share values", "[passes][cse]") {
  Kernel k;
  Value* before = k.b.binary(OpKind::Mul, k.s, k.s, k.loc);
  Op* branch = k.b.create(OpKind::If, k.loc, {k.b.cmp(tilec::Op::Gt, k.s, k.s, k.loc)}, {k.s->type});
  for (int r = 0; r < 2; ++r) {
    k.b.set_end(k.b.new_block(branch));
    Value* again = k.b.binary(OpKind::Mul, k.s, k.s, k.loc);  // merges with `before`
    Value* local = k.b.binary(OpKind::Add, again, k.s, k.loc);  // one per branch
    k.b.create(OpKind::Yield, k.loc, {local}, {});
  }
  k.b.set_end(&k.f.body);
  store(k, k.b.binary(OpKind::Add, before, branch->result(), k.loc));
  eliminate_common_subexpressions(k.f);
  CHECK(verify(k.f).empty());
  CHECK(body(k) ==
        "  %0 = mul %s, %s : f32\n"
        "  %1 = cmp > %s, %s : bool\n"
        "  %2 = if %1 {\n"
        "    %3 = mul %s, %s : f32\n"
        "    %4 = add %0, %s : f32\n"
        "    yield %4\n"
        "  } else {\n"
        "    %5 = mul %s, %s : f32\n"
        "    %6 = add %0, %s : f32\n"
        "    yield %6\n"
        "  } : f32\n"
        "  %7 = add %0, %2 : f32\n"
        "  store %7, %x[%i]\n");
}

TEST_CASE("licm: chains climb out, carried values and nested ifs stay", "[passes][licm]") {
  Kernel k;
  Value* pre = k.b.binary(OpKind::Add, k.s, k.s, k.loc);
  k.loop(k.s, [&](Value* iv, Value* a) {
    Value* inv = k.b.binary(OpKind::Mul, pre, f32(k, 3.0), k.loc);  // invariant chain
    Value* carried = k.b.binary(OpKind::Add, a, inv, k.loc);        // reads the iteration value
    Op* branch = k.b.create(OpKind::If, k.loc, {k.b.cmp(tilec::Op::Eq, iv, iv, k.loc)}, {});
    Block* body = k.b.block();
    for (int r = 0; r < 2; ++r) {
      k.b.set_end(k.b.new_block(branch));
      if (r == 0) store(k, k.b.binary(OpKind::Mul, k.s, k.s, k.loc));  // invariant, but conditional
      k.b.create(OpKind::Yield, k.loc, {}, {});
    }
    k.b.set_end(body);
    return std::vector<Value*>{carried};
  });
  hoist_loop_invariants(k.f);
  CHECK(verify(k.f).empty());
  CHECK(body(k) ==
        "  %0 = add %s, %s : f32\n"
        "  %1 = constant 0 : i32\n"
        "  %2 = constant 1 : i32\n"
        "  %3 = constant 3.0 : f32\n"
        "  %4 = mul %0, %3 : f32\n"
        "  %5 = for %6 = %1 to %i step %2 iter(%7 = %s) {\n"
        "    %8 = add %7, %4 : f32\n"
        "    %9 = cmp == %6, %6 : bool\n"
        "    if %9 {\n"
        "      %10 = mul %s, %s : f32\n"
        "      store %10, %x[%i]\n"
        "      yield\n"
        "    } else {\n"
        "      yield\n"
        "    }\n"
        "    yield %8\n"
        "  } : f32\n");
}

TEST_CASE("dce: dead chains and pure loops go, stores and what they read stay", "[passes][dce]") {
  Kernel k;
  Value* row = k.load({8}, k.i);
  Value* dead = k.b.unary(OpKind::Exp, k.b.unary(OpKind::Neg, row, k.loc), k.loc);
  (void)dead;
  k.loop(k.s, [&](Value*, Value* a) { return std::vector<Value*>{k.b.binary(OpKind::Add, a, a, k.loc)}; });
  Op* kept = k.loop(k.s, [&](Value*, Value* a) {
    store(k, row);
    return std::vector<Value*>{k.b.binary(OpKind::Mul, a, a, k.loc)};
  });
  (void)kept;
  eliminate_dead_code(k.f);
  CHECK(verify(k.f).empty());
  CHECK(body(k) ==
        "  %0 = load %x[%i] padding 0.0 : tile<8xf32>\n"
        "  %1 = constant 0 : i32\n"
        "  %2 = constant 1 : i32\n"
        "  %3 = for %4 = %1 to %i step %2 iter(%5 = %s) {\n"
        "    store %0, %x[%i]\n"
        "    %6 = mul %5, %5 : f32\n"
        "    yield %6\n"
        "  } : f32\n");
}

TEST_CASE("licm: invariant ops move in body order, after the ops they read", "[passes][licm]") {
  Kernel k;
  k.loop(k.s, [&](Value*, Value* a) {
    Value* first = k.b.binary(OpKind::Mul, k.s, k.s, k.loc);     // invariant
    Value* varying = k.b.binary(OpKind::Add, a, first, k.loc);   // stays
    Value* second = k.b.binary(OpKind::Sub, first, k.s, k.loc);  // invariant once `first` moved
    return std::vector<Value*>{k.b.binary(OpKind::Add, varying, second, k.loc)};
  });
  hoist_loop_invariants(k.f);
  CHECK(verify(k.f).empty());
  CHECK(body(k) ==
        "  %0 = constant 0 : i32\n"
        "  %1 = constant 1 : i32\n"
        "  %2 = mul %s, %s : f32\n"
        "  %3 = sub %2, %s : f32\n"
        "  %4 = for %5 = %0 to %i step %1 iter(%6 = %s) {\n"
        "    %7 = add %6, %2 : f32\n"
        "    %8 = add %7, %3 : f32\n"
        "    yield %8\n"
        "  } : f32\n");
}

TEST_CASE("dce and is_pure on ifs nested 200 deep", "[passes][dce]") {
  // is_pure of an if looks at each nested op once: walking every nested op again at each
  // level made it take 2^depth steps (issue 35).
  Kernel k;
  Value* v = k.s;
  std::vector<Op*> ifs;
  std::vector<Block*> outer;
  for (int d = 0; d < 200; ++d) {
    Op* branch = k.b.create(OpKind::If, k.loc, {k.b.cmp(tilec::Op::Gt, v, k.s, k.loc)}, {k.s->type});
    ifs.push_back(branch);
    outer.push_back(k.b.block());
    Block* then_block = k.b.new_block(branch);
    k.b.set_end(k.b.new_block(branch));
    k.b.create(OpKind::Yield, k.loc, {v}, {});
    k.b.set_end(then_block);
    v = k.b.binary(OpKind::Add, v, k.s, k.loc);
  }
  k.b.create(OpKind::Yield, k.loc, {v}, {});
  for (int d = 199; d > 0; --d) {
    k.b.set_end(outer[size_t(d)]);
    k.b.create(OpKind::Yield, k.loc, {ifs[size_t(d)]->result()}, {});
  }
  k.b.set_end(&k.f.body);
  CHECK(verify(k.f).empty());
  CHECK(is_pure(*ifs[0]));
  eliminate_dead_code(k.f);  // nothing uses the outermost if's result
  CHECK(body(k).empty());
}

TEST_CASE("the registry drives the pipeline", "[passes]") {
  std::vector<std::string> names;
  for (const PassInfo& p : all_passes()) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"fold", "canonicalize", "cse", "contract", "licm", "dce"});
  CHECK(default_pipeline(0).empty());
  CHECK(default_pipeline(0, false).empty());
  std::vector<std::string> o2{"fold", "canonicalize", "cse", "contract", "licm", "fold", "canonicalize", "cse", "dce"};
  CHECK(default_pipeline(1) == o2);
  CHECK(default_pipeline(2) == o2);
  CHECK(default_pipeline(3) == o2);
  // --fmad=false: no contraction of c + a @ b.
  std::vector<std::string> exact{"fold", "canonicalize", "cse", "licm", "fold", "canonicalize", "cse", "dce"};
  CHECK(default_pipeline(2, false) == exact);
}

TEST_CASE("run_passes: unknown names, invalid IR after a pass, the trace", "[passes]") {
  SECTION("an unknown pass") {
    Kernel k;
    std::string trace;
    CHECK(run_passes(k.f, {"fold", "nope"}, false, trace) == "unknown pass 'nope' (see --list-passes)");
  }
  SECTION("the verifier runs after each pass and names it") {
    Kernel k;
    store(k, make(k, OpKind::Add, {k.s, k.i}, k.s->type));
    std::string trace;
    CHECK(run_passes(k.f, {"dce"}, false, trace) ==
          "internal compiler error: the IR is invalid after pass 'dce': add: operand types differ: f32 and i32");
  }
  SECTION("print_after appends the IR after every pass") {
    Kernel k;
    k.b.binary(OpKind::Add, k.s, k.s, k.loc);
    std::string trace;
    CHECK(run_passes(k.f, {"cse", "dce"}, true, trace).empty());
    std::string sig = "kernel @k(%x: array<f32[n]>, %n: i64, %s: f32, %i: i32) {\n";
    CHECK(trace ==
          "// -----// IR after cse //----- //\n" + sig + "  %0 = add %s, %s : f32\n}\n"
          "// -----// IR after dce //----- //\n" + sig + "}\n");
  }
}

TEST_CASE("is_pure: stores are effects, loads and loops without stores are not", "[passes]") {
  Kernel k;
  Value* row = k.load({8}, k.i);
  k.b.create(OpKind::Store, k.loc, {k.arr, row, k.i}, {});
  Op* pure_loop = k.loop(k.s, [&](Value*, Value* a) { return std::vector<Value*>{a}; });
  Op* storing_loop = k.loop(k.s, [&](Value*, Value* a) {
    store(k, row);
    return std::vector<Value*>{a};
  });
  auto it = k.f.body.ops.begin();
  CHECK(is_pure(**it));             // load
  CHECK_FALSE(is_pure(**++it));     // store
  CHECK(is_pure(*pure_loop));
  CHECK_FALSE(is_pure(*storing_loop));
}
