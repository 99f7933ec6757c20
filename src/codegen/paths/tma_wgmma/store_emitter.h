// TMA stores (store_emitter.cpp; plan.h TmaStore, planned by tma_store.cpp): registers to a
// 128-byte-swizzled staging buffer, then thread 0 stores it box by box with
// cp.async.bulk.tensor.
#pragma once

#include <map>
#include <string>

#include "codegen/paths/tma_wgmma/plan.h"
#include "codegen/ptx/context.h"

namespace tilec::codegen::tma_wgmma {

class TmaStoreEmitter : FamilyEmitter {
 public:
  /// `consumer_index`: the ping-pong consumer's index register (TmaWgmmaEmitter), read when a
  /// store is emitted.
  TmaStoreEmitter(EmitContext& cx, const Plan& plan, const std::string& consumer_index)
      : FamilyEmitter(cx), pl_(plan), consumer_index_(consumer_index) {}

  /// The generic address (u64 register) of each TMA store's tensor-map parameter.
  std::map<const TmaStore*, std::string> maps;

  /// A TMA store: registers to the swizzled staging buffer, then thread 0 stores it box by box
  /// with cp.async.bulk.tensor and waits until the copy has read it.
  void store(const TmaStore& ts);
  /// Thread 0 waits until the TMA stores it issued have read their staging buffers (a
  /// persistent grid: before the next tile's staging, and before the CTA exits).
  void drain();

 private:
  const Plan& pl_;
  const std::string& consumer_index_;
};

}  // namespace tilec::codegen::tma_wgmma
