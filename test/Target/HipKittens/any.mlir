// RUN: hk-translate --hk-to-hipkittens --chip gfx950 -split-input-file -verify-diagnostics %s | FileCheck %s
// RUN: hk-translate --hk-to-hipkittens --chip gfx942 -split-input-file -verify-diagnostics %s | FileCheck %s

// hk.any of an f32 vector comparison: HipKittens has no vectors of bool, so
// the comparison is spelled inside the vote: each lane compares the
// elements of the vector it holds (rv's data[outer][inner]) and a ballot
// combines the lanes; `expect` becomes __builtin_expect. A splat side is
// its scalar.
// CHECK-LABEL: void vote(
// CHECK: sub(d, a, b);
// CHECK-NEXT: int lane_any = 0;
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int vo = 0; vo < std::remove_reference_t<decltype(d)>::outer_dim; ++vo)
// CHECK-NEXT:   #pragma unroll
// CHECK-NEXT:   for (int vi = 0; vi < std::remove_reference_t<decltype(d)>::inner_dim; ++vi)
// CHECK-NEXT:     lane_any |= d.data[vo][vi] > 8.0f;
// CHECK-NEXT: if (__builtin_expect(__builtin_amdgcn_ballot_w64(lane_any) != 0, 0)) {
// CHECK: int lane_any1 = 0;
// CHECK: lane_any1 |= a.data[vo1][vi1] != b.data[vo1][vi1];
// CHECK-NEXT: if (__builtin_amdgcn_ballot_w64(lane_any1) != 0) {
!v = tensor<32xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
!vm = tensor<32xi1, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
hk.kernel @vote(%A: memref<?xf32>, %B: memref<?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0] : memref<?xf32> -> !v
  %b = hk.load %B[%c0] : memref<?xf32> -> !v
  %d = arith.subf %a, %b : !v
  %eight = arith.constant dense<8.0> : !v
  %p = arith.cmpf ogt, %d, %eight : !v
  %grew = hk.any %p expect false : !vm
  scf.if %grew {
    hk.store %d, %A[%c0] : !v, memref<?xf32>
  }
  %q = arith.cmpf une, %a, %b : !v
  %ne = hk.any %q : !vm
  scf.if %ne {
    hk.store %a, %B[%c0] : !v, memref<?xf32>
  }
  hk.return
}

// -----

// An ordered "not equal" has no C++ operator (!= is unordered).
!v = tensor<32xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
!vm = tensor<32xi1, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
hk.kernel @one(%A: memref<?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0] : memref<?xf32> -> !v
  %q = arith.cmpf one, %a, %a : !v
  // expected-error @+1 {{'hk.any' has no HipKittens equivalent: C++ has no operator for this float predicate}}
  %ne = hk.any %q : !vm
  scf.if %ne {
    hk.store %a, %A[%c0] : !v, memref<?xf32>
  }
  hk.return
}

// -----

// A comparison used other than by hk.any is a vector of bool.
!v = tensor<32xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
!vm = tensor<32xi1, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
hk.kernel @kept(%A: memref<?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0] : memref<?xf32> -> !v
  // expected-error @+1 {{'arith.cmpf' has no HipKittens equivalent}}
  %q = arith.cmpf olt, %a, %a : !v
  %s = arith.select %q, %a, %a : !vm, !v
  %ne = hk.any %q : !vm
  scf.if %ne {
    hk.store %s, %A[%c0] : !v, memref<?xf32>
  }
  hk.return
}
