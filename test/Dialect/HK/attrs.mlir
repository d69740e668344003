// Round trip of the hk attributes: register tile layouts (#hk.rt) with every
// base tile and group, register vector layouts (#hk.rv), launch grids
// (#hk.grid), and their canonical printed forms.
//
// RUN: hk-opt %s -split-input-file | hk-opt -split-input-file | FileCheck %s
// RUN: hk-opt %s -split-input-file --mlir-print-op-generic | hk-opt -split-input-file | FileCheck %s
// RUN: hk-opt %s -split-input-file > %t.custom
// RUN: hk-opt %t.custom -split-input-file > %t.again
// RUN: diff %t.custom %t.again
// RUN: hk-opt %s -split-input-file --mlir-print-op-generic > %t.generic
// RUN: hk-opt %t.generic -split-input-file > %t.from-generic
// RUN: diff %t.custom %t.from-generic
// RUN: hk-opt %s -split-input-file --verify-roundtrip > /dev/null
// Folding of hk.swap_layout between equal types:
// RUN: hk-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=CANON

//===----------------------------------------------------------------------===//
// #hk.rt: base tiles
//===----------------------------------------------------------------------===//

// CHECK-LABEL: hk.kernel @rt_16x16(
// CHECK:         tensor<32x32xf32, #hk.rt<row, 16x16>>
// CHECK:         tensor<32x32xf32, #hk.rt<col, 16x16>>
hk.kernel @rt_16x16() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<row, 16x16>>
  %b = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @rt_16x32(
// CHECK:         tensor<32x64xbf16, #hk.rt<row, 16x32>>
// CHECK:         tensor<32x64xbf16, #hk.rt<col, 16x32>>
hk.kernel @rt_16x32() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<32x64xbf16, #hk.rt<row, 16x32>>
  %b = arith.constant dense<0.0> : tensor<32x64xbf16, #hk.rt<col, 16x32>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @rt_32x16(
// CHECK:         tensor<64x32xbf16, #hk.rt<row, 32x16>>
// CHECK:         tensor<64x32xbf16, #hk.rt<col, 32x16>>
hk.kernel @rt_32x16() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<64x32xbf16, #hk.rt<row, 32x16>>
  %b = arith.constant dense<0.0> : tensor<64x32xbf16, #hk.rt<col, 32x16>>
  hk.return
}

// -----

// 32x32 keeps 16 elements per lane: one run by default.
// CHECK-LABEL: hk.kernel @rt_32x32(
// CHECK:         tensor<64x64xf32, #hk.rt<row, 32x32>>
// CHECK:         tensor<64x64xf32, #hk.rt<col, 32x32>>
hk.kernel @rt_32x32() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<64x64xf32, #hk.rt<row, 32x32>>
  %b = arith.constant dense<0.0> : tensor<64x64xf32, #hk.rt<col, 32x32>>
  hk.return
}

// -----

// The 8-bit base tiles: 16x128 in row layout, 128x16 in col layout.
// CHECK-LABEL: hk.kernel @rt_fp8_bases(
// CHECK:         hk.load %{{.*}} -> tensor<32x256xf8E4M3FN, #hk.rt<row, 16x128>>
// CHECK-NEXT:    hk.load %{{.*}} -> tensor<256x32xf8E4M3FN, #hk.rt<col, 128x16>>
// CHECK-NEXT:    arith.constant dense<1> : tensor<16x128xi8, #hk.rt<row, 16x128>>
hk.kernel @rt_fp8_bases(%A: memref<?x?xf8E4M3FN>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf8E4M3FN> -> tensor<32x256xf8E4M3FN, #hk.rt<row, 16x128>>
  %b = hk.load %A[%c0, %c0] : memref<?x?xf8E4M3FN> -> tensor<256x32xf8E4M3FN, #hk.rt<col, 128x16>>
  %c = arith.constant dense<1> : tensor<16x128xi8, #hk.rt<row, 16x128>>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// #hk.rt: group
//===----------------------------------------------------------------------===//

// `group` equal to the elements per lane (E = 16*16/64 = 4) is the default
// and is not printed.
// CHECK-LABEL: hk.kernel @rt_group_default_16x16(
// CHECK:         arith.constant dense<0.000000e+00> : tensor<16x16xf32, #hk.rt<col, 16x16>>
hk.kernel @rt_group_default_16x16() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16, group = 4>>
  hk.return
}

