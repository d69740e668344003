// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s
// RUN: hkc %s --chip gfx942 --emit=asm -o - | FileCheck %s --check-prefix=ISA
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=ISA

// hk.atomic_add of a register vector: one buffer atomic add per register,
// as for tiles, but each element is held by several lanes and must be added
// once. The row vector of a 32x64 col 16x16 tile: lane l, register r holds
// row 4*(l/16) + r%4 + 16*(r/4) (the rows of the 16x16 D layout), the same
// in all 16 lanes with equal l/16; lane l % 16 == 0 adds it, the others get
// the buffer's extent as offset, which the hardware drops.
// CHECK-LABEL: gpu.func @row_vector
// CHECK-SAME: (%{{.*}}: memref<?x?xf32>, %[[R:.*]]: memref<?xf32>, %[[I:.*]]: index)
// The load's lane, then the atomic's owner test, R's buffer (set up where
// the atomic is) and the atomic's offsets.
// CHECK: gpu.thread_id x
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %{{.*}} : index
// CHECK: %[[INROW:.*]] = arith.remui %[[LANE]], %[[C16:.*]] : index
// CHECK: %[[OWNER:.*]] = arith.cmpi eq, %[[INROW]], %{{.*}} : index
// CHECK: %[[BASE:.*]], %{{.*}}, %[[SIZE:.*]], %[[STRIDE:.*]] = memref.extract_strided_metadata %[[R]]
// CHECK: %[[EXT:.*]] = arith.select
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[BASE]]
// The lane's first row: 32 i + 4 (l / 16).
// CHECK: %[[G:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: %[[LROW:.*]] = arith.muli %[[G]], %{{.*}} : index
// CHECK: %[[ORIGIN:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK: %[[ROW0:.*]] = arith.addi %[[ORIGIN]], %[[LROW]] : index
// Register 0.
// CHECK: %[[P0:.*]] = arith.addi %[[ROW0]], %{{.*}} : index
// CHECK: %[[O0:.*]] = arith.muli %[[P0]], %[[STRIDE]] : index
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[P0]], %[[SIZE]] : index
// CHECK: %[[S0:.*]] = arith.select %[[IN0]], %[[O0]], %[[EXT]] : index
// CHECK: %[[W0:.*]] = arith.select %[[OWNER]], %[[S0]], %[[EXT]] : index
// CHECK: %[[OFF0:.*]] = arith.index_cast %[[W0]] : index to i32
// CHECK: %[[V0:.*]] = vector.extract %{{.*}}[0] : f32 from vector<8xf32>
// CHECK: amdgpu.raw_buffer_atomic_fadd %[[V0]] -> %[[FLAT]][%[[OFF0]]]
// Register 4 is row + 16.
// CHECK-COUNT-3: amdgpu.raw_buffer_atomic_fadd
// CHECK: %[[C16B:.*]] = arith.constant 16 : index
// CHECK: arith.addi %[[ROW0]], %[[C16B]] : index
// CHECK: arith.select %[[OWNER]]
// CHECK: vector.extract %{{.*}}[4] : f32 from vector<8xf32>
// CHECK-COUNT-4: amdgpu.raw_buffer_atomic_fadd
// CHECK-NOT: amdgpu.raw_buffer_atomic_fadd
// CHECK: gpu.return

// The column vector: lane l, register r holds column l%16 + 16 r, the same
// in the 4 lanes with equal l % 16; lane l / 16 == 0 adds it.
// CHECK-LABEL: gpu.func @col_vector
// CHECK: %[[OWNER2:.*]] = arith.cmpi eq, %{{[0-9]+}}, %c0{{.*}} : index
// CHECK-COUNT-4: arith.select %[[OWNER2]]
// CHECK: amdgpu.raw_buffer_atomic_fadd
// CHECK-NOT: amdgpu.raw_buffer_atomic_fadd
// CHECK: gpu.return

// ISA-LABEL: row_vector:
// ISA-COUNT-8: buffer_atomic_add_f32
// ISA: s_endpgm
// ISA-LABEL: col_vector:
// ISA-COUNT-4: buffer_atomic_add_f32
// ISA: s_endpgm
!t = tensor<32x64xf32, #hk.rt<col, 16x16>>
!rv = tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!cv = tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
hk.kernel @row_vector(%X: memref<?x?xf32>, %R: memref<?xf32>, %i: index) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %r = hk.row_reduce sum %x : !t -> !rv
  hk.atomic_add %r, %R[%i] : !rv, memref<?xf32>
  hk.return
}

hk.kernel @col_vector(%X: memref<?x?xf32>, %C: memref<?xf32>, %j: index) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %c = hk.col_reduce sum %x : !t -> !cv
  hk.atomic_add %c, %C[%j] : !cv, memref<?xf32>
  hk.return
}
