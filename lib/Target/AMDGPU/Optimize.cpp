//===- Optimize.cpp - LLVM's default optimization pipeline for a target ---===//

#include "Optimize.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>

namespace hk::target {

/// LLVM's LowerExpectIntrinsic weights the branches and selects on an
/// llvm.expect that it meets in the expect's own block, and then replaces
/// the expect by its value, so a later block's branch on the same expect
/// (MLIR's CSE merges equal expects into one) loses the hint. Each branch
/// or select on an expect gets a copy of it, placed just before it.
static void expectPerUser(llvm::Module &llvmModule) {
  llvm::SmallVector<llvm::IntrinsicInst *> expects;
  for (llvm::Function &function : llvmModule)
    for (llvm::Instruction &inst : llvm::instructions(function))
      if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
          call && call->getIntrinsicID() == llvm::Intrinsic::expect)
        expects.push_back(call);
  for (llvm::IntrinsicInst *expect : expects) {
    for (llvm::Use &use : llvm::make_early_inc_range(expect->uses())) {
      auto *user = llvm::cast<llvm::Instruction>(use.getUser());
      if (!llvm::isa<llvm::BranchInst, llvm::SelectInst>(user))
        continue;
      llvm::Instruction *copy = expect->clone();
      copy->insertBefore(user->getIterator());
      use.set(copy);
    }
    if (expect->use_empty())
      expect->eraseFromParent();
  }
}

void optimizeForTarget(llvm::Module &llvmModule, llvm::TargetMachine &machine,
                       unsigned optLevel) {
  llvmModule.setTargetTriple(machine.getTargetTriple());
  llvmModule.setDataLayout(machine.createDataLayout());

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);

  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::OptimizationLevel level = levels[std::min(optLevel, 3u)];
  if (level != llvm::OptimizationLevel::O0)
    expectPerUser(llvmModule);
  llvm::ModulePassManager passes =
      level == llvm::OptimizationLevel::O0
          ? builder.buildO0DefaultPipeline(level)
          : builder.buildPerModuleDefaultPipeline(level);
  passes.run(llvmModule, modules);
}

} // namespace hk::target
