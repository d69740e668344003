// f32 -> bf16 with an explicit rounding mode: LLVM's AMDGPU backend stopped
// with "unsupported library call operation" on both chips, leaving the
// compile's memory unfreed; now refused at the op by hk-check-target.
hk.kernel @t(%x: memref<32xf32>, %y: memref<32xbf16>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<32xf32>
  %c = arith.truncf %v toward_zero : f32 to bf16
  memref.store %c, %y[%c0] : memref<32xbf16>
  hk.return
}
