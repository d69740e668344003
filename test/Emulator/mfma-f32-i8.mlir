// RUN: hk-opt %s --convert-lane-to-emulator --cse | FileCheck %s

// f32 MFMAs take one f32 register of A and B (a scalar): hkemu_mfma with
// a_type = b_type = HKEMU_F32 (4 in hk/Runtime/Emulator.h). i8 MFMAs
// accumulate in i32: hkemu_mfma_i32 with HKEMU_I8 (6). Both with M, N, K.
// CHECK-LABEL: func.func @k__lane
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
// CHECK: call @hkemu_mfma(%{{.*}}, %[[C16]], %[[C16]], %[[C4]], %[[C4]], %[[C4]], %{{.*}}) : (!llvm.ptr, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : i32
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
// CHECK: call @hkemu_mfma_i32(%{{.*}}, %[[C32]], %[[C32]], %[[C16]], %[[C6]], %[[C6]], %{{.*}}) : (!llvm.ptr, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NOT: amdgpu.mfma
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: f32, %out: memref<?xf32>, %iout: memref<?xi32>) kernel {
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %d = amdgpu.mfma 16x16x4 %x * %x + %zero blgp = none : f32, f32, vector<4xf32>
      %a = arith.constant dense<3> : vector<8xi8>
      %zi = arith.constant dense<0> : vector<16xi32>
      %di = amdgpu.mfma 32x32x16 %a * %a + %zi blgp = none : vector<8xi8>, vector<8xi8>, vector<16xi32>
      %c0 = arith.constant 0 : index
      %e = vector.extract %d[0] : f32 from vector<4xf32>
      memref.store %e, %out[%c0] : memref<?xf32>
      %ei = vector.extract %di[0] : i32 from vector<16xi32>
      memref.store %ei, %iout[%c0] : memref<?xi32>
      gpu.return
    }
  }
}
