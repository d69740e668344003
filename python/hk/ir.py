"""Building hk IR from Python.

A front end (a DSL, a script) builds kernels with Python calls instead of
writing text; the builder prints the dialect's textual IR, which
``Module.verify()`` parses and verifies through libhkc (hkc_verify) and
``Module.compile()`` compiles like any source:

    from hk import ir
    from hk.ir import bf16, f32, index

    m = ir.Module()
    x_t = ir.memref([None, None], f32)
    k = m.kernel("copy", [("x", x_t), ("y", x_t)], waves=1,
                 grid=ir.grid([ir.dim(0, 0), ir.dim(0, 1)],
                              "s0 ceildiv 32", "s1 ceildiv 64"))
    b = k.builder
    i, j = b.block_id("x"), b.block_id("y")
    t = b.load(k.args[0], [i, j], ir.rt([32, 64], f32, "row", (16, 16)))
    b.store(t, k.args[1], [i, j])
    b.ret()
    m.verify()
    mod = m.compile(chips=["gfx942", "gfx950"])

Types: ``memref``, ``rt`` (register tile), ``rv`` (register vector), ``st``
(shared tile), ``token`` and the scalars (``index``, ``f32``, ``bf16``...).
Values are ``Value`` objects carrying their type, so each op prints the
types its assembly format needs. Regions (``scf.for``, ``scf.if``,
``hk.ping_pong``, ``hk.interleave``, ``hk.cluster``) are ``with`` blocks; ``Builder.yield_``
ends one with its terminator. ``Builder.op`` prints any other op in MLIR's
generic form.
"""

from . import compiler as _compiler


class Type:
    """An MLIR type, as its text."""

    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"Type({self.text})"

    def __eq__(self, other):
        return isinstance(other, Type) and other.text == self.text

    def __hash__(self):
        return hash(self.text)


index = Type("index")
i1, i8, i16, i32, i64 = (Type(t) for t in ("i1", "i8", "i16", "i32", "i64"))
f16, bf16, f32, f64 = (Type(t) for t in ("f16", "bf16", "f32", "f64"))
token = Type("!hk.token")


def _shape(shape):
    return "x".join("?" if d is None else str(int(d)) for d in shape)


def memref(shape, element, strides=None):
    """memref<?x?xbf16> (None for a runtime size); strides, if given, make a
    strided<[...]> layout (None for a runtime stride)."""
    text = f"memref<{_shape(shape)}x{element}"
    if strides is not None:
        text += ", strided<[" + ", ".join(
            "?" if s is None else str(int(s)) for s in strides) + "]>"
    return Type(text + ">")


class TileType(Type):
    """A register tile: tensor<RxCxT, #hk.rt<layout, HxW>>."""

    def __init__(self, shape, element, layout, tile):
        self.shape, self.element = tuple(shape), element
        self.layout, self.tile = layout, tuple(tile)
        super().__init__(f"tensor<{_shape(shape)}x{element}, "
                         f"{self.encoding}>")

    @property
    def encoding(self):
        return f"#hk.rt<{self.layout}, {self.tile[0]}x{self.tile[1]}>"

    def with_element(self, element):
        """The same tile with another element type (for extf, truncf)."""
        return TileType(self.shape, element, self.layout, self.tile)


def rt(shape, element, layout="row", tile=(16, 16)):
    """A register tile type; layout "row" or "col", tile the base tile."""
    if layout not in ("row", "col"):
        raise ValueError(f"register tile layout '{layout}': row or col")
    return TileType(shape, element, layout, tile)


def rv(tile, axis, element=None):
    """The register vector of a tile's rows (axis "row": one value per row)
    or columns: tensor<Nxf32, #hk.rv<axis, #hk.rt<...>>>."""
    if axis not in ("row", "col"):
        raise ValueError(f"register vector axis '{axis}': row or col")
    n = tile.shape[0] if axis == "row" else tile.shape[1]
    element = element or tile.element
    return Type(f"tensor<{n}x{element}, #hk.rv<{axis}, {tile.encoding}>>")


def st(shape, element, tile):
    """A shared (LDS) tile: !hk.st<RxCxT, HxW>."""
    return Type(f"!hk.st<{_shape(shape)}x{element}, {tile[0]}x{tile[1]}>")


def dim(arg, d):
    """Grid symbol: size d of memref argument arg."""
    return f"dim({int(arg)}, {int(d)})"


def arg(a):
    """Grid symbol: integer scalar argument a."""
    return f"arg({int(a)})"


