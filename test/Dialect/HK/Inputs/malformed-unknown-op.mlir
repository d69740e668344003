hk.kernel @k() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.frobnicate
  hk.return
}
