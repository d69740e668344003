"""hk.fetch_add on the ISA simulator, from each chip's code object: every
wave of the grid makes one atomic add (not one per lane) and receives the
old value in every lane, each value once; the element at a nonzero index
of the counter ends at its start plus the adds, its neighbour untouched."""

import numpy as np

import hk

WORKGROUPS, WAVES = 4, 2

SOURCE = """
!t = tensor<16x16xi32, #hk.rt<col, 16x16>>
hk.kernel @tickets(%counter: memref<?xi32>, %out: memref<?x?xi32>,
                   %step: i32)
    attributes {waves = 2 : i32, grid = #hk.grid<[] -> (4)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %old = hk.fetch_add %step, %counter[%c1] : memref<?xi32>
  %wg = hk.block_id x
  %w = hk.wave_id
  %wg2 = arith.muli %wg, %c2 : index
  %tile = arith.addi %wg2, %w : index
  %t = tensor.splat %old : !t
  hk.store %t, %out[%tile, %c0] : !t, memref<?x?xi32>
  hk.return
}
"""


def test_one_add_per_wave(simulator):
    mod = hk.compile(source=SOURCE, name="tickets.mlir",
                     chips=[simulator.chip], cache=False)
    start, step = 7, 3
    counter = np.array([100, start, -5], np.int32)
    out = np.full((WORKGROUPS * WAVES * 16, 16), -1, np.int32)
    mod.tickets(counter, out, step)

    waves = WORKGROUPS * WAVES
    tiles = out.reshape(waves, 16, 16)
    # Every lane of a wave holds its wave's value.
    for tile in tiles:
        assert (tile == tile[0, 0]).all(), tile
    tickets = sorted(int(t[0, 0]) for t in tiles)
    assert tickets == [start + step * k for k in range(waves)]
    assert counter.tolist() == [100, start + step * waves, -5]
