//===- LaneMap.cpp - a layout as an affine function of the lane id --------===//

#include "LaneMap.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace hk;
using hk::Coord;

static Coord sub(Coord a, Coord b) { return {a.row - b.row, a.col - b.col}; }

std::optional<LaneMap>
hk::buildLaneMap(int64_t extent, int64_t numRegs,
                 llvm::function_ref<Coord(int64_t, int64_t)> coordOf) {
  LaneMap map;
  map.extent = extent;
  Coord origin = coordOf(0, 0);
  map.perLane = extent > 1 ? sub(coordOf(1, 0), origin) : Coord{0, 0};
  map.perGroup =
      extent < hk::kWaveSize ? sub(coordOf(extent, 0), origin) : Coord{0, 0};
  for (int64_t reg = 0; reg < numRegs; ++reg)
    map.regs.push_back(coordOf(0, reg));
  for (int64_t lane = 0; lane < hk::kWaveSize; ++lane) {
    int64_t r = lane % extent, g = lane / extent;
    for (int64_t reg = 0; reg < numRegs; ++reg) {
      Coord want = coordOf(lane, reg);
      Coord got{r * map.perLane.row + g * map.perGroup.row + map.regs[reg].row,
                r * map.perLane.col + g * map.perGroup.col + map.regs[reg].col};
      if (!(want == got))
        return std::nullopt;
    }
  }
  return map;
}

std::optional<LaneMap> hk::laneMapOf(const hk::TileLayout &layout) {
  return buildLaneMap(
      layout.base.laneExtent(), layout.regsPerLane(),
      [&](int64_t lane, int64_t reg) { return layout.elementOf(lane, reg); });
}

std::optional<LaneMap> hk::laneMapOf(const hk::VectorLayout &layout) {
  return buildLaneMap(layout.tile.base.laneExtent(), layout.regsPerLane(),
                      [&](int64_t lane, int64_t reg) {
                        return Coord{0, layout.indexOf(lane, reg)};
                      });
}

/// a * x + b * y, leaving out zero terms so the common cases stay small.
static Value affine2(OpBuilder &b, Location loc, Value x, int64_t a, Value y,
                     int64_t c) {
  auto term = [&](Value v, int64_t k) -> Value {
    if (k == 0)
      return {};
    if (k == 1)
      return v;
    Value kv = arith::ConstantIndexOp::create(b, loc, k);
    return arith::MulIOp::create(b, loc, v, kv);
  };
  Value t0 = term(x, a), t1 = term(y, c);
  if (t0 && t1)
    return arith::AddIOp::create(b, loc, t0, t1);
  if (t0 || t1)
    return t0 ? t0 : t1;
  return arith::ConstantIndexOp::create(b, loc, 0);
}

std::pair<Value, Value> hk::emitLaneOffset(OpBuilder &b, Location loc,
                                           const LaneMap &map) {
  // Kernels run with (64 * waves) x 1 x 1 threads, so the lane is the x
  // thread id modulo the wave size.
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lane = arith::RemUIOp::create(
      b, loc, tid, arith::ConstantIndexOp::create(b, loc, hk::kWaveSize));
  Value ext = arith::ConstantIndexOp::create(b, loc, map.extent);
  Value r = arith::RemUIOp::create(b, loc, lane, ext);
  Value g = arith::DivUIOp::create(b, loc, lane, ext);
  return {affine2(b, loc, r, map.perLane.row, g, map.perGroup.row),
          affine2(b, loc, r, map.perLane.col, g, map.perGroup.col)};
}
