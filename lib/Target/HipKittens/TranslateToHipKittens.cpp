//===- TranslateToHipKittens.cpp - module printer and registration --------===//

#include "HipKittensTypes.h"
#include "KernelEmitter.h"

#include "hk/Base/InputLimits.h"
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
// positions in the same order (for_each_element), with each element added
// by atomicAdd instead of written.
template <int axis, ducks::rt::all RT, ducks::gl::all GL,
          ducks::coord::tile COORD = coord<RT>>
__device__ inline void tile_atomic_add(const GL &dst, const RT &src,
                                       const COORD &idx) {
  static_assert(std::is_same_v<typename RT::T, float> &&
                    std::is_same_v<typename GL::dtype, float>,
                "hk.atomic_add adds f32 tiles into f32 arrays");
  float *dst_ptr = (float *)&dst[(idx.template unit_coord<axis, 3>())];
  const int row_stride = dst.template stride<axis>();
  for_each_element(src, laneid(), [&](int r, int c, const float &v) {
    atomicAdd(&dst_ptr[r * row_stride + c], v);
  });
}

)";

/// The register base-tile layout constants the atomic add and the relayout
/// helpers compute element positions from: `main` names them on its tiles;
/// `cdna3` has one base tile and no names for them.
static const char kBaseTileLayoutMain[] =
    R"(// HipKittens' register base-tile layout (include/types/register/rt.cuh):
// rows, columns, the run of consecutive elements a lane holds (stride), runs
// per base tile, and the distance between a lane's runs.
template <typename RT> struct base_tile_layout {
  static constexpr int base_tile_rows = RT::base_tile_rows;
  static constexpr int base_tile_cols = RT::base_tile_cols;
  static constexpr int base_tile_stride = RT::base_tile_stride;
  static constexpr int base_tile_num_strides = RT::base_tile_num_strides;
  static constexpr int base_tile_elements_per_stride_group =
      RT::base_tile_elements_per_stride_group;
};

)";

static const char kBaseTileLayoutCdna3[] =
    R"(// HipKittens' cdna3 register base tile (include/types/register/rt_base.cuh,
// include/ops/warp/memory/tile/global_to_register.cuh): 16x16, lane l at row
// (row layout) or column (col layout) l % 16, holding one run of 4
// consecutive elements from column (row) 4 * (l / 16).
template <typename RT> struct base_tile_layout {
  static constexpr int base_tile_rows = RT::tile_size_row;
  static constexpr int base_tile_cols = RT::tile_size_col;
  static constexpr int base_tile_stride = 4;
  static constexpr int base_tile_num_strides = 1;
  static constexpr int base_tile_elements_per_stride_group = 0;
};

)";

/// Where each element of a register tile lies, from the layout constants:
/// the atomic add and the relayout visit a tile with it.
static const char kElementPositionsHelper[] =
    R"(// Calls f(row, col, element) for every element lane `lane` holds of a
// register tile, at the positions and in the order of HipKittens'
// register-tile store (include/ops/warp/memory/tile/global_to_register.cuh):
// a lane's first element of a base tile, then runs of base_tile_stride
// consecutive elements along the row (row layout) or the column (col
// layout), two per packed register. Host code can ask for any lane.
template <typename RT, typename F>
__host__ __device__ inline void for_each_element(RT &tile, const int lane,
                                                 F &&f) {
  using L = base_tile_layout<std::remove_const_t<RT>>;
  constexpr bool row =
      std::is_same_v<typename std::remove_const_t<RT>::layout, ducks::rt_layout::row>;
  const int lane_row = row ? lane % L::base_tile_rows
                           : L::base_tile_stride * (lane / L::base_tile_cols);
  const int lane_col = row ? L::base_tile_stride * (lane / L::base_tile_rows)
                           : lane % L::base_tile_cols;
#pragma unroll
  for (int i = 0; i < RT::height; i++) {
#pragma unroll
    for (int j = 0; j < RT::width; j++) {
#pragma unroll
      for (int k = 0; k < L::base_tile_num_strides; k++) {
#pragma unroll
        for (int l = 0; l < L::base_tile_stride / 2; l++) {
          auto &v = tile.tiles[i][j].data[l + k * L::base_tile_stride / 2];
          const int step = k * L::base_tile_elements_per_stride_group + 2 * l;
          const int r = i * L::base_tile_rows + lane_row + (row ? 0 : step);
          const int c = j * L::base_tile_cols + lane_col + (row ? step : 0);
          f(r, c, v.x);
          f(row ? r : r + 1, row ? c + 1 : c, v.y);
        }
      }
    }
  }
}

)";

