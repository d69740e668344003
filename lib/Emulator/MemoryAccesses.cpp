//===- MemoryAccesses.cpp - buffers and LDS through the engine ------------===//
//
// A fat raw buffer is its descriptor: base and num_records, computed as
// amdgpu.fat_raw_buffer_cast defines them (num_records = validBytes, else
// max_d size[d] * stride[d] * element bytes; resetOffset folds the memref's
// offset into the base), so out-of-range accesses behave as on the GPU.
// amdgpu.raw_buffer_atomic_fadd builds the same descriptor from its plain
// memref (as a resetOffset cast without validBytes, which is how
// convert-amdgpu-to-rocdl makes it).
// A workgroup memref keeps its descriptor, whose aligned pointer holds the
// LDS byte address: accesses compute that address and call the engine.
//===----------------------------------------------------------------------===//

#include "Rewrites.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk::emulator;

namespace {

bool isFatBuffer(Type t) {
  auto memref = dyn_cast<MemRefType>(t);
  auto space =
      memref
          ? dyn_cast_or_null<amdgpu::AddressSpaceAttr>(memref.getMemorySpace())
          : nullptr;
  return space && space.getValue() == amdgpu::AddressSpace::FatRawBuffer;
}

bool isWorkgroup(Type t) {
  auto memref = dyn_cast<MemRefType>(t);
  return memref && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(memref);
}

struct Buffer {
  Value base;       ///< !llvm.ptr
  Value numRecords; ///< i32
  Value offset;     ///< index, elements added to every access
  SmallVector<Value> strides;
};

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value elementBytes(OpBuilder &b, Location loc, MemRefType t) {
  return cIndex(b, loc, storageBytes(t.getElementType()));
}

/// The descriptor of a buffer over `source`; `validBytes` (or null) and
/// `resetOffset` as for amdgpu.fat_raw_buffer_cast.
Buffer describeBuffer(OpBuilder &b, Location loc, Value source,
                      Value validBytes, bool resetOffset,
                      EmulatorCalls &calls) {
  auto type = cast<MemRefType>(source.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, source);
  Value bytes = elementBytes(b, loc, type);
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, source);
  Buffer buf;
  buf.strides.assign(meta.getStrides().begin(), meta.getStrides().end());
  buf.offset = meta.getOffset();
  if (resetOffset) {
    Value shift = arith::MulIOp::create(b, loc, meta.getOffset(), bytes);
    aligned = arith::AddIOp::create(b, loc, aligned, shift);
    buf.offset = cIndex(b, loc, 0);
  }
  buf.base = calls.indexToPtr(b, loc, aligned);
  if (validBytes) {
    buf.numRecords =
        arith::TruncIOp::create(b, loc, b.getI32Type(), validBytes);
    return buf;
  }
  Value extent = cIndex(b, loc, type.getRank() == 0 ? 1 : 0);
  for (auto [size, stride] : llvm::zip(meta.getSizes(), meta.getStrides()))
    extent = arith::MaxUIOp::create(
        b, loc, extent, arith::MulIOp::create(b, loc, size, stride));
  extent = arith::MulIOp::create(b, loc, extent, bytes);
  buf.numRecords = calls.indexToI32(b, loc, extent);
  return buf;
}

/// offset + sum(index[d] * stride[d]), in elements.
Value linearize(OpBuilder &b, Location loc, Value offset,
                ArrayRef<Value> strides, ValueRange indices) {
  Value linear = offset;
  for (auto [index, stride] : llvm::zip(indices, strides))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  return linear;
}

/// An LDS access's address: `base`, the address of the allocation (the
/// memref's aligned pointer, which views keep), and `addr`, that of
/// memref[indices]; both i32.
struct LdsAddress {
  Value base, addr;
};

