// hk.load_async: the waves split the tile's LDS DMA instructions; the
// width per lane comes from the chip (gfx950 16 bytes, gfx942 4 bytes), the
// LDS write is linear per lane and the global read carries the swizzle.
// hk.wait waits for every outstanding load and LDS access. hk.store of a
// shared tile reads LDS linearly and writes each piece where it belongs.
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s --check-prefixes=CHECK,GFX942

// CHECK-LABEL: gpu.func @copy
// 64x64 bf16 = 8192 bytes. gfx950: 8 instructions of 1024 bytes, 2 per
// wave of 4; gfx942: 32 of 256 bytes, 8 per wave.
// CHECK: rocdl.readfirstlane
// GFX950: %[[TRIPS:.*]] = arith.constant 2 : index
// GFX942: %[[TRIPS:.*]] = arith.constant 8 : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[TRIPS]]
// Swizzle of a 16x32 bf16 subtile: ((r >> 1) ^ (r >> 2)) & 3, 8 elements.
// CHECK: arith.shrui %{{.*}}, %c1
// CHECK: arith.shrui %{{.*}}, %c2
// CHECK: arith.xori
// CHECK: arith.andi %{{.*}}, %c3
// CHECK: arith.muli %{{.*}}, %c8
// A piece crossing the memref's right edge goes through registers.
// CHECK: scf.if
// CHECK: memref.load {{.*}}fat_raw_buffer
// CHECK: vector.store {{.*}}#gpu.address_space<workgroup>>
// CHECK: } else {
// GFX950: amdgpu.gather_to_lds %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : vector<8xbf16>, memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4x2x512xbf16
// GFX942: amdgpu.gather_to_lds %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : vector<2xbf16>, memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4x2x512xbf16
// CHECK: amdgpu.memory_counter_wait load(0) ds(0)
// CHECK: amdgpu.lds_barrier
// waves = 2 of 4: the other two skip the copy; 8 / 2 = 4 trips (gfx950).
// CHECK: %[[MINE:.*]] = arith.cmpi ult, %{{.*}}, %c2
// CHECK: scf.if %[[MINE]]
// GFX950: scf.for {{.*}} to %c4
// GFX942: scf.for {{.*}} to %c16
// CHECK: amdgpu.gather_to_lds
// The store to global: 8 pieces of 16 bytes per lane on both chips.
// CHECK: scf.for {{.*}} to %c8
// CHECK: vector.load %{{.*}} : memref<4x2x512xbf16, {{.*}}, vector<8xbf16>
// CHECK: scf.if
// CHECK: vector.store {{.*}}fat_raw_buffer{{.*}}vector<8xbf16>
// CHECK: } else {
// CHECK-COUNT-8: memref.store
// CHECK-NOT: hk.{{(load_async|wait|store)}}
hk.kernel @copy(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %bx = hk.block_id x
  %as = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %t = hk.load_async %A[%bx, %c0], %as : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.wait %t
  hk.barrier
  %t2 = hk.load_async %A[%bx, %c0], %as waves = 2 : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.wait %t2
  hk.barrier
  hk.store %as, %C[%bx, %c0] : !hk.st<64x64xbf16, 16x32>, memref<?x?xbf16>
  hk.return
}
