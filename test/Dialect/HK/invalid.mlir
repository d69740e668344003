// RUN: hk-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// hk.kernel
//===----------------------------------------------------------------------===//

// expected-error @+1 {{attribute 'waves' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
hk.kernel @k() attributes {waves = 0 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// expected-error @+1 {{waves must be 1, 2, 4, 8 or 16, got 3}}
hk.kernel @k() attributes {waves = 3 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// expected-error @+1 {{min_waves_per_simd must be from 2 (a workgroup of 8 waves over 4 SIMDs) to 8, got 1}}
hk.kernel @k() attributes {waves = 8 : i32, min_waves_per_simd = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// expected-error @+1 {{min_waves_per_simd must be from 1 (a workgroup of 4 waves over 4 SIMDs) to 8, got 9}}
hk.kernel @k() attributes {waves = 4 : i32, min_waves_per_simd = 9 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// expected-error @+1 {{attribute 'min_waves_per_simd' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
hk.kernel @k() attributes {waves = 4 : i32, min_waves_per_simd = 0 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// expected-error @+1 {{requires attribute 'grid'}}
hk.kernel @k() attributes {waves = 4 : i32} {
  hk.return
}

// -----

// expected-error @+1 {{must have a body}}
hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>}

// -----

// expected-error @+1 {{must not return values, got 1 result(s)}}
hk.kernel @k() -> i32 attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// expected-error @+1 {{argument #1 must be a memref or a scalar, got 'tensor<4xf32>'}}
hk.kernel @k(%a: memref<?xf32>, %t: tensor<4xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// Shared memory comes from hk.alloc_shared, never from an argument.
// expected-error @+1 {{argument #0 must be a memref in the default (global) memory space, got memory space 3 : i64}}
hk.kernel @k(%a: memref<?xf32, 3>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// expected-error @+1 {{grid symbol s1 refers to argument 2 but the kernel has 2 arguments}}
hk.kernel @k(%a: memref<?xf32>, %n: index) attributes {waves = 4 : i32, grid = #hk.grid<[dim(0, 0), arg(2)] -> (s0, s1)>} {
  hk.return
}

// -----

// expected-error @+1 {{grid symbol s0 reads argument 0 as an integer, but it has type 'f32'}}
hk.kernel @k(%x: f32) attributes {waves = 4 : i32, grid = #hk.grid<[arg(0)] -> (s0)>} {
  hk.return
}

// -----

// expected-error @+1 {{grid symbol s0 takes a dimension of argument 0, which is not a memref but 'index'}}
hk.kernel @k(%n: index) attributes {waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0)>} {
  hk.return
}

// -----

// expected-error @+1 {{grid symbol s0 takes dimension 2 of argument 0, which has rank 2}}
hk.kernel @k(%a: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[dim(0, 2)] -> (s0)>} {
  hk.return
}

// -----

// Three 64 KiB tiles: 192 KiB, over gfx950's 160 KiB.
// expected-error @+1 {{allocates 196608 bytes of LDS, more than the 163840 bytes of the largest chip}}
hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  %b = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  %c = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  hk.return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hk.return' op expects parent op 'hk.kernel'}}
  hk.return
}

//===----------------------------------------------------------------------===//
// Ids and grid remaps
//===----------------------------------------------------------------------===//

// -----

func.func @f() -> index {
  // expected-error @+1 {{'hk.block_id' op must be inside an hk.kernel}}
  %x = hk.block_id x
  return %x : index
}

// -----

hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (4)>} {
  // expected-error @+1 {{'hk.block_id' op asks for grid dimension y but the grid of @k has 1 dimension}}
  %y = hk.block_id y
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (4, 2)>} {
  // expected-error @+1 {{'hk.num_blocks' op asks for grid dimension z but the grid of @k has 2 dimensions}}
  %z = hk.num_blocks z
  hk.return
}

// -----

func.func @f() -> index {
  // expected-error @+1 {{'hk.wave_id' op must be inside an hk.kernel}}
  %w = hk.wave_id
  return %w : index
}

// -----

func.func @f(%id: index, %n: index) -> index {
  // expected-error @+1 {{'hk.xcd_remap' op attribute 'xcds' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %r = hk.xcd_remap %id, %n xcds = 0, chunk = 64
  return %r : index
}

// -----

func.func @f(%id: index, %n: index) -> index {
  // expected-error @+1 {{'hk.xcd_remap' op attribute 'chunk' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %r = hk.xcd_remap %id, %n xcds = 8, chunk = -1
  return %r : index
}

// -----

func.func @f(%id: index, %m: index, %n: index) -> index {
  // expected-error @+1 {{'hk.group_remap' op attribute 'group' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %r, %c = hk.group_remap %id, %m, %n group = 0
  return %r : index
}

// -----

func.func @f(%id: f32, %n: index) -> index {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%id' expects different type than prior uses: 'index' vs 'f32'}}
  %r = hk.xcd_remap %id, %n xcds = 8, chunk = 64
  return %r : index
}

//===----------------------------------------------------------------------===//
// Scheduling builtins
//===----------------------------------------------------------------------===//

// -----

func.func @f() {
  // expected-error @+1 {{'hk.set_prio' op attribute 'priority' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3}}
  hk.set_prio 4
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hk.set_prio' op attribute 'priority' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3}}
  hk.set_prio -1
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hk.sched_barrier' op attribute 'mask' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 2047}}
  hk.sched_barrier 2048
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hk.sched_barrier' op attribute 'mask' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 2047}}
  hk.sched_barrier -1
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hk.sched_group' op attribute 'mask' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 1 whose maximum value is 2047}}
  hk.sched_group mask = 0, size = 1, sync = 0
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hk.sched_group' op attribute 'mask' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 1 whose maximum value is 2047}}
  hk.sched_group mask = 2048, size = 1, sync = 0
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hk.sched_group' op attribute 'size' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  hk.sched_group mask = 8, size = 0, sync = 0
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hk.sched_group' op attribute 'sync' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0}}
  hk.sched_group mask = 8, size = 1, sync = -1
  return
}

//===----------------------------------------------------------------------===//
// Shared tiles
//===----------------------------------------------------------------------===//

// -----

hk.kernel @k(%c: i1) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  scf.if %c {
    // expected-error @+1 {{'hk.alloc_shared' op must be at the top level of an hk.kernel body: LDS is allocated once per workgroup}}
    %a = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  }
  hk.return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hk.alloc_shared' op must be at the top level of an hk.kernel body}}
  %a = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  return
}

// -----

func.func @f(%s: !hk.st<64x64xbf16, 16x32>, %i: index) {
  // expected-error @+1 {{'hk.subtile' op result element type 'f16' differs from the source's 'bf16'}}
  %q = hk.subtile %s[%i, %i] : !hk.st<64x64xbf16, 16x32> -> !hk.st<32x64xf16, 16x32>
  return
}

// -----

func.func @f(%s: !hk.st<64x64xbf16, 16x32>, %i: index) {
  // expected-error @+1 {{'hk.subtile' op result subtile 16x16 differs from the source's 16x32}}
  %q = hk.subtile %s[%i, %i] : !hk.st<64x64xbf16, 16x32> -> !hk.st<32x64xbf16, 16x16>
  return
}

// -----

func.func @f(%s: !hk.st<64x64xbf16, 16x32>, %i: index) {
  // expected-error @+1 {{'hk.subtile' op result 48x64 does not divide the source 64x64 into whole tiles}}
  %q = hk.subtile %s[%i, %i] : !hk.st<64x64xbf16, 16x32> -> !hk.st<48x64xbf16, 16x32>
  return
}

// -----

func.func @f(%s: !hk.st<64x64xbf16, 16x32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'hk.subtile' op row index 2 is out of range [0, 2): the source holds 2 tiles of 32 rows}}
  %q = hk.subtile %s[%c2, %c0] : !hk.st<64x64xbf16, 16x32> -> !hk.st<32x64xbf16, 16x32>
  return
}

