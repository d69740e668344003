// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 --split-input-file %s | FileCheck %s

// Expected addresses come from the layout definitions in HKAttrs.td:
// row 16x32 (E = 8): lane l holds row l % 16, columns 8 * (l / 16) + 0..7;
// col 16x16 (E = 4): lane l holds column l % 16, rows 4 * (l / 16) + 0..3.

// One buffer per memref, made at entry over the memref's whole extent
// (one past its last element: 1 + sum of (size - 1) * stride, 0 if a size is
// 0), plus one bf16 element so that a dword holding the last element is in
// range (global-tail.mlir).
// CHECK-LABEL: gpu.func @load_row
// CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[E0:.*]] = arith.cmpi eq, %[[SZ]]#0, %[[C0:.*]] : index
// CHECK: %[[L0:.*]] = arith.subi %[[SZ]]#0, %[[C1:.*]] : index
// CHECK: %[[R0:.*]] = arith.muli %[[L0]], %[[ST]]#0
// CHECK: %[[S0:.*]] = arith.addi %[[C0]], %[[R0]]
// CHECK: %[[E1:.*]] = arith.cmpi eq, %[[SZ]]#1, %[[C0]] : index
// CHECK: %[[EMPTY:.*]] = arith.ori %[[E0]], %[[E1]]
// CHECK: %[[L1:.*]] = arith.subi %[[SZ]]#1, %[[C1]] : index
// CHECK: %[[R1:.*]] = arith.muli %[[L1]], %[[ST]]#1
// CHECK: %[[LAST:.*]] = arith.addi %[[S0]], %[[R1]]
// CHECK: %[[END:.*]] = arith.addi %[[LAST]], %[[C1]]
// CHECK: %[[SPAN:.*]] = arith.select %[[EMPTY]], %[[C0]], %[[END]] : index
// CHECK: %[[EXT:.*]] = arith.addi %[[SPAN]], %{{.*}} : index
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[EXT]]], strides: [1]
// CHECK: %[[BUF:.*]] = amdgpu.fat_raw_buffer_cast %[[FLAT]] resetOffset
// CHECK-SAME: to memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>
// CHECK-NOT: fat_raw_buffer_cast
// Lane l: row 16 * i + l % 16, column 32 * j + 8 * (l / 16).
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %{{.*}} : index
// CHECK: %[[R:.*]] = arith.remui %[[LANE]], %[[C16:c16(_[0-9]+)?]] : index
// CHECK: %[[Q:.*]] = arith.divui %[[LANE]], %[[C16]] : index
// CHECK: %[[QC:.*]] = arith.muli %[[Q]], %[[C8:c8(_[0-9]+)?]] : index
// CHECK: %[[ROW0:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.addi %[[ROW0]], %[[R]] : index
// CHECK: %[[COL0:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK: %[[COL:.*]] = arith.addi %[[COL0]], %[[QC]] : index
// Out of range in any dimension: the offset becomes the extent (reads 0).
// CHECK: %[[RIN:.*]] = arith.cmpi ult, %[[ROW]], %[[SZ]]#0
// CHECK: %[[CIN:.*]] = arith.cmpi ult, %[[COL]], %[[SZ]]#1
// CHECK: %[[OK:.*]] = arith.andi %[[RIN]], %[[CIN]]
// CHECK: %[[O0:.*]] = arith.muli %[[ROW]], %[[ST]]#0
// CHECK: %[[O1:.*]] = arith.muli %[[COL]], %[[ST]]#1
// CHECK: %[[O:.*]] = arith.addi %[[O0]], %[[O1]]
// CHECK: %[[SEL:.*]] = arith.select %[[OK]], %[[O]], %[[EXT]] : index
// The lane's 8 consecutive elements: one 16-byte load.
// CHECK: %[[V:.*]] = vector.load %[[BUF]][%[[SEL]]] : memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
// Elements past the end of the row are zeroed.
// CHECK: %[[MASK:.*]] = vector.from_elements {{.*}} : vector<8xi1>
// CHECK: arith.select %[[MASK]], %[[V]], %{{.*}} : vector<8xi1>, vector<8xbf16>
// CHECK-NOT: vector.load
// CHECK: gpu.return
hk.kernel @load_row(%A: memref<?x?xbf16>, %i: index, %j: index) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.load %A[%i, %j] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %b = arith.addf %a, %a : tensor<16x32xbf16, #hk.rt<row, 16x32>>
  hk.store %b, %A[%i, %j] : tensor<16x32xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  hk.return
}