LdsAddress ldsAddress(OpBuilder &b, Location loc, Value memref,
                      ValueRange indices, EmulatorCalls &calls) {
  auto type = cast<MemRefType>(memref.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  SmallVector<Value> strides(meta.getStrides());
  Value linear = linearize(b, loc, meta.getOffset(), strides, indices);
  Value bytes =
      arith::MulIOp::create(b, loc, linear, elementBytes(b, loc, type));
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  return {calls.indexToI32(b, loc, base),
          calls.indexToI32(b, loc, arith::AddIOp::create(b, loc, base, bytes))};
}

class MemoryRewriter {
public:
  MemoryRewriter(EmulatorCalls &calls) : calls(calls) {}
  LogicalResult rewrite(Operation *op, bool &erase);

private:
  FailureOr<Buffer> buffer(Operation *user, Value memref);
  Value bufferOffset(OpBuilder &b, Location loc, const Buffer &buf,
                     Value memref, ValueRange indices);
  LogicalResult load(Operation *op, Value memref, ValueRange indices,
                     Value result);
  LogicalResult store(Operation *op, Value value, Value memref,
                      ValueRange indices);
  LogicalResult atomic(memref::AtomicRMWOp op);
  LogicalResult atomic(amdgpu::RawBufferAtomicFaddOp op);
  LogicalResult gather(amdgpu::GatherToLDSOp op);

  EmulatorCalls &calls;
  /// Keyed by fat raw buffer memref.
  llvm::DenseMap<Value, Buffer> buffers;
  /// Keyed by the plain memref of raw buffer ops.
  llvm::DenseMap<Value, Buffer> rawBuffers;
};

FailureOr<Buffer> MemoryRewriter::buffer(Operation *user, Value memref) {
  auto it = buffers.find(memref);
  if (it != buffers.end())
    return it->second;
  auto cast = memref.getDefiningOp<amdgpu::FatRawBufferCastOp>();
  if (!cast)
    return noEmulation(user, " on a fat raw buffer that is not the direct "
                             "result of amdgpu.fat_raw_buffer_cast");
  OpBuilder b(cast->getBlock(), std::next(Block::iterator(cast)));
  Buffer buf =
      describeBuffer(b, cast.getLoc(), cast.getSource(), cast.getValidBytes(),
                     cast.getResetOffset(), calls);
  buffers[memref] = buf;
  return buf;
}

/// The descriptor convert-amdgpu-to-rocdl makes for a raw buffer op on
/// `memref`, built once where `memref` is defined.
const Buffer &rawBuffer(llvm::DenseMap<Value, Buffer> &cache, Value memref,
                        EmulatorCalls &calls) {
  auto it = cache.find(memref);
  if (it != cache.end())
    return it->second;
  OpBuilder b(memref.getContext());
  if (auto arg = dyn_cast<BlockArgument>(memref))
    b.setInsertionPointToStart(arg.getOwner());
  else
    b.setInsertionPointAfter(memref.getDefiningOp());
  Buffer buf =
      describeBuffer(b, memref.getLoc(), memref,
                     /*validBytes=*/Value(), /*resetOffset=*/true, calls);
  return cache.try_emplace(memref, std::move(buf)).first->second;
}

Value MemoryRewriter::bufferOffset(OpBuilder &b, Location loc,
                                   const Buffer &buf, Value memref,
                                   ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  Value linear = linearize(b, loc, buf.offset, buf.strides, indices);
  Value bytes =
      arith::MulIOp::create(b, loc, linear, elementBytes(b, loc, type));
  return calls.indexToI32(b, loc, bytes);
}

LogicalResult MemoryRewriter::load(Operation *op, Value memref,
                                   ValueRange indices, Value result) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type type = result.getType();
  int64_t bytes = storageBytes(type);
  if (bytes == 0 || bytes > 16)
    return noEmulation(op, " of " + std::to_string(bytes) + " bytes");
  EmulatorCalls::Slot dst = calls.slot(type, 0);
  Value size = calls.i32(b, loc, bytes);
  if (isFatBuffer(memref.getType())) {
    auto buf = buffer(op, memref);
    if (failed(buf))
      return failure();
    Value off = bufferOffset(b, loc, *buf, memref, indices);
    calls.call(b, loc, "hkemu_buffer_load",
               {buf->base, buf->numRecords, off, size, dst.ptr});
  } else {
    LdsAddress at = ldsAddress(b, loc, memref, indices, calls);
    calls.call(b, loc, "hkemu_lds_load",
               {at.base, at.addr, size, dst.ptr, calls.i32(b, loc, 1)});
  }
  result.replaceAllUsesWith(calls.reload(b, loc, dst, type));
  return success();
}

