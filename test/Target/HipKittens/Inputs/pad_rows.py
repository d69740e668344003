"""pad_rows.py IN.npy OUT.npy ROWS: OUT is IN with ROWS zero rows appended
along axis 2 (a (1, 1, R, C) array becomes (1, 1, R + ROWS, C))."""
import sys

import numpy as np

x = np.load(sys.argv[1])
extra = int(sys.argv[3])
y = np.zeros(x.shape[:2] + (x.shape[2] + extra,) + x.shape[3:], x.dtype)
y[:, :, : x.shape[2]] = x
np.save(sys.argv[2], y)
