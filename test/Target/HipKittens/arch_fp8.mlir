// RUN: not hk-translate --hk-to-hipkittens --chip gfx950 -split-input-file %s 2>&1 | FileCheck %s --check-prefix=CDNA4
// RUN: not hk-translate --hk-to-hipkittens --chip gfx942 -split-input-file %s 2>&1 | FileCheck %s --check-prefix=CDNA3

// HipKittens' fp8e4m3 is the OCP format on CDNA4 and FNUZ on CDNA3, the
// formats each chip's MFMAs take, but HipKittens' cdna3 tree has no fp8 tiles
// at all (its base types are bf16, half and float); 16x128 base tiles exist
// only on CDNA4.

// CDNA4-DAG: void ocp(const gl<fp8e4m3, -1, -1, -1, -1> X)
// CDNA4-DAG: rt_fp8e4m3<16, 128, row_l, rt_16x128_s> x;
// CDNA3: offset :{{[0-9]+}}:1: error: HipKittens (cdna3) has no tile element type for 'f8E4M3FN'
!s = tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>
hk.kernel @ocp(%X: memref<?x?xf8E4M3FN>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf8E4M3FN> -> !s
  hk.store %x, %X[%c0, %c0] : !s, memref<?x?xf8E4M3FN>
  hk.return
}

// -----

// CDNA4-DAG: offset :{{[0-9]+}}:1: error: HipKittens (cdna4) has no tile element type for 'f8E4M3FNUZ'
// CDNA3: offset :{{[0-9]+}}:1: error: HipKittens (cdna3) has no fp8 tiles (fp8e4m3 is in its main tree only), needed for 'f8E4M3FNUZ'
!s = tensor<16x128xf8E4M3FNUZ, #hk.rt<row, 16x128, group = 16>>
hk.kernel @fnuz(%X: memref<?x?xf8E4M3FNUZ>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf8E4M3FNUZ> -> !s
  hk.store %x, %X[%c0, %c0] : !s, memref<?x?xf8E4M3FNUZ>
  hk.return
}
