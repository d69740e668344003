// A template for test/Compiler/template.test: a scaled copy of R x 64 f32
// tiles by W waves, one tile per wave; the parameters size the tile type,
// the grid and the wave count, and pick the operation.
// hk.template: !t = tensor<${R}x64xf32, #hk.rt<row, 16x16>>
!t = tensor<32x64xf32, #hk.rt<row, 16x16>>

module attributes {hk.params = {
    R = {values = [16, 32, 64], default = 32, doc = "rows per wave"},
    W = {min = 1, max = 8, default = 4, doc = "waves per workgroup"},
    OP = {values = ["mulf", "addf"], default = "mulf"}},
  hk.constraints = ["R * W <= 256", "OP == \"mulf\" || W <= 4"]} {

hk.kernel @scale(%x: memref<?x?xf32>, %y: memref<?x?xf32>) attributes {
    // hk.template: waves = ${W} : i32,
    waves = 4 : i32,
    // hk.template: grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv ${R * W})>} {
    grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  // hk.template: %cw = arith.constant ${W} : index
  %cw = arith.constant 4 : index
  %two = arith.constant dense<3.0> : !t
  %b = hk.block_id x
  %w = hk.wave_id
  %bw = arith.muli %b, %cw : index
  %row = arith.addi %bw, %w : index
  %v = hk.load %x[%row, %c0] : memref<?x?xf32> -> !t
  // hk.template: %s = arith.${OP} %v, %two : !t
  %s = arith.mulf %v, %two : !t
  hk.store %s, %y[%row, %c0] : !t, memref<?x?xf32>
  hk.return
}

}
