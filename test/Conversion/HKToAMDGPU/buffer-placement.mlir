// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s

// Where a kernel argument's buffer is set up: at the kernel's start when
// its first access is inside a loop (A, read in the loop), and otherwise
// just before the op of the kernel's body that holds the first access (C,
// stored after the loop), so that C's sizes, strides and descriptor are not
// live across the loop.

// CHECK-LABEL: gpu.func @placement
// CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>, %[[C:.*]]: memref<?x?xbf16>, %{{.*}}: index)
// CHECK: memref.extract_strided_metadata %[[A]]
// CHECK: amdgpu.fat_raw_buffer_cast
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: scf.for
// CHECK: vector.load
// CHECK: scf.yield
// CHECK: memref.extract_strided_metadata %[[C]]
// CHECK: amdgpu.fat_raw_buffer_cast
// CHECK: vector.store
!rt = tensor<16x32xbf16, #hk.rt<row, 16x32>>
hk.kernel @placement(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>, %n: index)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : !rt
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> !rt {
    %a = hk.load %A[%c0, %k] : memref<?x?xbf16> -> !rt
    %b = arith.addf %acc, %a : !rt
    scf.yield %b : !rt
  }
  hk.store %s, %C[%c0, %c0] : !rt, memref<?x?xbf16>
  hk.return
}
