hk.kernel @k() attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  %b = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  %c = hk.alloc_shared : !hk.st<256x128xbf16, 16x32>
  hk.return
}
