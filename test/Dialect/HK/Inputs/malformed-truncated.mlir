hk.kernel @k(%A: memref<?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %t = hk.load_async %A[%c0, %c0], %s : memref<?x?xbf16>, !hk.st<64x
