#!/usr/bin/env python3
"""The ISA simulator's timing model against HipKittens' measured TFLOP/s.

Compiles HipKittens' own kernels (bf16 GEMM for MI350X/gfx950 and, from the
cdna3 branch, for MI325X/gfx942; attention forward, D = 128, GQA and MHA,
causal and not; attention backward, its three launches) with clang 22 at the
shapes of the measurements in HipKittens' analysis/ folder, runs each launch
through `hk-run --code-object ... --timing`, and prints measured against
modelled TFLOP/s. Modelled TFLOP/s use the FLOP formula of each kernel's
test_python.py over the modelled microseconds (the model's own figure counts
MFMA work, which is not what HipKittens' figures count). Then our library's
kernels in timing mode at the paper's shapes beside HipKittens' modelled and
measured figures; HipKittens' FP8 GEMMs (8-wave and 4-wave, gfx950) at
4096^3 and 8192^3 beside gemm_fp8, with HipKittens' reported 3328 TFLOP/s
at 8192^3 on MI355X as their measured figure (`--only gemm_fp8` runs just
those rows). Text output and pictures go to the output directory.

scripts/bench-model.sh is the entry point; docs/timing.md ("Validation")
says what is compiled and what was changed.
"""

import argparse
import concurrent.futures
import dataclasses
import hashlib
import json
import math
import os
import re
import resource
import statistics
import subprocess
import sys
import time

# A point of the model whose estimated host time exceeds this many seconds is
# left out unless BENCH_MODEL_LONG=1 (one simulated workgroup batch of 1e9
# MFMA FLOPs takes about 1.7 s of host time: the 8192^3 GEMM's workgroup).
LONG_SECONDS = 120.0
HOST_FLOPS_PER_SECOND = 1.07e9 / 1.7
# Our kernels' runs have no estimate: one is stopped after this long.
OURS_SECONDS = 300.0
SAMPLES = 6  # workgroup batches the timing model simulates (Timing.h)


@dataclasses.dataclass
class Launch:
    """One kernel launch through hk-run --code-object."""
    key: str  # which compiled code object (Build.key)
    symbol: str
    grid: tuple
    block: int
    lds: int
    kernarg: str
    flops_per_workgroup: float  # for the host time estimate
    memory: int  # bytes of the buffers


@dataclasses.dataclass
class Build:
    """A HipKittens source compiled to a code object."""
    key: str
    chip: str
    tree: str  # "main" or "cdna3"
    source: str  # path under the tree
    defines: dict
    extra_flags: list
    instantiate: list  # lines appended (explicit instantiations)
    rewrite: list = dataclasses.field(default_factory=list)  # (old, new)
    cut_from: str = "PYBIND11_MODULE"  # drop this line and the rest
    include_dir: bool = False  # -I the source's own folder


@dataclasses.dataclass
class Point:
    kernel: str
    chip: str
    shape: str
    measured: float  # TFLOP/s, or None
    flops: float  # by test_python.py's formula
    launches: list
    source: str = ""  # the JSON the measurement is from
    modelled: float = None
    microseconds: float = None
    bound: str = ""
    host: float = 0.0
    status: str = ""  # why there is no modelled figure
    builds: list = dataclasses.field(default_factory=list)


def gl(nbytes, dims):
    """A gl<T, -1, -1, -1, -1> by value: its data pointer (a zeroed buffer)
    and four sizes, padded to 48 bytes (docs/isa-simulator.md)."""
    return "zeros:%d,%s,pad:8" % (nbytes, ",".join("u64:%d" % d
                                                   for d in dims))


def gl_bf16(*dims):
    return gl(2 * math.prod(dims), dims)


def gl_f32(*dims):
    return gl(4 * math.prod(dims), dims)


def buffer_bytes(kernarg):
    return sum(int(m) for m in re.findall(r"zeros:(\d+)", kernarg))


#===-- The kernels ---------------------------------------------------------===#

GEMM_SOURCES = {
    "gfx950": ("main",
               "kernels/gemm/bf16fp32/mi350x/256_256_64_32_with16x32.cpp",
               160000, "mi350x"),
    "gfx942": ("cdna3", "kernels/gemm/bf16fp32/mi325x/8192_256_256_64_16/"
               "256_256_64_16.cpp", 65536, "mi325x"),
}


