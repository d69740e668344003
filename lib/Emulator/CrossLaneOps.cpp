//===- CrossLaneOps.cpp - shuffles, DPP, permlane swaps, lane votes -------===//
//
// Values move between lanes in 32-bit pieces, as the AMDGPU lowerings move
// them: smaller values zero-extended, larger ones split. Each piece is one
// call of the engine, which completes when the whole wave has made it.
//===----------------------------------------------------------------------===//

#include "Rewrites.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk::emulator;

namespace {

/// A value of 32 bits or fewer (scalar or vector) as an i32, and back.
bool fitsI32(Type t) {
  int64_t bytes = storageBytes(t);
  return bytes == 4 || (!isa<VectorType>(t) && (bytes == 1 || bytes == 2));
}

Value toI32(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  if (auto vector = dyn_cast<VectorType>(t)) {
    auto one = VectorType::get({1}, b.getI32Type());
    Value cast = vector::BitCastOp::create(b, loc, one, v);
    return vector::ExtractOp::create(b, loc, cast, 0);
  }
  unsigned bits = t.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  if (t != intType)
    v = arith::BitcastOp::create(b, loc, intType, v);
  if (bits < 32)
    v = arith::ExtUIOp::create(b, loc, b.getI32Type(), v);
  return v;
}

Value fromI32(OpBuilder &b, Location loc, Value v, Type t) {
  if (auto vector = dyn_cast<VectorType>(t)) {
    auto one = VectorType::get({1}, b.getI32Type());
    Value splat = vector::BroadcastOp::create(b, loc, one, v);
    return vector::BitCastOp::create(b, loc, vector, splat);
  }
  unsigned bits = t.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  if (bits < 32)
    v = arith::TruncIOp::create(b, loc, intType, v);
  if (t != intType)
    v = arith::BitcastOp::create(b, loc, t, v);
  return v;
}

/// A value whose size is a multiple of 4 bytes (or 1, 2 bytes) as the i32
/// pieces the AMDGPU lowering moves across lanes, and back.
bool splitsIntoI32(Type t) {
  int64_t bytes = storageBytes(t);
  return fitsI32(t) || (bytes > 0 && bytes % 4 == 0);
}

SmallVector<Value> toI32Pieces(OpBuilder &b, Location loc, Value v) {
  if (fitsI32(v.getType()))
    return {toI32(b, loc, v)};
  Type t = v.getType();
  if (!isa<VectorType>(t))
    v = vector::BroadcastOp::create(b, loc, VectorType::get({1}, t), v);
  auto pieces = VectorType::get({storageBytes(t) / 4}, b.getI32Type());
  Value cast = vector::BitCastOp::create(b, loc, pieces, v);
  SmallVector<Value> out;
  for (int64_t i = 0; i < pieces.getNumElements(); ++i)
    out.push_back(vector::ExtractOp::create(b, loc, cast, i));
  return out;
}

Value fromI32Pieces(OpBuilder &b, Location loc, ArrayRef<Value> pieces,
                    Type t) {
  if (fitsI32(t))
    return fromI32(b, loc, pieces[0], t);
  auto type = VectorType::get({int64_t(pieces.size())}, b.getI32Type());
  Value vector = vector::FromElementsOp::create(b, loc, type, pieces);
  if (auto vt = dyn_cast<VectorType>(t))
    return vector::BitCastOp::create(b, loc, vt, vector);
  Value one =
      vector::BitCastOp::create(b, loc, VectorType::get({1}, t), vector);
  return vector::ExtractOp::create(b, loc, one, 0);
}

/// The DPP_CTRL field of the instruction, as the AMDGPU lowering encodes
/// amdgpu.dpp's kind and argument; none for the wave-wide shifts, which the
/// engine does not model.
std::optional<int64_t> dppControl(amdgpu::DPPOp op) {
  Attribute arg = op.getPermArgument().value_or(Attribute());
  auto n = [&] { return cast<IntegerAttr>(arg).getInt(); };
  switch (op.getKind()) {
  case amdgpu::DPPPerm::quad_perm: {
    int64_t ctrl = 0;
    for (auto [i, lane] : llvm::enumerate(cast<ArrayAttr>(arg)))
      ctrl |= cast<IntegerAttr>(lane).getInt() << (2 * i);
    return ctrl;
  }
  case amdgpu::DPPPerm::row_shl:
    return 0x100 + n();
  case amdgpu::DPPPerm::row_shr:
    return 0x110 + n();
  case amdgpu::DPPPerm::row_ror:
    return 0x120 + n();
  case amdgpu::DPPPerm::row_mirror:
    return 0x140;
  case amdgpu::DPPPerm::row_half_mirror:
    return 0x141;
  case amdgpu::DPPPerm::row_bcast_15:
    return 0x142;
  case amdgpu::DPPPerm::row_bcast_31:
    return 0x143;
  default:
    return std::nullopt;
  }
}

LogicalResult rewriteDpp(OpBuilder &b, amdgpu::DPPOp op, EmulatorCalls &calls) {
  Type t = op.getType();
  auto ctrl = dppControl(op);
  if (!ctrl || !splitsIntoI32(t))
    return noEmulation(op, " of this kind or type");
  Location loc = op.getLoc();
  SmallVector<Value> olds = toI32Pieces(b, loc, op.getOld());
  SmallVector<Value> srcs = toI32Pieces(b, loc, op.getSrc());
  SmallVector<Value> out;
  for (auto [old, src] : llvm::zip(olds, srcs))
    out.push_back(calls.call(b, loc, "hkemu_dpp",
                             {old, src, calls.i32(b, loc, *ctrl),
                              calls.i32(b, loc, op.getRowMask()),
                              calls.i32(b, loc, op.getBankMask()),
                              calls.i32(b, loc, op.getBoundCtrl())},
                             b.getI32Type())[0]);
  op.getResult().replaceAllUsesWith(fromI32Pieces(b, loc, out, t));
  return success();
}

/// One v_permlane{16,32}_swap of `old` (vdst) and `src` (vsrc): the pair
/// (vdst', vsrc') it leaves in this lane.
std::pair<Value, Value> swapPair(OpBuilder &b, Location loc, int64_t rows,
                                 Value old, Value src, EmulatorCalls &calls) {
  Type i32 = b.getI32Type();
  EmulatorCalls::Slot dst = calls.slot(i32, 0), srcSlot = calls.slot(i32, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  memref::StoreOp::create(b, loc, old, dst.memref, zero);
  memref::StoreOp::create(b, loc, src, srcSlot.memref, zero);
  calls.call(b, loc, "hkemu_permlane_swap",
             {calls.i32(b, loc, rows), dst.ptr, srcSlot.ptr});
  return {calls.reload(b, loc, dst, i32), calls.reload(b, loc, srcSlot, i32)};
}

/// amdgpu.permlane_swap as its LLVM 22 lowering computes it: the swap
/// instruction with the value as both operands, then per lane the result
/// that changed (vdst' unless it equals the input, else vsrc').
LogicalResult rewritePermlaneSwap(OpBuilder &b, amdgpu::PermlaneSwapOp op,
                                  EmulatorCalls &calls) {
  Type t = op.getType();
  if (!splitsIntoI32(t))
    return noEmulation(op, " of this type");
  Location loc = op.getLoc();
  SmallVector<Value> out;
  for (Value piece : toI32Pieces(b, loc, op.getSrc())) {
    auto [d, s] = swapPair(b, loc, op.getRowLength(), piece, piece, calls);
    Value same =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, piece);
    out.push_back(arith::SelectOp::create(b, loc, same, s, d));
  }
  op.getResult().replaceAllUsesWith(fromI32Pieces(b, loc, out, t));
  return success();
}
/// rocdl.permlane16/32.swap, whose two results the reductions combine: the
/// swap instruction itself; the result is the pair {vdst', vsrc'}.
template <typename SwapOp>
LogicalResult rewriteRocdlPermlaneSwap(OpBuilder &b, SwapOp op, int64_t rows,
                                       EmulatorCalls &calls) {
  if (op.getFi() || op.getBoundControl())
    return noEmulation(op, " with fi or bound_ctrl");
  Location loc = op.getLoc();
  auto [d, s] = swapPair(b, loc, rows, op.getOld(), op.getSrc(), calls);
  Value pair = LLVM::PoisonOp::create(b, loc, op.getRes().getType());
  pair = LLVM::InsertValueOp::create(b, loc, pair, d, ArrayRef<int64_t>{0});
  pair = LLVM::InsertValueOp::create(b, loc, pair, s, ArrayRef<int64_t>{1});
  op.getRes().replaceAllUsesWith(pair);
  return success();
}

int64_t shuffleMode(gpu::ShuffleMode mode) {
  switch (mode) {
  case gpu::ShuffleMode::XOR:
    return 0;
  case gpu::ShuffleMode::UP:
    return 1;
  case gpu::ShuffleMode::DOWN:
    return 2;
  case gpu::ShuffleMode::IDX:
    return 3;
  }
  llvm_unreachable("unknown shuffle mode");
}

/// Values wider than 32 bits move as 32-bit pieces, as the ROCDL lowering
/// of gpu.shuffle does; every piece has the same source lane and validity.
LogicalResult rewriteShuffle(OpBuilder &b, gpu::ShuffleOp op,
                             EmulatorCalls &calls) {
  Type t = op.getValue().getType();
  if (!splitsIntoI32(t))
    return noEmulation(op, " on " + std::to_string(storageBytes(t)) +
                               "-byte values");
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  EmulatorCalls::Slot valid = calls.slot(i32, 0);
  SmallVector<Value> out;
  for (Value piece : toI32Pieces(b, loc, op.getValue()))
    out.push_back(
        calls.call(b, loc, "hkemu_shuffle",
                   {piece, op.getOffset(), op.getWidth(),
                    calls.i32(b, loc, shuffleMode(op.getMode())), valid.ptr},
                   i32)[0]);
  Value flag = calls.reload(b, loc, valid, i32);
  Value isValid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, flag,
                                        calls.i32(b, loc, 0));
  op.getShuffleResult().replaceAllUsesWith(fromI32Pieces(b, loc, out, t));
  op.getValid().replaceAllUsesWith(isValid);
  return success();
}

} // namespace

