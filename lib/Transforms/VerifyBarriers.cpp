//===- VerifyBarriers.cpp - every wave executes as many barriers ----------===//
//
// s_barrier is anonymous: the hardware releases a workgroup when every wave
// has reached *a* barrier, so what must match between waves is the number of
// barriers each executes, not which ops they are. HK's 8-wave ping-pong
// relies on it: waves 4-7 execute one barrier more after the prologue and
// waves 0-3 one more before the epilogue. A mismatch hangs the GPU.
//
// The pass runs the kernel once per wave id. Values computed from hk.wave_id
// and constants are folded to constants for that wave, which decides its
// scf.if branches and scf.for trip counts. Conditions and bounds that are the
// same for every wave of a workgroup (block ids, kernel arguments) stay
// symbolic: the count of a wave is a polynomial over those symbols, and
// balance means that every wave has the same polynomial.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Transforms/Passes.h"
#include "hk/Transforms/Transforms.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace hk {
#define GEN_PASS_DEF_HKVERIFYBARRIERS
#include "hk/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

//===----------------------------------------------------------------------===//
// Barrier counts
//===----------------------------------------------------------------------===//

/// A quantity that is the same for every wave of a workgroup but unknown at
/// compile time: the trip count of a loop with these bounds, or whether a
/// condition holds (0 or 1). Keyed on SSA values, so two branches on the same
/// condition share the symbol.
struct Symbol {
  enum Kind : uint8_t { TripCount, Taken } kind;
  const void *lb, *ub, *step;

  auto key() const { return std::make_tuple(kind, lb, ub, step); }
  bool operator<(const Symbol &o) const { return key() < o.key(); }
  bool operator==(const Symbol &o) const { return key() == o.key(); }
};

/// A barrier count: an integer polynomial over symbols.
class Count {
public:
  Count(int64_t c = 0) { add({}, c); }

  static Count tripCount(scf::ForOp loop) {
    return symbol({Symbol::TripCount, loop.getLowerBound().getAsOpaquePointer(),
                   loop.getUpperBound().getAsOpaquePointer(),
                   loop.getStep().getAsOpaquePointer()});
  }
  static Count taken(Value cond) {
    return symbol({Symbol::Taken, cond.getAsOpaquePointer(), nullptr, nullptr});
  }

  Count &operator+=(const Count &o) {
    for (const auto &[m, k] : o.terms)
      add(m, k);
    return *this;
  }
  friend Count operator+(Count a, const Count &b) { return a += b; }
  friend Count operator-(Count a, const Count &b) {
    for (const auto &[m, k] : b.terms)
      a.add(m, -k);
    return a;
  }
  friend Count operator*(const Count &a, const Count &b) {
    Count r;
    for (const auto &[ma, ka] : a.terms)
      for (const auto &[mb, kb] : b.terms)
        r.add(multiply(ma, mb), ka * kb);
    return r;
  }
  bool operator==(const Count &o) const { return terms == o.terms; }
  bool operator!=(const Count &o) const { return !(*this == o); }

  /// The value if no symbol occurs.
  std::optional<int64_t> constant() const {
    if (terms.empty())
      return 0;
    if (terms.size() == 1 && terms.begin()->first.empty())
      return terms.begin()->second;
    return std::nullopt;
  }

  std::string str() const {
    if (std::optional<int64_t> c = constant())
      return std::to_string(*c);
    return "a number that depends on uniform loop bounds or conditions";
  }

private:
  using Monomial = std::vector<Symbol>; // sorted

