// arith.extf / truncf of 8-bit float tiles go a register (4 bytes) at a
// time through the chip's packed conversions: v_cvt_pk_f32_fp8 widens the
// two values of a word, v_cvt_pk_fp8_f32 narrows two f32 into a word after
// a saturating clamp that keeps NaN. Wide types other than f32 pass through
// f32 (exact: every 8-bit float is a bf16 and an f16).

// RUN: hk-opt --hk-resolve-fp8=chip=gfx942 --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hk-opt --hk-resolve-fp8=chip=gfx950 --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: hk-opt --hk-tile-to-lane=chip=gfx942 %s | hk-opt --hk-lane-to-rocdl=chip=gfx942 | FileCheck %s --check-prefix=ROCDL
// RUN: hk-opt --hk-tile-to-lane=chip=gfx950 %s | hk-opt --hk-lane-to-rocdl=chip=gfx950 | FileCheck %s --check-prefix=ROCDL

// CHECK-LABEL: gpu.func @ext
// GFX942: %[[IN:.*]] = arith.select %{{.*}} : vector<8xi1>, vector<8xf8E4M3FNUZ>
// GFX950: %[[IN:.*]] = arith.select %{{.*}} : vector<8xi1>, vector<8xf8E4M3FN>
// CHECK: %[[W0:.*]] = vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [4], strides = [1]}
// CHECK: amdgpu.ext_packed_fp8 %[[W0]][0] : vector<4xf8{{.*}}> to vector<2xf32>
// CHECK: amdgpu.ext_packed_fp8 %[[W0]][1] : vector<4xf8{{.*}}> to vector<2xf32>
// CHECK: %[[W1:.*]] = vector.extract_strided_slice %{{.*}} {offsets = [4], sizes = [4], strides = [1]}
// CHECK: amdgpu.ext_packed_fp8 %[[W1]][0]
// CHECK: amdgpu.ext_packed_fp8 %[[W1]][1]
// CHECK-NOT: amdgpu.ext_packed_fp8
// gfx950 rounds to bf16 with its instruction (exact here); gfx942, without
// one, takes the upper halves of the f32 bits.
// GFX950: arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// GFX942: %[[BITS:.*]] = arith.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
// GFX942: %[[HIGH:.*]] = arith.shrui %[[BITS]], %{{.*}} : vector<8xi32>
// GFX942: %[[HALF:.*]] = arith.trunci %[[HIGH]] : vector<8xi32> to vector<8xi16>
// GFX942: arith.bitcast %[[HALF]] : vector<8xi16> to vector<8xbf16>
// GFX942-NOT: arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// ROCDL-LABEL: llvm.func @ext
// ROCDL-COUNT-4: rocdl.cvt.pk.f32.fp8
// ROCDL-NOT: builtin.unrealized_conversion_cast
hk.kernel @ext(%A: memref<?x?x!hk.fp8>, %C: memref<?x?xbf16>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?x!hk.fp8> -> tensor<16x32x!hk.fp8, #hk.rt<row, 16x32>>
  %f = arith.extf %a : tensor<16x32x!hk.fp8, #hk.rt<row, 16x32>> to tensor<16x32xbf16, #hk.rt<row, 16x32>>
  hk.store %f, %C[%c0, %c0] : tensor<16x32xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  hk.return
}

// CHECK-LABEL: gpu.func @trunc
// CHECK: %[[WIDE:.*]] = arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK-DAG: %[[LO:.*]] = arith.constant dense<-5.734400e+04> : vector<8xf32>
// CHECK-DAG: %[[HI:.*]] = arith.constant dense<5.734400e+04> : vector<8xf32>
// CHECK: %[[MIN:.*]] = arith.minnumf %[[WIDE]], %[[HI]]
// CHECK: %[[MAX:.*]] = arith.maxnumf %[[MIN]], %[[LO]]
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[WIDE]], %[[WIDE]]
// CHECK: %[[SAT:.*]] = arith.select %[[NAN]], %[[WIDE]], %[[MAX]]
// CHECK: %[[X0:.*]] = vector.extract %[[SAT]][0]
// CHECK: %[[X1:.*]] = vector.extract %[[SAT]][1]
// CHECK: %[[P0:.*]] = amdgpu.packed_trunc_2xfp8 %[[X0]], %[[X1]] into undef[word 0]
// CHECK: %[[X2:.*]] = vector.extract %[[SAT]][2]
// CHECK: %[[X3:.*]] = vector.extract %[[SAT]][3]
// CHECK: amdgpu.packed_trunc_2xfp8 %[[X2]], %[[X3]] into %[[P0]][word 1]
// CHECK-COUNT-2: amdgpu.packed_trunc_2xfp8
// CHECK-NOT: amdgpu.packed_trunc_2xfp8
// ROCDL-LABEL: llvm.func @trunc
// ROCDL-COUNT-4: rocdl.cvt.pk.bf8.f32
// ROCDL-NOT: builtin.unrealized_conversion_cast
hk.kernel @trunc(%A: memref<?x?xf16>, %C: memref<?x?x!hk.bf8>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf16> -> tensor<16x32xf16, #hk.rt<row, 16x32>>
  %t = arith.truncf %a : tensor<16x32xf16, #hk.rt<row, 16x32>> to tensor<16x32x!hk.bf8, #hk.rt<row, 16x32>>
  hk.store %t, %C[%c0, %c0] : tensor<16x32x!hk.bf8, #hk.rt<row, 16x32>>, memref<?x?x!hk.bf8>
  hk.return
}

// E4M3's largest finite value is the chip's: 240 (FNUZ), 448 (OCP).
// CHECK-LABEL: gpu.func @trunc_e4m3
// GFX942: arith.constant dense<2.400000e+02> : vector<8xf32>
// GFX950: arith.constant dense<4.480000e+02> : vector<8xf32>
hk.kernel @trunc_e4m3(%A: memref<?x?xf32>, %C: memref<?x?x!hk.fp8>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf32> -> tensor<16x32xf32, #hk.rt<row, 16x32>>
  %t = arith.truncf %a : tensor<16x32xf32, #hk.rt<row, 16x32>> to tensor<16x32x!hk.fp8, #hk.rt<row, 16x32>>
  hk.store %t, %C[%c0, %c0] : tensor<16x32x!hk.fp8, #hk.rt<row, 16x32>>, memref<?x?x!hk.fp8>
  hk.return
}
