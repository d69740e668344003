//===- Coverage.cpp - which AMDGPU opcodes the ISA simulator runs --------===//
//
// The opcodes of a chip are found by sweeping encodings through its MC
// disassembler (RawDecoder, Decoder.cpp). The field positions are those of
// the GFX9 family's microcode formats (AMD's CDNA3 and CDNA4 ISA reference
// guides, "Microcode Formats"; LLVM's SOPInstructions.td, SMInstructions.td,
// VOP*Instructions.td, DSInstructions.td, BUFInstructions.td and
// FLATInstructions.td encode the same bits). Whether the simulator runs an
// opcode is decided by its own decoder: the swept encodings of each opcode
// are put into a code object and decoded as a kernel's would be.
//===----------------------------------------------------------------------===//

#include "Coverage.h"
#include "Internal.h"

#include "hk/Base/Chip.h"
#include "hk/Base/Error.h"

#include "llvm/BinaryFormat/ELF.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace hk::rt;
using namespace hk::rt::isa;

namespace {

/// Source operand codes of the 9-bit (VOP3) and 8/9-bit (VOP1/2/C) source
/// fields: v0, a literal dword follows, an SDWA or DPP dword follows.
constexpr uint32_t kV0 = 0x100, kLiteral = 0xFF, kSdwa = 0xF9, kDpp = 0xFA;
/// A literal (1.0f) after every swept word; read only by forms with one.
constexpr uint32_t kOne = 0x3F800000;
/// VOP3/VOP3P second dword with src0 = src1 = src2 = v0.
constexpr uint32_t kVvv = kV0 | kV0 << 9 | kV0 << 18;
/// s_nop 0, put between the samples of a coverage code object.
constexpr uint32_t kSNop = 0xBF800000;

/// What one format's sweep ORs into the first two dwords with each opcode.
struct Variant {
  uint32_t word0, word1;
};

/// An encoding format: its identifying top bits, its opcode field and the
/// variants of the other fields swept with every opcode value.
struct Format {
  const char *family;
  unsigned topBits; ///< how many top bits of dword 0 identify the format
  uint32_t fixed;   ///< their value
  unsigned opShift, opBits;
  std::vector<Variant> variants;
  /// Opcode values from here on give another format's identifying bits
  /// (SOP2 0x60: SOPK's 1011; SOPK 0x1D: SOP1's 0x17D; VOP2 0x3E: VOPC's
  /// 0x3E; VOP3 0x380: VOP3P's 0x1A7); 0: none do.
  uint32_t opEnd = 0;
};

/// VOP1, VOP2, VOPC (src0 [8:0]): a VGPR, an SGPR, a literal, SDWA (second
/// dword: src0 v0, dst_sel, src0_sel, src1_sel DWORD; for VOPC sdst 0) and
/// DPP (second dword: quad_perm identity, and row_newbcast:0, which gfx90a
/// and later take for 64-bit operands; row and bank masks 0xF).
std::vector<Variant> vopVariants() {
  return {{kV0, kOne},         {0, kOne},           {kLiteral, kOne},
          {kSdwa, 0x06060600}, {kSdwa, 0x06060000}, {kDpp, 0xFF00E400},
          {kDpp, 0xFF015000}};
}

/// SOP*: sources s0, a literal, the constant 0.
std::vector<Variant> sopVariants() {
  return {{0, kOne}, {kLiteral, kOne}, {0x80, kOne}};
}

/// MUBUF: offen [12], idxen [13], glc [14] (an atomic returns), lds [16];
/// acc [55]; soffset [63:56] the constant 0.
std::vector<Variant> mubufVariants() {
  std::vector<Variant> v;
  for (uint32_t acc : {0u, 1u << 23})
    for (uint32_t lds : {0u, 1u << 16})
      for (uint32_t glc : {0u, 1u << 14})
        for (uint32_t addr : {0u, 1u << 12, 1u << 13, 3u << 12})
          v.push_back({addr | glc | lds, 0x80000000u | acc});
  return v;
}

/// MTBUF: offen [12], idxen [13], dfmt [22:19] 0 or 32-bit.
std::vector<Variant> mtbufVariants() {
  std::vector<Variant> v;
  for (uint32_t dfmt : {0u, 4u << 19})
    for (uint32_t addr : {0u, 1u << 12, 1u << 13, 3u << 12})
      v.push_back({addr | dfmt, 0x80000000u});
  return v;
}

/// FLAT, GLOBAL, SCRATCH: bit 13 (lds, or sve for scratch on gfx940 and
/// later), seg [15:14], glc [16] (an atomic returns); saddr [54:48] off
/// (0x7F) or s[0:1]; acc [55].
std::vector<Variant> flatVariants() {
  std::vector<Variant> v;
  for (uint32_t seg : {0u, 1u, 2u})
    for (uint32_t glc : {0u, 1u << 16})
      for (uint32_t bit13 : {0u, 1u << 13})
        for (uint32_t saddr : {0x7Fu << 16, 0u})
          for (uint32_t acc : {0u, 1u << 23})
            v.push_back({seg << 14 | glc | bit13, saddr | acc});
  return v;
}

/// SMEM: glc [16] (an atomic returns), imm [17], soe [14]; offset [84:64]
/// 0, soffset [95:89] s2.
std::vector<Variant> smemVariants() {
  std::vector<Variant> v;
  for (uint32_t imm : {1u << 17, 0u})
    for (uint32_t soe : {0u, 1u << 14})
      for (uint32_t glc : {0u, 1u << 16})
        v.push_back({imm | soe | glc, soe ? 2u << 25 : 0u});
  return v;
}

/// VOP3P: the assembler's default op_sel_hi [14], [60:59]; MFMA with C and
/// D in VGPRs, in AGPRs (acc_cd [15]), A and B in AGPRs (acc [60:59]); and
/// each cbsz [10:8] and blgp [63:61] of 0-4, which select the operand
/// formats of gfx950's F8F6F4 MFMAs (separate opcodes to LLVM).
std::vector<Variant> vop3pVariants() {
  std::vector<Variant> v = {{1u << 14, kVvv | 3u << 27},
                            {0, kVvv},
                            {1u << 15, kVvv},
                            {1u << 15, kVvv | 3u << 27}};
  for (uint32_t cbsz = 0; cbsz <= 4; ++cbsz)
    for (uint32_t blgp = 0; blgp <= 4; ++blgp)
      v.push_back({cbsz << 8, kVvv | blgp << 29});
  return v;
}

const std::vector<Format> &formats() {
  static const std::vector<Format> all = {
      {"SOP2", 2, 0x80000000, 23, 7, sopVariants(), 0x60},
      {"SOPK", 4, 0xB0000000, 23, 5, sopVariants(), 0x1D},
      {"SOP1", 9, 0xBE800000, 8, 8, sopVariants()},
      {"SOPC", 9, 0xBF000000, 16, 7, sopVariants()},
      {"SOPP", 9, 0xBF800000, 16, 7, {{0, kOne}, {1, kOne}}},
      {"SMEM", 6, 0xC0000000, 18, 8, smemVariants()},
      {"VOP2", 1, 0x00000000, 25, 6, vopVariants(), 0x3E},
      {"VOP1", 7, 0x7E000000, 9, 8, vopVariants()},
      {"VOPC", 7, 0x7C000000, 17, 8, vopVariants()},
      {"VOP3P", 9, 0xD3800000, 16, 7, vop3pVariants()},
      // Sources all VGPRs, all SGPRs, and mixed (readlane, writelane).
      {"VOP3",
       6,
       0xD0000000,
       16,
       10,
       {{0, kVvv}, {0, 0}, {0, kV0 | kV0 << 18}, {0, kV0 << 9 | kV0 << 18}},
       0x380},
      // acc [25] selects AGPR data; gds [16] (GWS opcodes need it).
      {"DS", 6, 0xD8000000, 17, 8, {{0, 0}, {1u << 25, 0}, {1u << 16, 0}}},
      {"MUBUF", 6, 0xE0000000, 18, 7, mubufVariants()},
      {"MTBUF", 6, 0xE8000000, 15, 4, mtbufVariants()},
      {"FLAT", 6, 0xDC000000, 18, 7, flatVariants()},
      {"MIMG", 6, 0xF0000000, 18, 7, {{0, 0}, {0xF00, 0}}},
      {"EXP", 6, 0xC4000000, 0, 0, {{0, 0}, {0xF, 0}}},
      {"VINTRP", 6, 0xD4000000, 16, 2, {{0, 0}}},
  };
  return all;
}

/// Encodings LLVM 22's AMDGPU disassembler crashes on (it is not asked
/// to decode them; the sweep loses no opcode by it, since these fields do
/// not select opcodes): MUBUF and MTBUF with soffset [63:56] 0xFF, a
/// literal those formats cannot have; VOP3 and VOP3P with a literal source
/// (0xFF in src0/1/2); VOPC in VOP3 (op below 0x100) with 0xFF in its SGPR
/// destination [7:0]; VOP3P with an A or B source that is no VGPR, or with
/// cbsz [10:8] or blgp [63:61] above 4, which name no operand format of
/// gfx950's F8F6F4 MFMAs (the CDNA4 guide's MFMA format table).
bool crashesDisassembler(const uint32_t (&words)[6]) {
  uint32_t top6 = words[0] >> 26;
  if ((top6 == 0x38 || top6 == 0x3A) && (words[1] >> 24) == 0xFF)
    return true;
  for (unsigned k = 0; k < 4; k += 2) {
    bool vop3 = (words[k] >> 26) == 0x34, vop3p = (words[k] >> 23) == 0x1A7;
    if (!vop3 && !vop3p)
      continue;
    uint32_t w = words[k + 1];
    uint32_t src0 = w & 0x1FF, src1 = (w >> 9) & 0x1FF, src2 = w >> 18 & 0x1FF;
    if (src0 == kLiteral || src1 == kLiteral || src2 == kLiteral)
      return true;
    if (vop3 && ((words[k] >> 16) & 0x3FF) < 0x100 && (words[k] & 0xFF) == 0xFF)
      return true;
    if (vop3p && (src0 < kV0 || src1 < kV0 || ((words[k] >> 8) & 7) > 4 ||
                  (w >> 29) > 4))
      return true;
    if (k == 0 && !vop3p)
      break;
  }
  return false;
}

/// The format whose identifying bits dword 0 has, the most specific one
/// (SOPK before SOP2, VOP3P before VOP3), or "random".
const char *formatOf(uint32_t word0) {
  const Format *best = nullptr;
  for (const Format &f : formats()) {
    uint32_t mask = ~0u << (32 - f.topBits);
    if ((word0 & mask) == f.fixed && (!best || f.topBits > best->topBits))
      best = &f;
  }
  return best ? best->family : "random";
}

/// One encoding the disassembler accepted.
struct Sample {
  std::string bytes;
  std::string format;
};

/// The sweep's result: MCInstrInfo name -> encodings of it (at most
/// kMaxSamples, from the format sweep when it found the opcode).
struct Found {
  static constexpr size_t kMaxSamples = 3;
  std::map<std::string, std::vector<Sample>> byName;
  std::set<std::string> onlyRandom;
};

class Sweeper {
public:
  explicit Sweeper(const std::string &chip) : decoder(chip) {}

