"""The ISA simulator's timing mode from Python (docs/timing.md): a launch on
a device in timing mode runs the cycle model and leaves a report."""

import json

import numpy as np
import pytest

import hk
from conftest import kernel_path


def test_timed_gemm_reports_the_model(simulator, rng, tmp_path):
    mod = hk.compile(kernel_path("gemm_bf16"), chips=["gfx942", "gfx950"])
    m = n = k = 512
    a = hk.bf16.from_float(rng.uniform(-1, 1, (m, k)))
    b = hk.bf16.from_float(rng.uniform(-1, 1, (n, k)))
    c = np.zeros((m, n), dtype=np.uint16)
    trace = tmp_path / "gemm.json"
    simulator.set_timing(True, trace=trace)
    try:
        mod.gemm_bf16(a, b, c)
        report = simulator.timing_report()
    finally:
        simulator.set_timing(False)
    assert report["chip"] == simulator.chip
    # The model counts the MFMA work of the whole launch: 2 M N K.
    assert report["flops"] == pytest.approx(2.0 * m * n * k, rel=1e-6)
    assert report["microseconds"] > 0 and report["cycles"] > 0
    assert 0 < report["mfma_busy"] <= 1
    assert report["bound"] in ("MFMA", "issue", "LDS", "memory", "HBM",
                               "latency")
    # Per wave of the first batch: the 8 waves of a workgroup, two per
    # SIMD in rotation, each with MFMA work and an end.
    waves = report["waves"]
    assert sorted(w["wave"] for w in waves) == list(range(8))
    assert sorted(w["simd"] for w in waves) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert all(w["mfma_cycles"] > 0 and w["end_cycle"] > 0 for w in waves)
    # The trace opens as Chrome's JSON trace format: complete events on
    # one track per wave.
    events = json.loads(trace.read_text())["traceEvents"]
    spans = [e for e in events if e["ph"] == "X"]
    assert any(e["name"] == "MFMA" for e in spans)
    assert {e["tid"] for e in spans} >= set(range(8))


def test_report_without_a_timed_launch_is_an_error(simulator):
    with pytest.raises(hk.HkrtError, match="timed"):
        simulator.timing_report()
