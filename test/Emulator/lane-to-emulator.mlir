// RUN: hk-opt %s --split-input-file --convert-lane-to-emulator --verify-diagnostics | FileCheck %s

// Ids, barrier, MFMA, cross-lane ops and hints of a kernel with a workgroup
// attribution and an LDS global.
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @k_lds0 : memref<128xbf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    gpu.func @k(%a: memref<?xbf16, #gpu.address_space<global>>, %n: i32)
        workgroup(%w: memref<64xf32, #gpu.address_space<workgroup>>)
        kernel attributes {hk.waves = 4 : i32} {
      %tid = gpu.thread_id x
      %ty = gpu.thread_id y
      %bid = gpu.block_id y
      %gdim = gpu.grid_dim x
      %bdim = gpu.block_dim x
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %buf = amdgpu.fat_raw_buffer_cast %a resetOffset : memref<?xbf16, #gpu.address_space<global>> to memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>
      %v = vector.load %buf[%tid] : memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<4xbf16>
      %lds = memref.get_global @k_lds0 : memref<128xbf16, #gpu.address_space<workgroup>>
      vector.store %v, %lds[%bid] : memref<128xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
      rocdl.s.setprio 2
      rocdl.sched.barrier 0
      gpu.barrier
      %f = memref.load %w[%ty] : memref<64xf32, #gpu.address_space<workgroup>>
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %d = amdgpu.mfma 16x16x16 %v * %v + %zero blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %s, %ok = gpu.shuffle xor %f, %c1, %c64 : f32
      %r = rocdl.readfirstlane %n : i32
      %e = vector.extract %d[0] : f32 from vector<4xf32>
      %sum = arith.addf %e, %s : f32
      memref.store %sum, %w[%gdim] : memref<64xf32, #gpu.address_space<workgroup>>
      %v0 = vector.extract %v[0] : bf16 from vector<4xbf16>
      memref.store %v0, %buf[%bdim] : memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>
      gpu.return
    }
  }
}

