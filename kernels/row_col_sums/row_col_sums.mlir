// Row and column sums of a runtime M x N matrix, accumulated across
// workgroups with hk.atomic_add of register vectors:
//   rows[i] = sum_j x[i, j]      cols[j] = sum_i x[i, j]
//
// Arguments (both kernels):
//   %x    : memref<?x?xbf16>  [M, N]
//   %rows : memref<?xf32>     [M]
//   %cols : memref<?xf32>     [N]
//
// @zero_sums (grid: ceildiv(M, 32) x ceildiv(N, 64), one wave) stores
// zeros into the 32 rows and 64 columns of its tile; @row_col_sums (same
// grid) then reduces its 32x64 tile (16x16 col layout, in f32) to a row
// vector and a column vector and adds them atomically: every element of
// rows gets ceildiv(N, 64) adds, every element of cols ceildiv(M, 32).
// Parts of ragged tiles read zeros; adds and stores past M or N are
// dropped. A vector element is held by several lanes (16 for the row
// vector, 4 for the column vector) and added once. HipKittens has no
// atomic add of vectors: hk-translate refuses @row_col_sums.
!t_bf = tensor<32x64xbf16, #hk.rt<col, 16x16>>
!t_f = tensor<32x64xf32, #hk.rt<col, 16x16>>
!row_v = tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!col_v = tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>

hk.kernel @zero_sums(%x: memref<?x?xbf16>, %rows: memref<?xf32>,
                     %cols: memref<?xf32>)
    attributes {
      waves = 1 : i32,
      grid = #hk.grid<[dim(0, 0), dim(0, 1)] -> (s0 ceildiv 32, s1 ceildiv 64)>} {
  %bx = hk.block_id x
  %by = hk.block_id y
  %zr = arith.constant dense<0.0> : !row_v
  %zc = arith.constant dense<0.0> : !col_v
  hk.store %zr, %rows[%bx] : !row_v, memref<?xf32>
  hk.store %zc, %cols[%by] : !col_v, memref<?xf32>
  hk.return
}

hk.kernel @row_col_sums(%x: memref<?x?xbf16>, %rows: memref<?xf32>,
                        %cols: memref<?xf32>)
    attributes {
      waves = 1 : i32,
      grid = #hk.grid<[dim(0, 0), dim(0, 1)] -> (s0 ceildiv 32, s1 ceildiv 64)>} {
  %bx = hk.block_id x
  %by = hk.block_id y
  %xb = hk.load %x[%bx, %by] : memref<?x?xbf16> -> !t_bf
  %xf = arith.extf %xb : !t_bf to !t_f
  %r = hk.row_reduce sum %xf : !t_f -> !row_v
  %c = hk.col_reduce sum %xf : !t_f -> !col_v
  hk.atomic_add %r, %rows[%bx] : !row_v, memref<?xf32>
  hk.atomic_add %c, %cols[%by] : !col_v, memref<?xf32>
  hk.return
}
