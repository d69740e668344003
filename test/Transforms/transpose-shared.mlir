// RUN: hk-opt %s --hk-transpose-shared=chip=gfx942 --split-input-file | FileCheck %s
// RUN: hk-opt %s --hk-transpose-shared=chip=gfx950 --split-input-file | FileCheck %s --check-prefix=GFX950

// A 64x64 bf16 tile copied by 8 waves and read in the 32x32 col layout
// (attention's V): on gfx942 that read is 64 one-element LDS accesses per
// lane, from the transposed tile 16 runs of 4. Each wave's share is a
// 16x32 piece (64 * 64 / 8 = 1024 elements, 16 rows): two per row of
// pieces, so wave w takes rows 16 (w / 2), columns 32 (w % 2), i.e. row tile
// 4 i + w / 2 and column tile 2 j + w % 2 of the memref in units of 16x32,
// and stores it, transposed, at [w % 2, w / 2] in units of 32x16 of the
// transposed tile, when the copy is waited for.

!st = !hk.st<64x64xbf16, 16x32>
!v = tensor<64x64xbf16, #hk.rt<col, 32x32, group = 4>>

// CHECK-LABEL: hk.kernel @v_tile
// CHECK: %[[W:.*]] = hk.wave_id
// CHECK: %[[PR:.*]] = arith.divui %[[W]], %[[C2:.*]] : index
// CHECK: %[[PC:.*]] = arith.remui %[[W]], %[[C2]] : index
// CHECK: %[[ALLOC:.*]] = hk.alloc_shared : !hk.st<64x64xbf16, 32x16>
// CHECK-NOT: hk.load_async %V
// CHECK: %[[RI:.*]] = arith.muli %{{.*}}, %c4
// CHECK: %[[R:.*]] = arith.addi %[[RI]], %[[PR]]
// CHECK: %[[CI:.*]] = arith.muli %{{.*}}, %c2
// CHECK: %[[C:.*]] = arith.addi %[[CI]], %[[PC]]
// CHECK: %[[PIECE:.*]] = hk.load %{{.*}}[%[[R]], %[[C]]] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
// CHECK: %[[PT:.*]] = hk.transpose %[[PIECE]] : tensor<16x32xbf16, #hk.rt<row, 16x32>> -> tensor<32x16xbf16, #hk.rt<col, 32x16>>
// CHECK: hk.wait %[[OTHER:.*]]
// CHECK-NOT: hk.wait
// CHECK: %[[MINE:.*]] = hk.subtile %[[ALLOC]][%[[PC]], %[[PR]]] : !hk.st<64x64xbf16, 32x16> -> !hk.st<32x16xbf16, 32x16>
// CHECK: hk.store %[[PT]], %[[MINE]] : tensor<32x16xbf16, #hk.rt<col, 32x16>>, !hk.st<32x16xbf16, 32x16>
// CHECK: hk.wait %[[OTHER]]
// CHECK: hk.barrier
// CHECK: %[[ROWS:.*]] = hk.load %[[ALLOC]] : !hk.st<64x64xbf16, 32x16> -> tensor<64x64xbf16, #hk.rt<row, 32x32, group = 4>>
// CHECK: hk.transpose %[[ROWS]] : tensor<64x64xbf16, #hk.rt<row, 32x32, group = 4>> -> tensor<64x64xbf16, #hk.rt<col, 32x32, group = 4>>
// GFX950-LABEL: hk.kernel @v_tile
// GFX950: hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
// GFX950: hk.load_async
// GFX950-NOT: hk.transpose
hk.kernel @v_tile(%V: memref<?x?xbf16>, %K: memref<?x?xbf16>, %i: index,
                  %j: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %vs = hk.alloc_shared : !st
  %ks = hk.alloc_shared : !st
  %tk = hk.load_async %K[%i, %j], %ks : memref<?x?xbf16>, !st
  %tv = hk.load_async %V[%i, %j], %vs : memref<?x?xbf16>, !st
  hk.wait %tk
  hk.wait %tv, %tk
  hk.barrier
  %v = hk.load %vs : !st -> !v
  %k = hk.load %ks : !st -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
  hk.store %v, %V[%i, %j] : !v, memref<?x?xbf16>
  hk.store %k, %K[%i, %j] : tensor<64x64xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  hk.return
}

