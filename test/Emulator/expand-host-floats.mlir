// RUN: hk-opt %s -split-input-file -hk-expand-host-floats -verify-diagnostics | FileCheck %s

// Moved 16-bit floats become i16, constants keep their bits: -2.5 in bf16 is
// 0xC020 (-16352), 1.0 in f16 is 0x3C00 (15360).
// CHECK-LABEL: func.func @moves
// CHECK-SAME: (%{{.*}}: memref<8xi16>, %{{.*}}: i1) -> vector<8xi16>
// CHECK-DAG: arith.constant dense<-16352> : vector<8xi16>
// CHECK-DAG: arith.constant 15360 : i16
// CHECK: vector.load %{{.*}} : memref<8xi16>, vector<8xi16>
// CHECK: arith.select %{{.*}} : vector<8xi16>
// CHECK-NOT: bf16
// CHECK-NOT: f16
func.func @moves(%m: memref<8xbf16>, %c: i1) -> vector<8xbf16> {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<-2.5> : vector<8xbf16>
  %h = arith.constant 1.0 : f16
  %v = vector.load %m[%c0] : memref<8xbf16>, vector<8xbf16>
  %r = arith.select %c, %v, %z : vector<8xbf16>
  %s = memref.alloca() : memref<f16>
  memref.store %h, %s[] : memref<f16>
  return %r : vector<8xbf16>
}

// -----

// Conversions become integer code; none is left for a libcall.
// CHECK-LABEL: func.func @conversions
// CHECK-NOT: arith.extf %{{.*}} : {{.*}}f16
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @conversions(%x: vector<4xf32>, %h: f16) -> (vector<4xbf16>, vector<4xf16>, f64) {
  %b = arith.truncf %x : vector<4xf32> to vector<4xbf16>
  %t = arith.truncf %x : vector<4xf32> to vector<4xf16>
  %e = arith.extf %h : f16 to f64
  return %b, %t, %e : vector<4xbf16>, vector<4xf16>, f64
}

// -----

func.func @double_rounding(%x: f64) -> f16 {
  // expected-error @+1 {{'arith.truncf' op from 'f64' to 'f16' has no emulation (it would round twice); truncate to f32 first}}
  %h = arith.truncf %x : f64 to f16
  return %h : f16
}

// -----

func.func @computes(%x: bf16) -> bf16 {
  // expected-error @+1 {{'math.exp' op computes on 16-bit floats, which the emulator's host code cannot}}
  %y = math.exp %x : bf16
  return %y : bf16
}
