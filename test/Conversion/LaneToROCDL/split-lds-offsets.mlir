// RUN: hk-opt --hk-split-lds-offsets %s | FileCheck %s

// The constant terms of an LDS address (through add, and mul and shl by
// constants) move into a GEP of their own, after a GEP by the other terms:
// (x + 512) * 2 + y + 8 -> GEP(GEP(p, x * 2 + y), 1032).
// CHECK-LABEL: llvm.func @split
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr<3>, %[[X:.*]]: i64, %[[Y:.*]]: i64)
// CHECK: %[[XS:.*]] = llvm.mul %[[X]], %{{.*}} : i64
// CHECK: %[[R:.*]] = llvm.add %[[XS]], %[[Y]] : i64
// CHECK: %[[IN:.*]] = llvm.getelementptr %[[P]][%[[R]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
// CHECK: %[[C:.*]] = llvm.mlir.constant(1032 : i64) : i64
// CHECK: %[[OUT:.*]] = llvm.getelementptr %[[IN]][%[[C]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
// CHECK: llvm.load %[[OUT]]
llvm.func @split(%p: !llvm.ptr<3>, %x: i64, %y: i64) -> vector<8xbf16> {
  %c512 = llvm.mlir.constant(512 : i64) : i64
  %c2 = llvm.mlir.constant(2 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i64) : i64
  %a = llvm.add %x, %c512 : i64
  %m = llvm.mul %a, %c2 : i64
  %s = llvm.add %m, %y : i64
  %i = llvm.add %s, %c8 : i64
  %g = llvm.getelementptr %p[%i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
  %v = llvm.load %g : !llvm.ptr<3> -> vector<8xbf16>
  llvm.return %v : vector<8xbf16>
}

// A shift by a constant scales the constant term: (x + 3) << 4 -> 48.
// CHECK-LABEL: llvm.func @shift
// CHECK: %[[IN:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK: %[[C:.*]] = llvm.mlir.constant(48 : i64) : i64
// CHECK: llvm.getelementptr %[[IN]][%[[C]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
llvm.func @shift(%p: !llvm.ptr<3>, %x: i64) -> f32 {
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %c4 = llvm.mlir.constant(4 : i64) : i64
  %a = llvm.add %c3, %x : i64
  %s = llvm.shl %a, %c4 : i64
  %g = llvm.getelementptr %p[%s] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %v = llvm.load %g : !llvm.ptr<3> -> f32
  llvm.return %v : f32
}

// Left alone: global memory, indices without a constant term, a constant
// index, GEPs with inbounds (whose inner GEP might not be in bounds), and
// terms under ops other than add, mul and shl.
// CHECK-LABEL: llvm.func @kept
// CHECK-COUNT-5: llvm.getelementptr
// CHECK-NOT: llvm.getelementptr
llvm.func @kept(%p: !llvm.ptr<3>, %q: !llvm.ptr<1>, %x: i64, %y: i64) {
  %c8 = llvm.mlir.constant(8 : i64) : i64
  %a = llvm.add %x, %c8 : i64
  %g1 = llvm.getelementptr %q[%a] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %b = llvm.add %x, %y : i64
  %g2 = llvm.getelementptr %p[%b] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %g3 = llvm.getelementptr %p[%c8] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %g4 = llvm.getelementptr inbounds %p[%a] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %o = llvm.xor %a, %y : i64
  %g5 = llvm.getelementptr %p[%o] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %z = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store %z, %g1 : f32, !llvm.ptr<1>
  llvm.store %z, %g2 : f32, !llvm.ptr<3>
  llvm.store %z, %g3 : f32, !llvm.ptr<3>
  llvm.store %z, %g4 : f32, !llvm.ptr<3>
  llvm.store %z, %g5 : f32, !llvm.ptr<3>
  llvm.return
}
