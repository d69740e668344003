// RUN: hk-translate --hk-to-hipkittens -split-input-file %s | FileCheck %s

// A kernel: signature, launch bounds (4 waves: 256 lanes, 1 wave per SIMD),
// register tile types, one mma per kind, and the accumulator updated in
// place because each mma is the last use of its input accumulator.

!a = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!at = tensor<32x32xbf16, #hk.rt<col, 32x16>>
!acc = tensor<32x32xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: __global__ __launch_bounds__(256, 1) void mma_kinds(const gl<bf16, -1, -1, -1, -1> A, const gl<float, -1, -1, -1, -1> C) {
// CHECK-NEXT:   rt_bf<32, 32, row_l, rt_16x32_s> a;
// CHECK-NEXT:   load(a, A, {0, 0, 0, 0});
// CHECK-NEXT:   rt_bf<32, 32, col_l, rt_32x16_s> at;
// CHECK-NEXT:   load(at, A, {0, 0, 0, 1});
// CHECK-NEXT:   rt_fl<32, 32, col_l, rt_16x16_s> zero_;
// CHECK-NEXT:   zero(zero_);
// CHECK-NEXT:   mma_ABt(zero_, a, a, zero_);
// CHECK-NEXT:   mma_AB(zero_, a, at, zero_);
// CHECK-NEXT:   mma_AtB(zero_, at, at, zero_);
// CHECK-NEXT:   mma_AtBt(zero_, at, a, zero_);
// CHECK-NEXT:   store(C, zero_, {0, 0, 0, 0});
// CHECK-NEXT: }
hk.kernel @mma_kinds(%A: memref<?x?xbf16>, %C: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(1, 0)] -> (s0 ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> !a
  %at = hk.load %A[%c0, %c1] : memref<?x?xbf16> -> !at
  %zero = arith.constant dense<0.0> : !acc
  %d0 = hk.mma abt %a, %a, %zero : !a, !a, !acc
  %d1 = hk.mma ab %a, %at, %d0 : !a, !at, !acc
  %d2 = hk.mma atb %at, %at, %d1 : !at, !at, !acc
  %d3 = hk.mma atbt %at, %a, %d2 : !at, !a, !acc
  hk.store %d3, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}

// The launcher: raw pointers and the dynamic sizes, both dimensions of A
// and C tiled by 32, grid from #hk.grid (ceildiv(C rows, 32) workgroups
// along x), no LDS.
// CHECK-LABEL: extern "C" hipError_t launch_mma_kinds(bf16 *A, int A_dim0, int A_dim1, float *C, int C_dim0, int C_dim1, hipStream_t stream) {
// CHECK-NEXT:   // hk reads zeros outside an array; HipKittens reads whatever lies there.
// CHECK:        if (A_dim0 % 32 != 0)
// CHECK-NEXT:     return hipErrorInvalidValue;
// CHECK:        if (A_dim1 % 32 != 0)
// CHECK-NEXT:     return hipErrorInvalidValue;
// C's rows are both tiled by 32 and counted by the grid's ceildiv: one check,
// both reasons.
// CHECK-NEXT:   // Dimension 0 of C is tiled by 32
// CHECK-NEXT:   // a ragged tile.
// CHECK-NEXT:   // The grid's ceildiv(C_dim0, 32) must not count a partial workgroup
// CHECK-NEXT:   // tiles would lie partly or wholly past an array.
// CHECK-NEXT:   if (C_dim0 % 32 != 0)
// CHECK-NEXT:     return hipErrorInvalidValue;
// CHECK:        if (C_dim1 % 32 != 0)
// CHECK-NEXT:     return hipErrorInvalidValue;
// CHECK-NEXT:   // #hk.grid<[dim(1, 0)] -> (s0 ceildiv 32)>
// CHECK-NEXT:   const dim3 grid((C_dim0 + 32 - 1) / 32, 1, 1);
// CHECK-NEXT:   hipLaunchKernelGGL(mma_kinds, grid, dim3(256), 0, stream,
// CHECK-NEXT:                      gl<bf16, -1, -1, -1, -1>(A, 1, 1, A_dim0, A_dim1),
// CHECK-NEXT:                      gl<float, -1, -1, -1, -1>(C, 1, 1, C_dim0, C_dim1));
// CHECK-NEXT:   return hipGetLastError();
// CHECK-NEXT: }

// -----

// An accumulator still needed after the mma gets a new variable; 32x32
// accumulators (group 4) are rt_32x32_s; 8 waves give 2 waves per SIMD.

!a = tensor<32x16xbf16, #hk.rt<row, 32x16>>
!acc = tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>

// CHECK-LABEL: __global__ __launch_bounds__(512, 2) void mma_keep(const gl<bf16, -1, -1, -1, -1> A, const gl<float, -1, -1, -1, -1> C) {
// CHECK:        rt_bf<32, 16, row_l, rt_32x16_s> a;
// CHECK:        rt_fl<32, 32, col_l, rt_32x32_s> c;
// CHECK-NEXT:   load(c, C, {0, 0, 0, 0});
// CHECK-NEXT:   rt_fl<32, 32, col_l, rt_32x32_s> d;
// CHECK-NEXT:   mma_ABt(d, a, a, c);
// CHECK-NEXT:   add(d, d, c);
// CHECK-NEXT:   store(C, d, {0, 0, 0, 0});
hk.kernel @mma_keep(%A: memref<?x?xbf16>, %C: memref<?x?xf32>) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> !a
  %c = hk.load %C[%c0, %c0] : memref<?x?xf32> -> !acc
  %d = hk.mma abt %a, %a, %c : !a, !a, !acc
  %e = arith.addf %d, %c : !acc
  hk.store %e, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}