  /// Decodes `words` and records the opcode it gives; returns its size in
  /// bytes, 0 if the words do not decode.
  uint64_t tryWords(const uint32_t (&words)[6], const char *format,
                    bool random) {
    uint64_t size = 0;
    if (crashesDisassembler(words))
      return 0;
    std::string name = decoder.decode(reinterpret_cast<const uint8_t *>(words),
                                      sizeof(words), size);
    if (name.empty() || size > sizeof(words))
      return 0;
    auto [it, inserted] = found.byName.try_emplace(name);
    if (inserted && random)
      found.onlyRandom.insert(name);
    if (it->second.size() < Found::kMaxSamples && (!random || inserted))
      it->second.push_back(
          {std::string(reinterpret_cast<const char *>(words), size), format});
    return size;
  }

  void sweepFormats() {
    for (const Format &f : formats())
      for (uint32_t op = 0; op < (f.opEnd ? f.opEnd : 1u << f.opBits); ++op)
        for (const Variant &v : f.variants) {
          uint32_t words[6] = {f.fixed | op << f.opShift | v.word0,
                               v.word1,
                               kOne,
                               kOne,
                               kOne,
                               kOne};
          tryWords(words, f.family, false);
        }
  }

  /// gfx950's scaled MFMA: a VOP3P v_mfma_ld_scale_b32 prefix and an MFMA
  /// with bit 11 set, decoded as one 128-bit instruction; each pair that
  /// decodes so is swept again with every cbsz and blgp of 0-4 (the
  /// operand formats, separate opcodes to LLVM).
  void sweepPairs() {
    for (uint32_t a = 0; a < 128; ++a)
      for (uint32_t b = 0; b < 128; ++b) {
        uint32_t words[6] = {0xD3800000 | a << 16,
                             kV0 | kV0 << 9,
                             0xD3800000 | b << 16 | 1u << 11,
                             kVvv,
                             kOne,
                             kOne};
        if (tryWords(words, "VOP3P", false) != 16)
          continue;
        for (uint32_t cbsz = 0; cbsz <= 4; ++cbsz)
          for (uint32_t blgp = 0; blgp <= 4; ++blgp) {
            words[2] = 0xD3800000 | b << 16 | 1u << 11 | cbsz << 8;
            words[3] = kVvv | blgp << 29;
            tryWords(words, "VOP3P", false);
          }
      }
  }

