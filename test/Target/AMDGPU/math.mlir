// math.exp2 on f32 compiles to the native v_exp_f32, with no call left for
// ROCm's device library (which hkc does not link).
// RUN: hkc %s --chip gfx942 --emit=asm -o - | FileCheck %s
// CHECK-LABEL: exp2_kernel:
// CHECK: v_exp_f32
// CHECK-NOT: __ocml
// CHECK: s_endpgm
gpu.module @kernels {
  gpu.func @exp2_kernel(%out: memref<256xf32, #gpu.address_space<global>>) kernel {
    %tid = gpu.thread_id x
    %i = arith.index_cast %tid : index to i32
    %x = arith.sitofp %i : i32 to f32
    %e = math.exp2 %x : f32
    memref.store %e, %out[%tid] : memref<256xf32, #gpu.address_space<global>>
    gpu.return
  }
}