// CHECK-NOT: gpu.module
// The allocations' names, for fault reports.
// CHECK-DAG: llvm.mlir.global internal constant @[[WNAME:hkemu_str_k__lane_[0-9]+]]("workgroup attribution 0\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[GNAME:hkemu_str_k__lane_[0-9]+]]("k_lds0\00")
// CHECK-LABEL: func.func @k__lane(
// CHECK-SAME: %[[LANE:.*]]: !llvm.ptr, %[[ARGS:.*]]: !llvm.ptr)
// CHECK-SAME: hk.emulator_lds_bytes = 512 : i64
// CHECK-SAME: hk.waves = 4 : i32
// First, each allocation is declared to the engine: the attribution at 0
// (256 bytes), the global at 256 (256 bytes).
// CHECK: %[[W:.*]] = llvm.mlir.addressof @[[WNAME]]
// CHECK: %[[WP:.*]] = llvm.getelementptr %[[W]][0, 0]
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: %[[S:.*]] = arith.constant 256 : i32
// CHECK: call @hkemu_lds_region(%[[LANE]], %[[WP]], %[[Z]], %[[S]]) : (!llvm.ptr, !llvm.ptr, i32, i32) -> ()
// CHECK: %[[G:.*]] = llvm.mlir.addressof @[[GNAME]]
// CHECK: %[[GP:.*]] = llvm.getelementptr %[[G]][0, 0]
// CHECK: %[[GB:.*]] = arith.constant 256 : i32
// CHECK: %[[GS:.*]] = arith.constant 256 : i32
// CHECK: call @hkemu_lds_region(%[[LANE]], %[[GP]], %[[GB]], %[[GS]])
// Argument 0: the hkemu_memref at args[0]; its base, sizes[0] at byte 24
// and strides[0] at byte 88 make the memref descriptor.
// CHECK: %[[P0:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.getelementptr %[[P0]][24]
// CHECK: llvm.getelementptr %[[P0]][88]
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xbf16>
// Argument 1: the i32 at args[1].
// CHECK: %[[P1:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[N:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// The attribution at LDS address 0 (64 f32 = 256 bytes), the global after
// it at 256 (128 bf16, so 512 bytes in all).
// CHECK: %[[WADDR:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: llvm.inttoptr %[[WADDR]]
// CHECK: to memref<64xf32>
// thread_id x = wave * 64 + lane; thread_id y = 0.
// CHECK: %[[WAVE:.*]] = call @hkemu_wave_id(%[[LANE]])
// CHECK: call @hkemu_lane_id(%[[LANE]])
// CHECK: call @hkemu_workgroup_id(%[[LANE]], %{{.*}})
// CHECK: call @hkemu_num_workgroups(%[[LANE]], %{{.*}})
// CHECK: call @hkemu_num_waves(%[[LANE]])
// The buffer: base + offset, num_records = size * stride * 2 bytes.
// CHECK: memref.extract_strided_metadata %{{.*}} : memref<?xbf16>
// CHECK: arith.maxui
// CHECK: call @hkemu_buffer_load(%[[LANE]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32, i32, i32, !llvm.ptr) -> ()
// CHECK: %[[GADDR:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK-NEXT: llvm.inttoptr %[[GADDR]]
// CHECK: to memref<128xbf16>
// An LDS access passes its allocation's address (the memref's aligned
// pointer), then its own.
// CHECK: %[[GPTR:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<128xbf16> -> index
// CHECK: %[[GADDR32:.*]] = arith.index_cast %[[GPTR]] : index to i32
// CHECK: call @hkemu_lds_store(%[[LANE]], %[[GADDR32]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i32, i32, i32, !llvm.ptr, i32) -> ()
// Hints dropped, the barrier kept.
// CHECK-NOT: rocdl.
// CHECK: call @hkemu_barrier_if(%[[LANE]], %{{.*}})
// CHECK: call @hkemu_lds_load(%[[LANE]]
// CHECK: call @hkemu_mfma(%[[LANE]], %{{.*}}) : (!llvm.ptr, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: call @hkemu_shuffle(%[[LANE]], %{{.*}}) : (!llvm.ptr, i32, i32, i32, i32, !llvm.ptr) -> i32
// CHECK: call @hkemu_readfirstlane(%[[LANE]], %[[N]])
// CHECK: call @hkemu_lds_store(%[[LANE]]
// CHECK: call @hkemu_buffer_store(%[[LANE]]
// CHECK-NOT: amdgpu.
// CHECK-NOT: gpu.
// CHECK: return
// CHECK: func.func private @hkemu_wave_id(!llvm.ptr) -> i32

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: i32) kernel {
      %c = arith.constant 0 : i32
      // expected-error @+1 {{convert-lane-to-emulator: 'amdgpu.swizzle_bitmode' has no emulation}}
      %y = amdgpu.swizzle_bitmode %x 1 2 3 : i32
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel {
      %a = arith.constant dense<1.0> : vector<4xbf16>
      %z = arith.constant dense<0.0> : vector<4xf32>
      // expected-error @+1 {{convert-lane-to-emulator: 'amdgpu.mfma' with blocks, cbsz, abid, blgp, reducePrecision or negation has no emulation}}
      %d = amdgpu.mfma 16x16x16 %a * %a + %z blgp = bcast_first_32 : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{convert-lane-to-emulator: device functions (non-kernel gpu.func) have no emulation}}
    gpu.func @helper() {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%w: memref<64xf32, #gpu.address_space<workgroup>>, %v: f32) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{convert-lane-to-emulator: 'memref.atomic_rmw' other than an f32 addf on a fat raw buffer has no emulation}}
      %o = memref.atomic_rmw addf %v, %w[%c0] : (f32, memref<64xf32, #gpu.address_space<workgroup>>) -> f32
      gpu.return
    }
  }
}

// -----

// Cross-lane ops on values of other sizes, and the math instructions.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @x(%f: f32, %h: f16) kernel {
      %v = vector.broadcast %f : f32 to vector<2xf32>
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %s, %ok = gpu.shuffle down %v, %c1, %c64 : vector<2xf32>
      %p = amdgpu.permlane_swap %v 32 : vector<2xf32>
      %d = amdgpu.dpp %h %h quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32]) : f16
      %r = amdgpu.dpp %f %f row_ror(8 : i32) {bound_ctrl = true} : f32
      %e = rocdl.exp2 %f f32 -> f32
      %l = rocdl.log %f f32 -> f32
      gpu.return
    }
  }
}