// -----

// The default group of the other base tiles: E = 8 for 16x32, 16 for 32x32,
// 32 for 16x128.
// CHECK-LABEL: hk.kernel @rt_group_default_others(
// CHECK:         tensor<16x32xbf16, #hk.rt<row, 16x32>>
// CHECK:         tensor<32x16xbf16, #hk.rt<col, 32x16>>
// CHECK:         tensor<32x32xf32, #hk.rt<col, 32x32>>
// CHECK:         tensor<16x128xi8, #hk.rt<row, 16x128>>
hk.kernel @rt_group_default_others() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<16x32xbf16, #hk.rt<row, 16x32, group = 8>>
  %b = arith.constant dense<0.0> : tensor<32x16xbf16, #hk.rt<col, 32x16, group = 8>>
  %c = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 32x32, group = 16>>
  %d = arith.constant dense<0> : tensor<16x128xi8, #hk.rt<row, 16x128, group = 32>>
  hk.return
}

// -----

// A group smaller than E is kept: the 32x32 MFMA accumulator (group 4) and
// HK's 32x32_8 layout (group 8), and the smallest groups.
// CHECK-LABEL: hk.kernel @rt_group_32x32(
// CHECK:         tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
// CHECK:         tensor<32x32xbf16, #hk.rt<row, 32x32, group = 8>>
// CHECK:         tensor<32x32xbf16, #hk.rt<row, 32x32, group = 2>>
// CHECK:         tensor<32x32xbf16, #hk.rt<col, 32x32, group = 1>>
hk.kernel @rt_group_32x32() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  %b = arith.constant dense<0.0> : tensor<32x32xbf16, #hk.rt<row, 32x32, group = 8>>
  %c = arith.constant dense<0.0> : tensor<32x32xbf16, #hk.rt<row, 32x32, group = 2>>
  %d = arith.constant dense<0.0> : tensor<32x32xbf16, #hk.rt<col, 32x32, group = 1>>
  hk.return
}

// -----

// HK's 16x32_4 and 32x16_4 layouts, and groups of a 16x16 tile.
// CHECK-LABEL: hk.kernel @rt_group_small(
// CHECK:         tensor<16x32xbf16, #hk.rt<row, 16x32, group = 4>>
// CHECK:         tensor<32x16xbf16, #hk.rt<col, 32x16, group = 4>>
// CHECK:         tensor<16x16xf32, #hk.rt<col, 16x16, group = 2>>
// CHECK:         tensor<16x16xf32, #hk.rt<row, 16x16, group = 1>>
// CHECK:         tensor<16x128xi8, #hk.rt<row, 16x128, group = 16>>
hk.kernel @rt_group_small() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<16x32xbf16, #hk.rt<row, 16x32, group = 4>>
  %b = arith.constant dense<0.0> : tensor<32x16xbf16, #hk.rt<col, 32x16, group = 4>>
  %c = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16, group = 2>>
  %d = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<row, 16x16, group = 1>>
  %e = arith.constant dense<0> : tensor<16x128xi8, #hk.rt<row, 16x128, group = 16>>
  hk.return
}

// -----

// Attributes on their own (not as a tensor encoding) print the same way;
// spacing in the input does not matter.
// CHECK-LABEL: hk.kernel @rt_standalone(
// CHECK-SAME:    layouts = [#hk.rt<col, 16x16>, #hk.rt<col, 16x16, group = 2>, #hk.rt<row, 32x32>, #hk.rt<col, 32x32, group = 4>, #hk.rt<col, 128x16>]
hk.kernel @rt_standalone() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>,
    layouts = [#hk.rt<col, 16x16, group = 4>, #hk.rt<col,16x16,group=2>,
               #hk.rt< row , 32x32 >, #hk.rt<col, 32x32, group = 4>,
               #hk.rt<col, 128x16, group = 32>]} {
  hk.return
}

