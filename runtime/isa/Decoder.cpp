//===- Decoder.cpp - code objects decoded by LLVM's AMDGPU disassembler ---===//
//
// The .text section is decoded once per code object, front to back, with
// the MC disassembler of the chip; each instruction keeps its opcode name
// (MCInstrInfo), its printed form for messages, its operands sorted into
// definitions, sources (with their input modifiers) and other immediates,
// and the semantic function of its opcode (Semantics.cpp). No encoding is
// interpreted here: operand meaning comes from the MC layer.
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "hk/Base/Error.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <mutex>

using namespace hk::rt;
using namespace hk::rt::isa;

namespace {

/// The MC operand type of a VOP3/VOP3P source's input modifiers
/// (AMDGPU::OPERAND_INPUT_MODS of LLVM 22's SIDefines.h); checked against a
/// known encoding when a decoder is created.
constexpr uint8_t kInputModsOperandType = 45;

struct McObjects {
  llvm::Triple triple{"amdgcn-amd-amdhsa"};
  const llvm::Target *target = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCSubtargetInfo> sti;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<llvm::MCContext> ctx;
  std::unique_ptr<llvm::MCDisassembler> disassembler;
  std::unique_ptr<llvm::MCInstPrinter> printer;
};

void initializeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
  });
}

std::unique_ptr<McObjects> createMc(const std::string &chip) {
  initializeTarget();
  auto mc = std::make_unique<McObjects>();
  std::string error;
  mc->target = llvm::TargetRegistry::lookupTarget(mc->triple, error);
  if (!mc->target)
    throw Error(HKRT_ERROR_UNSUPPORTED, "LLVM has no AMDGPU target: " + error);
  mc->mri.reset(mc->target->createMCRegInfo(mc->triple));
  llvm::MCTargetOptions options;
  mc->mai.reset(mc->target->createMCAsmInfo(*mc->mri, mc->triple, options));
  mc->sti.reset(mc->target->createMCSubtargetInfo(mc->triple, chip, ""));
  mc->mii.reset(mc->target->createMCInstrInfo());
  if (!mc->mri || !mc->mai || !mc->sti || !mc->mii || mc->sti->getCPU() != chip)
    throw Error(HKRT_ERROR_UNSUPPORTED,
                "LLVM's AMDGPU target cannot model " + chip);
  mc->ctx = std::make_unique<llvm::MCContext>(mc->triple, mc->mai.get(),
                                              mc->mri.get(), mc->sti.get());
  mc->disassembler.reset(mc->target->createMCDisassembler(*mc->sti, *mc->ctx));
  mc->printer.reset(mc->target->createMCInstPrinter(mc->triple, 0, *mc->mai,
                                                    *mc->mii, *mc->mri));
  if (!mc->disassembler || !mc->printer)
    throw Error(HKRT_ERROR_UNSUPPORTED,
                "LLVM's AMDGPU target has no disassembler for " + chip);
  return mc;
}

/// The opcode name without its encoding-family suffixes
/// (V_ADD_U32_e32_gfx9 -> V_ADD_U32_e32, V_MFMA_..._gfx940_acd -> V_MFMA_...).
/// `_agpr` names the memory forms whose data operand is an AGPR tuple
/// (DS_READ_B32_vi_agpr, GLOBAL_LOAD_DWORD_agpr): the operand decodes into
/// the accumulation registers and the semantics are those of the VGPR form.
std::string baseName(llvm::StringRef name) {
  static const char *const suffixes[] = {"_acd",    "_vcd",    "_vi",
                                         "_gfx9",   "_gfx90a", "_gfx940",
                                         "_gfx950", "_gfx942", "_agpr"};
  bool changed = true;
  while (changed) {
    changed = false;
    for (const char *s : suffixes)
      if (name.consume_back(s))
        changed = true;
  }
  return name.str();
}

