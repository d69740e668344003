// RMSNorm, D = 128:
//   y[i, d] = x[i, d] / sqrt(sum_d' x[i, d']^2 / D + eps) * weight[d]
//
// Arguments:
//   %x      : memref<?x128xbf16>  [M, D]
//   %weight : memref<128xbf16>    [D]
//   %y      : memref<?x128xbf16>  [M, D]
//   %eps    : f32                 added to the mean square (typically 1e-6)
// Math in f32, result rounded to bf16. eps reaches the row statistics as a
// row vector by `tensor.splat` (every lane holds the scalar for its rows).
//
// Grid: ceildiv(M, 128) workgroups of 4 waves; wave w handles rows
// [128x + 32w, +32) as one 32x128 tile in the 16x32 row layout, the weight
// as a column vector of that layout. Rows past M read zeros (x = 0 gives
// y = 0) and their stores are dropped. Same structure as layernorm.mlir
// without the mean and the bias.
!t_bf = tensor<32x128xbf16, #hk.rt<row, 16x32>>
!t_f = tensor<32x128xf32, #hk.rt<row, 16x32>>
!row_v = tensor<32xf32, #hk.rv<row, #hk.rt<row, 16x32>>>
!col_bf = tensor<128xbf16, #hk.rv<col, #hk.rt<row, 16x32>>>
!col_f = tensor<128xf32, #hk.rv<col, #hk.rt<row, 16x32>>>

hk.kernel @rmsnorm(%x: memref<?x128xbf16>, %weight: memref<128xbf16>,
                   %y: memref<?x128xbf16>, %eps_s: f32)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %inv_d = arith.constant dense<7.812500e-03> : !row_v
  %eps = tensor.splat %eps_s : !row_v
  %blk = hk.block_id x
  %w = hk.wave_id
  %blk4 = arith.muli %blk, %c4 : index
  %tile = arith.addi %blk4, %w : index

  %xb = hk.load %x[%tile, %c0] : memref<?x128xbf16> -> !t_bf
  %wb = hk.load %weight[%c0] : memref<128xbf16> -> !col_bf
  %xf = arith.extf %xb : !t_bf to !t_f
  %wf = arith.extf %wb : !col_bf to !col_f

  %x2 = arith.mulf %xf, %xf : !t_f
  %ss = hk.row_reduce sum %x2 : !t_f -> !row_v
  %ms = arith.mulf %ss, %inv_d : !row_v
  %ms_eps = arith.addf %ms, %eps : !row_v
  %rrms = math.rsqrt %ms_eps : !row_v
  %n = hk.row_broadcast mul %xf, %rrms : !t_f, !row_v
  %out = hk.col_broadcast mul %n, %wf : !t_f, !col_f
  %ob = arith.truncf %out : !t_f to !t_bf
  hk.store %ob, %y[%tile, %c0] : !t_bf, memref<?x128xbf16>
  hk.return
}
