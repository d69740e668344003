//===- Schedule.cpp - ping-pong and interleave schedules as explicit ops --===//
//
// hk.ping_pong and hk.interleave say how the waves of a kernel share the
// SIMDs; this pass writes that down with the low-level ops (hk.barrier,
// hk.set_prio, hk.sched_barrier, hk.sched_group) and inlines the regions, so
// the lowering sees a plain kernel. The schedules follow HipKittens' 8-wave
// GEMM and attention kernels (one s_barrier after every cluster, MFMAs under
// s_setprio(1), an extra barrier for waves 4-7 before the loop and a mirror
// one for waves 0-3 after it) and its 4-wave kernels (MFMAs and loads
// alternated with sched_group_barrier between sched_barrier(0) fences).
// A compute cluster marked `pair = mfma_exp` or `pair = mfma_valu` also gets
// the MFMA/exp (or MFMA/VALU) alternation of HipKittens' attention kernels.
// docs/schedules.md states the rules and why they are safe.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Transforms/Passes.h"
#include "hk/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace hk {
#define GEN_PASS_DEF_HKSCHEDULE
#include "hk/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

// Instruction classes of llvm.amdgcn.sched_barrier / sched_group_barrier
// (IntrinsicsAMDGPU.td, LLVM 22).
constexpr uint32_t kValu = 0x2;
constexpr uint32_t kMfma = 0x8;
constexpr uint32_t kVmemRead = 0x20;
constexpr uint32_t kVmemWrite = 0x40;
constexpr uint32_t kDsRead = 0x100;
constexpr uint32_t kDsWrite = 0x200;
/// Transcendentals (v_exp_f32, v_log_f32, ...): AMDGPUIGroupLP's TRANS class.
/// IntrinsicsAMDGPU.td lists masks only up to 0x200; VALU (0x2) excludes
/// transcendentals and MFMAs, so exp2 needs its own class.
constexpr uint32_t kTrans = 0x400;

/// Waves 0-3 and 4-7 are the two groups of the 8-wave ping-pong.
constexpr int64_t kWavesPerGroup = 4;

/// Replaces `op` (a schedule region or cluster) by the ops of its body; its
/// results become the values its hk.yield returned.
void inlineBody(RewriterBase &rewriter, Operation *op) {
  Block &body = op->getRegion(0).front();
  Operation *yield = body.getTerminator();
  SmallVector<Value> values(yield->getOperands());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&body, op);
  rewriter.replaceOp(op, values);
}

bool isFullFence(Operation *op) {
  auto fence = dyn_cast_or_null<SchedBarrierOp>(op);
  return fence && fence.getMask() == 0;
}

/// A fence before `op`, unless one is already there: two clusters in a row
/// share the fence that ends the first.
void fenceBefore(RewriterBase &rewriter, Operation *op) {
  if (isFullFence(op->getPrevNode()))
    return;
  rewriter.setInsertionPoint(op);
  SchedBarrierOp::create(rewriter, op->getLoc(), 0);
}

