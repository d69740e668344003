//===- KernelToGPU.cpp - hk.kernel and ids to gpu.module / gpu.func -------===//

#include "hk/Base/Chip.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace hk;

namespace {

/// hk.kernel @k -> gpu.module @k_module { gpu.func @k kernel }. The launch
/// facts a runtime needs stay on the function: the block size as
/// known_block_size, the grid and wave count as hk.grid / hk.waves.
struct KernelLowering : OpConversionPattern<KernelOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(KernelOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    TypeConverter::SignatureConversion signature(op.getNumArguments());
    if (failed(
            converter.convertSignatureArgs(op.getArgumentTypes(), signature)))
      return rewriter.notifyMatchFailure(op, "argument types do not convert");

    Location loc = op.getLoc();
    auto module = gpu::GPUModuleOp::create(rewriter, loc,
                                           (op.getSymName() + "_module").str());
    rewriter.setInsertionPointToStart(module.getBody());
    auto type = rewriter.getFunctionType(signature.getConvertedTypes(), {});
    auto func = gpu::GPUFuncOp::create(rewriter, loc, op.getSymName(), type);
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  rewriter.getUnitAttr());
    int32_t threads = static_cast<int32_t>(op.getWaves()) * 64;
    func.setKnownBlockSizeAttr(rewriter.getDenseI32ArrayAttr({threads, 1, 1}));
    func->setAttr(HKDialect::kGridAttrName, op.getGridAttr());
    func->setAttr(HKDialect::kWavesAttrName, op.getWavesAttr());
    // LLVM's amdgpu-waves-per-eu: an EU is a SIMD.
    if (std::optional<uint32_t> min = op.getMinWavesPerSimd())
      func->setAttr(ROCDL::ROCDLDialect::WavesPerEuAttrHelper::getNameStr(),
                    rewriter.getI32IntegerAttr(static_cast<int32_t>(*min)));

    // The builder made an entry block; the kernel's body replaces it.
    rewriter.eraseBlock(&func.getBody().front());
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(),
                                func.getBody().end());
    rewriter.applySignatureConversion(&func.getBody().front(), signature,
                                      &converter);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnLowering : OpConversionPattern<ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::ReturnOp>(op);
    return success();
  }
};

static gpu::Dimension toGpuDim(GridDim dim) {
  switch (dim) {
  case GridDim::X:
    return gpu::Dimension::x;
  case GridDim::Y:
    return gpu::Dimension::y;
  case GridDim::Z:
    return gpu::Dimension::z;
  }
  llvm_unreachable("unknown grid dimension");
}

struct BlockIdLowering : OpConversionPattern<BlockIdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BlockIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::BlockIdOp>(op, toGpuDim(op.getDim()));
    return success();
  }
};

/// The grid a kernel is launched with is its #hk.grid evaluated on its
/// arguments, so num_blocks is computed from that formula in the kernel:
/// reading the launch's grid size would need ROCm's device library (ockl).
struct NumBlocksLowering : OpConversionPattern<NumBlocksOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NumBlocksOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *kernel = op->getParentOfType<KernelOp>();
    if (!kernel)
      kernel = op->getParentOfType<gpu::GPUFuncOp>();
    auto grid = kernel ? kernel->getAttrOfType<GridAttr>(
                             isa<KernelOp>(kernel)
                                 ? StringRef("grid")
                                 : StringRef(HKDialect::kGridAttrName))
                       : GridAttr();
    if (!grid)
      return rewriter.notifyMatchFailure(op, "no enclosing kernel grid");
    unsigned dim = static_cast<unsigned>(op.getDim());
    AffineMap map = grid.getMap();
    Location loc = op.getLoc();
    if (dim >= map.getNumResults()) {
      rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, 1);
      return success();
    }
    Block &entry = kernel->getRegion(0).front();
    AffineExpr expr = map.getResult(dim);
    SmallVector<Value> symbols;
    for (auto [i, arg, d] :
         llvm::enumerate(grid.getSymbolArgs(), grid.getSymbolDims())) {
      // Only the symbols this dimension uses are materialised.
      if (!expr.isFunctionOfSymbol(i)) {
        symbols.push_back(Value());
        continue;
      }
      Value value = entry.getArgument(arg);
      if (d != GridAttr::kScalarArg)
        value = memref::DimOp::create(rewriter, loc, value, d);
      else if (!value.getType().isIndex())
        value = arith::IndexCastOp::create(rewriter, loc,
                                           rewriter.getIndexType(), value);
      symbols.push_back(value);
    }
    Value count = affine::expandAffineExpr(rewriter, loc, expr,
                                           /*dimValues=*/{}, symbols);
    if (!count)
      return rewriter.notifyMatchFailure(op, "grid expression not expandable");
    rewriter.replaceOp(op, count);
    return success();
  }
};

/// thread_id.x / kWaveSize, read from the first lane so the backend knows it is
/// uniform over the wave and keeps it (and branches on it) in SGPRs.
struct WaveIdLowering : OpConversionPattern<WaveIdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WaveIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value waveSize = arith::ConstantIndexOp::create(rewriter, loc, kWaveSize);
    Value wave = arith::DivUIOp::create(rewriter, loc, tid, waveSize);
    Type i32 = rewriter.getI32Type();
    Value wave32 = arith::IndexCastUIOp::create(rewriter, loc, i32, wave);
    Value uniform = ROCDL::ReadfirstlaneOp::create(rewriter, loc, i32, wave32);
    rewriter.replaceOpWithNewOp<arith::IndexCastUIOp>(
        op, rewriter.getIndexType(), uniform);
    return success();
  }
};

} // namespace

void hk::populateKernelToGPUPatterns(TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     LoweringState &state) {
  patterns.add<KernelLowering, ReturnLowering, BlockIdLowering,
               NumBlocksLowering, WaveIdLowering>(converter,
                                                  patterns.getContext());
  state.support.add<KernelOp, ReturnOp, BlockIdOp, NumBlocksOp, WaveIdOp>();
}
