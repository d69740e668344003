"""PyTorch CPU tensors in and out: bf16 tensors as torch.bfloat16, f32 as
torch.float32; outputs are written into the given tensors."""

import os

import numpy as np
import pytest
import torch

import hk
from conftest import SRC_ROOT, kernel_path
from test_run import check_softmax

AXPB = os.path.join(SRC_ROOT, "test", "Install", "Inputs", "axpb.mlir")


def bits(t):
    return t.view(torch.int16).numpy().view(np.uint16).copy()


def test_softmax_bfloat16_tensors(simulator):
    torch.manual_seed(0)
    mod = hk.compile(kernel_path("softmax"), chips=["gfx942", "gfx950"])
    x = (torch.rand(200, 130) * 8 - 4).to(torch.bfloat16)
    y = torch.full((200, 130), float("nan"), dtype=torch.bfloat16)
    mod.softmax(x, y)
    check_softmax(bits(y), bits(x))
    # Against torch's own softmax too, in float64.
    ref = torch.softmax(x.double(), dim=1)
    assert torch.allclose(y.double(), ref, rtol=2.0**-7, atol=0)


def test_f32_tensors_and_views(simulator):
    mod = hk.compile(AXPB, chips=["gfx942", "gfx950"])
    x = torch.arange(33 * 65, dtype=torch.float32).reshape(65, 33).t()
    y = torch.zeros(33, 65)
    mod.axpb(x, y, 0.5, 1.0)
    # x is integers < 2^12: 0.5 x + 1 is exact in f32.
    assert torch.equal(y, 0.5 * x + 1)
    out = torch.zeros(66, 65)[::2]  # a strided output view
    mod.axpb(x, out, 2.0, 0.0)
    assert torch.equal(out, 2 * x)


def test_tensor_dtype_mismatch():
    mod = hk.compile(kernel_path("softmax"), chips=["gfx950"])
    x = torch.zeros(4, 4, dtype=torch.float16)
    with pytest.raises(hk.ArgumentError,
                       match=r"'x'.*torch.bfloat16, got torch.float16"):
        mod.softmax(x, torch.zeros(4, 4, dtype=torch.bfloat16))


def test_requires_grad_tensor_is_read(simulator):
    mod = hk.compile(AXPB, chips=["gfx942", "gfx950"])
    x = torch.ones(4, 4, requires_grad=True)
    y = torch.zeros(4, 4)
    mod.axpb(x, y, 3.0, 0.0)
    assert torch.equal(y, torch.full((4, 4), 3.0))
