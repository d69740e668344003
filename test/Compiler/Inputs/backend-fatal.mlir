// The kernel of test/Conversion/HKToAMDGPU/elementwise.mlir with its row and
// col layouts swapped: the verifier accepts it, and LLVM's AMDGPU backend
// reports an illegal VGPR to SGPR copy, then stops with a fatal error.

hk.kernel @softmaxish(%O: memref<?x?xbf16>, %n: index, %p: i1) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %neginf = arith.constant dense<0xFF800000> : tensor<32x64xf32, #hk.rt<row, 16x16>>
  %half = arith.constant dense<0.5> : tensor<32x64xf32, #hk.rt<row, 16x16>>
  %x = arith.select %p, %half, %neginf : tensor<32x64xf32, #hk.rt<row, 16x16>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %neginf) -> (tensor<32x64xf32, #hk.rt<row, 16x16>>) {
    %m = arith.maximumf %acc, %x : tensor<32x64xf32, #hk.rt<row, 16x16>>
    %s = arith.mulf %m, %half fastmath<fast> : tensor<32x64xf32, #hk.rt<row, 16x16>>
    %e = math.exp2 %s : tensor<32x64xf32, #hk.rt<row, 16x16>>
    scf.yield %e : tensor<32x64xf32, #hk.rt<row, 16x16>>
  }
  %t = arith.truncf %r : tensor<32x64xf32, #hk.rt<row, 16x16>> to tensor<32x64xbf16, #hk.rt<row, 16x16>>
  hk.store %t, %O[%c0, %c0] : tensor<32x64xbf16, #hk.rt<row, 16x16>>, memref<?x?xbf16>
  hk.return
}
