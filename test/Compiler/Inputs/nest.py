"""Prints MLIR nested `depth` levels deep: nested modules, scf.if or scf.for
in a func.func, or scf.if in a gpu.func kernel (compilable by hkc)."""
import sys

kind, depth = sys.argv[1], int(sys.argv[2])
if kind == "module":
    print("module {\n" * depth + "}\n" * depth, end="")
elif kind == "if":
    print("func.func @f(%c: i1) {\n" + "scf.if %c {\n" * depth +
          "}\n" * depth + "return\n}")
elif kind == "for":
    print("func.func @f(%a: index) {\n" +
          "".join(f"scf.for %i{i} = %a to %a step %a {{\n"
                  for i in range(depth)) + "}\n" * depth + "return\n}")
elif kind == "gpu-if":
    print("gpu.module @m {\ngpu.func @k(%p: memref<4xf32>, %c: i1) kernel {\n"
          + "scf.if %c {\n" * depth +
          "%z = arith.constant 1.0 : f32\n%i = arith.constant 0 : index\n"
          "memref.store %z, %p[%i] : memref<4xf32>\n" + "}\n" * depth +
          "gpu.return\n}\n}")
else:
    sys.exit(f"unknown kind {kind}")
