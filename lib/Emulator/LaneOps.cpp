//===- LaneOps.cpp - ids, barriers, MFMA and cross-lane ops ---------------===//
//
// The workgroup is 64*W x 1 x 1 lanes (the lowering's known_block_size), so
// thread_id.x = wave * 64 + lane and the other thread dimensions are 0.
//===----------------------------------------------------------------------===//

#include "Rewrites.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::hk::emulator;

namespace {

/// Scheduling hints and waits: the engine completes every access at once,
/// so there is nothing to wait for and no schedule to shape.
const llvm::StringSet<> kDropped = {
    "rocdl.s.setprio",           "rocdl.sched.barrier",
    "rocdl.sched.group.barrier", "rocdl.iglp.opt",
    "rocdl.s.waitcnt",           "rocdl.s.wait.dscnt",
    "rocdl.s.wait.loadcnt",      "rocdl.s.wait.storecnt",
    "rocdl.s.wait.expcnt",       "amdgpu.sched_barrier",
    "amdgpu.memory_counter_wait"};

const llvm::StringSet<> kBarriers = {"gpu.barrier", "rocdl.s.barrier",
                                     "rocdl.barrier", "amdgpu.lds_barrier"};

Value dimension(OpBuilder &b, Location loc, EmulatorCalls &calls,
                gpu::Dimension d) {
  return calls.i32(b, loc, static_cast<int64_t>(d));
}

/// The replacement of a gpu id op, as an index; null if `op` is none.
Value idValue(OpBuilder &b, Operation *op, EmulatorCalls &calls) {
  Location loc = op->getLoc();
  Type i32 = b.getI32Type();
  auto one = [&](StringRef fn) {
    return calls.i32ToIndex(b, loc, calls.call(b, loc, fn, {}, i32)[0]);
  };
  auto withDim = [&](StringRef fn, gpu::Dimension d) {
    return calls.i32ToIndex(
        b, loc, calls.call(b, loc, fn, dimension(b, loc, calls, d), i32)[0]);
  };
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
    if (id.getDimension() != gpu::Dimension::x)
      return constant(0);
    Value wave = one("hkemu_wave_id");
    Value base = arith::MulIOp::create(b, loc, wave, constant(64));
    return arith::AddIOp::create(b, loc, base, one("hkemu_lane_id"));
  }
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op)) {
    if (dim.getDimension() != gpu::Dimension::x)
      return constant(1);
    return arith::MulIOp::create(b, loc, one("hkemu_num_waves"), constant(64));
  }
  if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    return withDim("hkemu_workgroup_id", id.getDimension());
  if (auto dim = dyn_cast<gpu::GridDimOp>(op))
    return withDim("hkemu_num_workgroups", dim.getDimension());
  if (isa<gpu::LaneIdOp>(op))
    return one("hkemu_lane_id");
  if (isa<gpu::SubgroupIdOp>(op))
    return one("hkemu_wave_id");
  if (isa<gpu::NumSubgroupsOp>(op))
    return one("hkemu_num_waves");
  if (isa<gpu::SubgroupSizeOp>(op))
    return constant(64);
  return {};
}

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

/// amdgpu.permlane_swap as its LLVM 22 lowering computes it: the swap
/// instruction with the value as both operands, then per lane the result
/// that changed (vdst' unless it equals the input, else vsrc').
LogicalResult rewritePermlaneSwap(OpBuilder &b, amdgpu::PermlaneSwapOp op,
                                  EmulatorCalls &calls) {
  Type t = op.getType();
  if (!splitsIntoI32(t))
    return noEmulation(op, " of this type");
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  EmulatorCalls::Slot dst = calls.slot(i32, 0), src = calls.slot(i32, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> out;
  for (Value piece : toI32Pieces(b, loc, op.getSrc())) {
    memref::StoreOp::create(b, loc, piece, dst.memref, zero);
    memref::StoreOp::create(b, loc, piece, src.memref, zero);
    calls.call(b, loc, "hkemu_permlane_swap",
               {calls.i32(b, loc, op.getRowLength()), dst.ptr, src.ptr});
    Value d = calls.reload(b, loc, dst, i32),
          s = calls.reload(b, loc, src, i32);
    Value same =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, piece);
    out.push_back(arith::SelectOp::create(b, loc, same, s, d));
  }
  op.getResult().replaceAllUsesWith(fromI32Pieces(b, loc, out, t));
  return success();
}

std::optional<int64_t> mfmaTypeCode(Type t) {
  if (auto vector = dyn_cast<VectorType>(t))
    t = vector.getElementType();
  if (t.isBF16())
    return 0; // HKEMU_BF16
  if (t.isF16())
    return 1; // HKEMU_F16
  if (isa<Float8E4M3FNUZType, Float8E4M3FNType>(t))
    return 2; // HKEMU_FP8, in the chip's format
  if (isa<Float8E5M2FNUZType, Float8E5M2Type>(t))
    return 3; // HKEMU_BF8
  return std::nullopt;
}

