// RUN: hk-opt %s --split-input-file --convert-lane-to-emulator --verify-diagnostics | FileCheck %s

// amdgpu.raw_buffer_atomic_fadd (what hk.atomic_add lowers to) becomes
// hkemu_buffer_atomic_fadd with the descriptor convert-amdgpu-to-rocdl
// builds for it: base = aligned pointer + offset * 4 bytes, num_records =
// max(size0 * stride0, size1 * stride1) * 4 bytes, made once for both adds;
// byte offset = (i * stride0 + j * stride1) * 4, truncated to 32 bits.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<?x?xf32, #gpu.address_space<global>>, %v: f32, %i: i32, %j: i32) kernel {
      amdgpu.raw_buffer_atomic_fadd %v -> %a[%i, %j] : f32 -> memref<?x?xf32, #gpu.address_space<global>>, i32, i32
      amdgpu.raw_buffer_atomic_fadd %v -> %a[%j, %i] : f32 -> memref<?x?xf32, #gpu.address_space<global>>, i32, i32
      gpu.return
    }
  }
}

// CHECK-LABEL: func.func @k__lane(
// CHECK-SAME: %[[LANE:.*]]: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xf32>
// CHECK: %{{.*}}, %[[OFFSET:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[ALIGNED:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[SHIFT:.*]] = arith.muli %[[OFFSET]], %[[C4]]
// CHECK: %[[BASEI:.*]] = arith.addi %[[ALIGNED]], %[[SHIFT]]
// CHECK: %[[BASEI64:.*]] = arith.index_castui %[[BASEI]] : index to i64
// CHECK: %[[BASE:.*]] = llvm.inttoptr %[[BASEI64]]
// CHECK: %[[R0:.*]] = arith.muli %[[SIZES]]#0, %[[STRIDES]]#0
// CHECK: %[[M0:.*]] = arith.maxui %{{.*}}, %[[R0]]
// CHECK: %[[R1:.*]] = arith.muli %[[SIZES]]#1, %[[STRIDES]]#1
// CHECK: %[[M1:.*]] = arith.maxui %[[M0]], %[[R1]]
// CHECK: %[[NB:.*]] = arith.muli %[[M1]], %[[C4]]
// CHECK: %[[NUM:.*]] = arith.index_cast %[[NB]] : index to i32
// CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[I:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: %[[J:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// First add: (i * stride0 + j * stride1) * 4.
// CHECK: %[[II:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: %[[JI:.*]] = arith.index_cast %[[J]] : i32 to index
// CHECK: %[[T0:.*]] = arith.muli %[[II]], %[[STRIDES]]#0
// CHECK: %[[S0:.*]] = arith.addi %{{.*}}, %[[T0]]
// CHECK: %[[T1:.*]] = arith.muli %[[JI]], %[[STRIDES]]#1
// CHECK: %[[S1:.*]] = arith.addi %[[S0]], %[[T1]]
// CHECK: %[[B1:.*]] = arith.muli %[[S1]], %{{.*}}
// CHECK: %[[O1:.*]] = arith.index_cast %[[B1]] : index to i32
// CHECK: call @hkemu_buffer_atomic_fadd(%[[LANE]], %[[BASE]], %[[NUM]], %[[O1]], %[[V]]) : (!llvm.ptr, !llvm.ptr, i32, i32, f32) -> ()
// Second add: the same descriptor, indices swapped.
// CHECK-NOT: memref.extract_aligned_pointer_as_index
// CHECK: %[[JJ:.*]] = arith.index_cast %[[J]] : i32 to index
// CHECK: %[[IJ:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: arith.muli %[[JJ]], %[[STRIDES]]#0
// CHECK: arith.muli %[[IJ]], %[[STRIDES]]#1
// CHECK: call @hkemu_buffer_atomic_fadd(%[[LANE]], %[[BASE]], %[[NUM]], %{{.*}}, %[[V]])
// CHECK-NOT: amdgpu.
// CHECK: return

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<?xf32, #gpu.address_space<global>>, %v: f32, %i: i32) kernel {
      // expected-error @+1 {{convert-lane-to-emulator: 'amdgpu.raw_buffer_atomic_fadd' with boundsCheck = false or sgprOffset has no emulation}}
      amdgpu.raw_buffer_atomic_fadd {boundsCheck = false} %v -> %a[%i] : f32 -> memref<?xf32, #gpu.address_space<global>>, i32
      gpu.return
    }
  }
}

// -----

// indexOffset counts elements and belongs to the range-checked offset (the
// instruction's immediate): 3 f32 elements add 12 bytes to the offset the
// engine checks against num_records.
// CHECK-LABEL: func.func @k_offset__lane
// CHECK: %[[TWELVE:.*]] = arith.constant 12 : i32
// CHECK: %[[O:.*]] = arith.addi %{{.*}}, %[[TWELVE]] : i32
// CHECK: call @hkemu_buffer_atomic_fadd(%{{.*}}, %{{.*}}, %{{.*}}, %[[O]], %{{.*}})
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k_offset(%a: memref<?xf32, #gpu.address_space<global>>, %v: f32, %i: i32) kernel {
      amdgpu.raw_buffer_atomic_fadd {indexOffset = 3 : i32} %v -> %a[%i] : f32 -> memref<?xf32, #gpu.address_space<global>>, i32
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<?xf16, #gpu.address_space<global>>, %i: i32) kernel {
      %v = arith.constant dense<1.0> : vector<2xf16>
      // expected-error @+1 {{convert-lane-to-emulator: 'amdgpu.raw_buffer_atomic_fadd' on packed 16-bit floats has no emulation}}
      amdgpu.raw_buffer_atomic_fadd %v -> %a[%i] : vector<2xf16> -> memref<?xf16, #gpu.address_space<global>>, i32
      gpu.return
    }
  }
}