  /// Random fields under each format's identifying bits, and some words
  /// entirely random.
  void sweepRandom(uint64_t count, uint64_t seed) {
    std::mt19937_64 rng(seed);
    const std::vector<Format> &all = formats();
    for (uint64_t n = 0; n < count; ++n) {
      uint32_t words[6];
      for (uint32_t &w : words)
        w = uint32_t(rng());
      if (n % 8 != 0) {
        const Format &f = all[rng() % all.size()];
        uint32_t mask = ~0u << (32 - f.topBits);
        words[0] = f.fixed | (words[0] & ~mask);
      }
      tryWords(words, formatOf(words[0]), true);
    }
  }

  RawDecoder decoder;
  Found found;
};

bool startsWith(const std::string &s, const char *prefix) {
  return s.rfind(prefix, 0) == 0;
}

bool endsWith(const std::string &s, const char *suffix) {
  size_t n = strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

/// The family of an opcode found in `format`'s sweep.
std::string familyOf(const std::string &base, const std::string &format) {
  if (endsWith(base, "_sdwa"))
    return "SDWA";
  if (endsWith(base, "_dpp"))
    return "DPP";
  if (startsWith(base, "V_MFMA_"))
    return "MFMA";
  if (startsWith(base, "V_SMFMAC_"))
    return "SMFMAC";
  if (startsWith(base, "GLOBAL_"))
    return "GLOBAL";
  if (startsWith(base, "SCRATCH_"))
    return "SCRATCH";
  if (startsWith(base, "FLAT_"))
    return "FLAT";
  if (startsWith(base, "TBUFFER_"))
    return "MTBUF";
  if (startsWith(base, "V_INTERP_"))
    return "VINTRP";
  if (format == "random")
    return "other";
  return format;
}

/// Why an opcode is left out of the coverage, or "".
std::string exclusionOf(const std::string &base, const std::string &family) {
  if (family == "MIMG")
    return "image instructions (graphics)";
  if (family == "EXP")
    return "exports to render targets (graphics)";
  if (family == "VINTRP")
    return "attribute interpolation (graphics)";
  if (family == "MTBUF" ||
      (family == "MUBUF" && base.find("_FORMAT_") != std::string::npos))
    return "typed buffer formats (data converted by the resource's format; "
           "hk emits none)";
  if (startsWith(base, "DS_GWS_"))
    return "global wave sync (GDS)";
  if (base == "DS_ORDERED_COUNT")
    return "ordered append (GDS, graphics ordering)";
  return "";
}

void put32(std::string &out, uint32_t w) {
  out.append(reinterpret_cast<const char *>(&w), 4);
}

/// A relocatable AMDGPU ELF whose .text is `text`, for loadCodeObject.
std::string elfWithText(const std::string &text, const std::string &chip) {
  namespace elf = llvm::ELF;
  const char names[] = "\0.text\0.shstrtab";
  size_t textOffset = sizeof(elf::Elf64_Ehdr);
  size_t namesOffset = textOffset + text.size();
  size_t headersOffset = (namesOffset + sizeof(names) + 7) & ~size_t(7);
  elf::Elf64_Ehdr eh;
  memset(&eh, 0, sizeof(eh));
  memcpy(eh.e_ident, elf::ElfMagic, 4);
  eh.e_ident[elf::EI_CLASS] = elf::ELFCLASS64;
  eh.e_ident[elf::EI_DATA] = elf::ELFDATA2LSB;
  eh.e_ident[elf::EI_VERSION] = elf::EV_CURRENT;
  eh.e_ident[elf::EI_OSABI] = elf::ELFOSABI_AMDGPU_HSA;
  eh.e_type = elf::ET_REL;
  eh.e_machine = elf::EM_AMDGPU;
  eh.e_version = elf::EV_CURRENT;
  eh.e_flags = hk::lookupChip(chip)->elfMach;
  eh.e_ehsize = sizeof(eh);
  eh.e_shentsize = sizeof(elf::Elf64_Shdr);
  eh.e_shnum = 3;
  eh.e_shstrndx = 2;
  eh.e_shoff = headersOffset;
  elf::Elf64_Shdr sh[3];
  memset(sh, 0, sizeof(sh));
  sh[1].sh_name = 1;
  sh[1].sh_type = elf::SHT_PROGBITS;
  sh[1].sh_flags = elf::SHF_ALLOC | elf::SHF_EXECINSTR;
  sh[1].sh_offset = textOffset;
  sh[1].sh_size = text.size();
  sh[1].sh_addralign = 4;
  sh[2].sh_name = 7;
  sh[2].sh_type = elf::SHT_STRTAB;
  sh[2].sh_offset = namesOffset;
  sh[2].sh_size = sizeof(names);
  sh[2].sh_addralign = 1;
  std::string out(reinterpret_cast<const char *>(&eh), sizeof(eh));
  out += text;
  out.append(names, sizeof(names));
  out.resize(headersOffset, '\0');
  out.append(reinterpret_cast<const char *>(sh), sizeof(sh));
  return out;
}

/// How the simulator's decoder takes one decoded instruction: "" when it
/// runs it, else why not.
std::string verdict(const Inst &inst) {
  const Semantics &table = semanticsTable();
  if (inst.fn == table.undecodable)
    return "LLVM's disassembler cannot decode it";
  if (inst.fn == table.unknown)
    return "instruction " + inst.name + " is not simulated";
  if (inst.fn == table.unsupportedOperand)
    return inst.fault;
  return "";
}

/// Opcode results from the swept samples, decoded by the simulator.
std::vector<OpcodeCoverage> judge(const Found &found, const std::string &chip) {
  std::string text;
  std::vector<std::pair<size_t, const std::string *>> at; // offset, name
  for (const auto &[name, samples] : found.byName)
    for (const Sample &s : samples) {
      at.emplace_back(text.size(), &name);
      text += s.bytes;
      put32(text, kSNop);
    }
  std::shared_ptr<const CodeObject> code =
      loadCodeObject(elfWithText(text, chip), chip);
  std::map<std::string, OpcodeCoverage> byBase;
  for (const auto &[offset, name] : at) {
    // The AGPR data forms of memory instructions (*_agpr) share the
    // semantics of their VGPR forms (Decoder.cpp's base name drops the
    // suffix) but are opcodes of their own in LLVM's tables: counted apart.
    std::string base = opcodeBaseName(*name);
    if (name->find("_agpr") != std::string::npos)
      base += "_agpr";
    OpcodeCoverage &c = byBase[base];
    bool random = found.onlyRandom.count(*name) != 0;
    if (c.name.empty() || (c.random && !random)) {
      c.name = base;
      c.family = familyOf(base, found.byName.at(*name).front().format);
      c.excluded = exclusionOf(base, c.family);
      c.random = random;
    }
    int32_t index = code->indexOf(code->textBase + offset);
    if (index < 0 || code->insts[size_t(index)].name != *name) {
      if (c.why.empty() && !c.covered)
        c.why = "the sample decodes differently inside a code object";
      continue;
    }
    const Inst &inst = code->insts[size_t(index)];
    if (c.sample.empty())
      c.sample = inst.text;
    std::string why = verdict(inst);
    if (why.empty()) {
      c.covered = true;
      c.why.clear();
      c.sample = inst.text;
    } else if (!c.covered && c.why.empty()) {
      c.why = why;
    }
  }
  std::vector<OpcodeCoverage> out;
  for (auto &[base, c] : byBase)
    out.push_back(std::move(c));
  return out;
}

/// LLVM's MC layer aborts on a processor it does not know: the chip is
/// checked first.
void requireChip(const std::string &chip) {
  if (!hk::lookupChip(chip))
    throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                "unknown chip '" + chip +
                    "'; supported: " + hk::supportedChipNames());
}

} // namespace

