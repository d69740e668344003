// B[b, h, j] = 2 * A[b, h, j] + 1 for j < N_B, with A[b, h, j] read as 0
// for j >= N_A: one wave per 64 positions of a row of B, the vectors in the
// replicated row layout of a col 16x16 accumulator (four runs of four f32
// per lane). A's and B's rows are contiguous, so a row's end is not the
// end of the buffer: past it lie the next row's elements.
!v = tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>

hk.kernel @vec_rows(%A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>)
    attributes {waves = 1 : i32,
                grid = #hk.grid<[dim(1, 2), dim(1, 1), dim(1, 0)]
                                -> (s0 ceildiv 64, s1, s2)>} {
  %x = hk.block_id x
  %h = hk.block_id y
  %b = hk.block_id z
  %two = arith.constant dense<2.0> : !v
  %one = arith.constant dense<1.0> : !v
  %a = hk.load %A[%b, %h, %x] : memref<?x?x?xf32> -> !v
  %m = arith.mulf %a, %two : !v
  %y = arith.addf %m, %one : !v
  hk.store %y, %B[%b, %h, %x] : !v, memref<?x?x?xf32>
  hk.return
}
