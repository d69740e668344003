// Round trip of the hk types: shared tiles (!hk.st), tokens (!hk.token),
// and the element types, shapes and register budget of register tiles and
// vectors; global memory as memrefs of every rank.
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

//===----------------------------------------------------------------------===//
// !hk.st: every element type and every bytes-per-lane of a subtile
//===----------------------------------------------------------------------===//

// The generic form names the type in full; hk.alloc_shared prints it
// without the dialect prefix, hk.load with it.
// CHECK-LABEL: hk.kernel @st_bf16_16x32(
// CHECK:         %[[S:.*]] = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
// CHECK-NEXT:    hk.load %[[S]] : !hk.st<256x64xbf16, 16x32> ->
hk.kernel @st_bf16_16x32() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
  %t = hk.load %s : !hk.st<256x64xbf16, 16x32> -> tensor<256x64xbf16, #hk.rt<row, 16x32>>
  hk.return
}

// -----

// 32x16 bf16 subtiles: 1024 bytes, 16 bytes per lane.
// CHECK-LABEL: hk.kernel @st_bf16_32x16(
// CHECK:         hk.alloc_shared : !hk.st<64x128xbf16, 32x16>
hk.kernel @st_bf16_32x16() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = hk.alloc_shared : !hk.st<64x128xbf16, 32x16>
  hk.return
}

// -----

// 16x16 bf16 subtiles: 512 bytes, 8 bytes per lane.
// CHECK-LABEL: hk.kernel @st_bf16_16x16(
// CHECK:         hk.alloc_shared : !hk.st<128x128xbf16, 16x16>
hk.kernel @st_bf16_16x16() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = hk.alloc_shared : !hk.st<128x128xbf16, 16x16>
  hk.return
}

// -----

// 8x16 bf16 subtiles: 256 bytes, 4 bytes per lane (gfx942's LDS DMA width).
// CHECK-LABEL: hk.kernel @st_bf16_8x16(
// CHECK:         hk.alloc_shared : !hk.st<64x64xbf16, 8x16>
hk.kernel @st_bf16_8x16() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 8x16>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @st_f16(
// CHECK:         hk.alloc_shared : !hk.st<128x64xf16, 16x32>
// CHECK-NEXT:    hk.alloc_shared : !hk.st<32x32xf16, 16x8>
hk.kernel @st_f16() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.alloc_shared : !hk.st<128x64xf16, 16x32>
  %b = hk.alloc_shared : !hk.st<32x32xf16, 16x8>
  hk.return
}

// -----

// f32 subtiles at 16, 8 and 4 bytes per lane.
// CHECK-LABEL: hk.kernel @st_f32(
// CHECK:         hk.alloc_shared : !hk.st<64x64xf32, 16x16>
// CHECK-NEXT:    hk.alloc_shared : !hk.st<64x64xf32, 8x16>
// CHECK-NEXT:    hk.alloc_shared : !hk.st<64x64xf32, 8x8>
hk.kernel @st_f32() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.alloc_shared : !hk.st<64x64xf32, 16x16>
  %b = hk.alloc_shared : !hk.st<64x64xf32, 8x16>
  %c = hk.alloc_shared : !hk.st<64x64xf32, 8x8>
  hk.return
}

// -----

// The 8-bit float formats of gfx942 (FNUZ) and gfx950 (OCP).
// CHECK-LABEL: hk.kernel @st_fp8(
// CHECK:         hk.alloc_shared : !hk.st<128x128xf8E4M3FNUZ, 16x64>
// CHECK-NEXT:    hk.alloc_shared : !hk.st<128x128xf8E5M2FNUZ, 32x32>
// CHECK-NEXT:    hk.alloc_shared : !hk.st<64x128xf8E4M3FN, 16x16>
// CHECK-NEXT:    hk.alloc_shared : !hk.st<64x128xf8E5M2, 8x64>
hk.kernel @st_fp8() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.alloc_shared : !hk.st<128x128xf8E4M3FNUZ, 16x64>
  %b = hk.alloc_shared : !hk.st<128x128xf8E5M2FNUZ, 32x32>
  %c = hk.alloc_shared : !hk.st<64x128xf8E4M3FN, 16x16>
  %d = hk.alloc_shared : !hk.st<64x128xf8E5M2, 8x64>
  hk.return
}

