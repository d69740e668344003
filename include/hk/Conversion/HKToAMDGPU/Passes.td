//===- Passes.td - hk tiles to lane-level IR ---------------*- tablegen -*-===//

#ifndef HK_CONVERSION_HKTOAMDGPU_PASSES_TD
#define HK_CONVERSION_HKTOAMDGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertHKToAMDGPU : Pass<"convert-hk-to-amdgpu", "::mlir::ModuleOp"> {
  let summary = "lowers hk tile kernels to lane-level gpu/amdgpu/rocdl IR";
  let description = [{
    Rewrites every `hk.kernel` into `gpu.module @<name>_module` holding a
    `gpu.func @<name> kernel` whose body works on per-lane vectors: a
    register tile or vector becomes `vector<N x T>`, N being the registers
    each lane keeps (see `include/hk/Dialect/HK/Layout.h`). Global memory is
    read and written through buffer descriptors made once per memref at
    kernel entry (`amdgpu.fat_raw_buffer_cast`), so out-of-range elements
    read as zero and their stores are dropped. `hk.mma` becomes
    `amdgpu.mfma` with the instruction chosen for `chip`; elementwise
    `arith`/`math` ops on tiles become the same ops on vectors. Ops it does
    not lower yet make it fail with an error naming the op and the chip.
    See docs/lowering.md.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"::hk::kDefaultChip",
           "target chip: gfx942 or gfx950">
  ];
  let dependentDialects = [
    "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::ROCDL::ROCDLDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def HKComputeWaits : Pass<"hk-compute-waits", "::mlir::ModuleOp"> {
  let summary = "sets the vmcnt of each lowered hk.wait to the fewest instructions issued since its copies";
  let description = [{
    Runs on the output of `convert-hk-to-amdgpu`, which lowers every
    `hk.wait` to `amdgpu.memory_counter_wait load(0) ds(0)` and marks which
    copies it waits for. For each wait, counts per wave the vector-memory
    instructions surely issued between the end of each waited copy and the
    wait, along every path (the least over `scf.if` branches and loop
    back-edges, the first iteration of a loop that holds the wait, a
    constant trip count times its body), and sets `load` (vmcnt on gfx942
    and gfx950) to the least count over the waves that take part in the
    copy, clamped to 63. Counted: the copies themselves (their instructions
    per wave, recorded by the lowering), `amdgpu.gather_to_lds`, and loads
    and stores through fat raw buffers at their bytes per lane / 16, unless
    the backend could drop, merge or hoist them. `ds(0)` stays: copies that
    cross the memref's right edge write LDS through registers. See
    docs/schedules.md.
  }];
  let dependentDialects = ["::mlir::amdgpu::AMDGPUDialect"];
}

#endif // HK_CONVERSION_HKTOAMDGPU_PASSES_TD