  static Count symbol(Symbol s) {
    Count r;
    r.add({s}, 1);
    return r;
  }
  /// A `Taken` symbol is 0 or 1, hence its own square.
  static Monomial multiply(const Monomial &a, const Monomial &b) {
    Monomial m;
    std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(m));
    auto dup = [](const Symbol &x, const Symbol &y) {
      return x == y && x.kind == Symbol::Taken;
    };
    m.erase(std::unique(m.begin(), m.end(), dup), m.end());
    return m;
  }
  void add(const Monomial &m, int64_t k) {
    if (k == 0)
      return;
    int64_t &v = terms[m];
    v += k;
    if (v == 0)
      terms.erase(m);
  }

  std::map<Monomial, int64_t> terms;
};

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Ops that make every wave of the workgroup wait for the others.
static bool isBarrier(Operation *op) {
  if (isa<BarrierOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  return name == "gpu.barrier" || name == "rocdl.s.barrier" ||
         name == "amdgpu.lds_barrier";
}

static Operation *findBarrier(Operation *root) {
  Operation *found = nullptr;
  root->walk([&](Operation *op) {
    if (!isBarrier(op))
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

/// Whether nothing in the kernel writes through `memref` or a view of it:
/// every use is a view (followed) or an op whose declared effects on it are
/// reads only. Ops that declare no effects are taken to write.
static bool isNeverWritten(Value memref) {
  for (OpOperand &use : memref.getUses()) {
    Operation *user = use.getOwner();
    if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
      if (view.getViewSource() == memref && isNeverWritten(view.getViewDest()))
        continue;
      return false;
    }
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    if (!effects)
      return false;
    SmallVector<MemoryEffects::EffectInstance> onValue;
    effects.getEffectsOnValue(memref, onValue);
    if (llvm::any_of(onValue, [](const MemoryEffects::EffectInstance &e) {
          return !isa<MemoryEffects::Read>(e.getEffect());
        }))
      return false;
  }
  return true;
}

/// A scalar load from a kernel argument that the kernel never writes: every
/// wave that loads the same position reads the same value (the arguments
/// are assumed not to alias, as the lowering assumes), so it is a function
/// of its indices, like arithmetic. A kernel's offsets or counts in device
/// memory are read this way (docs/lowering.md, "Scalar code").
static bool isReadOnlyArgumentLoad(Operation *op) {
  auto load = dyn_cast<memref::LoadOp>(op);
  if (!load)
    return false;
  auto arg = dyn_cast<BlockArgument>(load.getMemRef());
  return arg && isa<KernelOp>(arg.getOwner()->getParentOp()) &&
         isNeverWritten(arg);
}

/// Ops whose results are a function of their operands alone, so uniform
/// operands give a uniform result, and constant operands fold.
static bool isPureFunction(Operation *op) {
  StringRef dialect = op->getName().getDialectNamespace();
  return op->getNumRegions() == 0 &&
         (dialect == "arith" || dialect == "index" || dialect == "math" ||
          isa<XcdRemapOp, GroupRemapOp>(op) ||
          op->getName().getStringRef() == "affine.apply" ||
          op->getName().getStringRef() == "memref.dim" ||
          isReadOnlyArgumentLoad(op));
}

/// Values with no operands that are the same for every wave of a workgroup.
static bool isUniformSource(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<BlockIdOp, NumBlocksOp>(op);
}

/// "wave 3", "waves 4-7", "waves 0-1, 4".
static std::string formatWaves(ArrayRef<unsigned> waves) {
  std::string s = waves.size() == 1 ? "wave " : "waves ";
  for (size_t i = 0; i < waves.size();) {
    size_t j = i;
    while (j + 1 < waves.size() && waves[j + 1] == waves[j] + 1)
      ++j;
    if (i)
      s += ", ";
    s += std::to_string(waves[i]);
    if (j > i)
      s += "-" + std::to_string(waves[j]);
    i = j + 1;
  }
  return s;
}

/// Waves grouped by equal key, groups in order of their first wave.
template <typename Key>
static SmallVector<std::pair<Key, SmallVector<unsigned>>>
groupWaves(ArrayRef<Key> keys) {
  SmallVector<std::pair<Key, SmallVector<unsigned>>> groups;
  for (unsigned w = 0; w < keys.size(); ++w) {
    auto *it =
        llvm::find_if(groups, [&](auto &g) { return g.first == keys[w]; });
    if (it == groups.end())
      groups.push_back({keys[w], {w}});
    else
      it->second.push_back(w);
  }
  return groups;
}

/// "waves 4-7 execute 1 more hk.barrier than waves 0-3 <where>".
static std::string describeImbalance(ArrayRef<Count> counts, StringRef where) {
  auto groups = groupWaves(counts);
  if (groups.size() == 2) {
    auto *more = &groups[0], *fewer = &groups[1];
    std::optional<int64_t> diff = (more->first - fewer->first).constant();
    if (diff && *diff < 0) {
      std::swap(more, fewer);
      *diff = -*diff;
    }
    if (diff)
      return llvm::formatv("{0} execute {1} more hk.barrier than {2} {3}",
                           formatWaves(more->second), *diff,
                           formatWaves(fewer->second), where);
  }
  std::string s =
      ("waves execute different numbers of hk.barrier " + where + ": ").str();
  for (auto [i, g] : llvm::enumerate(groups))
    s += (i ? "; " : "") + formatWaves(g.second) + ": " + g.first.str();
  return s;
}

//===----------------------------------------------------------------------===//
// The analysis of one kernel
//===----------------------------------------------------------------------===//

class BarrierVerifier {
public:
  explicit BarrierVerifier(KernelOp kernel)
      : kernel(kernel), waves(kernel.getWaves()) {}

  LogicalResult verify();

private:
  // Which values may differ between the waves of a workgroup.
  void findWaveDependentValues();
  bool markDependent(Value v, bool dependent);
  bool isDependent(Value v) const { return waveDependent.contains(v); }

  // Constant folding for the current wave.
  Attribute evaluate(Value v);
  Attribute evaluateUncached(Value v);

  // Barrier counts for the current wave; `scale` is how many times the
  // counted code runs, to weigh what is recorded for diagnostics.
  Count countRegion(Region &region, const Count &scale);
  Count countOp(Operation &op, const Count &scale);
  Count countIf(scf::IfOp op, const Count &scale);
  Count countFor(scf::ForOp op, const Count &scale);
  std::optional<int64_t> evaluateTripCount(scf::ForOp op);
  void record(Operation *op, const Count &contribution, std::string taken);

  void reject(Operation *op, const Twine &why);
  LogicalResult reportImbalance(ArrayRef<Count> totals);
  void attachWaveNotes(InFlightDiagnostic &diag, Operation *op);

  KernelOp kernel;
  unsigned waves;
  unsigned wave = 0;
  DenseSet<Value> waveDependent;
  DenseMap<Value, Attribute> constants;
  /// Per wave-dependent branch or loop, what each wave counts in it and
  /// which way it goes ("take the then branch", "run 2 iterations").
  llvm::MapVector<Operation *, std::vector<Count>> contributions;
  DenseMap<Operation *, std::vector<std::string>> takenBy;
  llvm::SetVector<Operation *> rejected;
};

void BarrierVerifier::reject(Operation *op, const Twine &why) {
  if (!rejected.insert(op))
    return;
  InFlightDiagnostic diag = op->emitError()
                            << "cannot prove that every wave executes the "
                               "same number of hk.barrier: "
                            << why;
  if (Operation *barrier = findBarrier(op))
    diag.attachNote(barrier->getLoc()) << "barrier here";
}

bool BarrierVerifier::markDependent(Value v, bool dependent) {
  return dependent && waveDependent.insert(v).second;
}

/// A fixed point: loop-carried values become dependent when what is yielded
/// into them is.
void BarrierVerifier::findWaveDependentValues() {
  bool changed = true;
  auto anyDependent = [&](ValueRange values) {
    return llvm::any_of(values, [&](Value v) { return isDependent(v); });
  };
  while (changed) {
    changed = false;
    kernel.walk([&](Operation *op) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        bool bounds = anyDependent(
            {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()});
        changed |= markDependent(loop.getInductionVar(), bounds);
        for (auto [arg, init, yielded, result] :
             llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs(),
                       loop.getYieldedValues(), loop.getResults())) {
          bool dep = bounds || isDependent(init) || isDependent(yielded) ||
                     isDependent(arg);
          changed |= markDependent(arg, dep);
          changed |= markDependent(result, dep);
        }
        return;
      }
      if (auto branch = dyn_cast<scf::IfOp>(op)) {
        for (auto [i, result] : llvm::enumerate(branch.getResults()))
          changed |= markDependent(
              result, isDependent(branch.getCondition()) ||
                          isDependent(branch.thenYield().getOperand(i)) ||
                          isDependent(branch.elseYield().getOperand(i)));
        return;
      }
      if (op != kernel.getOperation())
        for (Region &region : op->getRegions())
          for (BlockArgument arg : region.getArguments())
            changed |= markDependent(arg, true);
      bool dep = isa<WaveIdOp>(op) ||
                 (!isUniformSource(op) &&
                  (!isPureFunction(op) || anyDependent(op->getOperands())));
      for (Value result : op->getResults())
        changed |= markDependent(result, dep);
    });
  }
}

