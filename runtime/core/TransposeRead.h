//===- TransposeRead.h - ds_read_b64_tr_b16's lane exchange (internal) ----===//
//
// gfx950's ds_read_b64_tr_b16: every lane reads 8 bytes (four 16-bit
// elements) of LDS at its own address, and the lanes of each group of 16
// (lanes 16g .. 16g + 15) exchange them: with the group's 16 reads seen as a
// 4 x 16 matrix whose row r is the reads of lanes 4r .. 4r + 3 (lane 4r + q
// holding columns 4q .. 4q + 3), lane i of the group receives column i,
// rows 0 .. 3:
//   result element k of lane i = element i % 4 of the read of lane 4k + i / 4.
// That is the mapping HipKittens relies on: its col-layout load
// (include/ops/warp/memory/tile/shared_to_register.cuh) gives lane l the
// address of row (l % 16) / 4 + 4 * (l / 16), columns 4 * (l % 4) ..  + 3 of
// a 16 x 16 block, and expects the MFMA B-operand layout, lane l holding
// column l % 16, rows 4 * (l / 16) .. + 3 (unittests/Runtime/
// TransposeReadTest.cpp checks the one against the other). The ISA
// simulator executes the instruction with it.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_CORE_TRANSPOSEREAD_H
#define HK_RUNTIME_CORE_TRANSPOSEREAD_H

namespace hk::rt {

/// The lane whose read provides result element `k` (0..3) of `lane`.
constexpr unsigned trB16SourceLane(unsigned lane, unsigned k) {
  return (lane & ~15u) + 4 * k + (lane % 16) / 4;
}

/// Which of that lane's four read elements it is.
constexpr unsigned trB16SourceElement(unsigned lane) { return lane % 4; }

} // namespace hk::rt

#endif // HK_RUNTIME_CORE_TRANSPOSEREAD_H
