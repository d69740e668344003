// Rounds a 64x64 f32 matrix to bf16 with `arith.truncf fastmath<nnan>` and
// stores it (test/Run/bf16-nnan.test). On gfx942, which has no bf16
// conversion instruction, the flag selects the lowering's integer
// round-to-nearest-even without a NaN test; gfx950 converts with
// v_cvt_pk_bf16_f32.
!f = tensor<64x64xf32, #hk.rt<row, 32x32, group = 4>>
!b = tensor<64x64xbf16, #hk.rt<row, 32x32, group = 4>>
hk.kernel @trunc_nnan(%x: memref<64x64xf32>, %y: memref<64x64xbf16>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = hk.load %x[%c0, %c0] : memref<64x64xf32> -> !f
  %t = arith.truncf %v fastmath<nnan> : !f to !b
  hk.store %t, %y[%c0, %c0] : !b, memref<64x64xbf16>
  hk.return
}
