// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s

// Elementwise ops keep the layout, so each lane applies them to its own
// registers: the same op on vector<regsPerLane x T>. A 32x64 col 16x16 tile
// is 2 x 4 base tiles of 4 registers: vector<32xf32>. Loops carry tiles as
// vectors.
// CHECK-LABEL: gpu.func @softmaxish
// CHECK-DAG: %[[NEG:.*]] = arith.constant dense<0xFF800000> : vector<32xf32>
// CHECK-DAG: %[[HALF:.*]] = arith.constant dense<5.000000e-01> : vector<32xf32>
// CHECK: %[[X:.*]] = arith.select %{{.*}} : vector<32xf32>
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[NEG]]) -> (vector<32xf32>) {
// CHECK:   %[[M:.*]] = arith.maximumf %[[ACC]], %[[X]] : vector<32xf32>
// CHECK:   %[[S:.*]] = arith.mulf %[[M]], %[[HALF]] fastmath<fast> : vector<32xf32>
// math.exp2 is v_exp_f32, one register at a time.
// CHECK-COUNT-32: rocdl.exp2 %{{.*}} f32 -> f32
// CHECK:   %[[E:.*]] = vector.from_elements %{{.*}} : vector<32xf32>
// CHECK:   scf.yield %[[E]] : vector<32xf32>
// CHECK: }
// CHECK: %[[T:.*]] = arith.truncf %[[R]] : vector<32xf32> to vector<32xbf16>
// CHECK: vector.extract %[[T]][0] : bf16 from vector<32xbf16>
// CHECK-NOT: tensor<
hk.kernel @softmaxish(%O: memref<?x?xbf16>, %n: index, %p: i1) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %neginf = arith.constant dense<0xFF800000> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %half = arith.constant dense<0.5> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %x = arith.select %p, %half, %neginf : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %neginf) -> (tensor<32x64xf32, #hk.rt<col, 16x16>>) {
    %m = arith.maximumf %acc, %x : tensor<32x64xf32, #hk.rt<col, 16x16>>
    %s = arith.mulf %m, %half fastmath<fast> : tensor<32x64xf32, #hk.rt<col, 16x16>>
    %e = math.exp2 %s : tensor<32x64xf32, #hk.rt<col, 16x16>>
    scf.yield %e : tensor<32x64xf32, #hk.rt<col, 16x16>>
  }
  %t = arith.truncf %r : tensor<32x64xf32, #hk.rt<col, 16x16>> to tensor<32x64xbf16, #hk.rt<col, 16x16>>
  hk.store %t, %O[%c0, %c0] : tensor<32x64xbf16, #hk.rt<col, 16x16>>, memref<?x?xbf16>
  hk.return
}
