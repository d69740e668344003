// hk.wait in the ISA: with one wave, a 64x64 bf16 copy is 8 LDS DMA
// instructions on gfx950 (buffer_load_dwordx4 ... lds) and 32 on gfx942
// (buffer_load_dword ... lds). Waiting for the first of two copies lets the
// second's instructions stay in flight: vmcnt(8) / vmcnt(32), with
// lgkmcnt(0) for the copies that cross the right edge through registers.
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=GFX950
// RUN: hkc %s --chip gfx942 --emit=asm -o - | FileCheck %s --check-prefix=GFX942

// GFX950-LABEL: two_copies:
// GFX950: buffer_load_dwordx4 {{.*}} lds
// GFX950: s_waitcnt vmcnt(8) lgkmcnt(0)
// The backend then waits for every LDS DMA before the first LDS read (it
// cannot tell which shared tile a DMA writes):
// GFX950: s_waitcnt vmcnt(0)
// GFX950-NEXT: ds_read_b128
// hk.store of the first tile issues 8 stores of 16 bytes per lane after
// the second copy: they stay in flight when waiting for it.
// GFX950-COUNT-8: buffer_store_dwordx4
// GFX950: s_waitcnt vmcnt(8) lgkmcnt(0)
// GFX950-NEXT: ds_read_b128
// GFX942-LABEL: two_copies:
// GFX942: buffer_load_dword {{.*}} lds
// GFX942: s_waitcnt vmcnt(32) lgkmcnt(0)
// GFX942: s_waitcnt vmcnt(0)
// GFX942-NEXT: ds_read_b128
// GFX942-COUNT-8: buffer_store_dwordx4
// GFX942: s_waitcnt vmcnt(8) lgkmcnt(0)
// GFX942-NEXT: ds_read_b128
!st = !hk.st<64x64xbf16, 16x32>
!rt = tensor<64x64xbf16, #hk.rt<row, 16x32>>
hk.kernel @two_copies(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>) attributes {
    waves = 1 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = hk.alloc_shared : !st
  %s1 = hk.alloc_shared : !st
  %t0 = hk.load_async %A[%c0, %c0], %s0 : memref<?x?xbf16>, !st
  %t1 = hk.load_async %A[%c1, %c0], %s1 : memref<?x?xbf16>, !st
  hk.wait %t0
  hk.store %s0, %C[%c0, %c0] : !st, memref<?x?xbf16>
  hk.wait %t1
  %y = hk.load %s1 : !st -> !rt
  hk.store %y, %C[%c1, %c0] : !rt, memref<?x?xbf16>
  hk.return
}
