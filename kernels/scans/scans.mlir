// Prefix scans, running means and arg reductions of a runtime M x N f32
// matrix x, along rows (@row_scans) and down columns (@col_scans):
//   cumsum[i, j]   = sum_{k <= j} x[i, k]             (inclusive)
//   runmean[i, j]  = cumsum[i, j] / (j + 1)
//   cummax[i, j]   = max_{k < j} x[i, k]              (exclusive; -inf at j = 0)
//   rowmax[i], rowarg[i] = max_j x[i, j] and its lowest j
//   rowid[i]       = i
//   colsum[i, j]   = sum_{k < i} x[k, j]              (exclusive; 0 at i = 0)
//   colmin[i, j]   = min_{k <= i} x[k, j]             (inclusive)
//   colmin1[j], colarg[j] = min_i x[i, j] and its lowest i
//
// Arguments (both kernels, one launch each):
//   %x       : memref<?x?xf32>  [M, N]
//   %cumsum, %runmean, %cummax, %colsum, %colmin : memref<?x?xf32> [M, N]
//   %rowmax  : memref<?xf32> [M]    %rowarg : memref<?xi32> [M]
//   %rowid   : memref<?xi32> [M]
//   %colmin1 : memref<?xf32> [N]    %colarg : memref<?xi32> [N]
//
// @row_scans: one wave per 32 rows (grid ceildiv(M, 32)) walks the row's
// 64-column tiles (col 16x16 layout), carrying the row totals, maxima and
// best (value, column) from tile to tile: hk.row_scan with `init` takes the
// carry, hk.row_reduce with `init` makes the next one, and a tile's
// hk.row_arg replaces the carried best only when strictly larger, so the
// lowest column wins ties across tiles as hk.row_arg does within one.
// Columns past N read 0; for the maximum they are replaced by -inf through
// a compare of hk.iota's column (plus the tile's offset) with N. The
// running mean divides by hk.iota's column as f32. rowid is hk.iota of the
// row vector plus the block's first row.
// @col_scans: one wave per 64 columns (grid ceildiv(N, 64)) walks 32-row
// tiles in the row 16x32 layout the same way down the columns, rows past M
// set to +inf for the minimum.
// HipKittens has no scan, arg reduction or element positions: hk-translate
// refuses the kernel at the first of them.
!t = tensor<32x64xf32, #hk.rt<col, 16x16>>
!ti = tensor<32x64xi32, #hk.rt<col, 16x16>>
!mask = tensor<32x64xi1, #hk.rt<col, 16x16>>
!rv = tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!ri = tensor<32xi32, #hk.rv<row, #hk.rt<col, 16x16>>>
!rmask = tensor<32xi1, #hk.rv<row, #hk.rt<col, 16x16>>>
!u = tensor<32x64xf32, #hk.rt<row, 16x32>>
!ui = tensor<32x64xi32, #hk.rt<row, 16x32>>
!umask = tensor<32x64xi1, #hk.rt<row, 16x32>>
!cv = tensor<64xf32, #hk.rv<col, #hk.rt<row, 16x32>>>
!ci = tensor<64xi32, #hk.rv<col, #hk.rt<row, 16x32>>>
!cmask = tensor<64xi1, #hk.rv<col, #hk.rt<row, 16x32>>>