Attribute BarrierVerifier::evaluate(Value v) {
  auto it = constants.find(v);
  if (it != constants.end())
    return it->second;
  Attribute result = evaluateUncached(v);
  constants[v] = result;
  return result;
}

/// The value `v` has in the current wave, or null if it is not computable
/// from the wave id and constants.
Attribute BarrierVerifier::evaluateUncached(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return {};
  if (isa<WaveIdOp>(op))
    return IntegerAttr::get(v.getType(), wave);
  Attribute constant;
  if (matchPattern(v, m_Constant(&constant)))
    return constant;
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    auto cond = dyn_cast_or_null<IntegerAttr>(evaluate(branch.getCondition()));
    if (!cond)
      return {};
    unsigned i = cast<OpResult>(v).getResultNumber();
    return evaluate(cond.getValue().isOne() ? branch.thenYield().getOperand(i)
                                            : branch.elseYield().getOperand(i));
  }
  if (!isPureFunction(op) || isa<XcdRemapOp, GroupRemapOp>(op))
    return {};
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    operands.push_back(evaluate(operand));
    if (!operands.back())
      return {};
  }
  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(operands, folded)) ||
      folded.size() != op->getNumResults())
    return {};
  OpFoldResult result = folded[cast<OpResult>(v).getResultNumber()];
  if (auto attr = dyn_cast<Attribute>(result))
    return attr;
  return evaluate(cast<Value>(result));
}