// -----

// A col tile's elements run down a column, so each is its own access: lane
// l stores rows 4 * (l / 16) + 0..3 of column l % 16. A tile inside the
// memref (its last row and column in range: one wave-uniform branch) is
// stored without a check per element; an edge tile checks each element,
// all four in range or not independently.
// CHECK-LABEL: gpu.func @store_col
// CHECK-SAME: (%[[C:.*]]: memref<?x?x?xf32>, %[[B:.*]]: index)
// CHECK: %[[V:.*]] = arith.constant dense<2.500000e+00> : vector<4xf32>
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:3, %[[ST:.*]]:3 = memref.extract_strided_metadata %[[C]]
// CHECK: %[[BUF:.*]] = amdgpu.fat_raw_buffer_cast
// CHECK: %[[LANE:.*]] = arith.remui
// CHECK: %[[N:.*]] = arith.remui %[[LANE]], %[[C16:c16(_[0-9]+)?]] : index
// CHECK: %[[Q:.*]] = arith.divui %[[LANE]], %[[C16]] : index
// CHECK: %[[QR:.*]] = arith.muli %[[Q]], %[[C4:c4(_[0-9]+)?]] : index
// CHECK: %[[ROW:.*]] = arith.addi %[[ROWO:.*]], %[[QR]] : index
// CHECK: %[[COL:.*]] = arith.addi %[[COLO:.*]], %[[N]] : index
// The batch index is checked once, against the leading size: the rows are
// compared against the row count when it is in range, else against 0 (a
// limit behind llvm.freeze, which keeps LLVM from splitting the compare
// back into two).
// CHECK: %[[BIN:.*]] = arith.cmpi ult, %[[B]], %[[SZ]]#0
// CHECK: %[[SEL:.*]] = arith.select %[[BIN]], %[[SZ]]#1, %{{.*}} : index
// CHECK: %[[SEL64:.*]] = arith.index_castui %[[SEL]] : index to i64
// CHECK: %[[FRZ:.*]] = llvm.freeze %[[SEL64]] : i64
// CHECK: %[[RLIM:.*]] = arith.index_castui %[[FRZ]] : i64 to index
// CHECK: %[[E0:.*]] = vector.extract %[[V]][0] : f32 from vector<4xf32>
// CHECK: %[[E3:.*]] = vector.extract %[[V]][3] : f32 from vector<4xf32>
// CHECK: %[[REND:.*]] = arith.addi %[[ROWO]], %{{c16(_[0-9]+)?}} : index
// CHECK: %[[RFIT:.*]] = arith.cmpi ule, %[[REND]], %[[RLIM]] : index
// CHECK: %[[CEND:.*]] = arith.addi %[[COLO]], %{{c16(_[0-9]+)?}} : index
// CHECK: %[[CFIT:.*]] = arith.cmpi ule, %[[CEND]], %[[SZ]]#2 : index
// CHECK: %[[FIT:.*]] = arith.andi %[[RFIT]], %[[CFIT]] : i1
// CHECK: scf.if %[[FIT]] {
// CHECK-NOT: arith.select
// CHECK: memref.store %[[E0]], %[[BUF]][
// CHECK-NOT: arith.select
// CHECK: memref.store %[[E3]], %[[BUF]][
// CHECK-NEXT: } else {
// Register 0 at (row, col).
// CHECK: arith.cmpi ult, %[[ROW]], %[[RLIM]]
// CHECK: arith.cmpi ult, %[[COL]], %[[SZ]]#2
// CHECK: %[[S0:.*]] = arith.select
// CHECK: memref.store %[[E0]], %[[BUF]][%[[S0]]]
// Register 3 at (row + 3, col).
// CHECK: %[[ROW3:.*]] = arith.addi %[[ROW]], %[[C3:c3(_[0-9]+)?]] : index
// CHECK: arith.cmpi ult, %[[ROW3]], %[[RLIM]]
// CHECK: arith.muli %[[ROW3]], %[[ST]]#1
// CHECK: %[[S3:.*]] = arith.select
// CHECK: memref.store %[[E3]], %[[BUF]][%[[S3]]]
// CHECK-NOT: memref.store
// CHECK: gpu.return
hk.kernel @store_col(%C: memref<?x?x?xf32>, %b: index) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %v = arith.constant dense<2.5> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %c1 = arith.constant 1 : index
  hk.store %v, %C[%b, %c1, %c1] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?x?xf32>
  hk.return
}