LogicalResult MemoryRewriter::store(Operation *op, Value value, Value memref,
                                    ValueRange indices) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  int64_t bytes = storageBytes(value.getType());
  if (bytes == 0 || bytes > 16)
    return noEmulation(op, " of " + std::to_string(bytes) + " bytes");
  Value size = calls.i32(b, loc, bytes);
  if (isFatBuffer(memref.getType())) {
    auto buf = buffer(op, memref);
    if (failed(buf))
      return failure();
    Value off = bufferOffset(b, loc, *buf, memref, indices);
    Value src = calls.spill(b, loc, value, 0);
    calls.call(b, loc, "hkemu_buffer_store",
               {buf->base, buf->numRecords, off, size, src});
    return success();
  }
  LdsAddress at = ldsAddress(b, loc, memref, indices, calls);
  Value src = calls.spill(b, loc, value, 0);
  calls.call(b, loc, "hkemu_lds_store",
             {at.base, at.addr, size, src, calls.i32(b, loc, 1)});
  return success();
}

LogicalResult MemoryRewriter::atomic(memref::AtomicRMWOp op) {
  if (!isFatBuffer(op.getMemref().getType()) ||
      op.getKind() != arith::AtomicRMWKind::addf ||
      !op.getValue().getType().isF32())
    return noEmulation(op, " other than an f32 addf on a fat raw buffer");
  if (!op.getResult().use_empty())
    return noEmulation(op, " whose result is used (the engine's atomic add "
                           "returns nothing)");
  OpBuilder b(op);
  auto buf = buffer(op, op.getMemref());
  if (failed(buf))
    return failure();
  Value off =
      bufferOffset(b, op.getLoc(), *buf, op.getMemref(), op.getIndices());
  calls.call(b, op.getLoc(), "hkemu_buffer_atomic_fadd",
             {buf->base, buf->numRecords, off, op.getValue()});
  return success();
}

LogicalResult MemoryRewriter::atomic(amdgpu::RawBufferAtomicFaddOp op) {
  if (!op.getValue().getType().isF32())
    return noEmulation(op, " on packed 16-bit floats");
  // The lowering produces neither; without a bounds check the descriptor
  // would differ (num_records all ones on these chips).
  if (!op.getBoundsCheck() || op.getSgprOffset())
    return noEmulation(op, " with boundsCheck = false or sgprOffset");
  OpBuilder b(op);
  Location loc = op.getLoc();
  const Buffer &buf = rawBuffer(rawBuffers, op.getMemref(), calls);
  // The op computes its byte offset in i32: indices are sign-extended here
  // and the sum truncated to 32 bits, which gives the same bits.
  SmallVector<Value> indices;
  for (Value i : op.getIndices())
    indices.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(), i));
  Value off = bufferOffset(b, loc, buf, op.getMemref(), indices);
  // indexOffset (elements) is part of the offset the range check sees, as
  // the instruction's immediate offset is.
  if (std::optional<uint32_t> extra = op.getIndexOffset(); extra && *extra)
    off = arith::AddIOp::create(
        b, loc, off, calls.i32(b, loc, static_cast<int32_t>(*extra * 4)));
  calls.call(b, loc, "hkemu_buffer_atomic_fadd",
             {buf.base, buf.numRecords, off, op.getValue()});
  return success();
}