LogicalResult hk::emulator::rewriteCrossLaneOp(Operation *op,
                                               EmulatorCalls &calls,
                                               bool &handled) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  handled = true;
  if (auto dpp = dyn_cast<amdgpu::DPPOp>(op))
    return rewriteDpp(b, dpp, calls);
  if (auto swap = dyn_cast<amdgpu::PermlaneSwapOp>(op))
    return rewritePermlaneSwap(b, swap, calls);
  if (auto swap = dyn_cast<ROCDL::Permlane16SwapOp>(op))
    return rewriteRocdlPermlaneSwap(b, swap, 16, calls);
  if (auto swap = dyn_cast<ROCDL::Permlane32SwapOp>(op))
    return rewriteRocdlPermlaneSwap(b, swap, 32, calls);
  if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op))
    return rewriteShuffle(b, shuffle, calls);
  if (auto first = dyn_cast<ROCDL::ReadfirstlaneOp>(op)) {
    Type t = first.getType();
    if (!fitsI32(t))
      return noEmulation(op, " on values wider than 32 bits");
    Value v = calls.call(b, loc, "hkemu_readfirstlane",
                         toI32(b, loc, first.getSrc()), b.getI32Type())[0];
    first.getRes().replaceAllUsesWith(fromI32(b, loc, v, t));
    return success();
  }
  if (auto ballot = dyn_cast<ROCDL::BallotOp>(op)) {
    // The engine's mask is 64 bits: one per lane of the wave.
    if (ballot.getType() != b.getI64Type())
      return noEmulation(op, " of other than 64 bits (a wave has 64 lanes)");
    Value pred =
        arith::ExtUIOp::create(b, loc, b.getI32Type(), ballot.getPred());
    Value v = calls.call(b, loc, "hkemu_ballot", pred, b.getI64Type())[0];
    ballot.getRes().replaceAllUsesWith(v);
    return success();
  }
  if (auto perm = dyn_cast<ROCDL::DsBpermuteOp>(op)) {
    Value v = calls.call(b, loc, "hkemu_bpermute",
                         {perm.getIndex(), perm.getSrc()}, b.getI32Type())[0];
    perm.getRes().replaceAllUsesWith(v);
    return success();
  }
  handled = false;
  return success();
}