def grid(symbols, *results):
    """#hk.grid<[symbols] -> (results)>: results are affine expressions over
    s0, s1... (one to three: x, y, z)."""
    if not 1 <= len(results) <= 3:
        raise ValueError("a grid has one to three results")
    return (f"#hk.grid<[{', '.join(symbols)}] -> "
            f"({', '.join(results)})>")


class Value:
    """An SSA value and its type."""

    def __init__(self, name, type):
        self.name, self.type = name, type

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"Value({self.name}: {self.type})"


def _types(values):
    return ", ".join(str(v.type) for v in values)


def _names(values):
    return ", ".join(v.name for v in values)


class _Region:
    """A region being built: its op's closing text and terminator."""

    def __init__(self, builder, terminator, results):
        self.builder = builder
        self.terminator = terminator
        self.results = results
        self.block_args = ()
        self.terminated = False

    def __enter__(self):
        self.builder._regions.append(self)
        self.builder._indent += 1
        if len(self.block_args) == 1:
            return self.block_args[0]
        return self.block_args

    def __exit__(self, kind, value, traceback):
        b = self.builder
        b._regions.pop()
        b._indent -= 1
        if kind is None and not self.terminated:
            if self.terminator == "scf.yield" and not self.results:
                pass  # scf.for without results: yield implied
            else:
                raise ValueError(f"region not ended with {self.terminator}")
        b._line("}")
        return False


class _ElseRegion(_Region):
    """An scf.if's else region: entered right after its then region, whose
    closing brace it turns into "} else {"."""

    def __init__(self, builder, results, then_region):
        super().__init__(builder, "scf.yield", results)
        self.then_region = then_region

    def __enter__(self):
        b = self.builder
        closing = "  " * b._indent + "}"
        if not (self.then_region.closed and b._lines and
                b._lines[-1] == closing):
            raise ValueError("an else region must follow its then region")
        b._lines[-1] = closing + " else {"
        return super().__enter__()


class _ThenRegion(_Region):
    def __init__(self, builder, results):
        super().__init__(builder, "scf.yield", results)
        self.closed = False

    def __exit__(self, kind, value, traceback):
        result = super().__exit__(kind, value, traceback)
        self.closed = True
        return result


class _If:
    """scf.if: ``with`` its ``then_`` region, then (when it has results,
    required) its ``else_`` region; ``.results`` are the op's results."""

    def __init__(self, builder, results):
        self.results = results
        self.then_ = _ThenRegion(builder, results)
        self.else_ = _ElseRegion(builder, results, self.then_)


