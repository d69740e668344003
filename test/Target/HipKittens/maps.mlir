// RUN: hk-translate --hk-to-hipkittens -split-input-file %s | FileCheck %s

// Softmax-style row math on a col-layout tile: reductions into col_vec
// (one value per row), row broadcasts, exp2, a scalar splat passed as the
// map's scalar, and the bf16 conversion as copy.

!s = tensor<32x64xf32, #hk.rt<col, 16x16>>
!sb = tensor<32x64xbf16, #hk.rt<col, 16x16>>
!v = tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>

// CHECK-LABEL: void softmax_rows(
// CHECK-NEXT:   rt_fl<32, 64, col_l, rt_16x16_s> s0;
// CHECK-NEXT:   load(s0, X, {0, 0, 0, 0});
// CHECK-NEXT:   mul(s0, s0, 0.125f);
// CHECK-NEXT:   rt_fl<32, 16, col_l, rt_16x16_s>::col_vec m;
// CHECK-NEXT:   row_max(m, s0);
// CHECK-NEXT:   sub_row(s0, s0, m);
// CHECK-NEXT:   exp2(s0, s0);
// CHECK-NEXT:   rt_fl<32, 16, col_l, rt_16x16_s>::col_vec l;
// CHECK-NEXT:   row_sum(l, s0);
// CHECK-NEXT:   div_row(s0, s0, l);
// CHECK-NEXT:   rt_bf<32, 64, col_l, rt_16x16_s> pb;
// CHECK-NEXT:   copy(pb, s0);
// CHECK-NEXT:   store(Y, pb, {0, 0, 0, 0});
// CHECK-NEXT: }
hk.kernel @softmax_rows(%X: memref<?x?xf32>, %Y: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %scale = arith.constant dense<0.125> : !s
  %s0 = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !s
  %s = arith.mulf %s0, %scale : !s
  %m = hk.row_reduce max %s : !s -> !v
  %d = hk.row_broadcast sub %s, %m : !s, !v
  %p = math.exp2 %d : !s
  %l = hk.row_reduce sum %p : !s -> !v
  %n = hk.row_broadcast div %p, %l : !s, !v
  %pb = arith.truncf %n : !s to !sb
  hk.store %pb, %Y[%c0, %c0] : !sb, memref<?x?xbf16>
  hk.return
}

// -----

// Reductions with an accumulator, column forms (row_vec), broadcast copy,
// the other maps, and -inf constants as neg_infty.

!s = tensor<32x64xf32, #hk.rt<col, 16x16>>
!rv = tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!cv = tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>

// CHECK-LABEL: void reductions(
// CHECK:        rt_fl<32, 16, col_l, rt_16x16_s>::col_vec m0;
// CHECK-NEXT:   neg_infty(m0);
// CHECK-NEXT:   row_max(m0, s, m0);
// CHECK-NEXT:   rt_fl<16, 64, col_l, rt_16x16_s>::row_vec c;
// CHECK-NEXT:   col_sum(c, s);
// CHECK-NEXT:   col_min(c, s, c);
// CHECK-NEXT:   mul_col(s, s, c);
// CHECK-NEXT:   add_row(s, s, m0);
// CHECK-NEXT:   sub_col(s, s, c);
// CHECK-NEXT:   div_col(s, s, c);
// CHECK-NEXT:   exp(s, s);
// CHECK-NEXT:   log(s, s);
// CHECK-NEXT:   log2(s, s);
// CHECK-NEXT:   abs(s, s);
// CHECK-NEXT:   max(s, s, 0.0f);
// CHECK-NEXT:   min(s, s, INFINITY);
// CHECK-NEXT:   mul(s, s, -1.0f);
// CHECK-NEXT:   rt_fl<32, 64, col_l, rt_16x16_s> b;
// CHECK-NEXT:   broadcast_row(b, m0);
// CHECK-NEXT:   sub(s, s, b);
// CHECK-NEXT:   store(Y, s, {0, 0, 0, 0});
// CHECK-NEXT:   store(V, m0, {0, 0, 0, 0});
hk.kernel @reductions(%X: memref<?x?xf32>, %Y: memref<?x?xf32>, %V: memref<?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !s
  %m0 = arith.constant dense<0xFF800000> : !rv
  %m = hk.row_reduce max %s init %m0 : !s -> !rv
  %c = hk.col_reduce sum %s : !s -> !cv
  %c2 = hk.col_reduce min %s init %c : !s -> !cv
  %t1 = hk.col_broadcast mul %s, %c2 : !s, !cv
  %t2 = hk.row_broadcast add %t1, %m : !s, !rv
  %t3 = hk.col_broadcast sub %t2, %c2 : !s, !cv
  %t4 = hk.col_broadcast div %t3, %c2 : !s, !cv
  %t5 = math.exp %t4 : !s
  %t6 = math.log %t5 : !s
  %t7 = math.log2 %t6 : !s
  %t8 = math.absf %t7 : !s
  %zero = arith.constant dense<0.0> : !s
  %inf = arith.constant dense<0x7F800000> : !s
  %t9 = arith.maximumf %zero, %t8 : !s
  %t10 = arith.minimumf %t9, %inf : !s
  %t11 = arith.negf %t10 : !s
  %b = hk.row_broadcast copy %t11, %m : !s, !rv
  %t12 = arith.subf %t11, %b : !s
  hk.store %t12, %Y[%c0, %c0] : !s, memref<?x?xf32>
  hk.store %m, %V[%c0] : !rv, memref<?xf32>
  hk.return
}

