"""The launch grid of a kernel, from its metadata (docs/runtime.md, Kernel
metadata): symbols bound to memref sizes (dim(a, d)) or integer scalars
(arg(a)), and 1 to 3 affine expressions over them with + - * floordiv
ceildiv mod, unary minus and parentheses, with affine precedence (* and the
divisions bind tighter than + and -, all left-associative), floordiv
rounding down, ceildiv up, mod in [0, |b|). As in the runtime, every value
must stay within 64 bits, a division by zero or an unbound symbol is an
error, and each result must lie in [0, 2^31).
"""

import re

_TOKEN = re.compile(r"\s*(?:(\d+)|s(\d+)|(floordiv|ceildiv|mod)|([-+*()]))")
_MIN, _MAX = -(1 << 63), (1 << 63) - 1


class GridError(ValueError):
    pass


def _tokens(text):
    pos, out = 0, []
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise GridError(f"grid expression '{text}': cannot read "
                            f"'{text[pos:].strip()}'")
        pos = m.end()
        if m.group(1):
            out.append(("int", int(m.group(1))))
        elif m.group(2):
            out.append(("sym", int(m.group(2))))
        else:
            out.append(("op", m.group(3) or m.group(4)))
    return out


def _checked(v, text):
    if not _MIN <= v <= _MAX:
        raise GridError(f"grid expression '{text}' overflows 64 bits")
    return v


def evaluate(text, symbols):
    """The value of grid expression `text` with s<i> = symbols[i]."""
    toks = _tokens(text)
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else (None, None)

    def take():
        nonlocal pos
        pos += 1
        return toks[pos - 1]

    def primary():
        kind, v = take() if pos < len(toks) else (None, None)
        if kind == "int":
            return _checked(v, text)
        if kind == "sym":
            if v >= len(symbols):
                raise GridError(f"grid expression '{text}': s{v} is unbound")
            return symbols[v]
        if (kind, v) == ("op", "-"):
            return _checked(-primary(), text)
        if (kind, v) == ("op", "("):
            value = additive()
            if take() != ("op", ")"):
                raise GridError(f"grid expression '{text}': missing ')'")
            return value
        raise GridError(f"grid expression '{text}': unexpected end or "
                        f"'{v}'")

    def term():
        value = primary()
        while peek()[0] == "op" and peek()[1] in ("*", "floordiv", "ceildiv",
                                                  "mod"):
            op = take()[1]
            rhs = primary()
            if op == "*":
                value = value * rhs
            elif rhs == 0:
                raise GridError(f"grid expression '{text}': division by zero")
            elif op == "floordiv":
                value = value // rhs
            elif op == "ceildiv":
                value = -((-value) // rhs)
            else:
                value = value % abs(rhs)
            value = _checked(value, text)
        return value

    def additive():
        value = term()
        while peek() in (("op", "+"), ("op", "-")):
            op = take()[1]
            rhs = term()
            value = _checked(value + rhs if op == "+" else value - rhs, text)
        return value

    value = additive()
    if pos != len(toks):
        raise GridError(f"grid expression '{text}': unexpected "
                        f"'{toks[pos][1]}'")
    return value


def grid(info, sizes, scalars):
    """(x, y, z) of kernel metadata `info` for memref sizes (a dict:
    argument -> shape) and integer scalars (argument -> value)."""
    symbols = []
    for s in info["grid"]["symbols"]:
        if "dim" in s:
            symbols.append(int(sizes[s["arg"]][s["dim"]]))
        else:
            symbols.append(int(scalars[s["arg"]]))
    result = []
    for text in info["grid"]["results"]:
        v = evaluate(text, symbols)
        if not 0 <= v < (1 << 31):
            raise GridError(f"grid expression '{text}' gives {v}, outside "
                            "[0, 2^31)")
        result.append(v)
    return tuple(result + [1] * (3 - len(result)))
