// Row softmax: y[i, j] = exp(x[i, j] - max_j' x[i, j']) / sum_j' exp(x[i, j'] - max_j' x[i, j'])
//
// Arguments:
//   %x : memref<?x?xbf16>  [M, N] input
//   %y : memref<?x?xbf16>  [M, N] output
// M and N are runtime sizes of any value. Math in f32 (exp as exp2 of
// x * log2(e)), result rounded to bf16.
//
// Grid: ceildiv(M, 128) workgroups of 4 waves; wave w owns rows
// [128x + 32w, +32) and walks them in 32x64 column tiles (16x32 row layout).
// Two passes over the row:
//   1. online max and sum (as in attention): for each column tile,
//      m' = max(m, rowmax(t)), l' = l * exp2(m - m') + rowsum(exp2(t - m'));
//   2. y = exp2(t - m) / l, tile by tile.
// Columns past N are masked to -inf (hk.bounds_mask) so they add nothing to
// the sum. m starts at -inf; the first tile always has column 0 in bounds,
// so m is finite after it and m - m' never computes -inf - (-inf). Rows past
// M read zeros and their stores are dropped.
!t_bf = tensor<32x64xbf16, #hk.rt<row, 16x32>>
!t_f = tensor<32x64xf32, #hk.rt<row, 16x32>>
!row_v = tensor<32xf32, #hk.rv<row, #hk.rt<row, 16x32>>>

hk.kernel @softmax(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %neginf = arith.constant 0xFF800000 : f32
  %log2e = arith.constant dense<1.44269502> : !t_f
  %m_init = arith.constant dense<0xFF800000> : !row_v
  %l_init = arith.constant dense<0.0> : !row_v

  %blk = hk.block_id x
  %w = hk.wave_id
  %blk4 = arith.muli %blk, %c4 : index
  %tile = arith.addi %blk4, %w : index
  %r0 = arith.muli %tile, %c32 : index
  %r_end = arith.addi %r0, %c32 : index
  %n = memref.dim %x, %c1 : memref<?x?xbf16>
  %n_pad = arith.addi %n, %c63 : index
  %ntiles = arith.divui %n_pad, %c64 : index

  // Pass 1: running max m and sum l (of exp2 in the log2 domain).
  %ml:2 = scf.for %j = %c0 to %ntiles step %c1
      iter_args(%m = %m_init, %l = %l_init) -> (!row_v, !row_v) {
    %c0j = arith.muli %j, %c64 : index
    %tb = hk.load %x[%tile, %j] : memref<?x?xbf16> -> !t_bf
    %tf = arith.extf %tb : !t_bf to !t_f
    %t2 = arith.mulf %tf, %log2e : !t_f
    %t = hk.bounds_mask %t2 at [%r0, %c0j] within [%r_end, %n]
        fill %neginf : !t_f
    %mn = hk.row_reduce max %t init %m : !t_f -> !row_v
    %dm = arith.subf %m, %mn : !row_v
    %alpha = math.exp2 %dm : !row_v
    %la = arith.mulf %l, %alpha : !row_v
    %d = hk.row_broadcast sub %t, %mn : !t_f, !row_v
    %p = math.exp2 %d : !t_f
    %ln = hk.row_reduce sum %p init %la : !t_f -> !row_v
    scf.yield %mn, %ln : !row_v, !row_v
  }

  // Pass 2: normalise.
  scf.for %j = %c0 to %ntiles step %c1 {
    %tb = hk.load %x[%tile, %j] : memref<?x?xbf16> -> !t_bf
    %tf = arith.extf %tb : !t_bf to !t_f
    %t = arith.mulf %tf, %log2e : !t_f
    %d = hk.row_broadcast sub %t, %ml#0 : !t_f, !row_v
    %p = math.exp2 %d : !t_f
    %yv = hk.row_broadcast div %p, %ml#1 : !t_f, !row_v
    %yb = arith.truncf %yv : !t_f to !t_bf
    hk.store %yb, %y[%tile, %j] : !t_bf, memref<?x?xbf16>
  }
  hk.return
}
