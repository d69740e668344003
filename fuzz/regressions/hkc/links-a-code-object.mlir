// Takes a memref of each element type .npy files carry and leaves them
// unchanged: test/Run/npy.test loads each from a .npy file and saves it back.
hk.kernel @types(%f16: memref<?xf16>, %f64: memref<?x?xf64>, %i8: memref<?xi8>,
                 %i16: memref<?xi16>, %i32: memref<?xi32>, %i64: memref<?xi64>,
                 %idx: memref<?xindex>, %fp8: memref<?xf8E4M3FN>,
                 %bf16: memref<?xbf16>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}
