//===- Matrix.cpp - matrix instructions -------------------------------------===
//
// Semantics of matrix instructions: MFMA and SMFMAC, written from AMD's CDNA3
// and CDNA4 ISA reference guides, with the register layouts of AMD's matrix
// instruction calculator (github.com/ROCm/amd_matrix_instruction_calculator,
// the CSVs in ../shared/amd/mfma-layouts) and, for the CDNA4 f8f6f4 forms,
// AMD's "Matrix Core Programming on CDNA3 and CDNA4" article and the CDNA4
// guide's scaled conversions (fp6).
//
// Every MFMA is prepared once at decode time into a Plan (Inst::aux holds a
// pointer to it): element types, shape, blocks, and gather tables that say,
// for every element of the A, B and C/D matrices, which lane and which
// element of that lane's registers hold it, with the broadcast controls
// (CBSZ/ABID/BLGP) already applied. Executing an MFMA is then: unpack each
// operand's registers for all lanes (one loop per element type) straight
// into the matrices where the layout allows it, else into a lane array and
// gather; one loop nest per block (D = C + A * B); scatter D. The whole of
// it is compiled for AVX-512, AVX2 and plain x86-64, and the plan names the
// widest the host has. Products are exact in double (every input
// format has at most 24 significant bits), summed in double in K order
// starting from C, and rounded once to f32; i8 products are summed in 64-bit
// integers and wrap to 32 bits; f64 MFMAs use one fused multiply-add per K
// step, in K order.
//===----------------------------------------------------------------------===//

#include "Operands.h"

#include "hk/Base/Formats.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>

using namespace hk::rt;
using namespace hk::rt::isa;
namespace fmt = hk::fmt;

