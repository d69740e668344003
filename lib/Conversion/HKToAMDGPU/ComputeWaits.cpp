//===- ComputeWaits.cpp - the hk-compute-waits pass -----------------------===//
//
// Raises the vmcnt of each lowered hk.wait from 0 to the number of
// vector-memory instructions the wave is sure to have issued after the
// copies it waits for. vmcnt counts a wave's outstanding vector-memory
// instructions and, on gfx9 (no separate store counter), loads, stores and
// LDS DMA leave it in issue order; so once at most N are outstanding, every
// instruction issued more than N instructions ago has completed.
//
// The pass runs on lane-level IR, right after convert-hk-to-amdgpu, because
// only there is every vector-memory instruction visible (the copies, and
// what hk.load / hk.store / hk.atomic_add expand to), while the structured
// control flow that bounds the paths is still there. It reads the markers
// of Waits.h. Everything it counts is a lower bound: counting too few only
// waits longer, counting too many is a race.
//
// Counts are kept per wave, in sixteenths of an instruction. A copy counts
// 16 per instruction it issues in that wave (its attribute says how many).
// A register access through a fat raw buffer counts its bytes per lane: an
// instruction moves at most 16 bytes per lane, so however the backend
// merges or splits accesses, bytes / 16 instructions at least are issued.
// It only counts when the backend cannot remove or move it: its result is
// used (loads), no other access has the same operands (CSE, DSE), and it
// depends on every enclosing loop (LICM).
//===----------------------------------------------------------------------===//

#include "Waits.h"
#include "hk/Conversion/HKToAMDGPU/Passes.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>
#include <map>
#include <vector>

namespace hk {
#define GEN_PASS_DEF_HKCOMPUTEWAITS
#include "hk/Conversion/HKToAMDGPU/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// The largest vmcnt of gfx942 and gfx950 (6 bits; AMDGPUToROCDL clamps to
/// it too).
constexpr int64_t kMaxVmcnt = 63;
/// Sixteenths of an instruction per instruction.
constexpr int64_t kUnit = 16;
/// No constraint: the wave issued nothing of the copy on this path.
constexpr int64_t kInf = std::numeric_limits<int64_t>::max() / 4;

using Counts = SmallVector<int64_t>;

Counts add(Counts a, const Counts &b) {
  for (auto [x, y] : llvm::zip(a, b))
    x = std::min(kInf, x + y);
  return a;
}

Counts minOf(Counts a, const Counts &b) {
  for (auto [x, y] : llvm::zip(a, b))
    x = std::min(x, y);
  return a;
}

Counts scale(Counts a, int64_t n) {
  for (int64_t &x : a)
    x = std::min(kInf, x * n);
  return a;
}

bool isFatBuffer(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  auto space =
      type ? dyn_cast_or_null<amdgpu::AddressSpaceAttr>(type.getMemorySpace())
           : nullptr;
  return space && space.getValue() == amdgpu::AddressSpace::FatRawBuffer;
}

int64_t bytesOf(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * v.getElementTypeBitWidth() / 8;
  return t.getIntOrFloatBitWidth() / 8;
}

/// The memref and the bytes per lane of a register access through a fat
/// raw buffer, and whether it is a load.
struct BufferAccess {
  Value memref;
  int64_t bytes;
  bool isLoad;
};

std::optional<BufferAccess> bufferAccess(Operation *op) {
  std::optional<BufferAccess> a;
  if (auto l = dyn_cast<vector::LoadOp>(op))
    a = BufferAccess{l.getBase(), bytesOf(l.getType()), true};
  else if (auto l = dyn_cast<memref::LoadOp>(op))
    a = BufferAccess{l.getMemRef(), bytesOf(l.getType()), true};
  else if (auto s = dyn_cast<vector::StoreOp>(op))
    a = BufferAccess{s.getBase(), bytesOf(s.getValueToStore().getType()),
                     false};
  else if (auto s = dyn_cast<memref::StoreOp>(op))
    a = BufferAccess{s.getMemRef(), bytesOf(s.getValueToStore().getType()),
                     false};
  if (a && !isFatBuffer(a->memref))
    return std::nullopt;
  return a;
}

/// Whether `v` reaches an op with effects (through pure ops and the values
/// scf.yield forwards): otherwise the backend may drop the load.
bool isLive(Value v, DenseSet<Value> &seen) {
  if (!seen.insert(v).second)
    return false;
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    unsigned i = use.getOperandNumber();
    if (isa<scf::YieldOp>(user)) {
      Operation *parent = user->getParentOp();
      if (auto loop = dyn_cast<scf::ForOp>(parent)) {
        if (isLive(loop.getResult(i), seen) ||
            isLive(loop.getRegionIterArgs()[i], seen))
          return true;
      } else if (isa<scf::IfOp>(parent)) {
        if (isLive(parent->getResult(i), seen))
          return true;
      } else {
        return true;
      }
      continue;
    }
    if (!isPure(user))
      return true;
    for (Value r : user->getResults())
      if (isLive(r, seen))
        return true;
  }
  return false;
}

