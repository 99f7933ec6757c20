// The tile IR: SSA values with static tile types, array handles, structured `for`/`if`
// regions. One X-macro list defines the op kinds (enum, printer names, operand counts).
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "basic/math_functions.h"
#include "basic/operators.h"
#include "basic/source.h"
#include "basic/tile_type.h"
#include "ir/signature.h"

namespace tilec::ir {

// X(Enum, "name", operands): operands = fixed operand count, or -1 for variadic.
#define TILEC_IR_OPS(X)                                                              \
  /* values */                                                                       \
  X(Constant, "constant", 0)    /* scalar constant: dtype, value */                  \
  X(Iota, "iota", 0)            /* arange: tile<n x dtype> = 0 .. n-1 */             \
  X(Splat, "splat", 1)          /* scalar -> tile of `shape` */                      \
  X(Broadcast, "broadcast", 1)  /* same rank, size-1 dims stretched to `shape` */    \
  X(Reshape, "reshape", 1)      /* same elements in row-major order, new `shape` */   \
  X(ConvertLayout, "convert_layout", 1) /* same tile, another register layout */     \
  X(Permute, "permute", 1)      /* result dim i is operand dim order[i] */             \
  X(Cat, "cat", 2)              /* a followed by b along `axis` (that extent doubles) */ \
  X(Extract, "extract", 1)      /* the sub-tile of the result's shape at tile index `order` */ \
  X(Cast, "cast", 1)            /* astype to `dtype` */                              \
  X(Bitcast, "bitcast", 1)      /* reinterpret bits as `dtype` */                    \
  /* elementwise */                                                                  \
  X(Neg, "neg", 1)                                                                   \
  X(Not, "not", 1)              /* bitwise ~ (logical not on bool) */                \
  X(Abs, "abs", 1)                                                                   \
  TILEC_MATH_FUNCTIONS(X, 1)    /* exp, log, tanh, ... (basic/math_functions.h) */    \
  X(Floor, "floor", 1)                                                               \
  X(Ceil, "ceil", 1)                                                                 \
  X(IsNan, "isnan", 1)                                                               \
  X(Add, "add", 2)                                                                   \
  X(Sub, "sub", 2)                                                                   \
  X(Mul, "mul", 2)                                                                   \
  X(Div, "div", 2)              /* true division (float operands) */                 \
  X(FloorDiv, "floordiv", 2)    /* Python // */                                      \
  X(Mod, "mod", 2)              /* Python % */                                       \
  X(Pow, "pow", 2)                                                                   \
  X(And, "and", 2)                                                                   \
  X(Or, "or", 2)                                                                     \
  X(Xor, "xor", 2)                                                                   \
  X(Shl, "shl", 2)                                                                   \
  X(Shr, "shr", 2)                                                                   \
  X(Min, "min", 2)              /* NaN-propagating */                                \
  X(Max, "max", 2)              /* NaN-propagating */                                \
  X(Cmp, "cmp", 2)              /* `pred` compares; result bool */                   \
  X(Select, "select", 3)        /* where(cond, a, b) */                              \
  X(Fma, "fma", 3)                                                                   \
  /* matrix multiply-accumulate */                                                   \
  X(Mma, "mma", 3)              /* a (M, K) @ b (K, N) + acc (M, N), tensor cores */  \
  /* reductions */                                                                   \
  X(Reduce, "reduce", 1)        /* `combine` over tile dim `axis`, which disappears */ \
  X(Scan, "scan", 1)            /* inclusive `combine` (sum, prod) along tile dim `axis` */ \
  X(Histogram, "histogram", -1) /* indices, [mask]: i32 counts of each value in [0, shape[0]) */ \
  /* grid */                                                                         \
  X(BlockId, "bid", 0)          /* axis */                                           \
  X(NumBlocks, "num_blocks", 0) /* axis */                                           \
  X(NumSms, "num_sms", 0)                                                            \
  /* memory */                                                                       \
  X(Load, "load", -1)           /* array, index..., [bound...]: shape, order, padding, offsets */ \
  X(Store, "store", -1)         /* array, tile, index..., [bound...]: order, offsets */ \
  /* element-index memory (language.md §6.3): index operands are one integer tile per   \
     array dimension; every tile operand has the result's (or the stored tile's) shape;  \
     a trailing bool operand, when present, is the mask */                              \
  X(Gather, "gather", -1)       /* array, index..., [mask]: padding in `value` */      \
  X(Scatter, "scatter", -1)     /* array, tile, index..., [mask] */                    \
  X(Atomic, "atomic", -1)       /* array, tile (cas: expected, desired), index..., [mask]: \
                                   `atomic`; the result holds the old values */        \
  /* control flow */                                                                 \
  X(For, "for", -1)             /* lower, upper, step, init...; body(iv, iter...) */ \
  X(If, "if", 1)                /* cond; then, else regions yield the results */     \
  X(While, "while", -1)         /* init...; cond(carried...) yields a bool, body yields carried */ \
  X(Break, "break", -1)         /* leaves the innermost loop with these carried values */ \
  X(Continue, "continue", -1)   /* next iteration of the innermost loop, these values */ \
  X(Return, "return", 0)        /* ends the kernel */                                \
  X(Yield, "yield", -1)         /* terminates a region */                            \
  /* debugging */                                                                    \
  X(Assert, "assert", 1)        /* device assert: `text` message, fails where false */ \
  X(Print, "print", -1)         /* device printf of scalars: `text` format */

enum class OpKind : uint8_t {
#define X(e, name, n) e,
  TILEC_IR_OPS(X)
#undef X
};

/// How a Reduce combines elements (language.md §6.5, §6.6).
enum class Combine : uint8_t { Sum, Prod, Max, Min, Argmax, Argmin };
const char* combine_name(Combine c);

/// The read-modify-write of an Atomic op (docs/language.md §7.2.5).
enum class AtomicOp : uint8_t { Add, Max, Min, And, Or, Xor, Xchg, Cas };
const char* atomic_name(AtomicOp a);

struct Op;
struct Value;
/// Gather, Scatter and Atomic: the number of value operands between the array and the first
/// index (0, 1, or 2 for a compare-and-swap).
int element_values(const Op& op);
/// Gather, Scatter and Atomic: whether the op has a mask (its last operand).
bool has_mask(const Op& op);
/// Load and Store: the operand position of the first index (tile index or element offset):
/// 1 for a load, 2 for a store (after the tile).
size_t first_index(const Op& op);
/// Load and Store: whether the op has `bound=` operands (language.md §7.2.6): one integer
/// scalar per array axis after the indices, in the array's axis order, each the exclusive end
/// of the positions the op may touch along that axis (the array's extent still applies).
bool has_bound(const Op& op);
/// Load and Store with a bound: the bound along array axis `axis`.
Value* bound_operand(const Op& op, size_t axis);

/// The printed name of an op kind ("add").
const char* op_name(OpKind k);
/// The fixed operand count, or -1 for variadic ops.
int op_arity(OpKind k);
bool is_elementwise(OpKind k);
bool is_unary_elementwise(OpKind k);
bool is_binary_elementwise(OpKind k);
/// The math function (basic/math_functions.h) an op of kind `k` computes, or nullopt.
std::optional<MathFunction> math_function(OpKind k);
/// Ops that end a block: yield, break, continue, return.
bool is_terminator(OpKind k);

/// An IR type: a tile (rank 0 = scalar) or an array handle.
struct Type {
  bool is_array = false;
  TileType tile;                     ///< tiles
  const ArrayParam* array = nullptr; ///< arrays: the kernel parameter it names (Signature::arrays)

