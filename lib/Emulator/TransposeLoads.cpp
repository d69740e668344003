//===- TransposeLoads.cpp - amdgpu.transpose_load as a load and shuffles --===//
//
// ds_read_b64_tr_b16 (amdgpu.transpose_load of vector<4x16-bit>) is the
// lane's own 8-byte LDS read followed by an exchange within each group of 16
// lanes: result element k of lane i is element i % 4 of the read of lane
// 4k + i / 4 of its group (runtime/core/TransposeRead.h, where the ISA
// simulator takes it from, and why). Here it becomes exactly that: a
// vector.load of the workgroup memref (which rewriteMemoryAccesses checks
// and times like any LDS read) and, per result element, gpu.shuffle idx of
// the read's two dwords from the source lane (which rewriteCrossLaneOp
// emulates) and the choice of the 16-bit half the lane needs.
//===----------------------------------------------------------------------===//

#include "Rewrites.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk::emulator;

static Value cst32(OpBuilder &b, Location loc, int32_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

static LogicalResult expand(amdgpu::TransposeLoadOp op) {
  auto type = cast<VectorType>(op.getResult().getType());
  if (type.getRank() != 1 || type.getNumElements() != 4 ||
      type.getElementTypeBitWidth() != 16)
    return noEmulation(op, " of " + std::to_string(type.getNumElements()) +
                               " elements of " +
                               std::to_string(type.getElementTypeBitWidth()) +
                               " bits (only ds_read_b64_tr_b16's 4 x 16)");
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type i32 = b.getI32Type(), i16 = b.getI16Type();
  Value own =
      vector::LoadOp::create(b, loc, type, op.getSrc(), op.getSrcIndices());
  Value words =
      vector::BitCastOp::create(b, loc, VectorType::get({2}, i32), own);
  Value word0 = vector::ExtractOp::create(b, loc, words, 0);
  Value word1 = vector::ExtractOp::create(b, loc, words, 1);
  Value tid = arith::IndexCastOp::create(
      b, loc, i32, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value lane = arith::RemUIOp::create(b, loc, tid, cst32(b, loc, 64));
  Value inGroup = arith::RemUIOp::create(b, loc, lane, cst32(b, loc, 16));
  Value group = arith::SubIOp::create(b, loc, lane, inGroup);
  Value quarter = arith::DivUIOp::create(b, loc, inGroup, cst32(b, loc, 4));
  // Element lane % 4 of the source's read: dword (lane % 4) / 2, half
  // (lane % 4) % 2.
  Value element = arith::RemUIOp::create(b, loc, lane, cst32(b, loc, 4));
  Value highWord = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                         element, cst32(b, loc, 2));
  Value shift = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, element, cst32(b, loc, 2)),
      cst32(b, loc, 16));
  Value width = cst32(b, loc, 64);
  SmallVector<Value> elements;
  for (int32_t k = 0; k < 4; ++k) {
    Value from = arith::AddIOp::create(
        b, loc, group,
        arith::AddIOp::create(b, loc, cst32(b, loc, 4 * k), quarter));
    Value lo = gpu::ShuffleOp::create(b, loc, word0, from, width,
                                      gpu::ShuffleMode::IDX)
                   .getShuffleResult();
    Value hi = gpu::ShuffleOp::create(b, loc, word1, from, width,
                                      gpu::ShuffleMode::IDX)
                   .getShuffleResult();
    Value word = arith::SelectOp::create(b, loc, highWord, hi, lo);
    Value half = arith::TruncIOp::create(
        b, loc, i16, arith::ShRUIOp::create(b, loc, word, shift));
    elements.push_back(
        arith::BitcastOp::create(b, loc, type.getElementType(), half));
  }
  op.getResult().replaceAllUsesWith(
      vector::FromElementsOp::create(b, loc, type, elements));
  op.erase();
  return success();
}

LogicalResult hk::emulator::expandTransposeLoads(func::FuncOp func) {
  SmallVector<amdgpu::TransposeLoadOp> loads;
  func.walk([&](amdgpu::TransposeLoadOp op) { loads.push_back(op); });
  for (amdgpu::TransposeLoadOp op : loads)
    if (failed(expand(op)))
      return failure();
  return success();
}
