hk.kernel @k() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %s = hk.alloc_shared : !hk.st<256x384xf32, 16x16>
  hk.return
}
