//===- Optimize.cpp - LLVM's default optimization pipeline for a target ---===//

#include "Optimize.h"

#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <optional>

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

/// The loads through `pointer` (and the GEPs and casts of it), or false if
/// anything else uses it: a store, a call (a buffer descriptor made of it),
/// a select or phi, a conversion to an integer.
static bool collectOnlyLoads(llvm::Value *pointer,
                             llvm::SmallVectorImpl<llvm::LoadInst *> &loads) {
  for (llvm::User *user : pointer->users()) {
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
      if (!load->isSimple())
        return false;
      loads.push_back(load);
      continue;
    }
    if (llvm::isa<llvm::GetElementPtrInst, llvm::AddrSpaceCastInst,
                  llvm::BitCastInst>(user)) {
      if (!collectOnlyLoads(user, loads))
        return false;
      continue;
    }
    return false;
  }
  return true;
}

/// A kernel's scalar loads (memref.load) from a pointer argument that the
/// kernel only ever loads through read memory nothing changes while the
/// kernel runs: kernel arguments are taken not to alias, as everywhere in
/// the compiler (docs/lowering.md, "Scalar code"). Marked !invariant.load,
/// MemorySSA finds no clobber for them, so AMDGPUAnnotateUniformValues
/// lets one at a uniform address be a scalar load (s_load_dword): stores
/// through the kernel's buffer descriptors otherwise count as possible
/// clobbers, and such a load became global_load_dword and
/// v_readfirstlane, with a vector memory latency per load. It runs after
/// InstCombine (a peephole), once the memref descriptors' insertvalue and
/// extractvalue between the arguments and the loads are gone.
struct InvariantArgumentLoads : llvm::PassInfoMixin<InvariantArgumentLoads> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &) {
    if (function.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL)
      return llvm::PreservedAnalyses::all();
    bool changed = false;
    llvm::MDNode *empty = llvm::MDNode::get(function.getContext(), {});
    for (llvm::Argument &arg : function.args()) {
      llvm::SmallVector<llvm::LoadInst *> loads;
      if (!arg.getType()->isPointerTy() || !collectOnlyLoads(&arg, loads))
        continue;
      for (llvm::LoadInst *load : loads) {
        changed |= !load->hasMetadata(llvm::LLVMContext::MD_invariant_load);
        load->setMetadata(llvm::LLVMContext::MD_invariant_load, empty);
      }
    }
    return changed ? llvm::PreservedAnalyses::none()
                   : llvm::PreservedAnalyses::all();
  }
};

/// The MMRA tag of a fence that orders accesses to one address space.
static llvm::MDTuple *synchronizeAs(llvm::LLVMContext &context,
                                    llvm::StringRef space) {
  return llvm::MDTuple::get(
      context, {llvm::MDString::get(context, "amdgpu-synchronize-as"),
                llvm::MDString::get(context, space)});
}

