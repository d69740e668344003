// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s --check-prefixes=CHECK,GFX942

// An hk.load_async marked hk.cols_in_bounds (hk-peel-bounds: every column of
// the tile is in range) issues its LDS DMA with no branch to the staged,
// element-by-element copy of a piece crossing the right edge: each lane
// checks the leading dimensions only (rows past the end still read zeros
// through the extent), so the last dimension's size is never compared.
// Its instructions split by wave (instruction k * 4 + w of wave w lands
// whole subtiles away from instruction w), so the wave id is read once, at
// the kernel's start, and each instruction compares its row, the origin
// plus the lane's row in instruction w plus 16 per subtile row, with the
// row count, and takes the extent as offset when the row is past it.

// CHECK-LABEL: gpu.func @marked
// CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>
// CHECK: %[[WAVE32:.*]] = rocdl.readfirstlane
// CHECK: %[[WAVE:.*]] = arith.index_castui %[[WAVE32]] : i32 to index
// CHECK: %{{.*}}, %{{.*}}, %[[SZ:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[A]]
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%[[EXT:.*]]], strides: [1]
// CHECK: %[[ORIGIN:.*]] = arith.muli %{{.*}}, %c64{{.*}} : index
// CHECK: %[[SUB:.*]] = arith.divui %[[WAVE]], %{{.*}} : index
// CHECK: %[[SI:.*]] = arith.divui %[[SUB]], %c2{{.*}} : index
// CHECK: %[[SIR:.*]] = arith.muli %[[SI]], %c16{{.*}} : index
// CHECK: %[[LROW:.*]] = arith.addi %[[SIR]], %{{.*}} : index
// CHECK: scf.for
// CHECK-NOT: rocdl.readfirstlane
// CHECK-NOT: scf.if
// CHECK-NOT: memref.load
// CHECK-NOT: arith.cmpi ult, %{{.*}}, %[[SZ]]#1
// CHECK: %[[ROW:.*]] = arith.addi %[[LROW]], %{{.*}} : index
// CHECK-NEXT: %[[POS:.*]] = arith.addi %[[ORIGIN]], %[[ROW]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[POS]], %[[SZ]]#0 : index
// CHECK-NEXT: %[[OFF:.*]] = arith.select %[[IN]], %{{.*}}, %[[EXT]] : index
// CHECK-NOT: arith.cmpi ult, %{{.*}}, %[[SZ]]#1
// CHECK-NOT: scf.if
// CHECK: amdgpu.gather_to_lds %{{.*}}[%[[OFF]]]
// GFX950-SAME: : vector<8xbf16>
// GFX942-SAME: : vector<2xbf16>
// CHECK-NOT: scf.if
// CHECK: amdgpu.memory_counter_wait
hk.kernel @marked(%A: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %bx = hk.block_id x
  %as = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %t = hk.load_async %A[%bx, %c0], %as {hk.cols_in_bounds} : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.wait %t
  hk.barrier
  hk.return
}

// Marked hk.in_bounds as well (hk-peel-bounds: the row block and the
// leading indices are in range too): no size is compared and no offset is
// replaced by the extent; the DMA takes the element offset as computed.
// CHECK-LABEL: gpu.func @all_in_bounds
// CHECK-SAME: (%[[B:.*]]: memref<?x?xbf16>
// CHECK: %{{.*}}, %{{.*}}, %[[BSZ:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[B]]
// CHECK: scf.for
// CHECK-NOT: arith.cmpi ult, %{{.*}}, %[[BSZ]]
// CHECK-NOT: arith.select
// CHECK: amdgpu.gather_to_lds
// CHECK: amdgpu.memory_counter_wait
hk.kernel @all_in_bounds(%B: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %bx = hk.block_id x
  %as = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %t = hk.load_async %B[%bx, %c0], %as {hk.cols_in_bounds, hk.in_bounds} : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.wait %t
  hk.barrier
  hk.return
}
