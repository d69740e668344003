//===- KernelEmitter.h - one hk.kernel as HipKittens C++ --------*- C++ -*-===//

#ifndef HK_LIB_TARGET_HIPKITTENS_KERNELEMITTER_H
#define HK_LIB_TARGET_HIPKITTENS_KERNELEMITTER_H

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Target/HipKittens/HipKittensEmitter.h"

#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace hk {

/// HipKittens' fill for a splat tile constant (zero, ones, neg_infty,
/// pos_infty), if it has one.
std::optional<std::string> fillCall(Value value, const ChipInfo &chip);

/// True when `op` needs tiles moved through LDS into a base-tile shape
/// HipKittens' call takes (KernelOps.cpp): an mma whose operand base tiles
/// HipKittens `main` has no MFMA for, or a swap_layout it does not implement.
bool needsLdsRelayout(Operation *op, const ChipInfo &chip);

/// True when `op` loads a register vector from global memory or stores one
/// there: HipKittens' cdna3 tree does not place align and ortho vectors
/// where its tiles expect them, so the translation defines vec_load and
/// vec_store for that tree (TranslateToHipKittens.cpp).
bool isGlobalVectorAccess(Operation *op);

/// True when `op` is an hk.load of a row-layout 16-bit register tile from a
/// shared tile whose allocation's width is not 16, 32 or 64 columns, on
/// cdna3: that tree's load reads such tiles at the wrong addresses, so the
/// translation defines shared_load_rows (TranslateToHipKittens.cpp).
bool needsRowReadHelper(Operation *op, const ChipInfo &chip);

/// True when `op` is an hk.load of a col-layout 16-bit register tile from a
/// shared tile, on main: the translation defines shared_load_cols, which
/// issues HipKittens' transposing reads one per asm statement where
/// HipKittens' load pairs them in one without early-clobber outputs
/// (TranslateToHipKittens.cpp).
bool needsColReadHelper(Operation *op, const ChipInfo &chip);

/// The base tile a value loaded by hk.load is declared in when HipKittens
/// `main` takes it only in another one: every use is an mma operand that
/// HipKittens takes in that same base tile, so the load fills it directly
/// (HipKittens' own GQA kernels load their col operands as 32x16 or 16x32
/// tiles). None otherwise.
std::optional<RegTileLayoutAttr> hipKittensLoadLayout(Value value,
                                                      const ChipInfo &chip);

/// A condition on the launcher's parameters: `value` must be a multiple of
/// `divisor` (and a non-constant divisor nonzero), or the launcher returns
/// hipErrorInvalidValue. `reasons` are the comments that say why.
struct LaunchCheck {
  std::string value;
  std::string divisor;
  std::optional<int64_t> constDivisor;
  SmallVector<std::string> reasons;
};

/// An index value as the launcher sees it: a constant, an expression over
/// its parameters (argument sizes and scalar arguments), or a value only the
/// device knows (ids, loop counters, loaded data).
struct HostExpr {
  enum Kind { Constant, Host, Device } kind;
  std::string text;
};

/// Prints one kernel: the `__global__` function, then its host launcher.
///
/// Every SSA value gets a C++ spelling: register tiles and vectors a variable,
/// shared tiles a reference, tokens nothing, scalars either a named constant
/// or, when used once in the block that defines them, an inline expression.
/// A tile op whose result has the type of an operand that dies at the op
/// writes into that operand's variable, the way a hand-written HipKittens
/// kernel says `mma_ABt(acc, a, b, acc)`.
class KernelEmitter {
public:
  KernelEmitter(KernelOp kernel, raw_indented_ostream &os, const ChipInfo &chip)
      : kernel(kernel), os(os), chip(chip) {}

  LogicalResult emitKernel();
  LogicalResult emitLauncher();

private:
  LogicalResult collectTileChecks(SmallVectorImpl<LaunchCheck> &checks);
  LogicalResult collectDivisionChecks(SmallVectorImpl<LaunchCheck> &checks);
  void collectGridChecks(ArrayRef<std::string> symbols,
                         SmallVectorImpl<LaunchCheck> &checks);
  FailureOr<HostExpr> hostExpr(Value value, unsigned depth = 0);
  LogicalResult collectLauncherArgs(SmallVectorImpl<std::string> &params,
                                    SmallVectorImpl<std::string> &kernelArgs,
                                    SmallVectorImpl<std::string> &strideChecks);
  SmallVector<std::string> gridSymbols();
  // Names.
  std::string freshName(StringRef base);
  std::string nameFor(Value value, StringRef fallback);
  std::string argName(unsigned index);
  std::optional<std::string> valueName(Value value);

  // Spelling of values.
  std::string operand(Value value); // parenthesized when composite
  std::string plain(Value value);   // no outer parentheses
  std::string coords(MemRefType type, ValueRange indices);
  bool isDeadAfter(Value value, Operation *op);

  // Definitions.
  void defineScalar(Value result, StringRef expr, bool composite);
  FailureOr<std::string> defineStorage(Value result, ValueRange reusable);
  FailureOr<std::string> spellType(Value value, Operation *user);

  // Ops.
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitHKOp(Operation *op);
  LogicalResult emitMemoryOp(Operation *op);
  bool usesVectorHelpers(Operation *access);
  LogicalResult emitLoadAsync(LoadAsyncOp load);
  LogicalResult emitLoad(LoadOp load);
  LogicalResult emitStore(StoreOp store);
  LogicalResult emitAtomicAdd(AtomicAddOp add);
  LogicalResult emitComputeOp(Operation *op);
  LogicalResult emitBoundsMask(BoundsMaskOp op);
  LogicalResult emitMma(MmaOp op, StringRef dst);
  LogicalResult emitSwapLayout(SwapLayoutOp op, StringRef dst);
  LogicalResult emitRelayoutScratch();
  FailureOr<std::string> relayout(Value value, RegTileLayoutAttr target,
                                  Operation *user);
  LogicalResult emitScalarOp(Operation *op);
  LogicalResult emitTileArith(Operation *op);
  LogicalResult emitAny(AnyOp op);
  LogicalResult emitConstant(arith::ConstantOp op);
  LogicalResult emitFor(Operation *op);
  LogicalResult emitIf(Operation *op);
  void emitParallelCopy(ArrayRef<std::pair<std::string, std::string>> moves);
  std::optional<std::string> splatScalar(Value value);

  KernelOp kernel;
  raw_indented_ostream &os;
  const ChipInfo &chip;
  llvm::DenseMap<Value, std::string> names;
  llvm::DenseSet<Value> composite;
  /// Variables declared ahead of a value's definition (scf.if results).
  llvm::DenseMap<Value, std::string> hints;
  llvm::StringSet<> taken;
  /// Copies of tiles moved into another base tile (relayout), with the block
  /// they were made in.
  llvm::DenseMap<std::pair<Value, Attribute>, std::pair<std::string, Block *>>
      relayouts;
};

} // namespace hk

#endif // HK_LIB_TARGET_HIPKITTENS_KERNELEMITTER_H
