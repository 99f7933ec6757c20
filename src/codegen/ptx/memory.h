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

  /// A tile load: a window of an earlier load's tile from that tile's registers
  /// (window_loads.h, load_window), else vectors under one predicate each in the vectorized
  /// variant, else an unmasked path for interior tiles and a masked one (padding) for edge tiles.
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
  /// load without the window: into `out`, the result's registers.
  void load_plain(const ir::Op& op, const std::vector<std::string>& out);
  /// The window load `op` of `w.base` (window_load.cpp): each element from a register of the
  /// base tile, the thread's own (mov) or the neighbouring lane's along the last axis
  /// (shfl.sync), and in the lanes at the end of a warp's run, where the shuffle brings nothing
  /// of the window, loaded (load_elements_where). With `w.check_wrap`, a CTA-uniform test of
  /// the two offsets' difference picks load_plain where it is not `w.delta`.
  void load_window(const ir::Op& op, const WindowLoad& w, const std::vector<std::string>& out);
  /// Registers `regs` (numbers in the result's layout) of load `op`'s tile, each loaded into
  /// `out[r]` with the full bounds test (padding outside the array), in the threads where
  /// `pred` holds ("" = all); the other threads' registers are left alone.
  void load_elements_where(const ir::Op& op, const std::vector<int64_t>& regs, const std::vector<std::string>& out,
                           const std::string& pred);
  /// The tile's base address, bounds and interior predicate for `op`, whose tile has layout
  /// `l` and whose indices start at operand `first_index`.
  Access plan_access(const ir::Op& op, const ir::Value* array, const Layout& l, size_t first_index);
  /// The s64 register of clamp(bound, 0, extent) along array axis `axis` of a bound= access.
  std::string bounded_extent(const ir::Op& op, size_t axis);
  /// One element of a load into `dst` (bool through a byte), under predicate `pred` ("" =
  /// always).
  void load_element(DType dt, const std::string& dst, const std::string& addr, const std::string& pred);
  /// One element of a store of register `v` (bool as a byte), under predicate `pred`.
  void store_element(DType dt, const std::string& v, const std::string& addr, const std::string& pred);
};

}  // namespace tilec::codegen