namespace {

/// Element types of MFMA sources.
enum class Ty : uint8_t {
  F32,
  XF32, ///< f32 registers, truncated to 10 mantissa bits (gfx942 only)
  F16,
  BF16,
  I8,
  F64,
  Fp8,  ///< E4M3: FNUZ on gfx942, OCP on gfx950
  Bf8,  ///< E5M2: FNUZ on gfx942, OCP on gfx950
  Fp8O, ///< OCP E4M3 (the f8f6f4 forms, gfx950 only)
  Bf8O, ///< OCP E5M2
  Fp6,  ///< E2M3
  Bf6,  ///< E3M2
  Fp4,  ///< E2M1
};

unsigned bitsOf(Ty t) {
  switch (t) {
  case Ty::F64:
    return 64;
  case Ty::F32:
  case Ty::XF32:
    return 32;
  case Ty::F16:
  case Ty::BF16:
    return 16;
  case Ty::Fp6:
  case Ty::Bf6:
    return 6;
  case Ty::Fp4:
    return 4;
  default:
    return 8;
  }
}

/// How the instruction's CBSZ/ABID/BLGP fields are used (the calculator's
/// "CBSZ and ABID bits supported" / "BLGP bits supported" per instruction;
/// CDNA3 guide for the FP64 negation and the SMFMAC index sets; CDNA4 guide
/// for the f8f6f4 formats).
enum class Ctrl : uint8_t {
  None,      ///< all must be 0
  Broadcast, ///< multi-block: CBSZ/ABID broadcast A blocks, BLGP B lanes
  Blgp,      ///< BLGP only
  F64Neg,    ///< BLGP bits negate A, B, C
  Sparse,    ///< CBSZ/ABID pick the compression index set
  Formats,   ///< CBSZ/BLGP are the A/B formats (f8f6f4)
};

struct Plan;
using Runner = void (*)(Sim &, Wave &, const Inst &, const Plan &);

/// Everything an MFMA needs at run time, found once at decode time.
struct Plan {
  uint32_t m = 0, n = 0, k = 0, blocks = 1;
  Ty ta = Ty::F32, tb = Ty::F32;
  bool integer = false, f64 = false, sparse = false, scaled = false;
  /// fp8/bf8 of the CDNA3 opcodes: FNUZ on gfx942, OCP on gfx950.
  bool chipFp8 = false;
  bool negA = false, negB = false, negC = false;
  uint32_t aPer = 0, bPer = 0; ///< elements per lane in the A, B registers
  uint32_t cPer = 0;           ///< C/D elements per lane
  uint32_t cSrc = 2;           ///< source index of C (SMFMAC: the tied D)
  /// Dense A and B: matrix element (block, row, col) -> lane * per + e.
  std::vector<uint16_t> aSrc, bSrc;
  /// lane * cPer + r -> (block * m + i) * n + j.
  std::vector<uint16_t> dSlot;
  uint32_t idxShift = 0; ///< SMFMAC: first bit of the index set
  uint32_t scaleByteA = 0, scaleByteB = 0; ///< scaled MFMA: op_sel bytes
  /// A, B in the standard one-block layout with no broadcast (load()).
  bool directA = false, directB = false;
  /// C and D in the one-block f32/i32 16x16 or 32x32 layout.
  bool directD = false;
  unsigned simd = 0; ///< hostSimd()
  Runner run = nullptr;
};

//===-- Element decoding --------------------------------------------------===//

/// Value tables of the narrow float formats (hk/Base/Formats.h), by code.
struct Tables {
  float fp8Fnuz[256], bf8Fnuz[256], fp8Ocp[256], bf8Ocp[256], fp6[64], bf6[64],
      fp4[16], e8m0[256];
  Tables() {
    for (unsigned c = 0; c < 256; ++c) {
      fp8Fnuz[c] = fmt::decode(c, fmt::kE4M3Fnuz);
      bf8Fnuz[c] = fmt::decode(c, fmt::kE5M2Fnuz);
      fp8Ocp[c] = fmt::decode(c, fmt::kE4M3);
      bf8Ocp[c] = fmt::decode(c, fmt::kE5M2);
      e8m0[c] = fmt::decodeE8M0(uint8_t(c));
    }
    for (unsigned c = 0; c < 16; ++c)
      fp4[c] = fmt::decode(c, fmt::kE2M1);
    for (unsigned c = 0; c < 64; ++c) {
      fp6[c] = fmt::decode(c, fmt::kE2M3);
      bf6[c] = fmt::decode(c, fmt::kE3M2);
    }
  }
};
const Tables &tables() {
  static const Tables t;
  return t;
}

/// The 256-entry table of an 8-bit float type on `chip`.
const float *table8(Ty t, bool fnuz) {
  const Tables &tb = tables();
  switch (t) {
  case Ty::Fp8:
    return fnuz ? tb.fp8Fnuz : tb.fp8Ocp;
  case Ty::Bf8:
    return fnuz ? tb.bf8Fnuz : tb.bf8Ocp;
  case Ty::Fp8O:
    return tb.fp8Ocp;
  case Ty::Bf8O:
    return tb.bf8Ocp;
  default:
    return nullptr;
  }
}

/// IEEE half to float, exactly (normals, denormals, inf, NaN).
inline float halfToFloat(uint32_t h) {
  uint32_t mag = (h & 0x7FFF) << 13, sign = (h & 0x8000) << 16;
  float f;
  if ((h & 0x7C00) == 0x7C00) {
    f = asFloat(mag | 0x7F800000);
  } else {
    // The half's exponent and mantissa as f32 bits, rebiased by 2^112:
    // exact for normals and denormals.
    f = asFloat(mag) * 0x1p112f;
  }
  return asFloat(asBits(f) | sign);
}

/// Calls store(g, i, e, value) for element e of lane g * G + i of operand
/// `o` (element e at bits [e * bits, (e + 1) * bits) of the lane's
/// concatenated registers), i innermost: with store writing consecutive
/// entries for consecutive i, the loops vectorise.
template <typename Acc, unsigned G, typename Store>
__attribute__((always_inline)) inline void
unpack(const Wave &w, const Operand &o, Ty t, unsigned per, const float *lut,
       Store store) {
  const uint32_t *v = &w.v[size_t(o.reg) * kLanes];
  // f(dword of the lane) -> value, for element e held in dword d.
  auto each = [&](unsigned d, unsigned e, auto f)
                  __attribute__((always_inline)) {
                    for (unsigned g = 0; g < kLanes / G; ++g)
                      for (unsigned i = 0; i < G; ++i)
                        store(g, i, e, f(v[d * kLanes + g * G + i]));
                  };
  switch (t) {
  case Ty::F32:
  case Ty::XF32: {
    // XF32: the hardware keeps the top 10 mantissa bits (truncation).
    uint32_t keep = t == Ty::XF32 ? 0xFFFFE000u : 0xFFFFFFFFu;
    for (unsigned e = 0; e < per; ++e)
      each(e, e, [&](uint32_t x) { return Acc(asFloat(x & keep)); });
    return;
  }
  case Ty::F64:
    for (unsigned e = 0; e < per; ++e)
      for (unsigned g = 0; g < kLanes / G; ++g)
        for (unsigned i = 0; i < G; ++i) {
          unsigned l = g * G + i;
          uint64_t bits = v[2 * e * kLanes + l] |
                          uint64_t(v[(2 * e + 1) * kLanes + l]) << 32;
          double d;
          memcpy(&d, &bits, 8);
          store(g, i, e, Acc(d));
        }
    return;
  case Ty::BF16:
    for (unsigned d = 0; d < per / 2; ++d) {
      each(d, 2 * d, [](uint32_t x) { return Acc(asFloat(x << 16)); });
      each(d, 2 * d + 1,
           [](uint32_t x) { return Acc(asFloat(x & 0xFFFF0000u)); });
    }
    return;
  case Ty::F16:
    for (unsigned d = 0; d < per / 2; ++d)
      for (unsigned h = 0; h < 2; ++h)
        each(d, 2 * d + h, [h](uint32_t x) {
          return Acc(halfToFloat((x >> (16 * h)) & 0xFFFF));
        });
    return;
  case Ty::I8:
    for (unsigned d = 0; d < per / 4; ++d)
      for (unsigned q = 0; q < 4; ++q)
        each(d, 4 * d + q,
             [q](uint32_t x) { return Acc(int8_t(x >> (8 * q))); });
    return;
  case Ty::Fp4:
    for (unsigned d = 0; d < per / 8; ++d)
      for (unsigned q = 0; q < 8; ++q)
        each(d, 8 * d + q,
             [&](uint32_t x) { return Acc(lut[(x >> (4 * q)) & 0xF]); });
    return;
  case Ty::Fp6:
  case Ty::Bf6:
    // Element e at bits [6 e, 6 e + 6) of the lane's registers, across a
    // dword boundary for some e.
    for (unsigned e = 0; e < per; ++e) {
      unsigned d = 6 * e / 32, sh = 6 * e % 32;
      for (unsigned g = 0; g < kLanes / G; ++g)
        for (unsigned i = 0; i < G; ++i) {
          unsigned l = g * G + i;
          uint32_t x = v[d * kLanes + l] >> sh;
          if (sh > 26)
            x |= v[(d + 1) * kLanes + l] << (32 - sh);
          store(g, i, e, Acc(lut[x & 0x3F]));
        }
    }
    return;
  default: // 8-bit floats
    for (unsigned d = 0; d < per / 4; ++d)
      for (unsigned q = 0; q < 4; ++q)
        each(d, 4 * d + q,
             [&](uint32_t x) { return Acc(lut[(x >> (8 * q)) & 0xFF]); });
    return;
  }
}

//===-- The product -------------------------------------------------------===//

/// D = C + A * B for each block: A transposed, [blocks][k][m]; B
/// [blocks][k][N]; D [blocks][m][N] holding C on entry. The loop over j is
/// innermost and independent per j, so it vectorises without reassociating
/// sums: each D element is summed in K order. Four rows at a time (M is a
/// multiple of 4), so that four independent chains of multiply-adds hide
/// their latency.
template <typename Acc, unsigned N, bool Fused>
__attribute__((always_inline)) inline void multiply(const Plan &p, const Acc *A,
                                                    const Acc *B, Acc *D) {
  constexpr unsigned R = 4;
  const unsigned M = p.m, K = p.k;
  for (unsigned b = 0; b < p.blocks; ++b) {
    const Acc *Ab = A + size_t(b) * M * K, *Bb = B + size_t(b) * K * N;
    Acc *Db = D + size_t(b) * M * N;
    for (unsigned i = 0; i < M; i += R) {
      Acc acc[R][N];
      for (unsigned r = 0; r < R; ++r)
        for (unsigned j = 0; j < N; ++j)
          acc[r][j] = Db[(i + r) * N + j];
      for (unsigned kk = 0; kk < K; ++kk) {
        const Acc *a = Ab + kk * M + i, *row = Bb + kk * N;
        for (unsigned r = 0; r < R; ++r)
          for (unsigned j = 0; j < N; ++j) {
            if constexpr (Fused)
              acc[r][j] = std::fma(a[r], row[j], acc[r][j]);
            else
              acc[r][j] += a[r] * row[j];
          }
      }
      for (unsigned r = 0; r < R; ++r)
        for (unsigned j = 0; j < N; ++j)
          Db[(i + r) * N + j] = acc[r][j];
    }
  }
}

#if defined(__x86_64__)
/// The widest vector instructions of the host: 2 AVX-512, 1 AVX2, 0 none.
unsigned hostSimd() {
  static const unsigned level =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
              __builtin_cpu_supports("avx512dq")
          ? 2
      : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1
                                                                        : 0;
  return level;
}
#else
unsigned hostSimd() { return 0; }
#endif

/// The largest matrices: 32x32x64 / 16x16x128 A and B, 32x32 x 2 blocks
/// of D.
constexpr unsigned kMaxElems = 2048;

/// A (transposed) of an SMFMAC: each lane holds per = S / 2 values of row i (S
/// = K * M / 64 columns from S * (lane / M)), two per group of four columns;
/// the index set gives each value's column within its group (2 bits each, 4
/// bits per group). A value is added at its column, so that a repeated index
/// multiplies both values by the same B row.
template <typename Acc>
void sparseA(const Wave &w, const Inst &inst, const Plan &p, const Acc *raw,
             Acc *A) {
  const unsigned M = p.m, K = p.k, S = K * M / kLanes, per = p.aPer;
  for (unsigned x = 0; x < M * K; ++x)
    A[x] = Acc(0);
  for (unsigned l = 0; l < kLanes; ++l) {
    uint32_t idx = rd(w, inst.srcs[2], l) >> p.idxShift;
    unsigned i = l % M, base = S * (l / M);
    for (unsigned v = 0; v < per; ++v) {
      unsigned q = v / 2, col = (idx >> (4 * q + 2 * (v % 2))) & 3;
      A[(base + 4 * q + col) * M + i] += raw[l * per + v];
    }
  }
}

/// The scaled MFMAs: A[i][k] times 2^(scale of row i, K block k / 32) and
/// B[k][j] times that of column j; the E8M0 scale of (row i, block kb) is
/// byte op_sel of lane i + M * kb of the scale operand (CDNA4 guide; OCP MX
/// v1.0: a NaN scale makes its whole block NaN). Exact in double.
template <typename Acc>
void applyScales(const Wave &w, const Inst &inst, const Plan &p, Acc *A,
                 Acc *B) {
  const float *e8m0 = tables().e8m0;
  const unsigned M = p.m, N = p.n, K = p.k;
  for (unsigned i = 0; i < M; ++i)
    for (unsigned kk = 0; kk < K; ++kk) {
      uint32_t s = rd(w, inst.srcs[3], i + M * (kk / 32));
      A[kk * M + i] *= Acc(e8m0[(s >> (8 * p.scaleByteA)) & 0xFF]);
    }
  for (unsigned kk = 0; kk < K; ++kk)
    for (unsigned j = 0; j < N; ++j) {
      uint32_t s = rd(w, inst.srcs[4], j + N * (kk / 32));
      B[kk * N + j] *= Acc(e8m0[(s >> (8 * p.scaleByteB)) & 0xFF]);
    }
}

/// C of every lane into D's matrix slots (an inline constant C is the same
/// for every element).
template <typename Acc>
void gatherC(const Wave &w, const Plan &p, const Operand &c, Acc *D) {
  const unsigned per = p.cPer;
  if (c.file == File::V && !p.f64) {
    const uint32_t *v = &w.v[size_t(c.reg) * kLanes];
    for (unsigned r = 0; r < per; ++r)
      for (unsigned l = 0; l < kLanes; ++l) {
        uint32_t bits = v[r * kLanes + l];
        D[p.dSlot[l * per + r]] =
            p.integer ? Acc(int32_t(bits)) : Acc(asFloat(bits));
      }
    return;
  }
  for (unsigned l = 0; l < kLanes; ++l)
    for (unsigned r = 0; r < per; ++r) {
      Acc value;
      if (p.f64) {
        uint64_t bits =
            c.file == File::Imm
                ? uint64_t(c.imm)
                : rd(w, c, l, 2 * r) | uint64_t(rd(w, c, l, 2 * r + 1)) << 32;
        double d;
        memcpy(&d, &bits, 8);
        value = Acc(p.negC ? -d : d);
      } else {
        uint32_t bits = rd(w, c, l, c.file == File::Imm ? 0 : r);
        value = p.integer ? Acc(int32_t(bits)) : Acc(asFloat(bits));
      }
      D[p.dSlot[l * per + r]] = value;
    }
}

template <typename Acc>
void scatterD(Wave &w, const Plan &p, const Operand &d, const Acc *D) {
  const unsigned per = p.cPer;
  uint32_t *v = &w.v[size_t(d.reg) * kLanes];
  for (unsigned r = 0; r < per; ++r)
    for (unsigned l = 0; l < kLanes; ++l) {
      Acc x = D[p.dSlot[l * per + r]];
      if (p.f64) {
        uint64_t bits;
        double dv = double(x);
        memcpy(&bits, &dv, 8);
        v[2 * r * kLanes + l] = uint32_t(bits);
        v[(2 * r + 1) * kLanes + l] = uint32_t(bits >> 32);
      } else if (p.integer) {
        v[r * kLanes + l] = uint32_t(uint64_t(int64_t(x)));
      } else {
        v[r * kLanes + l] = asBits(float(x));
      }
    }
}

/// The row of D (and C) that register r of lane group g (lanes g N to
/// g N + N - 1, columns 0 to N - 1) holds, one-block 16x16 and 32x32.
template <unsigned N> constexpr unsigned dRow(unsigned g, unsigned r) {
  return N == 16 ? 4 * g + r : 8 * (r / 4) + 4 * g + r % 4;
}

/// C into D and D out to its registers for the one-block f32/i32 16x16 and
/// 32x32 layouts: consecutive lanes hold consecutive columns of a row.
template <typename Acc, unsigned N>
__attribute__((always_inline)) inline void
gatherCDirect(const Wave &w, const Plan &p, const Operand &c, Acc *D) {
  const uint32_t *v = &w.v[size_t(c.reg) * kLanes];
  for (unsigned r = 0; r < p.cPer; ++r)
    for (unsigned g = 0; g < kLanes / N; ++g)
      for (unsigned i = 0; i < N; ++i) {
        uint32_t bits = v[r * kLanes + g * N + i];
        D[dRow<N>(g, r) * N + i] =
            p.integer ? Acc(int32_t(bits)) : Acc(asFloat(bits));
      }
}
template <typename Acc, unsigned N>
__attribute__((always_inline)) inline void
scatterDDirect(Wave &w, const Plan &p, const Operand &d, const Acc *D) {
  uint32_t *v = &w.v[size_t(d.reg) * kLanes];
  for (unsigned r = 0; r < p.cPer; ++r)
    for (unsigned g = 0; g < kLanes / N; ++g)
      for (unsigned i = 0; i < N; ++i) {
        Acc x = D[dRow<N>(g, r) * N + i];
        v[r * kLanes + g * N + i] =
            p.integer ? uint32_t(uint64_t(int64_t(x))) : asBits(float(x));
      }
}

/// Loads A (transposed) or B of every block. In the calculator's layout of
/// a one-block MFMA with no broadcast (`direct`), lane i + N g holds k =
/// per g + e, so the lanes of one element number fill a run of N entries;
/// otherwise the lanes are unpacked and gathered through `src`.
template <typename Acc, unsigned N>
__attribute__((always_inline)) inline void
load(const Wave &w, const Operand &o, Ty t, unsigned per, const float *lut,
     bool direct, const std::vector<uint16_t> &src, Acc *raw, Acc *out) {
  if (direct) {
    unpack<Acc, N>(w, o, t, per, lut,
                   [&](unsigned g, unsigned i, unsigned e, Acc v) {
                     out[(g * per + e) * N + i] = v;
                   });
    return;
  }
  unpack<Acc, kLanes>(
      w, o, t, per, lut,
      [&](unsigned, unsigned l, unsigned e, Acc v) { raw[l * per + e] = v; });
  const size_t n = src.size();
  for (size_t x = 0; x < n; ++x)
    out[x] = raw[src[x]];
}

const float *lutOf(Ty t, bool fnuz) {
  switch (t) {
  case Ty::Fp4:
    return tables().fp4;
  case Ty::Fp6:
    return tables().fp6;
  case Ty::Bf6:
    return tables().bf6;
  default:
    return table8(t, fnuz);
  }
}

template <typename Acc, unsigned N, bool Fused>
__attribute__((always_inline)) inline void
runBody(Sim &sim, Wave &w, const Inst &inst, const Plan &p) {
  if (w.exec() != ~uint64_t(0))
    sim.fail("MFMA with lanes off in EXEC is not simulated");
  // 8-bit floats in AMD's FNUZ formats or the OCP ones, by the chip.
  bool fnuz =
      p.chipFp8 && hk::lookupChip(sim.code.chip)->fp8 == hk::Fp8Format::FNUZ;
  alignas(64) Acc raw[kMaxElems], A[kMaxElems], B[kMaxElems], D[kMaxElems];
  if (p.sparse) {
    unpack<Acc, kLanes>(w, inst.srcs[0], p.ta, p.aPer, lutOf(p.ta, fnuz),
                        [&](unsigned, unsigned l, unsigned e, Acc v) {
                          raw[l * p.aPer + e] = v;
                        });
    sparseA(w, inst, p, raw, A);
  } else {
    load<Acc, N>(w, inst.srcs[0], p.ta, p.aPer, lutOf(p.ta, fnuz), p.directA,
                 p.aSrc, raw, A);
  }
  load<Acc, N>(w, inst.srcs[1], p.tb, p.bPer, lutOf(p.tb, fnuz), p.directB,
               p.bSrc, raw, B);
  const size_t na = size_t(p.blocks) * p.m * p.k,
               nb = size_t(p.blocks) * p.k * p.n;
  if (p.negA)
    for (size_t x = 0; x < na; ++x)
      A[x] = -A[x];
  if (p.negB)
    for (size_t x = 0; x < nb; ++x)
      B[x] = -B[x];
  if (p.scaled)
    applyScales(w, inst, p, A, B);
  const Operand &c = inst.srcs[p.cSrc];
  bool directD = N != 4 && p.directD && c.file == File::V;
  if (directD)
    gatherCDirect<Acc, N>(w, p, c, D);
  else
    gatherC(w, p, c, D);
  multiply<Acc, N, Fused>(p, A, B, D);
  if (directD)
    scatterDDirect<Acc, N>(w, p, inst.defs[0], D);
  else
    scatterD(w, p, inst.defs[0], D);
}

/// The MFMA compiled three times, for AVX-512, AVX2 and plain x86-64; the
/// plan names the widest the host has (hostSimd()). Every product is exact
/// in double, so the fused multiply-adds the wider builds use give the
/// same sums as a multiply and an add.
template <typename Acc, unsigned N, bool Fused>
void runPlan(Sim &sim, Wave &w, const Inst &inst, const Plan &p) {
  runBody<Acc, N, Fused>(sim, w, inst, p);
}
#if defined(__x86_64__)
template <typename Acc, unsigned N, bool Fused>
__attribute__((target("avx512f,avx512vl,avx512dq,avx2,fma"))) void
runPlanAvx512(Sim &sim, Wave &w, const Inst &inst, const Plan &p) {
  runBody<Acc, N, Fused>(sim, w, inst, p);
}
template <typename Acc, unsigned N, bool Fused>
__attribute__((target("avx2,fma"))) void
runPlanAvx2(Sim &sim, Wave &w, const Inst &inst, const Plan &p) {
  runBody<Acc, N, Fused>(sim, w, inst, p);
}
#endif

void vMfma(Sim &sim, Wave &w, const Inst &inst) {
  const Plan *p;
  uint64_t bits = inst.aux[0] | uint64_t(inst.aux[1]) << 32;
  memcpy(&p, &bits, sizeof p);
  p->run(sim, w, inst, *p);
}

//===-- Decode-time preparation -------------------------------------------===//

/// What an opcode's name says.
struct Desc {
  uint32_t m = 0, n = 0, k = 0, blocks = 1;
  Ty ta = Ty::F32, tb = Ty::F32;
  bool integer = false, f64 = false, sparse = false, scaled = false,
       f8f6f4 = false;
  Ctrl ctrl = Ctrl::None;
};

/// The CDNA3 multi-block instructions (calculator: "blocks"), by base name.
uint32_t blockCount(const std::string &base) {
  static const std::map<std::string, uint32_t> multi = {
      {"V_MFMA_F32_32X32X1F32", 2},     {"V_MFMA_F32_16X16X1F32", 4},
      {"V_MFMA_F32_4X4X1F32", 16},      {"V_MFMA_F32_32X32X4F16", 2},
      {"V_MFMA_F32_16X16X4F16", 4},     {"V_MFMA_F32_4X4X4F16", 16},
      {"V_MFMA_F32_32X32X4BF16_1K", 2}, {"V_MFMA_F32_16X16X4BF16_1K", 4},
      {"V_MFMA_F32_4X4X4BF16_1K", 16},  {"V_MFMA_I32_32X32X4I8", 2},
      {"V_MFMA_I32_16X16X4I8", 4},      {"V_MFMA_I32_4X4X4I8", 16},
      {"V_MFMA_F64_4X4X4F64", 4}};
  auto it = multi.find(base);
  return it == multi.end() ? 1 : it->second;
}

bool parseType(const std::string &t, Desc &d) {
  static const std::map<std::string, std::pair<Ty, Ty>> types = {
      {"F32", {Ty::F32, Ty::F32}},       {"XF32", {Ty::XF32, Ty::XF32}},
      {"F16", {Ty::F16, Ty::F16}},       {"BF16", {Ty::BF16, Ty::BF16}},
      {"BF16_1K", {Ty::BF16, Ty::BF16}}, {"I8", {Ty::I8, Ty::I8}},
      {"F64", {Ty::F64, Ty::F64}},       {"FP8_FP8", {Ty::Fp8, Ty::Fp8}},
      {"FP8_BF8", {Ty::Fp8, Ty::Bf8}},   {"BF8_FP8", {Ty::Bf8, Ty::Fp8}},
      {"BF8_BF8", {Ty::Bf8, Ty::Bf8}}};
  if (t.rfind("F8F6F4", 0) == 0) {
    d.f8f6f4 = true;
    return true;
  }
  auto it = types.find(t);
  if (it == types.end())
    return false;
  d.ta = it->second.first;
  d.tb = it->second.second;
  return true;
}

/// V_[S]MFMA[_SCALE]_<F32|I32|F64>_<M>X<N>X<K>[_]<TYPE>.
std::string describe(const std::string &base, Desc &d) {
  std::string rest = base;
  auto eat = [&](const char *prefix) {
    size_t n = strlen(prefix);
    if (rest.compare(0, n, prefix) != 0)
      return false;
    rest = rest.substr(n);
    return true;
  };
  if (eat("V_SMFMAC_"))
    d.sparse = true;
  else if (eat("V_MFMA_SCALE_"))
    d.scaled = true;
  else if (!eat("V_MFMA_"))
    return "not a matrix instruction";
  if (eat("I32_"))
    d.integer = true;
  else if (eat("F64_"))
    d.f64 = true;
  else if (!eat("F32_"))
    return "unknown result type";
  unsigned m = 0, n = 0, k = 0;
  int used = 0;
  if (sscanf(rest.c_str(), "%uX%uX%u%n", &m, &n, &k, &used) < 3)
    return "unknown shape";
  rest = rest.substr(size_t(used));
  if (!rest.empty() && rest[0] == '_')
    rest = rest.substr(1);
  if (!parseType(rest, d))
    return "unknown operand type " + rest;
  d.m = m;
  d.n = n;
  d.k = k;
  d.blocks = blockCount(base);
  if (d.integer != (d.ta == Ty::I8) || d.f64 != (d.ta == Ty::F64))
    return "operand and result types do not match";
  if (d.sparse)
    d.ctrl = Ctrl::Sparse;
  else if (d.f8f6f4)
    d.ctrl = Ctrl::Formats;
  else if (d.f64)
    d.ctrl = Ctrl::F64Neg;
  else if (d.blocks > 1)
    d.ctrl = Ctrl::Broadcast;
  else if (base == "V_MFMA_F32_32X32X2F32" || base == "V_MFMA_F32_16X16X4F32")
    d.ctrl = Ctrl::Blgp;
  return "";
}

/// The f8f6f4 format codes of CBSZ (A) and BLGP (B): 0 E4M3, 1 E5M2,
/// 2 E2M3, 3 E3M2, 4 E2M1 (CDNA4 guide).
std::string formatOf(int64_t code, Ty &t) {
  static const Ty codes[] = {Ty::Fp8O, Ty::Bf8O, Ty::Fp6, Ty::Bf6, Ty::Fp4};
  if (code < 0 || code > 4)
    return "f8f6f4 format code " + std::to_string(code) + " is reserved";
  t = codes[code];
  return "";
}

/// Lane and element of A[block][i][k] with no broadcast (the calculator's
/// layouts): lane i + M * (block + blocks * g), element k % kpl, g = k /
/// kpl. The f8f6f4 forms: fp4 (AMD's CDNA4 matrix core article) and fp6
/// (the CDNA4 guide's scaled conversions, which produce the MFMA's
/// operands: "lanes 0..15 [hold] K=0..31") keep 32 consecutive k per lane
/// group; fp8 (the article) puts k = h * K / 2 + 16 * g + j at element
/// 16 * h + j (two halves of 16 bytes).
void elementOf(const Plan &p, Ty t, uint32_t rows, uint32_t per, uint32_t block,
               uint32_t i, uint32_t k, uint32_t &lane, uint32_t &e) {
  uint32_t g;
  if (t == Ty::Fp8O || t == Ty::Bf8O || t == Ty::Fp4 || t == Ty::Fp6 ||
      t == Ty::Bf6) {
    if (bitsOf(t) == 8) {
      uint32_t half = p.k / 2, h = k / half, r = k % half;
      g = r / 16;
      e = 16 * h + r % 16;
    } else {
      g = k / 32;
      e = k % 32;
    }
    lane = i + rows * g;
    return;
  }
  g = k / per;
  e = k % per;
  lane = i + rows * (block + p.blocks * g);
}

/// (block * m + i) * n + j of register r of `lane` in C and D.
uint16_t dSlotOf(const Plan &p, uint32_t lane, uint32_t r) {
  uint32_t b = 0, i, j;
  if (p.f64 && p.m == 16) {
    i = 4 * r + lane / 16;
    j = lane % 16;
  } else if (p.f64) { // 4x4x4, 4 blocks
    i = lane / 16;
    b = (lane / 4) % 4;
    j = lane % 4;
  } else if (p.m == 32) {
    b = r / 16;
    uint32_t rr = r % 16;
    i = 8 * (rr / 4) + 4 * (lane / 32) + rr % 4;
    j = lane % 32;
  } else if (p.m == 16) {
    b = r / 4;
    i = 4 * (lane / 16) + r % 4;
    j = lane % 16;
  } else { // 4x4, 16 blocks
    b = lane / 4;
    i = r;
    j = lane % 4;
  }
  return uint16_t((b * p.m + i) * p.n + j);
}

/// BLGP (calculator README): the lane whose B registers lane L reads.
uint32_t blgpSource(uint32_t blgp, uint32_t L) {
  switch (blgp) {
  case 1:
    return L % 32;
  case 2:
    return 32 + L % 32;
  case 3:
    return (L + 16) % 64;
  case 4:
  case 5:
  case 6:
  case 7:
    return 16 * (blgp - 4) + L % 16;
  default:
    return L;
  }
}

template <typename Acc, unsigned N, bool Fused>
Runner runnerFor(unsigned simd) {
#if defined(__x86_64__)
  if (simd == 2)
    return runPlanAvx512<Acc, N, Fused>;
  if (simd == 1)
    return runPlanAvx2<Acc, N, Fused>;
#endif
  return runPlan<Acc, N, Fused>;
}

template <typename Acc, bool Fused>
Runner runnerFor(uint32_t n, unsigned simd) {
  switch (n) {
  case 4:
    return runnerFor<Acc, 4, Fused>(simd);
  case 16:
    return runnerFor<Acc, 16, Fused>(simd);
  default:
    return runnerFor<Acc, 32, Fused>(simd);
  }
}

/// The gather tables of a dense MFMA, broadcasts applied.
void buildTables(Plan &p, uint32_t cbsz, uint32_t abid, uint32_t blgp) {
  uint32_t lane, e;
  if (!p.sparse) {
    p.aSrc.resize(size_t(p.blocks) * p.m * p.k);
    for (uint32_t b = 0; b < p.blocks; ++b) {
      // CBSZ/ABID: block b reads block ABID of its group of 2^CBSZ.
      uint32_t from = cbsz ? ((b >> cbsz) << cbsz) | abid : b;
      for (uint32_t i = 0; i < p.m; ++i)
        for (uint32_t k = 0; k < p.k; ++k) {
          elementOf(p, p.ta, p.m, p.aPer, from, i, k, lane, e);
          p.aSrc[(size_t(b) * p.k + k) * p.m + i] = uint16_t(lane * p.aPer + e);
        }
    }
  }
  p.bSrc.resize(size_t(p.blocks) * p.k * p.n);
  for (uint32_t b = 0; b < p.blocks; ++b)
    for (uint32_t k = 0; k < p.k; ++k)
      for (uint32_t j = 0; j < p.n; ++j) {
        elementOf(p, p.tb, p.n, p.bPer, b, j, k, lane, e);
        lane = blgpSource(blgp, lane);
        p.bSrc[(size_t(b) * p.k + k) * p.n + j] = uint16_t(lane * p.bPer + e);
      }
  p.dSlot.resize(size_t(kLanes) * p.cPer);
  for (uint32_t l = 0; l < kLanes; ++l)
    for (uint32_t r = 0; r < p.cPer; ++r)
      p.dSlot[l * p.cPer + r] = dSlotOf(p, l, r);
}

/// Checks the CBSZ/ABID/BLGP fields against what the instruction does with
/// them, and sets the plan's negation and index set.
std::string checkControls(const Desc &d, Plan &p, uint32_t cbsz, uint32_t abid,
                          uint32_t blgp) {
  std::string fields = "cbsz:" + std::to_string(cbsz) +
                       " abid:" + std::to_string(abid) +
                       " blgp:" + std::to_string(blgp);
  switch (d.ctrl) {
  case Ctrl::None:
    if (cbsz || abid || blgp)
      return fields + " on this MFMA is not simulated (the instruction "
                      "calculator lists no broadcast controls for it)";
    return "";
  case Ctrl::Blgp:
    if (cbsz || abid)
      return fields + ": this MFMA has no CBSZ/ABID (one block)";
    return "";
  case Ctrl::Broadcast:
    if ((1u << cbsz) > d.blocks || abid >= (1u << cbsz))
      return fields + ": CBSZ/ABID outside the instruction's " +
             std::to_string(d.blocks) + " blocks";
    return "";
  case Ctrl::F64Neg:
    if (cbsz || abid)
      return fields + ": FP64 MFMAs have no CBSZ/ABID";
    p.negA = blgp & 1;
    p.negB = blgp & 2;
    p.negC = blgp & 4;
    return "";
  case Ctrl::Sparse: {
    // 4 index bits per group of 4 columns; CBSZ != 0 ignores ABID.
    uint32_t bits = d.k * d.m / kLanes;
    p.idxShift = cbsz ? 0 : abid * bits;
    if (p.idxShift + bits > 32)
      return fields + ": no such compression index set";
    return "";
  }
  case Ctrl::Formats:
    return "";
  }
  return "";
}

/// Reads the fields of an MCInst: dense MFMAs [cbsz, abid, blgp]; f8f6f4
/// [cbsz, blgp]; scaled [cbsz, blgp, scale A mods, scale B mods]; SMFMAC
/// [cbsz, abid].
std::string readControls(const Desc &d, const Inst &inst, uint32_t &cbsz,
                         uint32_t &abid, uint32_t &blgp, Plan &p) {
  unsigned want = d.scaled ? 4 : d.f8f6f4 || d.sparse ? 2 : 3;
  if (inst.numImms != want)
    return "MFMA with " + std::to_string(inst.numImms) +
           " immediate operands where " + std::to_string(want) +
           " were expected";
  cbsz = uint32_t(inst.imms[0]);
  if (d.f8f6f4) {
    blgp = uint32_t(inst.imms[1]);
  } else if (d.sparse) {
    abid = uint32_t(inst.imms[1]);
  } else {
    abid = uint32_t(inst.imms[1]);
    blgp = uint32_t(inst.imms[2]);
  }
  if (d.scaled) {
    // op_sel picks bit 0, op_sel_hi bit 1 of the scale byte (LLVM's
    // encoding of the intrinsic's opsel).
    auto byte = [](int64_t mods) {
      return uint32_t(((mods & 4) ? 1 : 0) | ((mods & 8) ? 2 : 0));
    };
    if ((inst.imms[2] | inst.imms[3]) & ~int64_t(12))
      return "scale operand modifiers other than op_sel are not simulated";
    p.scaleByteA = byte(inst.imms[2]);
    p.scaleByteB = byte(inst.imms[3]);
  }
  return "";
}

std::string checkOperands(const Desc &d, const Plan &p, const Inst &inst) {
  unsigned wantSrcs = d.scaled ? 5 : d.sparse ? 4 : 3;
  if (inst.numDefs != 1 || inst.numSrcs != wantSrcs)
    return "MFMA operands not as expected";
  auto dwords = [](Ty t, unsigned per) { return (bitsOf(t) * per + 31) / 32; };
  if (inst.srcs[0].file != File::V || inst.srcs[1].file != File::V ||
      inst.defs[0].file != File::V)
    return "MFMA A, B and D must be vector registers";
  if (inst.srcs[0].width < dwords(p.ta, p.aPer) ||
      inst.srcs[1].width < dwords(p.tb, p.bPer))
    return "MFMA A/B registers narrower than the layout";
  const Operand &c = inst.srcs[p.cSrc];
  if (c.file == File::S)
    return "MFMA C in scalar registers is not simulated";
  if (d.sparse && inst.srcs[2].file != File::V)
    return "SMFMAC index operand must be a vector register";
  for (unsigned s = 0; s < inst.numSrcs; ++s)
    if (inst.srcs[s].mods)
      return "MFMA source modifiers are not simulated";
  return "";
}

std::mutex plansMutex;
std::map<std::string, std::unique_ptr<Plan>> &plans() {
  static std::map<std::string, std::unique_ptr<Plan>> all;
  return all;
}

std::string prepareMfma(const std::string &base, Inst &inst) {
  Desc d;
  std::string why = describe(base, d);
  if (!why.empty())
    return base + ": " + why;
  auto plan = std::make_unique<Plan>();
  Plan &p = *plan;
  uint32_t cbsz = 0, abid = 0, blgp = 0;
  why = readControls(d, inst, cbsz, abid, blgp, p);
  if (!why.empty())
    return why;
  p.m = d.m;
  p.n = d.n;
  p.k = d.k;
  p.blocks = d.blocks;
  p.integer = d.integer;
  p.f64 = d.f64;
  p.sparse = d.sparse;
  p.scaled = d.scaled;
  p.ta = d.ta;
  p.tb = d.tb;
  if (d.f8f6f4) {
    if (!(why = formatOf(cbsz, p.ta)).empty() ||
        !(why = formatOf(blgp, p.tb)).empty())
      return why;
    cbsz = blgp = 0;
  }
  p.chipFp8 = p.ta == Ty::Fp8 || p.ta == Ty::Bf8;
  why = checkControls(d, p, cbsz, abid, blgp);
  if (!why.empty())
    return why;
  if (d.ctrl == Ctrl::F64Neg)
    blgp = 0;
  if (d.ctrl == Ctrl::Sparse)
    cbsz = abid = 0;
  const uint32_t kpl = d.k * d.m * d.blocks / kLanes;
  p.aPer = d.sparse ? kpl / 2 : kpl;
  p.bPer = d.k * d.n * d.blocks / kLanes;
  p.cPer = d.m * d.n * d.blocks / kLanes;
  p.cSrc = d.sparse ? 3 : 2;
  if (p.aPer * kLanes > kMaxElems || p.bPer * kLanes > kMaxElems ||
      p.cPer * kLanes > kMaxElems || p.aPer == 0 || p.bPer == 0)
    return base + " has a shape the simulator does not hold";
  why = checkOperands(d, p, inst);
  if (!why.empty())
    return why;
  buildTables(p, cbsz, abid, blgp);
  auto standard = [](Ty t) {
    return t != Ty::Fp8O && t != Ty::Bf8O && t != Ty::Fp4 && t != Ty::Fp6 &&
           t != Ty::Bf6;
  };
  p.directA = !p.sparse && p.blocks == 1 && cbsz == 0 && standard(p.ta);
  p.directB = p.blocks == 1 && blgp == 0 && standard(p.tb);
  p.directD = !p.f64 && p.blocks == 1 && (p.m == 16 || p.m == 32);
  p.simd = hostSimd();
  if (p.integer)
    p.run = runnerFor<int64_t, false>(p.n, p.simd);
  else if (p.f64)
    p.run = runnerFor<double, true>(p.n, p.simd);
  else
    p.run = runnerFor<double, false>(p.n, p.simd);
  // One plan per opcode and immediate fields, kept for the life of the
  // process.
  std::string key = base;
  for (unsigned x = 0; x < inst.numImms; ++x)
    key += "/" + std::to_string(inst.imms[x]);
  std::lock_guard<std::mutex> lock(plansMutex);
  auto &slot = plans()[key];
  if (!slot)
    slot = std::move(plan);
  const Plan *stored = slot.get();
  uint64_t bits;
  memcpy(&bits, &stored, sizeof stored);
  inst.aux[0] = uint32_t(bits);
  inst.aux[1] = uint32_t(bits >> 32);
  return "";
}

/// Every MFMA and SMFMAC base name LLVM 22 decodes for gfx942 and gfx950.
std::vector<std::string> matrixOpcodes() {
  std::vector<std::string> names = {
      "V_MFMA_F32_32X32X1F32",      "V_MFMA_F32_16X16X1F32",
      "V_MFMA_F32_4X4X1F32",        "V_MFMA_F32_32X32X2F32",
      "V_MFMA_F32_16X16X4F32",      "V_MFMA_F32_32X32X4F16",
      "V_MFMA_F32_16X16X4F16",      "V_MFMA_F32_4X4X4F16",
      "V_MFMA_F32_32X32X8F16",      "V_MFMA_F32_16X16X16F16",
      "V_MFMA_F32_16X16X32_F16",    "V_MFMA_F32_32X32X16_F16",
      "V_MFMA_F32_32X32X4BF16_1K",  "V_MFMA_F32_16X16X4BF16_1K",
      "V_MFMA_F32_4X4X4BF16_1K",    "V_MFMA_F32_32X32X8BF16_1K",
      "V_MFMA_F32_16X16X16BF16_1K", "V_MFMA_F32_16X16X32_BF16",
      "V_MFMA_F32_32X32X16_BF16",   "V_MFMA_I32_32X32X4I8",
      "V_MFMA_I32_16X16X4I8",       "V_MFMA_I32_4X4X4I8",
      "V_MFMA_I32_32X32X16I8",      "V_MFMA_I32_16X16X32I8",
      "V_MFMA_I32_16X16X64_I8",     "V_MFMA_I32_32X32X32_I8",
      "V_MFMA_F32_16X16X8XF32",     "V_MFMA_F32_32X32X4XF32",
      "V_MFMA_F64_16X16X4F64",      "V_MFMA_F64_4X4X4F64",
      "V_SMFMAC_F32_16X16X32_F16",  "V_SMFMAC_F32_32X32X16_F16",
      "V_SMFMAC_F32_16X16X32_BF16", "V_SMFMAC_F32_32X32X16_BF16",
      "V_SMFMAC_I32_16X16X64_I8",   "V_SMFMAC_I32_32X32X32_I8",
      "V_SMFMAC_F32_16X16X64_F16",  "V_SMFMAC_F32_32X32X32_F16",
      "V_SMFMAC_F32_16X16X64_BF16", "V_SMFMAC_F32_32X32X32_BF16",
      "V_SMFMAC_I32_16X16X128_I8",  "V_SMFMAC_I32_32X32X64_I8"};
  const char *f8[] = {"FP8_FP8", "FP8_BF8", "BF8_FP8", "BF8_BF8"};
  for (const char *t : f8) {
    for (const char *shape :
         {"V_MFMA_F32_16X16X32_", "V_MFMA_F32_32X32X16_",
          "V_SMFMAC_F32_16X16X64_", "V_SMFMAC_F32_32X32X32_",
          "V_SMFMAC_F32_16X16X128_", "V_SMFMAC_F32_32X32X64_"})
      names.push_back(std::string(shape) + t);
  }
  const char *widths[] = {"f8", "f6", "f4"};
  for (const char *op :
       {"V_MFMA_F32_16X16X128_F8F6F4_", "V_MFMA_F32_32X32X64_F8F6F4_",
        "V_MFMA_SCALE_F32_16X16X128_F8F6F4_",
        "V_MFMA_SCALE_F32_32X32X64_F8F6F4_"})
    for (const char *a : widths)
      for (const char *b : widths)
        names.push_back(std::string(op) + a + "_" + b);
  return names;
}

} // namespace

