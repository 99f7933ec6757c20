// A small kernel for IR unit tests, built with ir::Builder: `k(x: f32[n], s: f32, i: i32)`.
#pragma once

#include <vector>

#include "ir/ir.h"

namespace tilec::test {

using ir::Block;
using ir::Builder;
using ir::Function;
using ir::Op;
using ir::OpKind;
using ir::Type;
using ir::Value;

// A kernel `k(x: f32[n], s: f32, i: i32)` with a builder at the end of its body.
struct Kernel {
  ir::ArrayParam x{"x", DType::F32, {ArrayDim{"n", 0}}, 0};
  Function f;
  Builder b{f, &f.body};
  Value* arr;
  Value* n;
  Value* s;
  Value* i;
  SourceRange loc;

  Kernel() {
    f.name = "k";
    arr = arg(Type{true, {}, &x}, "x");
    n = arg(Type::scalar(DType::I64), "n");
    s = arg(Type::scalar(DType::F32), "s");
    i = arg(Type::scalar(DType::I32), "i");
  }
  Value* arg(Type t, const char* name) {
    Value* v = b.block_arg(&f.body, std::move(t));
    v->name = name;
    return v;
  }
  Value* load(std::vector<int64_t> shape, Value* index) {
    Op* op = b.create(OpKind::Load, loc, {arr, index}, {Type::tile_of(DType::F32, shape)});
    op->shape = shape;
    return op->result();
  }
  Value* c_i32(int64_t v) { return b.constant(DType::I32, Scalar{v, 0}, loc); }
  /// `for iv = 0 to i step 1 iter(a = init)`; `body` fills the loop and returns the values it
  /// yields. Returns the loop.
  template <typename Body>
  Op* loop(Value* init, Body body) {
    Value* lo = c_i32(0);
    Value* step = c_i32(1);
    Op* op = b.create(OpKind::For, loc, {lo, i, step, init}, {init->type});
    Block* blk = b.new_block(op);
    Value* iv = b.block_arg(blk, Type::scalar(DType::I32));
    Value* a = b.block_arg(blk, init->type);
    Block* outer = b.block();
    b.set_end(blk);
    b.create(OpKind::Yield, loc, body(iv, a), {});
    b.set_end(outer);
    return op;
  }
};

}  // namespace tilec::test