// -----

// `group = E` and no group are the same attribute, so the types match where
// an op needs equal types or layouts.
// CHECK-LABEL: hk.kernel @rt_group_default_is_same_type(
// CHECK:         %[[S:.*]] = arith.constant dense<1.000000e+00> : tensor<32x32xf32, #hk.rt<col, 16x16>>
// CHECK-NEXT:    %[[V:.*]] = arith.constant dense<2.000000e+00> : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    %{{.*}} = hk.row_broadcast mul %[[S]], %[[V]] : tensor<32x32xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @rt_group_default_is_same_type() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = arith.constant dense<1.0> : tensor<32x32xf32, #hk.rt<col, 16x16, group = 4>>
  %v = arith.constant dense<2.0> : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %p = hk.row_broadcast mul %s, %v : tensor<32x32xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16, group = 4>>>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// hk.swap_layout folding
//===----------------------------------------------------------------------===//

// A swap to the same type is kept by the printer and folded away by the
// canonicalizer.
// CHECK-LABEL: hk.kernel @swap_same_folds(
// CHECK:         hk.swap_layout %{{.*}} : tensor<32x32xf32, #hk.rt<col, 16x16>> -> tensor<32x32xf32, #hk.rt<col, 16x16>>
// CANON-LABEL: hk.kernel @swap_same_folds(
// CANON-SAME:    %[[C:[^:]*]]: memref<?x?xf32>)
// CANON:         %[[A:.*]] = arith.constant dense<1.000000e+00> : tensor<32x32xf32, #hk.rt<col, 16x16>>
// CANON-NOT:     hk.swap_layout
// CANON:         hk.store %[[A]], %[[C]]
hk.kernel @swap_same_folds(%C: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = arith.constant dense<1.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  %b = hk.swap_layout %a : tensor<32x32xf32, #hk.rt<col, 16x16>> -> tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.store %b, %C[%c0, %c0] : tensor<32x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// -----

// Spelled with and without the default group, the types are one type, so
// this swap folds too.
// CHECK-LABEL: hk.kernel @swap_default_group_folds(
// CHECK:         hk.swap_layout %{{.*}} : tensor<64x64xbf16, #hk.rt<row, 16x32>> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
// CANON-LABEL: hk.kernel @swap_default_group_folds(
// CANON-SAME:    %[[C:[^:]*]]: memref<?x?xbf16>)
// CANON:         %[[A:.*]] = hk.load %[[C]]
// CANON-NOT:     hk.swap_layout
// CANON:         hk.store %[[A]], %[[C]]
hk.kernel @swap_default_group_folds(%C: memref<?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %C[%c0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
  %b = hk.swap_layout %a : tensor<64x64xbf16, #hk.rt<row, 16x32>> -> tensor<64x64xbf16, #hk.rt<row, 16x32, group = 8>>
  hk.store %b, %C[%c0, %c0] : tensor<64x64xbf16, #hk.rt<row, 16x32, group = 8>>, memref<?x?xbf16>
  hk.return
}

// -----

// A swap between different layouts (here only the group differs) stays.
// CANON-LABEL: hk.kernel @swap_other_layout_stays(
// CANON:         %[[A:.*]] = hk.load
// CANON-NEXT:    %[[B:.*]] = hk.swap_layout %[[A]] : tensor<32x32xf32, #hk.rt<col, 32x32>> -> tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
// CANON-NEXT:    hk.store %[[B]]
// CHECK-LABEL: hk.kernel @swap_other_layout_stays(
// CHECK:         hk.swap_layout %{{.*}} : tensor<32x32xf32, #hk.rt<col, 32x32>> -> tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
hk.kernel @swap_other_layout_stays(%C: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %C[%c0, %c0] : memref<?x?xf32> -> tensor<32x32xf32, #hk.rt<col, 32x32>>
  %b = hk.swap_layout %a : tensor<32x32xf32, #hk.rt<col, 32x32>> -> tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  hk.store %b, %C[%c0, %c0] : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>, memref<?x?xf32>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// #hk.rv
//===----------------------------------------------------------------------===//

// Both axes over row and col tiles.
// CHECK-LABEL: hk.kernel @rv_axes(
// CHECK:         tensor<64xf32, #hk.rv<row, #hk.rt<row, 16x32>>>
// CHECK:         tensor<64xf32, #hk.rv<col, #hk.rt<row, 16x32>>>
// CHECK:         tensor<64xf32, #hk.rv<row, #hk.rt<col, 32x16>>>
// CHECK:         tensor<64xf32, #hk.rv<col, #hk.rt<col, 32x16>>>
hk.kernel @rv_axes() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<64xf32, #hk.rv<row, #hk.rt<row, 16x32>>>
  %b = arith.constant dense<0.0> : tensor<64xf32, #hk.rv<col, #hk.rt<row, 16x32>>>
  %c = arith.constant dense<0.0> : tensor<64xf32, #hk.rv<row, #hk.rt<col, 32x16>>>
  %d = arith.constant dense<0.0> : tensor<64xf32, #hk.rv<col, #hk.rt<col, 32x16>>>
  hk.return
}

// -----

// The tile layout inside a vector layout is printed canonically too.
// CHECK-LABEL: hk.kernel @rv_inner_group(
// CHECK:         tensor<32xf32, #hk.rv<row, #hk.rt<col, 32x32, group = 4>>>
// CHECK:         tensor<16xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
// CHECK:         tensor<32xbf16, #hk.rv<row, #hk.rt<row, 32x32, group = 8>>>
hk.kernel @rv_inner_group() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<32xf32, #hk.rv<row, #hk.rt<col, 32x32, group = 4>>>
  %b = arith.constant dense<0.0> : tensor<16xf32, #hk.rv<col, #hk.rt<col, 16x16, group = 4>>>
  %c = arith.constant dense<0.0> : tensor<32xbf16, #hk.rv<row, #hk.rt<row, 32x32, group = 8>>>
  hk.return
}

// -----

// Lengths of one and of many base tiles, and the 128-long axis of the 8-bit
// base tiles.
// CHECK-LABEL: hk.kernel @rv_lengths(
// CHECK:         tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK:         tensor<256xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK:         tensor<128xi8, #hk.rv<row, #hk.rt<col, 128x16>>>
// CHECK:         tensor<384xi8, #hk.rv<col, #hk.rt<row, 16x128>>>
hk.kernel @rv_lengths() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %b = arith.constant dense<0.0> : tensor<256xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %c = arith.constant dense<0> : tensor<128xi8, #hk.rv<row, #hk.rt<col, 128x16>>>
  %d = arith.constant dense<0> : tensor<384xi8, #hk.rv<col, #hk.rt<row, 16x128>>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @rv_standalone(
// CHECK-SAME:    vectors = [#hk.rv<row, #hk.rt<col, 16x16>>, #hk.rv<col, #hk.rt<col, 32x32, group = 4>>]
hk.kernel @rv_standalone() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>,
    vectors = [#hk.rv<row, #hk.rt<col, 16x16, group = 4>>,
               #hk.rv< col ,#hk.rt<col,32x32,group=4>>]} {
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// #hk.grid
//===----------------------------------------------------------------------===//

// A fixed grid of one, two and three dimensions.
// CHECK-LABEL: hk.kernel @grid_const_1d() attributes {grid = #hk.grid<[] -> (304)>, waves = 4 : i32}
// CHECK-LABEL: hk.kernel @grid_const_2d() attributes {grid = #hk.grid<[] -> (8, 4)>, waves = 4 : i32}
// CHECK-LABEL: hk.kernel @grid_const_3d() attributes {grid = #hk.grid<[] -> (2, 3, 4)>, waves = 4 : i32}
hk.kernel @grid_const_1d() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (304)>} {
  hk.return
}
hk.kernel @grid_const_2d() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (8, 4)>} {
  hk.return
}
hk.kernel @grid_const_3d() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (2, 3, 4)>} {
  %z = hk.block_id z
  hk.return
}

