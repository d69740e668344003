"""The launch grid computed from a kernel's metadata (hk.grid, through the
runtime's hkrt_grid_evaluate), against
values worked out by hand from the affine rules of docs/runtime.md and
against the grid hk-run prints (the runtime's C++ evaluation)."""

import os
import re
import subprocess

import numpy as np
import pytest

import hk
from hk.grid import GridError, evaluate
from conftest import BIN, kernel_path

# hk-run beside the libraries the package uses (build/bin, PREFIX/bin).
HK_RUN = os.path.join(BIN, "hk-run")


@pytest.mark.parametrize("text,symbols,value", [
    ("s0 ceildiv 256 * (s1 ceildiv 256)", [300, 200], 2 * 1),
    ("(s0 ceildiv 256) * (s1 ceildiv 256)", [513, 256], 3 * 1),
    ("(s1 + 1) floordiv 2", [0, 6], 3),
    ("1 + 2 * 3", [], 7),
    ("2 * 3 - 4 - 1", [], 1),          # left-associative
    ("-7 floordiv 2", [], -4),         # rounds down
    ("-7 ceildiv 2", [], -3),          # rounds up
    ("7 ceildiv 2", [], 4),
    ("-7 mod 3", [], 2),               # in [0, |b|)
    ("7 mod -3", [], 1),
    ("s0 + (-10)", [12], 2),
    ("-(s0 - 1)", [3], -2),
])
def test_evaluate(text, symbols, value):
    assert evaluate(text, symbols) == value


@pytest.mark.parametrize("text,symbols,message", [
    ("s0 floordiv s1", [4, 0], "'s0 floordiv s1': division by zero"),
    ("s0 * s0", [1 << 40], "'s0 \\* s0': integer overflow"),
    ("s2", [1], "'s2': symbol s2 is not bound"),
    ("s0 +", [1], "'s0 \\+' at column 5: unexpected end"),
    ("s0 ^ 2", [1], "'s0 \\^ 2' at column 4: unexpected '\\^'"),
])
def test_evaluate_errors(text, symbols, message):
    with pytest.raises(GridError, match=message):
        evaluate(text, symbols)


def hk_run_grid(artifact, kernel, args):
    out = subprocess.run(
        [HK_RUN, "--artifact", artifact, "--kernel", kernel, "--launch-only",
         "--args", args, "--device", "isa"],
        capture_output=True, text=True, check=True).stdout
    m = re.search(r"grid: +(\d+) x (\d+) x (\d+) workgroups", out)
    return tuple(int(g) for g in m.groups())


@pytest.mark.parametrize("m,n", [(300, 200), (256, 256), (1, 513), (0, 5)])
def test_gemm_grid_agrees_with_the_runtime(tmp_path, m, n):
    mod = hk.compile(kernel_path("gemm_bf16"), chips=["gfx950"])
    k = 64
    a, b = np.zeros((m, k), np.uint16), np.zeros((n, k), np.uint16)
    c = np.zeros((m, n), np.uint16)
    by_hand = (-(-m // 256) * -(-n // 256), 1, 1)
    assert mod.gemm_bf16.grid(a, b, c) == by_hand
    path = tmp_path / "gemm.hkrt"
    path.write_bytes(mod.artifact)
    assert hk_run_grid(str(path), "gemm_bf16",
                       f"{m}x{k},{n}x{k},{m}x{n}") == by_hand


def test_launch_records_the_grid(simulator):
    mod = hk.compile(kernel_path("softmax"), chips=["gfx942", "gfx950"])
    x = np.zeros((300, 10), np.uint16)
    mod.softmax(x, x.copy())
    assert mod.softmax.last_grid == (3, 1, 1)  # ceildiv(300, 128)


NEGATIVE = """\
hk.kernel @g(%x: memref<?xf32>, %n: i32) attributes {waves = 1 : i32,
    grid = #hk.grid<[arg(1)] -> (s0 - 10)>} {
  hk.return
}
"""


def test_grid_from_a_scalar_and_out_of_range():
    mod = hk.compile(source=NEGATIVE, chips=["gfx950"])
    x = np.zeros(4, np.float32)
    assert mod.g.grid(x, 12) == (2, 1, 1)
    with pytest.raises(hk.ArgumentError,
                       match=r"kernel 'g': grid expression .* gives -7, "
                       r"outside \[0, 2\^31\)"):
        mod.g(x, 3)