def gemm_point(chip, n, measured, source):
    tree, path, lds, name = GEMM_SOURCES[chip]
    sizes = [("#define %s 8192" % d, "#define %s %d" % (d, n)) for d in "MNK"]
    build = Build("gemm-%s-%d" % (chip, n), chip, tree, path, {}, [], [],
                  rewrite=sizes)
    c = gl_bf16(1, 1, n, n)
    kernarg = "%s,%s,%s,u64:0" % (c, c, c)
    tiles = (n // 256) ** 2
    launch = Launch(build.key, "_Z8micro_tk13micro_globals", (tiles, 1, 1),
                    512, lds, kernarg, 2.0 * n ** 3 / tiles,
                    buffer_bytes(kernarg))
    return Point("gemm bf16 " + name, chip, "%dx%dx%d" % (n, n, n), measured,
                 2.0 * n ** 3, [launch], source, builds=[build])


# HipKittens' FP8 GEMMs (gfx950 only: no fp8 kernel in the cdna3 tree). Their
# sizes are template arguments set in main(): M, N, K constants in the 8-wave
# source, SIZE in the 4-wave one. Each takes three gl<T, 1, 1, R, C> by
# value, whose sizes are compile-time: 16 bytes each, the pointer and
# padding. The OpenMP header, which clang 22 does not have here, is dropped
# (the host-side #pragma omp lines are ignored without -fopenmp).
FP8_SOURCES = {
    "8wave": ("kernels/gemm/fp8fp32/FP8_8wave/8_wave.cu", 512,
              ["constexpr int %s = 8192;" % d for d in "MNK"]),
    "4wave": ("kernels/gemm/fp8fp32/FP8_4wave/4_wave.cu", 256,
              ["#define SIZE 8192"]),
}
# HipKittens' figure for its FP8 GEMM at 8192^3 on MI355X (the HipKittens
# paper and issue 31; no FP8 measurement is in its analysis/ folder).
FP8_MEASURED = {8192: 3328.0}
FP8_SYMBOL = ("_Z13matmul_deviceILi{n}ELi{n}ELi{n}EEvN7kittens2glI14__hip_fp8_"
              "e4m3Li1ELi1EXT_EXT1_EJEEENS1_IS2_Li1ELi1EXT0_EXT1_EJEEENS1_I14"
              "__hip_bfloat16Li1ELi1EXT_EXT0_EJEEE")


def gemm_fp8_point(variant, n, measured, source):
    path, block, sizes = FP8_SOURCES[variant]
    rewrite = [(old, old.replace("8192", str(n))) for old in sizes]
    rewrite.append(("#include <omp.h>", ""))
    build = Build("gemm-fp8-%s-%d" % (variant, n), "gfx950", "main", path,
                  {}, [], [], rewrite=rewrite, include_dir=True)
    kernarg = "zeros:%d,pad:8,zeros:%d,pad:8,zeros:%d,pad:8" % (
        n * n, n * n, 2 * n * n)
    tiles = (n // 256) ** 2
    launch = Launch(build.key, FP8_SYMBOL.format(n=n), (tiles, 1, 1), block,
                    0, kernarg, 2.0 * n ** 3 / tiles, buffer_bytes(kernarg))
    return Point("gemm fp8 %s" % variant, "gfx950", "%dx%dx%d" % (n, n, n),
                 measured, 2.0 * n ** 3, [launch], source, builds=[build])


ATTN_FLAGS = ["-DHIP_ENABLE_WARP_SYNC_BUILTINS", "-ffast-math"]


def attn_defines(b, h, hkv, n):
    return {"ATTN_B": b, "ATTN_H": h, "ATTN_H_KV": hkv, "ATTN_N": n}


def fwd_defines(b, h, hkv, n, d, causal):
    """As the Makefiles set them: gqa_causal's passes ATTN_D (its
    kernel_d64.cpp defaults to 128), gqa's does not."""
    defines = attn_defines(b, h, hkv, n)
    if causal:
        defines["ATTN_D"] = d
    return defines


def attn_name(h, hkv, causal):
    return "%s %s" % ("gqa" if h != hkv else "mha",
                      "causal" if causal else "non-causal")


def attn_shape(b, h, hkv, n, d):
    return "B=%d H=%d H_kv=%d N=%d D=%d" % (b, h, hkv, n, d)


def attn_fwd_point(b, h, hkv, n, d, causal, measured, source):
    folder = "kernels/attn/%s/" % ("gqa_causal" if causal else "gqa")
    path = folder + ("kernel_d64.cpp" if d == 64 else "kernel.cpp")
    build = Build(
        "fwd-%s-%d-%d-%d-%d-%d" % ("c" if causal else "n", b, h, hkv, n, d),
        "gfx950", "main", path, fwd_defines(b, h, hkv, n, d, causal),
        ATTN_FLAGS, [
            "template __global__ void attend_ker<ATTN_D>"
            "(const attn_globals<ATTN_D> g);"
        ])
    kernarg = ",".join([
        gl_bf16(b, n, h, d), gl_bf16(b, n, hkv, d), gl_bf16(b, n, hkv, d),
        gl_bf16(b, n, h, d), gl_f32(b, h, 1, n), "u64:0"
    ])
    grid = (h, (n // 32 + 7) // 8, b)
    flops = 4.0 * b * n * n * h * d / (2 if causal else 1)
    symbol = "_Z10attend_kerILi%dEEv12attn_globalsIXT_EE" % d
    launch = Launch(build.key, symbol, grid, 512, 160000, kernarg,
                    flops / math.prod(grid), buffer_bytes(kernarg))
    kernel = "attn fwd %s d%d" % (attn_name(h, hkv, causal), d)
    return Point(kernel, "gfx950", attn_shape(b, h, hkv, n, d), measured,
                 flops, [launch], source, builds=[build])


# The backward kernels' register limit, which clang 22 cannot meet (the
# hand-allocated registers of the kernel take v30-v255 and a0-a255);
# 512 is the whole unified register file of a wave.
BWD_LIMIT = {False: "amdgpu_num_vgpr(30)", True: "amdgpu_num_vgpr(29)"}
BWD_RAISED = "amdgpu_num_vgpr(512)"


def attn_bwd_builds(b, h, hkv, n, causal, raised):
    folder = "kernels/attn/%s/" % ("gqa_causal_backwards"
                                   if causal else "gqa_backwards")
    main = "attn_bkwd_causal.cpp" if causal else "attn_bkwd_non_causal.cpp"
    tag = "%s-%d-%d-%d-%d" % ("c" if causal else "n", b, h, hkv, n)
    rewrite = [(BWD_LIMIT[causal], BWD_RAISED)] if raised else []
    bwd = Build("bwd-%s%s" % (tag, "-raised" if raised else ""), "gfx950",
                "main", folder + main, attn_defines(b, h, hkv, n), ATTN_FLAGS,
                [
                    "template __global__ void attend_bwd_combined_ker<ATTN_D>"
                    "(const attn_bwd_combined_globals<ATTN_D> g);"
                ],
                rewrite=rewrite,
                include_dir=True)
    prep = Build("prep-" + tag, "gfx950", "main", folder + "attn_bkwd_prep.cpp",
                 attn_defines(b, h, hkv, n), ATTN_FLAGS, [
                     "template __global__ void attend_prep_ker<ATTN_D>"
                     "(const attn_prep_globals<ATTN_D> g);",
                     "template __global__ void attend_dq_shuffle_ker<ATTN_D>"
                     "(const attn_dq_shuffle_globals<ATTN_D> g);"
                 ],
                 include_dir=True)
    return bwd, prep


def attn_bwd_point(b, h, hkv, n, causal, measured, source, raised=True):
    d = 128
    bwd, prep = attn_bwd_builds(b, h, hkv, n, causal, raised)
    q, kv = gl_bf16(b, n, h, d), gl_bf16(b, n, hkv, d)
    vec = gl_f32(b, h, 1, n)
    dq_in = gl_bf16(b, h, n, d)  # dQ_tk_in: [B, H, N, D]
    flops = 2.5 * 4.0 * b * n * n * h * d / (2 if causal else 1)
    rows = (b, h, n // 64)  # the prep and shuffle grids
    prep_args = ",".join([q, q, vec, "u64:0"])
    shuffle_args = ",".join([dq_in, q, "u64:0"])
    main_args = ",".join([q, kv, kv, q, dq_in, kv, kv, vec, vec, "u64:0"])
    grid = (hkv, n // 256, b)
    launches = [
        Launch(prep.key, "_Z15attend_prep_kerILi128EEv17attn_prep_globalsIXT_EE",
               rows, 256, 160000, prep_args, 0, buffer_bytes(prep_args)),
        Launch(bwd.key, "_Z23attend_bwd_combined_kerILi128EEv25attn_bwd_"
               "combined_globalsIXT_EE", grid, 256, 160000, main_args,
               flops / math.prod(grid), buffer_bytes(main_args)),
        Launch(prep.key, "_Z21attend_dq_shuffle_kerILi128EEv23attn_dq_shuffle_"
               "globalsIXT_EE", rows, 256, 160000, shuffle_args, 0,
               buffer_bytes(shuffle_args)),
    ]
    kernel = "attn bwd %s d128" % attn_name(h, hkv, causal)
    return Point(kernel, "gfx950", attn_shape(b, h, hkv, n, d), measured,
                 flops, launches, source, builds=[bwd, prep])


#===-- The measurements ----------------------------------------------------===#

FP8_SOURCE = "HipKittens' paper (MI355X, 8192^3)"

ANALYSIS = {
    "gemm-gfx950": "bf16_gemm/mi350x/mi355x_bf16_gemm.json",
    "gemm-gfx942": "bf16_gemm/mi325x/mi325x_bf16_gemm.json",
    "fwd": "attn/fwd/benchmark/mi355x_%s_%s_fwd.json",
    "bwd": "attn/bkwd/benchmark/mi355x_%s_bkwd_%s.json",
}
# Heads of the measurements: test_python.py's defaults (H = 64, H_kv = 8)
# for GQA, H = H_kv = 16 for MHA. The batch is the one the measurement
# implies (FLOPs = TFLOP/s x time over the FLOPs of one batch): 16, the
# default, except at N = 16384, where most runs had 15.
ATTN_HEADS = {"gqa": (16, 64, 8), "mha": (16, 16, 16)}


def load(main_tree, rel):
    path = os.path.join(main_tree, "analysis", rel)
    with open(path) as f:
        return path, {int(k): v for k, v in json.load(f).items()}


def batch_of(path, n, entry, h, d, causal, factor):
    """The batch a measurement implies; it must be a whole number."""
    flops = entry["tflops"] * 1e12 * entry["avg_time"] * 1e-3
    implied = flops / (factor * 4.0 * n * n * h * d / (2 if causal else 1))
    if abs(implied - round(implied)) > 0.01 * implied or round(implied) < 1:
        sys.exit("bench-model: %s N=%d implies a batch of %.2f with H=%d" %
                 (path, n, implied, h))
    return round(implied)


def validation_points(trees, quick):
    points = []
    add = points.append

    for chip in ["gfx950"] if quick else ["gfx950", "gfx942"]:
        path, data = load(trees["main"], ANALYSIS["gemm-" + chip])
        for n in sorted(data):
            if quick and n > 2048:
                continue
            add(gemm_point(chip, n, data[n]["tflops"], path))
    if quick:
        return points
    for kind in ["fwd", "bwd"]:
        for heads in ["gqa", "mha"]:
            for causal in [False, True]:
                rel = ANALYSIS[kind] % (heads, "causal"
                                        if causal else "non_causal")
                path, data = load(trees["main"], rel)
                _, h, hkv = ATTN_HEADS[heads]
                for n in sorted(data):
                    b = batch_of(path, n, data[n], h, 128, causal,
                                 1.0 if kind == "fwd" else 2.5)
                    if kind == "fwd":
                        add(attn_fwd_point(b, h, hkv, n, 128, causal,
                                           data[n]["tflops"], path))
                    else:
                        add(attn_bwd_point(b, h, hkv, n, causal,
                                           data[n]["tflops"], path))
    return points


def comparison_rows(quick):
    """The paper's shapes: (kernel of ours, its --shape, chip, the
    HipKittens point's constructor and arguments)."""
    rows = []
    gemms = [(2048, "gfx950")] if quick else [(n, c) for c in
                                              ["gfx950", "gfx942"]
                                              for n in [8192, 4096]]
    for n, chip in gemms:
        rows.append(("gemm_bf16", "%d,%d,%d" % (n, n, n), chip,
                     lambda n=n, chip=chip: gemm_point(chip, n, None, "")))
    if quick:
        return rows
    for n in [8192, 4096]:
        for variant in ["8wave", "4wave"]:
            rows.append(("gemm_fp8", "%d,%d,%d" % (n, n, n), "gfx950",
                         lambda n=n, v=variant: gemm_fp8_point(
                             v, n, FP8_MEASURED.get(n), FP8_SOURCE)))
    n, b = 8192, 16
    for d in [128, 64]:
        for heads in ["gqa", "mha"]:
            for causal in [False, True]:
                _, h, hkv = ATTN_HEADS[heads]
                rows.append(("attention_fwd", "%d,%d,%d,%d,%d,%d" %
                             (b, h, hkv, n, d, causal), "gfx950",
                             lambda h=h, hkv=hkv, d=d, c=causal:
                             attn_fwd_point(b, h, hkv, n, d, c, None, "")))
    for heads in ["gqa", "mha"]:
        for causal in [False, True]:
            _, h, hkv = ATTN_HEADS[heads]
            rows.append(("attention_bwd", "%d,%d,%d,%d,%d" %
                         (b, h, hkv, n, causal), "gfx950",
                         lambda h=h, hkv=hkv, c=causal:
                         attn_bwd_point(b, h, hkv, n, c, None, "")))
    return rows


#===-- Compiling -----------------------------------------------------------===#


class Compiler:
    """Compiles Builds into code objects, cached in OUT/cache by the hash of
    the edited source and the command."""

    def __init__(self, env, workdir):
        self.env = env
        self.workdir = workdir
        self.cache = os.path.join(env.out, "cache")
        os.makedirs(self.cache, exist_ok=True)
        self.ockl = {}

    def ockl_bitcode(self, chip):
        if chip not in self.ockl:
            bc = os.path.join(self.workdir, "ockl-%s.bc" % chip)
            run_checked([
                self.env.clang, "-x", "hip", "-std=c++20",
                "--offload-arch=" + chip, "--offload-device-only",
                "-fgpu-rdc", "-nogpulib", "-nogpuinc", "-emit-llvm", "-O2",
                "-c", self.env.ockl_source, "-o", bc
            ], "the ockl bitcode for " + chip)
            self.ockl[chip] = bc
        return self.ockl[chip]

    def source_text(self, build):
        path = os.path.join(self.env.trees[build.tree], build.source)
        kept = []
        with open(path) as f:
            for line in f.read().splitlines():
                if "pyutils/pyutils.cuh" in line:
                    continue
                if line.startswith(build.cut_from):
                    break
                kept.append(line)
        text = "\n".join(kept) + "\n"
        for old, new in build.rewrite:
            if old not in text:
                raise RuntimeError("%s no longer contains '%s'" % (path, old))
            text = text.replace(old, new)
        return text + "\n".join(build.instantiate) + "\n"

    def command(self, build, copy, out):
        tree = self.env.trees[build.tree]
        family = "KITTENS_CDNA3" if build.tree == "cdna3" else "KITTENS_CDNA4"
        cmd = [
            self.env.clang, "-x", "hip", "-std=c++20",
            "--offload-arch=" + build.chip, "--offload-device-only",
            "--no-gpu-bundle-output", "-nogpulib",
            "--rocm-path=" + self.env.hip, "-D__AMDGCN_WAVEFRONT_SIZE=64",
            "-D" + family
        ]
        cmd += ["-D%s=%s" % kv for kv in sorted(build.defines.items())]
        cmd += build.extra_flags
        if build.include_dir:
            cmd += ["-I", os.path.dirname(os.path.join(tree, build.source))]
        cmd += [
            "-isystem", os.path.join(tree, "include"), "-isystem",
            os.path.join(self.env.hip, "include", "hip"),
            "-Wno-invalid-constexpr", "-O3", "-Xclang",
            "-mlink-builtin-bitcode", "-Xclang",
            self.ockl_bitcode(build.chip), copy, "-o", out
        ]
        return cmd

    def compile(self, build):
        """The code object's path; raises CompileError with clang's errors."""
        text = self.source_text(build)
        copy = os.path.join(self.workdir, build.key + ".cpp")
        with open(copy, "w") as f:
            f.write(text)
        digest = hashlib.sha256(
            (text + " ".join(self.command(build, "", ""))).encode())
        out = os.path.join(self.cache,
                           "%s-%s.co" % (build.key, digest.hexdigest()[:12]))
        if os.path.exists(out):
            return out
        p = subprocess.run(self.command(build, copy, out + ".tmp"),
                           capture_output=True, text=True)
        if p.returncode != 0:
            errors = [l for l in p.stderr.splitlines() if "error" in l]
            raise CompileError(build, errors or p.stderr.splitlines()[-3:])
        os.replace(out + ".tmp", out)
        return out


class CompileError(Exception):

    def __init__(self, build, errors):
        super().__init__("; ".join(errors))
        self.build = build
        self.errors = errors


def run_checked(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("bench-model: cannot build %s:\n%s" % (what, p.stderr))
    return p.stdout


#===-- Running -------------------------------------------------------------===#


def timing_lines(stdout):
    found = [json.loads(l[len("TIMING "):]) for l in stdout.splitlines()
             if l.startswith("TIMING ")]
    if not found:
        raise RuntimeError("no TIMING line in hk-run's output")
    return found


# hk-run's address space limit: 70% of the memory available at the start,
# so that a launch too large for the machine fails on its own instead of
# bringing the kernel's out-of-memory killer onto other processes.
MEMORY_LIMIT = None


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def hk_run(cmd, timeout=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           preexec_fn=limit_memory, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError("stopped after %.0f s of host time; "
                           "BENCH_MODEL_LONG=1 lets it run" % timeout)
    if p.returncode != 0:
        tail = (p.stderr.strip() or p.stdout.strip()).splitlines()[-2:]
        if "alloc" in p.stderr or "out of host memory" in p.stderr:
            tail.append("under the %.1f GiB address space limit" %
                        (MEMORY_LIMIT / 2**30))
        if p.returncode < 0:
            tail.append("killed by signal %d" % -p.returncode)
        raise RuntimeError("hk-run failed: " + " / ".join(tail))
    return timing_lines(p.stdout)


def run_launch(env, code_object, chip, launch):
    cmd = [
        env.hk_run, "--code-object", code_object, "--chip", chip, "--kernel",
        launch.symbol, "--grid", ",".join(map(str, launch.grid)), "--block",
        str(launch.block), "--lds", str(launch.lds), "--timing", "--kernarg",
        launch.kernarg
    ]
    return hk_run(cmd)[0]


def estimate_seconds(point):
    return sum(l.flops_per_workgroup for l in point.launches) * SAMPLES / \
        HOST_FLOPS_PER_SECOND


def available_memory():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 0


def admit(point, env):
    """Why the point is left out, or "" to run it."""
    need = max(l.memory for l in point.launches)
    if need > 0.9 * MEMORY_LIMIT:
        return "needs %.1f GiB of buffers, over the %.1f GiB limit" % (
            need / 2**30, MEMORY_LIMIT / 2**30)
    est = estimate_seconds(point)
    if est > LONG_SECONDS and not env.long:
        return "estimated %.0f s of host time; BENCH_MODEL_LONG=1 runs it" % est
    return ""


def model_point(point, env, objects):
    """Runs the point's launches; fills modelled, microseconds and bound."""
    start = time.time()
    reports = []
    for launch in point.launches:
        future = objects[launch.key]
        try:
            code_object = future.result()
        except CompileError as e:
            point.status = "compile failed: " + str(e)[:200]
            return
        try:
            reports.append(run_launch(env, code_object, point.chip, launch))
        except RuntimeError as e:
            point.status = str(e)[:300]
            return
    point.host = time.time() - start
    point.microseconds = sum(r["microseconds"] for r in reports)
    point.modelled = point.flops / (point.microseconds * 1e-6) / 1e12
    # The bound of the launch that takes longest.
    point.bound = max(reports, key=lambda r: r["microseconds"])["bound"]


#===-- The backward kernels as published -----------------------------------===#


def published_backward(compiler, out):
    """Compiles each backward kernel as published, at the smallest shape;
    prints what clang says and what is changed. Returns True if the
    published sources compile (then they are used unchanged)."""
    ok = True
    for causal in [False, True]:
        build, _ = attn_bwd_builds(1, 1, 1, 256, causal, raised=False)
        build.key += "-published"
        try:
            compiler.compile(build)
            out.write("backward %s as published: compiles\n" %
                      build.source)
        except CompileError as e:
            ok = False
            out.write("backward %s as published (%s): clang 22 fails: %s\n" %
                      (build.source, BWD_LIMIT[causal], e.errors[0].strip()))
    if not ok:
        out.write("changed, in a temporary copy: %s and %s -> %s (the "
                  "kernels' hand-allocated registers take v30-v255 and "
                  "a0-a255, so clang 22 has no room under the published "
                  "limit; nothing else is changed)\n" %
                  (BWD_LIMIT[False], BWD_LIMIT[True], BWD_RAISED))
    return ok


def probe_backward(compiler, env, out):
    """Runs each backward kernel (as changed above) in the timing mode at
    the smallest shape, one workgroup. Returns, per causal, "" or why its
    points are not modelled: a kernel that faults there cannot be timed,
    whatever its shape. (The functional mode faults on them: their four
    waves write the same L and delta bytes of LDS by DMA, a race by the
    ISA's rules; the timing mode leaves races to the functional mode.)"""
    found = {}
    for causal in [False, True]:
        point = attn_bwd_point(1, 1, 1, 256, causal, None, "")
        main = point.launches[1]
        build = [b for b in point.builds if b.key == main.key][0]
        try:
            code_object = compiler.compile(build)
        except CompileError as e:
            found[causal] = "compile failed: " + str(e)[:200]
            continue
        p = subprocess.run([
            env.hk_run, "--code-object", code_object, "--chip", "gfx950",
            "--kernel", main.symbol, "--grid", "1,1,1", "--block",
            str(main.block), "--lds", str(main.lds), "--kernarg", main.kernarg,
            "--timing"
        ], capture_output=True, text=True)
        fault = [l for l in p.stderr.splitlines() if "error" in l]
        found[causal] = ""
        if p.returncode != 0:
            found[causal] = ("HipKittens' kernel faults on the ISA simulator"
                             " (B=H=H_kv=1, N=256, one workgroup): " +
                             (fault[-1] if fault else "exit %d" %
                              p.returncode).replace("hk-run: error: ", ""))
        out.write("backward %s on the simulator: %s\n" %
                  (build.source, found[causal] or "runs"))
        if "LDS race" in found[causal]:
            out.write("  (bytes 139264 on are L_smem: each of the four "
                      "waves loads the same L and delta vectors into the "
                      "same LDS bytes by LDS DMA, identical data but a race "
                      "by the ISA's rules; its points are not modelled)\n")
    return found


#===-- Tables --------------------------------------------------------------===#


def fmt(v, spec="%.1f"):
    return "-" if v is None else spec % v


def validation_table(points, out):
    out.write("\n=== model vs measured: HipKittens' kernels (measured: "
              "HipKittens' analysis/, MI355X = gfx950, MI325X = gfx942)\n\n")
    out.write("| kernel | chip | shape | measured TFLOP/s | modelled TFLOP/s "
              "| modelled / measured | bound | modelled us | host s |\n")
    out.write("|---|---|---|---|---|---|---|---|---|\n")
    for p in points:
        ratio = p.modelled / p.measured if p.modelled else None
        bound = p.bound if p.modelled else "not modelled: " + p.status
        out.write("| %s | %s | %s | %.1f | %s | %s | %s | %s | %s |\n" %
                  (p.kernel, p.chip, p.shape, p.measured, fmt(p.modelled),
                   fmt(ratio, "%.3f"), bound, fmt(p.microseconds, "%.2f"),
                   fmt(p.host if p.modelled else None)))


def error_summary(points):
    """(median error, within 20%, count, median |log2|, worst point)."""
    done = [p for p in points if p.modelled]
    if not done:
        return None
    errs = [abs(p.modelled / p.measured - 1) for p in done]
    logs = [abs(math.log2(p.modelled / p.measured)) for p in done]
    worst = max(done, key=lambda p: abs(math.log2(p.modelled / p.measured)))
    return (statistics.median(errs), sum(e <= 0.2 for e in errs), len(done),
            statistics.median(logs), worst)


def validation_summary(points, out):
    out.write("\n")
    for chip in sorted({p.chip for p in points}, reverse=True):
        s = error_summary([p for p in points if p.chip == chip])
        if s:
            out.write("  %s: median error %.1f%%, %d of %d within 20%%, "
                      "median |log2(modelled/measured)| %.3f\n" %
                      (chip, 100 * s[0], s[1], s[2], s[3]))
    skipped = [p for p in points if not p.modelled]
    if skipped:
        out.write("  not modelled: %d points (listed in the table)\n" %
                  len(skipped))
    s = error_summary(points)
    if not s:
        out.write("model vs measured: median error -, 0 of 0 within 20%\n")
        return
    worst = s[4]
    out.write("median |log2(modelled/measured)|: %.3f; worst point: %s %s "
              "%s, modelled/measured %.3f (%.1f against %.1f TFLOP/s)\n" %
              (s[3], worst.kernel, worst.chip, worst.shape,
               worst.modelled / worst.measured, worst.modelled,
               worst.measured))
    out.write("model vs measured: median error %.1f%%, %d of %d within 20%%\n"
              % (100 * s[0], s[1], s[2]))


@dataclasses.dataclass
class Comparison:
    name: str  # our kernel
    shape: str  # its --shape
    theirs: Point
    ours: float = None  # TFLOP/s by HipKittens' FLOP formula
    ours_us: float = None
    ours_bound: str = ""
    status: str = ""


def ours_command(row, env):
    """hk-run for one of our rows. The attention forward goes through
    --launch-only over zeroed buffers: at the paper's shapes the library
    path's float64 host copies do not fit in memory. Its memrefs are the
    library's views, [B, heads, N, D] (kernels/attention_fwd/Reference.cpp);
    the timing model needs their sizes, not the library's strides."""
    base = [row.theirs.chip and "--chip", row.theirs.chip, "--device",
            "isa", "--timing"]
    if row.name != "attention_fwd":
        return [env.hk_run, row.name, "--shape", row.shape] + base
    b, h, hkv, n, d, causal = (int(v) for v in row.shape.split(","))
    artifact = os.path.join(os.path.dirname(os.path.dirname(env.hk_run)),
                            "kernels", "attention_fwd.hkrt")
    args = ",".join(["zeros:%dx%dx%dx%d" % (b, h, n, d),
                     "zeros:%dx%dx%dx%d" % (b, hkv, n, d),
                     "zeros:%dx%dx%dx%d" % (b, hkv, n, d),
                     "zeros:%dx%dx%dx%d" % (b, h, n, d),
                     "zeros:%dx%dx%d" % (b, h, n), str(causal)])
    return [env.hk_run, "--artifact", artifact, "--kernel",
            "attention_fwd_d%d" % d, "--launch-only", "--args", args] + base


def model_ours(row, env):
    cmd = ours_command(row, env)
    try:
        reports = hk_run(cmd, None if env.long else OURS_SECONDS)
    except RuntimeError as e:
        row.status = str(e)[:300]
        return
    row.ours_us = sum(r["microseconds"] for r in reports)
    row.ours = row.theirs.flops / (row.ours_us * 1e-6) / 1e12
    row.ours_bound = max(reports, key=lambda r: r["microseconds"])["bound"]


def comparison_table(rows, out):
    out.write("\n=== ours vs HipKittens (modelled; TFLOP/s by HipKittens' "
              "FLOP formulas)\n\n")
    out.write("| kernel | HipKittens kernel | chip | shape | ours modelled "
              "| HipKittens modelled | HipKittens measured "
              "| ours / HipKittens | bound ours / HK |\n")
    out.write("|---|---|---|---|---|---|---|---|---|\n")
    at_or_above = counted = 0
    for r in rows:
        t = r.theirs
        ratio = None
        if r.ours and t.modelled:
            ratio = r.ours / t.modelled
            counted += 1
            at_or_above += ratio >= 1.0
        notes = []
        if not r.ours:
            notes.append("ours not modelled: " + r.status)
        if not t.modelled:
            notes.append("HipKittens not modelled: " + t.status)
        out.write("| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s%s |\n" %
                  (r.name, t.kernel, t.chip, t.shape, fmt(r.ours),
                   fmt(t.modelled),
                   fmt(t.measured), fmt(ratio, "%.3f"), r.ours_bound or "-",
                   t.bound or "-",
                   ("; " + "; ".join(notes)) if notes else ""))
    missing = len(rows) - counted
    out.write("\nours vs HipKittens (modelled): %d of %d rows at or above%s\n"
              % (at_or_above, len(rows), "" if not missing else
                 " (%d without both modelled figures)" % missing))


#===-- Pictures ------------------------------------------------------------===#

FAMILY_MARKERS = {"gemm": "o", "attn fwd": "^", "attn bwd": "s"}


def plot_validation(points, path, plt, ticker):
    done = [p for p in points if p.modelled]
    fig, ax = plt.subplots(figsize=(7, 6.5))
    values = [v for p in done for v in (p.measured, p.modelled)] or [1, 10]
    lo, hi = min(values) / 1.5, max(values) * 1.5
    xs = [lo, hi]
    ax.fill_between(xs, [0.8 * x for x in xs], [1.2 * x for x in xs],
                    color="0.9", label="within 20%")
    ax.plot(xs, xs, color="0.5", linewidth=1)
    colors = {"gfx950": "tab:red", "gfx942": "tab:blue"}
    for family, marker in FAMILY_MARKERS.items():
        for chip, color in colors.items():
            sel = [p for p in done
                   if p.kernel.startswith(family) and p.chip == chip]
            if sel:
                ax.scatter([p.measured for p in sel],
                           [p.modelled for p in sel], marker=marker,
                           color=color, label="%s %s" % (family, chip))
    ticks = [t for t in [25, 50, 100, 200, 400, 800, 1600, 3200]
             if lo <= t <= hi]
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    for axis in [ax.xaxis, ax.yaxis]:
        axis.set_major_locator(ticker.FixedLocator(ticks))
        axis.set_major_formatter(ticker.ScalarFormatter())
        axis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xlabel("measured TFLOP/s (HipKittens analysis/)")
    ax.set_ylabel("modelled TFLOP/s (hk-run --timing)")
    ax.set_title("HipKittens' kernels: timing model against hardware")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_comparison(rows, path, plt):
    fig, ax = plt.subplots(figsize=(max(7, 0.9 * len(rows) + 2), 5.5))
    width = 0.27
    series = [("ours (modelled)", lambda r: r.ours, "tab:green"),
              ("HipKittens (modelled)", lambda r: r.theirs.modelled,
               "tab:orange"),
              ("HipKittens (measured)", lambda r: r.theirs.measured, "0.6")]
    for k, (label, value, color) in enumerate(series):
        ax.bar([i + (k - 1) * width for i in range(len(rows))],
               [value(r) or 0 for r in rows], width, label=label,
               color=color)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(["%s %s\n%s" % (r.name, r.theirs.chip,
                                       r.theirs.shape.replace(" ", "\n"))
                        for r in rows], fontsize=6)
    ax.set_ylabel("TFLOP/s (HipKittens' FLOP formulas)")
    ax.set_title("Our kernels against HipKittens' at the paper's shapes")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


#===-- Driver --------------------------------------------------------------===#


class Tee:
    """Writes to stdout and to the report file, flushing each line."""

    def __init__(self, path):
        self.file = open(path, "w")

    def write(self, text):
        sys.stdout.write(text)
        sys.stdout.flush()
        self.file.write(text)
        self.file.flush()


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="the GEMM at 1024 and 2048 on gfx950 only")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--build", required=True, help="the build directory")
    ap.add_argument("--src", required=True, help="the source root")
    ap.add_argument("--only", metavar="KERNEL",
                    help="only the comparison rows of this kernel of ours "
                    "(gemm_bf16, gemm_fp8, ...), without the validation "
                    "points")
    return ap.parse_args()


class Env:

    def __init__(self, args):
        cache = read_cmake_cache(os.path.join(args.build, "CMakeCache.txt"))
        tp = os.environ.get("HK_THIRD_PARTY")
        pick = lambda var, sub: (os.path.join(tp, sub) if tp else cache.get(
            var, os.path.join(args.src, "..", "shared", "third_party", sub)))
        self.trees = {"main": pick("HK_HIPKITTENS_MAIN_DIR",
                                   "hipkittens-main"),
                      "cdna3": pick("HK_HIPKITTENS_CDNA3_DIR",
                                    "hipkittens-cdna3")}
        self.hip = pick("HK_HIP_DIR", "hip")
        self.clang = os.environ.get("CLANG", "/usr/lib/llvm-22/bin/clang++")
        self.hk_run = os.path.join(args.build, "bin", "hk-run")
        self.ockl_source = os.path.join(args.src, "test", "Target",
                                        "HipKittens", "Inputs", "ockl.hip")
        self.out = args.out
        self.long = os.environ.get("BENCH_MODEL_LONG", "") not in ("", "0")
        for what in [self.hk_run, self.clang, self.hip, *self.trees.values()]:
            if not os.path.exists(what):
                sys.exit("bench-model: %s not found" % what)


def read_cmake_cache(path):
    found = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                m = re.match(r"(HK_\w+):\w+=(.*)", line.strip())
                if m:
                    found[m.group(1)] = m.group(2)
    return found


def compile_all(points, compiler, pool):
    """Submits the builds in the order the points need them: one compile at
    a time, beside the runs, which go one after another."""
    objects = {}
    for p in points:
        for b in p.builds:
            if b.key not in objects:
                objects[b.key] = pool.submit(compiler.compile, b)
    return objects


def run_points(points, env, objects, out, label):
    for p in points:
        if not p.status:
            model_point(p, env, objects)
        out.write("  %s %s %s %s: %s\n" %
                  (label, p.kernel, p.chip, p.shape,
                   "%.1f TFLOP/s modelled in %.1f s" %
                   (p.modelled, p.host) if p.modelled else p.status))


def plan(quick, only=None):
    """The validation points, the comparison rows, and the HipKittens points
    only the comparison needs (D = 64 has no measurement). With `only`, the
    comparison rows of that kernel of ours and no validation points."""
    points = [] if only else validation_points(ENV.trees, quick)
    rows, extra = [], []
    for name, shape, _, make in comparison_rows(quick):
        if only and name != only:
            continue
        theirs = make()
        same = [p for p in points + extra
                if (p.kernel, p.chip, p.shape) == (theirs.kernel, theirs.chip,
                                                   theirs.shape)]
        if same:
            theirs = same[0]
        else:
            extra.append(theirs)
        rows.append(Comparison(name, shape, theirs))
    return points, rows, extra


def main():
    global ENV, MEMORY_LIMIT
    args = parse_args()
    MEMORY_LIMIT = int(0.7 * available_memory())
    os.makedirs(args.out, exist_ok=True)
    ENV = env = Env(args)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker as ticker
    except ImportError:
        sys.exit("bench-model: python3-matplotlib is missing "
                 "(scripts/setup.sh installs it)")
    out = Tee(os.path.join(args.out, "bench-model.txt"))
    workdir = os.path.join(args.out, "work")
    os.makedirs(workdir, exist_ok=True)
    compiler = Compiler(env, workdir)
    started = time.time()
    points, rows, extra = plan(args.quick, args.only)
    for p in points + extra:
        p.status = admit(p, env)
    out.write("bench-model: HipKittens from %s and %s; %s; %s\n" %
              (env.trees["main"], env.trees["cdna3"], env.clang, env.hk_run))
    if not args.quick and not args.only:
        published_backward(compiler, out)
        faults = probe_backward(compiler, env, out)
        for p in points + extra:
            if p.kernel.startswith("attn bwd"):
                if faults["causal" in p.kernel.split()]:
                    p.status = ("HipKittens' kernel faults on the ISA "
                                "simulator (printed above)")
    wanted = [p for p in points + extra if not p.status]
    out.write("modelling %d HipKittens points, %d left out (see the table)\n"
              % (len(wanted), len(points) + len(extra) - len(wanted)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        objects = compile_all(wanted, compiler, pool)
        run_points(points + extra, env, objects, out, "HipKittens")
    for r in rows:
        model_ours(r, env)
        out.write("  ours %s %s %s: %s\n" %
                  (r.name, r.theirs.chip, r.shape,
                   "%.1f TFLOP/s modelled" % r.ours if r.ours else r.status))
    validation_table(points, out)
    validation_summary(points, out)
    comparison_table(rows, out)
    pictures = [os.path.join(args.out, n) for n in
                ("model-vs-measured.png", "ours-vs-hipkittens.png")]
    plot_validation(points, pictures[0], plt, ticker)
    plot_comparison(rows, pictures[1], plt)
    out.write("\npictures: %s, %s; this text: %s (%.0f s)\n" %
              (pictures[0], pictures[1],
               os.path.join(args.out, "bench-model.txt"),
               time.time() - started))


ENV = None

if __name__ == "__main__":
    main()