void hk::rt::isa::registerMatrix(Semantics &table) {
  for (const std::string &name : matrixOpcodes()) {
    table.handlers[name] = vMfma;
    table.preparers[name] = prepareMfma;
  }
}

bool hk::rt::isa::mfmaFacts(const Inst &inst, MfmaFacts &out) {
  if (inst.fn != vMfma)
    return false;
  const Plan *p;
  uint64_t bits = inst.aux[0] | uint64_t(inst.aux[1]) << 32;
  memcpy(&p, &bits, sizeof p);
  if (!p)
    return false;
  auto f8 = [](Ty t) {
    return t == Ty::Fp8 || t == Ty::Bf8 || t == Ty::Fp8O || t == Ty::Bf8O;
  };
  auto narrow = [](Ty t) {
    return t == Ty::Fp6 || t == Ty::Bf6 || t == Ty::Fp4;
  };
  out.m = p->m;
  out.n = p->n;
  out.k = p->k;
  out.blocks = p->blocks;
  out.f64 = p->f64;
  out.f32 = p->ta == Ty::F32;
  out.f8f6f4 = p->ta == Ty::Fp8O || p->ta == Ty::Bf8O || narrow(p->ta) ||
               narrow(p->tb) || p->scaled;
  out.anyF8 = f8(p->ta) || f8(p->tb);
  out.sparse = p->sparse;
  return true;
}
