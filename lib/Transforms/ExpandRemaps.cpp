//===- ExpandRemaps.cpp - grid remaps as arith ops ------------------------===//
//
// hk.xcd_remap and hk.group_remap become index arithmetic with HipKittens'
// formulas (include/common/util.cuh: chiplet_transform_chunked; the WGM
// grouping of kernels/gemm/bf16fp32/mi350x/256_256_64_32_with16x32.cpp).
// Ids, counts, rows and cols are non-negative, so divisions are unsigned;
// the group size uses signed min/max because `rows - first` is negative for
// ids past the grid.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace hk {
#define GEN_PASS_DEF_HKEXPANDREMAPS
#include "hk/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// `new = (id / (x*c)) * (x*c) + (id % x) * c + (id / x) % c` below the last
/// full block of x*c ids, `id` from there on. HK tests `id > limit`; at
/// `id == limit` the formula gives `limit` back, so `id < limit` is the same.
static Value expandXcdRemap(OpBuilder &b, XcdRemapOp op) {
  Location loc = op.getLoc();
  int64_t xcds = op.getXcds(), chunk = op.getChunk();
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value id = op.getId(), block = cst(xcds * chunk), x = cst(xcds),
        c = cst(chunk);
  Value fullBlocks = arith::DivUIOp::create(b, loc, op.getCount(), block);
  Value limit = arith::MulIOp::create(b, loc, fullBlocks, block);
  Value blockBase = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, id, block), block);
  Value xcd = arith::RemUIOp::create(b, loc, id, x);
  Value posInChunk =
      arith::RemUIOp::create(b, loc, arith::DivUIOp::create(b, loc, id, x), c);
  Value remapped = arith::AddIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, blockBase,
                            arith::MulIOp::create(b, loc, xcd, c)),
      posInChunk);
  Value inFullBlock =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, id, limit);
  return arith::SelectOp::create(b, loc, inFullBlock, remapped, id);
}

/// Triton/HK WGM order: groups of `group` tile rows walked column by column;
/// the last group has `rows - first` rows. Past the grid that size is <= 0
/// (HK divides by it); clamping it to 1 keeps the arithmetic defined and
/// yields a row >= rows or a col >= cols, a tile outside the output.
static std::pair<Value, Value> expandGroupRemap(OpBuilder &b, GroupRemapOp op) {
  Location loc = op.getLoc();
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value id = op.getId(), group = cst(op.getGroup());
  Value perGroup = arith::MulIOp::create(b, loc, group, op.getCols());
  Value groupId = arith::DivUIOp::create(b, loc, id, perGroup);
  Value first = arith::MulIOp::create(b, loc, groupId, group);
  Value left = arith::SubIOp::create(b, loc, op.getRows(), first);
  Value size = arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, left, group), cst(1));
  Value inGroup = arith::RemUIOp::create(b, loc, id, perGroup);
  Value row = arith::AddIOp::create(
      b, loc, first, arith::RemUIOp::create(b, loc, inGroup, size));
  Value col = arith::DivUIOp::create(b, loc, inGroup, size);
  return {row, col};
}

struct ExpandRemaps : hk::impl::HKExpandRemapsBase<ExpandRemaps> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      OpBuilder b(op);
      if (auto xcd = dyn_cast<XcdRemapOp>(op)) {
        xcd.getResult().replaceAllUsesWith(expandXcdRemap(b, xcd));
        xcd.erase();
      } else if (auto grp = dyn_cast<GroupRemapOp>(op)) {
        auto [row, col] = expandGroupRemap(b, grp);
        grp.getRow().replaceAllUsesWith(row);
        grp.getCol().replaceAllUsesWith(col);
        grp.erase();
      }
    });
  }
};

} // namespace