/// A register operand in the simulator's numbering, or a reason it is not
/// simulated.
std::string registerOperand(const llvm::MCRegisterInfo &mri, unsigned reg,
                            Operand &out) {
  llvm::StringRef name = mri.getName(reg);
  auto tuple = [&](llvm::StringRef prefix, File file, unsigned base) {
    if (!name.starts_with(prefix))
      return false;
    unsigned first = 0;
    name.drop_front(prefix.size())
        .take_while([](char c) { return c >= '0' && c <= '9'; })
        .getAsInteger(10, first);
    out.file = file;
    out.reg = uint16_t(base + first);
    out.width = uint8_t(name.count('_') + 1);
    return true;
  };
  if (tuple("SGPR", File::S, 0) || tuple("VGPR", File::V, 0) ||
      tuple("AGPR", File::V, kAgprBase))
    return "";
  struct Special {
    const char *name;
    uint16_t reg;
    uint8_t width;
  };
  static const Special specials[] = {{"VCC", kVcc, 2},
                                     {"VCC_LO", kVcc, 1},
                                     {"VCC_HI", kVcc + 1, 1},
                                     {"EXEC", kExec, 2},
                                     {"EXEC_LO", kExec, 1},
                                     {"EXEC_HI", kExec + 1, 1},
                                     {"M0", kM0, 1},
                                     {"SGPR_NULL", kNull, 1},
                                     {"SGPR_NULL64", kNull, 2},
                                     {"M0_gfxpre11", kM0, 1},
                                     {"SGPR_NULL_gfxpre11", kNull, 1}};
  // The flat address of LDS offset 0. Kernels read it (s_mov_b64 s[..],
  // src_shared_base) to build flat pointers to LDS, which they truncate
  // back to 32-bit LDS offsets; its value is the LDS aperture's base, bits
  // 63:48 from the driver's SH_MEM_BASES, here 1 << 48. Flat accesses
  // through such pointers are not simulated (they fault as unknown
  // instructions), so no result depends on the value beyond its low 32
  // bits being 0. Only its 64-bit read is accepted (Semantics::prepare).
  if (name == "SRC_SHARED_BASE") {
    out.file = File::Imm;
    out.imm = int64_t(1) << 48;
    out.width = 2;
    out.mods = kApertureOperand;
    return "";
  }
  for (const Special &s : specials)
    if (name == s.name) {
      out.file = File::S;
      out.reg = s.reg;
      out.width = s.width;
      return "";
    }
  return "register operand " + name.str() + " is not simulated";
}

} // namespace

struct CodeObject::Mc : McObjects {};

CodeObject::~CodeObject() = default;

/// Self-check of the modifier operand type on v_fma_f32 v2, -v0, v1, 1.0:
/// the decoder relies on how LLVM 22 describes input modifiers.
static void checkInputModifiers(McObjects &m) {
  const uint8_t bytes[] = {0x02, 0x00, 0xcb, 0xd1, 0x00, 0x03, 0xca, 0x23};
  llvm::MCInst inst;
  uint64_t size = 0;
  bool ok =
      m.disassembler->getInstruction(inst, size, bytes, 0, llvm::nulls()) ==
          llvm::MCDisassembler::Success &&
      inst.getNumOperands() > 1 && inst.getOperand(1).isImm() &&
      inst.getOperand(1).getImm() == 1 &&
      m.mii->get(inst.getOpcode()).operands()[1].OperandType ==
          kInputModsOperandType;
  if (!ok)
    throw Error(HKRT_ERROR_UNSUPPORTED,
                "this LLVM's AMDGPU disassembler describes input modifiers "
                "differently from the LLVM 22 the simulator was written for");
}

/// Sections by address: .text goes into `code`; the others that may hold
/// kernel descriptors (data, and .rodata where they live) are returned.
static std::vector<std::pair<uint64_t, std::string>>
readSections(const llvm::object::ObjectFile &obj, CodeObject &code) {
  std::vector<std::pair<uint64_t, std::string>> sections; // address, bytes
  for (const llvm::object::SectionRef &sec : obj.sections()) {
    llvm::Expected<llvm::StringRef> contents = sec.getContents();
    if (!contents) {
      llvm::consumeError(contents.takeError());
      continue;
    }
    llvm::Expected<llvm::StringRef> name = sec.getName();
    if (name && *name == ".text") {
      code.textBase = sec.getAddress();
      code.text.assign(contents->begin(), contents->end());
    } else if (!name) {
      llvm::consumeError(name.takeError());
    }
    if (sec.isData() || sec.isBSS() || (name && *name == ".rodata"))
      sections.emplace_back(sec.getAddress(), contents->str());
  }
  if (code.text.empty())
    throw Error(HKRT_ERROR_INVALID_ARTIFACT,
                "the " + code.chip + " code object has no .text section");
  return sections;
}

