// RUN: hk-translate --hk-to-hipkittens --chip gfx950 %s | FileCheck %s --check-prefix=CDNA4
// RUN: hk-translate --hk-to-hipkittens --chip gfx942 %s | FileCheck %s --check-prefix=CDNA3
// RUN: hk-translate --hk-to-hipkittens %s | FileCheck %s --check-prefix=CDNA4
// RUN: not hk-translate --hk-to-hipkittens --chip gfx90a %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not hk-translate --hk-to-hipkittens --hk-arch=cdna4 %s 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not hk-translate --hk-to-hipkittens --chip gfx950 --hk-arch=cdna3 %s 2>&1 | FileCheck %s --check-prefix=OLD

// The chip picks HipKittens' tree (branch main for gfx950, cdna3 for gfx942;
// KITTENS_CDNA4/3) and the target of the build line. This kernel is
// spelled differently: cdna3's tiles have no base-shape argument.

// CDNA4: // Build: hipcc -std=c++20 --offload-arch=gfx950 -I$HIPKITTENS_ROOT/include (HipKittens branch main)
// CDNA4-NEXT: #ifndef KITTENS_CDNA4
// CDNA4-NEXT: #define KITTENS_CDNA4
// CDNA4-NEXT: #endif
// CDNA4-NEXT: #include "kittens.cuh"
// CDNA4: rt_bf<16, 32, row_l, rt_16x32_s> x;
// CDNA4-NEXT: load(x, X, {0, 0, 0, 0});

// CDNA3: // Build: hipcc -std=c++20 --offload-arch=gfx942 -I$HIPKITTENS_ROOT/include (HipKittens branch cdna3)
// CDNA3-NEXT: #ifndef KITTENS_CDNA3
// CDNA3-NEXT: #define KITTENS_CDNA3
// CDNA3-NEXT: #endif
// CDNA3-NEXT: #include "kittens.cuh"
// CDNA3: rt_bf<16, 32, row_l> x;
// CDNA3-NEXT: load(x, X, {0, 0, 0, 0});

// BAD: error: unknown chip 'gfx90a'; supported: gfx942, gfx950
// BAD-NOT: #include

// The option the chip replaced is refused, naming its replacement.
// OLD: error: --hk-arch was replaced by --chip: name the chip, and the chip picks the HipKittens tree (gfx942: cdna3, gfx950: main)
// OLD-NOT: #include

!s = tensor<16x32xbf16, #hk.rt<row, 16x32>>
hk.kernel @same(%X: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xbf16> -> !s
  hk.store %x, %X[%c0, %c0] : !s, memref<?x?xbf16>
  hk.return
}
