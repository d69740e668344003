// Lane-level input (hkc takes it as it is, after the hk passes) that LLVM's
// AMDGPU backend stops on with a fatal error: a truncf to bf16 with a named
// rounding mode becomes a constrained fptrunc, for which the backend has
// neither an instruction nor a library call. Tile-level input is refused
// before LLVM by hk-check-target (test/Compiler/truncf-rounding.mlir); this
// one reaches LLVM, to show that its fatal errors come back as errors.
module attributes {gpu.container_module} {
  gpu.module @t_module {
    gpu.func @t(%arg0: memref<32xf32>, %arg1: memref<32xbf16>) kernel attributes {hk.grid = #hk.grid<[] -> (1)>, hk.waves = 1 : i32, known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %0 = memref.load %arg0[%c0] : memref<32xf32>
      %1 = arith.truncf %0 to_nearest_even : f32 to bf16
      memref.store %1, %arg1[%c0] : memref<32xbf16>
      gpu.return
    }
  }
}