// -----

func.func @f(%s: !hk.st<64x64xbf16, 16x32>) {
  %c0 = arith.constant 0 : index
  %cm1 = arith.constant -1 : index
  // expected-error @+1 {{'hk.subtile' op column index -1 is out of range [0, 2): the source holds 2 tiles of 32 columns}}
  %q = hk.subtile %s[%c0, %cm1] : !hk.st<64x64xbf16, 16x32> -> !hk.st<64x32xbf16, 16x32>
  return
}

//===----------------------------------------------------------------------===//
// hk.load_async and hk.wait
//===----------------------------------------------------------------------===//

// -----

hk.kernel @k(%A: memref<?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  // expected-error @+1 {{'hk.load_async' op needs a memref of rank at least 2, got rank 1}}
  %t = hk.load_async %A[%c0], %s : memref<?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.return
}

// -----

hk.kernel @k(%A: memref<?x?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  // expected-error @+1 {{'hk.load_async' op expects 3 indices for a memref of rank 3, got 2}}
  %t = hk.load_async %A[%c0, %c0], %s : memref<?x?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.return
}

// -----

hk.kernel @k(%A: memref<?x?xf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  // expected-error @+1 {{'hk.load_async' op element type of the memref ('f16') differs from the tile's ('bf16')}}
  %t = hk.load_async %A[%c0, %c0], %s : memref<?x?xf16>, !hk.st<64x64xbf16, 16x32>
  hk.return
}

// -----

func.func @f(%A: memref<?x?xbf16>, %s: !hk.st<64x64xbf16, 16x32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.load_async' op must be inside an hk.kernel}}
  %t = hk.load_async %A[%c0, %c0], %s : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  return
}

// -----

hk.kernel @k(%A: memref<?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  // expected-error @+1 {{'hk.load_async' op waves = 8 exceeds the 4 waves of @k}}
  %t = hk.load_async %A[%c0, %c0], %s waves = 8 : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.return
}