class Builder:
    """Appends ops to a kernel body; each method returns the op's results."""

    def __init__(self, module):
        self._module = module
        self._lines = []
        self._indent = 1
        self._regions = []

    # -- plumbing ----------------------------------------------------------
    def _line(self, text):
        self._lines.append("  " * self._indent + text)

    def _fresh(self, hint):
        return self._module._fresh(hint)

    def _result(self, text, type, name):
        v = Value(self._fresh(name or "v"), type)
        self._line(f"{v.name} = {text}")
        return v

    def _results(self, text, types, name):
        if not types:
            self._line(text)
            return []
        if len(types) == 1:
            return [self._result(text, types[0], name)]
        base = self._fresh(name or "r")
        self._line(f"{base}:{len(types)} = {text}")
        return [Value(f"{base}#{i}", t) for i, t in enumerate(types)]

    def op(self, name, operands=(), result_types=(), attributes=None,
           result_name=None):
        """Any op, in MLIR's generic form: "name"(operands) {attrs} :
        (operand types) -> (result types)."""
        attrs = ""
        if attributes:
            attrs = " {" + ", ".join(f"{k} = {v}"
                                     for k, v in attributes.items()) + "}"
        text = (f'"{name}"({_names(operands)}){attrs} : ({_types(operands)})'
                f" -> ({', '.join(str(t) for t in result_types)})")
        results = self._results(text, list(result_types), result_name)
        return results[0] if len(results) == 1 else results

    # -- constants and scalars ---------------------------------------------
    def constant(self, value, type, name=None):
        """arith.constant: an integer or index, a float (printed exactly,
        as hex for non-finite values), or a splat tensor (dense<value>)."""
        if isinstance(type, TileType) or str(type).startswith("tensor<"):
            lit = self._float_text(value, type)
            return self._result(f"arith.constant dense<{lit}> : {type}", type,
                                name)
        if str(type) in ("f16", "bf16", "f32", "f64"):
            return self._result(
                f"arith.constant {self._float_text(value, type)} : {type}",
                type, name)
        if name is None:
            name = f"c{int(value)}" if int(value) >= 0 else f"cm{-int(value)}"
        return self._result(f"arith.constant {int(value)} : {type}", type,
                            name)

    @staticmethod
    def _float_text(value, type):
        import math
        import struct
        text = str(type)
        if text.startswith("tensor<"):
            element = text[len("tensor<"):].split(",")[0].split("x")[-1]
        else:
            element = text
        value = float(value)
        if math.isfinite(value):
            return repr(value)
        if element == "f32":
            return "0x%08X" % struct.unpack("<I", struct.pack("<f", value))[0]
        if element == "f64":
            return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
        raise ValueError(f"non-finite {element} constants are not supported")

    def _binary(self, op, a, b, name):
        return self._result(f"{op} {a}, {b} : {a.type}", a.type, name)

    def __getattr__(self, attr):
        # Elementwise binary ops: addi, subi, muli, divui, remui, ceildivui,
        # addf, subf, mulf, divf, maximumf, minimumf, ...
        if attr.startswith("_"):
            raise AttributeError(attr)
        if attr in _BINARY:
            return lambda a, b, name=None: self._binary(f"arith.{attr}", a, b,
                                                        name)
        if attr in _UNARY_MATH:
            return lambda a, name=None: self._result(
                f"math.{attr} {a} : {a.type}", a.type, name)
        raise AttributeError(f"Builder has no op '{attr}'")

    def extf(self, a, type, name=None):
        return self._result(f"arith.extf {a} : {a.type} to {type}", type, name)

    def truncf(self, a, type, name=None):
        return self._result(f"arith.truncf {a} : {a.type} to {type}", type,
                            name)

    def cmpf(self, predicate, a, b, type=i1, name=None):
        """arith.cmpf: `type` is the result, i1 for scalars or the operands'
        tile or vector type with i1 elements."""
        return self._result(f"arith.cmpf {predicate}, {a}, {b} : {a.type}",
                            type, name)

    def cmpi(self, predicate, a, b, type=i1, name=None):
        """arith.cmpi, the result type as for cmpf."""
        return self._result(f"arith.cmpi {predicate}, {a}, {b} : {a.type}",
                            type, name)

    def select(self, condition, a, b, name=None):
        """arith.select of a or b: an i1 condition, or an i1 tile or vector
        of the operands' shape."""
        cond_type = "" if condition.type == i1 else f"{condition.type}, "
        return self._result(
            f"arith.select {condition}, {a}, {b} : {cond_type}{a.type}",
            a.type, name)

    def any(self, mask, expect=None, name=None):
        """hk.any: whether any element of an i1 tile or vector is true, the
        same i1 in every lane; `expect` (True or False) is the usual result."""
        e = "" if expect is None else f" expect {'true' if expect else 'false'}"
        return self._result(f"hk.any {mask}{e} : {mask.type}", i1, name)

    def splat(self, scalar, type, name=None):
        return self._result(f"tensor.splat {scalar} : {type}", type, name)

    def memref_dim(self, source, d, name=None):
        return self._result(f"memref.dim {source}, {d} : {source.type}",
                            index, name)

    # -- hk ids and remaps ---------------------------------------------------
    def block_id(self, d, name=None):
        return self._result(f"hk.block_id {d}", index, name)

    def num_blocks(self, d, name=None):
        return self._result(f"hk.num_blocks {d}", index, name)

    def wave_id(self, name=None):
        return self._result("hk.wave_id", index, name)

    def xcd_remap(self, id, count, xcds, chunk, name=None):
        return self._result(
            f"hk.xcd_remap {id}, {count} xcds = {xcds}, chunk = {chunk}",
            index, name)

    def group_remap(self, id, rows, cols, group, name=None):
        a, b = self._fresh(name or "r"), self._fresh(name or "r")
        self._line(f"{a}, {b} = hk.group_remap {id}, {rows}, {cols} "
                   f"group = {group}")
        return Value(a, index), Value(b, index)

    # -- memory ----------------------------------------------------------------
    def alloc_shared(self, type, name=None):
        return self._result(f"hk.alloc_shared : {type}", type, name)

    def subtile(self, source, row, col, type, name=None):
        return self._result(
            f"hk.subtile {source}[{row}, {col}] : {source.type} -> {type}",
            type, name)

    def load(self, source, indices, type, name=None):
        """hk.load from a memref at tile indices, or from a shared tile."""
        at = f"[{_names(indices)}]" if indices else ""
        return self._result(f"hk.load {source}{at} : {source.type} -> {type}",
                            type, name)

    def store(self, value, dest, indices=None):
        at = f"[{_names(indices)}]" if indices else ""
        self._line(f"hk.store {value}, {dest}{at} : {value.type}, "
                   f"{dest.type}")

    def load_async(self, source, indices, dest, waves=None, name=None):
        w = f" waves = {waves}" if waves is not None else ""
        return self._result(
            f"hk.load_async {source}[{_names(indices)}], {dest}{w} : "
            f"{source.type}, {dest.type}", token, name)

    def wait(self, *tokens):
        self._line(f"hk.wait {_names(tokens)}")

    def barrier(self):
        self._line("hk.barrier")

    # -- tile math ---------------------------------------------------------
    def mma(self, kind, a, b, c, name=None):
        """hk.mma ab|abt|atb|atbt: c + a * b with the transposes named."""
        return self._result(
            f"hk.mma {kind} {a}, {b}, {c} : {a.type}, {b.type}, {c.type}",
            c.type, name)

    def row_reduce(self, kind, source, init=None, type=None, name=None):
        type = type or init.type
        i = f" init {init}" if init is not None else ""
        return self._result(
            f"hk.row_reduce {kind} {source}{i} : {source.type} -> {type}",
            type, name)

    def col_reduce(self, kind, source, init=None, type=None, name=None):
        type = type or init.type
        i = f" init {init}" if init is not None else ""
        return self._result(
            f"hk.col_reduce {kind} {source}{i} : {source.type} -> {type}",
            type, name)

    def row_broadcast(self, kind, source, vector, name=None):
        return self._result(
            f"hk.row_broadcast {kind} {source}, {vector} : {source.type}, "
            f"{vector.type}", source.type, name)

    def col_broadcast(self, kind, source, vector, name=None):
        return self._result(
            f"hk.col_broadcast {kind} {source}, {vector} : {source.type}, "
            f"{vector.type}", source.type, name)

    def bounds_mask(self, source, at, within, fill, name=None):
        return self._result(
            f"hk.bounds_mask {source} at [{_names(at)}] within "
            f"[{_names(within)}] fill {fill} : {source.type}", source.type,
            name)

    # -- positions, scans and arg reductions ---------------------------------
    def iota(self, type, axis=None, name=None):
        """hk.iota: each element's row (axis "row") or column ("col") index
        in a register tile of i32 or f32, or its index in a register vector
        (no axis)."""
        a = f" {axis}" if axis is not None else ""
        return self._result(f"hk.iota{a} : {type}", type, name)

    def row_scan(self, kind, mode, source, init=None, name=None):
        """hk.row_scan sum|max|min inclusive|exclusive along each row,
        combined with the row vector `init` if given."""
        return self._scan("row_scan", kind, mode, source, init, name)

    def col_scan(self, kind, mode, source, init=None, name=None):
        """hk.col_scan: hk.row_scan down each column (`init` a col vector)."""
        return self._scan("col_scan", kind, mode, source, init, name)

    def _scan(self, op, kind, mode, source, init, name):
        i = f" init {init} : {init.type}" if init is not None else ""
        return self._result(
            f"hk.{op} {kind} {mode} {source}{i} : {source.type}",
            source.type, name)

    def row_arg(self, kind, source, name=None):
        """hk.row_arg max|min: (value, index) of each row's largest or
        smallest element, as a row vector and an i32 row vector."""
        return self._arg("row", kind, source, name)

    def col_arg(self, kind, source, name=None):
        """hk.col_arg max|min: (value, index) per column, as col vectors."""
        return self._arg("col", kind, source, name)

    def _arg(self, axis, kind, source, name):
        value, index = rv(source.type, axis), rv(source.type, axis, "i32")
        return self._results(
            f"hk.{axis}_arg {kind} {source} : {source.type} -> {value}, "
            f"{index}", [value, index], name)

    # -- regions -------------------------------------------------------------
    def for_(self, lower, upper, step, iter_args=(), name=None):
        """scf.for; `with` it to build the body, which receives the
        induction variable and the iteration arguments; ``.results`` after."""
        iv = Value(self._fresh("i"), index)
        args = [Value(self._fresh("a"), v.type) for v in iter_args]
        head = f"scf.for {iv} = {lower} to {upper} step {step}"
        if iter_args:
            head += " iter_args(" + ", ".join(
                f"{a} = {v}" for a, v in zip(args, iter_args)) + ")"
            head += f" -> ({_types(iter_args)})"
        results = self._results(head + " {", [v.type for v in iter_args],
                                name)
        region = _Region(self, "scf.yield", results)
        region.block_args = (iv, *args)
        return region

    def if_(self, condition, result_types=(), name=None):
        """scf.if on an i1: ``with`` its ``.then_`` and then its ``.else_``
        region, each ended with ``yield_`` when the op has results."""
        arrow = (" -> (" + ", ".join(str(t) for t in result_types) + ")"
                 if result_types else "")
        results = self._results(f"scf.if {condition}{arrow} {{",
                                list(result_types), name)
        return _If(self, results)

    def _schedule_region(self, text, result_types, name):
        arrow = (" -> " + ", ".join(str(t) for t in result_types)
                 if result_types else "")
        results = self._results(text + arrow + " {", list(result_types), name)
        return _Region(self, "hk.yield", results)

    def ping_pong(self, result_types=(), name=None):
        return self._schedule_region("hk.ping_pong", result_types, name)

    def interleave(self, result_types=(), name=None):
        return self._schedule_region("hk.interleave", result_types, name)

    def cluster(self, kind, result_types=(), name=None):
        """hk.cluster memory|compute inside a ping_pong or interleave."""
        return self._schedule_region(f"hk.cluster {kind}", result_types, name)

    def yield_(self, *values):
        """Ends the innermost region with its terminator."""
        region = self._regions[-1]
        typed = f" {_names(values)} : {_types(values)}" if values else ""
        self._line(f"{region.terminator}{typed}")
        region.terminated = True

    def ret(self):
        self._line("hk.return")


