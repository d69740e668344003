//===- Predication.cpp - divergent branches around collective calls -------===//
//
// On the GPU a branch whose condition differs between the lanes of a wave
// runs both sides for the whole wave, each under an exec mask. The engine's
// LDS accesses and LDS DMA are collective: all 64 lanes must reach them,
// passing active = 0 where the hardware lane would be masked off. So an
// scf.if holding such calls becomes straight-line code as the hardware runs
// it: the then side, then the else side, every collective call active only
// under its side's condition; every other op with side effects (or that
// could trap, like an integer division) runs under its own scf.if, and the
// results are selected per lane. A barrier on a side is reached by the wave
// only if some lane takes that side (an empty exec mask skips the side on the
// hardware): its `active` flag is narrowed like an LDS access's and the engine
// votes over the wave. A ballot's vote is narrowed the same way: a lane
// off the side votes 0, as a lane outside the exec mask. Other collectives
// (MFMA, cross-lane ops) run in all lanes; their results are selected away
// where the side is not taken. An scf.if whose collective calls sit inside a
// nested loop is left as it is; the engine reports it if a wave ever diverges
// there.
//===----------------------------------------------------------------------===//

#include "Rewrites.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace hk::emulator;

namespace {

/// Collective engine calls, and the operand index of their `active` flag
/// (-1: none).
const llvm::StringMap<int> kCollectives = {
    {"hkemu_lds_load", 5},       {"hkemu_lds_store", 5},
    {"hkemu_lds_dma", 7},        {"hkemu_mfma", -1},
    {"hkemu_mfma_i32", -1},      {"hkemu_shuffle", -1},
    {"hkemu_bpermute", -1},      {"hkemu_dpp", -1},
    {"hkemu_permlane_swap", -1}, {"hkemu_readfirstlane", -1},
    {"hkemu_ballot", 1},         {"hkemu_barrier_if", 1},
    {"hkemu_wait_vmcnt", -1}};

std::optional<int> collectiveActive(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return std::nullopt;
  auto it = kCollectives.find(call.getCallee());
  if (it == kCollectives.end())
    return std::nullopt;
  return it->second;
}

bool holdsCollective(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return collectiveActive(inner) ? WalkResult::interrupt()
                                       : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Stack slots of the lane: scratch, safe to touch in any lane.
bool isSlotAccess(Operation *op) {
  auto onAlloca = [](Value m) {
    return m.getDefiningOp<memref::AllocaOp>() != nullptr;
  };
  if (auto l = dyn_cast<memref::LoadOp>(op))
    return onAlloca(l.getMemref());
  if (auto s = dyn_cast<memref::StoreOp>(op))
    return onAlloca(s.getMemref());
  if (auto l = dyn_cast<vector::LoadOp>(op))
    return onAlloca(l.getBase());
  if (auto s = dyn_cast<vector::StoreOp>(op))
    return onAlloca(s.getBase());
  return false;
}

bool needsGuard(Operation *op) {
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::RemUIOp, arith::RemSIOp,
          arith::CeilDivUIOp, arith::CeilDivSIOp, arith::FloorDivSIOp>(op))
    return true;
  return !isMemoryEffectFree(op) && !isSlotAccess(op);
}

/// Runs `op` only where `pred` holds; elsewhere its results are zero.
void guard(Operation *op, Value pred) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto ifOp = scf::IfOp::create(b, loc, op->getResultTypes(), pred,
                                /*withElseRegion=*/op->getNumResults() > 0);
  op->replaceAllUsesWith(ifOp.getResults());
  Block *then = ifOp.thenBlock();
  if (op->getNumResults() == 0) {
    op->moveBefore(then->getTerminator());
    return;
  }
  OpBuilder tb = OpBuilder::atBlockEnd(then);
  op->moveBefore(then, then->end());
  scf::YieldOp::create(tb, loc, op->getResults());
  OpBuilder eb = OpBuilder::atBlockEnd(ifOp.elseBlock());
  SmallVector<Value> zeros;
  for (Type t : op->getResultTypes())
    zeros.push_back(
        arith::ConstantOp::create(eb, loc, cast<TypedAttr>(eb.getZeroAttr(t))));
  scf::YieldOp::create(eb, loc, zeros);
}

/// Moves the ops of `block` before `at` under predicate `pred`; returns the
/// values its scf.yield yields.
SmallVector<Value> inlineSide(Block &block, Operation *at, Value pred) {
  auto yield = cast<scf::YieldOp>(block.getTerminator());
  SmallVector<Value> results(yield.getOperands());
  for (Operation &op : llvm::make_early_inc_range(block.without_terminator())) {
    op.moveBefore(at);
    if (auto active = collectiveActive(&op)) {
      if (*active < 0)
        continue;
      OpBuilder b(&op);
      Value flag = op.getOperand(*active);
      Value zero = arith::ConstantIntOp::create(b, op.getLoc(), 0, 32);
      op.setOperand(*active,
                    arith::SelectOp::create(b, op.getLoc(), pred, flag, zero));
      continue;
    }
    if (needsGuard(&op))
      guard(&op, pred);
  }
  return results;
}

/// Whether the collective calls of `ifOp` are all at the top level of its
/// blocks (nested ifs have been flattened first).
bool flattenable(scf::IfOp ifOp) {
  for (Region *r : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
    for (Block &block : *r)
      for (Operation &op : block)
        if (op.getNumRegions() > 0 && holdsCollective(&op))
          return false;
  return true;
}

void flatten(scf::IfOp ifOp) {
  OpBuilder b(ifOp);
  Location loc = ifOp.getLoc();
  Value c = ifOp.getCondition();
  Value notC = arith::XOrIOp::create(
      b, loc, c, arith::ConstantIntOp::create(b, loc, 1, 1));
  SmallVector<Value> thenValues = inlineSide(*ifOp.thenBlock(), ifOp, c);
  SmallVector<Value> elseValues;
  if (ifOp.elseBlock())
    elseValues = inlineSide(*ifOp.elseBlock(), ifOp, notC);
  b.setInsertionPoint(ifOp);
  SmallVector<Value> results;
  for (auto [t, e] : llvm::zip(thenValues, elseValues))
    results.push_back(arith::SelectOp::create(b, loc, c, t, e));
  ifOp->replaceAllUsesWith(results);
  ifOp->erase();
}

} // namespace

LogicalResult hk::emulator::predicateDivergentBranches(func::FuncOp func) {
  SmallVector<scf::IfOp> ifs;
  func.walk([&](scf::IfOp ifOp) { ifs.push_back(ifOp); }); // inner first
  for (scf::IfOp ifOp : ifs)
    if (holdsCollective(ifOp) && flattenable(ifOp))
      flatten(ifOp);
  return success();
}