Count BarrierVerifier::countRegion(Region &region, const Count &scale) {
  if (region.empty())
    return 0;
  if (!region.hasOneBlock()) {
    if (findBarrier(region.getParentOp()))
      reject(region.getParentOp(),
             "it holds a barrier in a region with several blocks; only "
             "structured control flow (scf.if, scf.for) is analysed");
    return 0;
  }
  Count total;
  for (Operation &op : region.front())
    total += countOp(op, scale);
  return total;
}

Count BarrierVerifier::countOp(Operation &op, const Count &scale) {
  if (isBarrier(&op))
    return 1;
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return countIf(branch, scale);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return countFor(loop, scale);
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    Operation *callee = call.resolveCallable();
    if (!callee || findBarrier(callee))
      reject(&op, "barriers in called functions are not analysed; the "
                  "callee is unknown or holds a barrier");
    return 0;
  }
  if (op.getNumRegions() == 0)
    return 0;
  // Regions that run exactly once where they stand.
  if (isa<PingPongOp, InterleaveOp, ClusterOp, scf::ExecuteRegionOp>(op)) {
    Count total;
    for (Region &region : op.getRegions())
      total += countRegion(region, scale);
    return total;
  }
  if (findBarrier(&op))
    reject(&op, "it holds a barrier inside '" + op.getName().getStringRef() +
                    "', whose control flow is not analysed");
  return 0;
}

Count BarrierVerifier::countIf(scf::IfOp op, const Count &scale) {
  Value cond = op.getCondition();
  if (auto known = dyn_cast_or_null<IntegerAttr>(evaluate(cond))) {
    bool then = known.getValue().isOne();
    Count count =
        countRegion(then ? op.getThenRegion() : op.getElseRegion(), scale);
    if (isDependent(cond))
      record(op, scale * count,
             then ? "take the then branch"
                  : (op.getElseRegion().empty() ? "skip it"
                                                : "take the else branch"));
    return count;
  }
  if (!isDependent(cond)) {
    // Every wave of a workgroup goes the same way.
    Count taken = Count::taken(cond), skipped = Count(1) - taken;
    return taken * countRegion(op.getThenRegion(), scale * taken) +
           skipped * countRegion(op.getElseRegion(), scale * skipped);
  }
  if (findBarrier(op))
    reject(op, "this branch holds a barrier and its condition is neither "
               "uniform over the workgroup nor computable from hk.wave_id "
               "and constants");
  return 0;
}

std::optional<int64_t> BarrierVerifier::evaluateTripCount(scf::ForOp op) {
  auto lb = dyn_cast_or_null<IntegerAttr>(evaluate(op.getLowerBound()));
  auto ub = dyn_cast_or_null<IntegerAttr>(evaluate(op.getUpperBound()));
  auto step = dyn_cast_or_null<IntegerAttr>(evaluate(op.getStep()));
  if (!lb || !ub || !step)
    return std::nullopt;
  bool isUnsigned = op.getUnsignedCmp();
  auto get = [&](IntegerAttr a) {
    return isUnsigned ? static_cast<int64_t>(a.getValue().getZExtValue())
                      : a.getValue().getSExtValue();
  };
  int64_t l = get(lb), u = get(ub), s = get(step);
  if (s <= 0)
    return std::nullopt;
  return u > l ? (u - l + s - 1) / s : 0;
}

