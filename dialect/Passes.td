//===- Passes.td - hk passes -------------------------------*- tablegen -*-===//

#ifndef HK_PASSES_TD
#define HK_PASSES_TD

include "mlir/Pass/PassBase.td"

def HKCheckTarget : Pass<"hk-check-target", "::mlir::ModuleOp"> {
  let summary = "checks that every kernel fits the limits of a chip";
  let description = [{
    Rejects, with an error naming the op, the chip and the reason, what the
    chip cannot run: more LDS than the chip has (64 KiB on gfx942, 160 KiB on
    gfx950), 8-bit float formats the chip's MFMAs do not take (FNUZ on
    gfx942, OCP on gfx950), and 16x128 fp8 base tiles on gfx942.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"::hk::kDefaultChip",
           "target chip: gfx942 or gfx950">
  ];
}

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
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def HKVerifyBarriers : Pass<"hk-verify-barriers", "::mlir::ModuleOp"> {
  let summary = "proves that every wave of a workgroup executes as many barriers";
  let description = [{
    For every `hk.kernel`, evaluates each wave id in `[0, waves)` through the
    kernel and counts the workgroup barriers (`hk.barrier`) it executes.
    `scf.if` conditions and `scf.for` bounds computed from `hk.wave_id` and
    constants are evaluated per wave; conditions and bounds that are the same
    for every wave of a workgroup (block ids, kernel arguments, constants)
    stay symbolic, and a loop multiplies the count of its body by its trip
    count. The kernel is rejected when two waves would execute different
    numbers of barriers (the error points at the unbalanced branch and
    names the waves), and when a branch or loop that holds a barrier has a
    condition or trip count that neither is uniform over the workgroup nor
    can be computed from the wave id. See docs/schedules.md.
  }];
}

def HKExpandRemaps : Pass<"hk-expand-remaps"> {
  let summary = "expands hk.xcd_remap and hk.group_remap into arith ops";
  let description = [{
    Rewrites the grid remaps into `arith` ops on `index` values with
    HipKittens' formulas (`chiplet_transform_chunked` and the WGM grouping of
    its GEMM kernels). See docs/schedules.md.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def HKSchedule : Pass<"hk-schedule", "::mlir::ModuleOp"> {
  let summary = "expands hk.ping_pong and hk.interleave into explicit barriers, priorities and scheduling hints";
  let description = [{
    Inlines every `hk.ping_pong` and `hk.interleave` region and its
    `hk.cluster`s. In a ping-pong, every cluster ends with `hk.barrier`,
    compute clusters run between `hk.set_prio 1` and `hk.set_prio 0`,
    `hk.sched_barrier 0` fences keep clusters apart, and waves 4-7 execute
    one extra barrier before the region and waves 0-3 one after it, so the
    two groups of four waves run one cluster apart and every wave executes
    as many barriers; an `hk.barrier` written inside the region is an
    error. In an interleave, each compute cluster and the memory cluster
    that follows it share one fenced scheduling region that ends with
    `hk.sched_group` pairs asking the backend to alternate single MFMAs
    with single memory instructions. A compute cluster with
    `pair = mfma_exp` or `pair = mfma_valu` also gets `hk.sched_group` pairs
    asking for its MFMAs to alternate with transcendental or VALU
    instructions. See docs/schedules.md.

    With `plain`, the regions are expanded without the schedule: every
    ping-pong cluster still ends with `hk.barrier` (with all waves in step
    that orders more than the staggered schedule does), but there is no
    stagger, no priority, no fence and no `hk.sched_group`; this is the
    baseline `hkc --no-schedule` compares against.
  }];
  let options = [
    Option<"plain", "plain", "bool", /*default=*/"false",
           "expand the regions without stagger, priorities, fences or hints">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def ConvertLaneToEmulator : Pass<"convert-lane-to-emulator", "::mlir::ModuleOp"> {
  let summary = "rewrites lane-level kernels into host lane functions for the emulator";
  let description = [{
    Rewrites every kernel `gpu.func` of the lane-level `gpu.module`s (the
    output of `convert-hk-to-amdgpu`) into a host function
    `func.func @<kernel>__lane(%lane: !llvm.ptr, %args: !llvm.ptr)` with the
    ABI of `hkemu_lane_fn` (include/hk/Runtime/Emulator.h): the same lane
    program, whose ids, barriers, MFMAs, cross-lane ops, fat raw buffer
    accesses, workgroup memory accesses and LDS DMA call the emulator
    engine. Scheduling hints and waits are dropped (the engine completes
    every access at once). Any other GPU op is an error naming it. The
    result is ordinary host IR for the upstream lowering to LLVM.
    See docs/emulator.md.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def HKExpandHostFloats : Pass<"hk-expand-host-floats"> {
  let summary = "leaves no bf16 or f16 value for the emulator's host code generation";
  let description = [{
    The emulator's host object is built for the generic x86-64 CPU, which
    has no bf16 instructions and no f16 conversions: LLVM would call
    `__truncsfbf2`, `__extendhfsf2` or `__truncsfhf2` for conversions and for
    bf16/f16 vectors live across blocks, and a process loading the object may
    lack them. This pass rewrites `arith.extf` from and `arith.truncf` to
    bf16 and f16 into integer code (round to nearest even; overflow to
    infinity; a NaN stays a quiet NaN), then retypes every remaining bf16 or
    f16 value, which by then is only moved (arith.select, constants, vector,
    memref, scf, cf and func ops), as i16. An op that still computes on a
    16-bit float is an error naming it, and so is a truncation to bf16 or
    f16 from a type other than f32 (through f32 it would round twice). Run
    after `math-extend-to-supported-types` and
    `arith-emulate-unsupported-floats{source-types=bf16,f16}`, which move the
    arithmetic to f32. See docs/emulator.md.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def HKLowerVectorForLLVM : Pass<"hk-lower-vector-for-llvm"> {
  let summary = "rewrites the vector ops the LLVM conversions have no pattern for";
  let description = [{
    Strided slices (insert/extract), n-D shape casts and broadcasts, and
    `vector.step` become ops that `convert-gpu-to-rocdl` and
    `convert-vector-to-llvm` lower (upstream's own rewrite patterns, which
    `convert-vector-to-llvm` applies inside its run and
    `convert-gpu-to-rocdl` does not). Part of the `hk-lane-to-rocdl` and
    `hk-lane-to-host` pipelines.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
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

#endif // HK_PASSES_TD