// -----

// math.rsqrt is no HipKittens base op: the file defines rsqrt_op, shaped
// like a base op (a static device `op` for float and float2, computing
// 1 / sqrt(x) as hk's own lowering does), once, before the kernels, and
// passes it to HipKittens' generic maps: unary_map on tiles, unary_op on
// vectors. max/min broadcasts, which have no named wrapper, are HipKittens'
// row_map/col_map with its base_ops::max/min.

!t = tensor<32x64xf32, #hk.rt<row, 16x32>>
!rv = tensor<32xf32, #hk.rv<row, #hk.rt<row, 16x32>>>
!cv = tensor<64xf32, #hk.rv<col, #hk.rt<row, 16x32>>>

// CHECK:      using namespace kittens;
// CHECK-EMPTY:
// CHECK-NEXT: // math.rsqrt: HipKittens' base ops have no reciprocal square root; its
// CHECK:      struct rsqrt_op {
// CHECK-NEXT:   template <typename T> static __device__ inline T op(const T &x);
// CHECK-NEXT: };
// CHECK-NEXT: template <> __device__ inline float rsqrt_op::op<float>(const float &x) {
// CHECK-NEXT:   return 1.0f / sqrtf(x);
// CHECK-NEXT: }
// CHECK-NEXT: template <> __device__ inline float2 rsqrt_op::op<float2>(const float2 &x) {
// CHECK-NEXT:   return float2{1.0f / sqrtf(x.x), 1.0f / sqrtf(x.y)};
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __global__
// CHECK-SAME: void rsqrt_maps(
// CHECK:        rt_fl<32, 32, row_l, rt_16x32_s>::col_vec s;
// CHECK-NEXT:   row_sum(s, t);
// CHECK-NEXT:   unary_op<rsqrt_op>(s, s);
// CHECK-NEXT:   rt_fl<16, 64, row_l, rt_16x32_s>::row_vec c;
// CHECK-NEXT:   col_sum(c, t);
// CHECK-NEXT:   row_map<base_ops::max>(t, t, s);
// CHECK-NEXT:   col_map<base_ops::min>(t, t, c);
// CHECK-NEXT:   unary_map<rsqrt_op>(t, t);
// CHECK-NEXT:   store(X, t, {0, 0, 0, 0});
// CHECK-NOT:  struct rsqrt_op
hk.kernel @rsqrt_maps(%X: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %t = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %s = hk.row_reduce sum %t : !t -> !rv
  %v = math.rsqrt %s : !rv
  %c = hk.col_reduce sum %t : !t -> !cv
  %a = hk.row_broadcast max %t, %v : !t, !rv
  %b = hk.col_broadcast min %a, %c : !t, !cv
  %r = math.rsqrt %b : !t
  hk.store %r, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}

hk.kernel @rsqrt_again(%X: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %t = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %r = math.rsqrt %t : !t
  hk.store %r, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}