/// The fields the simulator reads of the 64-byte kernel descriptor at `p`,
/// found at `address`.
static KernelDescriptor readKernelDescriptor(const char *p, uint64_t address) {
  auto u32 = [&](size_t off) {
    uint32_t v;
    memcpy(&v, p + off, 4);
    return v;
  };
  KernelDescriptor kd;
  kd.groupSegmentSize = u32(0);
  kd.privateSegmentSize = u32(4);
  kd.kernargSize = u32(8);
  int64_t entryOffset;
  memcpy(&entryOffset, p + 16, 8);
  kd.entry = address + uint64_t(entryOffset);
  kd.rsrc3 = u32(44);
  kd.rsrc1 = u32(48);
  kd.rsrc2 = u32(52);
  memcpy(&kd.codeProperties, p + 56, 2);
  memcpy(&kd.kernargPreload, p + 58, 2);
  return kd;
}

/// The most symbols a code object may have: a compiled one has a few per
/// kernel, and a symbol table claiming millions (a corrupt section size)
/// would otherwise take minutes to walk (found by hk-fuzz-artifact,
/// fuzz/regressions/artifact/many-symbols.art).
static constexpr size_t kMaxSymbols = 1 << 16;

/// Each NAME.kd symbol whose 64 bytes lie in one of `sections` names the
/// kernel descriptor of kernel NAME.
static void readKernelDescriptors(
    const llvm::object::ObjectFile &obj,
    const std::vector<std::pair<uint64_t, std::string>> &sections,
    CodeObject &code) {
  size_t count = 0;
  for (const llvm::object::SymbolRef &sym : obj.symbols()) {
    if (++count > kMaxSymbols)
      throw Error(HKRT_ERROR_INVALID_ARTIFACT,
                  "the " + code.chip + " code object has more than " +
                      std::to_string(kMaxSymbols) + " symbols");
    llvm::Expected<llvm::StringRef> name = sym.getName();
    llvm::Expected<uint64_t> address = sym.getAddress();
    if (!name || !address) {
      if (!name)
        llvm::consumeError(name.takeError());
      if (!address)
        llvm::consumeError(address.takeError());
      continue;
    }
    if (!name->ends_with(".kd"))
      continue;
    for (const auto &[base, bytes] : sections) {
      // Overflow-safe: the descriptor's 64 bytes lie in the section.
      if (*address < base || bytes.size() < 64 ||
          *address - base > bytes.size() - 64)
        continue;
      code.kernels[name->drop_back(3).str()] =
          readKernelDescriptor(bytes.data() + (*address - base), *address);
    }
  }
}

