// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hkc %s --chip gfx950 --emit=llvm -o - | FileCheck %s --check-prefix=LLVM
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=ISA

// hk.any: a 32x32 col 16x16 tile is 16 registers per lane; the lane ORs
// its 16 mask elements in a tree of scalar ORs (15), one ballot collects
// the lanes and the vote is the ballot against 0. A row vector of that
// tile is 8 registers. `expect false` adds llvm.intr.expect.
// CHECK-LABEL: gpu.func @vote
// CHECK: %[[P:.*]] = arith.cmpf ogt, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-COUNT-16: vector.extract %[[P]][{{[0-9]+}}] : i1 from vector<16xi1>
// CHECK-COUNT-15: arith.ori %{{.*}}, %{{.*}} : i1
// CHECK-NOT: arith.ori
// CHECK: %[[B:.*]] = rocdl.ballot %{{.*}} : i64
// CHECK: %[[A:.*]] = arith.cmpi ne, %[[B]], %{{.*}} : i64
// CHECK-NOT: llvm.intr.expect
// CHECK: scf.if %[[A]]
// CHECK: %[[Q:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-COUNT-8: vector.extract %[[Q]][{{[0-9]+}}] : i1 from vector<8xi1>
// CHECK-COUNT-7: arith.ori %{{.*}}, %{{.*}} : i1
// CHECK-NOT: arith.ori
// CHECK: %[[B2:.*]] = rocdl.ballot %{{.*}} : i64
// CHECK: %[[A2:.*]] = arith.cmpi ne, %[[B2]], %{{.*}} : i64
// CHECK: %[[E:.*]] = llvm.intr.expect %[[A2]], %false : i1
// CHECK: scf.if %[[E]]
// CHECK-NOT: tensor<

// The expected vote weights both branches on it, each in its own block
// (apart: LLVM does not thread a branch through the barrier between them).
// hkc copies the expect per branch (lib/Target/AMDGPU/Optimize.cpp):
// LLVM's own lowering of llvm.expect weights only the branches of the
// expect's block. The vote without expect weights none.
// LLVM: call i64 @llvm.amdgcn.ballot.i64
// LLVM: br i1 %{{.*}}, label %{{.*}}, label %{{[0-9]+}}{{$}}
// LLVM: call i64 @llvm.amdgcn.ballot.i64
// LLVM: br i1 %[[NOT:.*]], label %{{.*}}, label %{{.*}}, !prof ![[W:[0-9]+]]
// LLVM: br i1 %[[NOT]], label %{{.*}}, label %{{.*}}, !prof ![[W]]
// LLVM: ![[W]] = !{!"branch_weights", !"expected", i32 2000, i32 1}
// The vote is a uniform branch: scc or vcc, no exec mask.
// ISA-LABEL: vote:
// ISA-NOT: s_and_saveexec
// ISA: s_cbranch_{{scc|vcc}}
// ISA: s_endpgm
!t = tensor<32x32xf32, #hk.rt<col, 16x16>>
!m = tensor<32x32xi1, #hk.rt<col, 16x16>>
!v = tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!vm = tensor<32xi1, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @vote(%X: memref<?x?xf32>, %Y: memref<?x?xf32>, %V: memref<?xf32>, %W: memref<?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %zero = arith.constant dense<0.0> : !t
  %p = arith.cmpf ogt, %x, %zero : !t
  %a = hk.any %p : !m
  scf.if %a {
    hk.store %x, %Y[%c0, %c0] : !t, memref<?x?xf32>
  }
  %r = hk.row_reduce sum %x : !t -> !v
  %vz = arith.constant dense<0.0> : !v
  %q = arith.cmpf olt, %r, %vz : !v
  %b = hk.any %q expect false : !vm
  scf.if %b {
    hk.store %r, %V[%c0] : !v, memref<?xf32>
  }
  hk.barrier
  scf.if %b {
    hk.store %r, %W[%c0] : !v, memref<?xf32>
  }
  hk.return
}
