// Rotary position embedding, rotate-half form (GPT-NeoX / HipKittens'
// rotary kernel), D = 128:
//   out[b, h, n, d]        = x1 * cos[n, d] - x2 * sin[n, d]
//   out[b, h, n, d + D/2]  = x2 * cos[n, d] + x1 * sin[n, d]
// with x1 = x[b, h, n, d], x2 = x[b, h, n, d + D/2], d in [0, D/2).
//
// Arguments:
//   %x   : memref<?x?x?x128xbf16>  [B, H, N, D]
//   %cos : memref<?x64xbf16>       [N, D/2]
//   %sin : memref<?x64xbf16>       [N, D/2]
//   %out : memref<?x?x?x128xbf16>  [B, H, N, D]
// Math in f32, result rounded to bf16.
//
// Grid: (ceildiv(N, 128), H, B), 4 waves; wave w handles rows
// [128x + 32w, +32) of head (b, h): the two halves of x as 32x64 tiles (tile
// columns 0 and 1) and the matching 32x64 tile of cos and sin. Rows past N
// read zeros and their stores are dropped. Purely elementwise, so any
// register layout works; the one used is the 16x32 row layout, 8 contiguous
// bf16 (16 bytes) per lane and base tile.
// HipKittens' rotary kernel does the same per-row-tile work (load, split in
// halves, mul/sub/add, store); it is memory bound.
!half_bf = tensor<32x64xbf16, #hk.rt<row, 16x32>>
!half_f = tensor<32x64xf32, #hk.rt<row, 16x32>>

hk.kernel @rotary(%x: memref<?x?x?x128xbf16>, %cos: memref<?x64xbf16>,
                  %sin: memref<?x64xbf16>, %out: memref<?x?x?x128xbf16>)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(0, 2), dim(0, 1), dim(0, 0)]
                      -> (s0 ceildiv 128, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %nblk = hk.block_id x
  %h = hk.block_id y
  %b = hk.block_id z
  %w = hk.wave_id
  %n4 = arith.muli %nblk, %c4 : index
  %tile = arith.addi %n4, %w : index

  %x1b = hk.load %x[%b, %h, %tile, %c0] : memref<?x?x?x128xbf16> -> !half_bf
  %x2b = hk.load %x[%b, %h, %tile, %c1] : memref<?x?x?x128xbf16> -> !half_bf
  %cb = hk.load %cos[%tile, %c0] : memref<?x64xbf16> -> !half_bf
  %sb = hk.load %sin[%tile, %c0] : memref<?x64xbf16> -> !half_bf
  %x1 = arith.extf %x1b : !half_bf to !half_f
  %x2 = arith.extf %x2b : !half_bf to !half_f
  %c = arith.extf %cb : !half_bf to !half_f
  %s = arith.extf %sb : !half_bf to !half_f

  %x1c = arith.mulf %x1, %c : !half_f
  %x2s = arith.mulf %x2, %s : !half_f
  %o1 = arith.subf %x1c, %x2s : !half_f
  %x2c = arith.mulf %x2, %c : !half_f
  %x1s = arith.mulf %x1, %s : !half_f
  %o2 = arith.addf %x2c, %x1s : !half_f

  %o1b = arith.truncf %o1 : !half_f to !half_bf
  %o2b = arith.truncf %o2 : !half_f to !half_bf
  hk.store %o1b, %out[%b, %h, %tile, %c0] : !half_bf, memref<?x?x?x128xbf16>
  hk.store %o2b, %out[%b, %h, %tile, %c1] : !half_bf, memref<?x?x?x128xbf16>
  hk.return
}