// -----

hk.kernel @k(%A: memref<?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  // expected-error @+1 {{'hk.load_async' op attribute 'waves' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %t = hk.load_async %A[%c0, %c0], %s waves = 0 : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
  hk.return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hk.wait' op expects at least one token to wait for}}
  hk.wait
  return
}

// -----

func.func @f(%i: index) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%i' expects different type than prior uses: '!hk.token' vs 'index'}}
  hk.wait %i
  return
}

//===----------------------------------------------------------------------===//
// hk.load, hk.store, hk.atomic_add
//===----------------------------------------------------------------------===//

// -----

func.func @f(%s: !hk.st<64x64xbf16, 16x32>, %i: index) {
  // expected-error @+1 {{'hk.load' op takes no indices with a shared tile, got 2}}
  %a = hk.load %s[%i, %i] : !hk.st<64x64xbf16, 16x32> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
  return
}

// -----

func.func @f(%s: !hk.st<64x64xf32, 16x16>) {
  // expected-error @+1 {{'hk.load' op moves register tiles to and from shared tiles, not vectors}}
  %v = hk.load %s : !hk.st<64x64xf32, 16x16> -> tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  return
}

// -----

func.func @f(%s: !hk.st<64x64xbf16, 16x32>) {
  // expected-error @+1 {{'hk.load' op register tile 32x64 differs in shape from shared tile 64x64}}
  %a = hk.load %s : !hk.st<64x64xbf16, 16x32> -> tensor<32x64xbf16, #hk.rt<row, 16x32>>
  return
}

// -----

func.func @f(%s: !hk.st<64x64xbf16, 16x32>) {
  // expected-error @+1 {{'hk.load' op register tile element type 'f16' differs from shared tile's 'bf16'}}
  %a = hk.load %s : !hk.st<64x64xbf16, 16x32> -> tensor<64x64xf16, #hk.rt<row, 16x32>>
  return
}

// -----

// A shared tile of bytes is read as 8- or 4-bit floats only.
func.func @f(%s: !hk.st<16x64xi8, 16x64>) {
  // expected-error @+1 {{'hk.load' op reads a shared tile of bytes (i8) as 'f16'; only 8- and 4-bit floats are read from bytes}}
  %a = hk.load %s : !hk.st<16x64xi8, 16x64> -> tensor<16x64xf16, #hk.rt<row, 16x32>>
  return
}

// -----

// Two E2M1 elements per byte: 16x128 elements are 16x64 bytes.
func.func @f(%s: !hk.st<16x128xi8, 16x64>) {
  // expected-error @+1 {{'hk.load' op reads 2 elements per byte: register tile 16x128 needs a shared tile of 16x64 bytes, got 16x128}}
  %a = hk.load %s : !hk.st<16x128xi8, 16x64> -> tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>
  return
}

// -----

// A lane must hold whole bytes: runs of two E2M1 elements along a row.
func.func @f(%s: !hk.st<16x64xi8, 16x64>) {
  // expected-error @+1 {{'hk.load' op reads 2 elements per byte: the register tile must be in row layout with a group that is a multiple of 2 (whole bytes per lane), got #hk.rt<row, 16x128, group = 1>}}
  %a = hk.load %s : !hk.st<16x64xi8, 16x64> -> tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128, group = 1>>
  return
}

// -----

// Only hk.load reads bytes as floats; hk.store moves a tile of the shared
// tile's own element type.
func.func @f(%s: !hk.st<16x128xi8, 16x64>, %v: tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>) {
  // expected-error @+1 {{'hk.store' op register tile element type 'f8E4M3FN' differs from shared tile's 'i8'}}
  hk.store %v, %s : tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>, !hk.st<16x128xi8, 16x64>
  return
}

// -----

func.func @f(%A: memref<?x?xf16>, %i: index) {
  // expected-error @+1 {{'hk.load' op element type of the memref ('f16') differs from the tile's ('bf16')}}
  %a = hk.load %A[%i, %i] : memref<?x?xf16> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
  return
}

// -----

func.func @f(%A: memref<?x?x?x?xbf16>, %i: index) {
  // expected-error @+1 {{'hk.load' op expects 4 indices for a memref of rank 4, got 2}}
  %a = hk.load %A[%i, %i] : memref<?x?x?x?xbf16> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
  return
}

// -----

func.func @f(%A: memref<?xbf16>, %i: index) {
  // expected-error @+1 {{'hk.load' op needs a memref of rank at least 2, got rank 1}}
  %a = hk.load %A[%i] : memref<?xbf16> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
  return
}

// -----

// A vector needs at least one dimension to index in units of its length.
func.func @f(%A: memref<f32>) {
  // expected-error @+1 {{'hk.load' op needs a memref of rank at least 1, got rank 0}}
  %v = hk.load %A : memref<f32> -> tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  return
}

// -----