// -----

// A tile of a single subtile, and long thin tiles.
// CHECK-LABEL: hk.kernel @st_shapes(
// CHECK:         hk.alloc_shared : !hk.st<16x32xbf16, 16x32>
// CHECK-NEXT:    hk.alloc_shared : !hk.st<16x1024xbf16, 16x32>
// CHECK-NEXT:    hk.alloc_shared : !hk.st<1024x16xbf16, 32x16>
hk.kernel @st_shapes() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.alloc_shared : !hk.st<16x32xbf16, 16x32>
  %b = hk.alloc_shared : !hk.st<16x1024xbf16, 16x32>
  %c = hk.alloc_shared : !hk.st<1024x16xbf16, 32x16>
  hk.return
}

// -----

// One tile of exactly 160 KiB, the LDS of gfx950.
// CHECK-LABEL: hk.kernel @st_lds_limit_one(
// CHECK:         hk.alloc_shared : !hk.st<256x320xbf16, 16x32>
hk.kernel @st_lds_limit_one() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = hk.alloc_shared : !hk.st<256x320xbf16, 16x32>
  hk.return
}

// -----

// Several tiles that together use exactly 160 KiB:
// 2 * 64 KiB + 2 * 16 KiB = 160 KiB.
// CHECK-LABEL: hk.kernel @st_lds_limit_sum(
// CHECK:         hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
// CHECK-NEXT:    hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
// CHECK-NEXT:    hk.alloc_shared : !hk.st<64x64xf32, 16x16>
// CHECK-NEXT:    hk.alloc_shared : !hk.st<64x64xf32, 16x16>
hk.kernel @st_lds_limit_sum() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  %b = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  %c = hk.alloc_shared : !hk.st<64x64xf32, 16x16>
  %d = hk.alloc_shared : !hk.st<64x64xf32, 16x16>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// !hk.token
//===----------------------------------------------------------------------===//

// A token is printed in full in the generic form.
// CHECK-LABEL: hk.kernel @token_wait(
// CHECK:         %[[T:.*]] = hk.load_async
// CHECK-NEXT:    hk.wait %[[T]]
hk.kernel @token_wait(%A: memref<?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %t = hk.load_async %A[%c0, %c0], %s : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.wait %t
  hk.return
}

// -----

// Tokens carried across loop iterations (prefetching the next K step).
// CHECK-LABEL: hk.kernel @token_loop_carried(
// CHECK:         %[[T0:.*]] = hk.load_async
// CHECK-NEXT:    %[[LAST:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T:.*]] = %[[T0]]) -> (!hk.token) {
// CHECK-NEXT:      hk.wait %[[T]]
// CHECK-NEXT:      %[[NEXT:.*]] = hk.load_async
// CHECK-NEXT:      scf.yield %[[NEXT]] : !hk.token
// CHECK-NEXT:    }
// CHECK-NEXT:    hk.wait %[[LAST]]
hk.kernel @token_loop_carried(%A: memref<?x?xbf16>, %n: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %t0 = hk.load_async %A[%c0, %c0], %s : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  %last = scf.for %k = %c1 to %n step %c1 iter_args(%t = %t0) -> (!hk.token) {
    hk.wait %t
    %next = hk.load_async %A[%c0, %k], %s : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
    scf.yield %next : !hk.token
  }
  hk.wait %last
  hk.return
}

// -----

// A token yielded out of a memory cluster.
// CHECK-LABEL: hk.kernel @token_from_cluster(
// CHECK:         hk.interleave {
// CHECK-NEXT:      %[[T:.*]] = hk.cluster memory -> !hk.token {
// CHECK-NEXT:        %[[L:.*]] = hk.load_async
// CHECK-NEXT:        hk.yield %[[L]] : !hk.token
// CHECK-NEXT:      }
// CHECK-NEXT:      hk.cluster compute {
// CHECK-NEXT:        hk.wait %[[T]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
hk.kernel @token_from_cluster(%A: memref<?x?xbf16>)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  hk.interleave {
    %t = hk.cluster memory -> !hk.token {
      %l = hk.load_async %A[%c0, %c0], %s : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
      hk.yield %l : !hk.token
    }
    hk.cluster compute {
      hk.wait %t
    }
  }
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// Register tiles: element types
//===----------------------------------------------------------------------===//