// -----

// The documented example: one workgroup per 256x256 tile of C (argument 2).
// CHECK-LABEL: hk.kernel @grid_dims(
// CHECK-SAME:    attributes {grid = #hk.grid<[dim(2, 0), dim(2, 1)] -> (s0 ceildiv 256, s1 ceildiv 256)>, waves = 8 : i32}
hk.kernel @grid_dims(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>)
    attributes {waves = 8 : i32,
                grid = #hk.grid<[dim(2, 0), dim(2, 1)] -> (s0 ceildiv 256, s1 ceildiv 256)>} {
  %y = hk.block_id y
  hk.return
}

// -----

// Integer and index arguments as symbols.
// CHECK-LABEL: hk.kernel @grid_args(
// CHECK-SAME:    attributes {grid = #hk.grid<[arg(0), arg(1), arg(2)] -> (s0, s1, s2)>, waves = 4 : i32}
hk.kernel @grid_args(%a: index, %b: i32, %c: i64)
    attributes {waves = 4 : i32, grid = #hk.grid<[arg(0), arg(1), arg(2)] -> (s0, s1, s2)>} {
  hk.return
}

// -----

// dim() and arg() mixed, dimensions of a rank-4 memref (attention: sequence
// blocks x heads x batch) and of a static memref.
// CHECK-LABEL: hk.kernel @grid_mixed(
// CHECK-SAME:    attributes {grid = #hk.grid<[dim(0, 2), arg(2), dim(0, 0), dim(1, 1)] -> (s0 ceildiv 128, s1, s2 * s3)>, waves = 8 : i32}
hk.kernel @grid_mixed(%Q: memref<?x?x?x?xbf16>, %S: memref<16x4xf32>, %heads: i32)
    attributes {waves = 8 : i32,
                grid = #hk.grid<[dim(0, 2), arg(2), dim(0, 0), dim(1, 1)] -> (s0 ceildiv 128, s1, s2 * s3)>} {
  hk.return
}