LogicalResult rewriteMfma(OpBuilder &b, amdgpu::MFMAOp op,
                          EmulatorCalls &calls) {
  if (op.getBlocks() != 1 || op.getCbsz() != 0 || op.getAbid() != 0 ||
      op.getBlgp() != amdgpu::MFMAPermB::none || op.getReducePrecision() ||
      op.getNegateA() || op.getNegateB() || op.getNegateC())
    return noEmulation(op, " with blocks, cbsz, abid, blgp, reducePrecision "
                           "or negation");
  auto a = mfmaTypeCode(op.getSourceA().getType());
  auto bt = mfmaTypeCode(op.getSourceB().getType());
  auto acc = dyn_cast<VectorType>(op.getDestC().getType());
  if (!a || !bt || !isa<VectorType>(op.getSourceA().getType()) || !acc ||
      !acc.getElementType().isF32())
    return noEmulation(op, " on these types (bf16, f16 or 8-bit float "
                           "vectors into f32 accumulators only)");
  Location loc = op.getLoc();
  Value pa = calls.spill(b, loc, op.getSourceA(), 0);
  Value pb = calls.spill(b, loc, op.getSourceB(), 1);
  Value pc = calls.spill(b, loc, op.getDestC(), 2);
  calls.call(b, loc, "hkemu_mfma",
             {calls.i32(b, loc, op.getM()), calls.i32(b, loc, op.getN()),
              calls.i32(b, loc, op.getK()), calls.i32(b, loc, *a),
              calls.i32(b, loc, *bt), pa, pb, pc, pc});
  // d aliases c, as the ABI allows.
  Value d = calls.reload(b, loc, calls.slot(acc, 2), acc);
  op.getDestD().replaceAllUsesWith(d);
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

/// The f32 smallest normal, 2^-126: v_exp_f32 flushes smaller results to
/// zero and v_log_f32 reads smaller inputs as zero.
Value flushDenormal(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  auto tiny = b.getFloatAttr(getElementTypeOrSelf(t), 0x1p-126);
  auto zero = b.getFloatAttr(getElementTypeOrSelf(t), 0.0);
  auto splat = [&](FloatAttr a) -> Value {
    if (auto vt = dyn_cast<VectorType>(t))
      return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, a));
    return arith::ConstantOp::create(b, loc, a);
  };
  Value small =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                            math::AbsFOp::create(b, loc, v), splat(tiny));
  return arith::SelectOp::create(b, loc, small, splat(zero), v);
}

/// rocdl.exp2 / rocdl.log (base 2) as the host's exp2 / log2, with the
/// hardware's denormal flushing. The host functions are correctly rounded
/// or close; the instructions are within about 1 ulp (docs/emulator.md).
LogicalResult rewriteMath(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  Value x = op->getOperand(0);
  if (!getElementTypeOrSelf(x.getType()).isF32())
    return noEmulation(op, " on types other than f32");
  Value r;
  if (isa<ROCDL::ROCDLExp2>(op))
    r = flushDenormal(b, loc, math::Exp2Op::create(b, loc, x));
  else
    r = math::Log2Op::create(b, loc, flushDenormal(b, loc, x));
  op->getResult(0).replaceAllUsesWith(r);
  return success();
}

/// Rewrites one op; returns failure() after reporting an error, and
/// success() whether or not the op was one of this file's.
LogicalResult rewriteOne(Operation *op, EmulatorCalls &calls, bool &erase) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  StringRef name = op->getName().getStringRef();
  erase = true;
  if (kDropped.contains(name))
    return success();
  if (kBarriers.contains(name)) {
    calls.call(b, loc, "hkemu_barrier", {});
    return success();
  }
  if (Value id = idValue(b, op, calls)) {
    op->getResult(0).replaceAllUsesWith(id);
    return success();
  }
  if (auto mfma = dyn_cast<amdgpu::MFMAOp>(op))
    return rewriteMfma(b, mfma, calls);
  if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op))
    return rewriteShuffle(b, shuffle, calls);
  if (isa<ROCDL::ROCDLExp2, ROCDL::ROCDLLog>(op))
    return rewriteMath(b, op);
  if (auto dpp = dyn_cast<amdgpu::DPPOp>(op))
    return rewriteDpp(b, dpp, calls);
  if (auto swap = dyn_cast<amdgpu::PermlaneSwapOp>(op))
    return rewritePermlaneSwap(b, swap, calls);
  if (auto first = dyn_cast<ROCDL::ReadfirstlaneOp>(op)) {
    Type t = first.getType();
    if (!fitsI32(t))
      return noEmulation(op, " on values wider than 32 bits");
    Value v = calls.call(b, loc, "hkemu_readfirstlane",
                         toI32(b, loc, first.getSrc()), b.getI32Type())[0];
    first.getRes().replaceAllUsesWith(fromI32(b, loc, v, t));
    return success();
  }
  if (auto perm = dyn_cast<ROCDL::DsBpermuteOp>(op)) {
    Value v = calls.call(b, loc, "hkemu_bpermute",
                         {perm.getIndex(), perm.getSrc()}, b.getI32Type())[0];
    perm.getRes().replaceAllUsesWith(v);
    return success();
  }
  erase = false;
  return success();
}

} // namespace

LogicalResult mlir::hk::emulator::rewriteLaneOps(func::FuncOp func,
                                                 EmulatorCalls &calls) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    bool erase = false;
    if (failed(rewriteOne(op, calls, erase)))
      return failure();
    if (erase)
      op->erase();
  }
  return success();
}
