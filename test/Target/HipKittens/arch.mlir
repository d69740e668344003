// RUN: hk-translate --hk-to-hipkittens --hk-arch=cdna4 %s | FileCheck %s --check-prefix=CDNA4
// RUN: hk-translate --hk-to-hipkittens --hk-arch=cdna3 %s | FileCheck %s --check-prefix=CDNA3
// RUN: hk-translate --hk-to-hipkittens %s | FileCheck %s --check-prefix=CDNA4
// RUN: not hk-translate --hk-to-hipkittens --hk-arch=cdna2 %s 2>&1 | FileCheck %s --check-prefix=BAD

// The architecture picks HipKittens' include tree (KITTENS_CDNA3/4) and the
// target of the build line; the kernel itself is the same.

// CDNA4: // Build: hipcc -std=c++20 --offload-arch=gfx950
// CDNA4-NEXT: #ifndef KITTENS_CDNA4
// CDNA4-NEXT: #define KITTENS_CDNA4
// CDNA4-NEXT: #endif
// CDNA4-NEXT: #include "kittens.cuh"
// CDNA4: load(x, X, {0, 0, 0, 0});

// CDNA3: // Build: hipcc -std=c++20 --offload-arch=gfx942
// CDNA3-NEXT: #ifndef KITTENS_CDNA3
// CDNA3-NEXT: #define KITTENS_CDNA3
// CDNA3-NEXT: #endif
// CDNA3-NEXT: #include "kittens.cuh"
// CDNA3: load(x, X, {0, 0, 0, 0});

// BAD: error: unknown --hk-arch 'cdna2': expected cdna4 or cdna3

!s = tensor<16x32xbf16, #hk.rt<row, 16x32>>
hk.kernel @same(%X: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xbf16> -> !s
  hk.store %x, %X[%c0, %c0] : !s, memref<?x?xbf16>
  hk.return
}