func.func @f(%A: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{'hk.load' op result #0 must be register tile of data (tensor with #hk.rt encoding, not i1) or register vector of data (tensor with #hk.rv encoding, not i1), but got 'tensor<64x64xf32>'}}
  %a = hk.load %A[%i, %i] : memref<?x?xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @f(%a: !hk.st<64x64xbf16, 16x32>, %b: !hk.st<64x64xbf16, 16x32>) {
  // expected-error @+1 {{'hk.store' op cannot copy a shared tile to a shared tile; load it into registers first}}
  hk.store %a, %b : !hk.st<64x64xbf16, 16x32>, !hk.st<64x64xbf16, 16x32>
  return
}

// -----

func.func @f(%a: !hk.st<64x64xbf16, 16x32>, %C: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{'hk.store' op element type of the memref ('f32') differs from the tile's ('bf16')}}
  hk.store %a, %C[%i, %i] : !hk.st<64x64xbf16, 16x32>, memref<?x?xf32>
  return
}

// -----

func.func @f(%v: tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, %s: !hk.st<64x64xf32, 16x16>) {
  // expected-error @+1 {{'hk.store' op moves register tiles to and from shared tiles, not vectors}}
  hk.store %v, %s : tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, !hk.st<64x64xf32, 16x16>
  return
}

// -----

func.func @f(%a: tensor<64x32xf32, #hk.rt<col, 16x16>>, %s: !hk.st<64x64xf32, 16x16>) {
  // expected-error @+1 {{'hk.store' op register tile 64x32 differs in shape from shared tile 64x64}}
  hk.store %a, %s : tensor<64x32xf32, #hk.rt<col, 16x16>>, !hk.st<64x64xf32, 16x16>
  return
}

// -----

func.func @f(%a: tensor<64x64xf32, #hk.rt<col, 16x16>>, %C: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{'hk.store' op expects 2 indices for a memref of rank 2, got 1}}
  hk.store %a, %C[%i] : tensor<64x64xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  return
}

// -----

func.func @f(%a: tensor<64x64xbf16, #hk.rt<col, 16x16>>, %C: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{'hk.atomic_add' op adds f32 tiles only, got 'bf16'}}
  hk.atomic_add %a, %C[%i, %i] : tensor<64x64xbf16, #hk.rt<col, 16x16>>, memref<?x?xbf16>
  return
}

// -----

func.func @f(%a: tensor<64x64xf32, #hk.rt<col, 16x16>>, %C: memref<?x?x?xf32>, %i: index) {
  // expected-error @+1 {{'hk.atomic_add' op expects 3 indices for a memref of rank 3, got 2}}
  hk.atomic_add %a, %C[%i, %i] : tensor<64x64xf32, #hk.rt<col, 16x16>>, memref<?x?x?xf32>
  return
}

// -----

// Vectors are added too (atomic-add-vector.mlir), masks are not.
func.func @f(%v: tensor<64xi1, #hk.rv<row, #hk.rt<col, 16x16>>>, %C: memref<?xi1>, %i: index) {
  // expected-error @+1 {{'hk.atomic_add' op operand #0 must be register tile of data (tensor with #hk.rt encoding, not i1) or register vector of data (tensor with #hk.rv encoding, not i1), but got 'tensor<64xi1, #hk.rv<row, #hk.rt<col, 16x16>>>'}}
  hk.atomic_add %v, %C[%i] : tensor<64xi1, #hk.rv<row, #hk.rt<col, 16x16>>>, memref<?xi1>
  return
}

//===----------------------------------------------------------------------===//
// hk.mma
//===----------------------------------------------------------------------===//

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %b: tensor<32x32xf16, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects A and B of one element type, got 'bf16' and 'f16'}}
  %d = hk.mma abt %a, %b, %c : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

// No MFMA multiplies i32.
func.func @f(%a: tensor<32x32xi32, #hk.rt<row, 16x32>>, %c: tensor<32x32xi32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects bf16, f16, f32, i8, f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, !hk.fp8 or !hk.bf8 inputs, got 'i32'}}
  %d = hk.mma abt %a, %a, %c : tensor<32x32xi32, #hk.rt<row, 16x32>>, tensor<32x32xi32, #hk.rt<row, 16x32>>, tensor<32x32xi32, #hk.rt<col, 16x16>>
  return
}

// -----

// An 8-bit float that no chip's MFMA takes.
func.func @f(%a: tensor<32x32xf8E4M3B11FNUZ, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects bf16, f16, f32, i8, f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, !hk.fp8 or !hk.bf8 inputs, got 'f8E4M3B11FNUZ'}}
  %d = hk.mma abt %a, %a, %c : tensor<32x32xf8E4M3B11FNUZ, #hk.rt<row, 16x32>>, tensor<32x32xf8E4M3B11FNUZ, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %c: tensor<32x32xbf16, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects an f32 accumulator for 'bf16' inputs, in col layout with 16x16 or 32x32 (group = 4) base tiles, got 'tensor<32x32xbf16, #hk.rt<col, 16x16>>'}}
  %d = hk.mma abt %a, %a, %c : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<row, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects an f32 accumulator for 'bf16' inputs, in col layout with 16x16 or 32x32 (group = 4) base tiles, got 'tensor<32x32xf32, #hk.rt<row, 16x16>>'}}
  %d = hk.mma abt %a, %a, %c : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<row, 16x16>>
  return
}