// -----

// floordiv, mod, sums, products; a symbol used twice and a symbol left
// unused keep their bindings.
// CHECK-LABEL: hk.kernel @grid_exprs(
// CHECK-SAME:    grid = #hk.grid<[arg(0), arg(1), dim(2, 0)] -> ((s0 + 63) floordiv 64, s0 mod 8 + 1, s0 * s1)>
hk.kernel @grid_exprs(%n: index, %m: index, %unused: memref<?xf32>)
    attributes {waves = 4 : i32,
                grid = #hk.grid<[arg(0), arg(1), dim(2, 0)] -> ((s0 + 63) floordiv 64, s0 mod 8 + 1, s0 * s1)>} {
  hk.return
}

// -----

// Affine expressions are simplified when built: `* 1` and `+ 0` vanish and
// constants move to the right of a product.
// CHECK-LABEL: hk.kernel @grid_simplified(
// CHECK-SAME:    grid = #hk.grid<[arg(0)] -> (s0, s0 * 2, s0 + 8)>
hk.kernel @grid_simplified(%n: index)
    attributes {waves = 4 : i32,
                grid = #hk.grid<[arg(0)] -> (s0 * 1 + 0, 2 * s0, 3 + s0 + 5)>} {
  hk.return
}

// -----

// Spacing in the input does not matter.
// CHECK-LABEL: hk.kernel @grid_spacing(
// CHECK-SAME:    grid = #hk.grid<[dim(0, 1), arg(1)] -> (s0 ceildiv 64, s1)>
hk.kernel @grid_spacing(%x: memref<?x?xf32>, %n: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[dim(0,1),arg( 1 )]->(s0 ceildiv 64,s1)>} {
  hk.return
}

// -----

// A grid attribute on its own, next to the kernel's.
// CHECK-LABEL: hk.kernel @grid_standalone(
// CHECK-SAME:    attributes {alt_grid = #hk.grid<[dim(0, 0)] -> (s0 floordiv 32)>, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 32)>, waves = 4 : i32}
hk.kernel @grid_standalone(%x: memref<?xf32>)
    attributes {waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 32)>,
                alt_grid = #hk.grid<[dim(0, 0)] -> (s0 floordiv 32)>} {
  hk.return
}