// CHECK-LABEL: func.func @x__lane(
// Two 32-bit pieces, mode 2 (down), one validity.
// CHECK: %[[DOWN:.*]] = arith.constant 2 : i32
// CHECK: call @hkemu_shuffle(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[DOWN]], %{{.*}})
// CHECK: call @hkemu_shuffle(
// CHECK-NOT: call @hkemu_shuffle(
// The swap: the value as both operands, then the lane's changed half.
// CHECK: %[[ROWS:.*]] = arith.constant 32 : i32
// CHECK: call @hkemu_permlane_swap(%{{.*}}, %[[ROWS]], %{{.*}}, %{{.*}})
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK: call @hkemu_permlane_swap(
// quad_perm [1, 0, 3, 2] = 1 | 0 << 2 | 3 << 4 | 2 << 6 = 0xB1 = 177, masks
// 0xF, no bound_ctrl; the f16 travels zero-extended.
// CHECK: arith.extui %{{.*}} : i16 to i32
// CHECK: %[[QP:.*]] = arith.constant 177 : i32
// CHECK: %[[ROWMASK:.*]] = arith.constant 15 : i32
// CHECK: %[[BANKMASK:.*]] = arith.constant 15 : i32
// CHECK: %[[NOBC:.*]] = arith.constant 0 : i32
// CHECK: call @hkemu_dpp(%{{.*}}, %{{.*}}, %{{.*}}, %[[QP]], %[[ROWMASK]], %[[BANKMASK]], %[[NOBC]])
// CHECK: arith.trunci %{{.*}} : i32 to i16
// row_ror 8 = 0x128 = 296, bound_ctrl set.
// CHECK: %[[ROR:.*]] = arith.constant 296 : i32
// CHECK: %[[BC:.*]] = arith.constant 1 : i32
// CHECK: call @hkemu_dpp(%{{.*}}, %{{.*}}, %{{.*}}, %[[ROR]], %{{.*}}, %{{.*}}, %[[BC]])
// exp2 flushes results below 2^-126, log reads inputs below it as zero.
// CHECK: %[[EXP:.*]] = math.exp2 %{{.*}} : f32
// CHECK: math.absf %[[EXP]]
// CHECK: arith.constant 1.17549435E-38 : f32
// CHECK: arith.select
// CHECK: math.absf %{{.*}}
// CHECK: arith.select
// CHECK: math.log2
// CHECK-NOT: rocdl.
// CHECK-NOT: amdgpu.

// -----

// A branch that may diverge within a wave around an LDS access: both sides
// run in every lane, the access active only where the condition holds, the
// buffer store and the division under their own scf.if, the result
// selected.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @d(%a: memref<?xf32, #gpu.address_space<global>>, %n: index)
        workgroup(%w: memref<64xf32, #gpu.address_space<workgroup>>)
        kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %buf = amdgpu.fat_raw_buffer_cast %a resetOffset : memref<?xf32, #gpu.address_space<global>> to memref<?xf32, #amdgpu.address_space<fat_raw_buffer>>
      %cond = arith.cmpi ult, %tid, %n : index
      %r = scf.if %cond -> (f32) {
        %v = memref.load %w[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
        %q = arith.divui %n, %tid : index
        memref.store %v, %buf[%q] : memref<?xf32, #amdgpu.address_space<fat_raw_buffer>>
        scf.yield %v : f32
      } else {
        %z = arith.constant 0.0 : f32
        scf.yield %z : f32
      }
      memref.store %r, %buf[%c0] : memref<?xf32, #amdgpu.address_space<fat_raw_buffer>>
      gpu.return
    }
  }
}

// CHECK-LABEL: func.func @d__lane(
// CHECK: %[[COND:.*]] = arith.cmpi ult
// CHECK-NOT: scf.if %[[COND]] -> (f32)
// CHECK: %[[ACTIVE:.*]] = arith.select %[[COND]], %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: call @hkemu_lds_load(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ACTIVE]])
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<1xf32>
// CHECK: scf.if %[[COND]] -> (index) {
// CHECK-NEXT: arith.divui
// CHECK: scf.if %[[COND]] {
// CHECK: call @hkemu_buffer_store(
// CHECK: arith.select %[[COND]], %[[V]], %{{.*}} : f32

