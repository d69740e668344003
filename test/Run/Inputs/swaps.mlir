// Layout changes by hk.swap_layout, each stored back where its elements
// belong (test/Run/swap-layout.test): the output must equal the input.
//   @swap_f32: 16x16 f32, col 16x16 -> row 16x16 (two butterflies and a
//              lane permutation of 32-bit registers);
//   @swap_bf16: 64x32 bf16, col 16x16 -> row 16x32 (attention backward's
//              dS: three butterflies, one over lane bit 2, and a lane
//              permutation, on 16-bit registers moved in pairs);
//   @swap_back: 64x32 bf16, row 16x32 -> col 16x16 (the inverse).
// Each kernel also allocates 64 KiB of LDS it does not use: gfx942 then has
// no room to stage a swap through LDS (hk-stage-swaps), so its code moves
// the elements between lanes, while gfx950's stages them.
hk.kernel @swap_f32(%x: memref<16x16xf32>, %y: memref<16x16xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %pad = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  %v = hk.load %x[%c0, %c0] : memref<16x16xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %w = hk.swap_layout %v : tensor<16x16xf32, #hk.rt<col, 16x16>> -> tensor<16x16xf32, #hk.rt<row, 16x16>>
  hk.store %w, %y[%c0, %c0] : tensor<16x16xf32, #hk.rt<row, 16x16>>, memref<16x16xf32>
  hk.return
}

hk.kernel @swap_bf16(%x: memref<64x32xbf16>, %y: memref<64x32xbf16>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %pad = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  %v = hk.load %x[%c0, %c0] : memref<64x32xbf16> -> tensor<64x32xbf16, #hk.rt<col, 16x16>>
  %w = hk.swap_layout %v : tensor<64x32xbf16, #hk.rt<col, 16x16>> -> tensor<64x32xbf16, #hk.rt<row, 16x32>>
  hk.store %w, %y[%c0, %c0] : tensor<64x32xbf16, #hk.rt<row, 16x32>>, memref<64x32xbf16>
  hk.return
}

hk.kernel @swap_back(%x: memref<64x32xbf16>, %y: memref<64x32xbf16>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %pad = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  %v = hk.load %x[%c0, %c0] : memref<64x32xbf16> -> tensor<64x32xbf16, #hk.rt<row, 16x32>>
  %w = hk.swap_layout %v : tensor<64x32xbf16, #hk.rt<row, 16x32>> -> tensor<64x32xbf16, #hk.rt<col, 16x16>>
  hk.store %w, %y[%c0, %c0] : tensor<64x32xbf16, #hk.rt<col, 16x16>>, memref<64x32xbf16>
  hk.return
}
