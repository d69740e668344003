// Copies a 64x64 bf16 matrix through LDS: an asynchronous copy into a
// shared tile, a read of it as a col 32x32 `group = 4` register tile (on
// gfx950 with ds_read_b64_tr_b16, its lanes covering 32 columns; on gfx942
// from the tile hk-transpose-shared keeps transposed), and a store of that
// tile (test/Run/col-read-32.test).
hk.kernel @col32(%x: memref<64x64xbf16>, %y: memref<64x64xbf16>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %t = hk.load_async %x[%c0, %c0], %s : memref<64x64xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.wait %t
  %v = hk.load %s : !hk.st<64x64xbf16, 16x32> -> tensor<64x64xbf16, #hk.rt<col, 32x32, group = 4>>
  hk.store %v, %y[%c0, %c0] : tensor<64x64xbf16, #hk.rt<col, 32x32, group = 4>>, memref<64x64xbf16>
  hk.return
}
