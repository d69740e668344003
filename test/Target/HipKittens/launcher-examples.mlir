// The launcher's shape conditions for every example, derived by hand from
// the kernels (docs/hipkittens-lowering.md, "Ragged tiles"). Each `ceildiv`
// of a size by c, as a grid extent or as a trip count in the body, requires
// the size to be a multiple of c; a quotient of sizes must be exact; each
// tiled dimension must be a multiple of its tile; a condition implied by
// another (x % 32 by x % 256) is not repeated.
// RUN: hk-translate --hk-to-hipkittens %kernels/gemm_bf16/gemm_bf16.mlir | FileCheck %s --check-prefix=GEMM
// RUN: hk-translate --hk-to-hipkittens %kernels/gemm_bf16/gemm_bf16.mlir | FileCheck %s --check-prefix=GEMM-NO
// RUN: hk-translate --hk-to-hipkittens %kernels/softmax/softmax.mlir | FileCheck %s --check-prefix=SOFTMAX
// RUN: hk-translate --hk-to-hipkittens %kernels/softmax/softmax.mlir | FileCheck %s --check-prefix=SOFTMAX-NO
// RUN: hk-translate --hk-to-hipkittens %kernels/layernorm/layernorm.mlir | FileCheck %s --check-prefix=LAYERNORM
// RUN: hk-translate --hk-to-hipkittens %kernels/rmsnorm/rmsnorm.mlir | FileCheck %s --check-prefix=RMSNORM
// RUN: hk-translate --hk-to-hipkittens %kernels/rotary/rotary.mlir | FileCheck %s --check-prefix=ROTARY
// RUN: hk-translate --hk-to-hipkittens %kernels/attention_fwd/attention_fwd.mlir | FileCheck %s --check-prefix=FWD
// RUN: hk-translate --hk-to-hipkittens %kernels/attention_bwd/attention_bwd.mlir | FileCheck %s --check-prefix=BWD

// In the gemm, K steps of 64 (nk = (K + 63) / 64, the second 32-column half of a
// partial last step lies wholly past A and B), and 256x256 output blocks
// (the grid and the tile counts tiles_m, tiles_n).
// GEMM-LABEL: hipError_t launch_gemm_bf16(
// GEMM:         if (A_dim0 % 32 != 0)
// GEMM:         if (B_dim0 % 32 != 0)
// GEMM:         if (B_dim1 % 32 != 0)
// GEMM:         // `tiles_m` = ceildiv(C_dim0, 256) must not count a partial step
// GEMM:         // The grid's ceildiv(C_dim0, 256) must not count a partial workgroup
// GEMM-NEXT:    // tiles would lie partly or wholly past an array.
// GEMM-NEXT:    if (C_dim0 % 256 != 0)
// GEMM-NEXT:      return hipErrorInvalidValue;
// GEMM:         if (C_dim1 % 256 != 0)
// GEMM-NEXT:      return hipErrorInvalidValue;
// GEMM-NEXT:    // `nk` = ceildiv(A_dim1, 64) must not count a partial step, whose tiles would
// GEMM-NEXT:    // lie partly or wholly past an array.
// GEMM-NEXT:    if (A_dim1 % 64 != 0)
// GEMM-NEXT:      return hipErrorInvalidValue;
// GEMM-NEXT:    // #hk.grid
// K % 32 (the tiles) follows from K % 64, M % 64 and N % 32 from % 256.
// GEMM-NO-LABEL: hipError_t launch_gemm_bf16(
// GEMM-NO-NOT:   A_dim1 % 32
// GEMM-NO-NOT:   C_dim0 % 64
// GEMM-NO-NOT:   C_dim1 % 32
// GEMM-NO:       const dim3 grid

