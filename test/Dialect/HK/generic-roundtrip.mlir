// Every hk op written in the generic form: it parses, verifies and prints in
// its custom syntax (enum properties become keywords, default-valued and
// absent optional attributes disappear, implicit terminators are elided).
//
// RUN: hk-opt %s -split-input-file | FileCheck %s
// RUN: hk-opt %s -split-input-file | hk-opt -split-input-file --mlir-print-op-generic | hk-opt -split-input-file | FileCheck %s
// The generic form printed from it is a fixed point as well:
// RUN: hk-opt %s -split-input-file --mlir-print-op-generic > %t.g1
// RUN: hk-opt %t.g1 -split-input-file --mlir-print-op-generic > %t.g2
// RUN: diff %t.g1 %t.g2
// RUN: hk-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: hk.kernel @kernel(
// CHECK-SAME:    %{{.*}}: memref<?x?xf32>, %{{.*}}: index)
// CHECK-SAME:    attributes {grid = #hk.grid<[dim(0, 0), arg(1)] -> (s0 ceildiv 64, s1)>, waves = 8 : i32} {
// CHECK-NEXT:    hk.return
// CHECK-NEXT:  }
"hk.kernel"() <{function_type = (memref<?x?xf32>, index) -> (), grid = #hk.grid<[dim(0, 0), arg(1)] -> (s0 ceildiv 64, s1)>, sym_name = "kernel", waves = 8 : i32}> ({
^bb0(%arg0: memref<?x?xf32>, %arg1: index):
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// Grid dimensions are stored as i32 enum values: x = 0, y = 1, z = 2.
// CHECK-LABEL: hk.kernel @ids(
// CHECK:         %{{.*}} = hk.block_id x
// CHECK-NEXT:    %{{.*}} = hk.block_id y
// CHECK-NEXT:    %{{.*}} = hk.num_blocks z
// CHECK-NEXT:    %{{.*}} = hk.wave_id
// GENERIC-LABEL: sym_name = "ids"
// GENERIC:       "hk.block_id"() <{dim = 0 : i32}> : () -> index
// GENERIC-NEXT:  "hk.block_id"() <{dim = 1 : i32}> : () -> index
// GENERIC-NEXT:  "hk.num_blocks"() <{dim = 2 : i32}> : () -> index
// GENERIC-NEXT:  "hk.wave_id"() : () -> index
"hk.kernel"() <{function_type = () -> (), grid = #hk.grid<[] -> (1, 1, 1)>, sym_name = "ids", waves = 4 : i32}> ({
  %0 = "hk.block_id"() <{dim = 0 : i32}> : () -> index
  %1 = "hk.block_id"() <{dim = 1 : i32}> : () -> index
  %2 = "hk.num_blocks"() <{dim = 2 : i32}> : () -> index
  %3 = "hk.wave_id"() : () -> index
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: hk.kernel @remaps(
// CHECK-SAME:    %[[R:[^:]*]]: index, %[[C:[^:]*]]: index)
// CHECK:         %[[ID:.*]] = hk.block_id x
// CHECK-NEXT:    %[[N:.*]] = hk.num_blocks x
// CHECK-NEXT:    %[[ID2:.*]] = hk.xcd_remap %[[ID]], %[[N]] xcds = 8, chunk = 32
// CHECK-NEXT:    %{{.*}}, %{{.*}} = hk.group_remap %[[ID2]], %[[R]], %[[C]] group = 4
"hk.kernel"() <{function_type = (index, index) -> (), grid = #hk.grid<[arg(0), arg(1)] -> (s0 * s1)>, sym_name = "remaps", waves = 8 : i32}> ({
^bb0(%arg0: index, %arg1: index):
  %0 = "hk.block_id"() <{dim = 0 : i32}> : () -> index
  %1 = "hk.num_blocks"() <{dim = 0 : i32}> : () -> index
  %2 = "hk.xcd_remap"(%0, %1) <{chunk = 32 : i64, xcds = 8 : i64}> : (index, index) -> index
  %3:2 = "hk.group_remap"(%2, %arg0, %arg1) <{group = 4 : i64}> : (index, index, index) -> (index, index)
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// Without a `waves` property load_async prints no `waves`; with one it does.
// CHECK-LABEL: hk.kernel @memory(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[S:.*]] = hk.alloc_shared : !hk.st<128x64xbf16, 16x32>
// CHECK-NEXT:    %[[V:.*]] = hk.subtile %[[S]][%[[C0]], %[[C0]]] : !hk.st<128x64xbf16, 16x32> -> !hk.st<64x64xbf16, 16x32>
// CHECK-NEXT:    %[[T0:.*]] = hk.load_async %[[A]][%[[C0]], %[[C0]]], %[[V]] : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
// CHECK-NEXT:    %[[T1:.*]] = hk.load_async %[[A]][%[[C0]], %[[C0]]], %[[V]] waves = 2 : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
// CHECK-NEXT:    hk.wait %[[T0]], %[[T1]]
// GENERIC-LABEL: sym_name = "memory"
// GENERIC:       "hk.load_async"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?x?xbf16>, index, index, !hk.st<64x64xbf16, 16x32>) -> !hk.token
// GENERIC-NEXT:  "hk.load_async"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{waves = 2 : i32}> : (memref<?x?xbf16>, index, index, !hk.st<64x64xbf16, 16x32>) -> !hk.token
"hk.kernel"() <{function_type = (memref<?x?xbf16>) -> (), grid = #hk.grid<[] -> (1)>, sym_name = "memory", waves = 4 : i32}> ({
^bb0(%arg0: memref<?x?xbf16>):
  %c0 = "arith.constant"() <{value = 0 : index}> : () -> index
  %0 = "hk.alloc_shared"() : () -> !hk.st<128x64xbf16, 16x32>
  %1 = "hk.subtile"(%0, %c0, %c0) : (!hk.st<128x64xbf16, 16x32>, index, index) -> !hk.st<64x64xbf16, 16x32>
  %2 = "hk.load_async"(%arg0, %c0, %c0, %1) : (memref<?x?xbf16>, index, index, !hk.st<64x64xbf16, 16x32>) -> !hk.token
  %3 = "hk.load_async"(%arg0, %c0, %c0, %1) <{waves = 2 : i32}> : (memref<?x?xbf16>, index, index, !hk.st<64x64xbf16, 16x32>) -> !hk.token
  "hk.wait"(%2, %3) : (!hk.token, !hk.token) -> ()
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// Loads and stores: with a shared tile there are no indices and no brackets.
// CHECK-LABEL: hk.kernel @load_store(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?x?x?xbf16>, %[[V:[^:]*]]: memref<?xf32>, %[[I:[^:]*]]: index)
// CHECK:         %[[S:.*]] = hk.alloc_shared
// CHECK-NEXT:    %[[T:.*]] = hk.load %[[A]][%[[I]], %[[I]], %[[I]], %[[I]]] : memref<?x?x?x?xbf16> -> tensor<32x64xbf16, #hk.rt<row, 16x32>>
// CHECK-NEXT:    hk.store %[[T]], %[[S]] : tensor<32x64xbf16, #hk.rt<row, 16x32>>, !hk.st<32x64xbf16, 16x32>
// CHECK-NEXT:    %[[U:.*]] = hk.load %[[S]] : !hk.st<32x64xbf16, 16x32> -> tensor<32x64xbf16, #hk.rt<col, 32x16>>
// CHECK-NEXT:    hk.store %[[U]], %[[A]][%[[I]], %[[I]], %[[I]], %[[I]]] : tensor<32x64xbf16, #hk.rt<col, 32x16>>, memref<?x?x?x?xbf16>
// CHECK-NEXT:    hk.store %[[S]], %[[A]][%[[I]], %[[I]], %[[I]], %[[I]]] : !hk.st<32x64xbf16, 16x32>, memref<?x?x?x?xbf16>
// CHECK-NEXT:    %[[W:.*]] = hk.load %[[V]][%[[I]]] : memref<?xf32> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    hk.store %[[W]], %[[V]][%[[I]]] : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, memref<?xf32>
"hk.kernel"() <{function_type = (memref<?x?x?x?xbf16>, memref<?xf32>, index) -> (), grid = #hk.grid<[] -> (1)>, sym_name = "load_store", waves = 4 : i32}> ({
^bb0(%a: memref<?x?x?x?xbf16>, %v: memref<?xf32>, %i: index):
  %s = "hk.alloc_shared"() : () -> !hk.st<32x64xbf16, 16x32>
  %t = "hk.load"(%a, %i, %i, %i, %i) : (memref<?x?x?x?xbf16>, index, index, index, index) -> tensor<32x64xbf16, #hk.rt<row, 16x32>>
  "hk.store"(%t, %s) : (tensor<32x64xbf16, #hk.rt<row, 16x32>>, !hk.st<32x64xbf16, 16x32>) -> ()
  %u = "hk.load"(%s) : (!hk.st<32x64xbf16, 16x32>) -> tensor<32x64xbf16, #hk.rt<col, 32x16>>
  "hk.store"(%u, %a, %i, %i, %i, %i) : (tensor<32x64xbf16, #hk.rt<col, 32x16>>, memref<?x?x?x?xbf16>, index, index, index, index) -> ()
  "hk.store"(%s, %a, %i, %i, %i, %i) : (!hk.st<32x64xbf16, 16x32>, memref<?x?x?x?xbf16>, index, index, index, index) -> ()
  %w = "hk.load"(%v, %i) : (memref<?xf32>, index) -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  "hk.store"(%w, %v, %i) : (tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, memref<?xf32>, index) -> ()
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: hk.kernel @atomic_add(
// CHECK-SAME:    %[[G:[^:]*]]: memref<?x?xf32>, %[[I:[^:]*]]: index)
// CHECK:         %[[T:.*]] = arith.constant
// CHECK-NEXT:    hk.atomic_add %[[T]], %[[G]][%[[I]], %[[I]]] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
"hk.kernel"() <{function_type = (memref<?x?xf32>, index) -> (), grid = #hk.grid<[] -> (1)>, sym_name = "atomic_add", waves = 4 : i32}> ({
^bb0(%g: memref<?x?xf32>, %i: index):
  %t = "arith.constant"() <{value = dense<1.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>}> : () -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  "hk.atomic_add"(%t, %g, %i, %i) : (tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>, index, index) -> ()
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// MMA kinds are stored as ab = 0, abt = 1, atb = 2, atbt = 3. The operands
// are square 16x16 tiles so that one set fits all four kinds.
// CHECK-LABEL: hk.kernel @mma_kinds(
// CHECK:         %[[R:.*]] = arith.constant dense<1.000000e+00> : tensor<16x16xbf16, #hk.rt<row, 16x16>>
// CHECK-NEXT:    %[[CL:.*]] = arith.constant dense<1.000000e+00> : tensor<16x16xbf16, #hk.rt<col, 16x16>>
// CHECK-NEXT:    %[[ACC:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    %[[D0:.*]] = hk.mma ab %[[R]], %[[CL]], %[[ACC]] : tensor<16x16xbf16, #hk.rt<row, 16x16>>, tensor<16x16xbf16, #hk.rt<col, 16x16>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    %[[D1:.*]] = hk.mma abt %[[R]], %[[R]], %[[D0]] : tensor<16x16xbf16, #hk.rt<row, 16x16>>, tensor<16x16xbf16, #hk.rt<row, 16x16>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    %[[D2:.*]] = hk.mma atb %[[CL]], %[[CL]], %[[D1]] : tensor<16x16xbf16, #hk.rt<col, 16x16>>, tensor<16x16xbf16, #hk.rt<col, 16x16>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    %{{.*}} = hk.mma atbt %[[CL]], %[[R]], %[[D2]] : tensor<16x16xbf16, #hk.rt<col, 16x16>>, tensor<16x16xbf16, #hk.rt<row, 16x16>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
"hk.kernel"() <{function_type = () -> (), grid = #hk.grid<[] -> (1)>, sym_name = "mma_kinds", waves = 4 : i32}> ({
  %r = "arith.constant"() <{value = dense<1.0> : tensor<16x16xbf16, #hk.rt<row, 16x16>>}> : () -> tensor<16x16xbf16, #hk.rt<row, 16x16>>
  %c = "arith.constant"() <{value = dense<1.0> : tensor<16x16xbf16, #hk.rt<col, 16x16>>}> : () -> tensor<16x16xbf16, #hk.rt<col, 16x16>>
  %acc = "arith.constant"() <{value = dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>}> : () -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d0 = "hk.mma"(%r, %c, %acc) <{kind = 0 : i32}> : (tensor<16x16xbf16, #hk.rt<row, 16x16>>, tensor<16x16xbf16, #hk.rt<col, 16x16>>, tensor<16x16xf32, #hk.rt<col, 16x16>>) -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d1 = "hk.mma"(%r, %r, %d0) <{kind = 1 : i32}> : (tensor<16x16xbf16, #hk.rt<row, 16x16>>, tensor<16x16xbf16, #hk.rt<row, 16x16>>, tensor<16x16xf32, #hk.rt<col, 16x16>>) -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d2 = "hk.mma"(%c, %c, %d1) <{kind = 2 : i32}> : (tensor<16x16xbf16, #hk.rt<col, 16x16>>, tensor<16x16xbf16, #hk.rt<col, 16x16>>, tensor<16x16xf32, #hk.rt<col, 16x16>>) -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d3 = "hk.mma"(%c, %r, %d2) <{kind = 3 : i32}> : (tensor<16x16xbf16, #hk.rt<col, 16x16>>, tensor<16x16xbf16, #hk.rt<row, 16x16>>, tensor<16x16xf32, #hk.rt<col, 16x16>>) -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// Reduce kinds: max = 0, min = 1, sum = 2; a second operand is the init.
// CHECK-LABEL: hk.kernel @reductions(
// CHECK:         %[[S:.*]] = arith.constant dense<1.000000e+00> : tensor<32x16xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    %[[M:.*]] = hk.row_reduce max %[[S]] : tensor<32x16xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.row_reduce sum %[[S]] init %[[M]] : tensor<32x16xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %[[N:.*]] = hk.col_reduce min %[[S]] : tensor<32x16xf32, #hk.rt<col, 16x16>> -> tensor<16xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.col_reduce sum %[[S]] init %[[N]] : tensor<32x16xf32, #hk.rt<col, 16x16>> -> tensor<16xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
"hk.kernel"() <{function_type = () -> (), grid = #hk.grid<[] -> (1)>, sym_name = "reductions", waves = 4 : i32}> ({
  %s = "arith.constant"() <{value = dense<1.0> : tensor<32x16xf32, #hk.rt<col, 16x16>>}> : () -> tensor<32x16xf32, #hk.rt<col, 16x16>>
  %m = "hk.row_reduce"(%s) <{kind = 0 : i32}> : (tensor<32x16xf32, #hk.rt<col, 16x16>>) -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %l = "hk.row_reduce"(%s, %m) <{kind = 2 : i32}> : (tensor<32x16xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>) -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %n = "hk.col_reduce"(%s) <{kind = 1 : i32}> : (tensor<32x16xf32, #hk.rt<col, 16x16>>) -> tensor<16xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  %o = "hk.col_reduce"(%s, %n) <{kind = 2 : i32}> : (tensor<32x16xf32, #hk.rt<col, 16x16>>, tensor<16xf32, #hk.rv<col, #hk.rt<col, 16x16>>>) -> tensor<16xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// Broadcast kinds: add = 0, sub = 1, mul = 2, div = 3, max = 4, min = 5,
// copy = 6.
// CHECK-LABEL: hk.kernel @broadcasts(
// CHECK:         %[[S:.*]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[R:.*]] = arith.constant dense<2.000000e+00>
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<3.000000e+00>
// CHECK-NEXT:    %[[B0:.*]] = hk.row_broadcast add %[[S]], %[[R]] : tensor<16x32xf32, #hk.rt<col, 16x16>>, tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %[[B1:.*]] = hk.row_broadcast div %[[B0]], %[[R]] :
// CHECK-NEXT:    %[[B2:.*]] = hk.row_broadcast copy %[[B1]], %[[R]] :
// CHECK-NEXT:    %[[B3:.*]] = hk.col_broadcast sub %[[B2]], %[[C]] : tensor<16x32xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %[[B4:.*]] = hk.col_broadcast mul %[[B3]], %[[C]] :
// CHECK-NEXT:    %[[B5:.*]] = hk.col_broadcast max %[[B4]], %[[C]] :
// CHECK-NEXT:    %{{.*}} = hk.col_broadcast min %[[B5]], %[[C]] :
"hk.kernel"() <{function_type = () -> (), grid = #hk.grid<[] -> (1)>, sym_name = "broadcasts", waves = 4 : i32}> ({
  %s = "arith.constant"() <{value = dense<1.0> : tensor<16x32xf32, #hk.rt<col, 16x16>>}> : () -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  %r = "arith.constant"() <{value = dense<2.0> : tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>}> : () -> tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %c = "arith.constant"() <{value = dense<3.0> : tensor<32xf32, #hk.rv<col, #hk.rt<col, 16x16>>>}> : () -> tensor<32xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  %b0 = "hk.row_broadcast"(%s, %r) <{kind = 0 : i32}> : (tensor<16x32xf32, #hk.rt<col, 16x16>>, tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>) -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  %b1 = "hk.row_broadcast"(%b0, %r) <{kind = 3 : i32}> : (tensor<16x32xf32, #hk.rt<col, 16x16>>, tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>) -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  %b2 = "hk.row_broadcast"(%b1, %r) <{kind = 6 : i32}> : (tensor<16x32xf32, #hk.rt<col, 16x16>>, tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>) -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  %b3 = "hk.col_broadcast"(%b2, %c) <{kind = 1 : i32}> : (tensor<16x32xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<col, #hk.rt<col, 16x16>>>) -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  %b4 = "hk.col_broadcast"(%b3, %c) <{kind = 2 : i32}> : (tensor<16x32xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<col, #hk.rt<col, 16x16>>>) -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  %b5 = "hk.col_broadcast"(%b4, %c) <{kind = 4 : i32}> : (tensor<16x32xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<col, #hk.rt<col, 16x16>>>) -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  %b6 = "hk.col_broadcast"(%b5, %c) <{kind = 5 : i32}> : (tensor<16x32xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<col, #hk.rt<col, 16x16>>>) -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// A diagonal of 0, given or not, is the default and is not printed; the
// generic form always carries it.
// CHECK-LABEL: hk.kernel @masks(
// CHECK-SAME:    %[[I:[^:]*]]: index, %[[J:[^:]*]]: index)
// CHECK:         %[[F:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense
// CHECK-NEXT:    %[[A:.*]] = hk.tril %[[S]] at [%[[I]], %[[J]]] fill %[[F]] : tensor<32x32xf32, #hk.rt<col, 16x16>>{{$}}
// CHECK-NEXT:    %[[B:.*]] = hk.tril %[[A]] at [%[[I]], %[[J]]] fill %[[F]] : tensor<32x32xf32, #hk.rt<col, 16x16>>{{$}}
// CHECK-NEXT:    %[[C:.*]] = hk.triu %[[B]] at [%[[J]], %[[I]]] fill %[[F]] diagonal = 2 : tensor<32x32xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    %{{.*}} = hk.bounds_mask %[[C]] at [%[[I]], %[[J]]] within [%[[J]], %[[I]]] fill %[[F]] : tensor<32x32xf32, #hk.rt<col, 16x16>>
// GENERIC-LABEL: sym_name = "masks"
// GENERIC:       "hk.tril"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{diagonal = 0 : i64}>
// GENERIC-NEXT:  "hk.tril"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{diagonal = 0 : i64}>
// GENERIC-NEXT:  "hk.triu"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{diagonal = 2 : i64}>
// GENERIC-NEXT:  "hk.bounds_mask"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) :
"hk.kernel"() <{function_type = (index, index) -> (), grid = #hk.grid<[] -> (1)>, sym_name = "masks", waves = 4 : i32}> ({
^bb0(%i: index, %j: index):
  %f = "arith.constant"() <{value = 0xFF800000 : f32}> : () -> f32
  %s = "arith.constant"() <{value = dense<1.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>}> : () -> tensor<32x32xf32, #hk.rt<col, 16x16>>
  %a = "hk.tril"(%s, %i, %j, %f) : (tensor<32x32xf32, #hk.rt<col, 16x16>>, index, index, f32) -> tensor<32x32xf32, #hk.rt<col, 16x16>>
  %b = "hk.tril"(%a, %i, %j, %f) <{diagonal = 0 : i64}> : (tensor<32x32xf32, #hk.rt<col, 16x16>>, index, index, f32) -> tensor<32x32xf32, #hk.rt<col, 16x16>>
  %c = "hk.triu"(%b, %j, %i, %f) <{diagonal = 2 : i64}> : (tensor<32x32xf32, #hk.rt<col, 16x16>>, index, index, f32) -> tensor<32x32xf32, #hk.rt<col, 16x16>>
  %d = "hk.bounds_mask"(%c, %i, %j, %j, %i, %f) : (tensor<32x32xf32, #hk.rt<col, 16x16>>, index, index, index, index, f32) -> tensor<32x32xf32, #hk.rt<col, 16x16>>
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: hk.kernel @conversions(
// CHECK:         %[[K:.*]] = arith.constant
// CHECK-NEXT:    %[[T:.*]] = hk.transpose %[[K]] : tensor<32x64xbf16, #hk.rt<row, 32x16>> -> tensor<64x32xbf16, #hk.rt<col, 16x32>>
// CHECK-NEXT:    %{{.*}} = hk.swap_layout %[[T]] : tensor<64x32xbf16, #hk.rt<col, 16x32>> -> tensor<64x32xbf16, #hk.rt<row, 16x32>>
"hk.kernel"() <{function_type = () -> (), grid = #hk.grid<[] -> (1)>, sym_name = "conversions", waves = 4 : i32}> ({
  %k = "arith.constant"() <{value = dense<1.0> : tensor<32x64xbf16, #hk.rt<row, 32x16>>}> : () -> tensor<32x64xbf16, #hk.rt<row, 32x16>>
  %t = "hk.transpose"(%k) : (tensor<32x64xbf16, #hk.rt<row, 32x16>>) -> tensor<64x32xbf16, #hk.rt<col, 16x32>>
  %s = "hk.swap_layout"(%t) : (tensor<64x32xbf16, #hk.rt<col, 16x32>>) -> tensor<64x32xbf16, #hk.rt<row, 16x32>>
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: hk.kernel @sync(
// CHECK-NEXT:    hk.barrier
// CHECK-NEXT:    hk.set_prio 3
// CHECK-NEXT:    hk.sched_barrier 6
// CHECK-NEXT:    hk.sched_group mask = 512, size = 3, sync = 1
// CHECK-NEXT:    hk.set_prio 0
// CHECK-NEXT:    hk.return
"hk.kernel"() <{function_type = () -> (), grid = #hk.grid<[] -> (1)>, sym_name = "sync", waves = 4 : i32}> ({
  "hk.barrier"() : () -> ()
  "hk.set_prio"() <{priority = 3 : i32}> : () -> ()
  "hk.sched_barrier"() <{mask = 6 : i32}> : () -> ()
  "hk.sched_group"() <{mask = 512 : i32, size = 3 : i32, sync = 1 : i32}> : () -> ()
  "hk.set_prio"() <{priority = 0 : i32}> : () -> ()
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// Cluster kinds: compute = 0, memory = 1. Empty yields are elided, yields
// with values are printed.
// CHECK-LABEL: hk.kernel @ping_pong(
// CHECK:         %[[R:.*]] = hk.ping_pong -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
// CHECK-NEXT:      hk.cluster memory {
// CHECK-NEXT:        hk.barrier
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[X:.*]] = hk.cluster compute -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
// CHECK-NEXT:        hk.yield %[[C:.*]] : tensor<16x16xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:      }
// CHECK-NEXT:      hk.yield %[[X]] : tensor<16x16xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "ping_pong"
// GENERIC:       "hk.cluster"() <{kind = 1 : i32}> ({
// GENERIC-NEXT:    "hk.barrier"() : () -> ()
// GENERIC-NEXT:    "hk.yield"() : () -> ()
// GENERIC-NEXT:  }) : () -> ()
"hk.kernel"() <{function_type = () -> (), grid = #hk.grid<[] -> (1)>, sym_name = "ping_pong", waves = 8 : i32}> ({
  %c = "arith.constant"() <{value = dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>}> : () -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %r = "hk.ping_pong"() ({
    "hk.cluster"() <{kind = 1 : i32}> ({
      "hk.barrier"() : () -> ()
      "hk.yield"() : () -> ()
    }) : () -> ()
    %x = "hk.cluster"() <{kind = 0 : i32}> ({
      "hk.yield"(%c) : (tensor<16x16xf32, #hk.rt<col, 16x16>>) -> ()
    }) : () -> tensor<16x16xf32, #hk.rt<col, 16x16>>
    "hk.yield"(%x) : (tensor<16x16xf32, #hk.rt<col, 16x16>>) -> ()
  }) : () -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  "hk.return"() : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: hk.kernel @interleave(
// CHECK:         hk.interleave {
// CHECK-NEXT:      hk.cluster compute {
// CHECK-NEXT:      }
// CHECK-NEXT:      hk.cluster memory {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    hk.return
"hk.kernel"() <{function_type = () -> (), grid = #hk.grid<[] -> (1)>, sym_name = "interleave", waves = 4 : i32}> ({
  "hk.interleave"() ({
    "hk.cluster"() <{kind = 0 : i32}> ({
      "hk.yield"() : () -> ()
    }) : () -> ()
    "hk.cluster"() <{kind = 1 : i32}> ({
      "hk.yield"() : () -> ()
    }) : () -> ()
    "hk.yield"() : () -> ()
  }) : () -> ()
  "hk.return"() : () -> ()
}) : () -> ()
