// RUN: not hk-translate --hk-to-hipkittens --chip gfx950 -split-input-file %s 2>&1 | FileCheck %s --check-prefix=MAIN
// RUN: not hk-translate --hk-to-hipkittens --chip gfx942 -split-input-file %s 2>&1 | FileCheck %s --check-prefix=CDNA3

// What neither HipKittens tree has, nor LDS can make up for, stops the
// translation at the op, naming what is missing. From the trees' headers:
// - mma (ops/warp/register/tile/mma.cuh): main's MFMAs take bf16 (and fp8
//   for mma_ABt), cdna3's bf16 into f32; no f16 into f32 on either.
// - main's mma_AtB into a 16x16 D takes 32x16 col base tiles: a 16x16
//   operand (K = 16) is not made of them.
// - moving an operand through LDS needs a scratch per wave beside the
//   kernel's shared tiles: 4 waves x 32*32 bf16 = 8192 bytes beside
//   2 x 128*256*2 + 64*256*2 = 163840 bytes, more than gfx950's 160 KiB.
// - shared tiles that exceed the chip's LDS are an error on either tree.
// - cdna3's shared tiles are made of 16x16 subtiles (types/shared/st.cuh
//   static_asserts rows % 16): an 8x32 shared tile is not.

// MAIN-NOT: __global__
// MAIN: offset :{{[0-9]+}}:8: error: HipKittens (cdna4) has no mma_ABt of 'f16' into f32 (its MFMAs take bf16, and fp8 for mma_ABt)
// CDNA3: offset :{{[0-9]+}}:8: error: HipKittens (cdna3) has no mma_ABt of 'f16' into f32 (its MFMAs take bf16 into f32)
!h = tensor<32x32xf16, #hk.rt<row, 16x32>>
!acc = tensor<32x32xf32, #hk.rt<col, 16x16>>
hk.kernel @f16_mma(%A: memref<?x?xf16>, %C: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf16> -> !h
  %zero = arith.constant dense<0.0> : !acc
  %d = hk.mma abt %a, %a, %zero : !h, !h, !acc
  hk.store %d, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}

// -----

// MAIN: offset :{{[0-9]+}}:8: error: HipKittens (cdna4) takes this operand only in 32x16 base tiles, which a 16x16 tile is not made of
// CDNA3-NOT: offset :{{[0-9]+}}:8: error
!c16 = tensor<16x16xbf16, #hk.rt<col, 16x16>>
!acc = tensor<16x16xf32, #hk.rt<col, 16x16>>
hk.kernel @short_k(%A: memref<?x?xf32>, %C: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.load %A[%c0, %c0] : memref<?x?xf32> -> !acc
  %p = arith.truncf %s : !acc to !c16
  %d = hk.mma atb %p, %p, %s : !c16, !c16, !acc
  hk.store %d, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}

// -----

// MAIN: offset :{{[0-9]+}}:8: error: HipKittens (cdna4) has no call for these base tiles, and moving them through LDS needs 8192 bytes beside the kernel's 163840 bytes of shared tiles, more than the 163840 bytes of LDS of gfx950
// On gfx942 the shared tiles alone exceed its 64 KiB of LDS.
// CDNA3: offset :{{[0-9]+}}:1: error: the shared tiles need 163840 bytes of LDS, more than the 65536 bytes of gfx942
!c16 = tensor<32x32xbf16, #hk.rt<col, 16x16>>
!acc = tensor<32x32xf32, #hk.rt<col, 16x16>>
!big = !hk.st<128x256xbf16, 16x32>
!rest = !hk.st<64x256xbf16, 16x32>
hk.kernel @no_lds_left(%A: memref<?x?xf32>, %C: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %t0 = hk.alloc_shared : !big
  %t1 = hk.alloc_shared : !big
  %t2 = hk.alloc_shared : !rest
  %s = hk.load %A[%c0, %c0] : memref<?x?xf32> -> !acc
  %p = arith.truncf %s : !acc to !c16
  %d = hk.mma atb %p, %p, %s : !c16, !c16, !acc
  hk.store %d, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}

// -----

// MAIN-NOT: offset :{{[0-9]+}}:8: error
// CDNA3: offset :{{[0-9]+}}:8: error: HipKittens (cdna3) builds shared tiles from 16x16 subtiles; a 8x32 tile is not made of them
!s8 = !hk.st<8x32xbf16, 8x32>
hk.kernel @st8(%A: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !s8
  hk.load_async %A[%c0, %c0], %t : memref<?x?xbf16>, !s8
  hk.return
}
