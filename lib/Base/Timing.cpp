//===- Timing.cpp - the timing facts of each chip
//---------------------------===//
//
// Sources, cited by the short names below:
//  [CDNA3-WP]  AMD CDNA 3 architecture whitepaper (MI300/MI325X).
//  [CDNA4-WP]  AMD CDNA 4 architecture whitepaper (MI350/MI355X).
//  [CDNA3-ISA], [CDNA4-ISA]  AMD Instinct MI300 / CDNA4 ISA reference
//              guides: "MFMA opcodes" tables (cycles per MFMA), section 7.6
//              (dependency resolution), the LDS chapter.
//  [MATCALC]   AMD Matrix Instruction Calculator (ROCm), coexec_delay.
//  [MAF]       AMD ROCm blog "Measuring Max-Achievable FLOPs, Part 2"
//              (2025): MI325X BF16 GEMM at a median engine clock of 1447 MHz
//              with up to 94% software efficiency.
//  [SISched]   LLVM 22 llvm/lib/Target/AMDGPU/SISchedule.td: latencies in
//              units of one VALU issue (4 cycles): WriteLDS 5, WriteSMEM 5,
//              WriteVMEM 80, WriteBranch 8, WriteTrans32 4.
//  [LLVM-WPE]  LLVM AMDGPUBaseInfo: 8 waves per SIMD (EU) on gfx90a and
//              later; VGPR allocation granule 8 with AGPRs in one file of
//              512 per lane.
//  [SPEC]      AMD product specifications: MI325X 2100 MHz, 6.0 TB/s;
//              MI355X 2400 MHz, 8.0 TB/s.
// Estimates (no document gives them) are marked ESTIMATE.
//===----------------------------------------------------------------------===//

#include "hk/Base/Timing.h"

namespace hk {

static const ChipTiming kGfx942 = {
    "MI325X",
    304,    // CUs: 8 XCDs x 38 [CDNA3-WP]
    8,      // XCDs [CDNA3-WP]
    4,      // SIMDs per CU [CDNA3-WP]
    8,      // waves per SIMD [LLVM-WPE]
    512,    // VGPR+AGPR per lane [LLVM-WPE]
    8,      // granule [LLVM-WPE]
    65536,  // LDS per CU [CDNA3-ISA]
    32,     // banks of 4 bytes [CDNA4-WP, on CDNA 3]
    128,    // LDS read bytes per clock: 32 banks x 4 bytes [CDNA4-WP]
    128,    // LDS write bytes per clock [CDNA4-WP]
    2100.0, // boost clock [SPEC]
    1447.0, // clock under dense BF16 MFMA load [MAF]
    0.94,   // the efficiency of the kernels [MAF] measured
    4,      // a SIMD's issue turn comes every 4 cycles: wave64 on 16 lanes
            // [CDNA3-ISA, EXCP_CYCLE: lanes 0-15 in phase 0, 48-63 in 3]
    4,      // VALU [CDNA3-ISA, as above]
    16,     // transcendental: quarter rate [SISched WriteTrans32 4 units]
    4,      // [MATCALC coexec_delay]
    2,      // result of XDL to VALU/memory: 2 wait states beyond the
            // passes [CDNA3-ISA 7.6]
    20,     // LDS [SISched WriteLDS 5 units]
    20,     // SMEM [SISched WriteSMEM 5 units]
    320,    // VMEM [SISched WriteVMEM 80 units]
    32,     // taken branch [SISched WriteBranch 8 units]
    4,      // barrier release: one issue turn (ESTIMATE; SISched's 500 is
            // marked guessed there)
    2048,   // L2: 16 channels x 128 B per clock per XCD [CDNA3-WP]
    6.0e12, // HBM3E [SPEC]
    2.0,    // kernel launch (ESTIMATE)
};

static const ChipTiming kGfx950 = {
    "MI355X",
    256,    // CUs: 8 XCDs x 32 [CDNA4-WP]
    8,      // XCDs [CDNA4-WP]
    4,      // [CDNA4-WP]
    8,      // [LLVM-WPE]
    512,    // [LLVM-WPE]
    8,      // [LLVM-WPE]
    163840, // LDS per CU: 160 KB [CDNA4-WP]
    64,     // banks [CDNA4-ISA, LDS chapter: 64 banks of 640 dwords]
    256,    // read bytes per clock, doubled [CDNA4-WP]
    128,    // write bytes per clock: the whitepaper doubles reads only
    2400.0, // boost clock [SPEC]
    // No MAF figure is published for MI355X. ASSUMPTION: the same ratio of
    // loaded to boost clock as MI325X's [MAF]: 2400 x 1447 / 2100.
    1653.7,
    0.94, // [MAF]
    4,    // [CDNA4-ISA, as gfx942]
    4,
    16,     // [SISched]
    4,      // [MATCALC]
    2,      // [CDNA4-ISA 7.6]
    20,     // [SISched]
    20,     // [SISched]
    320,    // [SISched]
    32,     // [SISched]
    4,      // ESTIMATE, as gfx942
    2048,   // L2: 16 channels x 128 B per clock per XCD [CDNA4-WP]
    8.0e12, // HBM3E [SPEC]
    2.0,    // ESTIMATE
};

const ChipTiming *lookupChipTiming(const std::string &chip) {
  if (chip == "gfx942")
    return &kGfx942;
  if (chip == "gfx950")
    return &kGfx950;
  return nullptr;
}

int mfmaCycles(const std::string &chip, unsigned m, unsigned blocks, bool f64,
               bool f32, bool f8f6f4, bool anyF8) {
  bool cdna4 = chip == "gfx950";
  if (f64) // 16x16x4: 32 (CDNA3) or 64 (CDNA4); 4x4x4_4b: 16 or 32
    return (m == 16 ? 32 : 16) * (cdna4 ? 2 : 1);
  if (f8f6f4) // 16x16x128: 16, 32x32x64: 32; twice that with an F8 operand
    return (m == 32 ? 32 : 16) * (anyF8 ? 2 : 1);
  if (f32) // 32x32x1_2b, 32x32x2: 64; 16x16x1_4b, 16x16x4: 32; 4x4x1: 8
    return m == 32 ? 64 : m == 16 ? 32 : 8;
  // F16, BF16, I8, FP8/BF8, XF32 and the SMFMACs: 32x32: 32 cycles, 16x16:
  // 16, 4x4_16b: 8; the multi-block 32x32x4_2b: 64, 16x16x4_4b: 32.
  if (m == 32)
    return blocks == 2 ? 64 : 32;
  if (m == 16)
    return blocks == 4 ? 32 : 16;
  return m == 4 ? 8 : 0;
}

} // namespace hk
