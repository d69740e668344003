// hk.atomic_add compiles to native buffer_atomic_add_f32 on both chips: one
// per register (a 16x16 f32 tile is 4 registers per lane), without return
// (no sc0) and at agent scope (no sc1), with no compare-and-swap retry loop
// and no cache writeback/invalidate around it. (An atomicrmw fadd without
// !amdgpu.no.fine.grained.memory gave buffer_atomic_cmpswap in a loop,
// with buffer_wbl2 and buffer_inv.)
// RUN: hkc %s --chip gfx942 --emit=asm -o - | FileCheck %s
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s
// CHECK-LABEL: acc:
// CHECK-NOT: cmpswap
// CHECK-NOT: buffer_wbl2
// CHECK-NOT: buffer_inv
// CHECK-NOT: s_cbranch
// CHECK-COUNT-4: buffer_atomic_add_f32 v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen{{$}}
// CHECK-NOT: cmpswap
// CHECK-NOT: buffer_atomic
// CHECK-NOT: buffer_wbl2
// CHECK-NOT: buffer_inv
// CHECK-NOT: s_cbranch
// CHECK: s_endpgm
hk.kernel @acc(%dQ: memref<?x?x?xf32>, %b: index, %i: index, %j: index) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %z = arith.constant dense<1.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.atomic_add %z, %dQ[%b, %i, %j] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?x?xf32>
  hk.return
}