LogicalResult MemoryRewriter::gather(amdgpu::GatherToLDSOp op) {
  if (!isFatBuffer(op.getSrc().getType()))
    return noEmulation(op, " from a memref that is not a fat raw buffer");
  int64_t bytes = storageBytes(op.getTransferType());
  if (bytes != 4 && bytes != 12 && bytes != 16)
    return noEmulation(op, " of " + std::to_string(bytes) +
                               " bytes per lane (4, 12 or 16 only)");
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto buf = buffer(op, op.getSrc());
  if (failed(buf))
    return failure();
  Value off = bufferOffset(b, loc, *buf, op.getSrc(), op.getSrcIndices());
  // The hardware takes the LDS address from M0, i.e. from lane 0.
  LdsAddress at = ldsAddress(b, loc, op.getDst(), op.getDstIndices(), calls);
  Value uniform =
      calls.call(b, loc, "hkemu_readfirstlane", at.addr, b.getI32Type())[0];
  calls.call(b, loc, "hkemu_lds_dma",
             {buf->base, buf->numRecords, off, at.base, uniform,
              calls.i32(b, loc, bytes), calls.i32(b, loc, 1),
              calls.site(b, loc, op)});
  return success();
}

bool touchesEmulatedMemory(Operation *op, ValueRange operands) {
  return llvm::any_of(operands.getTypes(),
                      [](Type t) { return isFatBuffer(t) || isWorkgroup(t); });
}

LogicalResult MemoryRewriter::rewrite(Operation *op, bool &erase) {
  erase = true;
  if (auto l = dyn_cast<vector::LoadOp>(op)) {
    if (touchesEmulatedMemory(op, l.getBase()))
      return load(op, l.getBase(), l.getIndices(), l.getResult());
  } else if (auto l = dyn_cast<memref::LoadOp>(op)) {
    if (touchesEmulatedMemory(op, l.getMemref()))
      return load(op, l.getMemref(), l.getIndices(), l.getResult());
  } else if (auto s = dyn_cast<vector::StoreOp>(op)) {
    if (touchesEmulatedMemory(op, s.getBase()))
      return store(op, s.getValueToStore(), s.getBase(), s.getIndices());
  } else if (auto s = dyn_cast<memref::StoreOp>(op)) {
    if (touchesEmulatedMemory(op, s.getMemref()))
      return store(op, s.getValueToStore(), s.getMemref(), s.getIndices());
  } else if (auto a = dyn_cast<memref::AtomicRMWOp>(op)) {
    if (touchesEmulatedMemory(op, a.getMemref()))
      return atomic(a);
  } else if (auto a = dyn_cast<amdgpu::RawBufferAtomicFaddOp>(op)) {
    return atomic(a);
  } else if (auto g = dyn_cast<amdgpu::GatherToLDSOp>(op)) {
    return gather(g);
  } else if (touchesEmulatedMemory(op, op->getOperands()) &&
             !isa<memref::ExtractStridedMetadataOp, memref::DimOp,
                  memref::SubViewOp, memref::ReinterpretCastOp, memref::CastOp,
                  memref::ExpandShapeOp, memref::CollapseShapeOp,
                  memref::ExtractAlignedPointerAsIndexOp,
                  amdgpu::FatRawBufferCastOp>(op)) {
    // Any other reader or writer would touch the host address space with an
    // LDS address or bypass the buffer's range.
    return noEmulation(op, " on workgroup memory or a fat raw buffer");
  }
  erase = false;
  return success();
}

} // namespace

LogicalResult hk::emulator::rewriteMemoryAccesses(func::FuncOp func,
                                                  EmulatorCalls &calls) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) { ops.push_back(op); });
  MemoryRewriter rewriter(calls);
  for (Operation *op : ops) {
    bool erase = false;
    if (failed(rewriter.rewrite(op, erase)))
      return failure();
    if (erase)
      op->erase();
  }
  // Every access is a call now; the casts have no users left but the
  // metadata ops that describe them.
  SmallVector<amdgpu::FatRawBufferCastOp> casts;
  func.walk([&](amdgpu::FatRawBufferCastOp c) { casts.push_back(c); });
  for (amdgpu::FatRawBufferCastOp c : casts) {
    if (!c.use_empty())
      return noEmulation(*c.getResult().getUsers().begin(),
                         " on a fat raw buffer");
    c.erase();
  }
  return success();
}
