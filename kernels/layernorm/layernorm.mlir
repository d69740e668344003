// Fused residual add + LayerNorm (HipKittens' fused LayerNorm kernel), D = 128:
//   r      = x + residual                         (new residual stream)
//   mean_i = sum_d r[i, d] / D
//   var_i  = sum_d (r[i, d] - mean_i)^2 / D      (biased, as torch)
//   y      = (r - mean) / sqrt(var + eps) * weight + bias
//
// Arguments:
//   %x, %residual : memref<?x128xbf16>  [M, D] inputs
//   %weight, %bias : memref<128xbf16>   [D]
//   %res_out, %y   : memref<?x128xbf16>  [M, D] outputs (r and y)
//   %eps           : f32                 added to the variance (torch's
//                                        default is 1e-5)
// r is rounded to bf16 for %res_out but normalised in f32, as torch's fused
// add + layer_norm does on the f32 sum. eps reaches the row statistics as a
// row vector by `tensor.splat` (every lane holds the scalar for its rows).
//
// Grid: ceildiv(M, 128) workgroups of 4 waves; wave w normalises rows
// [128x + 32w, +32) as one 32x128 tile (16x32 row layout). Rows past M read
// zeros; they give var = 0 and finite (unused) results, and their stores are
// dropped. weight and bias are loaded as column vectors of that layout, so
// they broadcast down the columns with no data movement.
!t_bf = tensor<32x128xbf16, #hk.rt<row, 16x32>>
!t_f = tensor<32x128xf32, #hk.rt<row, 16x32>>
!row_v = tensor<32xf32, #hk.rv<row, #hk.rt<row, 16x32>>>
!col_bf = tensor<128xbf16, #hk.rv<col, #hk.rt<row, 16x32>>>
!col_f = tensor<128xf32, #hk.rv<col, #hk.rt<row, 16x32>>>

hk.kernel @layernorm(%x: memref<?x128xbf16>, %residual: memref<?x128xbf16>,
                     %weight: memref<128xbf16>, %bias: memref<128xbf16>,
                     %res_out: memref<?x128xbf16>, %y: memref<?x128xbf16>,
                     %eps_s: f32)
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
  %rb = hk.load %residual[%tile, %c0] : memref<?x128xbf16> -> !t_bf
  %wb = hk.load %weight[%c0] : memref<128xbf16> -> !col_bf
  %bb = hk.load %bias[%c0] : memref<128xbf16> -> !col_bf
  %xf = arith.extf %xb : !t_bf to !t_f
  %rf = arith.extf %rb : !t_bf to !t_f
  %wf = arith.extf %wb : !col_bf to !col_f
  %bf = arith.extf %bb : !col_bf to !col_f

  %r = arith.addf %xf, %rf : !t_f
  %r_out = arith.truncf %r : !t_f to !t_bf
  hk.store %r_out, %res_out[%tile, %c0] : !t_bf, memref<?x128xbf16>

  %sum = hk.row_reduce sum %r : !t_f -> !row_v
  %mean = arith.mulf %sum, %inv_d : !row_v
  %d = hk.row_broadcast sub %r, %mean : !t_f, !row_v
  %d2 = arith.mulf %d, %d : !t_f
  %ss = hk.row_reduce sum %d2 : !t_f -> !row_v
  %var = arith.mulf %ss, %inv_d : !row_v
  %var_eps = arith.addf %var, %eps : !row_v
  %rstd = math.rsqrt %var_eps : !row_v
  %n = hk.row_broadcast mul %d, %rstd : !t_f, !row_v
  %nw = hk.col_broadcast mul %n, %wf : !t_f, !col_f
  %out = hk.col_broadcast add %nw, %bf : !t_f, !col_f
  %ob = arith.truncf %out : !t_f to !t_bf
  hk.store %ob, %y[%tile, %c0] : !t_bf, memref<?x128xbf16>
  hk.return
}
