//===- EmulatorCalls.h - building calls into the emulator engine ----------===//
//
// The lane program calls the engine through the C ABI of
// include/hk/Runtime/Emulator.h. This builder declares those functions in
// the module on first use, passes the running lane's context, and spills
// values to stack slots when the ABI takes them by address.
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_EMULATOR_EMULATORCALLS_H
#define HK_LIB_EMULATOR_EMULATORCALLS_H

#include "hk/Support/MLIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"

namespace hk::emulator {

/// Prefix of every error this conversion reports.
inline constexpr llvm::StringLiteral kPassName = "convert-lane-to-emulator";

/// The names of the Emulator.h entry points and their MLIR signatures.
class EmulatorCalls {
public:
  /// `func` is the host lane function; its first argument is the lane.
  EmulatorCalls(ModuleOp module, func::FuncOp func);

  Value lane() { return func.getArgument(0); }
  Type ptrType();

  /// Calls `name` (declared as `(lane, args...) -> results`), returning its
  /// results.
  ValueRange call(OpBuilder &b, Location loc, StringRef name, ValueRange args,
                  TypeRange results = {});

  /// A stack slot for values of `type` (a scalar or a 1-D vector), allocated
  /// once in the entry block per (type, role); `role` keeps apart slots that
  /// one call needs at the same time.
  struct Slot {
    Value memref; ///< memref<N x element>
    Value ptr;    ///< its address, !llvm.ptr
  };
  Slot slot(Type type, unsigned role);
  /// Stores `value` into a slot and returns its address.
  Value spill(OpBuilder &b, Location loc, Value value, unsigned role);
  /// Reads a value of `type` back from a slot.
  Value reload(OpBuilder &b, Location loc, const Slot &s, Type type);

  /// Constants.
  Value i32(OpBuilder &b, Location loc, int64_t v);
  Value indexToI32(OpBuilder &b, Location loc, Value index);
  Value i32ToIndex(OpBuilder &b, Location loc, Value v);
  /// An index (an address) as !llvm.ptr, and back.
  Value indexToPtr(OpBuilder &b, Location loc, Value index);

  /// A pointer to a constant NUL-terminated string in the module.
  Value string(OpBuilder &b, Location loc, StringRef text);
  /// `op` in fault reports, "file:line:col (op name)", as a constant string.
  Value site(OpBuilder &b, Location loc, Operation *op);

private:
  func::FuncOp declare(StringRef name, FunctionType type);
  ModuleOp module;
  func::FuncOp func;
  llvm::DenseMap<std::pair<Type, unsigned>, Slot> slots;
  unsigned strings = 0;
};

/// Bytes a value of `type` (a scalar or a 1-D vector) occupies in memory, or
/// 0 if its elements are not whole bytes.
int64_t storageBytes(Type type);

} // namespace hk::emulator

#endif // HK_LIB_EMULATOR_EMULATORCALLS_H