/// Fills the operands of `inst` from `mcInst`: definitions, register and
/// immediate sources (with the input modifiers that precede them) and the
/// remaining immediates. Returns why an operand cannot be simulated, or "".
static std::string decodeOperands(const McObjects &m,
                                  const llvm::MCInst &mcInst,
                                  const llvm::MCInstrDesc &desc, Inst &inst) {
  std::string unsupported;
  unsigned numDefs = desc.getNumDefs();
  unsigned numDescribed = desc.getNumOperands();
  uint32_t pendingMods = 0;
  for (unsigned i = 0; i < mcInst.getNumOperands() && i < numDescribed; ++i) {
    const llvm::MCOperand &op = mcInst.getOperand(i);
    const llvm::MCOperandInfo &info = desc.operands()[i];
    if (i >= numDefs && info.OperandType == kInputModsOperandType &&
        op.isImm()) {
      pendingMods = uint32_t(op.getImm());
      continue;
    }
    Operand o;
    if (op.isReg()) {
      std::string why = registerOperand(*m.mri, op.getReg(), o);
      if (!why.empty() && unsupported.empty())
        unsupported = why;
    } else if (op.isImm()) {
      o.file = File::Imm;
      o.imm = op.getImm();
    } else if (int64_t v = 0;
               op.isExpr() && op.getExpr()->evaluateAsAbsolute(v)) {
      // A literal an inline constant could have encoded, which LLVM
      // keeps as the expression lit(value) (e.g. a small relocated
      // offset after s_getpc_b64).
      o.file = File::Imm;
      o.imm = v;
    } else {
      if (unsupported.empty())
        unsupported = "operand " + std::to_string(i) +
                      " is no register "
                      "or immediate";
      continue;
    }
    if (i < numDefs) {
      if (inst.numDefs < 2)
        inst.defs[inst.numDefs++] = o;
    } else if (info.RegClass != -1) {
      o.mods = pendingMods;
      pendingMods = 0;
      if (inst.numSrcs < 5)
        inst.srcs[inst.numSrcs++] = o;
    } else if (op.isImm()) {
      if (inst.numImms < 6)
        inst.imms[inst.numImms++] = op.getImm();
      else if (unsupported.empty())
        unsupported = "more than 6 immediate operands";
    }
  }
  return unsupported;
}

/// A decoded instruction: its name, text, operands and semantics, or the
/// semantics that fault with the reason it cannot be simulated.
static void describeInstruction(const McObjects &m, const Semantics &table,
                                const llvm::MCInst &mcInst, Inst &inst) {
  const llvm::MCInstrDesc &desc = m.mii->get(mcInst.getOpcode());
  inst.name = m.mii->getName(mcInst.getOpcode()).str();
  llvm::raw_string_ostream os(inst.text);
  m.printer->printInst(&mcInst, inst.pc, "", *m.sti, os);
  os.flush();
  size_t first = inst.text.find_first_not_of(" \t");
  inst.text = first == std::string::npos ? "" : inst.text.substr(first);
  std::string base = baseName(inst.name);
  inst.fn = table.lookup(base);
  std::string unsupported = decodeOperands(m, mcInst, desc, inst);
  if (!unsupported.empty()) {
    inst.fault = unsupported;
    inst.fn = table.unsupportedOperand;
  } else if (!inst.fn) {
    inst.fn = table.unknown;
  } else {
    std::string why = table.prepare(base, inst);
    if (!why.empty()) {
      inst.fault = why;
      inst.fn = table.unsupportedOperand;
    }
  }
}

/// Whether `bytes` start with a 64-bit word that names a literal constant
/// (source 255) in a field where CDNA has none: one of the three 9-bit
/// sources of a VOP3 / VOP3P word (bits 31:26 are 110100), or the soffset
/// of a MUBUF / MTBUF word (111000 / 111010). LLVM 22's AMDGPU disassembler
/// crashes on such words for gfx942 (in the error path of the literal's
/// read; so does llvm-objdump), so they are kept undecodable instead of
/// reaching it (found by hk-fuzz-isa and hk-fuzz-artifact,
/// fuzz/regressions/*/vop3-literal.*, mtbuf-soffset-literal.*).
static bool isLiteralWhereNoneFits(llvm::ArrayRef<uint8_t> bytes) {
  if (bytes.size() < 8)
    return false;
  uint32_t word0, word1;
  memcpy(&word0, bytes.data(), 4);
  memcpy(&word1, bytes.data() + 4, 4);
  uint32_t encoding = word0 >> 26;
  if (encoding == 0b111000 || encoding == 0b111010)
    return word1 >> 24 == 255;
  if (encoding != 0b110100)
    return false;
  for (int shift : {0, 9, 18})
    if ((word1 >> shift & 0x1ff) == 255)
      return true;
  return false;
}

/// Bytes the disassembler is offered at the end of .text: more than the
/// longest CDNA instruction (a 64-bit encoding and a 32-bit literal).
static constexpr size_t kDecodeWindow = 16;