/// `scf.if (hk.wave_id <pred> 4) { hk.barrier }` at the insertion point.
void groupBarrier(RewriterBase &rewriter, Location loc,
                  arith::CmpIPredicate pred) {
  Value wave = WaveIdOp::create(rewriter, loc);
  Value four = arith::ConstantIndexOp::create(rewriter, loc, kWavesPerGroup);
  Value cond = arith::CmpIOp::create(rewriter, loc, pred, wave, four);
  auto branch = scf::IfOp::create(rewriter, loc, cond,
                                  /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(branch.thenBlock()->getTerminator());
  BarrierOp::create(rewriter, loc);
}

SmallVector<ClusterOp> clustersOf(Operation *region) {
  SmallVector<ClusterOp> clusters;
  region->walk<WalkOrder::PreOrder>(
      [&](ClusterOp cluster) { clusters.push_back(cluster); });
  return clusters;
}

/// MFMAs one hk.mma issues: one per accumulator base tile and per base tile
/// of A along K. With 16x32 A tiles that is exactly gfx950's 16x16x32 count;
/// where the chip splits K further (gfx942) the extra MFMAs are left to the
/// scheduler.
int64_t mfmaCount(MmaOp mma) {
  auto acc = cast<RankedTensorType>(mma.getC().getType());
  auto a = cast<RankedTensorType>(mma.getA().getType());
  auto accTile = cast<RegTileLayoutAttr>(acc.getEncoding());
  auto aTile = cast<RegTileLayoutAttr>(a.getEncoding());
  bool aTransposed =
      mma.getKind() == MmaKind::AtB || mma.getKind() == MmaKind::AtBt;
  int64_t k = aTransposed ? a.getDimSize(0) : a.getDimSize(1);
  int64_t kTile = aTransposed ? aTile.getBaseRows() : aTile.getBaseCols();
  return acc.getDimSize(0) / accTile.getBaseRows() *
         (acc.getDimSize(1) / accTile.getBaseCols()) * (k / kTile);
}

int64_t mfmaCount(ClusterOp cluster) {
  int64_t count = 0;
  cluster.walk([&](MmaOp mma) { count += mfmaCount(mma); });
  return count;
}

/// The class a paired compute cluster alternates its MFMAs with, 0 if none.
uint32_t pairedClass(ClusterOp cluster) {
  std::optional<Pairing> pair = cluster.getPair();
  if (!pair)
    return 0;
  return *pair == Pairing::MfmaExp ? kTrans : kValu;
}

/// n x (one MFMA, then one instruction of each class in `partners`), n the
/// compute cluster's MFMAs, at the insertion point. Classes that are 0 are
/// left out; with no MFMA or no partner class nothing is emitted.
void alternate(RewriterBase &rewriter, Location loc, ClusterOp compute,
               ArrayRef<uint32_t> partners) {
  int64_t mfmas = mfmaCount(compute);
  SmallVector<uint32_t> masks(llvm::make_filter_range(
      partners, [](uint32_t mask) { return mask != 0; }));
  if (mfmas == 0 || masks.empty())
    return;
  for (int64_t i = 0; i < mfmas; ++i) {
    SchedGroupOp::create(rewriter, loc, kMfma, 1, 0);
    for (uint32_t mask : masks)
      SchedGroupOp::create(rewriter, loc, mask, 1, 0);
  }
}

//===----------------------------------------------------------------------===//
// 8-wave ping-pong
//===----------------------------------------------------------------------===//

/// The schedule owns the barriers of the region: one written by hand would
/// shift the two groups by another cluster and break the stagger.
LogicalResult rejectBarriers(PingPongOp pingPong) {
  WalkResult walk = pingPong.walk([&](BarrierOp barrier) {
    barrier.emitError("hk.barrier inside hk.ping_pong: the schedule inserts "
                      "a barrier after every cluster")
            .attachNote(pingPong.getLoc())
        << "in this hk.ping_pong";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

/// fence, [set_prio 1], body, [pairing], [set_prio 0], barrier, fence. The
/// pairing's groups stay inside the set_prio pair: s_setprio ends a
/// scheduling region, and a group only takes instructions of its own region.
void expandPingPongCluster(RewriterBase &rewriter, ClusterOp cluster) {
  Location loc = cluster.getLoc();
  bool compute = cluster.getKind() == ClusterKind::Compute;
  fenceBefore(rewriter, cluster);
  rewriter.setInsertionPoint(cluster);
  if (compute)
    SetPrioOp::create(rewriter, loc, 1);
  rewriter.setInsertionPointAfter(cluster);
  alternate(rewriter, loc, cluster, {pairedClass(cluster)});
  if (compute)
    SetPrioOp::create(rewriter, loc, 0);
  BarrierOp::create(rewriter, loc);
  SchedBarrierOp::create(rewriter, loc, 0);
  inlineBody(rewriter, cluster);
}

/// The plain form: each cluster's body followed by a barrier, nothing else.
LogicalResult expandPingPongPlainly(PingPongOp pingPong) {
  if (failed(rejectBarriers(pingPong)))
    return failure();
  IRRewriter rewriter(pingPong.getContext());
  for (ClusterOp cluster : clustersOf(pingPong)) {
    rewriter.setInsertionPointAfter(cluster);
    BarrierOp::create(rewriter, cluster.getLoc());
    inlineBody(rewriter, cluster);
  }
  inlineBody(rewriter, pingPong);
  return success();
}

LogicalResult expandPingPong(PingPongOp pingPong) {
  if (failed(rejectBarriers(pingPong)))
    return failure();
  IRRewriter rewriter(pingPong.getContext());
  Location loc = pingPong.getLoc();
  // Waves 4-7 wait for the end of the first cluster of waves 0-3: from then
  // on they run one cluster behind.
  rewriter.setInsertionPoint(pingPong);
  groupBarrier(rewriter, loc, arith::CmpIPredicate::uge);
  for (ClusterOp cluster : clustersOf(pingPong))
    expandPingPongCluster(rewriter, cluster);
  // Waves 0-3 wait for the last cluster of waves 4-7: the counts match again.
  rewriter.setInsertionPointAfter(pingPong);
  groupBarrier(rewriter, loc, arith::CmpIPredicate::ult);
  inlineBody(rewriter, pingPong);
  return success();
}

//===----------------------------------------------------------------------===//
// 4-wave interleave
//===----------------------------------------------------------------------===//

/// The sched_group classes of the memory instructions a cluster's ops become.
uint32_t memoryClasses(ClusterOp cluster) {
  uint32_t mask = 0;
  cluster.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      mask |= isa<MemRefType>(load.getSource().getType()) ? kVmemRead : kDsRead;
    else if (auto store = dyn_cast<StoreOp>(op))
      mask |=
          isa<MemRefType>(store.getDest().getType()) ? kVmemWrite : kDsWrite;
    else if (isa<LoadAsyncOp>(op))
      mask |= kVmemRead;
    else if (isa<AtomicAddOp>(op))
      mask |= kVmemWrite;
  });
  return mask;
}

/// The memory cluster that runs under `compute`: the next cluster of its
/// block, when that is a memory cluster.
ClusterOp partnerOf(ClusterOp compute) {
  for (Operation *op = compute->getNextNode(); op; op = op->getNextNode())
    if (auto next = dyn_cast<ClusterOp>(op))
      return next.getKind() == ClusterKind::Memory ? next : ClusterOp();
  return {};
}

/// The plain form: the clusters' bodies in order, no fences or hints.
void expandInterleavePlainly(InterleaveOp interleave) {
  IRRewriter rewriter(interleave.getContext());
  for (ClusterOp cluster : clustersOf(interleave))
    inlineBody(rewriter, cluster);
  inlineBody(rewriter, interleave);
}

void expandInterleave(InterleaveOp interleave) {
  IRRewriter rewriter(interleave.getContext());
  SmallVector<ClusterOp> clusters = clustersOf(interleave);
  llvm::SmallPtrSet<Operation *, 8> partners;
  for (ClusterOp cluster : clusters) {
    if (partners.contains(cluster))
      continue;
    ClusterOp partner = cluster.getKind() == ClusterKind::Compute
                            ? partnerOf(cluster)
                            : ClusterOp();
    Operation *last = partner ? partner : cluster;
    fenceBefore(rewriter, cluster);
    rewriter.setInsertionPointAfter(last);
    if (partner)
      partners.insert(partner);
    // Each MFMA step: the MFMA, then the paired ALU instruction, then the
    // memory instruction that runs under it.
    alternate(
        rewriter, cluster.getLoc(), cluster,
        {pairedClass(cluster), partner ? memoryClasses(partner) : uint32_t(0)});
    SchedBarrierOp::create(rewriter, last->getLoc(), 0);
  }
  for (ClusterOp cluster : clusters)
    inlineBody(rewriter, cluster);
  inlineBody(rewriter, interleave);
}

struct Schedule : hk::impl::HKScheduleBase<Schedule> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(expandSchedules(getOperation(), plain)))
      signalPassFailure();
  }
};

} // namespace

LogicalResult hk::expandSchedules(Operation *root, bool plain) {
  SmallVector<PingPongOp> pingPongs;
  SmallVector<InterleaveOp> interleaves;
  root->walk([&](Operation *op) {
    if (auto pingPong = dyn_cast<PingPongOp>(op))
      pingPongs.push_back(pingPong);
    else if (auto interleave = dyn_cast<InterleaveOp>(op))
      interleaves.push_back(interleave);
  });
  bool anyFailed = false;
  for (PingPongOp pingPong : pingPongs)
    anyFailed |= failed(plain ? expandPingPongPlainly(pingPong)
                              : expandPingPong(pingPong));
  if (anyFailed)
    return failure();
  for (InterleaveOp interleave : interleaves)
    plain ? expandInterleavePlainly(interleave) : expandInterleave(interleave);
  return success();
}