// -----

// The 32x32 MFMAs give each lane 4 runs of 4 rows, not one run of 16.
func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 32x16>>, %c: tensor<32x32xf32, #hk.rt<col, 32x32>>) {
  // expected-error @+1 {{'hk.mma' op expects an f32 accumulator for 'bf16' inputs, in col layout with 16x16 or 32x32 (group = 4) base tiles, got 'tensor<32x32xf32, #hk.rt<col, 32x32>>'}}
  %d = hk.mma abt %a, %a, %c : tensor<32x32xbf16, #hk.rt<row, 32x16>>, tensor<32x32xbf16, #hk.rt<row, 32x16>>, tensor<32x32xf32, #hk.rt<col, 32x32>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x32>>) {
  // expected-error @+1 {{'hk.mma' op expects an f32 accumulator for 'bf16' inputs, in col layout with 16x16 or 32x32 (group = 4) base tiles, got 'tensor<32x32xf32, #hk.rt<col, 16x32>>'}}
  %d = hk.mma abt %a, %a, %c : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x32>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<col, 32x16>>, %b: tensor<32x32xbf16, #hk.rt<col, 32x16>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects A in row layout for this kind, got col}}
  %d = hk.mma ab %a, %b, %c : tensor<32x32xbf16, #hk.rt<col, 32x16>>, tensor<32x32xbf16, #hk.rt<col, 32x16>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %b: tensor<32x32xbf16, #hk.rt<col, 32x16>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects B in row layout for this kind, got col}}
  %d = hk.mma abt %a, %b, %c : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<col, 32x16>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects A in col layout for this kind, got row}}
  %d = hk.mma atbt %a, %a, %c : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<col, 32x16>>, %b: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects B in col layout for this kind, got row}}
  %d = hk.mma atb %a, %b, %c : tensor<32x32xbf16, #hk.rt<col, 32x16>>, tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

// A and B must walk K in the same order: equal base extents along K are not
// enough when the groups differ.
func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 32x32, group = 4>>, %b: tensor<32x32xbf16, #hk.rt<row, 32x32>>, %c: tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>) {
  // expected-error @+1 {{'hk.mma' op expects A and B with the same group along K, got group = 4 for A and 16 for B}}
  %d = hk.mma abt %a, %b, %c : tensor<32x32xbf16, #hk.rt<row, 32x32, group = 4>>, tensor<32x32xbf16, #hk.rt<row, 32x32>>, tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  return
}

// -----

// The same for transposed operands (col layouts, K along the rows), with the
// grouped operand as B.
func.func @f(%a: tensor<64x32xbf16, #hk.rt<col, 32x32>>, %b: tensor<64x32xbf16, #hk.rt<col, 32x32, group = 8>>, %c: tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>) {
  // expected-error @+1 {{'hk.mma' op expects A and B with the same group along K, got group = 16 for A and 8 for B}}
  %d = hk.mma atb %a, %b, %c : tensor<64x32xbf16, #hk.rt<col, 32x32>>, tensor<64x32xbf16, #hk.rt<col, 32x32, group = 8>>, tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  return
}

// -----

func.func @f(%a: tensor<64x32xbf16, #hk.rt<row, 16x32>>, %b: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op A has 64 rows of M but the accumulator has 32}}
  %d = hk.mma abt %a, %b, %c : tensor<64x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %b: tensor<64x32xbf16, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op B has 64 columns of N but the accumulator has 32}}
  %d = hk.mma abt %a, %b, %c : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<64x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x64xbf16, #hk.rt<row, 16x32>>, %b: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op A has K = 64 but B has K = 32}}
  %d = hk.mma abt %a, %b, %c : tensor<32x64xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

// For ab, B is KxN in col layout: K runs down its 32 rows.
func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %b: tensor<64x32xbf16, #hk.rt<col, 32x16>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op A has K = 32 but B has K = 64}}
  %d = hk.mma ab %a, %b, %c : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<64x32xbf16, #hk.rt<col, 32x16>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 32x16>>, %b: tensor<32x32xbf16, #hk.rt<row, 16x16>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op A's base tile spans 32 along M but the accumulator's spans 16}}
  %d = hk.mma abt %a, %b, %c : tensor<32x32xbf16, #hk.rt<row, 32x16>>, tensor<32x32xbf16, #hk.rt<row, 16x16>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 16x16>>, %b: tensor<32x32xbf16, #hk.rt<row, 32x16>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op B's base tile spans 32 along N but the accumulator's spans 16}}
  %d = hk.mma abt %a, %b, %c : tensor<32x32xbf16, #hk.rt<row, 16x16>>, tensor<32x32xbf16, #hk.rt<row, 32x16>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %b: tensor<32x32xbf16, #hk.rt<row, 16x16>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op A's base tile spans 32 along K but B's spans 16}}
  %d = hk.mma abt %a, %b, %c : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<row, 16x16>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op operand #0 must be register tile of data (tensor with #hk.rt encoding, not i1), but got 'tensor<32x32xbf16>'}}
  %d = hk.mma abt %a, %a, %c : tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%a: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op failed to verify that all of {c, result} have same type}}
  %d = "hk.mma"(%a, %a, %c) {kind = 1 : i32} : (tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>) -> tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  return
}