/// Decodes .text front to back; an undecodable word is kept as an
/// instruction that faults when reached.
static void decodeText(const McObjects &m, CodeObject &code) {
  llvm::ArrayRef<uint8_t> text(
      reinterpret_cast<const uint8_t *>(code.text.data()), code.text.size());
  code.indexOfWord.assign(text.size() / 4 + 1, -1);
  const Semantics &table = semanticsTable();
  for (uint64_t off = 0; off + 4 <= text.size();) {
    Inst inst;
    inst.pc = code.textBase + off;
    llvm::MCInst mcInst;
    uint64_t size = 0;
    // The disassembler reads a 32-bit literal after any word whose source
    // names one; at the end of .text that read fails, and LLVM 22's error
    // path for it crashes like the cases above. So the last words are
    // given zero padding to read, and an instruction that needs the padding
    // is undecodable.
    llvm::ArrayRef<uint8_t> window = text.slice(off);
    std::array<uint8_t, kDecodeWindow> padded{};
    if (window.size() < padded.size()) {
      std::copy(window.begin(), window.end(), padded.begin());
      window = padded;
    }
    auto status = isLiteralWhereNoneFits(window)
                      ? llvm::MCDisassembler::Fail
                      : m.disassembler->getInstruction(mcInst, size, window,
                                                       inst.pc, llvm::nulls());
    if (off + size > text.size())
      status = llvm::MCDisassembler::Fail;
    if (status != llvm::MCDisassembler::Success || size == 0) {
      inst.size = 4;
      inst.name = "<undecodable>";
      inst.text = "<undecodable word>";
      inst.fn = table.undecodable;
    } else {
      inst.size = uint32_t(size);
      describeInstruction(m, table, mcInst, inst);
    }
    code.indexOfWord[off / 4] = int32_t(code.insts.size());
    off += inst.size;
    code.insts.push_back(std::move(inst));
  }
}

std::shared_ptr<const CodeObject>
hk::rt::isa::loadCodeObject(const std::string &elf, const std::string &chip) {
  auto code = std::make_shared<CodeObject>();
  code->chip = chip;
  std::unique_ptr<McObjects> mc = createMc(chip);
  code->mc.reset(static_cast<CodeObject::Mc *>(mc.release()));
  checkInputModifiers(*code->mc);

  auto buffer = llvm::MemoryBuffer::getMemBuffer(
      llvm::StringRef(elf.data(), elf.size()), "code object", false);
  auto object = llvm::object::ObjectFile::createObjectFile(*buffer);
  if (!object) {
    std::string why = llvm::toString(object.takeError());
    throw Error(HKRT_ERROR_INVALID_ARTIFACT,
                "the " + chip + " code object is no ELF file: " + why);
  }
  code->lines = readLineTable(elf);
  readKernelDescriptors(**object, readSections(**object, *code), *code);
  decodeText(*code->mc, *code);
  return code;
}

const KernelDescriptor &hk::rt::isa::kernelDescriptor(const CodeObject &code,
                                                      const std::string &name) {
  auto it = code.kernels.find(name);
  if (it == code.kernels.end())
    throw Error(HKRT_ERROR_NOT_FOUND, "the " + code.chip +
                                          " code object has no kernel "
                                          "descriptor " +
                                          name + ".kd");
  return it->second;
}

hk::rt::isa::RawDecoder::RawDecoder(const std::string &chip) {
  mc.reset(static_cast<CodeObject::Mc *>(createMc(chip).release()));
}

hk::rt::isa::RawDecoder::~RawDecoder() = default;

std::string hk::rt::isa::RawDecoder::decode(const uint8_t *bytes, size_t n,
                                            uint64_t &size) const {
  llvm::MCInst inst;
  size = 0;
  if (mc->disassembler->getInstruction(
          inst, size, llvm::ArrayRef<uint8_t>(bytes, n), 0, llvm::nulls()) !=
          llvm::MCDisassembler::Success ||
      size == 0)
    return "";
  return mc->mii->getName(inst.getOpcode()).str();
}

std::string hk::rt::isa::opcodeBaseName(const std::string &name) {
  return baseName(name);
}
