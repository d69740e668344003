// hk.load / hk.store between registers and shared tiles: each lane's runs
// of 8 bf16 move as one 16-byte access at the address SharedLayout.h gives.
// The lane is pinned to a constant (thread id replaced, then folded) so the
// indices can be checked against values worked out by hand:
//   A = 16x32 bf16, subtile 16x32 (64-byte rows, swizzle ((r>>1)^(r>>2))&3
//   chunks of 8 elements); B = 32x32 bf16, subtile 32x16 (32-byte rows,
//   swizzle ((r>>2)^(r>>3))&1). Indices are [subtile row, subtile col,
//   element inside the subtile].
// Register tile row 16x32: lane l holds row l%16 (+16 per base tile),
// columns 8*(l/16) .. +8.
//   lane 21: row 5, col 8.  A: f(5)=(2^1)&3=3, col 8^24=16 -> 5*32+16 = 176.
//            B: f(5)=1, col 8^8=0 -> 5*16 = 80; row 21: f=(5^2)&1=1 -> 336.
//   lane 40: row 8, col 16. A: f(8)=(4^2)&3=2, col 16^16=0 -> 256.
//            B: subtile col 1, col 0; f(8)=(2^1)&1=1 -> 8*16+8 = 136;
//            row 24: f=(6^3)&1=1 -> 24*16+8 = 392.
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | sed 's/gpu.thread_id  x/arith.constant 21 : index/' | hk-opt --canonicalize | FileCheck %s --check-prefix=L21
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | sed 's/gpu.thread_id  x/arith.constant 40 : index/' | hk-opt --canonicalize | FileCheck %s --check-prefix=L40
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | sed 's/gpu.thread_id  x/arith.constant 40 : index/' | hk-opt --canonicalize | FileCheck %s --check-prefix=L40
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s

// CHECK-LABEL: gpu.func @ld
// CHECK-NOT: hk.{{(load|store|alloc_shared)}}
// CHECK: vector.load {{.*}} vector<8xbf16>
// CHECK: gpu.return

// L21-DAG: %[[C0:.*]] = arith.constant 0 : index
// L21-DAG: %[[C176:.*]] = arith.constant 176 : index
// L21-DAG: %[[C80:.*]] = arith.constant 80 : index
// L21-DAG: %[[C336:.*]] = arith.constant 336 : index
// L21: %[[A:.*]] = vector.load %[[AS:.*]][%[[C0]], %[[C0]], %[[C176]]] : memref<1x1x512xbf16, {{.*}}#gpu.address_space<workgroup>>, vector<8xbf16>
// L21: %[[B0:.*]] = vector.load %[[BS:.*]][%[[C0]], %[[C0]], %[[C80]]] : memref<1x2x512xbf16, {{.*}}, vector<8xbf16>
// L21: %[[B1:.*]] = vector.load %[[BS]][%[[C0]], %[[C0]], %[[C336]]]
// L21: vector.store %[[B0]], %[[BS]][%[[C0]], %[[C0]], %[[C80]]]
// L21: vector.store %[[B1]], %[[BS]][%[[C0]], %[[C0]], %[[C336]]]
// L21: vector.store %[[A]], %[[AS]][%[[C0]], %[[C0]], %[[C176]]]

// L40-DAG: %[[C0:.*]] = arith.constant 0 : index
// L40-DAG: %[[C1:.*]] = arith.constant 1 : index
// L40-DAG: %[[C256:.*]] = arith.constant 256 : index
// L40-DAG: %[[C136:.*]] = arith.constant 136 : index
// L40-DAG: %[[C392:.*]] = arith.constant 392 : index
// L40: vector.load %{{.*}}[%[[C0]], %[[C0]], %[[C256]]] : memref<1x1x512xbf16, {{.*}}, vector<8xbf16>
// L40: vector.load %{{.*}}[%[[C0]], %[[C1]], %[[C136]]] : memref<1x2x512xbf16, {{.*}}, vector<8xbf16>
// L40: vector.load %{{.*}}[%[[C0]], %[[C1]], %[[C392]]]
hk.kernel @ld(%C: memref<?x?xbf16>) attributes {
    waves = 1 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 16)>} {
  %as = hk.alloc_shared : !hk.st<16x32xbf16, 16x32>
  %a = hk.load %as : !hk.st<16x32xbf16, 16x32> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %bs = hk.alloc_shared : !hk.st<32x32xbf16, 32x16>
  %b = hk.load %bs : !hk.st<32x32xbf16, 32x16> -> tensor<32x32xbf16, #hk.rt<row, 16x32>>
  hk.store %b, %bs : tensor<32x32xbf16, #hk.rt<row, 16x32>>, !hk.st<32x32xbf16, 32x16>
  hk.store %a, %as : tensor<16x32xbf16, #hk.rt<row, 16x32>>, !hk.st<16x32xbf16, 16x32>
  hk.return
}