  static Type tile_of(DType d, std::vector<int64_t> shape) { return Type{false, TileType{d, std::move(shape)}, nullptr}; }
  static Type scalar(DType d) { return tile_of(d, {}); }
  bool is_scalar() const { return !is_array && tile.is_scalar(); }
  DType dtype() const { return is_array ? array->dtype : tile.dtype; }
  std::string str() const;
  bool operator==(const Type& o) const { return is_array == o.is_array && tile == o.tile && array == o.array; }
};

struct Op;
struct Value;
struct Block;

/// An SSA value: the result of an op or an argument of a block.
struct Value {
  Type type;
  Op* def = nullptr;        ///< defining op (null for block arguments)
  Block* owner = nullptr;   ///< block arguments: their block
  int index = 0;            ///< result number, or argument number
  std::string name;         ///< optional readable name for printing (kernel parameters)
  /// Its position in its function's arena (Function::values): per-value tables of a whole
  /// function are vectors indexed by it (ir::Users), not maps of pointers.
  size_t id = 0;
};

/// A single-block region body: arguments and a list of ops ending with `yield` when the
/// region produces values.
struct Block {
  std::vector<Value*> args;
  std::list<std::unique_ptr<Op>> ops;
  Op* parent = nullptr;
};

/// One operation. Attribute fields are used by the kinds noted beside them.
struct Op {
  OpKind kind;
  SourceRange loc;
  std::vector<Value*> operands;
  std::vector<Value*> results;
  std::vector<std::unique_ptr<Block>> regions;  ///< For: body; If: then, else
  Block* parent = nullptr;

  DType dtype = DType::I32;       ///< Constant, Cast, Bitcast, Iota
  Scalar value;                   ///< Constant value; Load padding
  std::vector<int64_t> shape;     ///< Splat, Broadcast, Reshape, Iota, Load, Histogram (nbins)
  std::vector<int64_t> order;     ///< Load/Store: axis permutation (empty: identity); Extract: tile index
  int axis = 0;                   ///< BlockId, NumBlocks; Reduce: the reduced tile dimension; Scan, Cat
  tilec::Op pred = tilec::Op::Eq; ///< Cmp: Lt Le Gt Ge Eq Ne
  bool approx = false;            ///< math ops: use the hardware approximation
  /// Load/Store: the index operands are element offsets (`load(offset=)`, language.md
  /// §7.2.1): the tile's first element is at those coordinates. Otherwise they are tile
  /// indices, and the first element is at index × shape.
  bool offsets = false;
  Combine combine = Combine::Sum; ///< Reduce; Scan (Sum or Prod)
  AtomicOp atomic = AtomicOp::Add; ///< Atomic
  std::string text;               ///< Assert: message; Print: format