_BINARY = {
    "addi", "subi", "muli", "divui", "divsi", "remui", "remsi", "ceildivui",
    "floordivsi", "minui", "maxui", "andi", "ori", "xori", "addf", "subf",
    "mulf", "divf", "maximumf", "minimumf",
}
_NUMBERED = {"v", "r", "i", "a"}
_UNARY_MATH = {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "absf", "tanh",
               "sin", "cos"}


class Kernel:
    """An hk.kernel being built: ``args`` are its argument Values,
    ``builder`` appends to its body."""

    def __init__(self, module, name, args, waves, grid,
                 min_waves_per_simd=None):
        self.name = name
        self.args = [Value(f"%{n}", t) for n, t in args]
        self.waves = waves
        self.grid = grid
        self.min_waves_per_simd = min_waves_per_simd
        self.builder = Builder(module)

    def text(self):
        sig = ", ".join(f"{a.name}: {a.type}" for a in self.args)
        occupancy = ("" if self.min_waves_per_simd is None else
                     f"min_waves_per_simd = {int(self.min_waves_per_simd)}"
                     " : i32, ")
        lines = [f"hk.kernel @{self.name}({sig}) attributes {{"
                 f"waves = {int(self.waves)} : i32, {occupancy}"
                 f"grid = {self.grid}}} {{"]
        lines += self.builder._lines
        lines.append("}")
        return "\n".join(lines) + "\n"


