// Round trip of every hk op in its custom syntax, optional parts present and
// absent.
//
// Custom form printed, parsed again and checked:
// RUN: hk-opt %s -split-input-file | hk-opt -split-input-file | FileCheck %s
// Through the generic form and back:
// RUN: hk-opt %s -split-input-file --mlir-print-op-generic | hk-opt -split-input-file | FileCheck %s
// Printing is a fixed point: print -> parse -> print is byte for byte the
// same, and so is the custom form recovered from the generic form:
// RUN: hk-opt %s -split-input-file > %t.custom
// RUN: hk-opt %t.custom -split-input-file > %t.again
// RUN: diff %t.custom %t.again
// RUN: hk-opt %s -split-input-file --mlir-print-op-generic > %t.generic
// RUN: hk-opt %t.generic -split-input-file > %t.from-generic
// RUN: diff %t.custom %t.from-generic
// MLIR's own round-trip check (generic form and bytecode):
// RUN: hk-opt %s -split-input-file --verify-roundtrip > /dev/null
// Attributes as the generic form prints them:
// RUN: hk-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

// CHECK-LABEL: hk.kernel @empty() attributes {grid = #hk.grid<[] -> (1)>, waves = 4 : i32} {
// CHECK-NEXT:    hk.return
// CHECK-NEXT:  }
hk.kernel @empty() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// Memref and every kind of scalar argument; attributes print sorted.
// CHECK-LABEL: hk.kernel @scalars(
// CHECK-SAME:    %{{.*}}: memref<?x?x?x?xbf16>, %{{.*}}: memref<128x64xf32>,
// CHECK-SAME:    %{{.*}}: index, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: f32, %{{.*}}: bf16)
// CHECK-SAME:    attributes {grid = #hk.grid<[dim(0, 2), arg(3)] -> (s0 ceildiv 64, s1)>, waves = 8 : i32} {
hk.kernel @scalars(%q: memref<?x?x?x?xbf16>, %c: memref<128x64xf32>,
                   %n: index, %m: i32, %l: i64, %s: f32, %t: bf16)
    attributes {waves = 8 : i32,
                grid = #hk.grid<[dim(0, 2), arg(3)] -> (s0 ceildiv 64, s1)>} {
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @one_wave() attributes {grid = #hk.grid<[] -> (1)>, waves = 1 : i32}
hk.kernel @one_wave() attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @two_waves() attributes {grid = #hk.grid<[] -> (1)>, waves = 2 : i32}
hk.kernel @two_waves() attributes {waves = 2 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @sixteen_waves() attributes {grid = #hk.grid<[] -> (1)>, waves = 16 : i32}
hk.kernel @sixteen_waves() attributes {waves = 16 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// Argument attributes and extra discardable attributes are kept.
// CHECK-LABEL: hk.kernel @arg_attrs(
// CHECK-SAME:    %{{.*}}: memref<?xf32> {llvm.noalias}, %{{.*}}: index)
// CHECK-SAME:    attributes {grid = #hk.grid<[arg(1)] -> (s0)>, note = "kept", waves = 4 : i32}
hk.kernel @arg_attrs(%x: memref<?xf32> {llvm.noalias}, %n: index)
    attributes {waves = 4 : i32, note = "kept",
                grid = #hk.grid<[arg(1)] -> (s0)>} {
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @ids_3d(
// CHECK:         %{{.*}} = hk.block_id x
// CHECK-NEXT:    %{{.*}} = hk.block_id y
// CHECK-NEXT:    %{{.*}} = hk.block_id z
// CHECK-NEXT:    hk.return
hk.kernel @ids_3d(%n: index) attributes {waves = 4 : i32,
    grid = #hk.grid<[arg(0)] -> (s0, 2, 3)>} {
  %x = hk.block_id x
  %y = hk.block_id y
  %z = hk.block_id z
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @num_blocks_3d(
// CHECK:         %{{.*}} = hk.num_blocks x
// CHECK-NEXT:    %{{.*}} = hk.num_blocks y
// CHECK-NEXT:    %{{.*}} = hk.num_blocks z
hk.kernel @num_blocks_3d(%n: index) attributes {waves = 4 : i32,
    grid = #hk.grid<[arg(0)] -> (s0, 2, 3)>} {
  %x = hk.num_blocks x
  %y = hk.num_blocks y
  %z = hk.num_blocks z
  hk.return
}

// -----

// With a 1-D grid only x is asked for.
// CHECK-LABEL: hk.kernel @ids_1d(
// CHECK:         %{{.*}} = hk.block_id x
// CHECK-NEXT:    %{{.*}} = hk.num_blocks x
hk.kernel @ids_1d(%n: index) attributes {waves = 4 : i32,
    grid = #hk.grid<[arg(0)] -> (s0)>} {
  %x = hk.block_id x
  %nx = hk.num_blocks x
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @wave_id(
// CHECK:         %[[W:.*]] = hk.wave_id
// CHECK-NEXT:    %{{.*}} = arith.muli %[[W]], %[[W]] : index
hk.kernel @wave_id() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %w = hk.wave_id
  %w2 = arith.muli %w, %w : index
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @xcd_remap(
// CHECK:         %[[ID:.*]] = hk.block_id x
// CHECK-NEXT:    %[[N:.*]] = hk.num_blocks x
// CHECK-NEXT:    %{{.*}} = hk.xcd_remap %[[ID]], %[[N]] xcds = 8, chunk = 64
hk.kernel @xcd_remap(%n: index) attributes {waves = 8 : i32,
    grid = #hk.grid<[arg(0)] -> (s0)>} {
  %id = hk.block_id x
  %count = hk.num_blocks x
  %id2 = hk.xcd_remap %id, %count xcds = 8, chunk = 64
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @group_remap(
// CHECK-SAME:    %[[ROWS:[^:]*]]: index, %[[COLS:[^:]*]]: index)
// CHECK:         %[[ID:.*]] = hk.block_id x
// CHECK-NEXT:    %[[ROW:[^,]*]], %[[COL:[^ ]*]] = hk.group_remap %[[ID]], %[[ROWS]], %[[COLS]] group = 8
// CHECK-NEXT:    %{{.*}} = arith.addi %[[ROW]], %[[COL]] : index
hk.kernel @group_remap(%rows: index, %cols: index) attributes {waves = 8 : i32,
    grid = #hk.grid<[arg(0), arg(1)] -> (s0 * s1)>} {
  %id = hk.block_id x
  %row, %col = hk.group_remap %id, %rows, %cols group = 8
  %sum = arith.addi %row, %col : index
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

// The result type of alloc_shared is printed without its dialect prefix.
// CHECK-LABEL: hk.kernel @alloc_shared(
// CHECK:         %{{.*}} = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
// CHECK-NEXT:    %{{.*}} = hk.alloc_shared : !hk.st<64x256xbf16, 32x16>
// CHECK-NEXT:    %{{.*}} = hk.alloc_shared : !hk.st<64x64xf32, 16x16>
hk.kernel @alloc_shared() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
  %b = hk.alloc_shared : !hk.st<64x256xbf16, 32x16>
  %c = hk.alloc_shared : !hk.st<64x64xf32, 16x16>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @subtile(
// CHECK-SAME:    %[[I:[^:]*]]: index)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[S:.*]] = hk.alloc_shared
// CHECK-NEXT:    %{{.*}} = hk.subtile %[[S]][%[[I]], %[[C0]]] : !hk.st<256x64xbf16, 16x32> -> !hk.st<64x64xbf16, 16x32>
hk.kernel @subtile(%i: index) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
  %q = hk.subtile %s[%i, %c0] : !hk.st<256x64xbf16, 16x32> -> !hk.st<64x64xbf16, 16x32>
  hk.return
}

// -----

// Constant indices at the last tile in both directions are in range.
// CHECK-LABEL: hk.kernel @subtile_last(
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[S:.*]] = hk.alloc_shared
// CHECK-NEXT:    %{{.*}} = hk.subtile %[[S]][%[[C3]], %[[C1]]] : !hk.st<128x64xf16, 16x16> -> !hk.st<32x32xf16, 16x16>
hk.kernel @subtile_last() attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc_shared : !hk.st<128x64xf16, 16x16>
  %q = hk.subtile %s[%c3, %c1] : !hk.st<128x64xf16, 16x16> -> !hk.st<32x32xf16, 16x16>
  hk.return
}

// -----

// A subtile of the whole tile.
// CHECK-LABEL: hk.kernel @subtile_whole(
// CHECK:         hk.subtile %{{.*}}[%{{.*}}, %{{.*}}] : !hk.st<64x64xbf16, 16x32> -> !hk.st<64x64xbf16, 16x32>
hk.kernel @subtile_whole() attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %q = hk.subtile %s[%c0, %c0] : !hk.st<64x64xbf16, 16x32> -> !hk.st<64x64xbf16, 16x32>
  hk.return
}

// -----

// Without `waves`, the whole workgroup copies; the shared tile type is
// printed without its dialect prefix.
// CHECK-LABEL: hk.kernel @load_async_rank2(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16>, %[[M:[^:]*]]: index, %[[K:[^:]*]]: index)
// CHECK:         %[[S:.*]] = hk.alloc_shared
// CHECK-NEXT:    %{{.*}} = hk.load_async %[[A]][%[[M]], %[[K]]], %[[S]] : memref<?x?xbf16>, !hk.st<256x64xbf16, 16x32>
hk.kernel @load_async_rank2(%A: memref<?x?xbf16>, %m: index, %k: index)
    attributes {waves = 8 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 256)>} {
  %s = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
  %t = hk.load_async %A[%m, %k], %s : memref<?x?xbf16>, !hk.st<256x64xbf16, 16x32>
  hk.return
}

// -----

// With `waves = N`, only the first N waves copy; N may equal the kernel's.
// CHECK-LABEL: hk.kernel @load_async_rank4_waves(
// CHECK-SAME:    %[[Q:[^:]*]]: memref<?x?x?x?xbf16>, %[[B:[^:]*]]: index, %[[H:[^:]*]]: index, %[[I:[^:]*]]: index)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[S:.*]] = hk.alloc_shared
// CHECK-NEXT:    %{{.*}} = hk.load_async %[[Q]][%[[B]], %[[H]], %[[I]], %[[C0]]], %[[S]] waves = 4 : memref<?x?x?x?xbf16>, !hk.st<64x128xbf16, 16x32>
// CHECK-NEXT:    %{{.*}} = hk.load_async %[[Q]][%[[B]], %[[H]], %[[I]], %[[C0]]], %[[S]] waves = 8 : memref<?x?x?x?xbf16>, !hk.st<64x128xbf16, 16x32>
hk.kernel @load_async_rank4_waves(%Q: memref<?x?x?x?xbf16>, %b: index, %h: index, %i: index)
    attributes {waves = 8 : i32, grid = #hk.grid<[dim(0, 2)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x128xbf16, 16x32>
  %t0 = hk.load_async %Q[%b, %h, %i, %c0], %s waves = 4 : memref<?x?x?x?xbf16>, !hk.st<64x128xbf16, 16x32>
  %t1 = hk.load_async %Q[%b, %h, %i, %c0], %s waves = 8 : memref<?x?x?x?xbf16>, !hk.st<64x128xbf16, 16x32>
  hk.return
}

// -----

// Rank 3 and a static memref of fp8.
// CHECK-LABEL: hk.kernel @load_async_rank3_static(
// CHECK:         hk.load_async %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} : memref<4x256x256xf8E4M3FNUZ>, !hk.st<128x128xf8E4M3FNUZ, 16x64>
hk.kernel @load_async_rank3_static(%A: memref<4x256x256xf8E4M3FNUZ>)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (4)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<128x128xf8E4M3FNUZ, 16x64>
  %t = hk.load_async %A[%c0, %c0, %c0], %s : memref<4x256x256xf8E4M3FNUZ>, !hk.st<128x128xf8E4M3FNUZ, 16x64>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @wait_one(
// CHECK:         %[[T:.*]] = hk.load_async
// CHECK-NEXT:    hk.wait %[[T]]{{$}}
hk.kernel @wait_one(%A: memref<?x?xf16>) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xf16, 16x32>
  %t = hk.load_async %A[%c0, %c0], %s : memref<?x?xf16>, !hk.st<64x64xf16, 16x32>
  hk.wait %t
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @wait_many(
// CHECK:         %[[T0:.*]] = hk.load_async
// CHECK-NEXT:    %[[T1:.*]] = hk.load_async
// CHECK-NEXT:    hk.wait %[[T1]], %[[T0]]{{$}}
hk.kernel @wait_many(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %sa = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %sb = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %ta = hk.load_async %A[%c0, %c0], %sa : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  %tb = hk.load_async %B[%c0, %c0], %sb : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.wait %tb, %ta
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @load_shared(
// CHECK:         %[[S:.*]] = hk.alloc_shared
// CHECK-NEXT:    %{{.*}} = hk.load %[[S]] : !hk.st<64x64xbf16, 16x32> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
// CHECK-NEXT:    %{{.*}} = hk.load %[[S]] : !hk.st<64x64xbf16, 16x32> -> tensor<64x64xbf16, #hk.rt<col, 32x16>>
hk.kernel @load_shared() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %a = hk.load %s : !hk.st<64x64xbf16, 16x32> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
  %b = hk.load %s : !hk.st<64x64xbf16, 16x32> -> tensor<64x64xbf16, #hk.rt<col, 32x16>>
  hk.return
}

// -----

// Loading through a subtile view.
// CHECK-LABEL: hk.kernel @load_subtile(
// CHECK:         %[[V:.*]] = hk.subtile
// CHECK-NEXT:    %{{.*}} = hk.load %[[V]] : !hk.st<32x64xf32, 16x16> -> tensor<32x64xf32, #hk.rt<col, 16x16>>
hk.kernel @load_subtile(%i: index) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<128x64xf32, 16x16>
  %v = hk.subtile %s[%i, %c0] : !hk.st<128x64xf32, 16x16> -> !hk.st<32x64xf32, 16x16>
  %t = hk.load %v : !hk.st<32x64xf32, 16x16> -> tensor<32x64xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @load_global_rank2(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16>, %[[M:[^:]*]]: index, %[[K:[^:]*]]: index)
// CHECK:         %{{.*}} = hk.load %[[A]][%[[M]], %[[K]]] : memref<?x?xbf16> -> tensor<64x32xbf16, #hk.rt<row, 16x32>>
hk.kernel @load_global_rank2(%A: memref<?x?xbf16>, %m: index, %k: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %a = hk.load %A[%m, %k] : memref<?x?xbf16> -> tensor<64x32xbf16, #hk.rt<row, 16x32>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @load_global_rank4(
// CHECK-SAME:    %[[Q:[^:]*]]: memref<?x?x?x?xbf16>, %[[B:[^:]*]]: index, %[[H:[^:]*]]: index, %[[I:[^:]*]]: index)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %{{.*}} = hk.load %[[Q]][%[[B]], %[[H]], %[[I]], %[[C0]]] : memref<?x?x?x?xbf16> -> tensor<32x128xbf16, #hk.rt<row, 32x16>>
hk.kernel @load_global_rank4(%Q: memref<?x?x?x?xbf16>, %b: index, %h: index, %i: index)
    attributes {waves = 8 : i32, grid = #hk.grid<[dim(0, 2), dim(0, 1), dim(0, 0)] -> (s0 ceildiv 256, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %q = hk.load %Q[%b, %h, %i, %c0] : memref<?x?x?x?xbf16> -> tensor<32x128xbf16, #hk.rt<row, 32x16>>
  hk.return
}

// -----

// A register vector from global memory: rank 1, and the last dimension of a
// rank-2 memref in units of the vector's length.
// CHECK-LABEL: hk.kernel @load_vector(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?xf32>, %[[Y:[^:]*]]: memref<?x?xf32>, %[[I:[^:]*]]: index)
// CHECK:         %{{.*}} = hk.load %[[X]][%[[I]]] : memref<?xf32> -> tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.load %[[Y]][%[[I]], %[[I]]] : memref<?x?xf32> -> tensor<32xf32, #hk.rv<col, #hk.rt<row, 32x16>>>
hk.kernel @load_vector(%x: memref<?xf32>, %y: memref<?x?xf32>, %i: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %v = hk.load %x[%i] : memref<?xf32> -> tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %w = hk.load %y[%i, %i] : memref<?x?xf32> -> tensor<32xf32, #hk.rv<col, #hk.rt<row, 32x16>>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @store_shared(
// CHECK:         %[[S:.*]] = hk.alloc_shared
// CHECK-NEXT:    %[[T:.*]] = hk.load
// CHECK-NEXT:    hk.store %[[T]], %[[S]] : tensor<64x64xbf16, #hk.rt<col, 16x16>>, !hk.st<64x64xbf16, 16x32>
hk.kernel @store_shared(%A: memref<?x?xbf16>) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %t = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16, #hk.rt<col, 16x16>>
  hk.store %t, %s : tensor<64x64xbf16, #hk.rt<col, 16x16>>, !hk.st<64x64xbf16, 16x32>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @store_global_rank2(
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xf32>, %[[M:[^:]*]]: index, %[[N:[^:]*]]: index)
// CHECK:         %[[ACC:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    hk.store %[[ACC]], %[[C]][%[[M]], %[[N]]] : tensor<64x64xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
hk.kernel @store_global_rank2(%C: memref<?x?xf32>, %m: index, %n: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[dim(0, 0), dim(0, 1)] -> (s0 ceildiv 64, s1 ceildiv 64)>} {
  %acc = arith.constant dense<0.0> : tensor<64x64xf32, #hk.rt<col, 16x16>>
  hk.store %acc, %C[%m, %n] : tensor<64x64xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @store_global_rank4(
// CHECK-SAME:    %[[O:[^:]*]]: memref<?x?x?x?xbf16>, %[[B:[^:]*]]: index, %[[H:[^:]*]]: index)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[T:.*]] = arith.constant dense<{{.*}}> : tensor<32x128xbf16, #hk.rt<col, 32x32, group = 4>>
// CHECK-NEXT:    hk.store %[[T]], %[[O]][%[[B]], %[[H]], %[[C0]], %[[C0]]] : tensor<32x128xbf16, #hk.rt<col, 32x32, group = 4>>, memref<?x?x?x?xbf16>
hk.kernel @store_global_rank4(%O: memref<?x?x?x?xbf16>, %b: index, %h: index)
    attributes {waves = 8 : i32, grid = #hk.grid<[dim(0, 0), dim(0, 1)] -> (s0, s1)>} {
  %c0 = arith.constant 0 : index
  %t = arith.constant dense<1.0> : tensor<32x128xbf16, #hk.rt<col, 32x32, group = 4>>
  hk.store %t, %O[%b, %h, %c0, %c0] : tensor<32x128xbf16, #hk.rt<col, 32x32, group = 4>>, memref<?x?x?x?xbf16>
  hk.return
}

// -----

// A register vector to global memory (LSE of attention, one per row).
// CHECK-LABEL: hk.kernel @store_vector(
// CHECK-SAME:    %[[L:[^:]*]]: memref<?x?x?xf32>, %[[I:[^:]*]]: index)
// CHECK:         %[[V:.*]] = arith.constant dense<{{.*}}> : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    hk.store %[[V]], %[[L]][%[[I]], %[[I]], %[[I]]] : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, memref<?x?x?xf32>
hk.kernel @store_vector(%L: memref<?x?x?xf32>, %i: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %v = arith.constant dense<2.0> : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.store %v, %L[%i, %i, %i] : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, memref<?x?x?xf32>
  hk.return
}

// -----

// A shared tile straight to global memory, rank 2 and rank 4.
// CHECK-LABEL: hk.kernel @store_shared_to_global(
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xbf16>, %[[O:[^:]*]]: memref<?x?x?x?xbf16>, %[[I:[^:]*]]: index)
// CHECK:         %[[S:.*]] = hk.alloc_shared
// CHECK-NEXT:    hk.store %[[S]], %[[C]][%[[I]], %[[I]]] : !hk.st<128x64xbf16, 16x32>, memref<?x?xbf16>
// CHECK-NEXT:    hk.store %[[S]], %[[O]][%[[I]], %[[I]], %[[I]], %[[I]]] : !hk.st<128x64xbf16, 16x32>, memref<?x?x?x?xbf16>
hk.kernel @store_shared_to_global(%C: memref<?x?xbf16>, %O: memref<?x?x?x?xbf16>, %i: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = hk.alloc_shared : !hk.st<128x64xbf16, 16x32>
  hk.store %s, %C[%i, %i] : !hk.st<128x64xbf16, 16x32>, memref<?x?xbf16>
  hk.store %s, %O[%i, %i, %i, %i] : !hk.st<128x64xbf16, 16x32>, memref<?x?x?x?xbf16>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @atomic_add_rank4(
// CHECK-SAME:    %[[DQ:[^:]*]]: memref<?x?x?x?xf32>, %[[B:[^:]*]]: index, %[[H:[^:]*]]: index, %[[I:[^:]*]]: index)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[T:.*]] = arith.constant dense<{{.*}}> : tensor<32x128xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    hk.atomic_add %[[T]], %[[DQ]][%[[B]], %[[H]], %[[I]], %[[C0]]] : tensor<32x128xf32, #hk.rt<col, 16x16>>, memref<?x?x?x?xf32>
hk.kernel @atomic_add_rank4(%dQ: memref<?x?x?x?xf32>, %b: index, %h: index, %i: index)
    attributes {waves = 8 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0)>} {
  %c0 = arith.constant 0 : index
  %dq = arith.constant dense<0.5> : tensor<32x128xf32, #hk.rt<col, 16x16>>
  hk.atomic_add %dq, %dQ[%b, %h, %i, %c0] : tensor<32x128xf32, #hk.rt<col, 16x16>>, memref<?x?x?x?xf32>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @atomic_add_rank2(
// CHECK-SAME:    %[[G:[^:]*]]: memref<256x256xf32>, %[[I:[^:]*]]: index)
// CHECK:         %[[T:.*]] = arith.constant dense<{{.*}}> : tensor<64x64xf32, #hk.rt<row, 32x16>>
// CHECK-NEXT:    hk.atomic_add %[[T]], %[[G]][%[[I]], %[[I]]] : tensor<64x64xf32, #hk.rt<row, 32x16>>, memref<256x256xf32>
hk.kernel @atomic_add_rank2(%g: memref<256x256xf32>, %i: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (16)>} {
  %t = arith.constant dense<1.0> : tensor<64x64xf32, #hk.rt<row, 32x16>>
  hk.atomic_add %t, %g[%i, %i] : tensor<64x64xf32, #hk.rt<row, 32x16>>, memref<256x256xf32>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// MMA
//===----------------------------------------------------------------------===//

// ab: A is MxK row, B is KxN col.
// CHECK-LABEL: hk.kernel @mma_ab(
// CHECK:         %[[A:.*]] = hk.load %{{.*}} -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
// CHECK-NEXT:    %[[B:.*]] = hk.load %{{.*}} -> tensor<64x32xbf16, #hk.rt<col, 32x16>>
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    %{{.*}} = hk.mma ab %[[A]], %[[B]], %[[C]] : tensor<64x64xbf16, #hk.rt<row, 16x32>>, tensor<64x32xbf16, #hk.rt<col, 32x16>>, tensor<64x32xf32, #hk.rt<col, 16x16>>
hk.kernel @mma_ab(%A: memref<?x?xbf16>) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
  %b = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<64x32xbf16, #hk.rt<col, 32x16>>
  %c = arith.constant dense<0.0> : tensor<64x32xf32, #hk.rt<col, 16x16>>
  %d = hk.mma ab %a, %b, %c : tensor<64x64xbf16, #hk.rt<row, 16x32>>, tensor<64x32xbf16, #hk.rt<col, 32x16>>, tensor<64x32xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// abt: B given as NxK row.
// CHECK-LABEL: hk.kernel @mma_abt(
// CHECK:         %[[A:.*]] = hk.load %{{.*}} -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
// CHECK-NEXT:    %[[B:.*]] = hk.load %{{.*}} -> tensor<32x64xbf16, #hk.rt<row, 16x32>>
// CHECK-NEXT:    %[[C:.*]] = arith.constant
// CHECK-NEXT:    %{{.*}} = hk.mma abt %[[A]], %[[B]], %[[C]] : tensor<64x64xbf16, #hk.rt<row, 16x32>>, tensor<32x64xbf16, #hk.rt<row, 16x32>>, tensor<64x32xf32, #hk.rt<col, 16x16>>
hk.kernel @mma_abt(%A: memref<?x?xbf16>) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
  %b = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<32x64xbf16, #hk.rt<row, 16x32>>
  %c = arith.constant dense<0.0> : tensor<64x32xf32, #hk.rt<col, 16x16>>
  %d = hk.mma abt %a, %b, %c : tensor<64x64xbf16, #hk.rt<row, 16x32>>, tensor<32x64xbf16, #hk.rt<row, 16x32>>, tensor<64x32xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// atb: A given as KxM col.
// CHECK-LABEL: hk.kernel @mma_atb(
// CHECK:         %[[A:.*]] = hk.load %{{.*}} -> tensor<64x32xf16, #hk.rt<col, 32x16>>
// CHECK-NEXT:    %[[B:.*]] = hk.load %{{.*}} -> tensor<64x16xf16, #hk.rt<col, 32x16>>
// CHECK-NEXT:    %[[C:.*]] = arith.constant
// CHECK-NEXT:    %{{.*}} = hk.mma atb %[[A]], %[[B]], %[[C]] : tensor<64x32xf16, #hk.rt<col, 32x16>>, tensor<64x16xf16, #hk.rt<col, 32x16>>, tensor<32x16xf32, #hk.rt<col, 16x16>>
hk.kernel @mma_atb(%A: memref<?x?xf16>) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf16> -> tensor<64x32xf16, #hk.rt<col, 32x16>>
  %b = hk.load %A[%c0, %c0] : memref<?x?xf16> -> tensor<64x16xf16, #hk.rt<col, 32x16>>
  %c = arith.constant dense<0.0> : tensor<32x16xf32, #hk.rt<col, 16x16>>
  %d = hk.mma atb %a, %b, %c : tensor<64x32xf16, #hk.rt<col, 32x16>>, tensor<64x16xf16, #hk.rt<col, 32x16>>, tensor<32x16xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// atbt: both transposed.
// CHECK-LABEL: hk.kernel @mma_atbt(
// CHECK:         %[[A:.*]] = hk.load %{{.*}} -> tensor<32x32xbf16, #hk.rt<col, 32x16>>
// CHECK-NEXT:    %[[B:.*]] = hk.load %{{.*}} -> tensor<48x32xbf16, #hk.rt<row, 16x32>>
// CHECK-NEXT:    %[[C:.*]] = arith.constant
// CHECK-NEXT:    %{{.*}} = hk.mma atbt %[[A]], %[[B]], %[[C]] : tensor<32x32xbf16, #hk.rt<col, 32x16>>, tensor<48x32xbf16, #hk.rt<row, 16x32>>, tensor<32x48xf32, #hk.rt<col, 16x16>>
hk.kernel @mma_atbt(%A: memref<?x?xbf16>) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<32x32xbf16, #hk.rt<col, 32x16>>
  %b = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<48x32xbf16, #hk.rt<row, 16x32>>
  %c = arith.constant dense<0.0> : tensor<32x48xf32, #hk.rt<col, 16x16>>
  %d = hk.mma atbt %a, %b, %c : tensor<32x32xbf16, #hk.rt<col, 32x16>>, tensor<48x32xbf16, #hk.rt<row, 16x32>>, tensor<32x48xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// The 32x32 accumulator keeps four-element groups (the D layout of the
// 32x32 MFMAs), so `group = 4` is printed.
// CHECK-LABEL: hk.kernel @mma_32x32(
// CHECK:         %[[A:.*]] = hk.load %{{.*}} -> tensor<64x64xbf16, #hk.rt<row, 32x16>>
// CHECK-NEXT:    %[[B:.*]] = hk.load %{{.*}} -> tensor<64x64xbf16, #hk.rt<row, 32x16>>
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #hk.rt<col, 32x32, group = 4>>
// CHECK-NEXT:    %[[D:.*]] = hk.mma abt %[[A]], %[[B]], %[[C]] : tensor<64x64xbf16, #hk.rt<row, 32x16>>, tensor<64x64xbf16, #hk.rt<row, 32x16>>, tensor<64x64xf32, #hk.rt<col, 32x32, group = 4>>
// The result chains into the next MMA as its accumulator.
// CHECK-NEXT:    %{{.*}} = hk.mma abt %[[A]], %[[B]], %[[D]] :
hk.kernel @mma_32x32(%A: memref<?x?xbf16>) attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16, #hk.rt<row, 32x16>>
  %b = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16, #hk.rt<row, 32x16>>
  %c = arith.constant dense<0.0> : tensor<64x64xf32, #hk.rt<col, 32x32, group = 4>>
  %d = hk.mma abt %a, %b, %c : tensor<64x64xbf16, #hk.rt<row, 32x16>>, tensor<64x64xbf16, #hk.rt<row, 32x16>>, tensor<64x64xf32, #hk.rt<col, 32x32, group = 4>>
  %e = hk.mma abt %a, %b, %d : tensor<64x64xbf16, #hk.rt<row, 32x16>>, tensor<64x64xbf16, #hk.rt<row, 32x16>>, tensor<64x64xf32, #hk.rt<col, 32x32, group = 4>>
  hk.return
}

// -----

// Operands with 32x32 base tiles and group = 4, as A and B agree on it: the
// 32x32 accumulator S^T, relabelled by hk.transpose and converted to bf16,
// is the A operand of P V (attention), with V in the same grouping.
// CHECK-LABEL: func.func @mma_grouped_operands(
// CHECK:         %[[S:.*]] = hk.transpose %{{.*}} : tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>> -> tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>>
// CHECK-NEXT:    %[[P:.*]] = arith.truncf %[[S]]
// CHECK-NEXT:    hk.mma ab %[[P]], %{{.*}}, %{{.*}} : tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>, tensor<64x128xbf16, #hk.rt<col, 32x32, group = 4>>, tensor<32x128xf32, #hk.rt<col, 32x32, group = 4>>
// B given as NxK (abt), also row 32x32 with group = 4.
// CHECK-NEXT:    hk.mma abt %[[P]], %{{.*}}, %{{.*}} : tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>, tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>, tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
func.func @mma_grouped_operands(
    %st: tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>,
    %v: tensor<64x128xbf16, #hk.rt<col, 32x32, group = 4>>,
    %o: tensor<32x128xf32, #hk.rt<col, 32x32, group = 4>>,
    %k: tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>,
    %c: tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>) {
  %s = hk.transpose %st : tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>> -> tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>>
  %p = arith.truncf %s : tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>> to tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>
  %d = hk.mma ab %p, %v, %o : tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>, tensor<64x128xbf16, #hk.rt<col, 32x32, group = 4>>, tensor<32x128xf32, #hk.rt<col, 32x32, group = 4>>
  %e = hk.mma abt %p, %k, %c : tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>, tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>, tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  return
}

// -----

// 8-bit float inputs with the 16x128 base tile.
// CHECK-LABEL: hk.kernel @mma_fp8(
// CHECK:         %[[A:.*]] = hk.load %{{.*}} -> tensor<32x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>
// CHECK-NEXT:    %[[B:.*]] = hk.load %{{.*}} -> tensor<32x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>
// CHECK-NEXT:    %[[C:.*]] = arith.constant
// CHECK-NEXT:    %{{.*}} = hk.mma abt %[[A]], %[[B]], %[[C]] : tensor<32x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>, tensor<32x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
hk.kernel @mma_fp8(%A: memref<?x?xf8E4M3FNUZ>) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf8E4M3FNUZ> -> tensor<32x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>
  %b = hk.load %A[%c0, %c0] : memref<?x?xf8E4M3FNUZ> -> tensor<32x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>
  %c = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  %d = hk.mma abt %a, %b, %c : tensor<32x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>, tensor<32x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// ab with 8-bit floats of the OCP kind (gfx950): B is a 128x16 col tile.
// CHECK-LABEL: hk.kernel @mma_fp8_ab(
// CHECK:         hk.mma ab %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128>>, tensor<128x16xf8E4M3FN, #hk.rt<col, 128x16>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
hk.kernel @mma_fp8_ab(%A: memref<?x?xf8E4M3FN>) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf8E4M3FN> -> tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128>>
  %b = hk.load %A[%c0, %c0] : memref<?x?xf8E4M3FN> -> tensor<128x16xf8E4M3FN, #hk.rt<col, 128x16>>
  %c = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d = hk.mma ab %a, %b, %c : tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128>>, tensor<128x16xf8E4M3FN, #hk.rt<col, 128x16>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// Reductions and broadcasts
//===----------------------------------------------------------------------===//

// CHECK-LABEL: hk.kernel @any(
// CHECK:         %{{.*}} = hk.any %{{.*}} : tensor<32x64xi1, #hk.rt<col, 16x16>>
// CHECK:         %{{.*}} = hk.any %{{.*}} expect false : tensor<32xi1, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK:         %{{.*}} = hk.any %{{.*}} expect true : tensor<32xi1, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @any() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %m = arith.constant dense<1.0> : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %p = arith.cmpf ogt, %s, %s : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %a = hk.any %p : tensor<32x64xi1, #hk.rt<col, 16x16>>
  %q = arith.cmpf olt, %m, %m : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %b = hk.any %q expect false : tensor<32xi1, #hk.rv<row, #hk.rt<col, 16x16>>>
  %c = hk.any %q expect true : tensor<32xi1, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @row_reduce_no_init(
// CHECK:         %[[S:.*]] = arith.constant
// CHECK-NEXT:    %{{.*}} = hk.row_reduce max %[[S]] : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.row_reduce min %[[S]] : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.row_reduce sum %[[S]] : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @row_reduce_no_init() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %m = hk.row_reduce max %s : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %n = hk.row_reduce min %s : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %l = hk.row_reduce sum %s : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @row_reduce_init(
// CHECK:         %[[S:.*]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[M0:.*]] = arith.constant dense<0xFF800000>
// CHECK-NEXT:    %[[M:.*]] = hk.row_reduce max %[[S]] init %[[M0]] : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.row_reduce sum %[[S]] init %[[M]] : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @row_reduce_init() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %m0 = arith.constant dense<0xFF800000> : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %m = hk.row_reduce max %s init %m0 : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %l = hk.row_reduce sum %s init %m : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.return
}

// -----

// Reductions of a row-layout bf16 tile and of a 32x32 accumulator.
// CHECK-LABEL: hk.kernel @row_reduce_layouts(
// CHECK:         hk.row_reduce max %{{.*}} : tensor<64x64xbf16, #hk.rt<row, 16x32>> -> tensor<64xbf16, #hk.rv<row, #hk.rt<row, 16x32>>>
// CHECK-NEXT:    hk.row_reduce sum %{{.*}} : tensor<64x64xf32, #hk.rt<col, 32x32, group = 4>> -> tensor<64xf32, #hk.rv<row, #hk.rt<col, 32x32, group = 4>>>
hk.kernel @row_reduce_layouts() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<1.0> : tensor<64x64xbf16, #hk.rt<row, 16x32>>
  %c = arith.constant dense<1.0> : tensor<64x64xf32, #hk.rt<col, 32x32, group = 4>>
  %x = hk.row_reduce max %a : tensor<64x64xbf16, #hk.rt<row, 16x32>> -> tensor<64xbf16, #hk.rv<row, #hk.rt<row, 16x32>>>
  %y = hk.row_reduce sum %c : tensor<64x64xf32, #hk.rt<col, 32x32, group = 4>> -> tensor<64xf32, #hk.rv<row, #hk.rt<col, 32x32, group = 4>>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @col_reduce(
// CHECK:         %[[T:.*]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant dense<0.000000e+00>
// CHECK-NEXT:    %{{.*}} = hk.col_reduce sum %[[T]] : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.col_reduce max %[[T]] init %[[Z]] : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.col_reduce min %[[T]] init %[[Z]] : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
hk.kernel @col_reduce() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %t = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %z = arith.constant dense<0.0> : tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  %s = hk.col_reduce sum %t : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  %m = hk.col_reduce max %t init %z : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  %n = hk.col_reduce min %t init %z : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @row_broadcast_kinds(
// CHECK:         %[[S:.*]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[V:.*]] = arith.constant dense<2.000000e+00>
// CHECK-NEXT:    %{{.*}} = hk.row_broadcast add %[[S]], %[[V]] : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.row_broadcast sub %[[S]], %[[V]] : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.row_broadcast mul %[[S]], %[[V]] : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.row_broadcast div %[[S]], %[[V]] : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.row_broadcast max %[[S]], %[[V]] : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.row_broadcast min %[[S]], %[[V]] : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.row_broadcast copy %[[S]], %[[V]] : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @row_broadcast_kinds() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %v = arith.constant dense<2.0> : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %0 = hk.row_broadcast add %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %1 = hk.row_broadcast sub %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %2 = hk.row_broadcast mul %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %3 = hk.row_broadcast div %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %4 = hk.row_broadcast max %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %5 = hk.row_broadcast min %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %6 = hk.row_broadcast copy %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.return
}

// -----

// The vector produced by row_reduce broadcasts back onto its tile.
// CHECK-LABEL: hk.kernel @reduce_then_broadcast(
// CHECK:         %[[S:.*]] = arith.constant
// CHECK-NEXT:    %[[M:.*]] = hk.row_reduce max %[[S]] : tensor<64x32xbf16, #hk.rt<row, 16x32>> -> tensor<64xbf16, #hk.rv<row, #hk.rt<row, 16x32>>>
// CHECK-NEXT:    %{{.*}} = hk.row_broadcast sub %[[S]], %[[M]] : tensor<64x32xbf16, #hk.rt<row, 16x32>>, tensor<64xbf16, #hk.rv<row, #hk.rt<row, 16x32>>>
hk.kernel @reduce_then_broadcast() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = arith.constant dense<1.0> : tensor<64x32xbf16, #hk.rt<row, 16x32>>
  %m = hk.row_reduce max %s : tensor<64x32xbf16, #hk.rt<row, 16x32>> -> tensor<64xbf16, #hk.rv<row, #hk.rt<row, 16x32>>>
  %p = hk.row_broadcast sub %s, %m : tensor<64x32xbf16, #hk.rt<row, 16x32>>, tensor<64xbf16, #hk.rv<row, #hk.rt<row, 16x32>>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @col_broadcast(
// CHECK:         %[[S:.*]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[V:.*]] = arith.constant dense<2.000000e+00>
// CHECK-NEXT:    %{{.*}} = hk.col_broadcast mul %[[S]], %[[V]] : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.col_broadcast sub %[[S]], %[[V]] : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.col_broadcast copy %[[S]], %[[V]] : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
hk.kernel @col_broadcast() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %v = arith.constant dense<2.0> : tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  %0 = hk.col_broadcast mul %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  %1 = hk.col_broadcast sub %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  %2 = hk.col_broadcast copy %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// Masks
//===----------------------------------------------------------------------===//

// Without `diagonal` the default 0 applies and nothing is printed.
// CHECK-LABEL: hk.kernel @tril_default(
// CHECK-SAME:    %[[Q0:[^:]*]]: index, %[[K0:[^:]*]]: index)
// CHECK:         %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense
// CHECK-NEXT:    %{{.*}} = hk.tril %[[S]] at [%[[Q0]], %[[K0]]] fill %[[NEGINF]] : tensor<32x64xf32, #hk.rt<col, 16x16>>{{$}}
hk.kernel @tril_default(%q0: index, %k0: index) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %neginf = arith.constant 0xFF800000 : f32
  %s = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %s2 = hk.tril %s at [%q0, %k0] fill %neginf : tensor<32x64xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @tril_diagonal(
// CHECK-SAME:    %[[Q0:[^:]*]]: index, %[[K0:[^:]*]]: index)
// CHECK:         %[[F:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense
// CHECK-NEXT:    %{{.*}} = hk.tril %[[S]] at [%[[Q0]], %[[K0]]] fill %[[F]] diagonal = 3 : tensor<64x32xbf16, #hk.rt<row, 16x32>>
// CHECK-NEXT:    %{{.*}} = hk.tril %[[S]] at [%[[Q0]], %[[K0]]] fill %[[F]] diagonal = -1 : tensor<64x32xbf16, #hk.rt<row, 16x32>>
hk.kernel @tril_diagonal(%q0: index, %k0: index) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %f = arith.constant 0.0 : bf16
  %s = arith.constant dense<1.0> : tensor<64x32xbf16, #hk.rt<row, 16x32>>
  %a = hk.tril %s at [%q0, %k0] fill %f diagonal = 3 : tensor<64x32xbf16, #hk.rt<row, 16x32>>
  %b = hk.tril %s at [%q0, %k0] fill %f diagonal = -1 : tensor<64x32xbf16, #hk.rt<row, 16x32>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @triu_default(
// CHECK-SAME:    %[[R0:[^:]*]]: index, %[[C0:[^:]*]]: index)
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense
// CHECK-NEXT:    %{{.*}} = hk.triu %[[S]] at [%[[R0]], %[[C0]]] fill %[[Z]] : tensor<32x64xf32, #hk.rt<col, 16x16>>{{$}}
hk.kernel @triu_default(%r0: index, %c0: index) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %zero = arith.constant 0.0 : f32
  %s = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %u = hk.triu %s at [%r0, %c0] fill %zero : tensor<32x64xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @triu_diagonal(
// CHECK-SAME:    %[[R0:[^:]*]]: index, %[[C0:[^:]*]]: index)
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense
// CHECK-NEXT:    %{{.*}} = hk.triu %[[S]] at [%[[R0]], %[[C0]]] fill %[[Z]] diagonal = 1 : tensor<32x64xf32, #hk.rt<col, 32x32, group = 4>>
hk.kernel @triu_diagonal(%r0: index, %c0: index) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %zero = arith.constant 0.0 : f32
  %s = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<col, 32x32, group = 4>>
  %u = hk.triu %s at [%r0, %c0] fill %zero diagonal = 1 : tensor<32x64xf32, #hk.rt<col, 32x32, group = 4>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @bounds_mask(
// CHECK-SAME:    %[[Q0:[^:]*]]: index, %[[K0:[^:]*]]: index, %[[N:[^:]*]]: index, %[[M:[^:]*]]: index)
// CHECK:         %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense
// CHECK-NEXT:    %{{.*}} = hk.bounds_mask %[[S]] at [%[[Q0]], %[[K0]]] within [%[[N]], %[[M]]] fill %[[NEGINF]] : tensor<32x64xf32, #hk.rt<col, 16x16>>
hk.kernel @bounds_mask(%q0: index, %k0: index, %n: index, %m: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %neginf = arith.constant 0xFF800000 : f32
  %s = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %s2 = hk.bounds_mask %s at [%q0, %k0] within [%n, %m] fill %neginf : tensor<32x64xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// An integer tile masked with an integer fill.
// CHECK-LABEL: hk.kernel @bounds_mask_i32(
// CHECK:         %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense<7>
// CHECK-NEXT:    %{{.*}} = hk.bounds_mask %[[S]] at [%{{.*}}, %{{.*}}] within [%{{.*}}, %{{.*}}] fill %[[Z]] : tensor<16x16xi32, #hk.rt<row, 16x16>>
hk.kernel @bounds_mask_i32(%n: index) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %z = arith.constant 0 : i32
  %s = arith.constant dense<7> : tensor<16x16xi32, #hk.rt<row, 16x16>>
  %s2 = hk.bounds_mask %s at [%n, %n] within [%n, %n] fill %z : tensor<16x16xi32, #hk.rt<row, 16x16>>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: hk.kernel @transpose_row_to_col(
// CHECK:         %[[K:.*]] = arith.constant
// CHECK-NEXT:    %{{.*}} = hk.transpose %[[K]] : tensor<64x128xbf16, #hk.rt<row, 16x32>> -> tensor<128x64xbf16, #hk.rt<col, 32x16>>
hk.kernel @transpose_row_to_col() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %k = arith.constant dense<1.0> : tensor<64x128xbf16, #hk.rt<row, 16x32>>
  %kt = hk.transpose %k : tensor<64x128xbf16, #hk.rt<row, 16x32>> -> tensor<128x64xbf16, #hk.rt<col, 32x16>>
  hk.return
}

// -----

// The group is carried over by a transpose.
// CHECK-LABEL: hk.kernel @transpose_col_to_row_group(
// CHECK:         %[[C:.*]] = arith.constant
// CHECK-NEXT:    %{{.*}} = hk.transpose %[[C]] : tensor<32x64xf32, #hk.rt<col, 32x32, group = 4>> -> tensor<64x32xf32, #hk.rt<row, 32x32, group = 4>>
hk.kernel @transpose_col_to_row_group() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<col, 32x32, group = 4>>
  %t = hk.transpose %c : tensor<32x64xf32, #hk.rt<col, 32x32, group = 4>> -> tensor<64x32xf32, #hk.rt<row, 32x32, group = 4>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @swap_layout(
// CHECK:         %[[A:.*]] = arith.constant
// CHECK-NEXT:    %[[B:.*]] = hk.swap_layout %[[A]] : tensor<64x64xbf16, #hk.rt<row, 16x32>> -> tensor<64x64xbf16, #hk.rt<col, 32x16>>
// CHECK-NEXT:    %{{.*}} = hk.swap_layout %[[B]] : tensor<64x64xbf16, #hk.rt<col, 32x16>> -> tensor<64x64xbf16, #hk.rt<col, 32x16, group = 2>>
hk.kernel @swap_layout() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<1.0> : tensor<64x64xbf16, #hk.rt<row, 16x32>>
  %b = hk.swap_layout %a : tensor<64x64xbf16, #hk.rt<row, 16x32>> -> tensor<64x64xbf16, #hk.rt<col, 32x16>>
  %c = hk.swap_layout %b : tensor<64x64xbf16, #hk.rt<col, 32x16>> -> tensor<64x64xbf16, #hk.rt<col, 32x16, group = 2>>
  hk.return
}

// -----

// Swapping to the same layout is legal; it is kept until canonicalised.
// CHECK-LABEL: hk.kernel @swap_layout_same(
// CHECK:         %[[A:.*]] = arith.constant
// CHECK-NEXT:    %{{.*}} = hk.swap_layout %[[A]] : tensor<32x32xf32, #hk.rt<col, 16x16>> -> tensor<32x32xf32, #hk.rt<col, 16x16>>
hk.kernel @swap_layout_same() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<1.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  %b = hk.swap_layout %a : tensor<32x32xf32, #hk.rt<col, 16x16>> -> tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// Elementwise math on tiles is plain arith/math on the tensors.
// CHECK-LABEL: hk.kernel @elementwise(
// CHECK:         %[[A:.*]] = arith.constant
// CHECK-NEXT:    %[[E:.*]] = math.exp2 %[[A]] : tensor<32x32xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[A]], %[[E]] : tensor<32x32xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    %{{.*}} = arith.truncf %[[S]] : tensor<32x32xf32, #hk.rt<col, 16x16>> to tensor<32x32xbf16, #hk.rt<col, 16x16>>
hk.kernel @elementwise() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<1.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  %e = math.exp2 %a : tensor<32x32xf32, #hk.rt<col, 16x16>>
  %s = arith.addf %a, %e : tensor<32x32xf32, #hk.rt<col, 16x16>>
  %t = arith.truncf %s : tensor<32x32xf32, #hk.rt<col, 16x16>> to tensor<32x32xbf16, #hk.rt<col, 16x16>>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// Synchronisation and scheduling
//===----------------------------------------------------------------------===//

// CHECK-LABEL: hk.kernel @barrier(
// CHECK-NEXT:    hk.barrier{{$}}
// CHECK-NEXT:    hk.barrier{{$}}
// CHECK-NEXT:    hk.return
hk.kernel @barrier() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.barrier
  hk.barrier
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @set_prio(
// CHECK-NEXT:    hk.set_prio 0{{$}}
// CHECK-NEXT:    hk.set_prio 1{{$}}
// CHECK-NEXT:    hk.set_prio 2{{$}}
// CHECK-NEXT:    hk.set_prio 3{{$}}
hk.kernel @set_prio() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.set_prio 0
  hk.set_prio 1
  hk.set_prio 2
  hk.set_prio 3
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @sched_barrier(
// CHECK-NEXT:    hk.sched_barrier 0{{$}}
// CHECK-NEXT:    hk.sched_barrier 2047{{$}}
hk.kernel @sched_barrier() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.sched_barrier 0
  hk.sched_barrier 2047
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @sched_group(
// CHECK-NEXT:    hk.sched_group mask = 8, size = 1, sync = 0{{$}}
// CHECK-NEXT:    hk.sched_group mask = 256, size = 2, sync = 0{{$}}
// CHECK-NEXT:    hk.sched_group mask = 2047, size = 6, sync = 3{{$}}
hk.kernel @sched_group() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.sched_group mask = 8, size = 1, sync = 0
  hk.sched_group mask = 256, size = 2, sync = 0
  hk.sched_group mask = 2047, size = 6, sync = 3
  hk.return
}

// -----

// Without results, the terminators are implicit and not printed.
// CHECK-LABEL: hk.kernel @ping_pong_no_results(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16>)
// CHECK:         %[[S:.*]] = hk.alloc_shared
// CHECK-NEXT:    hk.ping_pong {
// CHECK-NEXT:      hk.cluster memory {
// CHECK-NEXT:        %[[T:.*]] = hk.load_async %[[A]]
// CHECK-NEXT:        hk.wait %[[T]]
// CHECK-NEXT:      }
// CHECK-NEXT:      hk.barrier
// CHECK-NEXT:      hk.cluster compute {
// CHECK-NEXT:        %{{.*}} = hk.wave_id
// CHECK-NOT:         hk.yield
// CHECK:           }
// CHECK-NEXT:    }
// CHECK-NEXT:    hk.return
hk.kernel @ping_pong_no_results(%A: memref<?x?xbf16>) attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  hk.ping_pong {
    hk.cluster memory {
      %t = hk.load_async %A[%c0, %c0], %s : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
      hk.wait %t
    }
    hk.barrier
    hk.cluster compute {
      %w = hk.wave_id
    }
  }
  hk.return
}

// -----

// An explicit empty hk.yield prints as the implicit terminator.
// CHECK-LABEL: hk.kernel @ping_pong_explicit_yield(
// CHECK:         hk.ping_pong {
// CHECK-NEXT:      hk.cluster compute {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    hk.return
hk.kernel @ping_pong_explicit_yield() attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  hk.ping_pong {
    hk.cluster compute {
      hk.yield
    }
    hk.yield
  }
  hk.return
}

// -----

// Results leave the clusters and the region through hk.yield; the main loop
// sits inside the ping-pong region.
// CHECK-LABEL: hk.kernel @ping_pong_results(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16>, %[[C:[^:]*]]: memref<?x?xf32>, %[[N:[^:]*]]: index)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[ACC0:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #hk.rt<col, 16x16>>
// CHECK:         %[[S:.*]] = hk.alloc_shared
// CHECK-NEXT:    %[[R:.*]] = hk.ping_pong -> tensor<64x64xf32, #hk.rt<col, 16x16>> {
// CHECK-NEXT:      %[[LOOP:.*]] = scf.for %[[K:.*]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[ACC0]]) -> (tensor<64x64xf32, #hk.rt<col, 16x16>>) {
// CHECK-NEXT:        %[[A2:.*]] = hk.cluster memory -> tensor<64x64xbf16, #hk.rt<row, 16x32>> {
// CHECK-NEXT:          %[[T:.*]] = hk.load_async %[[A]][%[[C0]], %[[K]]], %[[S]]
// CHECK-NEXT:          hk.wait %[[T]]
// CHECK-NEXT:          %[[AT:.*]] = hk.load %[[S]]
// CHECK-NEXT:          hk.yield %[[AT]] : tensor<64x64xbf16, #hk.rt<row, 16x32>>
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[D:.*]] = hk.cluster compute -> tensor<64x64xf32, #hk.rt<col, 16x16>> {
// CHECK-NEXT:          %[[M:.*]] = hk.mma abt %[[A2]], %[[A2]], %[[ACC]]
// CHECK-NEXT:          hk.yield %[[M]] : tensor<64x64xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.yield %[[D]] : tensor<64x64xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:      }
// CHECK-NEXT:      hk.yield %[[LOOP]] : tensor<64x64xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    }
// CHECK-NEXT:    hk.store %[[R]], %[[C]][%[[C0]], %[[C0]]] : tensor<64x64xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
hk.kernel @ping_pong_results(%A: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index)
    attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #hk.rt<col, 16x16>>
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %r = hk.ping_pong -> tensor<64x64xf32, #hk.rt<col, 16x16>> {
    %loop = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #hk.rt<col, 16x16>>) {
      %a = hk.cluster memory -> tensor<64x64xbf16, #hk.rt<row, 16x32>> {
        %t = hk.load_async %A[%c0, %k], %s : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
        hk.wait %t
        %at = hk.load %s : !hk.st<64x64xbf16, 16x32> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
        hk.yield %at : tensor<64x64xbf16, #hk.rt<row, 16x32>>
      }
      %d = hk.cluster compute -> tensor<64x64xf32, #hk.rt<col, 16x16>> {
        %m = hk.mma abt %a, %a, %acc : tensor<64x64xbf16, #hk.rt<row, 16x32>>, tensor<64x64xbf16, #hk.rt<row, 16x32>>, tensor<64x64xf32, #hk.rt<col, 16x16>>
        hk.yield %m : tensor<64x64xf32, #hk.rt<col, 16x16>>
      }
      scf.yield %d : tensor<64x64xf32, #hk.rt<col, 16x16>>
    }
    hk.yield %loop : tensor<64x64xf32, #hk.rt<col, 16x16>>
  }
  hk.store %r, %C[%c0, %c0] : tensor<64x64xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// -----

// Several results of different types.
// CHECK-LABEL: hk.kernel @ping_pong_two_results(
// CHECK:         %[[R:.*]]:2 = hk.ping_pong -> index, tensor<16x16xf32, #hk.rt<col, 16x16>> {
// CHECK-NEXT:      %[[X:.*]]:2 = hk.cluster compute -> index, tensor<16x16xf32, #hk.rt<col, 16x16>> {
// CHECK-NEXT:        %[[W:.*]] = hk.wave_id
// CHECK-NEXT:        hk.yield %[[W]], %[[T:.*]] : index, tensor<16x16xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:      }
// CHECK-NEXT:      hk.yield %[[X]]#0, %[[X]]#1 : index, tensor<16x16xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = arith.addi %[[R]]#0, %[[R]]#0 : index
hk.kernel @ping_pong_two_results() attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %t = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %r:2 = hk.ping_pong -> index, tensor<16x16xf32, #hk.rt<col, 16x16>> {
    %x:2 = hk.cluster compute -> index, tensor<16x16xf32, #hk.rt<col, 16x16>> {
      %w = hk.wave_id
      hk.yield %w, %t : index, tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
    hk.yield %x#0, %x#1 : index, tensor<16x16xf32, #hk.rt<col, 16x16>>
  }
  %s = arith.addi %r#0, %r#0 : index
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @interleave_no_results(
// CHECK:         hk.interleave {
// CHECK-NEXT:      hk.cluster memory {
// CHECK-NEXT:        %{{.*}} = hk.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xbf16> -> tensor<32x32xbf16, #hk.rt<row, 16x32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      hk.cluster compute {
// CHECK-NEXT:        hk.set_prio 1
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    hk.return
hk.kernel @interleave_no_results(%A: memref<?x?xbf16>) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  hk.interleave {
    hk.cluster memory {
      %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<32x32xbf16, #hk.rt<row, 16x32>>
    }
    hk.cluster compute {
      hk.set_prio 1
    }
  }
  hk.return
}

// -----

// The MFMA pairing of a compute cluster, both kinds, with and without
// results; the generic form spells it `pair = #hk<pairing ...>`.
// CHECK-LABEL: hk.kernel @cluster_pairing(
// CHECK:         hk.ping_pong {
// CHECK-NEXT:      %{{.*}} = hk.cluster compute pair = mfma_exp -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
// CHECK-NEXT:        %[[D:.*]] = hk.mma abt
// CHECK-NEXT:        %[[E:.*]] = math.exp2 %[[D]]
// CHECK-NEXT:        hk.yield %[[E]]
// CHECK-NEXT:      }
// CHECK-NEXT:      hk.cluster compute pair = mfma_valu {
// CHECK-NEXT:        hk.mma abt
// CHECK-NEXT:      }
// CHECK-NEXT:      hk.cluster compute {
// CHECK-NEXT:        hk.mma abt
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// GENERIC-LABEL: "hk.kernel"() <{{.*}}sym_name = "cluster_pairing"
// GENERIC:         "hk.cluster"() <{kind = 0 : i32, pair = #hk<pairing mfma_exp>}>
// GENERIC:         "hk.cluster"() <{kind = 0 : i32, pair = #hk<pairing mfma_valu>}>
// GENERIC:         "hk.cluster"() <{kind = 0 : i32}>
hk.kernel @cluster_pairing() attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<1.0> : tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.ping_pong {
    %e = hk.cluster compute pair = mfma_exp -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
      %d = hk.mma abt %a, %a, %z : tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
      %f = math.exp2 %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
      hk.yield %f : tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
    hk.cluster compute pair = mfma_valu {
      %d = hk.mma abt %a, %a, %z : tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
    hk.cluster compute {
      %d = hk.mma abt %a, %a, %z : tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
  }
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @interleave_results(
// CHECK:         %[[C:.*]] = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
// CHECK-NEXT:    %[[R:.*]] = hk.interleave -> tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>> {
// CHECK-NEXT:      %[[B:.*]] = hk.cluster memory -> tensor<32x16xbf16, #hk.rt<row, 32x16>> {
// CHECK-NEXT:        %[[L:.*]] = hk.load
// CHECK-NEXT:        hk.yield %[[L]] : tensor<32x16xbf16, #hk.rt<row, 32x16>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[D:.*]] = hk.cluster compute -> tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>> {
// CHECK-NEXT:        %[[M:.*]] = hk.mma abt %[[B]], %[[B]], %[[C]]
// CHECK-NEXT:        hk.yield %[[M]] : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
// CHECK-NEXT:      }
// CHECK-NEXT:      hk.yield %[[D]] : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
// CHECK-NEXT:    }
hk.kernel @interleave_results(%A: memref<?x?xbf16>) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  %r = hk.interleave -> tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>> {
    %b = hk.cluster memory -> tensor<32x16xbf16, #hk.rt<row, 32x16>> {
      %l = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<32x16xbf16, #hk.rt<row, 32x16>>
      hk.yield %l : tensor<32x16xbf16, #hk.rt<row, 32x16>>
    }
    %d = hk.cluster compute -> tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>> {
      %m = hk.mma abt %b, %b, %c : tensor<32x16xbf16, #hk.rt<row, 32x16>>, tensor<32x16xbf16, #hk.rt<row, 32x16>>, tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
      hk.yield %m : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
    }
    hk.yield %d : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  }
  hk.return
}

// -----

// A memory cluster may store and atomically add; a compute cluster may
// reduce and mask.
// CHECK-LABEL: hk.kernel @cluster_contents(
// CHECK:         hk.interleave {
// CHECK-NEXT:      hk.cluster compute {
// CHECK-NEXT:        %[[M:.*]] = hk.row_reduce max
// CHECK-NEXT:        %{{.*}} = hk.row_broadcast sub %{{.*}}, %[[M]]
// CHECK-NEXT:        %{{.*}} = hk.tril
// CHECK-NEXT:      }
// CHECK-NEXT:      hk.cluster memory {
// CHECK-NEXT:        hk.store
// CHECK-NEXT:        hk.atomic_add
// CHECK-NEXT:      }
// CHECK-NEXT:    }
hk.kernel @cluster_contents(%O: memref<?x?xf32>) attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %f = arith.constant 0.0 : f32
  %s = arith.constant dense<1.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.interleave {
    hk.cluster compute {
      %m = hk.row_reduce max %s : tensor<16x16xf32, #hk.rt<col, 16x16>> -> tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
      %p = hk.row_broadcast sub %s, %m : tensor<16x16xf32, #hk.rt<col, 16x16>>, tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
      %q = hk.tril %p at [%c0, %c0] fill %f : tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
    hk.cluster memory {
      hk.store %s, %O[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
      hk.atomic_add %s, %O[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
    }
  }
  hk.return
}