  Op(OpKind k, SourceRange l) : kind(k), loc(l) {}
  Value* result(int i = 0) const { return results[size_t(i)]; }
};

/// A kernel in tile IR. Owns every value; arguments are: arrays, then dimension extents,
/// then scalars (the order of kernel_abi.h).
struct Function {
  std::string name;
  Signature sig;  ///< parameters, dimension symbols, grid, launch options
  Block body;
  std::vector<std::unique_ptr<Value>> values;  ///< arena

  Value* new_value(Type t) {
    values.push_back(std::make_unique<Value>());
    values.back()->type = std::move(t);
    values.back()->id = values.size() - 1;
    return values.back().get();
  }
};

/// The position of `v` among `fn.sig.dims` when `v` is the kernel argument holding that
/// dimension extent (never negative: the launch stub rejects negative extents), else -1.
int dimension_index(const Function& fn, const Value* v);
/// Load and Store with a bound: whether the bound along array axis `axis` is the array's own
/// extent there (`bound=(end, N)` for an array `[rows, N]`), which clips nothing.
bool bound_is_extent(const Function& fn, const Op& op, size_t axis);

/// Copies every attribute field of `from` (dtype, value, shape, order, axis, pred, approx,
/// offsets, combine, atomic, text) to `to`: operands, results, regions and parent are left
/// alone. A field added to Op must be copied here (clone and rematerialization use it).
void copy_attributes(const Op& from, Op& to);

/// Builds ops at an insertion point (the end of a block, or before an op).
class Builder {
 public:
  Builder(Function& f, Block* block) : f_(f), block_(block), before_(block->ops.end()) {}
  void set_end(Block* b) {
    block_ = b;
    before_ = b->ops.end();
  }
  void set_before(Block* b, std::list<std::unique_ptr<Op>>::iterator it) {
    block_ = b;
    before_ = it;
  }
  Block* block() const { return block_; }

  /// Creates an op with the given operands and result types, inserted at the builder's point.
  Op* create(OpKind k, SourceRange loc, std::vector<Value*> operands, std::vector<Type> results);
  Value* constant(DType d, Scalar v, SourceRange loc);
  Value* unary(OpKind k, Value* a, SourceRange loc);
  Value* binary(OpKind k, Value* a, Value* b, SourceRange loc);
  Value* cmp(tilec::Op pred, Value* a, Value* b, SourceRange loc);
  Value* cast(Value* a, DType d, SourceRange loc);
  /// Expands `a` to `shape` (NumPy rules): reshape to add leading unit dims, then broadcast.
  Value* broadcast_to(Value* a, const std::vector<int64_t>& shape, SourceRange loc);
  Block* new_block(Op* parent);
  Value* block_arg(Block* b, Type t);
  Function& function() { return f_; }

 private:
  Function& f_;
  Block* block_;
  std::list<std::unique_ptr<Op>>::iterator before_;
};

/// A deep copy of `f` (its signature, values and ops), for lowering it once per target.
std::unique_ptr<Function> clone(const Function& f);

/// Prints a function in the stable text form of `--emit=tir`: values numbered in program order,
/// no pointers.
std::string print(const Function& f);

/// The printed name of a value (%12, %A).
using ValueName = std::function<std::string(const Value*)>;
/// What a later stage adds to the printed IR: lines before and after an op, at its
/// indentation, and an annotation after its type (the lowered form's asynchronous copies,
/// waits and barriers, codegen/lowering/lowered_text.cpp). Every value is named before printing
/// starts, in the same program order as without notes, so notes may name any value.
struct PrintNotes {
  std::function<std::vector<std::string>(const Op&, const ValueName&)> before, after;
  std::function<std::string(const Op&, const ValueName&)> annotation;  ///< "" or " {...}"
};
std::string print(const Function& f, const PrintNotes& notes);

/// Checks the IR's invariants (operand counts, types, terminators, dominance of uses within
/// regions); returns the first problem, or "" when valid.
std::string verify(const Function& f);

/// Calls `fn` on every op, nested ops after their parent (pre-order).
template <typename Fn>
void walk(Block& b, Fn&& fn) {
  for (auto& op : b.ops) {
    fn(*op);
    for (auto& r : op->regions) walk(*r, fn);
  }
}
/// The same over a block that is not changed: `fn` takes a const Op&.
template <typename Fn>
void walk(const Block& b, Fn&& fn) {
  for (const auto& op : b.ops) {
    fn(static_cast<const Op&>(*op));
    for (const auto& r : op->regions) walk(static_cast<const Block&>(*r), fn);
  }
}

}  // namespace tilec::ir
