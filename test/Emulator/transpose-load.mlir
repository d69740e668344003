// RUN: hk-opt %s --convert-lane-to-emulator | FileCheck %s

// amdgpu.transpose_load (ds_read_b64_tr_b16) on the emulator: the lane's own
// 8-byte LDS read (checked and timed like any LDS read), then for each of the
// 4 result elements k the two dwords of the read of lane
// (lane & ~15) + 4k + (lane % 16) / 4 (runtime/core/TransposeRead.h), of
// which the lane keeps element lane % 4.

// CHECK-LABEL: func.func @tr__lane
// CHECK: call @hkemu_lds_load
// CHECK: %[[IN:.*]] = arith.remui %{{.*}}, %c16_i32
// CHECK: %[[GROUP:.*]] = arith.subi %{{.*}}, %[[IN]]
// CHECK: %[[Q:.*]] = arith.divui %[[IN]], %c4_i32
// CHECK: %[[E:.*]] = arith.remui %{{.*}}, %c4_i32
// CHECK: arith.cmpi uge, %[[E]], %c2_i32
// CHECK-COUNT-8: call @hkemu_shuffle
// CHECK-NOT: call @hkemu_shuffle
// CHECK-NOT: amdgpu.transpose_load
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @lds : memref<256xbf16, #gpu.address_space<workgroup>>
    gpu.func @tr(%o: memref<?xbf16, #gpu.address_space<global>>, %i: index) kernel {
      %s = memref.get_global @lds : memref<256xbf16, #gpu.address_space<workgroup>>
      %v = amdgpu.transpose_load %s[%i] : memref<256xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
      vector.store %v, %o[%i] : memref<?xbf16, #gpu.address_space<global>>, vector<4xbf16>
      gpu.return
    }
  }
}
