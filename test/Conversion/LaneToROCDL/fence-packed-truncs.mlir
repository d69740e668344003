// RUN: hk-opt --hk-fence-packed-truncs %s | FileCheck %s

// A vector rounded to bf16 goes through llvm.arithmetic.fence, and every
// user (an extract for a 16-bit store, a shuffle for an MFMA operand) reads
// the fence.
// CHECK-LABEL: llvm.func @fenced
// CHECK-SAME: (%[[X:.*]]: vector<32xf32>, %[[P:.*]]: !llvm.ptr<3>)
// CHECK: %[[T:.*]] = llvm.fptrunc %[[X]] : vector<32xf32> to vector<32xbf16>
// CHECK-NEXT: %[[F:.*]] = llvm.call_intrinsic "llvm.arithmetic.fence"(%[[T]]) : (vector<32xbf16>) -> vector<32xbf16>
// CHECK: %[[E:.*]] = llvm.extractelement %[[F]][%{{.*}} : i32] : vector<32xbf16>
// CHECK: llvm.store %[[E]], %[[P]]
// CHECK: %[[S:.*]] = llvm.shufflevector %[[F]], %[[F]] [0, 1, 2, 3]
// CHECK: llvm.return %[[S]]
llvm.func @fenced(%x: vector<32xf32>, %p: !llvm.ptr<3>) -> vector<4xbf16> {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %t = llvm.fptrunc %x : vector<32xf32> to vector<32xbf16>
  %e = llvm.extractelement %t[%c1 : i32] : vector<32xbf16>
  llvm.store %e, %p : bf16, !llvm.ptr<3>
  %s = llvm.shufflevector %t, %t [0, 1, 2, 3] : vector<32xbf16>
  llvm.return %s : vector<4xbf16>
}

// f16 too; a pair (one register already), a scalar, a rounding to f32 and
// a result with no users are left alone.
// CHECK-LABEL: llvm.func @which
// CHECK: %[[H:.*]] = llvm.fptrunc %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK-NEXT: llvm.call_intrinsic "llvm.arithmetic.fence"(%[[H]])
// CHECK-NOT: llvm.call_intrinsic
// CHECK: llvm.return
llvm.func @which(%a: vector<8xf32>, %b: vector<2xf32>, %c: f32, %d: vector<4xf64>) -> !llvm.struct<(vector<8xf16>, vector<2xbf16>, bf16, vector<4xf32>)> {
  %h = llvm.fptrunc %a : vector<8xf32> to vector<8xf16>
  %pair = llvm.fptrunc %b : vector<2xf32> to vector<2xbf16>
  %one = llvm.fptrunc %c : f32 to bf16
  %f32 = llvm.fptrunc %d : vector<4xf64> to vector<4xf32>
  %unused = llvm.fptrunc %a : vector<8xf32> to vector<8xbf16>
  %u = llvm.mlir.undef : !llvm.struct<(vector<8xf16>, vector<2xbf16>, bf16, vector<4xf32>)>
  %r0 = llvm.insertvalue %h, %u[0] : !llvm.struct<(vector<8xf16>, vector<2xbf16>, bf16, vector<4xf32>)>
  %r1 = llvm.insertvalue %pair, %r0[1] : !llvm.struct<(vector<8xf16>, vector<2xbf16>, bf16, vector<4xf32>)>
  %r2 = llvm.insertvalue %one, %r1[2] : !llvm.struct<(vector<8xf16>, vector<2xbf16>, bf16, vector<4xf32>)>
  %r3 = llvm.insertvalue %f32, %r2[3] : !llvm.struct<(vector<8xf16>, vector<2xbf16>, bf16, vector<4xf32>)>
  llvm.return %r3 : !llvm.struct<(vector<8xf16>, vector<2xbf16>, bf16, vector<4xf32>)>
}
