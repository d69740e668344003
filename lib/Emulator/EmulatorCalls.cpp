//===- EmulatorCalls.cpp - building calls into the emulator engine --------===//

#include "EmulatorCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk::emulator;

int64_t hk::emulator::storageBytes(Type type) {
  int64_t count = 1;
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.getRank() != 1 || vector.isScalable())
      return 0;
    count = vector.getNumElements();
    type = vector.getElementType();
  }
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() % 8 != 0)
    return 0;
  return count * type.getIntOrFloatBitWidth() / 8;
}

EmulatorCalls::EmulatorCalls(ModuleOp module, func::FuncOp func)
    : module(module), func(func) {}

Type EmulatorCalls::ptrType() {
  return LLVM::LLVMPointerType::get(module.getContext());
}

func::FuncOp EmulatorCalls::declare(StringRef name, FunctionType type) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto decl = func::FuncOp::create(b, module.getLoc(), name, type);
  decl.setPrivate();
  return decl;
}

ValueRange EmulatorCalls::call(OpBuilder &b, Location loc, StringRef name,
                               ValueRange args, TypeRange results) {
  SmallVector<Value> operands{lane()};
  operands.append(args.begin(), args.end());
  auto type = b.getFunctionType(ValueRange(operands).getTypes(), results);
  func::FuncOp callee = declare(name, type);
  return func::CallOp::create(b, loc, callee, operands).getResults();
}

EmulatorCalls::Slot EmulatorCalls::slot(Type type, unsigned role) {
  auto key = std::make_pair(type, role);
  auto it = slots.find(key);
  if (it != slots.end())
    return it->second;
  // In the entry block, so a slot used in a loop is allocated once.
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  Location loc = func.getLoc();
  int64_t count = 1;
  Type element = type;
  if (auto vector = dyn_cast<VectorType>(type)) {
    count = vector.getNumElements();
    element = vector.getElementType();
  }
  auto memrefType = MemRefType::get({count}, element);
  Value memref = memref::AllocaOp::create(
      b, loc, memrefType, ValueRange{}, ValueRange{}, b.getI64IntegerAttr(16));
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Slot s{memref, indexToPtr(b, loc, address)};
  slots[key] = s;
  return s;
}

Value EmulatorCalls::spill(OpBuilder &b, Location loc, Value value,
                           unsigned role) {
  Slot s = slot(value.getType(), role);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  if (isa<VectorType>(value.getType()))
    vector::StoreOp::create(b, loc, value, s.memref, zero);
  else
    memref::StoreOp::create(b, loc, value, s.memref, zero);
  return s.ptr;
}

Value EmulatorCalls::reload(OpBuilder &b, Location loc, const Slot &s,
                            Type type) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  if (auto vector = dyn_cast<VectorType>(type))
    return vector::LoadOp::create(b, loc, vector, s.memref, zero);
  return memref::LoadOp::create(b, loc, s.memref, zero);
}

Value EmulatorCalls::i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

Value EmulatorCalls::indexToI32(OpBuilder &b, Location loc, Value index) {
  // Addresses and offsets wrap to 32 bits, as in a buffer or LDS address.
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
}

Value EmulatorCalls::i32ToIndex(OpBuilder &b, Location loc, Value v) {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
}

Value EmulatorCalls::indexToPtr(OpBuilder &b, Location loc, Value index) {
  Value i64 = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), index);
  return LLVM::IntToPtrOp::create(b, loc, ptrType(), i64);
}

Value EmulatorCalls::string(OpBuilder &b, Location loc, StringRef text) {
  std::string name =
      ("hkemu_str_" + func.getName() + "_" + Twine(strings++)).str();
  return LLVM::createGlobalString(loc, b, name, (text + Twine('\0')).str(),
                                  LLVM::Linkage::Internal);
}

Value EmulatorCalls::site(OpBuilder &b, Location loc, Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = op->getLoc()->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn() << " ";
  os << "(" << op->getName() << ")";
  return string(b, loc, text);
}
