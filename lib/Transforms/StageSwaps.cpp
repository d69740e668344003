//===- StageSwaps.cpp - hk.swap_layout of 16-bit tiles through LDS --------===//
//
// convert-hk-to-amdgpu moves a swap_layout's elements between lanes
// (LayoutChanges.cpp): between the MFMA accumulator layout and the
// A-operand layout of a 16-bit tile, the transposition HipKittens does
// through LDS, attention backward's 64x32 bf16 dS takes three butterflies
// (24 lane exchanges of 32-bit words and their selects) and 16 ds_bpermute
// per step; before the butterflies, 256 ds_bpermute. Through LDS, each lane
// writes its elements to their place in a shared tile and reads them back
// in the other layout: 32 ds_write_b16 and 4 ds_read_b128 for the same
// tile.
//
// The shared tile is the wave's own: the kernel gets one allocation of
// `waves` tiles, and wave w uses rows [w * R, (w + 1) * R), so no other
// wave touches it and no barrier is needed; a wave's LDS accesses complete
// in order, so its load sees its store. Swaps are staged when the kernel's
// shared tiles plus these allocations fit the chip's LDS (attention
// backward: 64 KiB + 16 KiB fits gfx950's 160 KiB, not gfx942's 64 KiB,
// where the swap exchanges lanes).
//===----------------------------------------------------------------------===//

#include "hk/Base/Chip.h"
#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace hk {
#define GEN_PASS_DEF_HKSTAGESWAPS
#include "hk/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// The base tile of the shared tiles swaps go through: HipKittens' 16x32
/// for 16-bit elements.
constexpr int64_t kSubRows = 16, kSubCols = 32;

bool isStageable(SwapLayoutOp swap) {
  auto type = cast<RankedTensorType>(swap.getSource().getType());
  return type.getRank() == 2 && type.getElementTypeBitWidth() == 16 &&
         type.getDimSize(0) % kSubRows == 0 &&
         type.getDimSize(1) % kSubCols == 0;
}

struct HKStageSwaps : hk::impl::HKStageSwapsBase<HKStageSwaps> {
  using HKStageSwapsBase::HKStageSwapsBase;

  void runOnOperation() override {
    const hk::ChipInfo *info = hk::lookupChip(chip);
    if (!info) {
      getOperation().emitError("hk-stage-swaps: unknown chip '")
          << chip << "'; supported: " << hk::supportedChipNames();
      return signalPassFailure();
    }
    getOperation().walk([&](KernelOp kernel) { stage(kernel, *info); });
  }

  void stage(KernelOp kernel, const hk::ChipInfo &info) {
    int64_t waves = kernel.getWaves();
    int64_t used = 0;
    for (AllocSharedOp alloc : kernel.getBody().getOps<AllocSharedOp>())
      used += alloc.getType().getSizeInBytes();
    SmallVector<SwapLayoutOp> swaps;
    kernel.walk([&](SwapLayoutOp swap) {
      if (isStageable(swap))
        swaps.push_back(swap);
    });
    Block &entry = kernel.getBody().front();
    for (SwapLayoutOp swap : swaps) {
      auto type = cast<RankedTensorType>(swap.getSource().getType());
      int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
      auto all =
          SharedTileType::get(&getContext(), {waves * rows, cols},
                              type.getElementType(), {kSubRows, kSubCols});
      if (used + all.getSizeInBytes() > info.ldsBytes)
        continue;
      used += all.getSizeInBytes();
      Location loc = swap.getLoc();
      OpBuilder b(&entry, entry.begin());
      Value tiles = AllocSharedOp::create(b, loc, all);
      auto mineType =
          SharedTileType::get(&getContext(), {rows, cols},
                              type.getElementType(), {kSubRows, kSubCols});
      b.setInsertionPoint(swap);
      Value wave = WaveIdOp::create(b, loc);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value mine = SubtileOp::create(b, loc, mineType, tiles, wave, zero);
      StoreOp::create(b, loc, swap.getSource(), mine, ValueRange{});
      Value result = LoadOp::create(b, loc, swap.getType(), mine, ValueRange{});
      swap.replaceAllUsesWith(result);
      swap.erase();
    }
  }
};

} // namespace
