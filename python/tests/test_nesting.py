"""Deep nesting through the package: hk.verify and hk.compile refuse text
nested deeper than libhkc's limit with a located CompileError, where the
parser used to overflow the interpreter's stack."""

import pytest

import hk


def nested_modules(depth):
    return "module {\n" * depth + "}\n" * depth


def nested_ifs(depth):
    return ("func.func @f(%c: i1) {\n" + "scf.if %c {\n" * depth +
            "}\n" * depth + "return\n}\n")


@pytest.mark.parametrize("text", [nested_modules(4000), nested_ifs(10000)],
                         ids=["modules", "ifs"])
def test_verify_refuses_deep_nesting(text):
    with pytest.raises(hk.CompileError) as info:
        hk.verify(text, name="deep.mlir")
    assert "deep.mlir:257:" in str(info.value)
    assert "nesting deeper than 256 levels" in str(info.value)


def test_compile_refuses_deep_nesting():
    with pytest.raises(hk.CompileError) as info:
        hk.compile(source=nested_modules(4000), name="deep.mlir", cache=False)
    assert "deep.mlir:257:8: error: nesting deeper than 256" in str(info.value)


def test_verify_accepts_nesting_at_the_limit():
    # 255 modules in the implicit top-level one, 256 levels of braces.
    hk.verify(nested_modules(256), name="limit.mlir")