//===----------------------------------------------------------------------===//
// Reductions and broadcasts
//===----------------------------------------------------------------------===//

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.any' op operand #0 must be register tile or vector of i1 (#hk.rt or #hk.rv encoding), but got 'tensor<32x64xf32, #hk.rt<col, 16x16>>'}}
  %a = hk.any %s : tensor<32x64xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%p: tensor<32x64xi1>) {
  // expected-error @+1 {{'hk.any' op operand #0 must be register tile or vector of i1 (#hk.rt or #hk.rv encoding), but got 'tensor<32x64xi1>'}}
  %a = hk.any %p : tensor<32x64xi1>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.row_reduce' op expects the result to be a row vector, got a col vector}}
  %m = hk.row_reduce max %s : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.row_reduce' op expects the result laid out for tile layout #hk.rt<col, 16x16>, got #hk.rt<row, 16x16>}}
  %m = hk.row_reduce max %s : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<row, 16x16>>>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.row_reduce' op expects the result of length 32, got 64}}
  %m = hk.row_reduce sum %s : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.row_reduce' op expects the result of element type 'f32', got 'f16'}}
  %m = hk.row_reduce min %s : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf16, #hk.rv<row, #hk.rt<col, 16x16>>>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.col_reduce' op expects the result to be a col vector, got a row vector}}
  %m = hk.col_reduce sum %s : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.col_reduce' op expects the result of length 64, got 32}}
  %m = hk.col_reduce sum %s : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>, %i: tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>) {
  // expected-error @+1 {{'hk.row_reduce' op failed to verify that init has the result type}}
  %m = "hk.row_reduce"(%s, %i) {kind = 0 : i32} : (tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>) -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 32x16>>>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>, %v: tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>) {
  // expected-error @+1 {{'hk.row_broadcast' op expects the vector to be a row vector, got a col vector}}
  %p = hk.row_broadcast sub %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>, %v: tensor<32xf32, #hk.rv<col, #hk.rt<col, 16x16>>>) {
  // expected-error @+1 {{'hk.col_broadcast' op expects the vector of length 64, got 32}}
  %p = hk.col_broadcast mul %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>, %v: tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>) {
  // expected-error @+1 {{'hk.row_broadcast' op failed to verify that all of {source, result} have same type}}
  %p = "hk.row_broadcast"(%s, %v) {kind = 1 : i32} : (tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>) -> tensor<32x64xf16, #hk.rt<col, 16x16>>
  return
}