class Module:
    """Kernels built with the builder; ``str()`` is the IR text."""

    def __init__(self):
        self.kernels = []
        self._used = set()

    def _fresh(self, hint):
        """A new SSA name: %hint if free, else %hint_1, %hint_2...; the
        builder's own hints (v, r, i, a) are always numbered: %v0, %v1..."""
        if hint not in _NUMBERED and f"%{hint}" not in self._used:
            name = f"%{hint}"
        else:
            sep = "" if hint in _NUMBERED else "_"
            n = 0 if hint in _NUMBERED else 1
            while f"%{hint}{sep}{n}" in self._used:
                n += 1
            name = f"%{hint}{sep}{n}"
        self._used.add(name)
        return name

    def kernel(self, name, args, waves=1, grid=None,
               min_waves_per_simd=None):
        """A new hk.kernel @name(args) with `waves` waves and `grid`
        (from ir.grid); `min_waves_per_simd`, if given, asks the code
        generator for at least that occupancy (hk.kernel's attribute)."""
        if grid is None:
            raise ValueError("a kernel needs a grid (ir.grid)")
        for n, _ in args:
            self._used.add(f"%{n}")
        k = Kernel(self, name, args, waves, grid, min_waves_per_simd)
        self.kernels.append(k)
        return k

    def __str__(self):
        return "\n".join(k.text() for k in self.kernels)

    def verify(self, name="<builder>"):
        """Parses and verifies the text with libhkc; raises
        hk.CompileError with located messages if it is not valid."""
        _compiler.verify(str(self), name=name)
        return self

    def compile(self, **options):
        """hk.compile of the text (same options)."""
        return _compiler.compile(source=str(self), **options)
