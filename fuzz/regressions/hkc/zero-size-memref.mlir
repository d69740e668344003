// A memref argument with a dimension of static size 0: the verifier accepted
// it and LLVM's AMDGPU backend stopped on gfx950 (illegal VGPR to SGPR copy),
// leaving the compile's memory unfreed; now refused by hk.kernel's verifier.
hk.kernel @zero_rows(%x: memref<0x64xf32>, %y: memref<64x64xbf16>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = hk.load %x[%c0, %c0] : memref<0x64xf32> -> tensor<64x64xf32, #hk.rt<row, 32x32, group = 4>>
  %t = arith.truncf %v : tensor<64x64xf32, #hk.rt<row, 32x32, group = 4>> to tensor<64x64xbf16, #hk.rt<row, 32x32, group = 4>>
  hk.store %t, %y[%c0, %c0] : tensor<64x64xbf16, #hk.rt<row, 32x32, group = 4>>, memref<64x64xbf16>
  hk.return
}