/// Whether `v` changes from one iteration of `loop` to the next: it is a
/// block argument inside the loop or computed from one. When unsure, no
/// (the access is then not counted).
bool variesIn(Value v, scf::ForOp loop, DenseSet<Value> &seen) {
  if (!seen.insert(v).second)
    return false;
  Region *region = v.getParentRegion();
  if (!loop->isAncestor(region->getParentOp()))
    return false;
  if (isa<BlockArgument>(v))
    return true;
  return llvm::any_of(v.getDefiningOp()->getOperands(), [&](Value operand) {
    return variesIn(operand, loop, seen);
  });
}

class WaitCounter {
public:
  WaitCounter(gpu::GPUFuncOp func, int64_t waves) : waves(waves) {
    // Accesses with the same operands may be merged into one.
    func.walk([&](Operation *op) {
      if (bufferAccess(op))
        ++sameOperands[key(op)];
    });
  }

  /// The vmcnt for a wait on `tokens` placed at `wait`.
  int64_t vmcnt(ValueRange tokens, Operation *wait) {
    Counts n(waves, kInf);
    for (Value t : tokens) {
      SmallPtrSet<Value, 8> stack;
      n = minOf(n, dist(t, wait, stack));
    }
    int64_t least = *llvm::min_element(n);
    if (least >= kInf)
      return 0; // no wave issued the copies: nothing to relax safely
    return std::min(kMaxVmcnt, least / kUnit);
  }

private:
  Counts zero() const { return Counts(waves, 0); }
  Counts inf() const { return Counts(waves, kInf); }

  /// The op's name and operands.
  static std::vector<const void *> key(Operation *op) {
    std::vector<const void *> k{op->getName().getAsOpaquePointer()};
    for (Value v : op->getOperands())
      k.push_back(v.getAsOpaquePointer());
    return k;
  }

  /// Sixteenths of an instruction `op` issues in each wave, at least.
  Counts issued(Operation *op) {
    auto it = cache.find(op);
    if (it != cache.end())
      return it->second;
    Counts c = computeIssued(op);
    cache[op] = c;
    return c;
  }