Count BarrierVerifier::countFor(scf::ForOp op, const Count &scale) {
  bool dependent = isDependent(op.getLowerBound()) ||
                   isDependent(op.getUpperBound()) || isDependent(op.getStep());
  if (std::optional<int64_t> trips = evaluateTripCount(op)) {
    Count count = *trips ? Count(*trips) * countRegion(op.getRegion(),
                                                       scale * Count(*trips))
                         : Count(0);
    if (dependent)
      record(op, scale * count,
             "run " + std::to_string(*trips) + " iteration" +
                 (*trips == 1 ? "" : "s"));
    return count;
  }
  if (!dependent) {
    Count trips = Count::tripCount(op);
    return trips * countRegion(op.getRegion(), scale * trips);
  }
  if (findBarrier(op))
    reject(op, "this loop holds a barrier and its trip count is neither "
               "uniform over the workgroup nor computable from hk.wave_id "
               "and constants");
  return 0;
}

void BarrierVerifier::record(Operation *op, const Count &contribution,
                             std::string taken) {
  auto [it, fresh] =
      contributions.insert({op, std::vector<Count>(waves, Count(0))});
  it->second[wave] += contribution;
  auto &ways = takenBy[op];
  if (ways.empty())
    ways.assign(waves, "do not reach it");
  ways[wave] = std::move(taken);
}

void BarrierVerifier::attachWaveNotes(InFlightDiagnostic &diag, Operation *op) {
  for (auto &[way, group] : groupWaves(ArrayRef(takenBy[op])))
    diag.attachNote(op->getLoc()) << formatWaves(group) << " " << way;
}

LogicalResult BarrierVerifier::verify() {
  findWaveDependentValues();
  std::vector<Count> totals;
  for (wave = 0; wave < waves; ++wave) {
    constants.clear();
    totals.push_back(countRegion(kernel.getBody(), 1));
  }
  if (!rejected.empty())
    return failure();
  if (groupWaves(ArrayRef(totals)).size() == 1)
    return success();
  return reportImbalance(totals);
}

/// Blames the branches or loops whose own imbalance is the kernel's (the
/// innermost ones); if none alone explains it, the kernel, with a note at
/// every wave-dependent branch or loop that is unbalanced.
LogicalResult BarrierVerifier::reportImbalance(ArrayRef<Count> totals) {
  auto imbalance = [](ArrayRef<Count> counts) {
    std::vector<Count> diff;
    for (const Count &c : counts)
      diff.push_back(c - counts[0]);
    return diff;
  };
  std::vector<Count> total = imbalance(totals);
  SmallVector<Operation *> culprits;
  for (auto &[op, counts] : contributions)
    if (imbalance(counts) == total)
      culprits.push_back(op);
  llvm::erase_if(culprits, [&](Operation *op) {
    return llvm::any_of(culprits, [&](Operation *inner) {
      return inner != op && op->isProperAncestor(inner);
    });
  });
  auto where = [](Operation *op) {
    return isa<scf::ForOp>(op) ? "in this loop" : "in this branch";
  };
  for (Operation *op : culprits) {
    InFlightDiagnostic diag =
        op->emitError() << describeImbalance(contributions[op], where(op));
    attachWaveNotes(diag, op);
  }
  if (!culprits.empty())
    return failure();
  InFlightDiagnostic diag = kernel.emitError() << describeImbalance(
                                totals, ("in @" + kernel.getSymName()).str());
  for (auto &[op, counts] : contributions)
    if (groupWaves(ArrayRef(counts)).size() > 1)
      diag.attachNote(op->getLoc()) << describeImbalance(counts, where(op));
  return failure();
}

struct VerifyBarriers : hk::impl::HKVerifyBarriersBase<VerifyBarriers> {
  void runOnOperation() override {
    if (failed(verifyBarrierBalance(getOperation())))
      signalPassFailure();
  }
};

} // namespace

LogicalResult hk::verifyBarrierBalance(Operation *root) {
  bool ok = true;
  root->walk([&](KernelOp kernel) {
    ok &= succeeded(BarrierVerifier(kernel).verify());
  });
  return success(ok);
}
