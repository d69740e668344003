//===- TranslateToHipKittens.cpp - module printer and registration --------===//

#include "KernelEmitter.h"

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Target/HipKittens/HipKittensEmitter.h"
#include "hk/Transforms/Transforms.h"

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
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;
using namespace hk;

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

/// math.rsqrt has no HipKittens base op. HipKittens' maps (unary_map on
/// tiles, unary_op on vectors) take any functor shaped like its base ops, so
/// the translation defines one, computing rsqrt as hk's own lowering does.
static const char kRsqrtHelper[] =
    R"(// math.rsqrt: HipKittens' base ops have no reciprocal square root; its
// maps (unary_map on tiles, unary_op on vectors) take any functor shaped like
// a base op. 1 / sqrt(x), each correctly rounded (HIP's default), as hk's
// AMDGPU lowering computes it.
struct rsqrt_op {
  template <typename T> static __device__ inline T op(const T &x);
};
template <> __device__ inline float rsqrt_op::op<float>(const float &x) {
  return 1.0f / sqrtf(x);
}
template <> __device__ inline float2 rsqrt_op::op<float2>(const float2 &x) {
  return float2{1.0f / sqrtf(x.x), 1.0f / sqrtf(x.y)};
}

)";

/// hk.atomic_add has no HipKittens function (its attention backward kernels
/// carry their own bf16 helpers). The translation defines one from
/// HipKittens' register-tile store, changing only the write.
static const char kAtomicAddHelper[] =
    R"(// hk.atomic_add: HipKittens has no atomic tile store. This is its register
// tile store, store<axis>(gl, rt, idx) in
// include/ops/warp/memory/tile/global_to_register.cuh, visiting the same
// positions in the same order, with each element added by atomicAdd instead
// of written.
template <int axis, ducks::rt::all RT, ducks::gl::all GL,
          ducks::coord::tile COORD = coord<RT>>
__device__ inline void tile_atomic_add(const GL &dst, const RT &src,
                                       const COORD &idx) {
  static_assert(std::is_same_v<typename RT::T, float> &&
                    std::is_same_v<typename GL::dtype, float>,
                "hk.atomic_add adds f32 tiles into f32 arrays");
  constexpr bool row = std::is_same_v<typename RT::layout, ducks::rt_layout::row>;
  float *dst_ptr = (float *)&dst[(idx.template unit_coord<axis, 3>())];
  const int row_stride = dst.template stride<axis>();
  const int lane = laneid();
  // The lane's first element of each base tile.
  const int lane_row = row ? lane % RT::base_tile_rows
                           : RT::base_tile_stride * (lane / RT::base_tile_cols);
  const int lane_col = row ? RT::base_tile_stride * (lane / RT::base_tile_rows)
                           : lane % RT::base_tile_cols;
#pragma unroll
  for (int i = 0; i < RT::height; i++) {
#pragma unroll
    for (int j = 0; j < RT::width; j++) {
#pragma unroll
      for (int k = 0; k < RT::base_tile_num_strides; k++) {
        // A stride is base_tile_stride consecutive elements along the row
        // (row layout) or the column (col layout), two per float2.
#pragma unroll
        for (int l = 0; l < RT::base_tile_stride / 2; l++) {
          const float2 v = src.tiles[i][j].data[l + k * RT::base_tile_stride / 2];
          const int step = k * RT::base_tile_elements_per_stride_group + 2 * l;
          const int r = i * RT::base_tile_rows + lane_row + (row ? 0 : step);
          const int c = j * RT::base_tile_cols + lane_col + (row ? step : 0);
          atomicAdd(&dst_ptr[r * row_stride + c], v.x);
          atomicAdd(&dst_ptr[row ? r * row_stride + c + 1
                                 : (r + 1) * row_stride + c],
                    v.y);
        }
      }
    }
  }
}

)";

StringRef hk::resultNamesTag() { return "hk.result_names"; }