  Counts computeIssued(Operation *op) {
    if (auto perWave =
            op->getAttrOfType<DenseI64ArrayAttr>(kCopyInstructionsAttr)) {
      Counts c = zero();
      for (int64_t w = 0; w < waves && w < perWave.size(); ++w)
        c[w] = perWave[w] * kUnit;
      return c;
    }
    if (isa<amdgpu::GatherToLDSOp>(op))
      return Counts(waves, kUnit);
    if (auto a = bufferAccess(op))
      return counts(op, *a) ? Counts(waves, a->bytes) : zero();
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips)
        return zero();
      Block &body = *loop.getBody();
      return scale(range(body.begin(), body.end()), trips->getSExtValue());
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      Block *thenB = branch.thenBlock();
      Counts c = range(thenB->begin(), thenB->end());
      Block *elseB = branch.elseBlock();
      return minOf(c, elseB ? range(elseB->begin(), elseB->end()) : zero());
    }
    // Anything else, regions included, counts as nothing.
    return zero();
  }

  bool counts(Operation *op, const BufferAccess &a) {
    if (sameOperands[key(op)] != 1)
      return false;
    if (a.isLoad) {
      DenseSet<Value> seen;
      if (!isLive(op->getResult(0), seen))
        return false;
    }
    for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
         loop = loop->getParentOfType<scf::ForOp>()) {
      bool varies = llvm::any_of(op->getOperands(), [&](Value v) {
        DenseSet<Value> seen;
        return variesIn(v, loop, seen);
      });
      if (!varies)
        return false;
    }
    return true;
  }

  Counts range(Block::iterator begin, Block::iterator end) {
    Counts c = zero();
    for (Operation &op : llvm::make_range(begin, end))
      c = add(c, issued(&op));
    return c;
  }

  /// What the ops before `target` issue, from the start of each block
  /// between `ancestor` and `target`: the first iteration of a loop, the
  /// branch that holds `target`.
  Counts prefix(Operation *ancestor, Operation *target) {
    if (ancestor == target)
      return zero();
    Block *block = nullptr;
    for (Region &r : ancestor->getRegions())
      for (Block &b : r)
        if (b.findAncestorOpInBlock(*target))
          block = &b;
    if (!block)
      return zero();
    Operation *inner = block->findAncestorOpInBlock(*target);
    return add(range(block->begin(), inner->getIterator()),
               prefix(inner, target));
  }

  /// From where `v` is defined to `at`, which it dominates.
  Counts span(Value v, Operation *at) {
    Block *block;
    Block::iterator start;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      block = arg.getOwner();
      start = block->begin();
    } else {
      block = v.getDefiningOp()->getBlock();
      start = std::next(v.getDefiningOp()->getIterator());
    }
    Operation *ancestor = block->findAncestorOpInBlock(*at);
    if (!ancestor)
      return zero();
    return add(range(start, ancestor->getIterator()), prefix(ancestor, at));
  }

  /// Least issued, in each wave, between the end of the copy `token`
  /// names and `at`, over every path.
  Counts dist(Value token, Operation *at, SmallPtrSetImpl<Value> &stack) {
    if (!stack.insert(token).second)
      return inf(); // around a loop again: never the shortest path
    Counts c = add(source(token, stack), span(token, at));
    stack.erase(token);
    return c;
  }

  /// Least issued between the end of the copy and the definition of
  /// `token`.
  Counts source(Value token, SmallPtrSetImpl<Value> &stack) {
    if (auto arg = dyn_cast<BlockArgument>(token)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        return zero();
      unsigned i = arg.getArgNumber() - 1;
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      return minOf(dist(loop.getInitArgs()[i], loop, stack),
                   dist(yield.getOperand(i), yield, stack));
    }
    Operation *def = token.getDefiningOp();
    if (def->hasAttr(kCopyTokenAttr))
      return copyEnd(def);
    unsigned i = cast<OpResult>(token).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      return minOf(dist(loop.getInitArgs()[i], loop, stack),
                   dist(yield.getOperand(i), yield, stack));
    }
    if (auto branch = dyn_cast<scf::IfOp>(def)) {
      Counts c = inf();
      for (Block *b : {branch.thenBlock(), branch.elseBlock()})
        if (b) {
          Operation *yield = b->getTerminator();
          c = minOf(c, dist(yield->getOperand(i), yield, stack));
        }
      return c;
    }
    // Unknown origin: as if the copy ended right here, which can only
    // count fewer instructions than there are.
    return zero();
  }

  /// Zero for the waves that issued part of the copy, no constraint for
  /// the others.
  Counts copyEnd(Operation *token) {
    Counts c = zero();
    Operation *copy = token->getPrevNode();
    auto perWave =
        copy ? copy->getAttrOfType<DenseI64ArrayAttr>(kCopyInstructionsAttr)
             : DenseI64ArrayAttr();
    if (!perWave)
      return c;
    for (int64_t w = 0; w < waves && w < perWave.size(); ++w)
      if (perWave[w] == 0)
        c[w] = kInf;
    return c;
  }

  int64_t waves;
  DenseMap<Operation *, Counts> cache;
  std::map<std::vector<const void *>, int64_t> sameOperands;
};

struct HKComputeWaits : hk::impl::HKComputeWaitsBase<HKComputeWaits> {
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (failed || !func.isKernel())
        return;
      auto waves =
          func->getAttrOfType<IntegerAttr>(hk::HKDialect::kWavesAttrName);
      int64_t n = waves ? waves.getInt() : 1;
      WaitCounter counter(func, n);
      SmallVector<vector::FromElementsOp> markers;
      func.walk([&](vector::FromElementsOp op) {
        if (op->hasAttr(kWaitTokensAttr))
          markers.push_back(op);
      });
      for (vector::FromElementsOp marker : markers) {
        auto wait = dyn_cast_or_null<amdgpu::MemoryCounterWaitOp>(
            marker->getNextNode());
        if (!wait) {
          marker.emitError("hk-compute-waits: wait marker not followed by "
                           "amdgpu.memory_counter_wait");
          failed = true;
          return;
        }
        int64_t vmcnt = counter.vmcnt(marker.getElements(), wait);
        wait.setLoadAttr(
            IntegerAttr::get(IntegerType::get(&getContext(), 32), vmcnt));
      }
      for (vector::FromElementsOp marker : markers)
        marker.erase();
      func.walk([](Operation *op) {
        op->removeAttr(kCopyInstructionsAttr);
        op->removeAttr(kCopyTokenAttr);
      });
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
