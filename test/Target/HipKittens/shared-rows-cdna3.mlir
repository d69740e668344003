// RUN: hk-translate --hk-to-hipkittens --chip gfx942 %s | FileCheck %s --check-prefix=CDNA3
// RUN: hk-translate --hk-to-hipkittens --chip gfx950 %s | FileCheck %s --check-prefix=CDNA4

// Row-layout reads of 16-bit register tiles from shared tiles on cdna3.
// HipKittens cdna3's load steps 16 rows by underlying_cols elements, while
// its shared tiles keep columns in blocks of the swizzle's width (64 bf16
// columns at most): reads from an allocation 16, 32 or 64 columns wide
// keep HipKittens' load, wider ones (here 128, directly and through a
// subtile) go through the file's shared_load_rows, which addresses every
// base tile with the tile's own idx(). The col-layout read keeps
// HipKittens' load (it addresses each element through idx()). On main the
// row-layout reads keep HipKittens' load and the col-layout one goes
// through the file's shared_load_cols, one transposing read per asm
// statement (HipKittens pairs two in one statement whose outputs may take
// the address register the second read needs).
// test/Target/HipKittens/isa-translated-attention.test runs both.

// CDNA3: __device__ inline void shared_load_rows(RT &dst, const ST &src) {
// CDNA3: const uint32_t addr = src.idx(
// CDNA3-NEXT: src_ptr, {i * RT::tile_size_row + lane % 16,
// CDNA3-NEXT: j * RT::tile_size_col + 4 * (lane / 16)});
// CDNA3-NEXT: asm volatile("ds_read_b64 %0, %1\n"
// CDNA3-LABEL: void rows(
// CDNA3: shared_load_rows(w, wide);
// CDNA3: shared_load_rows(h, part);
// CDNA3: load(c, wide);
// CDNA3: load(n, narrow);

// CDNA4-NOT: shared_load_rows
// CDNA4: __device__ inline void shared_load_cols(RT &dst, const ST &src) {
// CDNA4: asm volatile("ds_read_b64_tr_b16 %0, %1 offset:%2\n"
// CDNA4-NEXT: : "=v"(*reinterpret_cast<float2 *>(&dst.tiles[i][j].data[0]))
// CDNA4: asm volatile("ds_read_b64_tr_b16 %0, %1 offset:%2\n"
// CDNA4-NEXT: : "=v"(*reinterpret_cast<float2 *>(&dst.tiles[i][j].data[2]))
// CDNA4-NEXT: : "v"(addr), "i"(offset + 4 * rowBytes)
// CDNA4-LABEL: void rows(
// CDNA4: load(w, wide);
// CDNA4: load(h, part);
// CDNA4: shared_load_cols(c, wide);
// CDNA4: load(n, narrow);
// CDNA4-NOT: shared_load_rows

!wide = !hk.st<32x128xbf16, 16x32>
!sub = !hk.st<16x128xbf16, 16x32>
!narrow = !hk.st<32x64xbf16, 16x32>
!rw = tensor<32x128xbf16, #hk.rt<row, 16x32>>
!rh = tensor<16x128xbf16, #hk.rt<row, 16x32>>
!cw = tensor<32x128xbf16, #hk.rt<col, 16x16>>
!rn = tensor<32x64xbf16, #hk.rt<row, 16x32>>
hk.kernel @rows(%X: memref<?x128xbf16>, %Y: memref<?x64xbf16>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %wide = hk.alloc_shared : !wide
  %narrow = hk.alloc_shared : !narrow
  %w = hk.load %wide : !wide -> !rw
  %part = hk.subtile %wide[%c1, %c0] : !wide -> !sub
  %h = hk.load %part : !sub -> !rh
  %c = hk.load %wide : !wide -> !cw
  %n = hk.load %narrow : !narrow -> !rn
  hk.store %w, %X[%c0, %c0] : !rw, memref<?x128xbf16>
  hk.store %h, %X[%c1, %c0] : !rh, memref<?x128xbf16>
  hk.store %c, %X[%c1, %c0] : !cw, memref<?x128xbf16>
  hk.store %n, %Y[%c0, %c0] : !rn, memref<?x64xbf16>
  hk.return
}