// -----

// A row tile store: one 16-byte store per run; in a tile inside the memref
// without a check, in an edge tile element by element only when the run
// crosses the end of its row.
// CHECK-LABEL: gpu.func @store_row
// CHECK: %[[BUF:.*]] = amdgpu.fat_raw_buffer_cast
// CHECK: %[[PART:.*]] = vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [8], strides = [1]} : vector<8xbf16> to vector<8xbf16>
// CHECK: %[[FIT:.*]] = arith.andi
// CHECK: scf.if %[[FIT]] {
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.addi
// CHECK-NEXT: vector.store %[[PART]], %[[BUF]][%{{.*}}] : memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
// CHECK-NEXT: } else {
// The whole run is in range when its last column is.
// CHECK: %[[LAST:.*]] = arith.addi %[[COL:.*]], %[[C7:c7(_[0-9]+)?]] : index
// CHECK: arith.cmpi ult, %[[LAST]], %[[COLS:.*]] : index
// CHECK: vector.store %[[PART]], %[[BUF]][%{{.*}}] : memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
// CHECK: scf.if
// CHECK-COUNT-8: memref.store
// CHECK: }
// CHECK: gpu.return
hk.kernel @store_row(%A: memref<?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<1.0> : tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %c0 = arith.constant 0 : index
  hk.store %a, %A[%c0, %c0] : tensor<16x32xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  hk.return
}

// -----

// The row vector of a col 16x16 layout over 32 rows: lane l keeps rows
// 4 * (l / 16) + 0..3 of each of the two base tiles, i.e. vector indices
// 32 * i + 4 * (l / 16) + {0..3, 16..19}: two 4-element loads. f32 elements
// fill whole dwords, so the vector goes through a buffer over its row from
// its first element, 32 * i: its range is the rest of the row (0 when i is
// past it), and the buffer's per-dword range check reads zeros past the
// row's end, with no compare per element. The lanes' offsets in it are
// 4 * (l / 16) and 4 * (l / 16) + 16. The store goes through the same kind
// of buffer, and its runs are stored whole.
// CHECK-LABEL: gpu.func @load_vec
// CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[I:.*]]: index)
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]], %[[ST:.*]] = memref.extract_strided_metadata %[[M]]
// CHECK: %[[Q:.*]] = arith.divui
// CHECK: %[[QI:.*]] = arith.muli %[[Q]], %[[C4:c4(_[0-9]+)?]] : index
// CHECK: %[[X0:.*]] = arith.muli %[[I]], %[[C32:c32(_[0-9]+)?]] : index
// CHECK: %[[XS:.*]] = arith.muli %[[X0]], %[[ST]] : index
// CHECK: %[[ROWOFF:.*]] = arith.addi %[[OFF]], %[[XS]] : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[X0]], %[[SZ]] : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[SZ]], %[[X0]] : index
// CHECK: %[[N:.*]] = arith.select %[[IN]], %[[LEFT]], %{{.*}} : index
// CHECK: %[[NB:.*]] = arith.muli %[[N]], %[[C4B:c4(_[0-9]+)?]] : index
// CHECK: %[[ROW:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[ROWOFF]]], sizes: [%[[N]]], strides: [1]
// CHECK: %[[NB64:.*]] = arith.index_castui %[[NB]] : index to i64
// CHECK: %[[BUF:.*]] = amdgpu.fat_raw_buffer_cast %[[ROW]] validBytes(%[[NB64]]) resetOffset
// CHECK-NOT: arith.cmpi
// CHECK: vector.load %[[BUF]][%[[QI]]] : memref<?xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
// CHECK: vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0], strides = [1]} : vector<4xf32> into vector<8xf32>
// CHECK: %[[X16:.*]] = arith.addi %[[QI]], %[[C16:c16(_[0-9]+)?]] : index
// CHECK-NOT: arith.cmpi
// CHECK: vector.load %[[BUF]][%[[X16]]] : memref<?xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
// CHECK: vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [4], strides = [1]} : vector<4xf32> into vector<8xf32>
// CHECK-NOT: vector.load
// CHECK: %[[SBUF:.*]] = amdgpu.fat_raw_buffer_cast %{{.*}} validBytes(%{{.*}}) resetOffset
// CHECK-NOT: scf.if
// CHECK: vector.store %{{.*}}, %[[SBUF]][%{{.*}}] : memref<?xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
// CHECK-NOT: scf.if
// CHECK: vector.store %{{.*}}, %[[SBUF]][%{{.*}}] : memref<?xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
// CHECK-NOT: vector.store
hk.kernel @load_vec(%M: memref<?xf32>, %i: index) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %m = hk.load %M[%i] : memref<?xf32> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.store %m, %M[%i] : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, memref<?xf32>
  hk.return
}