/// hk.barrier (amdgpu.lds_barrier) is a workgroup release fence on LDS, the
/// s_barrier and an acquire fence. On a chip with LDS DMA, LLVM's memory
/// legalizer makes every such release wait for all of the wave's
/// outstanding global-to-LDS copies (vmcnt(0)), since they write LDS: each
/// barrier of a pipelined loop would end the prefetch it should overlap.
/// hk.barrier promises less (the wave's LDS accesses are done, see
/// SyncToROCDL.cpp); copies are waited for by hk.wait on their tokens. The
/// release before each such barrier becomes an explicit wait for the LDS
/// counter (lgkmcnt(0)) and a release fence on global memory, which costs
/// no instruction at workgroup scope and still orders every memory access
/// for LLVM's passes.
static void barrierReleasesWithoutCopies(llvm::Module &llvmModule,
                                         unsigned lgkmWait) {
  llvm::LLVMContext &context = llvmModule.getContext();
  llvm::MDTuple *local = synchronizeAs(context, "local");
  std::optional<llvm::SyncScope::ID> workgroup;
  llvm::SmallVector<llvm::FenceInst *> fences;
  for (llvm::Function &function : llvmModule)
    for (llvm::Instruction &inst : llvm::instructions(function)) {
      auto *fence = llvm::dyn_cast<llvm::FenceInst>(&inst);
      if (!fence || fence->getOrdering() != llvm::AtomicOrdering::Release ||
          fence->getMetadata(llvm::LLVMContext::MD_mmra) != local)
        continue;
      if (!workgroup)
        workgroup = context.getOrInsertSyncScopeID("workgroup");
      auto *next =
          llvm::dyn_cast_or_null<llvm::IntrinsicInst>(fence->getNextNode());
      if (fence->getSyncScopeID() == *workgroup && next &&
          next->getIntrinsicID() == llvm::Intrinsic::amdgcn_s_barrier)
        fences.push_back(fence);
    }
  llvm::MDTuple *global = synchronizeAs(context, "global");
  for (llvm::FenceInst *fence : fences) {
    llvm::IRBuilder<> builder(fence);
    builder.CreateIntrinsic(llvm::Intrinsic::amdgcn_s_waitcnt, {},
                            {builder.getInt32(lgkmWait)});
    fence->setMetadata(llvm::LLVMContext::MD_mmra, global);
  }
}

/// FencePackedTruncs (lib/Conversion/LaneToROCDL) puts an
/// llvm.arithmetic.fence on 16-bit float vectors to keep InstCombine from
/// splitting their packed conversion; the fence has done its work once the
/// optimization pipeline has run. On a value every lane holds alike
/// (uniform), AMDGPU's instruction selection gives the fence a scalar
/// register while its operand, a VALU result, is in a vector register, and
/// the backend stops with "illegal VGPR to SGPR copy"
/// (test/Compiler/uniform-fence.mlir). Such fences are removed, by the
/// same uniformity analysis the backend uses; the others stay.
struct UniformFencesRemoved : llvm::PassInfoMixin<UniformFencesRemoved> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses) {
    llvm::SmallVector<llvm::IntrinsicInst *> fences;
    for (llvm::Instruction &inst : llvm::instructions(function))
      if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
          call && call->getIntrinsicID() == llvm::Intrinsic::arithmetic_fence)
        fences.push_back(call);
    if (fences.empty())
      return llvm::PreservedAnalyses::all();
    llvm::UniformityInfo &uniformity =
        analyses.getResult<llvm::UniformityInfoAnalysis>(function);
    bool changed = false;
    for (llvm::IntrinsicInst *fence : fences) {
      if (uniformity.isDivergent(fence))
        continue;
      fence->replaceAllUsesWith(fence->getArgOperand(0));
      fence->eraseFromParent();
      changed = true;
    }
    return changed ? llvm::PreservedAnalyses::none()
                   : llvm::PreservedAnalyses::all();
  }
};

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
  if (level != llvm::OptimizationLevel::O0) {
    expectPerUser(llvmModule);
    builder.registerPeepholeEPCallback(
        [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
          passes.addPass(InvariantArgumentLoads());
        });
  }
  llvm::ModulePassManager passes =
      level == llvm::OptimizationLevel::O0
          ? builder.buildO0DefaultPipeline(level)
          : builder.buildPerModuleDefaultPipeline(level);
  passes.run(llvmModule, modules);
  llvm::ModulePassManager cleanup;
  cleanup.addPass(
      llvm::createModuleToFunctionPassAdaptor(UniformFencesRemoved()));
  cleanup.run(llvmModule, modules);
  // s_waitcnt's immediate on gfx9: vmcnt (bits 3:0 and 15:14) and expcnt
  // (6:4) at their maxima, lgkmcnt (11:8) zero.
  barrierReleasesWithoutCopies(llvmModule, 0xC07F);
}

} // namespace hk::target