// Softmax: 128 rows per workgroup (ceildiv(M, 128) workgroups), 64-column
// tiles counted by ntiles = (N + 63) / 64.
// SOFTMAX-LABEL: hipError_t launch_softmax(
// SOFTMAX:        // `ntiles` = ceildiv(x_dim1, 64)
// SOFTMAX-NEXT:   // would lie partly or wholly past an array.
// SOFTMAX-NEXT:   if (x_dim1 % 64 != 0)
// SOFTMAX:        if (y_dim0 % 32 != 0)
// SOFTMAX:        if (y_dim1 % 64 != 0)
// SOFTMAX:        // The grid's ceildiv(x_dim0, 128) must not count a partial workgroup
// SOFTMAX-NEXT:   // tiles would lie partly or wholly past an array.
// SOFTMAX-NEXT:   if (x_dim0 % 128 != 0)
// SOFTMAX-NEXT:     return hipErrorInvalidValue;
// SOFTMAX-NEXT:   // #hk.grid<[dim(0, 0)] -> (s0 ceildiv 128)>
// SOFTMAX-NO-LABEL: hipError_t launch_softmax(
// SOFTMAX-NO-NOT:   x_dim0 % 32
// SOFTMAX-NO:       const dim3 grid

// LAYERNORM-LABEL: hipError_t launch_layernorm(
// LAYERNORM:         if (x_dim0 % 128 != 0)
// LAYERNORM-NEXT:      return hipErrorInvalidValue;
// LAYERNORM-NEXT:    // #hk.grid

// RMSNORM-LABEL: hipError_t launch_rmsnorm(
// RMSNORM:         if (y_dim0 % 32 != 0)
// RMSNORM:         if (x_dim0 % 128 != 0)
// RMSNORM-NEXT:      return hipErrorInvalidValue;
// RMSNORM-NEXT:    // #hk.grid

// ROTARY-LABEL: hipError_t launch_rotary(
// ROTARY:         if (x_dim2 % 128 != 0)
// ROTARY-NEXT:      return hipErrorInvalidValue;

// Attention forward: 256 query rows per workgroup, KV blocks of 64 (the
// K/V tiles), H_kv dividing H (group = H / H_kv; hkv = h / group must stay
// below H_kv). Both head sizes.
// FWD-LABEL: hipError_t launch_attention_fwd_d128(
// FWD:         if (K_dim2 % 64 != 0)
// FWD:         if (V_dim2 % 64 != 0)
// FWD:         // `group` = Q_dim1 / K_dim1 must be exact
// FWD-NEXT:    // derived from it past an array.
// FWD-NEXT:    if (K_dim1 == 0 || Q_dim1 % K_dim1 != 0)
// FWD-NEXT:      return hipErrorInvalidValue;
// FWD-NEXT:    // The grid's ceildiv(Q_dim2, 256)
// FWD-NEXT:    // tiles would lie partly or wholly past an array.
// FWD-NEXT:    if (Q_dim2 % 256 != 0)
// FWD-NEXT:      return hipErrorInvalidValue;
// FWD-LABEL: hipError_t launch_attention_fwd_d64(
// FWD:         if (K_dim1 == 0 || Q_dim1 % K_dim1 != 0)
// FWD:         if (Q_dim2 % 256 != 0)

// Attention backward: prep over 128-row blocks of dO; the main kernel over
// 128-key blocks (grid), 64-query blocks (nq = (N + 63) / 64), H_kv
// dividing H.
// BWD-LABEL: hipError_t launch_attention_bwd_prep(
// BWD:         if (dO_dim2 % 128 != 0)
// BWD-NEXT:      return hipErrorInvalidValue;
// BWD-LABEL: hipError_t launch_attention_bwd(
// BWD:         // `nq` = ceildiv(Q_dim2, 64)
// BWD-NEXT:    // lie partly or wholly past an array.
// BWD-NEXT:    if (Q_dim2 % 64 != 0)
// BWD:         if (K_dim1 == 0 || Q_dim1 % K_dim1 != 0)
// BWD:         // The grid's ceildiv(K_dim2, 128)
// BWD-NEXT:    // tiles would lie partly or wholly past an array.
// BWD-NEXT:    if (K_dim2 % 128 != 0)
// BWD-NEXT:      return hipErrorInvalidValue;