/// Runs the schedules the regions describe: what the C++ must hold is the
/// kernel after `hk-schedule`, whose barriers `hk-verify-barriers` then
/// proves balanced, as the AMDGPU lowering does.
static LogicalResult scheduleKernels(ModuleOp module) {
  return success(succeeded(expandSchedules(module, /*plain=*/false)) &&
                 succeeded(verifyBarrierBalance(module)));
}

static LogicalResult translateModule(ModuleOp module, raw_ostream &output,
                                     const ChipInfo &chip);

LogicalResult hk::translateToHipKittens(Operation *moduleOp,
                                        raw_ostream &output,
                                        const ChipInfo &chip) {
  auto module = dyn_cast<ModuleOp>(moduleOp);
  if (!module)
    return moduleOp->emitError("expected a builtin.module of hk.kernel ops");
  // Diagnostics point at the source; a dump of the op in generic form would
  // only bury them.
  MLIRContext *context = module.getContext();
  bool printOp = context->shouldPrintOpOnDiagnostic();
  context->printOpOnDiagnostic(false);
  LogicalResult result = translateModule(module, output, chip);
  context->printOpOnDiagnostic(printOp);
  return result;
}

static LogicalResult translateModule(ModuleOp module, raw_ostream &output,
                                     const ChipInfo &chip) {
  if (failed(scheduleKernels(module)))
    return failure();
  // Printed to a buffer so that a failure writes nothing.
  std::string buffer;
  llvm::raw_string_ostream bufferStream(buffer);
  raw_indented_ostream os(bufferStream);
  std::string family = StringRef(chip.family).upper();
  os << "// Generated from hk IR for HipKittens (" << family << ", "
     << chip.name << ").\n";
  os << "// Build: hipcc -std=c++20 --offload-arch=" << chip.name
     << " -I$HIPKITTENS_ROOT/include\n";
  std::string macro = "KITTENS_" + family;
  os << "#ifndef " << macro << "\n#define " << macro << "\n#endif\n";
  os << "#include \"kittens.cuh\"\n\n#include <algorithm>\n\n";
  os << "using namespace kittens;\n\n";
  bool needsGroupRemap = false;
  module->walk([&](GroupRemapOp) { needsGroupRemap = true; });
  if (needsGroupRemap)
    os << kGroupRemapHelper;
  bool needsRsqrt = false, needsAtomicAdd = false;
  module->walk([&](Operation *op) {
    needsRsqrt |= isa<math::RsqrtOp>(op) &&
                  isa<RankedTensorType>(op->getResult(0).getType());
    needsAtomicAdd |= isa<AtomicAddOp>(op);
  });
  if (needsRsqrt)
    os << kRsqrtHelper;
  if (needsAtomicAdd)
    os << kAtomicAddHelper;
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
    KernelEmitter emitter(kernel, os, chip);
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
                                     const ChipInfo &chip) {
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
  return translateToHipKittens(*module, os, chip);
}

static llvm::cl::opt<std::string>
    archOption("hk-arch",
               llvm::cl::desc("HipKittens API for --hk-to-hipkittens: cdna4 "
                              "(gfx950, default) or cdna3 (gfx942)"),
               llvm::cl::init("cdna4"));

void hk::registerToHipKittensTranslation() {
  TranslateRegistration registration(
      "hk-to-hipkittens", "translate hk kernels to HipKittens HIP C++",
      [](const std::shared_ptr<llvm::SourceMgr> &sm, raw_ostream &os,
         MLIRContext *context) -> LogicalResult {
        // HipKittens ships one include tree per chip family.
        const ChipInfo *chip = lookupFamily(archOption);
        if (!chip)
          return emitError(UnknownLoc::get(context), "unknown --hk-arch '")
                 << archOption << "': expected cdna4 or cdna3";
        return translateSource(sm, os, context, *chip);
      });
}
