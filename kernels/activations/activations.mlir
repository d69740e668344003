// Activations of a runtime M x N matrix, each written to its own f32 output:
//   gelu_erf[i, j]  = 0.5 x (1 + erf(x / sqrt(2)))
//   gelu_tanh[i, j] = 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
//   silu[i, j]      = x / (1 + exp(-x))
//   leaky[i, j]     = x if x > 0, else 0.01 x
// with x = x[i, j].
//
// Arguments:
//   %x         : memref<?x?xbf16>  [M, N]
//   %gelu_erf  : memref<?x?xf32>   [M, N]
//   %gelu_tanh : memref<?x?xf32>   [M, N]
//   %silu      : memref<?x?xf32>   [M, N]
//   %leaky     : memref<?x?xf32>   [M, N]
// Math in f32: math.erf, math.tanh and math.exp (all three on v_exp_f32),
// and a compare and select on tiles (arith.cmpf gives an i1 tile, the mask
// arith.select takes) for the leaky ReLU.
//
// Grid: ceildiv(M, 128) x ceildiv(N, 64) workgroups of 4 waves; wave w of
// workgroup (bx, by) handles rows [128 bx + 32 w, +32) and columns
// [64 by, +64) as one 32x64 tile in the 16x32 row layout. Parts of a ragged
// tile past M or N read zeros and their stores are dropped. HipKittens has
// no erf, tanh or tile compare among its base ops: hk-translate refuses
// this kernel, naming math.erf.
!t_bf = tensor<32x64xbf16, #hk.rt<row, 16x32>>
!t_f = tensor<32x64xf32, #hk.rt<row, 16x32>>
!mask = tensor<32x64xi1, #hk.rt<row, 16x32>>

hk.kernel @activations(%x: memref<?x?xbf16>, %gelu_erf: memref<?x?xf32>,
                       %gelu_tanh: memref<?x?xf32>, %silu: memref<?x?xf32>,
                       %leaky: memref<?x?xf32>)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(0, 0), dim(0, 1)] -> (s0 ceildiv 128, s1 ceildiv 64)>} {
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : !t_f
  %half = arith.constant dense<0.5> : !t_f
  %one = arith.constant dense<1.0> : !t_f
  %inv_sqrt2 = arith.constant dense<0.70710678118654752> : !t_f
  %sqrt_2_over_pi = arith.constant dense<0.79788456080286536> : !t_f
  %cubic = arith.constant dense<0.044715> : !t_f
  %slope = arith.constant dense<0.01> : !t_f
  %bx = hk.block_id x
  %by = hk.block_id y
  %w = hk.wave_id
  %bx4 = arith.muli %bx, %c4 : index
  %row = arith.addi %bx4, %w : index

  %xb = hk.load %x[%row, %by] : memref<?x?xbf16> -> !t_bf
  %xf = arith.extf %xb : !t_bf to !t_f
  %half_x = arith.mulf %xf, %half : !t_f

  // GELU, erf form.
  %xs = arith.mulf %xf, %inv_sqrt2 : !t_f
  %erf = math.erf %xs : !t_f
  %erf1 = arith.addf %erf, %one : !t_f
  %ge = arith.mulf %half_x, %erf1 : !t_f
  hk.store %ge, %gelu_erf[%row, %by] : !t_f, memref<?x?xf32>

  // GELU, tanh form.
  %x2 = arith.mulf %xf, %xf : !t_f
  %x3 = arith.mulf %x2, %xf : !t_f
  %cx3 = arith.mulf %x3, %cubic : !t_f
  %inner = arith.addf %xf, %cx3 : !t_f
  %u = arith.mulf %inner, %sqrt_2_over_pi : !t_f
  %tanh = math.tanh %u : !t_f
  %tanh1 = arith.addf %tanh, %one : !t_f
  %gt = arith.mulf %half_x, %tanh1 : !t_f
  hk.store %gt, %gelu_tanh[%row, %by] : !t_f, memref<?x?xf32>

  // SiLU.
  %neg = arith.negf %xf : !t_f
  %e = math.exp %neg : !t_f
  %den = arith.addf %e, %one : !t_f
  %s = arith.divf %xf, %den : !t_f
  hk.store %s, %silu[%row, %by] : !t_f, memref<?x?xf32>

  // Leaky ReLU: compare and select on tiles.
  %positive = arith.cmpf ogt, %xf, %zero : !t_f
  %scaled = arith.mulf %xf, %slope : !t_f
  %l = arith.select %positive, %xf, %scaled : !mask, !t_f
  hk.store %l, %leaky[%row, %by] : !t_f, memref<?x?xf32>
  hk.return
}
