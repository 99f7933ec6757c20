// load and store of tiles: one 64-bit base per tile and thread, vectors along the contiguous
// axis, interior and edge paths (memory.cpp).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "codegen/ptx/context.h"

namespace tilec::codegen {

class MemoryEmitter : FamilyEmitter {
 public:
  explicit MemoryEmitter(EmitContext& cx) : FamilyEmitter(cx) {}

  /// A tile load: vectors under one predicate each in the vectorized variant, else an
  /// unmasked path for interior tiles and a masked one (padding) for edge tiles.
  void load(const ir::Op& op);
  /// A tile store, the mirror of load; threads holding copies do not store.
  void store(const ir::Op& op);
  /// A tile load of the general variant (element by element) handed on `group` registers at a
  /// time: loads registers [first, first + group) of the result's layout into fresh registers
  /// and calls `consume(first, regs)`, group after group, on the unmasked path for interior
  /// tiles and again on the masked one (padding) for edge tiles, each element's address
  /// computed just before its load. Only one group is live at a time, not the whole tile
  /// (mma_sync.cpp stages mma operands so). `group` divides the registers per thread.
  void load_in_groups(const ir::Op& op, int64_t group,
                      const std::function<void(int64_t first, const std::vector<std::string>& regs)>& consume);

  /// A tile store of the general variant (element by element) whose values come `group`
  /// registers at a time: `produce(first)` returns registers [first, first + group) of layout
  /// `l` (the stored tile's shape; any layout, not necessarily its value's), emitted on the
  /// unmasked path for interior tiles and again on the masked one for edge tiles, each
  /// element's address computed just before its store. Threads holding copies in `l` do not
  /// store. `group` divides the registers per thread.
  void store_in_groups(const ir::Op& op, const Layout& l, int64_t group,
                       const std::function<std::vector<std::string>(int64_t first)>& produce);

  /// Address computation of one load or store (memory.cpp).
  struct Access;

 private:
  /// The tile's base address, bounds and interior predicate for `op`, whose tile has layout
  /// `l` and whose indices start at operand `first_index`.
  Access plan_access(const ir::Op& op, const ir::Value* array, const Layout& l, size_t first_index);
  /// One element of a load into `dst` (bool through a byte), under predicate `pred` ("" =
  /// always).
  void load_element(DType dt, const std::string& dst, const std::string& addr, const std::string& pred);
  /// One element of a store of register `v` (bool as a byte), under predicate `pred`.
  void store_element(DType dt, const std::string& v, const std::string& addr, const std::string& pred);
};

}  // namespace tilec::codegen
