"""Kernel templates from Python and autotuning on the timing model
(python/hk/autotune.py): hk.compile(params=), a small search on local
processes and on a Dask LocalCluster, and the launch of the tuned instance.

The search is kept small (the default and one instance, at one small
shape): 256 x 256 x 256 fills one 256 x 256 workgroup of the default GEMM
and four 128 x 128 ones, which the model rates faster on a chip of 256 CUs.
scripts/tune.py runs the full sweeps (docs/timing.md).
"""

import json
import os

import numpy as np
import pytest

import hk
from conftest import kernel_path

SHAPE = (256, 256, 256)
SPACE = {"BM": [128], "BN": [128]}


def test_compile_params_instantiates_and_keys_the_cache(private_cache):
    default = hk.compile(kernel_path("gemm_bf16"), chips=["gfx950"])
    small = hk.compile(kernel_path("gemm_bf16"), chips=["gfx950"],
                       params={"BM": 128, "BN": 128})
    assert small.cache_path != default.cache_path
    again = hk.compile(kernel_path("gemm_bf16"), chips=["gfx950"],
                       params={"BN": "128", "BM": "128"})
    assert again.cache_hit and again.cache_path == small.cache_path
    a = np.zeros((300, 64), dtype=np.uint16)
    b = np.zeros((200, 64), dtype=np.uint16)
    c = np.zeros((300, 200), dtype=np.uint16)
    # The instance's grid: one workgroup per 128 x 128 tile of C.
    assert default.gemm_bf16.grid(a, b, c)[0] == 2 * 1
    assert small.gemm_bf16.grid(a, b, c)[0] == 3 * 2


def test_compile_params_errors_are_located():
    with pytest.raises(hk.CompileError,
                       match=r"gemm_bf16.mlir:\d+:\d+: error: parameter 'BM' "
                             r"= 64 is not one of 128, 256"):
        hk.compile(kernel_path("gemm_bf16"), chips=["gfx950"],
                   params={"BM": 64})
    with pytest.raises(hk.CompileError, match="'XM' is not a parameter"):
        hk.compile(kernel_path("gemm_bf16"), chips=["gfx950"],
                   params={"XM": 1})


def check_result(result):
    entry = result.best(SHAPE)
    assert entry["bucket"] == [256, 256, 256]
    assert entry["params"] == {"BM": 128, "BN": 128}
    assert entry["microseconds"] < entry["default_microseconds"]
    assert entry["speedup"] > 1.2
    assert result.measured_on == "model"
    assert len(result.timings) == 2
    assert not any("error" in t for t in result.timings)


def test_autotune_on_local_processes(tmp_path):
    table = tmp_path / "gfx950.json"
    result = hk.autotune("gemm_bf16", [SHAPE], SPACE, chip="gfx950",
                         workers=2, table=table)
    check_result(result)
    written = json.loads(table.read_text())
    assert written["kernel"] == "gemm_bf16" and written["chip"] == "gfx950"
    assert written["measured_on"] == "model"
    assert [e["params"] for e in written["entries"]] == [
        {"BM": 128, "BN": 128}]


def test_autotune_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                  processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        result = hk.autotune("gemm_bf16", [SHAPE], SPACE, chip="gfx950",
                             client=client)
        workers = set(client.scheduler_info()["workers"])
    assert len(workers) == 2
    # Every measurement ran as a task on one of the cluster's workers.
    assert {t["worker"] for t in result.timings} <= workers
    assert all(t["worker"] for t in result.timings)
    check_result(result)


def gemm_shape(a, b, c):
    return (a.shape[0], b.shape[0], a.shape[1])


def test_launch_uses_the_tuned_instance(private_cache):
    """A table in the user's cache names BM = BN = 128 for the bucket of
    (300, 200, 136): a TunedKernel launches that instance there (a correct
    GEMM) and the default at a shape of another bucket."""
    path = hk.table_path("gemm_bf16", "gfx950")
    entry = {"bucket": list(hk.shape_bucket((300, 200, 136))),
             "shapes": [[300, 200, 136]], "params": {"BM": 128, "BN": 128},
             "microseconds": 1.0, "default_microseconds": 2.0,
             "speedup": 2.0}
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"kernel": "gemm_bf16", "chip": "gfx950",
                   "entries": [entry]}, f)
    hk.set_device("isa", chip="gfx950")
    gemm = hk.TunedKernel(kernel_path("gemm_bf16"), "gemm_bf16", gemm_shape)
    rng = np.random.default_rng(0)
    af, bf = rng.standard_normal((300, 136)), rng.standard_normal((200, 136))
    a, b = hk.bf16.from_float(af), hk.bf16.from_float(bf)
    c = np.zeros((300, 200), dtype=a.dtype)
    gemm(a, b, c)
    assert gemm.last_params == {"BM": "128", "BN": "128"}
    want = hk.bf16.to_float(a) @ hk.bf16.to_float(b).T
    # bf16 output: within a rounding (2^-8 relative) and the f32 sums'.
    got = hk.bf16.to_float(c)
    assert np.all(np.abs(got - want) <= 1e-2 * np.abs(want) + 0.05)
    c2 = np.zeros((40, 30), dtype=a.dtype)
    gemm(a[:40], b[:30], c2)
    assert gemm.last_params == {}


def gemm_args(shape):
    """The GEMM's arguments at `shape` (M, N, K): zeros, as the timing mode
    runs sampled workgroups and checks nothing."""
    m, n, k = shape
    return (np.zeros((m, k), np.uint16), np.zeros((n, k), np.uint16),
            np.zeros((m, n), np.uint16))


def test_autotune_a_template_by_path_in_process():
    """A template by path is compiled with params= and timed through
    Device.set_timing / timing_report in the workers."""
    result = hk.autotune(kernel_path("gemm_bf16"), [SHAPE], SPACE,
                         chip="gfx942", args=gemm_args, workers=2)
    assert result.kernel == "gemm_bf16"
    entry = result.best(SHAPE)
    assert entry["params"] == {"BM": 128, "BN": 128}
    assert entry["microseconds"] < entry["default_microseconds"]
    with pytest.raises(hk.Error, match="needs args="):
        hk.autotune(kernel_path("gemm_bf16"), [SHAPE], SPACE)
