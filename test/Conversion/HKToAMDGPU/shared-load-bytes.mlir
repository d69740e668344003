// hk.load reads a shared tile of bytes (i8) as the register tile's 8- or
// 4-bit floats: MX data staged in LDS as it is passed. The lowering moves
// the bytes under the tile's lane map with its columns divided by the
// packing (two E2M1 elements per byte) and bitcasts them.
// A 16x128 E2M1 tile (row 16x128, group 32) is 16x64 bytes: lane l holds
// row l % 16, bytes 16 (l / 16) .. + 15, one 16-byte run. In a 16x64-byte
// subtile (64-byte rows, swizzle ((r >> 1) ^ (r >> 2)) & 3 chunks):
//   lane 21: row 5, chunk 1; swizzle 3 -> chunk 2: 5 * 64 + 32 = 352.
//   lane 40: row 8, chunk 2; swizzle 2 -> chunk 0: 8 * 64 = 512.
// A 16x128 E4M3 tile (group 16) keeps a byte per element: two 16-byte runs
// per lane, at bytes 16 (l / 16) and 64 + 16 (l / 16) of its row.
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | sed 's/gpu.thread_id  x/arith.constant 21 : index/' | hk-opt --canonicalize | FileCheck %s --check-prefix=L21
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | sed 's/gpu.thread_id  x/arith.constant 40 : index/' | hk-opt --canonicalize | FileCheck %s --check-prefix=L40
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=ISA

// CHECK-LABEL: gpu.func @staged
// CHECK-NOT: hk.load
// CHECK: vector.load {{.*}}#gpu.address_space<workgroup>>, vector<16xi8>
// CHECK: vector.bitcast {{.*}} : vector<16xi8> to vector<32xf4E2M1FN>
// CHECK-COUNT-2: vector.load {{.*}}#gpu.address_space<workgroup>>, vector<16xi8>
// CHECK: vector.bitcast {{.*}} : vector<32xi8> to vector<32xf8E4M3FN>
// CHECK: amdgpu.scaled_mfma 16x16x128

// L21-DAG: %[[C0:.*]] = arith.constant 0 : index
// L21-DAG: %[[C352:.*]] = arith.constant 352 : index
// L21: vector.load %{{.*}}[%[[C0]], %[[C0]], %[[C352]]] : memref<1x1x1024xi8, {{.*}}#gpu.address_space<workgroup>>, vector<16xi8>

// L40-DAG: %[[C0:.*]] = arith.constant 0 : index
// L40-DAG: %[[C512:.*]] = arith.constant 512 : index
// L40: vector.load %{{.*}}[%[[C0]], %[[C0]], %[[C512]]] : memref<1x1x1024xi8, {{.*}}#gpu.address_space<workgroup>>, vector<16xi8>

// ISA-LABEL: staged:
// ISA-COUNT-3: ds_read_b128
// ISA: v_mfma_scale_f32_16x16x128_f8f6f4
!a4 = tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>
!b8 = tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>
!s = tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>
!acc = tensor<16x16xf32, #hk.rt<col, 16x16>>
hk.kernel @staged(%A: memref<?x?xi8>, %B: memref<?x?xi8>, %C: memref<?x?xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %as = hk.alloc_shared : !hk.st<16x64xi8, 16x64>
  %bs = hk.alloc_shared : !hk.st<16x128xi8, 16x64>
  %ga = hk.load %A[%c0, %c0] : memref<?x?xi8> -> tensor<16x64xi8, #hk.rt<row, 16x16>>
  %gb = hk.load %B[%c0, %c0] : memref<?x?xi8> -> tensor<16x128xi8, #hk.rt<row, 16x32>>
  hk.store %ga, %as : tensor<16x64xi8, #hk.rt<row, 16x16>>, !hk.st<16x64xi8, 16x64>
  hk.store %gb, %bs : tensor<16x128xi8, #hk.rt<row, 16x32>>, !hk.st<16x128xi8, 16x64>
  hk.barrier
  %a = hk.load %as : !hk.st<16x64xi8, 16x64> -> !a4
  %b = hk.load %bs : !hk.st<16x128xi8, 16x64> -> !b8
  %one = arith.constant dense<1.0> : !s
  %z = arith.constant dense<0.0> : !acc
  %d = hk.mma_scaled %a[%one], %b[%one], %z : !a4, !s, !b8, !s, !acc
  hk.store %d, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}
