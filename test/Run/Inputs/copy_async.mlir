// A 64x64 tile of A through LDS into C: hk.load_async (LDS DMA on the
// columns it can, staged through registers where a piece crosses the row
// end, in an scf.if that diverges within a wave), hk.wait, a barrier, and
// hk.store of the shared tile; the second copy uses 2 of the 4 waves.
hk.kernel @copy(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %bx = hk.block_id x
  %as = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %t = hk.load_async %A[%bx, %c0], %as : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.wait %t
  hk.barrier
  %t2 = hk.load_async %A[%bx, %c0], %as waves = 2 : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.wait %t2
  hk.barrier
  hk.store %as, %C[%bx, %c0] : !hk.st<64x64xbf16, 16x32>, memref<?x?xbf16>
  hk.return
}
