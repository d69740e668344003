// RUN: hk-translate --hk-to-hipkittens --chip gfx942 %s | FileCheck %s --check-prefix=CDNA3
// RUN: hk-translate --hk-to-hipkittens --chip gfx950 %s | FileCheck %s --check-prefix=CDNA4

// Register vectors in global memory. HipKittens' cdna3 tree loads and
// stores align and ortho vectors at positions its base tiles do not use
// (include/ops/warp/memory/vec/global_to_register.cuh), so on cdna3 the
// translation defines vec_load and vec_store, which read and write where its
// tile loads put the elements. HipKittens main's own calls are kept.
// test/Target/HipKittens/isa-translated-rows-cdna3.test runs the result.

// CDNA3: template <ducks::rv::all RV, ducks::gl::all GL,
// CDNA3: __device__ inline void vec_load(RV &dst, const GL &src, const COORD &idx) {
// CDNA3: dst[w][k] = base_types::convertor<T2, U2>::convert(
// CDNA3-NEXT: *(const U2 *)&ptr[16 * w + 4 * (lane / 16) + 2 * k]);
// CDNA3: dst[w][0] = base_types::convertor<T2, U>::convert(ptr[16 * w + lane % 16]);
// CDNA3: __device__ inline void vec_store(const GL &dst, const RV &src,
// CDNA3: if (lane % 16 != 0)
// CDNA3: if (lane >= 16)
// CDNA3-LABEL: void vectors(
// CDNA3: rt_fl<32, 16, row_l>::col_vec r;
// CDNA3-NEXT: vec_load(r, R, {0, 0, 0, 0});
// CDNA3: rt_fl<16, 32, row_l>::row_vec c;
// CDNA3-NEXT: vec_load(c, C, {0, 0, 0, 0});
// CDNA3: vec_store(R, r, {0, 0, 0, 0});
// CDNA3-NEXT: vec_store(C, c, {0, 0, 0, 0});

// CDNA4-NOT: vec_load
// CDNA4-LABEL: void vectors(
// CDNA4: load(r, R, {0, 0, 0, 0});
// CDNA4: load(c, C, {0, 0, 0, 0});
// CDNA4: store(R, r, {0, 0, 0, 0});
// CDNA4-NEXT: store(C, c, {0, 0, 0, 0});
// CDNA4-NOT: vec_store

!rv = tensor<32xf32, #hk.rv<row, #hk.rt<row, 16x16>>>
!cv = tensor<32xf32, #hk.rv<col, #hk.rt<row, 16x16>>>
hk.kernel @vectors(%R: memref<32xf32>, %C: memref<32xf32>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %r = hk.load %R[%c0] : memref<32xf32> -> !rv
  %c = hk.load %C[%c0] : memref<32xf32> -> !cv
  hk.store %r, %R[%c0] : !rv, memref<32xf32>
  hk.store %c, %C[%c0] : !cv, memref<32xf32>
  hk.return
}