// -----

// A flag argument is a byte, nonzero meaning true.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f(%flag: i1, %a: memref<?xi32, #gpu.address_space<global>>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.extui %flag : i1 to i32
      memref.store %v, %a[%c0] : memref<?xi32, #gpu.address_space<global>>
      gpu.return
    }
  }
}

// CHECK-LABEL: func.func @f__lane(
// CHECK: %[[P:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK: %[[F:.*]] = arith.cmpi ne, %[[B]], %{{.*}} : i8
// CHECK: arith.extui %[[F]] : i1 to i32
// A plain global memref stays a host memref.
// CHECK: memref.store %{{.*}} : memref<?xi32>

// -----

// LDS DMA passes the allocation, the M0 address (lane 0's), and the copy's
// location; waits for vector memory become hkemu_wait_vmcnt with the vmcnt
// they require (memory_counter_wait: the least of load and store; the gfx9
// s_waitcnt encoding: bits 3:0 and 15:14), with their location; a wait for
// LDS alone is dropped.
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @w_lds0 : memref<512xbf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    gpu.func @w(%a: memref<?xbf16, #gpu.address_space<global>>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %buf = amdgpu.fat_raw_buffer_cast %a resetOffset : memref<?xbf16, #gpu.address_space<global>> to memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>
      %lds = memref.get_global @w_lds0 : memref<512xbf16, #gpu.address_space<workgroup>>
      amdgpu.gather_to_lds %buf[%tid], %lds[%c0] : vector<8xbf16>, memref<?xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<512xbf16, #gpu.address_space<workgroup>> loc("copy.mlir":7:3)
      amdgpu.memory_counter_wait load(3) store(5) ds(0) loc("copy.mlir":8:3)
      amdgpu.memory_counter_wait ds(0)
      rocdl.s.waitcnt 49279
      gpu.return
    }
  }
}

// CHECK-DAG: llvm.mlir.global internal constant @[[COPY:hkemu_str_w__lane_[0-9]+]]("copy.mlir:7:3 (amdgpu.gather_to_lds)\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[WAIT:hkemu_str_w__lane_[0-9]+]]("copy.mlir:8:3 (amdgpu.memory_counter_wait)\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{hkemu_str_w__lane_[0-9]+}}("w_lds0\00")
// CHECK-LABEL: func.func @w__lane(
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<512xbf16> -> index
// CHECK: %[[BASE32:.*]] = arith.index_cast %[[BASE]] : index to i32
// CHECK: %[[M0:.*]] = call @hkemu_readfirstlane(%{{.*}}, %{{.*}}) : (!llvm.ptr, i32) -> i32
// CHECK: %[[SITE:.*]] = llvm.mlir.addressof @[[COPY]]
// CHECK: %[[SITEP:.*]] = llvm.getelementptr %[[SITE]][0, 0]
// CHECK: call @hkemu_lds_dma(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[BASE32]], %[[M0]], %{{.*}}, %{{.*}}, %[[SITEP]]) : (!llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, i32, !llvm.ptr) -> ()
// CHECK: %[[N3:.*]] = arith.constant 3 : i32
// CHECK: %[[W:.*]] = llvm.mlir.addressof @[[WAIT]]
// CHECK: %[[WP:.*]] = llvm.getelementptr %[[W]][0, 0]
// CHECK: call @hkemu_wait_vmcnt(%{{.*}}, %[[N3]], %[[WP]]) : (!llvm.ptr, i32, !llvm.ptr) -> ()
// 49279 = 0xC07F: vmcnt 0xF | 0x3 << 4 = 63 (lgkmcnt 0, expcnt 7).
// CHECK: %[[N63:.*]] = arith.constant 63 : i32
// CHECK: call @hkemu_wait_vmcnt(%{{.*}}, %[[N63]], %{{.*}})
// CHECK-NOT: hkemu_wait_vmcnt
// CHECK: return