// -----

// Two leading dimensions chain their limits: the head is compared against
// the head count when the batch is in range (else 0), and the vector's
// origin against the row count when the head is below that limit (else 0):
// the row buffer's range. A batch that does not change in a loop thus gives
// one loop-invariant limit, not a check of its own in every access. The
// leading positions go into the buffer's base (b * stride0 + h * stride1).
// CHECK-LABEL: gpu.func @load_vec_3d
// CHECK-SAME: (%[[M:.*]]: memref<?x?x?xf32>, %[[B:.*]]: index, %[[H:.*]]: index, %[[I:.*]]: index)
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:3, %[[ST:.*]]:3 = memref.extract_strided_metadata %[[M]]
// CHECK: %[[X0:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK: %[[BIN:.*]] = arith.cmpi ult, %[[B]], %[[SZ]]#0 : index
// CHECK: %[[HSEL:.*]] = arith.select %[[BIN]], %[[SZ]]#1, %{{.*}} : index
// CHECK: %[[HSEL64:.*]] = arith.index_castui %[[HSEL]] : index to i64
// CHECK: %[[HFRZ:.*]] = llvm.freeze %[[HSEL64]] : i64
// CHECK: %[[HLIM:.*]] = arith.index_castui %[[HFRZ]] : i64 to index
// CHECK: %[[HIN:.*]] = arith.cmpi ult, %[[H]], %[[HLIM]] : index
// CHECK: %[[NSEL:.*]] = arith.select %[[HIN]], %[[SZ]]#2, %{{.*}} : index
// CHECK: %[[NSEL64:.*]] = arith.index_castui %[[NSEL]] : index to i64
// CHECK: %[[NFRZ:.*]] = llvm.freeze %[[NSEL64]] : i64
// CHECK: %[[NLIM:.*]] = arith.index_castui %[[NFRZ]] : i64 to index
// CHECK: %[[BOFF:.*]] = arith.muli %[[B]], %[[ST]]#0 : index
// CHECK: %[[HOFF:.*]] = arith.muli %[[H]], %[[ST]]#1 : index
// CHECK: %[[O1:.*]] = arith.addi %[[BOFF]], %[[HOFF]] : index
// CHECK: %[[XOFF:.*]] = arith.muli %[[X0]], %[[ST]]#2 : index
// CHECK: %[[O2:.*]] = arith.addi %[[O1]], %[[XOFF]] : index
// CHECK: %[[O3:.*]] = arith.addi %[[OFF]], %[[O2]] : index
// CHECK: arith.cmpi ult, %[[X0]], %[[NLIM]] : index
// CHECK: arith.subi %[[NLIM]], %[[X0]] : index
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[O3]]]
// CHECK: amdgpu.fat_raw_buffer_cast %{{.*}} validBytes(%{{.*}}) resetOffset
// CHECK-NOT: arith.cmpi
// CHECK: vector.load
// CHECK-NOT: arith.cmpi
// CHECK: vector.load
// CHECK-NOT: vector.load
// CHECK-NOT: llvm.freeze
// CHECK: gpu.return
hk.kernel @load_vec_3d(%M: memref<?x?x?xf32>, %b: index, %h: index, %i: index) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %m = hk.load %M[%b, %h, %i] : memref<?x?x?xf32> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.return
}

// -----

// A bf16 vector keeps the buffer over the whole memref: one dword can hold
// a row's last element and the next row's first, and the range check is per
// dword, so the elements past the row's end are zeroed by compares against
// what is left of the row (1, 2 and 3 for a run of 4).
// CHECK-LABEL: gpu.func @load_vec_bf16
// CHECK: %[[BUF:.*]] = amdgpu.fat_raw_buffer_cast %{{.*}} resetOffset
// CHECK-NOT: validBytes
// CHECK: vector.load %[[BUF]][%{{.*}}] : memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<4xbf16>
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.select
hk.kernel @load_vec_bf16(%M: memref<?x?xbf16>, %h: index, %i: index) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %m = hk.load %M[%h, %i] : memref<?x?xbf16> -> tensor<32xbf16, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.return
}
