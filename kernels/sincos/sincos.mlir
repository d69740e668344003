// Sine and cosine of a runtime M x N f32 matrix, over a wide range of
// arguments (|x| from 2^-8 to 2^24 in the test):
//   sin[i, j] = sin(x[i, j])      cos[i, j] = cos(x[i, j])
//
// Arguments:
//   %x   : memref<?x?xf32>  [M, N]
//   %sin : memref<?x?xf32>  [M, N]
//   %cos : memref<?x?xf32>  [M, N]
//
// math.sin and math.cos lower to FMAs (lib/Conversion/HKToAMDGPU/Trig.cpp):
// a reduction to quarter turns with 2/pi in two f32 pieces and Taylor
// polynomials on [-pi/4, pi/4], within 2^-21 + 2^-45 |x| of the exact
// values. The f16 and bf16 forms go through f32 (checked on bf16 tiles by
// the second pair of outputs: sin and cos of bf16(x), rounded to bf16).
//   sin16[i, j] = bf16(sin(bf16(x)))   cos16[i, j] = bf16(cos(bf16(x)))
//
// Grid: ceildiv(M, 128) x ceildiv(N, 64) workgroups of 4 waves; wave w of
// workgroup (bx, by) handles rows [128 bx + 32 w, +32) and columns
// [64 by, +64) as one 32x64 tile in the 16x32 row layout. Parts of a ragged
// tile past M or N read zeros and their stores are dropped. HipKittens has
// no sin or cos among its base ops: hk-translate refuses the kernel at
// math.sin.
!t_f = tensor<32x64xf32, #hk.rt<row, 16x32>>
!t_bf = tensor<32x64xbf16, #hk.rt<row, 16x32>>

hk.kernel @sincos(%x: memref<?x?xf32>, %sin: memref<?x?xf32>,
                  %cos: memref<?x?xf32>, %sin16: memref<?x?xbf16>,
                  %cos16: memref<?x?xbf16>)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(0, 0), dim(0, 1)] -> (s0 ceildiv 128, s1 ceildiv 64)>} {
  %c4 = arith.constant 4 : index
  %bx = hk.block_id x
  %by = hk.block_id y
  %w = hk.wave_id
  %bx4 = arith.muli %bx, %c4 : index
  %row = arith.addi %bx4, %w : index
  %xf = hk.load %x[%row, %by] : memref<?x?xf32> -> !t_f
  %s = math.sin %xf : !t_f
  hk.store %s, %sin[%row, %by] : !t_f, memref<?x?xf32>
  %c = math.cos %xf : !t_f
  hk.store %c, %cos[%row, %by] : !t_f, memref<?x?xf32>
  %xb = arith.truncf %xf : !t_f to !t_bf
  %sb = math.sin %xb : !t_bf
  hk.store %sb, %sin16[%row, %by] : !t_bf, memref<?x?xbf16>
  %cb = math.cos %xb : !t_bf
  hk.store %cb, %cos16[%row, %by] : !t_bf, memref<?x?xbf16>
  hk.return
}
