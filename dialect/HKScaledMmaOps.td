//===- HKScaledMmaOps.td - block-scaled MMA (OCP MX) ------------*- tablegen -*-===//
//
// The MMA of the OCP microscaling (MX) formats: 8-, 6- and 4-bit float
// operands whose blocks of 32 elements along K share one e8m0 scale, on
// gfx950's scaled f8f6f4 MFMAs. Included from HKOps.td.
//===----------------------------------------------------------------------===//

#ifndef HK_SCALED_MMA_OPS_TD
#define HK_SCALED_MMA_OPS_TD

def HK_MmaScaledOp : HK_Op<"mma_scaled",
    [Pure, AllTypesMatch<["c", "result"]>]> {
  let summary = "block-scaled (OCP MX) matrix multiply-accumulate";
  let description = [{
    `result[i][j] = c[i][j] + sum_k (sa[i][k/32] a[i][k]) (sb[j][k/32] b[j][k])`:
    the product of A (`MxK`) and B given as `NxK` (both K-minor, as
    `hk.mma abt`), each block of 32 elements along K of a row of A or B
    multiplied by its e8m0 scale (`f8E8M0FNU`: a power of two, `2^(code -
    127)`; the NaN code makes the block NaN), accumulated in f32.

    Two forms, named by the accumulator's base tile, the operand layouts of
    gfx950's two scaled MFMAs:

    | accumulator (`col`, f32) | A, B base tile | scale base tile | MFMA |
    |---|---|---|---|
    | 16x16 | 16x128 | 16x4 | `v_mfma_scale_f32_16x16x128_f8f6f4` |
    | 32x32, `group = 4` | 32x64 | 32x2 | `v_mfma_scale_f32_32x32x64_f8f6f4` |

    A and B are `row` tiles of `f8E4M3FN`, `f8E5M2`, `f6E2M3FN`, `f6E3M2FN`
    or `f4E2M1FN` (A and B may differ), with `group = 16` for the 8-bit
    types and the default `group = 32` for the narrower ones: in both forms
    a lane keeps 32 elements of one row, which fall in the 32-element blocks
    its scale covers. The scales are `MxK/32` (`NxK/32`) `row` tiles (one
    scale per lane: lane `l` holds row `l % base`, block `l / base`, the
    MFMA's scale operand).

    Only gfx950 has the scaled MFMAs: `hk-check-target` refuses the op on
    other chips.
    ```mlir
    %d = hk.mma_scaled %a[%sa], %b[%sb], %c
        : tensor<64x256xf4E2M1FN, #hk.rt<row, 16x128>>,
          tensor<64x8xf8E8M0FNU, #hk.rt<row, 16x4>>,
          tensor<32x256xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>,
          tensor<32x8xf8E8M0FNU, #hk.rt<row, 16x4>>,
          tensor<64x32xf32, #hk.rt<col, 16x16>>
    %e = hk.mma_scaled %a2[%sa2], %b2[%sb2], %c2
        : tensor<64x128xf6E2M3FN, #hk.rt<row, 32x64>>,
          tensor<64x4xf8E8M0FNU, #hk.rt<row, 32x2>>,
          tensor<32x128xf8E5M2, #hk.rt<row, 32x64, group = 16>>,
          tensor<32x4xf8E8M0FNU, #hk.rt<row, 32x2>>,
          tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
    ```
  }];
  let arguments = (ins HK_RegTile:$a, HK_RegTile:$aScale, HK_RegTile:$b,
    HK_RegTile:$bScale, HK_RegTile:$c);
  let results = (outs HK_RegTile:$result);
  let assemblyFormat = [{
    $a `[` $aScale `]` `,` $b `[` $bScale `]` `,` $c attr-dict `:`
    type($a) `,` type($aScale) `,` type($b) `,` type($bScale) `,` type($c)
  }];
  let hasVerifier = 1;
}

#endif // HK_SCALED_MMA_OPS_TD
