// A 16-bit float tile whose every lane holds the same values (made of
// constants and a kernel argument only): LLVM's AMDGPU backend stopped with
// "illegal VGPR to SGPR copy" on the llvm.arithmetic.fence that keeps the
// packed bf16 conversion whole (FencePackedTruncs), which instruction
// selection put in a scalar register. The fence is dropped from uniform
// values after LLVM's optimization pipeline (lib/Target/AMDGPU/Optimize.cpp).
// RUN: hkc %s --chip gfx942,gfx950 --emit=artifact -o %t
// RUN: hkc %S/../Conversion/HKToAMDGPU/elementwise.mlir --chip gfx942,gfx950 -o %t.elementwise
// The kernel on the ISA simulator: exp2(0.5) = 1.41421354 (f32) is bf16
// 0x3fb5 (1.4140625), exp2(-inf) = 0; every element of the 32x64 tile.
// RUN: %hk_obj_root/bin/hk-run --artifact %t.hkrt --kernel uniform --launch-only --args 32x64,1 --chip gfx942 --device isa --save 0=%t.a.npy
// RUN: %hk_obj_root/bin/hk-run --artifact %t.hkrt --kernel uniform --launch-only --args 32x64,0 --chip gfx950 --device isa --save 0=%t.b.npy
// RUN: %hk_python -c "import numpy as np; a = np.load('%t.a.npy'); b = np.load('%t.b.npy'); assert a.shape == (32, 64) and (a == 0x3fb5).all(), a; assert (b == 0).all(), b"
hk.kernel @uniform(%O: memref<?x?xbf16>, %p: i1) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %half = arith.constant dense<0.5> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %neginf = arith.constant dense<0xFF800000> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %x = arith.select %p, %half, %neginf : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %e = math.exp2 %x : tensor<32x64xf32, #hk.rt<col, 16x16>>
  %t = arith.truncf %e : tensor<32x64xf32, #hk.rt<col, 16x16>> to tensor<32x64xbf16, #hk.rt<col, 16x16>>
  hk.store %t, %O[%c0, %c0] : tensor<32x64xbf16, #hk.rt<col, 16x16>>, memref<?x?xbf16>
  hk.return
}