/// Base-tile shapes that HipKittens' calls do not take: the operands go
/// through LDS into the shape they take (KernelOps.cpp, relayout rules).
static const char kRelayoutHelper[] =
    R"(// Register tiles in a base-tile shape a HipKittens call does not take are
// copied through LDS into one it takes: every lane writes its elements to a
// row-major R x C scratch of its wave, then reads those of the other layout.
template <ducks::rt::all D, ducks::rt::all S>
__device__ inline void tile_relayout(D &dst, const S &src, void *scratch) {
  static_assert(D::rows == S::rows && D::cols == S::cols &&
                    std::is_same_v<typename D::T, typename S::T>,
                "a relayout keeps the shape and the element type");
  using T = typename S::T;
  T *buf = (T *)scratch;
  // The wave's earlier reads of the scratch come first; its writes are seen
  // by its own later reads (LDS executes a wave's accesses in order).
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  const int lane = laneid();
  for_each_element(src, lane, [&](int r, int c, const T &v) { buf[r * S::cols + c] = v; });
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
  for_each_element(dst, lane, [&](int r, int c, T &v) { v = buf[r * S::cols + c]; });
}

)";

/// hk.transpose on cdna3, whose tree has no tile-level transpose.
static const char kTransposeHelperCdna3[] =
    R"(// hk.transpose: HipKittens' cdna3 tree has no tile-level transpose. In its
// 16x16 base tiles lane l holds 4 consecutive elements of row l % 16 (row
// layout) or of column l % 16 (col layout), from column (row) 4 * (l / 16)
// (include/ops/warp/memory/tile/global_to_register.cuh): the row-layout base
// tile of M and the col-layout base tile of M^T hold the same registers, so
// transposing a tile moves base tile (i, j) to (j, i) unchanged.
template <ducks::rt::all D, ducks::rt::all S>
__device__ inline void tile_transpose(D &dst, const S &src) {
  static_assert(D::rows == S::cols && D::cols == S::rows &&
                    std::is_same_v<typename D::T, typename S::T> &&
                    !std::is_same_v<typename D::layout, typename S::layout>,
                "a transpose swaps the shape and the layout");
#pragma unroll
  for (int i = 0; i < S::height; i++)
#pragma unroll
    for (int j = 0; j < S::width; j++)
#pragma unroll
      for (int k = 0; k < S::packed_per_tile; k++)
        dst.tiles[j][i].data[k] = src.tiles[i][j].data[k];
}

)";

/// Register vectors in global memory on cdna3 (isGlobalVectorAccess).
static const char kVectorMemoryHelperCdna3[] =
    R"(// Register vectors in global memory: HipKittens' cdna3 tree loads and
// stores align and ortho vectors (include/ops/warp/memory/vec/
// global_to_register.cuh) at positions its 16x16 base tiles do not use: an
// align load gives lane l the pairs at 2 * (l % 8) and 16 + 2 * (l % 8) of
// each 32 elements, an ortho load element 8 * (l % 8) + l / 8. Its tiles'
// maps and reductions expect what its tile loads give (lane l at row
// (column) l % 16, four elements from column (row) 4 * (l / 16)): an align
// vector holds elements 16 w + 4 * (l / 16) + 0..3 in data[w], an ortho
// vector element 16 w + l % 16. These read and write those positions; naive
// vectors go through HipKittens' own load and store.
template <ducks::rv::all RV, ducks::gl::all GL,
          ducks::coord::vec COORD = coord<RV>>
