// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 --canonicalize --split-input-file %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 --canonicalize --split-input-file %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 --split-input-file %s \
// RUN: | mlir-opt --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(gpu.module(canonicalize,cse,amdgpu-resolve-strided-metadata,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx942}),reconcile-unrealized-casts)' \
// RUN: | FileCheck %s --check-prefix=LLVM
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 --split-input-file %s \
// RUN: | mlir-opt --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(gpu.module(canonicalize,cse,amdgpu-resolve-strided-metadata,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx950}),reconcile-unrealized-casts)' \
// RUN: | FileCheck %s --check-prefix=LLVM

// math.exp is 2^(x log2(e)): one multiply by log2(e) = 1.4426950408889634
// (f32 1.44269502) and v_exp_f32 per register, nothing else; the llvm.exp
// intrinsic (range reduction, denormal scaling) is not used.
// CHECK-LABEL: gpu.func @exp_tile
// CHECK-DAG: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-COUNT-4: %[[S:.*]] = arith.mulf %{{.*}}, %[[LOG2E]] : f32{{[[:space:]]*}}%{{.*}} = rocdl.exp2 %[[S]] f32 -> f32
// CHECK-NOT: rocdl.exp2
// CHECK-NOT: math.exp
// LLVM-LABEL: llvm.func @exp_tile
// LLVM-COUNT-4: rocdl.exp2
// LLVM-NOT: llvm.intr.exp
// LLVM-NOT: ocml
hk.kernel @exp_tile(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %e = math.exp %x : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.store %e, %X[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// -----

// tanh(x) = sign(x) (1 - 2 / (e^(2|x|) + 1)); below |x| = 1/8 the Taylor
// polynomial x - x^3/3 + 2x^5/15 - 17x^7/315 (coefficients -0.333333343,
// 0.13333334, -0.0539682545 in f32). On a bf16 tile, in f32.
// CHECK-LABEL: gpu.func @tanh_bf16
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<8xf32>
// CHECK-DAG: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : vector<8xf32>
// CHECK-DAG: %[[EIGHTH:.*]] = arith.constant dense<1.250000e-01> : vector<8xf32>
// CHECK-DAG: %[[C3:.*]] = arith.constant dense<-0.333333343> : vector<8xf32>
// CHECK-DAG: %[[C5:.*]] = arith.constant dense<0.13333334> : vector<8xf32>
// CHECK-DAG: %[[C7:.*]] = arith.constant dense<-0.0539682545> : vector<8xf32>
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK: %[[A:.*]] = math.absf %[[W]] : vector<8xf32>
// CHECK: %[[A2:.*]] = arith.addf %[[A]], %[[A]] : vector<8xf32>
// CHECK-COUNT-8: rocdl.exp2
// CHECK: %[[E:.*]] = vector.from_elements
// CHECK: %[[D:.*]] = arith.addf %[[E]], %[[ONE]] : vector<8xf32>
// CHECK: %[[Q:.*]] = arith.divf %[[TWO]], %[[D]] : vector<8xf32>
// CHECK: %[[T:.*]] = arith.subf %[[ONE]], %[[Q]] : vector<8xf32>
// CHECK: %[[LARGE:.*]] = math.copysign %[[T]], %[[W]] : vector<8xf32>
// CHECK: %[[X2:.*]] = arith.mulf %[[W]], %[[W]] : vector<8xf32>
// CHECK: arith.mulf %[[X2]], %[[C7]]
// CHECK: arith.addf %{{.*}}, %[[C5]]
// CHECK: arith.addf %{{.*}}, %[[C3]]
// CHECK: %[[P:.*]] = arith.addf %{{.*}}, %[[ONE]] : vector<8xf32>
// CHECK: %[[SMALL:.*]] = arith.mulf %[[P]], %[[W]] : vector<8xf32>
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[A]], %[[EIGHTH]] : vector<8xf32>
// CHECK: %[[R:.*]] = arith.select %[[BELOW]], %[[SMALL]], %[[LARGE]] : vector<8xi1>, vector<8xf32>
// CHECK: arith.truncf %[[R]] : vector<8xf32> to vector<8xbf16>
// CHECK-NOT: math.tanh
// LLVM-LABEL: llvm.func @tanh_bf16
// LLVM-COUNT-8: rocdl.exp2
// LLVM-NOT: ocml
hk.kernel @tanh_bf16(%X: memref<?x?xbf16>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %t = math.tanh %x : tensor<16x32xbf16, #hk.rt<row, 16x32>>
  hk.store %t, %X[%c0, %c0] : tensor<16x32xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  hk.return
}

// -----

// erf, Abramowitz and Stegun 7.1.26: t = 1 / (1 + 0.3275911 |x|),
// 1 - t (0.254829592 + t (-0.284496736 + t (1.421413741 + t (-1.453152027
// + t 1.061405429)))) e^(-x^2), with the sign of x; below |x| = 1/4 the
// Taylor series 2/sqrt(pi) (x - x^3/3 + x^5/10 - x^7/42 + x^9/216), whose
// first coefficient is 2/sqrt(pi) = 1.1283791670955126 (f32 1.12837923).
// On a scalar too (the constants hoisted by --canonicalize).
// CHECK-LABEL: gpu.func @erf_scalar
// CHECK-SAME: %[[X:[a-z0-9]+]]: f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[P:.*]] = arith.constant 0.327591091 : f32
// CHECK-DAG: %[[A5:.*]] = arith.constant 1.06140542 : f32
// CHECK-DAG: %[[A4:.*]] = arith.constant -1.45315206 : f32
// CHECK-DAG: %[[A3:.*]] = arith.constant 1.42141378 : f32
// CHECK-DAG: %[[A2:.*]] = arith.constant -0.284496725 : f32
// CHECK-DAG: %[[A1:.*]] = arith.constant 0.254829586 : f32
// CHECK-DAG: %[[K:.*]] = arith.constant 1.12837923 : f32
// CHECK-DAG: %[[QUARTER:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[A:.*]] = math.absf %[[X]] : f32
// CHECK: %[[PA:.*]] = arith.mulf %[[A]], %[[P]] : f32
// CHECK: %[[DEN:.*]] = arith.addf %[[PA]], %[[ONE]] : f32
// CHECK: %[[T:.*]] = arith.divf %[[ONE]], %[[DEN]] : f32
// CHECK: arith.mulf %[[T]], %[[A5]] : f32
// CHECK: arith.addf %{{.*}}, %[[A4]] : f32
// CHECK: arith.addf %{{.*}}, %[[A3]] : f32
// CHECK: arith.addf %{{.*}}, %[[A2]] : f32
// CHECK: arith.addf %{{.*}}, %[[A1]] : f32
// CHECK: %[[POLY:.*]] = arith.mulf %{{.*}}, %[[T]] : f32
// CHECK: %[[SQ:.*]] = arith.mulf %[[A]], %[[A]] : f32
// CHECK: %[[NSQ:.*]] = arith.negf %[[SQ]] : f32
// CHECK: %[[S:.*]] = arith.mulf %[[NSQ]], %[[LOG2E:.*]] : f32
// CHECK: %[[G:.*]] = rocdl.exp2 %[[S]] f32 -> f32
// CHECK: %[[TAIL:.*]] = arith.mulf %[[POLY]], %[[G]] : f32
// CHECK: %[[ONEMINUS:.*]] = arith.subf %[[ONE]], %[[TAIL]] : f32
// CHECK: %[[LARGE:.*]] = math.copysign %[[ONEMINUS]], %[[X]] : f32
// CHECK: %[[KSUM:.*]] = arith.addf %{{.*}}, %[[K]] : f32
// CHECK-NEXT: %[[TAYLOR:.*]] = arith.mulf %[[KSUM]], %[[X]] : f32
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[A]], %[[QUARTER]] : f32
// CHECK: arith.select %[[BELOW]], %[[TAYLOR]], %[[LARGE]] : f32
// CHECK-NOT: math.erf
// LLVM-LABEL: llvm.func @erf_scalar
// LLVM: rocdl.exp2
// LLVM-NOT: ocml
hk.kernel @erf_scalar(%x: f32, %o: memref<?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %e = math.erf %x : f32
  memref.store %e, %o[%c0] : memref<?xf32>
  hk.return
}