const std::vector<std::string> &hk::rt::isa::coverageFamilies() {
  static const std::vector<std::string> all = {
      "SOP1",  "SOP2",   "SOPC", "SOPK",    "SOPP", "SMEM",   "VOP1",
      "VOP2",  "VOPC",   "VOP3", "VOP3P",   "SDWA", "DPP",    "DS",
      "MUBUF", "GLOBAL", "FLAT", "SCRATCH", "MFMA", "SMFMAC", "other",
      "MTBUF", "MIMG",   "EXP",  "VINTRP"};
  return all;
}

std::vector<OpcodeCoverage>
hk::rt::isa::opcodeCoverage(const std::string &chip,
                            const SweepOptions &options) {
  requireChip(chip);
  Sweeper sweeper(chip);
  sweeper.sweepFormats();
  sweeper.sweepPairs();
  sweeper.sweepRandom(options.randomEncodings, options.seed);
  std::vector<OpcodeCoverage> out = judge(sweeper.found, chip);
  const std::vector<std::string> &order = coverageFamilies();
  auto rank = [&](const OpcodeCoverage &c) {
    return std::find(order.begin(), order.end(), c.family) - order.begin();
  };
  std::sort(out.begin(), out.end(),
            [&](const OpcodeCoverage &a, const OpcodeCoverage &b) {
              if (rank(a) != rank(b))
                return rank(a) < rank(b);
              return a.name < b.name;
            });
  return out;
}

std::vector<Unsimulated>
hk::rt::isa::unsimulatedInstructions(const std::string &elf,
                                     const std::string &chip, size_t &total) {
  requireChip(chip);
  std::shared_ptr<const CodeObject> code = loadCodeObject(elf, chip);
  std::vector<Unsimulated> out;
  total = code->insts.size();
  for (const Inst &inst : code->insts) {
    std::string why = verdict(inst);
    if (why.empty())
      continue;
    Unsimulated u;
    u.pc = inst.pc;
    u.opcode =
        inst.name == "<undecodable>" ? inst.name : opcodeBaseName(inst.name);
    u.text = inst.text;
    u.why = why;
    out.push_back(std::move(u));
  }
  return out;
}