__device__ inline void vec_load(RV &dst, const GL &src, const COORD &idx) {
  using T2 = typename RV::dtype;
  using U = typename GL::dtype;
  using U2 = typename base_types::packing<U>::packed_type;
  const U *ptr = (const U *)&src[(idx.template unit_coord<-1, 3>())];
  const int lane = laneid();
  if constexpr (std::is_same_v<typename RV::layout, ducks::rv_layout::align>) {
#pragma unroll
    for (int w = 0; w < RV::outer_dim; w++)
#pragma unroll
      for (int k = 0; k < 2; k++)
        dst[w][k] = base_types::convertor<T2, U2>::convert(
            *(const U2 *)&ptr[16 * w + 4 * (lane / 16) + 2 * k]);
  } else if constexpr (std::is_same_v<typename RV::layout,
                                      ducks::rv_layout::ortho>) {
#pragma unroll
    for (int w = 0; w < RV::outer_dim; w++)
      dst[w][0] = base_types::convertor<T2, U>::convert(ptr[16 * w + lane % 16]);
  } else {
    load(dst, src, idx);
  }
}

// Every element lies in 4 lanes (ortho) or 16 (align); one of them writes it.
template <ducks::rv::all RV, ducks::gl::all GL,
          ducks::coord::vec COORD = coord<RV>>
__device__ inline void vec_store(const GL &dst, const RV &src,
                                 const COORD &idx) {
  using T2 = typename RV::dtype;
  using U = typename GL::dtype;
  using U2 = typename base_types::packing<U>::packed_type;
  U *ptr = (U *)&dst[(idx.template unit_coord<-1, 3>())];
  const int lane = laneid();
  if constexpr (std::is_same_v<typename RV::layout, ducks::rv_layout::align>) {
    if (lane % 16 != 0)
      return;
#pragma unroll
    for (int w = 0; w < RV::outer_dim; w++)
#pragma unroll
      for (int k = 0; k < 2; k++)
        *(U2 *)&ptr[16 * w + 4 * (lane / 16) + 2 * k] =
            base_types::convertor<U2, T2>::convert(src[w][k]);
  } else if constexpr (std::is_same_v<typename RV::layout,
                                      ducks::rv_layout::ortho>) {
    if (lane >= 16)
      return;
#pragma unroll
    for (int w = 0; w < RV::outer_dim; w++)
      ptr[16 * w + lane] = base_types::convertor<U, T2>::convert(src[w][0]);
  } else {
    store(dst, src, idx);
  }
}

)";

/// Row-layout reads of wide shared tiles on cdna3 (needsRowReadHelper).
static const char kSharedRowReadHelperCdna3[] =
    R"(// Shared to register, row layout, 16-bit elements: HipKittens' cdna3
// load (include/ops/warp/memory/tile/shared_to_register.cuh) reads base
// tile (i, j) at the address of (i, j) = (0, j) plus i * 16 rows of
// underlying_cols elements, but its shared tiles (include/types/shared/
// st.cuh) store columns in blocks of subtile_cols (the swizzle's width), a
// row of a block being subtile_cols elements: the two agree only when
// underlying_cols == subtile_cols (16, 32 or 64 columns). This reads every
// base tile at the address the tile's own idx() gives, with the same
// ds_read_b64 (the caller waits for it).
template <ducks::rt::row_layout RT, ducks::st::all ST>
__device__ inline void shared_load_rows(RT &dst, const ST &src) {
  static_assert(RT::height == ST::height && RT::width == ST::width,
                "register tile and shared tile must match");
  static_assert(sizeof(typename RT::T) == 2 &&
                    std::is_same_v<typename RT::T, typename ST::T>,
                "16-bit tiles of one element type");
  const int lane = laneid();
  const uint32_t src_ptr = reinterpret_cast<uintptr_t>(&src.data[0]);
#pragma unroll
  for (int i = 0; i < RT::height; i++)
#pragma unroll
    for (int j = 0; j < RT::width; j++) {
      const uint32_t addr = src.idx(
          src_ptr, {i * RT::tile_size_row + lane % 16,
                    j * RT::tile_size_col + 4 * (lane / 16)});
      asm volatile("ds_read_b64 %0, %1\n"
                   : "=v"(*reinterpret_cast<uint64_t *>(&dst.tiles[i][j].data[0]))
                   : "v"(addr)
                   : "memory");
    }
}

)";

