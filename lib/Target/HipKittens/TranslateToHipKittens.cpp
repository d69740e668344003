//===- TranslateToHipKittens.cpp - module printer and registration --------===//

#include "KernelEmitter.h"

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Target/HipKittens/HipKittensEmitter.h"
#include "hk/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;
using namespace mlir::hk;

/// WGM grouping has no HipKittens function (its kernels spell it out); the
/// translation defines it once per file when a kernel uses hk.group_remap.
static const char kGroupRemapHelper[] =
    R"(// hk.group_remap: walks a rows x cols grid of output tiles in groups of
// `group` tile rows, column by column inside a group.
struct tile_coord {
  int row, col;
};
__device__ inline tile_coord group_remap(int id, int rows, int cols,
                                         int group) {
  const int per_group = group * cols;
  const int first = (id / per_group) * group;
  const int size = std::min(rows - first, group);
  return {first + (id % per_group) % size, (id % per_group) / size};
}

)";

StringRef mlir::hk::resultNamesTag() { return "hk.result_names"; }

/// Runs the schedules the regions describe: what the C++ must hold is the
/// kernel after `hk-schedule`, whose barriers `hk-verify-barriers` then
/// proves balanced, as the AMDGPU lowering does.
static LogicalResult scheduleKernels(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addPass(createHKSchedule());
  pm.addPass(createHKVerifyBarriers());
  return pm.run(module);
}

static LogicalResult translateModule(ModuleOp module, raw_ostream &output,
                                     HipKittensArch arch);

LogicalResult mlir::hk::translateToHipKittens(Operation *moduleOp,
                                              raw_ostream &output,
                                              HipKittensArch arch) {
  auto module = dyn_cast<ModuleOp>(moduleOp);
  if (!module)
    return moduleOp->emitError("expected a builtin.module of hk.kernel ops");
  // Diagnostics point at the source; a dump of the op in generic form would
  // only bury them.
  MLIRContext *context = module.getContext();
  bool printOp = context->shouldPrintOpOnDiagnostic();
  context->printOpOnDiagnostic(false);
  LogicalResult result = translateModule(module, output, arch);
  context->printOpOnDiagnostic(printOp);
  return result;
}

static LogicalResult translateModule(ModuleOp module, raw_ostream &output,
                                     HipKittensArch arch) {
  if (failed(scheduleKernels(module)))
    return failure();
  // Printed to a buffer so that a failure writes nothing.
  std::string buffer;
  llvm::raw_string_ostream bufferStream(buffer);
  raw_indented_ostream os(bufferStream);
  bool cdna4 = arch == HipKittensArch::CDNA4;
  os << "// Generated from hk IR for HipKittens ("
     << (cdna4 ? "CDNA4, gfx950" : "CDNA3, gfx942") << ").\n";
  os << "// Build: hipcc -std=c++20 --offload-arch="
     << (cdna4 ? "gfx950" : "gfx942") << " -I$HIPKITTENS_ROOT/include\n";
  const char *macro = cdna4 ? "KITTENS_CDNA4" : "KITTENS_CDNA3";
  os << "#ifndef " << macro << "\n#define " << macro << "\n#endif\n";
  os << "#include \"kittens.cuh\"\n\n#include <algorithm>\n\n";
  os << "using namespace kittens;\n\n";
  bool needsGroupRemap = false;
  module->walk([&](GroupRemapOp) { needsGroupRemap = true; });
  if (needsGroupRemap)
    os << kGroupRemapHelper;
  bool first = true;
  for (Operation &op : *module.getBody()) {
    auto kernel = dyn_cast<KernelOp>(op);
    if (!kernel)
      return op.emitError("'")
             << op.getName()
             << "' has no HipKittens equivalent: a module holds hk.kernel ops";
    if (!first)
      os << "\n";
    first = false;
    KernelEmitter emitter(kernel, os, arch);
    if (failed(emitter.emitKernel()))
      return failure();
    os << "\n";
    if (failed(emitter.emitLauncher()))
      return failure();
  }
  output << buffer;
  return success();
}

