// Shared subtiles of at least 32 rows of one 16-byte chunk place row r at
// r ^ ((r >> 1) & 12) (SharedLayout.h). The lane is pinned to a constant
// (thread id replaced, then folded) so the indices can be checked against
// values worked out by hand. Indices are [subtile row, subtile col, element
// inside the subtile].
// @rw: a 64x32 fp8 tile in 32x16 subtiles, read and written as 32x32 row
// base tiles: lane l holds row l%32 (+32 for the second base tile, one
// subtile down), bytes 16*(l/32) .. +16 (subtile column l/32).
//   lane 21: row 21 = 0b10101 -> 21 ^ (10 & 12) = 29: element 29*16 = 464.
//   lane 40: row 8 -> 8 ^ (4 & 12) = 12: 192, subtile column 1.
//   lane 16: row 16 -> 16 ^ (8 & 12) = 24: 384.
// @dma: hk.load_async of a 64x16 fp8 tile (one subtile of 1024 bytes) on
// gfx950, 16 bytes per lane: lane l writes physical row l and reads the
// global row placed there (placedRow's inverse):
//   lane 21: physical row 21 holds row 25 (25 ^ (12 & 12) = 21), read at
//   global offset 25*16 (plus the wave's share, the rows of instruction
//   readfirstlane(wave) * 64);
//   lane 48: physical row 48 holds row 60 (60 ^ (30 & 12) = 48).
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | sed 's/gpu.thread_id  x/arith.constant 21 : index/' | hk-opt --canonicalize | FileCheck %s --check-prefix=L21
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | sed 's/gpu.thread_id  x/arith.constant 40 : index/' | hk-opt --canonicalize | FileCheck %s --check-prefix=L40
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | sed 's/gpu.thread_id  x/arith.constant 16 : index/' | hk-opt --canonicalize | FileCheck %s --check-prefix=L16
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | sed 's/gpu.thread_id  x/arith.constant 48 : index/' | hk-opt --canonicalize | FileCheck %s --check-prefix=L48

// L21-LABEL: gpu.func @rw
// L21-DAG: %[[C0:.*]] = arith.constant 0 : index
// L21-DAG: %[[C1:.*]] = arith.constant 1 : index
// L21-DAG: %[[C464:.*]] = arith.constant 464 : index
// L21: %[[A:.*]] = vector.load %[[S:.*]][%[[C0]], %[[C0]], %[[C464]]] : memref<2x2x512xf8E4M3FN, {{.*}}#gpu.address_space<workgroup>>, vector<16xf8E4M3FN>
// L21: %[[B:.*]] = vector.load %[[S]][%[[C1]], %[[C0]], %[[C464]]]
// L21: vector.store %{{.*}}, %[[S]][%[[C0]], %[[C0]], %[[C464]]]
// L21: vector.store %{{.*}}, %[[S]][%[[C1]], %[[C0]], %[[C464]]]
// L21-LABEL: gpu.func @dma
// L21: %[[R:.*]] = arith.addi %{{.*}}, %c25 : index
// L21: arith.muli %[[R]], %c16 : index
// L21: amdgpu.gather_to_lds {{.*}} : vector<16xf8E4M3FN>

// L40-LABEL: gpu.func @rw
// L40-DAG: %[[C0:.*]] = arith.constant 0 : index
// L40-DAG: %[[C1:.*]] = arith.constant 1 : index
// L40-DAG: %[[C192:.*]] = arith.constant 192 : index
// L40: vector.load %{{.*}}[%[[C0]], %[[C1]], %[[C192]]] : memref<2x2x512xf8E4M3FN, {{.*}}, vector<16xf8E4M3FN>
// L40: vector.load %{{.*}}[%[[C1]], %[[C1]], %[[C192]]]

// L16-LABEL: gpu.func @rw
// L16-DAG: %[[C0:.*]] = arith.constant 0 : index
// L16-DAG: %[[C384:.*]] = arith.constant 384 : index
// L16: vector.load %{{.*}}[%[[C0]], %[[C0]], %[[C384]]] : memref<2x2x512xf8E4M3FN, {{.*}}, vector<16xf8E4M3FN>

// L48-LABEL: gpu.func @dma
// L48: %[[R:.*]] = arith.addi %{{.*}}, %c60 : index
// L48: arith.muli %[[R]], %c16 : index
// L48: amdgpu.gather_to_lds {{.*}} : vector<16xf8E4M3FN>
hk.kernel @rw(%C: memref<?x?xbf16>) attributes {
    waves = 1 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 16)>} {
  %s = hk.alloc_shared : !hk.st<64x32xf8E4M3FN, 32x16>
  %a = hk.load %s : !hk.st<64x32xf8E4M3FN, 32x16> -> tensor<64x32xf8E4M3FN, #hk.rt<row, 32x32>>
  hk.store %a, %s : tensor<64x32xf8E4M3FN, #hk.rt<row, 32x32>>, !hk.st<64x32xf8E4M3FN, 32x16>
  hk.return
}

hk.kernel @dma(%A: memref<64x16xf8E4M3FN>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x16xf8E4M3FN, 64x16>
  %t = hk.load_async %A[%c0, %c0], %s : memref<64x16xf8E4M3FN>, !hk.st<64x16xf8E4M3FN, 64x16>
  hk.wait %t
  hk.return
}