/// Col-layout reads of 16-bit shared tiles on main (needsColReadHelper).
static const char kSharedColReadHelperMain[] =
    R"(// Shared to register, col layout, 16-bit elements, on main: for 16x32
// base tiles from 16x32 shared subtiles, HipKittens' load (include/ops/
// warp/memory/tile/shared_to_register.cuh) issues the two
// ds_read_b64_tr_b16 of a base tile in one asm statement whose outputs are
// not early-clobber, so the compiler may give the first read's destination
// the register holding the address the second read still needs: the second
// read then takes its address from a register a load is still writing.
// This issues each read in an asm statement of its own, at the addresses
// HipKittens' load uses (lane row (lane % 16) / 4 + 8 (lane / 32), column
// 4 (lane % 4) + 16 ((lane % 32) / 16) of each subtile, the second read 4
// rows down); other shapes go through HipKittens' load. The caller waits.
template <ducks::rt::col_layout RT, ducks::st::all ST>
__device__ inline void shared_load_cols(RT &dst, const ST &src) {
  if constexpr (RT::base_tile_rows == 16 && RT::base_tile_cols == 32 &&
                RT::base_tile_stride == 8 && RT::base_tile_num_strides == 1 &&
                std::is_same_v<typename ST::shape, st_16x32_s> &&
                sizeof(typename ST::T) == 2) {
    static_assert(RT::height == ST::subtiles_per_col &&
                      RT::width == ST::subtiles_per_row,
                  "one 16x32 base tile per 16x32 shared subtile");
    const int lane = laneid();
    const int row = (lane % 16) / 4 + 8 * (lane / 32);
    const int col = 4 * (lane % 4) + 16 * ((lane % 32) / 16);
    const uint32_t addr = reinterpret_cast<uintptr_t>(&src.data[0]) +
                          src.swizzle({row, col});
#pragma unroll
    for (int i = 0; i < RT::height; i++)
#pragma unroll
      for (int j = 0; j < RT::width; j++) {
        constexpr int rowBytes = ST::underlying_subtile_row_bytes;
        const int offset = (i * ST::underlying_subtiles_per_row + j) *
                           ST::underlying_subtile_bytes;
        asm volatile("ds_read_b64_tr_b16 %0, %1 offset:%2\n"
                     : "=v"(*reinterpret_cast<float2 *>(&dst.tiles[i][j].data[0]))
                     : "v"(addr), "i"(offset)
                     : "memory");
        asm volatile("ds_read_b64_tr_b16 %0, %1 offset:%2\n"
                     : "=v"(*reinterpret_cast<float2 *>(&dst.tiles[i][j].data[2]))
                     : "v"(addr), "i"(offset + 4 * rowBytes)
                     : "memory");
      }
  } else {
    load(dst, src);
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
  // HipKittens' branch for the chip: `main` for CDNA4, `cdna3` for CDNA3.
  os << "// Build: hipcc -std=c++20 --offload-arch=" << chip.name
     << " -I$HIPKITTENS_ROOT/include (HipKittens branch "
     << (hipKittensApi(chip).baseShapes ? "main" : "cdna3") << ")\n";
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
  HipKittensApi api = hipKittensApi(chip);
  bool needsRelayout = false, needsTranspose = false, needsRowRead = false,
       needsColRead = false, needsVectorMemory = false;
  module->walk([&](Operation *op) {
    needsRelayout |= needsLdsRelayout(op, chip);
    needsTranspose |= isa<TransposeOp>(op) && !api.tileTranspose;
    needsRowRead |= needsRowReadHelper(op, chip);
    needsColRead |= needsColReadHelper(op, chip);
    needsVectorMemory |= !api.baseShapes && isGlobalVectorAccess(op);
  });
  if (needsAtomicAdd || needsRelayout)
    os << (api.baseShapes ? kBaseTileLayoutMain : kBaseTileLayoutCdna3)
       << kElementPositionsHelper;
  if (needsAtomicAdd)
    os << kAtomicAddHelper;
  if (needsRelayout)
    os << kRelayoutHelper;
  if (needsTranspose)
    os << kTransposeHelperCdna3;
  if (needsRowRead)
    os << kSharedRowReadHelperCdna3;
  if (needsColRead)
    os << kSharedColReadHelperMain;
  if (needsVectorMemory)
    os << kVectorMemoryHelperCdna3;
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

/// "gfx942: cdna3, gfx950: main": the chips of the table that have a
/// HipKittens tree, with its branch.
static std::string chipsWithTrees() {
  std::string text;
  for (const std::string &name : supportedChips()) {
    HipKittensTree tree = lookupChip(name)->hipKittens;
    if (tree == HipKittensTree::None)
      continue;
    text += (text.empty() ? "" : ", ") + name + ": " + hipKittensTreeName(tree);
  }
  return text;
}

void hk::registerToHipKittensTranslation() {
  // Local statics: the options exist only in a tool that registers the
  // translation, so a tool linking this library for other reasons keeps its
  // own --chip.
  static const std::string chipHelp =
      "chip whose HipKittens tree --hk-to-hipkittens writes for (" +
      chipsWithTrees() + ")";
  static llvm::cl::opt<std::string> chipOption("chip", llvm::cl::desc(chipHelp),
                                               llvm::cl::init(kDefaultChip));
  // The spelling before --chip, kept only to say what replaced it.
  static llvm::cl::opt<std::string> oldArchOption("hk-arch", llvm::cl::Hidden);
  static const std::string nestingHelp =
      "refuse input nested deeper than N levels of brackets, before parsing "
      "it (default " +
      std::to_string(kDefaultMaxNestingDepth) + ", at most " +
      std::to_string(kMaxNestingDepthLimit) + ")";
  static llvm::cl::opt<unsigned> maxNestingOption(
      "max-nesting-depth", llvm::cl::desc(nestingHelp),
      llvm::cl::init(kDefaultMaxNestingDepth));
  TranslateRegistration registration(
      "hk-to-hipkittens", "translate hk kernels to HipKittens HIP C++",
      [](const std::shared_ptr<llvm::SourceMgr> &sm, raw_ostream &os,
         MLIRContext *context) -> LogicalResult {
        if (oldArchOption.getNumOccurrences())
          return emitError(UnknownLoc::get(context),
                           "--hk-arch was replaced by --chip: name the chip, "
                           "and the chip picks the HipKittens tree (")
                 << chipsWithTrees() << ")";
        const ChipInfo *chip = lookupChip(chipOption);
        if (!chip)
          return emitError(UnknownLoc::get(context), "unknown chip '")
                 << chipOption << "'; supported: " << supportedChipNames();
        // A chip without a tree must not get another chip's API.
        if (chip->hipKittens == HipKittensTree::None)
          return emitError(UnknownLoc::get(context), "chip '")
                 << chip->name << "' has no HipKittens tree; chips with one: "
                 << chipsWithTrees();
        if (maxNestingOption < 1 || maxNestingOption > kMaxNestingDepthLimit)
          return emitError(UnknownLoc::get(context),
                           "--max-nesting-depth must be 1 to ")
                 << kMaxNestingDepthLimit;
        if (!checkNestingDepth(*sm, maxNestingOption, "--max-nesting-depth=N",
                               llvm::errs()))
          return failure();
        return translateSource(sm, os, context, *chip);
      });
}