/// Writes the SSA name of every value the parser saw defined into the IR,
/// where it survives the passes: `%acc` names its op `loc("acc")`, `%acc:2`
/// (or `%a, %b`) its op `loc(fused<"hk.result_names">["acc0", "acc1"])`, a
/// block argument `%k` its location. The results of schedule regions are
/// left out: `hk-schedule` replaces them by the values their bodies yield,
/// which carry their own names.
static void attachSourceNames(const AsmParserState &state) {
  auto text = [](SMRange range) {
    StringRef name(range.Start.getPointer(),
                   range.End.getPointer() - range.Start.getPointer());
    return name.drop_front().str(); // drop the '%'
  };
  for (const AsmParserState::OperationDefinition &def : state.getOpDefs()) {
    Operation *op = def.op;
    unsigned numResults = op->getNumResults();
    if (numResults == 0 || isa<PingPongOp, InterleaveOp, ClusterOp>(op))
      continue;
    MLIRContext *context = op->getContext();
    SmallVector<Location> names;
    for (auto [i, group] : llvm::enumerate(def.resultGroups)) {
      unsigned end = i + 1 < def.resultGroups.size()
                         ? def.resultGroups[i + 1].startIndex
                         : numResults;
      std::string base = text(group.definition.loc);
      for (unsigned r = group.startIndex; r < end; ++r) {
        std::string name = end - group.startIndex == 1
                               ? base
                               : base + std::to_string(r - group.startIndex);
        names.push_back(
            NameLoc::get(StringAttr::get(context, name), op->getLoc()));
      }
    }
    if (names.size() != numResults)
      continue;
    op->setLoc(numResults == 1
                   ? names.front()
                   : FusedLoc::get(names,
                                   StringAttr::get(context, resultNamesTag()),
                                   context));
  }
  for (const AsmParserState::BlockDefinition &def : state.getBlockDefs())
    for (auto [arg, argDef] :
         llvm::zip(def.block->getArguments(), def.arguments))
      arg.setLoc(NameLoc::get(
          StringAttr::get(arg.getContext(), text(argDef.loc)), arg.getLoc()));
}

/// Parses the source itself, rather than through mlir-translate, to keep the
/// SSA names the C++ variables are named after (as locations, which the
/// schedule passes carry along with the ops they move).
static LogicalResult translateSource(const std::shared_ptr<llvm::SourceMgr> &sm,
                                     raw_ostream &os, MLIRContext *context,
                                     HipKittensArch arch) {
  // func is loaded only to reject it with a clear message.
  context->loadDialect<HKDialect, arith::ArithDialect, func::FuncDialect,
                       math::MathDialect, memref::MemRefDialect,
                       scf::SCFDialect, tensor::TensorDialect>();
  AsmParserState state;
  Block block;
  ParserConfig config(context);
  if (failed(parseAsmSourceFile(*sm, &block, config, &state)))
    return failure();
  OwningOpRef<ModuleOp> module;
  if (block.getOperations().size() == 1 && isa<ModuleOp>(block.front())) {
    module = cast<ModuleOp>(&block.front());
    module->getOperation()->remove();
  } else {
    module = ModuleOp::create(FileLineColLoc::get(context, "", 0, 0));
    module->getBody()->getOperations().splice(module->getBody()->begin(),
                                              block.getOperations());
  }
  if (failed(verify(*module)))
    return failure();
  attachSourceNames(state);
  return translateToHipKittens(*module, os, arch);
}

static llvm::cl::opt<std::string>
    archOption("hk-arch",
               llvm::cl::desc("HipKittens API for --hk-to-hipkittens: cdna4 "
                              "(gfx950, default) or cdna3 (gfx942)"),
               llvm::cl::init("cdna4"));

void mlir::hk::registerToHipKittensTranslation() {
  TranslateRegistration registration(
      "hk-to-hipkittens", "translate hk kernels to HipKittens HIP C++",
      [](const std::shared_ptr<llvm::SourceMgr> &sm, raw_ostream &os,
         MLIRContext *context) -> LogicalResult {
        HipKittensArch arch;
        if (archOption == "cdna4")
          arch = HipKittensArch::CDNA4;
        else if (archOption == "cdna3")
          arch = HipKittensArch::CDNA3;
        else
          return emitError(UnknownLoc::get(context), "unknown --hk-arch '")
                 << archOption << "': expected cdna4 or cdna3";
        return translateSource(sm, os, context, arch);
      });
}
