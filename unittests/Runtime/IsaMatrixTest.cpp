//===- IsaMatrixTest.cpp - the ISA simulator's matrix semantics ----------===//
//
// Expected values come from AMD's ISA reference guides (and AMD's MFMA
// tables in ../shared/amd), never from the simulator's own output.
//
// Each MFMA runs in a one-wave kernel: every lane loads its A, B and C
// registers from buffers laid out register-major (dword r of lane l at
// r * 64 + l), runs the instruction and stores D the same way. The test
// places matrix elements into registers through AMD's register layouts
// (the matrix instruction calculator's CSVs in
// unittests/Inputs/mfma-layouts-cdna3 where there is one; otherwise the
// calculator's --detail-instruction formulas, checked against every CSV
// below) and compares D with a float64 product. The inputs are small
// dyadic numbers, so every sum is exact in f32 and the comparison is exact.
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"
#include "hk/Base/Error.h"
#include "hk/Base/Formats.h"
#include "hk/Runtime/hkrt.h"

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <regex>

using namespace hk::rt;
using namespace hk::rt::isatest;

namespace {

const char *const kChips[] = {"gfx942", "gfx950"};

//===-- Number formats, written from their definitions --------------------===//

/// A binary float format of `e` exponent and `m` mantissa bits: the value
/// of a code (IEEE-style: normal (1 + f / 2^m) 2^(E - bias), denormal
/// f / 2^m 2^(1 - bias)), with its top codes as the format defines them.
struct TestFormat {
  int e, m, bias;
  enum Top { Ieee, E4M3Nan, Fnuz, AllFinite } top;

  double value(unsigned code) const {
    unsigned n = 1 + e + m;
    bool neg = (code >> (n - 1)) & 1;
    unsigned E = (code >> m) & ((1u << e) - 1), f = code & ((1u << m) - 1);
    if (top == Fnuz && neg && E == 0 && f == 0)
      return NAN; // 0x80: the only NaN, no -0
    if (top == E4M3Nan && E == (1u << e) - 1 && f == (1u << m) - 1)
      return NAN; // S.1111.111
    if (top == Ieee && E == (1u << e) - 1)
      return f ? NAN : (neg ? -INFINITY : INFINITY);
    double mag = E == 0 ? std::ldexp(double(f) / (1 << m), 1 - bias)
                        : std::ldexp(1.0 + double(f) / (1 << m), int(E) - bias);
    return neg ? -mag : mag;
  }
  /// The code of `v` (which the test picks representable).
  unsigned code(double v) const {
    for (unsigned c = 0; c < (1u << (1 + e + m)); ++c)
      if (value(c) == v && (std::signbit(value(c)) == std::signbit(v)))
        return c;
    ADD_FAILURE() << v << " not representable";
    return 0;
  }
};

// OCP 8-bit floating point specification (OFP8) rev 1.0; AMD's FNUZ
// variants (CDNA3 guide: bias one larger, 0x80 the NaN); OCP MX v1.0 for
// fp6 and fp4.
const TestFormat kOcpE4M3{4, 3, 7, TestFormat::E4M3Nan};
const TestFormat kOcpE5M2{5, 2, 15, TestFormat::Ieee};
const TestFormat kFnuzE4M3{4, 3, 8, TestFormat::Fnuz};
const TestFormat kFnuzE5M2{5, 2, 16, TestFormat::Fnuz};
const TestFormat kE2M3{2, 3, 1, TestFormat::AllFinite};
const TestFormat kE3M2{3, 2, 3, TestFormat::AllFinite};
const TestFormat kE2M1{2, 1, 1, TestFormat::AllFinite};

bool sameValue(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

//===-- Layouts
//-------------------------------------------------------------===//

/// An element position: block, row, column.
struct Pos {
  int b, r, c;
  bool operator==(const Pos &o) const {
    return b == o.b && r == o.r && c == o.c;
  }
};
/// layout[lane][slot]: the element a lane holds in its slot-th element of
/// the operand's registers (A, B: element order in the registers; C, D:
/// one per register, or per register pair for f64).
using Layout = std::vector<std::vector<Pos>>;

/// From the calculator's CSV (matrix element layout).
Layout readCsv(const std::string &n) {
  std::ifstream in(std::string(HK_MFMA_LAYOUTS_DIR) + "/" + n);
  EXPECT_TRUE(in) << n;
  Layout layout(64);
  std::regex cell(R"([ABCD]\[(\d+)\]\[(\d+)\])");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || !isdigit(static_cast<unsigned char>(line[0])))
      continue;
    int lane = std::stoi(line);
    for (auto it = std::sregex_iterator(line.begin(), line.end(), cell);
         it != std::sregex_iterator(); ++it)
      layout[lane].push_back({0, std::stoi((*it)[1]), std::stoi((*it)[2])});
  }
  return layout;
}

/// The calculator's register-to-element formulas (--detail-instruction,
/// CDNA3): A i = lane % M, A k = kpl * g + slot, block and g from lane / M
/// (blocks first); B the same with j; the transposed position for B.
Layout inputLayout(int M, int K, int blocks, bool isB) {
  int kpl = K * M * blocks / 64;
  Layout l(64);
  for (int lane = 0; lane < 64; ++lane)
    for (int s = 0; s < kpl; ++s) {
      int grp = lane / M, b = grp % blocks, g = grp / blocks, k = kpl * g + s,
          i = lane % M;
      l[lane].push_back(isB ? Pos{b, k, i} : Pos{b, i, k});
    }
  return l;
}