hk.kernel @row_scans(%x: memref<?x?xf32>, %cumsum: memref<?x?xf32>,
                     %runmean: memref<?x?xf32>, %cummax: memref<?x?xf32>,
                     %colsum: memref<?x?xf32>, %colmin: memref<?x?xf32>,
                     %rowmax: memref<?xf32>, %rowarg: memref<?xi32>,
                     %rowid: memref<?xi32>, %colmin1: memref<?xf32>,
                     %colarg: memref<?xi32>)
    attributes {
      waves = 1 : i32,
      grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %neginf = arith.constant 0xFF800000 : f32
  %ones = arith.constant dense<1.0> : !t
  %sum0 = arith.constant dense<0.0> : !rv
  %max0 = arith.constant dense<0xFF800000> : !rv
  %arg0 = arith.constant dense<0> : !ri
  %bx = hk.block_id x
  %N = memref.dim %x, %c1 : memref<?x?xf32>
  %tiles = arith.ceildivui %N, %c64 : index
  %n32 = arith.index_cast %N : index to i32
  %nt = tensor.splat %n32 : !ti
  %cols = hk.iota col : !ti
  %colsf = hk.iota col : !t
  %r:4 = scf.for %j = %c0 to %tiles step %c1
      iter_args(%sum = %sum0, %max = %max0, %best = %max0, %at = %arg0)
      -> (!rv, !rv, !rv, !ri) {
    %xt = hk.load %x[%bx, %j] : memref<?x?xf32> -> !t
    %first = arith.muli %j, %c64 : index
    %first32 = arith.index_cast %first : index to i32
    %firstt = tensor.splat %first32 : !ti
    %gcols = arith.addi %cols, %firstt : !ti
    %inside = arith.cmpi slt, %gcols, %nt : !ti
    %neg = tensor.splat %neginf : !t
    %xm = arith.select %inside, %xt, %neg : !mask, !t

    %s = hk.row_scan sum inclusive %xt init %sum : !rv : !t
    hk.store %s, %cumsum[%bx, %j] : !t, memref<?x?xf32>
    %firstf = arith.sitofp %first32 : i32 to f32
    %firstft = tensor.splat %firstf : !t
    %gcolsf = arith.addf %colsf, %firstft : !t
    %count = arith.addf %gcolsf, %ones : !t
    %mean = arith.divf %s, %count : !t
    hk.store %mean, %runmean[%bx, %j] : !t, memref<?x?xf32>
    %m = hk.row_scan max exclusive %xm init %max : !rv : !t
    hk.store %m, %cummax[%bx, %j] : !t, memref<?x?xf32>

    %v, %a = hk.row_arg max %xm : !t -> !rv, !ri
    %firstv = tensor.splat %first32 : !ri
    %ga = arith.addi %a, %firstv : !ri
    %better = arith.cmpf ogt, %v, %best : !rv
    %best2 = arith.select %better, %v, %best : !rmask, !rv
    %at2 = arith.select %better, %ga, %at : !rmask, !ri

    %sum2 = hk.row_reduce sum %xt init %sum : !t -> !rv
    %max2 = hk.row_reduce max %xm init %max : !t -> !rv
    scf.yield %sum2, %max2, %best2, %at2 : !rv, !rv, !rv, !ri
  }
  hk.store %r#2, %rowmax[%bx] : !rv, memref<?xf32>
  hk.store %r#3, %rowarg[%bx] : !ri, memref<?xi32>
  %ids = hk.iota : !ri
  %row0 = arith.muli %bx, %c32 : index
  %row032 = arith.index_cast %row0 : index to i32
  %row0v = tensor.splat %row032 : !ri
  %gids = arith.addi %ids, %row0v : !ri
  hk.store %gids, %rowid[%bx] : !ri, memref<?xi32>
  hk.return
}

hk.kernel @col_scans(%x: memref<?x?xf32>, %cumsum: memref<?x?xf32>,
                     %runmean: memref<?x?xf32>, %cummax: memref<?x?xf32>,
                     %colsum: memref<?x?xf32>, %colmin: memref<?x?xf32>,
                     %rowmax: memref<?xf32>, %rowarg: memref<?xi32>,
                     %rowid: memref<?xi32>, %colmin1: memref<?xf32>,
                     %colarg: memref<?xi32>)
    attributes {
      waves = 1 : i32,
      grid = #hk.grid<[dim(0, 1)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %posinf = arith.constant 0x7F800000 : f32
  %sum0 = arith.constant dense<0.0> : !cv
  %min0 = arith.constant dense<0x7F800000> : !cv
  %arg0 = arith.constant dense<0> : !ci
  %by = hk.block_id x
  %M = memref.dim %x, %c0 : memref<?x?xf32>
  %tiles = arith.ceildivui %M, %c32 : index
  %c1 = arith.constant 1 : index
  %m32 = arith.index_cast %M : index to i32
  %mt = tensor.splat %m32 : !ui
  %rows = hk.iota row : !ui
  %r:4 = scf.for %i = %c0 to %tiles step %c1
      iter_args(%sum = %sum0, %min = %min0, %best = %min0, %at = %arg0)
      -> (!cv, !cv, !cv, !ci) {
    %xt = hk.load %x[%i, %by] : memref<?x?xf32> -> !u
    %first = arith.muli %i, %c32 : index
    %first32 = arith.index_cast %first : index to i32
    %firstt = tensor.splat %first32 : !ui
    %grows = arith.addi %rows, %firstt : !ui
    %inside = arith.cmpi slt, %grows, %mt : !ui
    %pos = tensor.splat %posinf : !u
    %xm = arith.select %inside, %xt, %pos : !umask, !u

    %s = hk.col_scan sum exclusive %xt init %sum : !cv : !u
    hk.store %s, %colsum[%i, %by] : !u, memref<?x?xf32>
    %n = hk.col_scan min inclusive %xm init %min : !cv : !u
    hk.store %n, %colmin[%i, %by] : !u, memref<?x?xf32>

    %v, %a = hk.col_arg min %xm : !u -> !cv, !ci
    %firstv = tensor.splat %first32 : !ci
    %ga = arith.addi %a, %firstv : !ci
    %better = arith.cmpf olt, %v, %best : !cv
    %best2 = arith.select %better, %v, %best : !cmask, !cv
    %at2 = arith.select %better, %ga, %at : !cmask, !ci

    %sum2 = hk.col_reduce sum %xt init %sum : !u -> !cv
    %min2 = hk.col_reduce min %xm init %min : !u -> !cv
    scf.yield %sum2, %min2, %best2, %at2 : !cv, !cv, !cv, !ci
  }
  hk.store %r#2, %colmin1[%by] : !cv, memref<?xf32>
  hk.store %r#3, %colarg[%by] : !ci, memref<?xi32>
  hk.return
}
