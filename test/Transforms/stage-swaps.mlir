// RUN: hk-opt %s --hk-stage-swaps=chip=gfx950 --split-input-file | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt %s --hk-stage-swaps=chip=gfx942 --split-input-file | FileCheck %s --check-prefix=GFX942

// A 64x32 bf16 swap from the accumulator layout to the A-operand layout, in
// a 4-wave kernel that already holds 64 KiB of shared tiles: staged through
// 4 x 64x32 bf16 = 16 KiB more on gfx950 (80 KiB of 160 KiB), where wave w
// uses rows [64w, 64w + 64); left to ds_bpermute on gfx942 (80 KiB would be
// over its 64 KiB).

!acc = tensor<64x32xbf16, #hk.rt<col, 16x16>>
!arow = tensor<64x32xbf16, #hk.rt<row, 16x32>>

// GFX950-LABEL: hk.kernel @swap
// GFX950: %[[ALL:.*]] = hk.alloc_shared : !hk.st<256x32xbf16, 16x32>
// GFX950: hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
// GFX950: %[[W:.*]] = hk.wave_id
// GFX950: %[[C0:.*]] = arith.constant 0 : index
// GFX950: %[[MINE:.*]] = hk.subtile %[[ALL]][%[[W]], %[[C0]]] : !hk.st<256x32xbf16, 16x32> -> !hk.st<64x32xbf16, 16x32>
// GFX950: hk.store %[[SRC:.*]], %[[MINE]] : tensor<64x32xbf16, #hk.rt<col, 16x16>>, !hk.st<64x32xbf16, 16x32>
// GFX950: %[[R:.*]] = hk.load %[[MINE]] : !hk.st<64x32xbf16, 16x32> -> tensor<64x32xbf16, #hk.rt<row, 16x32>>
// GFX950-NOT: hk.swap_layout
// GFX950: hk.store %[[R]]
// GFX942-LABEL: hk.kernel @swap
// GFX942-NOT: hk.alloc_shared : !hk.st<256x32xbf16
// GFX942: hk.swap_layout
hk.kernel @swap(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %big = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> !acc
  %b = hk.swap_layout %a : !acc -> !arow
  hk.store %b, %B[%c0, %c0] : !arow, memref<?x?xbf16>
  hk.return
}

// -----

// Left alone on both chips: f32 tiles (32-bit elements move as whole
// dwords; the rule is for 16-bit ones).

!acc = tensor<32x32xf32, #hk.rt<col, 16x16>>
!arow = tensor<32x32xf32, #hk.rt<row, 16x16>>

// GFX950-LABEL: hk.kernel @wide
// GFX950-NOT: hk.alloc_shared
// GFX950: hk.swap_layout
// GFX942-LABEL: hk.kernel @wide
// GFX942: hk.swap_layout
hk.kernel @wide(%A: memref<?x?xf32>, %B: memref<?x?xf32>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf32> -> !acc
  %b = hk.swap_layout %a : !acc -> !arow
  hk.store %b, %B[%c0, %c0] : !arow, memref<?x?xf32>
  hk.return
}
