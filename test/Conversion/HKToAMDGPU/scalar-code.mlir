// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --hk-verify-barriers %s > /dev/null
// RUN: hkc %s --chip gfx942,gfx950 --emit=asm -o %t
// RUN: FileCheck %s --check-prefix=ASM --input-file %t.gfx950.s
// RUN: FileCheck %s --check-prefix=ASM --input-file %t.gfx942.s
// RUN: hkc --report-asm %t.gfx950.s --chip gfx950 | FileCheck %s --check-prefix=REPORT
// RUN: hkc --report-asm %t.gfx942.s --chip gfx942 | FileCheck %s --check-prefix=REPORT

// The scalar code of docs/lowering.md, "Scalar code": a loop over groups
// whose bounds come from device memory (memref.load of an i32 argument),
// views of a group's rows (memref.subview with a dynamic offset and size),
// and a conditional on a loaded value, around tile accesses. The scalar ops
// are left as they are; a tile access through a view gets a buffer of its
// own, built from the view's metadata where the view is defined, and its
// bounds are the view's sizes (rows past the group read zeros, stores past
// it are dropped).

!rows = memref<?x?xbf16, strided<[?, 1], offset: ?>>
!t = tensor<16x32xbf16, #hk.rt<row, 16x32>>

// CHECK-LABEL: gpu.func @first_rows
// CHECK:       scf.for %[[G:.*]] = %{{.*}} to %{{.*}} step
// CHECK:         %[[LO:.*]] = memref.load %arg2[%[[G]]] : memref<?xi32>
// CHECK:         memref.load %arg2[%{{.*}}] : memref<?xi32>
// CHECK:         %[[XG:.*]] = memref.subview %arg0[%{{.*}}, 0] [%{{.*}}, %{{.*}}] [1, 1]
// CHECK:         %{{.*}}, %{{.*}}, %[[XSIZES:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[XG]]
// CHECK:         amdgpu.fat_raw_buffer_cast
// CHECK:         memref.subview %arg1[
// CHECK:         scf.if
// CHECK:           arith.cmpi ult, %{{.*}}, %[[XSIZES]]#0 : index
// CHECK:           vector.load
// CHECK-NOT:   memref.load %arg2
// CHECK:       gpu.return

// The loads of the offsets: %offsets is only ever loaded from, so its
// loads are invariant (lib/Target/AMDGPU/Optimize.cpp) and, at a uniform
// address, scalar loads, although the kernel stores through y's buffer;
// the views' buffer descriptors stay in SGPRs (no waterfall loop).
// ASM-LABEL: first_rows:
// ASM-NOT:   global_load
// ASM-NOT:   v_readfirstlane
// ASM:       s_load_dword s{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], 0x0
// ASM-NOT:   global_load
// ASM-NOT:   v_readfirstlane
// ASM:       buffer_load_dwordx4 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], 0 offen
// REPORT: waterfall loops: 0

hk.kernel @first_rows(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>,
                      %offsets: memref<?xi32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ends = memref.dim %offsets, %c0 : memref<?xi32>
  %groups = arith.subi %ends, %c1 : index
  %cols = memref.dim %x, %c1 : memref<?x?xbf16>
  scf.for %g = %c0 to %groups step %c1 {
    %lo32 = memref.load %offsets[%g] : memref<?xi32>
    %g1 = arith.addi %g, %c1 : index
    %hi32 = memref.load %offsets[%g1] : memref<?xi32>
    %lo = arith.index_castui %lo32 : i32 to index
    %hi = arith.index_castui %hi32 : i32 to index
    %len = arith.subi %hi, %lo : index
    %x_g = memref.subview %x[%lo, 0] [%len, %cols] [1, 1]
        : memref<?x?xbf16> to !rows
    %y_g = memref.subview %y[%lo, 0] [%len, %cols] [1, 1]
        : memref<?x?xbf16> to !rows
    %some = arith.cmpi ugt, %len, %c0 : index
    scf.if %some {
      %t = hk.load %x_g[%c0, %c0] : !rows -> !t
      hk.store %t, %y_g[%c0, %c0] : !t, !rows
    }
  }
  hk.return
}

// An argument the kernel also stores into is not invariant: its loads stay
// vector loads.
// ASM-LABEL: bump_counts:
// ASM:       global_load_dword
// ASM:       global_store_dword
hk.kernel @bump_counts(%counts: memref<?xi32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = memref.dim %counts, %c0 : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %counts[%i] : memref<?xi32>
    %w = arith.addi %v, %one : i32
    memref.store %w, %counts[%i] : memref<?xi32>
  }
  hk.return
}