// -----

// Views: a two-stage tile, each stage read in halves along the columns.
// The views of the transposed tile swap their indices: stage s, half h
// ([s, 0] then [0, h] of 64x32) become [0, s] and [h, 0] of 32x64.

!st2 = !hk.st<128x64xbf16, 16x32>
!st1 = !hk.st<64x64xbf16, 16x32>
!sth = !hk.st<64x32xbf16, 16x32>
!vh = tensor<64x32xbf16, #hk.rt<col, 32x32, group = 4>>

// CHECK-LABEL: hk.kernel @views
// CHECK: %[[ALLOC:.*]] = hk.alloc_shared : !hk.st<64x128xbf16, 32x16>
// CHECK: %[[STAGE:.*]] = hk.subtile %[[ALLOC]][%c0, %[[S:.*]]] : !hk.st<64x128xbf16, 32x16> -> !hk.st<64x64xbf16, 32x16>
// CHECK: %[[HALF:.*]] = hk.subtile %[[STAGE]][%c1, %c0] : !hk.st<64x64xbf16, 32x16> -> !hk.st<32x64xbf16, 32x16>
// CHECK: hk.load %[[HALF]] : !hk.st<32x64xbf16, 32x16> -> tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>
hk.kernel @views(%V: memref<?x?xbf16>, %s: index, %j: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %vs = hk.alloc_shared : !st2
  %stage = hk.subtile %vs[%s, %c0] : !st2 -> !st1
  %t = hk.load_async %V[%j, %c0], %stage : memref<?x?xbf16>, !st1
  hk.wait %t
  hk.barrier
  %half = hk.subtile %stage[%c0, %c1] : !st1 -> !sth
  %v = hk.load %half : !sth -> !vh
  hk.store %v, %V[%j, %c1] : !vh, memref<?x?xbf16>
  hk.return
}

// -----

// Left alone: a token waited for in a later iteration (the registers would
// cross the loop), a tile also read in a row layout, and 32-bit elements.

!st = !hk.st<64x64xbf16, 16x32>
!v = tensor<64x64xbf16, #hk.rt<col, 32x32, group = 4>>
!stf = !hk.st<64x64xf32, 16x16>
!vf = tensor<64x64xf32, #hk.rt<col, 32x32, group = 4>>

// CHECK-LABEL: hk.kernel @left_alone
// CHECK-NOT: hk.transpose
// CHECK: hk.return
hk.kernel @left_alone(%V: memref<?x?xbf16>, %F: memref<?x?xf32>, %n: index)
    attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = hk.alloc_shared : !st
  %t0 = hk.load_async %V[%c0, %c0], %a : memref<?x?xbf16>, !st
  %last = scf.for %j = %c0 to %n step %c1 iter_args(%t = %t0) -> !hk.token {
    hk.wait %t
    hk.barrier
    %v = hk.load %a : !st -> !v
    hk.store %v, %V[%j, %c1] : !v, memref<?x?xbf16>
    hk.barrier
    %tn = hk.load_async %V[%j, %c0], %a : memref<?x?xbf16>, !st
    scf.yield %tn : !hk.token
  }
  hk.wait %last
  %b = hk.alloc_shared : !st
  %tb = hk.load_async %V[%c1, %c0], %b : memref<?x?xbf16>, !st
  hk.wait %tb
  hk.barrier
  %bc = hk.load %b : !st -> !v
  %br = hk.load %b : !st -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
  hk.store %bc, %V[%c1, %c1] : !v, memref<?x?xbf16>
  hk.store %br, %V[%c1, %c0] : tensor<64x64xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  %f = hk.alloc_shared : !stf
  %tf = hk.load_async %F[%c0, %c0], %f : memref<?x?xf32>, !stf
  hk.wait %tf
  hk.barrier
  %fc = hk.load %f : !stf -> !vf
  hk.store %fc, %F[%c0, %c1] : !vf, memref<?x?xf32>
  hk.return
}