/// C and D: 32x32 "i = 8 (r / 4) % 32 + 4 (lane / 32) + r % 4, block r /
/// 16"; 16x16 "i = 4 (lane / 16) + r % 4, block r / 4"; 4x4 "i = r, block
/// lane / 4"; f64 16x16 "i = 4 pair + lane / 16"; f64 4x4 "i = lane / 16,
/// block (lane / 4) % 4".
Layout outputLayout(int M, int blocks, bool f64) {
  int regs = M * M * blocks / 64;
  Layout l(64);
  for (int lane = 0; lane < 64; ++lane)
    for (int r = 0; r < regs; ++r) {
      Pos p{0, 0, lane % M};
      if (f64 && M == 16)
        p.r = 4 * r + lane / 16;
      else if (f64)
        p = {(lane / 4) % 4, lane / 16, lane % 4};
      else if (M == 32)
        p = {r / 16, (8 * (r / 4)) % 32 + 4 * (lane / 32) + r % 4, lane % 32};
      else if (M == 16)
        p = {r / 4, 4 * (lane / 16) + r % 4, lane % 16};
      else
        p = {lane / 4, r, lane % 4};
      l[lane].push_back(p);
    }
  return l;
}

// The formulas agree with every CSV of the calculator kept in the tree.
TEST(IsaMatrix, LayoutFormulasMatchTheCalculatorTables) {
  struct {
    const char *stem;
    int m, k;
  } const cases[] = {{"v_mfma_f32_16x16x16_bf16", 16, 16},
                     {"v_mfma_f32_16x16x16_f16", 16, 16},
                     {"v_mfma_f32_16x16x32_fp8_fp8", 16, 32},
                     {"v_mfma_f32_16x16x4_f32", 16, 4},
                     {"v_mfma_f32_16x16x8_xf32", 16, 8},
                     {"v_mfma_f32_32x32x16_fp8_fp8", 32, 16},
                     {"v_mfma_f32_32x32x2_f32", 32, 2},
                     {"v_mfma_f32_32x32x8_bf16", 32, 8},
                     {"v_mfma_f32_32x32x8_f16", 32, 8},
                     {"v_mfma_i32_16x16x32_i8", 16, 32},
                     {"v_mfma_i32_32x32x16_i8", 32, 16}};
  for (const auto &c : cases) {
    std::string s = c.stem;
    EXPECT_EQ(readCsv(s + ".A.csv"), inputLayout(c.m, c.k, 1, false)) << s;
    EXPECT_EQ(readCsv(s + ".B.csv"), inputLayout(c.m, c.k, 1, true)) << s;
    EXPECT_EQ(readCsv(s + ".C.csv"), outputLayout(c.m, 1, false)) << s;
    EXPECT_EQ(readCsv(s + ".D.csv"), outputLayout(c.m, 1, false)) << s;
  }
}

//===-- Running one MFMA
//----------------------------------------------------===//

/// Registers of the test kernel: A at v40, B at v48, the extra operands at
/// v56 and v57, C at v64, D at v96 (C is D for an SMFMAC).
constexpr int kA = 40, kB = 48, kX = 56, kY = 57, kC = 64, kD = 96;

std::string range(int first, int count) {
  if (count == 1)
    return "v" + std::to_string(first);
  return "v[" + std::to_string(first) + ":" +
         std::to_string(first + count - 1) + "]";
}

/// Loads `count` registers from the buffer at s[sbase:sbase+1], register r
/// of lane l at byte 4 * (64 r + l) (v1 = 4 l, v2 = v1 + 4096).
std::string loads(int first, int count, int sbase) {
  std::string s;
  for (int r = 0; r < count; ++r)
    s += "global_load_dword v" + std::to_string(first + r) +
         (r < 16 ? ", v1, s[" : ", v2, s[") + std::to_string(sbase) + ":" +
         std::to_string(sbase + 1) +
         "] offset:" + std::to_string(256 * (r % 16)) + "\n";
  return s;
}

struct Regs {
  std::vector<uint32_t> a, b, x, y, c; ///< register-major: [r * 64 + lane]
  int na, nb, nc, nd;
};

/// Runs `line` ({A}, {B}, {C}, {D}, {X}, {Y} name the registers) and
/// returns D, register-major.
std::vector<uint32_t> runLine(const std::string &chip, std::string line,
                              Regs &r, bool tiedC = false) {
  int cBase = tiedC ? kD : kC;
  auto put = [&](const char *key, const std::string &v) {
    size_t at = line.find(key);
    if (at != std::string::npos)
      line.replace(at, strlen(key), v);
  };
  put("{A}", range(kA, r.na));
  put("{B}", range(kB, r.nb));
  put("{C}", range(cBase, r.nc));
  put("{D}", range(kD, r.nd));
  put("{X}", range(kX, 1));
  put("{Y}", range(kY, 1));
  r.x.resize(64);
  r.y.resize(64);
  std::vector<uint32_t> d(64 * r.nd, 0xDEADBEEF);
  std::string body = "s_load_dwordx8 s[4:11], s[0:1], 0x0\n"
                     "s_load_dwordx4 s[12:15], s[0:1], 0x20\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "v_lshlrev_b32_e32 v1, 2, v0\n"
                     "v_add_u32_e32 v2, 0x1000, v1\n" +
                     loads(kA, r.na, 4) + loads(kB, r.nb, 6) +
                     loads(cBase, r.nc, 8) + loads(kX, 1, 12) +
                     loads(kY, 1, 14) + "s_waitcnt vmcnt(0)\n" + line +
                     "\ns_nop 7\ns_nop 7\n";
  for (int q = 0; q < r.nd; ++q)
    body += "global_store_dword " + std::string(q < 16 ? "v1" : "v2") + ", v" +
            std::to_string(kD + q) +
            ", s[10:11] offset:" + std::to_string(256 * (q % 16)) + "\n";
  body += "s_waitcnt vmcnt(0)\ns_endpgm\n";
  launch(chip, body,
         {ptr(r.a.data()), ptr(r.b.data()), ptr(r.c.data()), ptr(d.data()),
          ptr(r.x.data()), ptr(r.y.data())},
         {{r.a.data(), r.a.size() * 4},
          {r.b.data(), r.b.size() * 4},
          {r.c.data(), r.c.size() * 4},
          {d.data(), d.size() * 4},
          {r.x.data(), 256},
          {r.y.data(), 256}});
  return d;
}