//===----------------------------------------------------------------------===//
// Masks
//===----------------------------------------------------------------------===//

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>, %i: index, %fill: f16) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%fill' expects different type than prior uses: 'f32' vs 'f16'}}
  %m = hk.tril %s at [%i, %i] fill %fill : tensor<32x64xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>, %i: index, %fill: f16) {
  // expected-error @+1 {{'hk.triu' op failed to verify that fill is the element type}}
  %m = "hk.triu"(%s, %i, %i, %fill) : (tensor<32x64xf32, #hk.rt<col, 16x16>>, index, index, f16) -> tensor<32x64xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @f(%s: tensor<32x64xf32, #hk.rt<col, 16x16>>, %i: index, %fill: f32) {
  // expected-error @+1 {{'hk.bounds_mask' op failed to verify that all of {source, result} have same type}}
  %m = "hk.bounds_mask"(%s, %i, %i, %i, %i, %fill) : (tensor<32x64xf32, #hk.rt<col, 16x16>>, index, index, index, index, f32) -> tensor<32x64xf32, #hk.rt<row, 16x16>>
  return
}

//===----------------------------------------------------------------------===//
// hk.transpose and hk.swap_layout
//===----------------------------------------------------------------------===//

// -----

func.func @f(%k: tensor<64x128xbf16, #hk.rt<row, 16x32>>) {
  // expected-error @+1 {{'hk.transpose' op changes the element type from 'bf16' to 'f16'}}
  %t = hk.transpose %k : tensor<64x128xbf16, #hk.rt<row, 16x32>> -> tensor<128x64xf16, #hk.rt<col, 32x16>>
  return
}

// -----

func.func @f(%k: tensor<64x128xbf16, #hk.rt<row, 16x32>>) {
  // expected-error @+1 {{'hk.transpose' op expects a 128x64 result, got 64x128}}
  %t = hk.transpose %k : tensor<64x128xbf16, #hk.rt<row, 16x32>> -> tensor<64x128xbf16, #hk.rt<col, 16x32>>
  return
}

// -----

func.func @f(%k: tensor<64x128xbf16, #hk.rt<row, 16x32>>) {
  // expected-error @+1 {{'hk.transpose' op expects result layout #hk.rt<col, 32x16>, got #hk.rt<row, 32x16>}}
  %t = hk.transpose %k : tensor<64x128xbf16, #hk.rt<row, 16x32>> -> tensor<128x64xbf16, #hk.rt<row, 32x16>>
  return
}

// -----

// The group moves with the tile: a transposed 32x32 accumulator keeps group = 4.
func.func @f(%c: tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>) {
  // expected-error @+1 {{'hk.transpose' op expects result layout #hk.rt<row, 32x32, group = 4>, got #hk.rt<row, 32x32>}}
  %t = hk.transpose %c : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>> -> tensor<32x32xf32, #hk.rt<row, 32x32>>
  return
}

// -----

func.func @f(%a: tensor<64x32xbf16, #hk.rt<row, 16x32>>) {
  // expected-error @+1 {{'hk.swap_layout' op changes the shape from 64x32 to 32x64; use hk.transpose to transpose}}
  %b = hk.swap_layout %a : tensor<64x32xbf16, #hk.rt<row, 16x32>> -> tensor<32x64xbf16, #hk.rt<col, 32x16>>
  return
}

// -----

func.func @f(%a: tensor<64x64xbf16, #hk.rt<row, 16x32>>) {
  // expected-error @+1 {{'hk.swap_layout' op changes the element type from 'bf16' to 'f32'; convert with arith first}}
  %b = hk.swap_layout %a : tensor<64x64xbf16, #hk.rt<row, 16x32>> -> tensor<64x64xf32, #hk.rt<col, 16x16>>
  return
}

//===----------------------------------------------------------------------===//
// Schedule regions and clusters
//===----------------------------------------------------------------------===//

// -----

hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  // expected-error @+1 {{'hk.ping_pong' op needs a kernel with 8 waves, but @k has 4}}
  hk.ping_pong {
    hk.cluster compute {
    }
  }
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  // expected-error @+1 {{'hk.interleave' op needs a kernel with 4 waves, but @k has 8}}
  hk.interleave {
    hk.cluster compute {
    }
  }
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  // expected-error @+1 {{'hk.ping_pong' op holds no hk.cluster to schedule}}
  hk.ping_pong {
    hk.barrier
  }
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.ping_pong {
    // expected-error @+1 {{'hk.ping_pong' op cannot be nested in another schedule region}}
    hk.ping_pong {
      hk.cluster compute {
      }
    }
  }
  hk.return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hk.interleave' op must be inside an hk.kernel}}
  hk.interleave {
    hk.cluster memory {
    }
  }
  return
}

// -----

hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  // expected-error @+1 {{'hk.cluster' op must be inside hk.ping_pong or hk.interleave}}
  hk.cluster compute {
  }
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.interleave {
    hk.cluster compute {
      // expected-error @+1 {{'hk.cluster' op cannot be nested in another hk.cluster}}
      hk.cluster compute {
      }
    }
  }
  hk.return
}

// -----

hk.kernel @k(%A: memref<?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  hk.interleave {
    // expected-error @+1 {{'hk.cluster' op compute cluster moves memory with hk.load}}
    hk.cluster compute {
      %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<32x32xbf16, #hk.rt<row, 16x32>>
    }
  }
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<32x32xbf16, #hk.rt<row, 16x32>>
  %c = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.interleave {
    // expected-error @+1 {{'hk.cluster' op memory cluster does math with hk.mma}}
    hk.cluster memory {
      %d = hk.mma abt %a, %a, %c : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
    }
  }
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  %i = arith.constant 0 : index
  hk.interleave {
    %r = hk.cluster compute -> tensor<32x32xf32, #hk.rt<col, 16x16>> {
      // expected-error @+1 {{'hk.yield' op yields types ('index') but the enclosing hk.cluster produces ('tensor<32x32xf32, #hk.rt<col, 16x16>>')}}
      hk.yield %i : index
    }
  }
  hk.return
}

// -----

func.func @f(%x: index) {
  // expected-error @+1 {{'hk.yield' op expects parent op to be one of 'hk.ping_pong, hk.interleave, hk.cluster'}}
  hk.yield %x : index
}

// -----

//===----------------------------------------------------------------------===//
// MFMA pairing of a compute cluster
//===----------------------------------------------------------------------===//