// CHECK-LABEL: hk.kernel @rt_f32(
// CHECK:         arith.constant dense<1.500000e+00> : tensor<32x32xf32, #hk.rt<col, 16x16>>
hk.kernel @rt_f32() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %t = arith.constant dense<1.5> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @rt_f16(
// CHECK:         arith.constant dense<1.500000e+00> : tensor<32x64xf16, #hk.rt<row, 16x32>>
hk.kernel @rt_f16() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %t = arith.constant dense<1.5> : tensor<32x64xf16, #hk.rt<row, 16x32>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @rt_bf16(
// CHECK:         arith.constant dense<1.500000e+00> : tensor<64x32xbf16, #hk.rt<col, 32x16>>
hk.kernel @rt_bf16() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %t = arith.constant dense<1.5> : tensor<64x32xbf16, #hk.rt<col, 32x16>>
  hk.return
}

// -----

// The 8-bit float formats, as loads from global memory.
// CHECK-LABEL: hk.kernel @rt_fp8(
// CHECK:         hk.load %{{.*}} : memref<?x?xf8E4M3FNUZ> -> tensor<16x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>
// CHECK-NEXT:    hk.load %{{.*}} : memref<?x?xf8E5M2FNUZ> -> tensor<128x16xf8E5M2FNUZ, #hk.rt<col, 128x16>>
// CHECK-NEXT:    hk.load %{{.*}} : memref<?x?xf8E4M3FN> -> tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>
// CHECK-NEXT:    hk.load %{{.*}} : memref<?x?xf8E5M2> -> tensor<32x32xf8E5M2, #hk.rt<col, 32x32>>
hk.kernel @rt_fp8(%a: memref<?x?xf8E4M3FNUZ>, %b: memref<?x?xf8E5M2FNUZ>,
                  %c: memref<?x?xf8E4M3FN>, %d: memref<?x?xf8E5M2>)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %ta = hk.load %a[%c0, %c0] : memref<?x?xf8E4M3FNUZ> -> tensor<16x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>
  %tb = hk.load %b[%c0, %c0] : memref<?x?xf8E5M2FNUZ> -> tensor<128x16xf8E5M2FNUZ, #hk.rt<col, 128x16>>
  %tc = hk.load %c[%c0, %c0] : memref<?x?xf8E4M3FN> -> tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>
  %td = hk.load %d[%c0, %c0] : memref<?x?xf8E5M2> -> tensor<32x32xf8E5M2, #hk.rt<col, 32x32>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @rt_i8(
// CHECK:         arith.constant dense<-3> : tensor<16x64xi8, #hk.rt<row, 16x32>>
hk.kernel @rt_i8() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %t = arith.constant dense<-3> : tensor<16x64xi8, #hk.rt<row, 16x32>>
  hk.return
}

// -----

// CHECK-LABEL: hk.kernel @rt_i32(
// CHECK:         arith.constant dense<7> : tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>
hk.kernel @rt_i32() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %t = arith.constant dense<7> : tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// Register tiles: shapes
//===----------------------------------------------------------------------===//

// One base tile, and many base tiles in one direction.
// CHECK-LABEL: hk.kernel @rt_shapes(
// CHECK:         tensor<16x16xf32, #hk.rt<col, 16x16>>
// CHECK:         tensor<16x512xbf16, #hk.rt<row, 16x32>>
// CHECK:         tensor<512x16xbf16, #hk.rt<col, 32x16>>
hk.kernel @rt_shapes() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %b = arith.constant dense<0.0> : tensor<16x512xbf16, #hk.rt<row, 16x32>>
  %c = arith.constant dense<0.0> : tensor<512x16xbf16, #hk.rt<col, 32x16>>
  hk.return
}

