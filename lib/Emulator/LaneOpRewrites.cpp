//===- LaneOpRewrites.cpp - ids, barriers, hints, MFMA, math --------------===//
//
// The workgroup is 64*W x 1 x 1 lanes (the lowering's known_block_size), so
// thread_id.x = wave * 64 + lane and the other thread dimensions are 0.
//===----------------------------------------------------------------------===//

#include "Rewrites.h"

#include "hk/Runtime/Emulator.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace hk::emulator;

namespace {

/// Scheduling hints, and waits for what the engine completes at once (LDS
/// accesses, exports): no schedule to shape, nothing to wait for. Waits for
/// vector memory become hkemu_wait_vmcnt (LDS DMA lands there).
const llvm::StringSet<> kDropped = {
    "rocdl.s.setprio",     "rocdl.sched.barrier", "rocdl.sched.group.barrier",
    "rocdl.iglp.opt",      "rocdl.s.wait.dscnt",  "rocdl.s.wait.expcnt",
    "amdgpu.sched_barrier"};

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

std::optional<int64_t> mfmaTypeCode(Type t) {
  if (auto vector = dyn_cast<VectorType>(t))
    t = vector.getElementType();
  if (t.isBF16())
    return HKEMU_BF16;
  if (t.isF16())
    return HKEMU_F16;
  if (t.isF32())
    return HKEMU_F32;
  if (t.isSignlessInteger(8))
    return HKEMU_I8;
  // The 8-bit floats are in the chip's format.
  if (isa<Float8E4M3FNUZType, Float8E4M3FNType>(t))
    return HKEMU_FP8;
  if (isa<Float8E5M2FNUZType, Float8E5M2Type>(t))
    return HKEMU_BF8;
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
  // f32 sources are one register (a scalar); i8 ones accumulate in i32.
  auto acc = dyn_cast<VectorType>(op.getDestC().getType());
  bool scalarOk = op.getSourceA().getType().isF32();
  bool intAcc = a == HKEMU_I8;
  if (!a || !bt || *a != *bt ||
      !(isa<VectorType>(op.getSourceA().getType()) || scalarOk) || !acc ||
      !(intAcc ? acc.getElementType().isSignlessInteger(32)
               : acc.getElementType().isF32()))
    return noEmulation(op, " on these types (bf16, f16, f32 or 8-bit float "
                           "sources into f32 accumulators, i8 into i32)");
  Location loc = op.getLoc();
  Value pa = calls.spill(b, loc, op.getSourceA(), 0);
  Value pb = calls.spill(b, loc, op.getSourceB(), 1);
  Value pc = calls.spill(b, loc, op.getDestC(), 2);
  calls.call(b, loc, intAcc ? "hkemu_mfma_i32" : "hkemu_mfma",
             {calls.i32(b, loc, op.getM()), calls.i32(b, loc, op.getN()),
              calls.i32(b, loc, op.getK()), calls.i32(b, loc, *a),
              calls.i32(b, loc, *bt), pa, pb, pc, pc});
  // d aliases c, as the ABI allows.
  Value d = calls.reload(b, loc, calls.slot(acc, 2), acc);
  op.getDestD().replaceAllUsesWith(d);
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

/// The vmcnt a wait op requires, if it waits for vector memory.
std::optional<int64_t> vmcntOf(Operation *op) {
  if (auto wait = dyn_cast<amdgpu::MemoryCounterWaitOp>(op)) {
    // gfx9 has one counter for loads and stores (vmcnt).
    std::optional<int64_t> count;
    for (std::optional<uint32_t> c : {wait.getLoad(), wait.getStore()})
      if (c)
        count = std::min<int64_t>(count.value_or(*c), *c);
    return count;
  }
  if (auto wait = dyn_cast<ROCDL::SWaitcntOp>(op)) {
    // gfx9 encoding: vmcnt in bits 3:0 and 15:14.
    uint32_t bits = uint32_t(wait.getBitfield());
    return int64_t((bits & 0xF) | ((bits >> 14) & 0x3) << 4);
  }
  if (auto wait = dyn_cast<ROCDL::WaitLoadcntOp>(op))
    return int64_t(wait.getCount());
  if (auto wait = dyn_cast<ROCDL::WaitStorecntOp>(op))
    return int64_t(wait.getCount());
  return std::nullopt;
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
  if (isa<amdgpu::MemoryCounterWaitOp, ROCDL::SWaitcntOp, ROCDL::WaitLoadcntOp,
          ROCDL::WaitStorecntOp>(op)) {
    if (std::optional<int64_t> count = vmcntOf(op))
      calls.call(b, loc, "hkemu_wait_vmcnt",
                 {calls.i32(b, loc, *count), calls.site(b, loc, op)});
    return success();
  }
  if (kBarriers.contains(name)) {
    // Active in every lane here; predicateDivergentBranches narrows it when
    // the barrier sits in a branch it flattens.
    calls.call(b, loc, "hkemu_barrier_if", {calls.i32(b, loc, 1)});
    return success();
  }
  if (Value id = idValue(b, op, calls)) {
    op->getResult(0).replaceAllUsesWith(id);
    return success();
  }
  if (auto mfma = dyn_cast<amdgpu::MFMAOp>(op))
    return rewriteMfma(b, mfma, calls);
  if (isa<ROCDL::ROCDLExp2, ROCDL::ROCDLLog>(op))
    return rewriteMath(b, op);
  bool handled = false;
  if (failed(rewriteCrossLaneOp(op, calls, handled)))
    return failure();
  if (handled)
    return success();
  erase = false;
  return success();
}

} // namespace

LogicalResult hk::emulator::rewriteLaneOps(func::FuncOp func,
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