/// An element type as the test writes it: bits per element and the code of
/// a value.
struct Elem {
  int bits;
  std::function<uint64_t(double)> code;
  std::function<double(std::mt19937 &)> pick;
};

uint64_t f32Bits(double v) {
  float f = float(v);
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

double smallDyadic(std::mt19937 &g, int range, double scale) {
  return std::uniform_int_distribution<int>(-range, range)(g) / scale;
}

const Elem kElemF32{32, f32Bits,
                    [](std::mt19937 &g) { return smallDyadic(g, 64, 64); }};
const Elem kElemBF16{16, [](double v) { return f32Bits(v) >> 16; },
                     [](std::mt19937 &g) { return smallDyadic(g, 64, 32); }};
const Elem kElemF16{16,
                    [](double v) {
                      _Float16 h = _Float16(v);
                      uint16_t b;
                      memcpy(&b, &h, 2);
                      return uint64_t(b);
                    },
                    [](std::mt19937 &g) { return smallDyadic(g, 64, 32); }};
const Elem kElemI8{8, [](double v) { return uint64_t(uint8_t(int8_t(v))); },
                   [](std::mt19937 &g) {
                     return double(
                         std::uniform_int_distribution<int>(-128, 127)(g));
                   }};
const Elem kElemF64{64,
                    [](double v) {
                      uint64_t b;
                      memcpy(&b, &v, 8);
                      return b;
                    },
                    [](std::mt19937 &g) { return smallDyadic(g, 64, 16); }};
/// Values of E2M1, representable in every 8-bit format too.
double pickFp4(std::mt19937 &g) {
  static const double v[] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  double x = v[std::uniform_int_distribution<int>(0, 7)(g)];
  return std::uniform_int_distribution<int>(0, 1)(g) && x != 0 ? -x : x;
}
Elem narrow(const TestFormat &f) {
  return Elem{1 + f.e + f.m, [f](double v) { return uint64_t(f.code(v)); },
              pickFp4};
}

/// Packs lane-major element codes into register-major dwords.
std::vector<uint32_t> pack(const std::vector<std::vector<uint64_t>> &codes,
                           int bits, int regs) {
  std::vector<uint32_t> out(64 * regs, 0);
  for (int l = 0; l < 64; ++l)
    for (size_t s = 0; s < codes[l].size(); ++s) {
      uint64_t bit = uint64_t(s) * bits;
      for (int part = 0; part < bits; part += 32) {
        uint64_t v = codes[l][s] >> part;
        int w = int((bit + part) / 32), sh = int((bit + part) % 32);
        out[w * 64 + l] |= uint32_t(v << sh);
        if (sh + std::min(bits, 32) > 32)
          out[(w + 1) * 64 + l] |= uint32_t(v >> (32 - sh));
      }
    }
  return out;
}

/// One dense MFMA checked against float64.
struct Dense {
  std::string line;
  int M, N, K, blocks;
  Elem ea, eb;
  Layout la, lb, lc;
  bool integer = false, f64 = false;
  /// Per-element factors of A and B (the scaled MFMAs), by (row, k) and
  /// (k, col).
  std::function<double(int, int)> scaleA, scaleB;
  /// The value the hardware takes for a register value (xf32 truncation).
  std::function<double(double)> effective;
  std::function<void(Regs &)> extra; ///< sets X and Y
  /// Where the matrix core reads A block b (CBSZ/ABID) and the lane it
  /// reads B from instead of lane L (BLGP).
  std::function<int(int)> aBlock;
  std::function<int(int)> bLane;
  bool negC = false;
};

void check(const std::string &chip, const Dense &t, unsigned seed) {
  std::mt19937 g(seed);
  const int M = t.M, N = t.N, K = t.K, nb = t.blocks;
  std::vector<double> A(nb * M * K), B(nb * K * N), C(nb * M * N);
  for (double &v : A)
    v = t.ea.pick(g);
  for (double &v : B)
    v = t.eb.pick(g);
  for (double &v : C)
    v = t.f64 || !t.integer ? smallDyadic(g, 64, 8) : smallDyadic(g, 1000, 1);
  auto a = [&](const Pos &p) { return A[(p.b * M + p.r) * K + p.c]; };
  auto b = [&](const Pos &p) { return B[(p.b * K + p.r) * N + p.c]; };
  auto c = [&](const Pos &p) { return C[(p.b * M + p.r) * N + p.c]; };
  std::vector<std::vector<uint64_t>> ca(64), cb(64), cc(64);
  for (int l = 0; l < 64; ++l) {
    for (const Pos &p : t.la[l])
      ca[l].push_back(t.ea.code(a(p)));
    for (const Pos &p : t.lb[l])
      cb[l].push_back(t.eb.code(b(p)));
    for (const Pos &p : t.lc[l])
      cc[l].push_back(t.f64       ? kElemF64.code(c(p))
                      : t.integer ? uint64_t(uint32_t(int32_t(c(p))))
                                  : f32Bits(c(p)));
  }
  int cw = t.f64 ? 64 : 32;
  Regs r;
  r.na = int((t.la[0].size() * t.ea.bits + 31) / 32);
  r.nb = int((t.lb[0].size() * t.eb.bits + 31) / 32);
  r.nc = r.nd = int(t.lc[0].size() * cw / 32);
  r.a = pack(ca, t.ea.bits, r.na);
  r.b = pack(cb, t.eb.bits, r.nb);
  r.c = pack(cc, cw, r.nc);
  if (t.extra)
    t.extra(r);
  std::vector<uint32_t> d = runLine(chip, t.line, r);
  // What the matrix core multiplies: broadcasts and truncation applied.
  std::vector<double> effA(A.size()), effB(B.size());
  auto eff = [&](double v) { return t.effective ? t.effective(v) : v; };
  for (int bl = 0; bl < nb; ++bl)
    for (int i = 0; i < M * K; ++i)
      effA[bl * M * K + i] = eff(A[(t.aBlock ? t.aBlock(bl) : bl) * M * K + i]);
  for (int l = 0; l < 64; ++l)
    for (size_t s = 0; s < t.lb[l].size(); ++s) {
      int from = t.bLane ? t.bLane(l) : l;
      effB[(t.lb[l][s].b * K + t.lb[l][s].r) * N + t.lb[l][s].c] =
          eff(b(t.lb[from][s]));
    }
  for (int l = 0; l < 64; ++l)
    for (size_t s = 0; s < t.lc[l].size(); ++s) {
      const Pos &p = t.lc[l][s];
      double ref = t.negC ? -c(p) : c(p);
      for (int k = 0; k < K; ++k) {
        double x = effA[(p.b * M + p.r) * K + k],
               y = effB[(p.b * K + k) * N + p.c];
        if (t.scaleA)
          x *= t.scaleA(p.r, k);
        if (t.scaleB)
          y *= t.scaleB(k, p.c);
        ref += x * y;
      }
      SCOPED_TRACE(chip + " " + t.line + " lane " + std::to_string(l) +
                   " slot " + std::to_string(s));
      if (t.f64) {
        uint64_t bits = d[2 * s * 64 + l] | uint64_t(d[(2 * s + 1) * 64 + l])
                                                << 32;
        double v;
        memcpy(&v, &bits, 8);
        EXPECT_EQ(v, ref);
      } else if (t.integer) {
        EXPECT_EQ(int32_t(d[s * 64 + l]), int32_t(int64_t(ref)));
      } else {
        float v;
        memcpy(&v, &d[s * 64 + l], 4);
        EXPECT_EQ(v, float(ref));
      }
    }
}

/// A dense single-block or multi-block MFMA with the calculator's layouts.
Dense dense(const std::string &mnemonic, int M, int K, int blocks,
            const Elem &e, bool integer = false, bool f64 = false) {
  Dense t{mnemonic + " {D}, {A}, {B}, {C}",
          M,
          M,
          K,
          blocks,
          e,
          e,
          inputLayout(M, K, blocks, false),
          inputLayout(M, K, blocks, true),
          outputLayout(M, blocks, f64)};
  t.integer = integer;
  t.f64 = f64;
  return t;
}

// Every dense MFMA of the CDNA3 guide on both chips, against float64 with
// AMD's layouts: f32 (single and multi-block), f16, bf16 (1k), i8, f64.
TEST(IsaMatrix, DenseMfmaBothChips) {
  const std::vector<Dense> cases = {
      dense("v_mfma_f32_32x32x2_f32", 32, 2, 1, kElemF32),
      dense("v_mfma_f32_16x16x4_f32", 16, 4, 1, kElemF32),
      dense("v_mfma_f32_32x32x1_2b_f32", 32, 1, 2, kElemF32),
      dense("v_mfma_f32_16x16x1_4b_f32", 16, 1, 4, kElemF32),
      dense("v_mfma_f32_4x4x1_16b_f32", 4, 1, 16, kElemF32),
      dense("v_mfma_f32_32x32x8_f16", 32, 8, 1, kElemF16),
      dense("v_mfma_f32_16x16x16_f16", 16, 16, 1, kElemF16),
      dense("v_mfma_f32_32x32x4_2b_f16", 32, 4, 2, kElemF16),
      dense("v_mfma_f32_16x16x4_4b_f16", 16, 4, 4, kElemF16),
      dense("v_mfma_f32_4x4x4_16b_f16", 4, 4, 16, kElemF16),
      dense("v_mfma_f32_32x32x8_bf16", 32, 8, 1, kElemBF16),
      dense("v_mfma_f32_16x16x16_bf16", 16, 16, 1, kElemBF16),
      dense("v_mfma_f32_32x32x4_2b_bf16", 32, 4, 2, kElemBF16),
      dense("v_mfma_f32_16x16x4_4b_bf16", 16, 4, 4, kElemBF16),
      dense("v_mfma_f32_4x4x4_16b_bf16", 4, 4, 16, kElemBF16),
      dense("v_mfma_i32_32x32x16_i8", 32, 16, 1, kElemI8, true),
      dense("v_mfma_i32_16x16x32_i8", 16, 32, 1, kElemI8, true),
      dense("v_mfma_i32_32x32x4_2b_i8", 32, 4, 2, kElemI8, true),
      dense("v_mfma_i32_16x16x4_4b_i8", 16, 4, 4, kElemI8, true),
      dense("v_mfma_i32_4x4x4_16b_i8", 4, 4, 16, kElemI8, true),
      dense("v_mfma_f64_16x16x4_f64", 16, 4, 1, kElemF64, false, true),
      dense("v_mfma_f64_4x4x4_4b_f64", 4, 4, 4, kElemF64, false, true),
  };
  unsigned seed = 1;
  for (const char *chip : kChips)
    for (const Dense &t : cases)
      check(chip, t, seed++);
}

// gfx950's new shapes: the CDNA3 layouts extended along K (lane l holds k
// from kpl * (l / M)), which HipKittens' gfx950 kernels rely on.
TEST(IsaMatrix, Gfx950Shapes) {
  const std::vector<Dense> cases = {
      dense("v_mfma_f32_16x16x32_f16", 16, 32, 1, kElemF16),
      dense("v_mfma_f32_32x32x16_f16", 32, 16, 1, kElemF16),
      dense("v_mfma_f32_16x16x32_bf16", 16, 32, 1, kElemBF16),
      dense("v_mfma_f32_32x32x16_bf16", 32, 16, 1, kElemBF16),
      dense("v_mfma_i32_16x16x64_i8", 16, 64, 1, kElemI8, true),
      dense("v_mfma_i32_32x32x32_i8", 32, 32, 1, kElemI8, true),
  };
  unsigned seed = 100;
  for (const Dense &t : cases)
    check("gfx950", t, seed++);
}

// fp8/bf8 in all four combinations and both shapes: FNUZ on gfx942 (CDNA3
// guide), OCP on gfx950 (CDNA4 guide). The values (those of E2M1) are the
// same in every format but their codes differ, so a chip decoding the
// other format fails.
TEST(IsaMatrix, Fp8MfmaFnuzOnGfx942OcpOnGfx950) {
  unsigned seed = 200;
  for (const char *chip : kChips) {
    bool fnuz = std::string(chip) == "gfx942";
    Elem fp8 = narrow(fnuz ? kFnuzE4M3 : kOcpE4M3),
         bf8 = narrow(fnuz ? kFnuzE5M2 : kOcpE5M2);
    for (int combo = 0; combo < 4; ++combo) {
      const char *names[] = {"fp8_fp8", "fp8_bf8", "bf8_fp8", "bf8_bf8"};
      const Elem &ea = combo < 2 ? fp8 : bf8, &eb = combo % 2 ? bf8 : fp8;
      for (int M : {16, 32}) {
        int K = M == 16 ? 32 : 16;
        std::string op = "v_mfma_f32_" + std::to_string(M) + "x" +
                         std::to_string(M) + "x" + std::to_string(K) + "_" +
                         names[combo];
        Dense t = dense(op, M, K, 1, ea);
        t.eb = eb;
        check(chip, t, seed++);
      }
    }
  }
}

// xf32 (gfx942): f32 registers, the low 13 mantissa bits dropped
// (truncation toward zero: ROCm's hipBLASLt rounds its inputs before these
// MFMAs because the hardware truncates). Inputs carry a 2^-12 that is cut
// from every value of magnitude 2^-2 or more.
TEST(IsaMatrix, Xf32TruncatesToTenMantissaBits) {
  for (int M : {16, 32}) {
    int K = M == 16 ? 8 : 4;
    std::string op = "v_mfma_f32_" + std::to_string(M) + "x" +
                     std::to_string(M) + "x" + std::to_string(K) + "_xf32";
    Dense t = dense(op, M, K, 1, kElemF32);
    t.ea.pick = t.eb.pick = [](std::mt19937 &g) {
      return smallDyadic(g, 64, 64) + std::ldexp(1.0, -12);
    };
    t.effective = [](double v) {
      uint32_t b = uint32_t(f32Bits(v)) & 0xFFFFE000u;
      float f;
      memcpy(&f, &b, 4);
      return double(f);
    };
    check("gfx942", t, 300 + M);
  }
}

// The CDNA3 broadcast controls on a multi-block f32 MFMA (calculator
// README): with CBSZ c and ABID a, block b multiplies A block a of its
// group of 2^c blocks; with BLGP the matrix core reads B of lane L from
// another lane (1: L % 32, 2: 32 + L % 32, 3: (L + 16) % 64, 4-7:
// 16 (BLGP - 4) + L % 16).
TEST(IsaMatrix, BroadcastControls) {
  struct {
    int cbsz, abid, blgp;
  } const cases[] = {{1, 1, 3}, {2, 3, 6}, {0, 0, 1}, {2, 0, 2}, {1, 0, 5}};
  unsigned seed = 400;
  for (const char *chip : kChips)
    for (const auto &c : cases) {
      Dense t = dense("v_mfma_f32_16x16x1_4b_f32", 16, 1, 4, kElemF32);
      t.line += " cbsz:" + std::to_string(c.cbsz) +
                " abid:" + std::to_string(c.abid) +
                " blgp:" + std::to_string(c.blgp);
      int cbsz = c.cbsz, abid = c.abid, blgp = c.blgp;
      t.aBlock = [=](int b) { return cbsz ? (b >> cbsz << cbsz) | abid : b; };
      t.bLane = [=](int L) {
        switch (blgp) {
        case 1:
          return L % 32;
        case 2:
          return 32 + L % 32;
        case 3:
          return (L + 16) % 64;
        case 0:
          return L;
        default:
          return 16 * (blgp - 4) + L % 16;
        }
      };
      check(chip, t, seed++);
    }
}

// Accumulation registers (AGPRs) as C and D and an AGPR as A: the unified
// register file of gfx90a and later.
TEST(IsaMatrix, AccumulationRegisters) {
  for (const char *chip : kChips) {
    Dense t = dense("v_mfma_f32_32x32x8_bf16", 32, 8, 1, kElemBF16);
    std::string moves, back;
    for (int r = 0; r < 16; ++r) {
      moves += "v_accvgpr_write_b32 a" + std::to_string(r) + ", v" +
               std::to_string(kC + r) + "\n";
      back += "\nv_accvgpr_read_b32 v" + std::to_string(kD + r) + ", a" +
              std::to_string(r);
    }
    moves += "v_accvgpr_write_b32 a20, v40\nv_accvgpr_write_b32 a21, v41\n";
    t.line = moves +
             "s_nop 1\nv_mfma_f32_32x32x8_bf16 a[0:15], a[20:21], {B}, "
             "a[0:15]\ns_nop 7\ns_nop 7\ns_nop 2" +
             back + "\n// {A} {C} {D}";
    check(chip, t, 450);
  }
}

// FP64 MFMAs on CDNA3 use BLGP as negation: bit 0 A, bit 1 B, bit 2 C.
TEST(IsaMatrix, F64BlgpNegates) {
  for (const char *chip : kChips)
    for (int blgp = 1; blgp < 8; ++blgp) {
      Dense t =
          dense("v_mfma_f64_16x16x4_f64", 16, 4, 1, kElemF64, false, true);
      t.line += " neg:[" + std::to_string(blgp & 1) + "," +
                std::to_string((blgp >> 1) & 1) + "," +
                std::to_string((blgp >> 2) & 1) + "]";
      t.scaleA = [=](int, int) { return blgp & 1 ? -1.0 : 1.0; };
      t.scaleB = [=](int, int) { return blgp & 2 ? -1.0 : 1.0; };
      t.negC = blgp & 4;
      check(chip, t, 500 + blgp);
    }
}

/// The f8f6f4 forms (AMD's "Matrix Core Programming on CDNA3 and CDNA4"):
/// 8-bit operands hold k = h K / 2 + 16 (lane / M) + j in byte 16 h + j;
/// fp4 operands 32 consecutive k from 32 (lane / M).
Layout f8f6f4Layout(int M, int K, int bits, bool isB) {
  Layout l(64);
  for (int lane = 0; lane < 64; ++lane)
    for (int e = 0; e < 32; ++e) {
      int g = lane / M, i = lane % M;
      int k = bits == 8 ? (e / 16) * (K / 2) + 16 * g + e % 16 : 32 * g + e;
      l[lane].push_back(isB ? Pos{0, k, i} : Pos{0, i, k});
    }
  return l;
}

Dense f8f6f4(const std::string &op, int M, int fa, int fb) {
  int K = M == 16 ? 128 : 64;
  const TestFormat *fmts[] = {&kOcpE4M3, &kOcpE5M2, &kE2M3, &kE3M2, &kE2M1};
  Elem ea = narrow(*fmts[fa]), eb = narrow(*fmts[fb]);
  std::string name = op + "_f32_" + std::to_string(M) + "x" +
                     std::to_string(M) + "x" + std::to_string(K) + "_f8f6f4";
  Dense t{name + " {D}, {A}, {B}, {C}",
          M,
          M,
          K,
          1,
          ea,
          eb,
          f8f6f4Layout(M, K, ea.bits, false),
          f8f6f4Layout(M, K, eb.bits, true),
          outputLayout(M, 1, false)};
  t.line += " cbsz:" + std::to_string(fa) + " blgp:" + std::to_string(fb);
  return t;
}

// gfx950's f8f6f4 MFMAs without scales: CBSZ and BLGP give the A and B
// formats (0 E4M3, 1 E5M2, 2 E2M3, 3 E3M2, 4 E2M1; OCP formats). fp6
// operands hold 32 consecutive k per lane, bit-packed (element e at bits
// 6 e to 6 e + 5 of six registers), as the CDNA4 guide's scaled fp6
// conversions lay them out.
TEST(IsaMatrix, F8F6F4Unscaled) {
  unsigned seed = 600;
  for (int M : {16, 32})
    for (auto [fa, fb] : {std::pair{0, 0},
                          {1, 0},
                          {0, 1},
                          {4, 4},
                          {0, 4},
                          {4, 1},
                          {2, 2},
                          {3, 3},
                          {2, 0},
                          {4, 3},
                          {3, 1}})
      check("gfx950", f8f6f4("v_mfma", M, fa, fb), seed++);
}

// The scaled forms: the E8M0 scale of A row i and K block kb (32 columns)
// is byte op_sel of lane i + M kb of the first scale operand, that of B
// column j byte op_sel of lane j + N kb of the second (op_sel gives bit 0
// of the byte number, op_sel_hi bit 1). The other bytes hold other scales,
// so a wrong byte fails.
TEST(IsaMatrix, F8F6F4ScaledWithE8M0Scales) {
  unsigned seed = 700;
  for (int M : {16, 32})
    for (auto [fa, fb] : {std::pair{0, 0}, {0, 4}, {4, 1}, {2, 3}})
      for (int byteA : {0, 3})
        for (int byteB : {1, 2}) {
          Dense t = f8f6f4("v_mfma_scale", M, fa, fb);
          t.line =
              t.line.substr(0, t.line.find(" cbsz")) + ", {X}, {Y}" +
              " op_sel:[" + std::to_string(byteA & 1) + "," +
              std::to_string(byteB & 1) + ",0] op_sel_hi:[" +
              std::to_string(byteA >> 1) + "," + std::to_string(byteB >> 1) +
              ",0] cbsz:" + std::to_string(fa) + " blgp:" + std::to_string(fb);
          int K = t.K;
          // Scale exponents in [-3, 3], different per (row, block).
          auto expOf = [](int who, int kb, int byte) {
            return (who * 7 + kb * 5 + byte * 3) % 7 - 3;
          };
          t.scaleA = [=](int i, int k) {
            return std::ldexp(1.0, expOf(i, k / 32, byteA));
          };
          t.scaleB = [=](int k, int j) {
            return std::ldexp(1.0, expOf(j + 50, k / 32, byteB));
          };
          t.extra = [=](Regs &r) {
            r.x.assign(64, 0);
            r.y.assign(64, 0);
            for (int kb = 0; kb < K / 32; ++kb)
              for (int i = 0; i < M; ++i)
                for (int byte = 0; byte < 4; ++byte) {
                  r.x[i + M * kb] |= uint32_t(127 + expOf(i, kb, byte))
                                     << (8 * byte);
                  r.y[i + M * kb] |= uint32_t(127 + expOf(i + 50, kb, byte))
                                     << (8 * byte);
                }
          };
          check("gfx950", t, seed++);
        }
}

/// An SMFMAC (CDNA3 guide; calculator --compression): A is 4:2 sparse. Each
/// lane keeps S / 2 values of its row (S = K M / 64 columns from S (lane /
/// M)), two per group of four columns, and 4 index bits per group (bits
/// [1:0] the first value's column in the group, [3:2] the second's) in the
/// index register: the byte (16-bit types) or half (8-bit types) ABID picks.
void checkSparse(const std::string &chip, const std::string &op, int M, int K,
                 const Elem &ea, const Elem &eb, bool integer, int abid,
                 unsigned seed) {
  std::mt19937 g(seed);
  const int S = K * M / 64, per = S / 2, N = M;
  std::vector<double> A(M * K, 0), B(K * N), C(M * N);
  std::vector<std::vector<uint64_t>> ca(64), cb(64), cc(64);
  Regs r;
  r.x.assign(64, 0xA5A5A5A5u); // other index sets: garbage
  for (int l = 0; l < 64; ++l) {
    int i = l % M, base = S * (l / M);
    uint32_t idx = 0;
    for (int q = 0; q < S / 4; ++q) {
      int p0 = std::uniform_int_distribution<int>(0, 2)(g);
      int p1 = std::uniform_int_distribution<int>(p0 + 1, 3)(g);
      for (int p : {p0, p1}) {
        double v = ea.pick(g);
        A[i * K + base + 4 * q + p] = v;
        ca[l].push_back(ea.code(v));
      }
      idx |= uint32_t(p0 | p1 << 2) << (4 * q);
    }
    uint32_t mask = S == 32 ? ~0u : (1u << S) - 1;
    r.x[l] = (r.x[l] & ~(mask << (S * abid))) | idx << (S * abid);
  }
  for (double &v : B)
    v = eb.pick(g);
  for (double &v : C)
    v = integer ? smallDyadic(g, 1000, 1) : smallDyadic(g, 64, 8);
  Layout lb = inputLayout(M, K, 1, true), lc = outputLayout(M, 1, false);
  for (int l = 0; l < 64; ++l) {
    for (const Pos &p : lb[l])
      cb[l].push_back(eb.code(B[p.r * N + p.c]));
    for (const Pos &p : lc[l])
      cc[l].push_back(integer ? uint32_t(int32_t(C[p.r * N + p.c]))
                              : f32Bits(C[p.r * N + p.c]));
  }
  r.na = (per * ea.bits + 31) / 32;
  r.nb = int((lb[0].size() * eb.bits + 31) / 32);
  r.nc = r.nd = int(lc[0].size());
  r.a = pack(ca, ea.bits, r.na);
  r.b = pack(cb, eb.bits, r.nb);
  r.c = pack(cc, 32, r.nc);
  std::string line = op + " {D}, {A}, {B}, {X}" +
                     (abid ? " abid:" + std::to_string(abid) : "");
  std::vector<uint32_t> d = runLine(chip, line, r, /*tiedC=*/true);
  for (int l = 0; l < 64; ++l)
    for (size_t s = 0; s < lc[l].size(); ++s) {
      const Pos &p = lc[l][s];
      double ref = C[p.r * N + p.c];
      for (int k = 0; k < K; ++k)
        ref += A[p.r * K + k] * B[k * N + p.c];
      SCOPED_TRACE(chip + " " + line + " lane " + std::to_string(l));
      if (integer)
        EXPECT_EQ(int32_t(d[s * 64 + l]), int32_t(int64_t(ref)));
      else {
        float v;
        memcpy(&v, &d[s * 64 + l], 4);
        EXPECT_EQ(v, float(ref));
      }
    }
}

TEST(IsaMatrix, SmfmacSparsityPatterns) {
  unsigned seed = 800;
  for (const char *chip : kChips) {
    bool fnuz = std::string(chip) == "gfx942";
    Elem fp8 = narrow(fnuz ? kFnuzE4M3 : kOcpE4M3),
         bf8 = narrow(fnuz ? kFnuzE5M2 : kOcpE5M2);
    checkSparse(chip, "v_smfmac_f32_16x16x32_f16", 16, 32, kElemF16, kElemF16,
                false, 1, seed++);
    checkSparse(chip, "v_smfmac_f32_32x32x16_f16", 32, 16, kElemF16, kElemF16,
                false, 3, seed++);
    checkSparse(chip, "v_smfmac_f32_16x16x32_bf16", 16, 32, kElemBF16,
                kElemBF16, false, 2, seed++);
    checkSparse(chip, "v_smfmac_f32_32x32x16_bf16", 32, 16, kElemBF16,
                kElemBF16, false, 0, seed++);
    checkSparse(chip, "v_smfmac_i32_16x16x64_i8", 16, 64, kElemI8, kElemI8,
                true, 1, seed++);
    checkSparse(chip, "v_smfmac_i32_32x32x32_i8", 32, 32, kElemI8, kElemI8,
                true, 0, seed++);
    checkSparse(chip, "v_smfmac_f32_16x16x64_fp8_bf8", 16, 64, fp8, bf8, false,
                1, seed++);
    checkSparse(chip, "v_smfmac_f32_32x32x32_bf8_fp8", 32, 32, bf8, fp8, false,
                0, seed++);
  }
  // gfx950's doubled K, with the same layout rule: 16 or 32 index bits.
  Elem fp8 = narrow(kOcpE4M3), bf8 = narrow(kOcpE5M2);
  checkSparse("gfx950", "v_smfmac_f32_16x16x64_f16", 16, 64, kElemF16, kElemF16,
              false, 1, seed++);
  checkSparse("gfx950", "v_smfmac_f32_32x32x32_bf16", 32, 32, kElemBF16,
              kElemBF16, false, 0, seed++);
  checkSparse("gfx950", "v_smfmac_i32_16x16x128_i8", 16, 128, kElemI8, kElemI8,
              true, 0, seed++);
  checkSparse("gfx950", "v_smfmac_f32_32x32x64_fp8_bf8", 32, 64, fp8, bf8,
              false, 0, seed++);
}

// The four 8-bit float formats, every code, against decoders written here
// from the definitions (and E2M3, E3M2, E2M1, E8M0).
TEST(IsaMatrix, NarrowFormatsDecodeEveryCode) {
  struct {
    const TestFormat &test;
    const hk::fmt::Format &sim;
    unsigned codes;
  } const cases[] = {{kOcpE4M3, hk::fmt::kE4M3, 256},
                     {kOcpE5M2, hk::fmt::kE5M2, 256},
                     {kFnuzE4M3, hk::fmt::kE4M3Fnuz, 256},
                     {kFnuzE5M2, hk::fmt::kE5M2Fnuz, 256},
                     {kE2M3, hk::fmt::kE2M3, 64},
                     {kE3M2, hk::fmt::kE3M2, 64},
                     {kE2M1, hk::fmt::kE2M1, 16}};
  for (const auto &c : cases)
    for (unsigned code = 0; code < c.codes; ++code)
      EXPECT_TRUE(sameValue(hk::fmt::decode(code, c.sim), c.test.value(code)))
          << "code " << code << " e" << c.test.e << "m" << c.test.m << " bias "
          << c.test.bias;
  // Spot values from the OCP and AMD definitions.
  EXPECT_EQ(kOcpE4M3.value(0x7E), 448.0);
  EXPECT_EQ(kFnuzE4M3.value(0x7F), 240.0);
  EXPECT_EQ(kOcpE5M2.value(0x7B), 57344.0);
  EXPECT_EQ(kFnuzE5M2.value(0x7F), 57344.0);
  EXPECT_EQ(kOcpE4M3.value(0x01), std::ldexp(1.0, -9));
  EXPECT_EQ(kFnuzE4M3.value(0x01), std::ldexp(1.0, -10));
  for (unsigned e = 0; e < 255; ++e)
    EXPECT_EQ(hk::fmt::decodeE8M0(uint8_t(e)), std::ldexp(1.0f, int(e) - 127));
  EXPECT_TRUE(std::isnan(hk::fmt::decodeE8M0(0xFF)));
}

// Through the MFMA: every finite code of A, picked out by a B of ones, on
// both chips (FNUZ on gfx942, OCP on gfx950): D[i][j] = A[i][2 j].
TEST(IsaMatrix, Fp8MfmaReadsEveryFiniteCode) {
  for (const char *chip : kChips)
    for (bool bf8 : {false, true}) {
      bool fnuz = std::string(chip) == "gfx942";
      const TestFormat &f =
          bf8 ? (fnuz ? kFnuzE5M2 : kOcpE5M2) : (fnuz ? kFnuzE4M3 : kOcpE4M3);
      Layout la = inputLayout(16, 32, 1, false),
             lb = inputLayout(16, 32, 1, true), ld = outputLayout(16, 1, false);
      auto codeAt = [](int i, int k) { return k % 2 ? -1 : i * 16 + k / 2; };
      std::vector<std::vector<uint64_t>> ca(64), cb(64), cc(64);
      unsigned one = f.code(1.0);
      for (int l = 0; l < 64; ++l) {
        for (const Pos &p : la[l]) {
          int c = codeAt(p.r, p.c);
          bool finite = c >= 0 && std::isfinite(f.value(unsigned(c)));
          ca[l].push_back(finite ? unsigned(c) : 0);
        }
        for (const Pos &p : lb[l])
          cb[l].push_back(p.r == 2 * p.c ? one : 0);
        for (size_t s = 0; s < ld[l].size(); ++s)
          cc[l].push_back(0);
      }
      Regs r;
      r.na = r.nb = 2;
      r.nc = r.nd = 4;
      r.a = pack(ca, 8, 2);
      r.b = pack(cb, 8, 2);
      r.c = pack(cc, 32, 4);
      std::string op =
          bf8 ? "v_mfma_f32_16x16x32_bf8_bf8" : "v_mfma_f32_16x16x32_fp8_fp8";
      std::vector<uint32_t> d = runLine(chip, op + " {D}, {A}, {B}, {C}", r);
      for (int l = 0; l < 64; ++l)
        for (size_t s = 0; s < 4; ++s) {
          const Pos &p = ld[l][s];
          unsigned c = unsigned(p.r * 16 + p.c);
          double want = std::isfinite(f.value(c)) ? f.value(c) : 0.0;
          float v;
          memcpy(&v, &d[s * 64 + l], 4);
          EXPECT_EQ(v, float(want)) << chip << " " << op << " code " << c;
        }
    }
}

std::string mfmaFault(const std::string &chip, const std::string &line) {
  std::vector<uint32_t> buf(64);
  try {
    launch(chip, line + "\ns_endpgm\n", {ptr(buf.data())},
           {{buf.data(), 4 * buf.size()}});
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), HKRT_ERROR_KERNEL_FAULT);
    return e.what();
  }
  return "";
}

// Controls the instruction does not define and a partial EXEC are named
// faults, not guesses.
TEST(IsaMatrix, UnmodelledControlsAreFaults) {
  std::string f = mfmaFault("gfx942", "v_mfma_f32_16x16x16_bf16 v[0:3], "
                                      "v[4:5], v[6:7], v[0:3] cbsz:1 abid:1");
  EXPECT_NE(f.find("cbsz:1 abid:1 blgp:0 on this MFMA is not simulated"),
            std::string::npos)
      << f;
  f = mfmaFault("gfx950", "v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], "
                          "v[8:11], v[0:3] blgp:2");
  EXPECT_NE(f.find("cbsz:0 abid:0 blgp:2 on this MFMA is not simulated"),
            std::string::npos)
      << f;
  f = mfmaFault("gfx942", "v_mov_b32 v8, 0\ns_mov_b64 exec, 1\n"
                          "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], "
                          "v[0:3]");
  EXPECT_NE(f.find("MFMA with lanes off in EXEC is not simulated"),
            std::string::npos)
      << f;
}

} // namespace