// -----

// A tile that fills every register of a lane: 256x128 f32 is 2048 bytes
// per lane, the 512 VGPRs and AGPRs of 4 bytes.
// CHECK-LABEL: hk.kernel @rt_register_budget(
// CHECK:         arith.constant dense<0.000000e+00> : tensor<256x128xf32, #hk.rt<col, 16x16>>
hk.kernel @rt_register_budget() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<256x128xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// Register vectors
//===----------------------------------------------------------------------===//

// CHECK-LABEL: hk.kernel @rv_element_types(
// CHECK:         arith.constant dense<1.000000e+00> : tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK-NEXT:    arith.constant dense<1.000000e+00> : tensor<32xbf16, #hk.rv<col, #hk.rt<row, 16x32>>>
// CHECK-NEXT:    arith.constant dense<1.000000e+00> : tensor<16xf16, #hk.rv<row, #hk.rt<row, 16x32>>>
// CHECK-NEXT:    arith.constant dense<1> : tensor<32xi32, #hk.rv<col, #hk.rt<col, 32x32, group = 4>>>
// CHECK-NEXT:    arith.constant dense<1> : tensor<16xi8, #hk.rv<row, #hk.rt<row, 16x32>>>
hk.kernel @rv_element_types() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<1.0> : tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %b = arith.constant dense<1.0> : tensor<32xbf16, #hk.rv<col, #hk.rt<row, 16x32>>>
  %c = arith.constant dense<1.0> : tensor<16xf16, #hk.rv<row, #hk.rt<row, 16x32>>>
  %d = arith.constant dense<1> : tensor<32xi32, #hk.rv<col, #hk.rt<col, 32x32, group = 4>>>
  %e = arith.constant dense<1> : tensor<16xi8, #hk.rv<row, #hk.rt<row, 16x32>>>
  hk.return
}

// -----

// An 8-bit float vector along the 128 columns of a 16x128 base tile.
// CHECK-LABEL: hk.kernel @rv_fp8(
// CHECK:         hk.load %{{.*}} : memref<?xf8E4M3FNUZ> -> tensor<256xf8E4M3FNUZ, #hk.rv<col, #hk.rt<row, 16x128>>>
hk.kernel @rv_fp8(%v: memref<?xf8E4M3FNUZ>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %v[%c0] : memref<?xf8E4M3FNUZ> -> tensor<256xf8E4M3FNUZ, #hk.rv<col, #hk.rt<row, 16x128>>>
  hk.return
}

// -----

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

// Memrefs of rank 1 to 4, static, dynamic and mixed sizes, and a strided
// layout.
// CHECK-LABEL: hk.kernel @memref_args(
// CHECK-SAME:    %{{.*}}: memref<?xf32>, %{{.*}}: memref<1024x1024xbf16>,
// CHECK-SAME:    %{{.*}}: memref<8x?x?xf16>, %{{.*}}: memref<?x16x?x128xbf16>,
// CHECK-SAME:    %{{.*}}: memref<?x?xbf16, strided<[?, 1], offset: ?>>)
hk.kernel @memref_args(%a: memref<?xf32>, %b: memref<1024x1024xbf16>,
                       %c: memref<8x?x?xf16>, %d: memref<?x16x?x128xbf16>,
                       %e: memref<?x?xbf16, strided<[?, 1], offset: ?>>)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// Loads and stores through a strided memref.
// CHECK-LABEL: hk.kernel @memref_strided_access(
// CHECK:         %[[T:.*]] = hk.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<32x32xbf16, #hk.rt<row, 16x32>>
// CHECK-NEXT:    hk.store %[[T]], %{{.*}}[%{{.*}}, %{{.*}}] : tensor<32x32xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
hk.kernel @memref_strided_access(%e: memref<?x?xbf16, strided<[?, 1], offset: ?>>)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %t = hk.load %e[%c0, %c0] : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<32x32xbf16, #hk.rt<row, 16x32>>
  hk.store %t, %e[%c0, %c0] : tensor<32x32xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
  hk.return
}
