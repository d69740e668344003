// Shared tiles whose subtiles are at least 32 rows of one 16-byte chunk:
// SharedLayout.h places their rows (r ^ ((r >> 1) & 12)). Each kernel moves
// a 64x32 tile from %x to %y through such a shared tile by two different
// paths of the lowering, so that the output equals the input only if both
// agree on where each row is (test/Run/placed-rows.test):
//   @dma_*: hk.load_async (LDS DMA, the layout applied on the global side:
//           rowAt) then hk.load into registers (placedRow) and hk.store;
//   @reg_*: hk.load from %x, hk.store into the shared tile (placedRow),
//           then hk.store of the shared tile to %y (rowAt).
// fp8 in 32x16 and 64x16 subtiles read as 32x32 row base tiles (a lane's 16
// bytes of one row, rows r and r + 16 in one LDS phase), bf16 in 32x8 and
// 64x8 subtiles as 32x16 row base tiles. The LDS DMA kernels take 1024-byte
// subtiles: gfx950's DMA moves 16 bytes per lane, a whole row, and a
// 512-byte subtile would need 8, which its DMA does not have.

!fp8x = memref<64x32x!hk.fp8>
!bf16x = memref<64x32xbf16>
!rt8 = tensor<64x32x!hk.fp8, #hk.rt<row, 32x32>>
!rt16 = tensor<64x32xbf16, #hk.rt<row, 32x16>>

hk.kernel @reg_fp8_32(%x: !fp8x, %y: !fp8x)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x32x!hk.fp8, 32x16>
  %v = hk.load %x[%c0, %c0] : !fp8x -> !rt8
  hk.store %v, %s : !rt8, !hk.st<64x32x!hk.fp8, 32x16>
  hk.barrier
  hk.store %s, %y[%c0, %c0] : !hk.st<64x32x!hk.fp8, 32x16>, !fp8x
  hk.return
}

hk.kernel @dma_fp8_64(%x: !fp8x, %y: !fp8x)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x32x!hk.fp8, 64x16>
  %t = hk.load_async %x[%c0, %c0], %s : !fp8x, !hk.st<64x32x!hk.fp8, 64x16>
  hk.wait %t
  hk.barrier
  %v = hk.load %s : !hk.st<64x32x!hk.fp8, 64x16> -> !rt8
  hk.store %v, %y[%c0, %c0] : !rt8, !fp8x
  hk.return
}

hk.kernel @reg_fp8_64(%x: !fp8x, %y: !fp8x)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x32x!hk.fp8, 64x16>
  %v = hk.load %x[%c0, %c0] : !fp8x -> !rt8
  hk.store %v, %s : !rt8, !hk.st<64x32x!hk.fp8, 64x16>
  hk.barrier
  hk.store %s, %y[%c0, %c0] : !hk.st<64x32x!hk.fp8, 64x16>, !fp8x
  hk.return
}

hk.kernel @dma_bf16_64(%x: !bf16x, %y: !bf16x)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x32xbf16, 64x8>
  %t = hk.load_async %x[%c0, %c0], %s : !bf16x, !hk.st<64x32xbf16, 64x8>
  hk.wait %t
  hk.barrier
  %v = hk.load %s : !hk.st<64x32xbf16, 64x8> -> !rt16
  hk.store %v, %y[%c0, %c0] : !rt16, !bf16x
  hk.return
}

hk.kernel @reg_bf16_32(%x: !bf16x, %y: !bf16x)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x32xbf16, 32x8>
  %v = hk.load %x[%c0, %c0] : !bf16x -> !rt16
  hk.store %v, %s : !rt16, !hk.st<64x32xbf16, 32x8>
  hk.barrier
  hk.store %s, %y[%c0, %c0] : !hk.st<64x32xbf16, 32x8>, !bf16x
  hk.return
}