hk.kernel @k() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.ping_pong {
    // expected-error @+1 {{'hk.cluster' op pair = mfma_exp on a memory cluster: only a compute cluster issues MFMAs}}
    hk.cluster memory pair = mfma_exp {
    }
  }
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %x = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.interleave {
    // expected-error @+1 {{'hk.cluster' op pair = mfma_valu on a cluster with no hk.mma}}
    hk.cluster compute pair = mfma_valu {
      %y = arith.addf %x, %x : tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
  }
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %c = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.interleave {
    // expected-error @+1 {{'hk.cluster' op pair = mfma_exp on a cluster with no transcendental op}}
    hk.cluster compute pair = mfma_exp {
      %d = hk.mma abt %a, %a, %c : tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
      %e = arith.mulf %d, %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
  }
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<0.0> : tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %c = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  // expected-error @+1 {{'hk.cluster' op must be inside hk.ping_pong or hk.interleave}}
  hk.cluster compute pair = mfma_valu {
    %d = hk.mma abt %a, %a, %c : tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  }
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.ping_pong {
    // expected-error @+2 {{expected ::hk::Pairing to be one of: mfma_exp, mfma_valu}}
    // expected-error @+1 {{failed to parse HK_PairingAttr parameter 'value'}}
    hk.cluster compute pair = mfma_sin {
    }
  }
  hk.return
}

// -----

// The pairing is a typed attribute: an integer or a string is not one.
hk.kernel @k() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.ping_pong {
    // expected-error @+1 {{Invalid attribute `pair` in property conversion: "mfma_exp"}}
    "hk.cluster"() <{kind = 0 : i32, pair = "mfma_exp"}> ({
      "hk.yield"() : () -> ()
    }) : () -> ()
  }
  hk.return
}

// -----

// A constant dimension index outside the rank is rejected where it enters,
// before a folder or a lowering reads the shape at that index.
hk.kernel @dim_too_large(%A: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{'memref.dim' op index 5 is outside [0, 2) for 'memref<?x?xf32>'}}
  %d = memref.dim %A, %c5 : memref<?x?xf32>
  hk.return
}

// -----

hk.kernel @dim_negative(%A: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %cm1 = arith.constant -1 : index
  // expected-error @+1 {{'memref.dim' op index -1 is outside [0, 2) for 'memref<?x?xf32>'}}
  %d = memref.dim %A, %cm1 : memref<?x?xf32>
  hk.return
}

// -----

hk.kernel @dim_int_max(%A: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c = arith.constant 2147483647 : index
  // expected-error @+1 {{'memref.dim' op index 2147483647 is outside [0, 2) for 'memref<?x?xf32>'}}
  %d = memref.dim %A, %c : memref<?x?xf32>
  hk.return
}

// -----

hk.kernel @dim_2_20(%A: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c = arith.constant 1048576 : index
  // expected-error @+1 {{'memref.dim' op index 1048576 is outside [0, 2) for 'memref<?x?xf32>'}}
  %d = memref.dim %A, %c : memref<?x?xf32>
  hk.return
}

// -----

// The attributes hk stages put on other ops are declared by the dialect,
// which checks their types wherever they appear.
// expected-error @+1 {{'func.func' op attribute 'hk.waves' must be an integer, got "eight"}}
func.func @waves() attributes {hk.waves = "eight"} {
  return
}

// -----

// expected-error @+1 {{'func.func' op attribute 'hk.grid' must be an #hk.grid, got 3 : i64}}
func.func @grid() attributes {hk.grid = 3} {
  return
}

// -----

// hk.cols_in_bounds (hk-peel-bounds) belongs on an hk.load from a memref, an hk.load_async or an hk.atomic_add of a register tile.
hk.kernel @cols_in_bounds_on_shared(%A: memref<?x?xbf16>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = hk.alloc_shared : !hk.st<16x32xbf16, 16x32>
  // expected-error @+1 {{'hk.load' op attribute 'hk.cols_in_bounds' belongs on an hk.load from a memref, an hk.load_async or an hk.atomic_add of a register tile}}
  %t = hk.load %s {hk.cols_in_bounds} : !hk.st<16x32xbf16, 16x32> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  hk.return
}

// -----

hk.kernel @cols_in_bounds_not_unit(%A: memref<?x?xbf16>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.load' op attribute 'hk.cols_in_bounds' must be a unit attribute, got 1 : i64}}
  %t = hk.load %A[%c0, %c0] {hk.cols_in_bounds = 1} : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  hk.return
}

// -----

// hk.in_bounds (hk-peel-bounds) goes with hk.cols_in_bounds, on an
// hk.load_async or a global tile load.
hk.kernel @in_bounds_without_cols(%A: memref<?x?xbf16>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<16x32xbf16, 16x32>
  // expected-error @+1 {{'hk.load_async' op attribute 'hk.in_bounds' belongs on an hk.load_async or an hk.load of a register tile from a memref that carries 'hk.cols_in_bounds'}}
  %t = hk.load_async %A[%c0, %c0], %s {hk.in_bounds} : memref<?x?xbf16>, !hk.st<16x32xbf16, 16x32>
  hk.return
}

// -----

hk.kernel @in_bounds_on_load(%A: memref<?x?xbf16>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.load' op attribute 'hk.in_bounds' belongs on an hk.load_async or an hk.load of a register tile from a memref that carries 'hk.cols_in_bounds'}}
  %t = hk.load %A[%c0, %c0] {hk.in_bounds} : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  hk.return
}
