//===- Passes.td - hk transforms on tile IR ----------------*- tablegen -*-===//

#ifndef HK_TRANSFORMS_PASSES_TD
#define HK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def HKCheckTarget : Pass<"hk-check-target", "::mlir::ModuleOp"> {
  let summary = "checks that every kernel fits the limits of a chip";
  let description = [{
    Rejects, with an error naming the op, the chip and the reason, what the
    chip cannot run: more LDS than the chip has (64 KiB on gfx942, 160 KiB on
    gfx950), 8-bit float formats the chip's MFMAs do not take (FNUZ on
    gfx942, OCP on gfx950), 16x128 fp8 base tiles on gfx942, and an
    `arith.truncf` to bf16 or a narrower float with a rounding mode (code
    generation rounds those to nearest even only).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"::hk::kDefaultChip",
           "target chip: gfx942 or gfx950">
  ];
}

def HKResolveFp8 : Pass<"hk-resolve-fp8", "::mlir::ModuleOp"> {
  let summary = "gives !hk.fp8 and !hk.bf8 the chip's 8-bit float formats";
  let description = [{
    Replaces `!hk.fp8` and `!hk.bf8` everywhere in the module (operand,
    result and argument types, nested in tensors, memrefs and shared tiles,
    and in attributes) by the formats the chip's MFMAs and conversions take:
    `f8E4M3FNUZ` and `f8E5M2FNUZ` on gfx942, `f8E4M3FN` and `f8E5M2` on
    gfx950. Constants are re-encoded in the chip's format, rounded to
    nearest even and saturated to its largest finite value (as a
    saturating `arith.truncf` does). On a chip with no 8-bit float formats,
    the first op that uses either type is refused with an error naming the
    chip. The first pass of `hk-tile-to-lane`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"::hk::kDefaultChip",
           "target chip: gfx942 or gfx950">
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

def HKStageSwaps : Pass<"hk-stage-swaps", "::mlir::ModuleOp"> {
  let summary = "moves hk.swap_layout of 16-bit tiles through the wave's own LDS tile when the chip has room";
  let description = [{
    Rewrites each `hk.swap_layout` of a 16-bit register tile (R x C, R a
    multiple of 16 and C of 32) into an `hk.store` to the running wave's
    R x C part of a new `hk.alloc_shared` of `waves` such tiles (16x32 base
    tiles, rows [w * R, (w + 1) * R) for wave w) and an `hk.load` of it in
    the result's layout, as long as the kernel's shared tiles and these
    allocations fit the chip's LDS; otherwise the swap is left to
    `convert-hk-to-amdgpu` (ds_bpermute). No barrier is needed: no other
    wave touches the tile, and a wave's LDS accesses complete in order.
    Runs after `hk-verify-barriers` and `hk-schedule`. See
    docs/lowering.md, Layout changes.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"::hk::kDefaultChip",
           "target chip: gfx942 or gfx950">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def HKTransposeShared : Pass<"hk-transpose-shared", "::mlir::ModuleOp"> {
  let summary = "keeps 16-bit shared tiles read only in col layout transposed, on chips without transposing LDS reads";
  let description = [{
    On a chip without `ds_read_b64_tr_b16` (gfx942), a col-layout load of a
    16-bit shared tile reads one element per LDS access. This pass rewrites
    an `hk.alloc_shared` of 16-bit elements into its transpose when every
    use is known and the reads gain: its `hk.subtile` views become views of
    the transposed tile (indices swapped), each `hk.load` into a col-layout
    register tile becomes a load of the transposed (row-layout) tile and an
    `hk.transpose`, taken only when that needs fewer LDS accesses, and each
    `hk.load_async` into it (by all waves, its token waited for once, by an
    `hk.wait` later in the same block) becomes a per-wave `hk.load` of the
    wave's share (16x32 row base tiles), `hk.transpose`d, and an `hk.store`
    of it into the transposed tile placed at the `hk.wait`, which no longer
    names the token (and goes when it names none). Any other use leaves the
    tile alone. Nothing changes on chips with transposing LDS reads. Runs
    after `hk-schedule` and before `hk-peel-bounds`. See docs/lowering.md,
    Shared tiles kept transposed.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"::hk::kDefaultChip",
           "target chip: gfx942 or gfx950">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
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

def HKPeelBounds : Pass<"hk-peel-bounds"> {
  let summary = "splits a loop where its tile loads could cross the last column or its masks start to matter";
  let description = [{
    For each `scf.for` with step 1 that holds an `hk.mma`, computes at run
    time the first iteration `s` from which something in the loop needs its
    bounds work, and splits the loop into `[lb, s)` and `[s, ub)`, the
    second (the original) taking the first's results as its initial values:
    - `hk.load` of a register tile from a memref at a column tile index
      `a * iv + b` (`a` a positive constant, `b` defined before the loop):
      in the first loop it carries `hk.cols_in_bounds` and is lowered with
      no column checks or per-element masks;
    - `hk.load_async` and `hk.atomic_add` of a register tile at a column
      tile index that does not change in the loop: marked likewise when the
      tile fits the last dimension (every iteration or none); a copy so
      marked whose row tile index grows with iv and whose leading indices
      do not change also carries `hk.in_bounds` in the first loop, bounded
      by the iterations where every index is in range, and copies with no
      check at all;
    - `hk.bounds_mask`, `hk.tril` and `hk.triu` whose positions are
      invariant or linear in iv and keep every element for a prefix of the
      iterations: gone from the first loop (their result is their source).
      A mask that keeps everything in a suffix of the iterations instead
      (`hk.triu` whose `col - row` grows: a sliding window's left edge;
      `hk.tril` whose `col - row` shrinks) sets where the unchecked loop
      starts: the loop then runs `[lb, f)` checked (a clone), `[f, s)`
      unchecked and `[s, ub)` checked. A mask under `scf.if`s with
      invariant conditions only bounds the iterations that run it.
    Rows past the end still read zeros through the buffer descriptor. All
    loops run the same ops in the same order per iteration (barriers
    included), so the kernel computes what it did.
    See docs/lowering.md, Bounds out of the steady state.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
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

#endif // HK_TRANSFORMS_PASSES_TD
