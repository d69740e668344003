// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s

// A broadcast's float add or sub allows contraction when its tile comes
// from arithmetic marked fastmath<contract>, so that LLVM may fuse
// `x * c - m` into an FMA (it fuses only when both ops allow it). Without
// the mark on the producer, the broadcast carries no flag.
// CHECK-LABEL: gpu.func @contract
// CHECK: %[[S:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<32xf32>
// CHECK: arith.subf %[[S]], %{{.*}} fastmath<contract> : vector<32xf32>
// CHECK: %[[T:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: arith.addf %[[T]], %{{.*}} : vector<32xf32>
// CHECK-NOT: fastmath
// CHECK: gpu.return
!t = tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>>
!v = tensor<32xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
hk.kernel @contract(%X: memref<?x?xf32>, %Vr: memref<?xf32>, %O: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c = arith.constant dense<0.5> : !t
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %m = hk.load %Vr[%c0] : memref<?xf32> -> !v
  %s = arith.mulf %x, %c fastmath<contract> : !t
  %d = hk.row_broadcast sub %s, %m : !t, !v
  %t = arith.mulf %d, %c : !t
  %e = hk.row_broadcast add %t, %m : !t, !v
  hk.store %e, %O[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}
