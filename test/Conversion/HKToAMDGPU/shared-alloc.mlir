// hk.alloc_shared: one workgroup-memory global per allocation, viewed as
// [subtile row, subtile col, element]; the kernel's LDS bytes on the
// gpu.func; hk.subtile as a subview over whole subtiles.
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 --split-input-file %s | FileCheck %s
// RUN: not hk-opt --convert-hk-to-amdgpu=chip=gfx942 --split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=GFX942

// CHECK-LABEL: gpu.module @two_module
// CHECK-DAG: memref.global "private" @two_lds0 : memref<16384xbf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-DAG: memref.global "private" @two_lds1 : memref<4096xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// 256x64 bf16 (32768 bytes) + 64x64 f32 (16384 bytes).
// CHECK: gpu.func @two{{.*}}hk.lds_bytes = 49152 : i64
// CHECK: %[[G:.*]] = memref.get_global @two_lds0
// A 256x64 tile of 16x32 subtiles: 16 x 2 subtiles of 512 elements, pitch 1024.
// CHECK: %[[C1024:.*]] = arith.constant 1024 : index
// CHECK: memref.reinterpret_cast %[[G]] to offset: [%{{.*}}], sizes: [16, 2, 512], strides: [%[[C1024]], 512, 1]{{.*}} to memref<16x2x512xbf16, strided<[?, 512, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: memref.get_global @two_lds1
// CHECK-SAME: memref<4096xf32
// hk.subtile [%i, 1] of 64x32 views: offsets [%i * 4, 1 * 1, 0].
// CHECK: %[[I4:.*]] = arith.muli %{{.*}}, %c4
// CHECK: memref.subview %{{.*}}[%[[I4]], %{{.*}}, 0] [4, 1, 512] [1, 1, 1] : memref<16x2x512xbf16, strided<[?, 512, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<4x1x512xbf16, strided<[?, 512, 1], offset: ?>, #gpu.address_space<workgroup>>
// The first kernel fits gfx942: the only errors are the second's.
// GFX942-NOT: error
hk.kernel @two(%i: index) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c1 = arith.constant 1 : index
  %a = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
  %b = hk.alloc_shared : !hk.st<64x64xf32, 16x16>
  %v = hk.subtile %a[%i, %c1] : !hk.st<256x64xbf16, 16x32> -> !hk.st<64x32xbf16, 16x32>
  hk.return
}

// -----

// 96 KiB fits the 160 KiB of gfx950, not the 64 KiB of gfx942.
// CHECK-LABEL: gpu.func @big
// CHECK-SAME: hk.lds_bytes = 98304 : i64
// GFX942: shared-alloc.mlir:[[@LINE+2]]:8: error: convert-hk-to-amdgpu: 'hk.alloc_shared' needs more LDS than the chip has: the kernel allocates 98304 bytes, the chip 65536 (chip gfx942)
hk.kernel @big() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  %b = hk.alloc_shared : !hk.st<128x128xbf16, 16x32>
  hk.return
}
