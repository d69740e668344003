// RUN: hk-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// hk.fetch_add: an i32 added to one element of a global i32 memref, its
// old value returned; round-tripped, then each verifier rule.

// CHECK-LABEL: func.func @counter
// CHECK: %{{.*}} = hk.fetch_add %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xi32>
// CHECK: %{{.*}} = hk.fetch_add %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x?xi32, strided<[?, 1], offset: ?>>
func.func @counter(%m: memref<?xi32>, %n: memref<4x?xi32, strided<[?, 1], offset: ?>>,
                   %i: index, %v: i32) -> (i32, i32) {
  %a = hk.fetch_add %v, %m[%i] : memref<?xi32>
  %b = hk.fetch_add %a, %n[%i, %i] : memref<4x?xi32, strided<[?, 1], offset: ?>>
  return %a, %b : i32, i32
}

// -----

func.func @f32_memref(%m: memref<?xf32>, %i: index, %v: i32) {
  // expected-error @+1 {{'hk.fetch_add' op adds to an i32 memref, got element type 'f32'}}
  %a = hk.fetch_add %v, %m[%i] : memref<?xf32>
  return
}

// -----

func.func @index_count(%m: memref<?x?xi32>, %i: index, %v: i32) {
  // expected-error @+1 {{'hk.fetch_add' op expects 2 indices for a memref of rank 2, got 1}}
  %a = hk.fetch_add %v, %m[%i] : memref<?x?xi32>
  return
}

// -----

func.func @lds(%m: memref<4xi32, #gpu.address_space<workgroup>>, %i: index,
               %v: i32) {
  // expected-error @+1 {{'hk.fetch_add' op adds to global memory (the default memory space), got memory space #gpu.address_space<workgroup>}}
  %a = hk.fetch_add %v, %m[%i] : memref<4xi32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @i64_value(%m: memref<?xi32>, %i: index, %v: i64) {
  // expected-error @+1 {{'hk.fetch_add' op operand #0 must be 32-bit signless integer, but got 'i64'}}
  %a = "hk.fetch_add"(%v, %m, %i) : (i64, memref<?xi32>, index) -> i32
  return
}
