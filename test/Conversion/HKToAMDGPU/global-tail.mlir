// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 --split-input-file %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 --split-input-file %s | FileCheck %s

// Buffer loads of several dwords are range checked per dword, so a buffer
// ending at a memref's last element would read that element as 0 whenever
// the dword holding it also holds bytes past it. A run may start at any
// element (odd row lengths), so that dword can extend 4 - (element bytes)
// bytes past the end: the buffer's range (the flat view's size) is the
// memref's span plus 1 element for 2-byte types, 3 for 1-byte types, none
// for 4-byte ones. The same value is the offset given to out-of-range
// positions, so those are past the range too: loads there read 0, stores
// are dropped, and the padding bytes are never written.

// bf16: span + 1. Load, store and the per-element edge stores all use it.
// CHECK-LABEL: gpu.func @tail_bf16
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK: %[[SPAN:.*]] = arith.select
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[EXT:.*]] = arith.addi %[[SPAN]], %[[C1]] : index
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[EXT]]], strides: [1]
// CHECK: %[[BUF:.*]] = amdgpu.fat_raw_buffer_cast %[[FLAT]] resetOffset
// CHECK: %[[LOFF:.*]] = arith.select %{{.*}}, %{{.*}}, %[[EXT]] : index
// CHECK: vector.load %[[BUF]][%[[LOFF]]] : {{.*}}, vector<8xbf16>
// CHECK: %[[SOFF:.*]] = arith.select %{{.*}}, %{{.*}}, %[[EXT]] : index
// CHECK: vector.store %{{.*}}, %[[BUF]][%[[SOFF]]] : {{.*}}, vector<8xbf16>
// CHECK: scf.if
// CHECK-COUNT-8: arith.select %{{.*}}, %{{.*}}, %[[EXT]] : index
// CHECK: gpu.return
hk.kernel @tail_bf16(%A: memref<?x?xbf16>, %i: index) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%i, %c0] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  hk.store %a, %A[%i, %c0] : tensor<16x32xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  hk.return
}

// -----

// fp8: span + 3.
// CHECK-LABEL: gpu.func @tail_f8
// CHECK: %[[SPAN:.*]] = arith.select
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[EXT:.*]] = arith.addi %[[SPAN]], %[[C3]] : index
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%[[EXT]]], strides: [1]
// CHECK: %[[BUF:.*]] = amdgpu.fat_raw_buffer_cast
// CHECK: %[[LOFF:.*]] = arith.select %{{.*}}, %{{.*}}, %[[EXT]] : index
// CHECK: vector.load %[[BUF]][%[[LOFF]]] : {{.*}}, vector<8xf8E4M3FN>
hk.kernel @tail_f8(%A: memref<?x?xf8E4M3FN>, %i: index) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%i, %c0] : memref<?x?xf8E4M3FN> -> tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>
  hk.store %a, %A[%i, %c0] : tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>, memref<?x?xf8E4M3FN>
  hk.return
}

// -----

// f32: every access starts on a dword of the buffer, nothing to extend.
// CHECK-LABEL: gpu.func @tail_f32
// CHECK: %[[EXT:.*]] = arith.select
// CHECK-NOT: arith.addi
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%[[EXT]]], strides: [1]
// CHECK: amdgpu.fat_raw_buffer_cast
hk.kernel @tail_f32(%A: memref<?x?xf32>, %i: index) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%i, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.store %a, %A[%i, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}
