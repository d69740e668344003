"""A docstring: hk.compile(path, chips=["gfx942", "gfx950"])."""
LDS = 65536  # flagged
x = 64  # not flagged
