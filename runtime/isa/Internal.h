//===- Internal.h - the ISA simulator's decoded form and wave state -------===//

#ifndef HK_RUNTIME_ISA_INTERNAL_H
#define HK_RUNTIME_ISA_INTERNAL_H

#include "IsaSimulator.h"

#include "hk/Base/Chip.h"

#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hk::rt::isa {

constexpr unsigned kLanes = unsigned(hk::kWaveSize);
/// Scalar registers by their hardware encoding: s0..s101, then VCC at 106,
/// M0 at 124, the null register at 125, EXEC at 126.
constexpr uint16_t kVcc = 106, kM0 = 124, kNull = 125, kExec = 126;
constexpr unsigned kNumSgprs = 128;
/// Vector registers: v0..v255, then the accumulation registers a0..a255
/// (one file of 512 on gfx90a and later).
constexpr uint16_t kAgprBase = 256;
constexpr unsigned kNumVgprs = 512;

enum class File : uint8_t { Imm, S, V };

/// Operand::mods bit of src_shared_base (Decoder.cpp).
constexpr uint32_t kApertureOperand = 0x100;

struct Operand {
  File file = File::Imm;
  uint8_t width = 1; ///< dwords
  uint16_t reg = 0;
  uint32_t mods = 0; ///< input modifiers (NEG 1, ABS 2, OP_SEL_0 4, OP_SEL_1 8)
  int64_t imm = 0;
};

struct Sim;
struct Wave;
struct AccessObserver;
struct Inst;
using Handler = void (*)(Sim &, Wave &, const Inst &);

struct Inst {
  Handler fn = nullptr;
  uint64_t pc = 0;
  uint32_t size = 4;
  uint8_t numDefs = 0, numSrcs = 0, numImms = 0;
  Operand defs[2];
  Operand srcs[5]; ///< five: v_mfma_scale_* (A, B, C and two scales)
  int64_t imms[6] = {0, 0, 0, 0, 0, 0};
  /// Opcode-specific facts found once at decode time (prepare()): MFMA
  /// shape and type, memory access sizes.
  uint32_t aux[4] = {0, 0, 0, 0};
  std::string name;  ///< MCInstrInfo's opcode name
  std::string text;  ///< the instruction as LLVM prints it
  std::string fault; ///< why it cannot run, if it cannot
  /// A memory instruction: its destinations may still have loads
  /// outstanding (they complete in order).
  bool memory = false;
};

class CodeObject;
class LineTable;
/// The DWARF line table of an ELF code object, read once when it is loaded
/// (LineTable.cpp); empty when it has none.
std::shared_ptr<const LineTable> readLineTable(const std::string &elf);
/// `FILE:LINE:COL: OP: `, the source position of the instruction at `pc`
/// from the line table, or "" when the table has none (LineTable.cpp).
std::string sourcePrefix(const CodeObject &code, uint64_t pc);

class CodeObject {
public:
  ~CodeObject();
  std::shared_ptr<const LineTable> lines; ///< pc -> source position
  struct Mc;
  std::unique_ptr<Mc> mc;
  std::string chip;
  std::string text;
  uint64_t textBase = 0;
  std::vector<Inst> insts;
  std::vector<int32_t> indexOfWord; ///< (pc - textBase) / 4 -> insts index
  std::map<std::string, KernelDescriptor> kernels;

  /// The instruction at `pc`, or -1 if none starts there.
  int32_t indexOf(uint64_t pc) const {
    if (pc < textBase || (pc - textBase) / 4 >= indexOfWord.size() ||
        (pc - textBase) % 4)
      return -1;
    return indexOfWord[(pc - textBase) / 4];
  }
};

/// Fills Inst::aux of one opcode at decode time; a non-empty result says
/// why the instruction cannot be simulated.
using Preparer = std::string (*)(const std::string &base, Inst &inst);

/// The table of semantic functions, by opcode name without encoding
/// suffixes (Semantics.cpp).
struct Semantics {
  Handler undecodable, unknown, unsupportedOperand;
  Handler lookup(const std::string &base) const;
  /// Fills Inst::aux for opcodes that need it; a non-empty result says why
  /// the instruction cannot be simulated.
  std::string prepare(const std::string &base, Inst &inst) const;
  std::map<std::string, Handler> handlers;
  /// Decode-time preparation by opcode (base name); an opcode with an entry
  /// here is prepared by it alone.
  std::map<std::string, Preparer> preparers;
};
const Semantics &semanticsTable();

/// A chip's MC disassembler (the objects loadCodeObject creates), for
/// tools that sweep encodings (Coverage.cpp).
struct RawDecoder {
  explicit RawDecoder(const std::string &chip);
  ~RawDecoder();
  /// The MCInstrInfo name of the instruction at the start of `bytes` and
  /// its size; "" if the bytes do not decode.
  std::string decode(const uint8_t *bytes, size_t n, uint64_t &size) const;
  std::unique_ptr<CodeObject::Mc> mc;
};
/// An opcode name without its encoding-family suffixes: the table's key.
std::string opcodeBaseName(const std::string &name);

/// Each family of semantic functions adds its opcodes to the table, after
/// those of Semantics.cpp (an entry it adds replaces one made there).
void registerScalar(Semantics &table);  ///< Scalar.cpp: SOP*, SMEM
void registerVector(Semantics &table);  ///< Vector.cpp: VOP1/2/3/C, SDWA, DPP
void registerConvert(Semantics &table); ///< Convert.cpp: VOP3P, conversions
void registerMemory(Semantics &table);  ///< Memory.cpp: DS, MUBUF, FLAT
void registerMatrix(Semantics &table);  ///< Matrix.cpp: MFMA, SMFMAC

/// A memory operation issued and not yet complete: the register (or LDS)
/// words it will write when an s_waitcnt retires it.
struct Pending {
  std::vector<std::pair<uint32_t *, uint32_t>> writes;
  std::vector<uint16_t> vregs, sregs; ///< destination registers
  std::vector<uint32_t> ldsDwords;    ///< LDS DMA: destination dwords
  uint64_t pc = 0;                    ///< the issuing instruction
  /// A flat access counts in both vmcnt and lgkmcnt: each queue holds an
  /// entry sharing `joint`, which completes when the second one retires.
  std::shared_ptr<Pending> joint;
  /// A scalar memory operation (Scalar.cpp): the hardware may complete it
  /// out of order with the other lgkmcnt operations.
  bool scalar = false;
};

/// The MODE register a wave starts with, from COMPUTE_PGM_RSRC1 (AMDGPU
/// "AMDHSA Kernel Descriptor"): FLOAT_ROUND_MODE_32 [13:12],
/// FLOAT_ROUND_MODE_16_64 [15:14], FLOAT_DENORM_MODE_32 [17:16],
/// FLOAT_DENORM_MODE_16_64 [19:18] become MODE [7:0]; ENABLE_DX10_CLAMP
/// [21] MODE [8]; ENABLE_IEEE_MODE [23] MODE [9].
inline uint32_t modeFromRsrc1(uint32_t rsrc1) {
  return ((rsrc1 >> 12) & 0xFF) | ((rsrc1 >> 21) & 1) << 8 |
         ((rsrc1 >> 23) & 1) << 9;
}

/// MODE bit 27, GPR_IDX_EN (s_set_gpr_idx_on/off): while set, VALU
/// instructions offset the VGPR operands M0[15:12] names (bit 0 src0, 1
/// src1, 2 src2, 3 dst) by the index M0[7:0].
constexpr uint32_t kModeGprIdxEn = 1u << 27;
/// The instruction as it executes under VGPR indexing (Scalar.cpp), or null
/// for one indexing leaves alone (anything but the VALU).
std::unique_ptr<Inst> gprIndexed(Sim &sim, const Wave &w, const Inst &inst);

struct Wave {
  uint32_t s[kNumSgprs];
  bool scc = false;
  std::vector<uint32_t> v; ///< kNumVgprs * kLanes, [reg * kLanes + lane]
  int32_t index = 0;       ///< instruction index of the next instruction
  bool ended = false, atBarrier = false;
  unsigned id = 0;
  uint64_t executed = 0;
  /// The MODE hardware register (s_getreg/s_setreg hwreg 1): FP_ROUND
  /// [3:0], FP_DENORM [7:4], DX10_CLAMP [8], IEEE [9]; set at dispatch from
  /// the kernel descriptor's COMPUTE_PGM_RSRC1 (Run.cpp).
  uint32_t mode = 0;
  std::deque<Pending> vm, lgkm;
  uint16_t pendingV[kNumVgprs];
  uint16_t pendingS[kNumSgprs];
  uint32_t pendingRegs = 0;
  /// The lanes' private (scratch) memory, kd.privateSegmentSize bytes per
  /// lane, [lane * size + address].
  std::vector<uint8_t> scratch;

  uint64_t exec() const { return s[kExec] | uint64_t(s[kExec + 1]) << 32; }
  void setExec(uint64_t e) {
    s[kExec] = uint32_t(e);
    s[kExec + 1] = uint32_t(e >> 32);
  }
  uint64_t vcc() const { return s[kVcc] | uint64_t(s[kVcc + 1]) << 32; }
  void setVcc(uint64_t m) {
    s[kVcc] = uint32_t(m);
    s[kVcc + 1] = uint32_t(m >> 32);
  }
};

/// What the timing mode (Timing.cpp) learns of the accesses of the
/// instruction being run: each lane's LDS bytes (ldsAt) and each global
/// access checked against the launch's memory (Sim::checkMemory).
struct AccessObserver {
  virtual ~AccessObserver() = default;
  virtual void lds(unsigned lane, uint64_t address, unsigned bytes,
                   bool write) = 0;
  virtual void global(uint64_t address, uint64_t bytes, bool store) = 0;
};

/// One workgroup being run.
struct Sim {
  const CodeObject &code;
  const Launch &launch;
  const KernelDescriptor &kd;
  std::vector<uint8_t> lds;
  /// Per LDS dword: LDS DMA writes into it issued and not yet waited for.
  std::vector<uint16_t> ldsPending;
  uint32_t ldsPendingCount = 0;
  /// Race detection per LDS dword: the barrier interval (epoch) and wave of
  /// its last write, and the waves that read it in the current interval.
  uint32_t epoch = 0;
  std::vector<uint32_t> ldsWriteEpoch, ldsReadEpoch;
  std::vector<uint8_t> ldsWriter;
  std::vector<uint64_t> ldsReaders;
  std::array<uint32_t, 3> group{0, 0, 0};
  const Inst *current = nullptr;
  Wave *wave = nullptr;
  std::vector<Wave> *waves = nullptr; ///< all waves of the workgroup
  std::vector<MemoryRange> memory;    ///< sorted by begin
  mutable size_t lastRange = 0;       ///< checkMemory's last hit in memory
  /// The timing mode's view of each memory access (Timing.cpp); null when
  /// only the results are simulated.
  AccessObserver *observer = nullptr;
  /// The LDS race checks between waves (off in the timing mode, whose
  /// order of waves is the model's).
  bool raceChecks = true;
  /// The launch's budget (IsaSimulator.h): instructions executed by all its
  /// waves so far, the most it may execute, and its host-time deadline.
  uint64_t executed = 0;
  uint64_t maxInstructions = 0;
  double maxSeconds = 0;
  std::chrono::steady_clock::time_point deadline;

  /// Starts the launch's budget; throws HKRT_ERROR_INVALID_ARGUMENT for a
  /// budget environment variable that is not a positive number.
  Sim(const CodeObject &code, const Launch &launch, const KernelDescriptor &kd);

  /// Throws the kernel fault, located at the current instruction.
  [[noreturn]] void fail(const std::string &message) const;
  /// Faults unless [address, address + bytes) lies in the launch's memory.
  void checkMemory(uint64_t address, uint64_t bytes, bool store) const;
  /// Counts one executed instruction against the budget; faults, naming
  /// the budget, once it is spent.
  void charge() {
    if (++executed > maxInstructions)
      failBudget(false);
    // The clock is read every 64Ki instructions: a few milliseconds apart.
    if ((executed & 0xFFFF) == 0 && std::chrono::steady_clock::now() > deadline)
      failBudget(true);
  }

private:
  [[noreturn]] void failBudget(bool time) const;
};

/// The LDS race check of one dword accessed by wave `wave`: the conflict
/// with another wave of the barrier interval, or "" (Memory.cpp; retire()
/// checks an LDS DMA landing with it).
std::string ldsConflict(Sim &sim, unsigned wave, uint64_t dword, bool write);

/// The check of ldsConflict without its message: false if the access
/// conflicts (the state is then unchanged, and ldsConflict names the
/// conflict); else records the access and returns true. Within one barrier
/// interval a dword written by one wave may not be read or written by
/// another, nor written after another wave read it.
inline bool ldsAccessAllowed(Sim &sim, unsigned wave, uint64_t dword,
                             bool write) {
  if (sim.ldsWriteEpoch[dword] == sim.epoch && sim.ldsWriter[dword] != wave)
    return false;
  bool readThisInterval = sim.ldsReadEpoch[dword] == sim.epoch;
  if (write) {
    if (readThisInterval && (sim.ldsReaders[dword] & ~(uint64_t(1) << wave)))
      return false;
    sim.ldsWriteEpoch[dword] = sim.epoch;
    sim.ldsWriter[dword] = uint8_t(wave);
  } else {
    if (!readThisInterval) {
      sim.ldsReadEpoch[dword] = sim.epoch;
      sim.ldsReaders[dword] = 0;
    }
    sim.ldsReaders[dword] |= uint64_t(1) << wave;
  }
  return true;
}

/// What the timing mode needs of an MFMA (Matrix.cpp, from the plan found
/// at decode time).
struct MfmaFacts {
  unsigned m = 0, n = 0, k = 0, blocks = 1;
  bool f64 = false, f32 = false;
  bool f8f6f4 = false; ///< gfx950's f8f6f4 forms (scaled or not)
  bool anyF8 = false;  ///< A or B holds 8-bit floats
  bool sparse = false; ///< SMFMAC (k is the dense K)
};
/// True and `out` filled if `inst` is an MFMA or SMFMAC.
bool mfmaFacts(const Inst &inst, MfmaFacts &out);

/// Retires the oldest entries of `queue` until at most `keep` remain: their
/// results reach registers and LDS (Semantics.cpp; s_waitcnt calls it, the
/// timing mode when the model says an operation has completed).
void retire(Sim &sim, Wave &w, std::deque<Pending> &queue, size_t keep);

/// What all workgroups of one launch share (Run.cpp): the kernel's
/// descriptor and entry, the kernarg segment and dispatch packet the waves
/// point at (so a Dispatch is never copied), the user SGPRs, the limits.
struct Dispatch {
  Dispatch(const CodeObject &code, const Launch &launch);
  Dispatch(const Dispatch &) = delete;
  Dispatch &operator=(const Dispatch &) = delete;

  /// Sizes the waves, LDS and race-check state of a workgroup.
  void allocate(Sim &sim, std::vector<Wave> &waves) const;
  /// Starts workgroup `group`: LDS cleared, every wave at the entry with
  /// the registers the ABI gives it.
  void startWorkgroup(Sim &sim, std::vector<Wave> &waves,
                      const std::array<uint32_t, 3> &group) const;

  const CodeObject &code;
  const Launch &launch;
  const KernelDescriptor &kd;
  int32_t entry = 0;
  uint32_t ldsBytes = 0;
  uint32_t lanes = 0; ///< work-items per workgroup
  unsigned numWaves = 0;
  std::vector<MemoryRange> memory; ///< sorted by begin

private:
  [[noreturn]] void unsupported(const std::string &what) const;
  void checkLimits();
  void checkLds();
  void buildSegments();
  void buildUserSgprs();
  void startWave(Wave &w, unsigned wi,
                 const std::array<uint32_t, 3> &group) const;
  std::vector<uint64_t> kernarg;
  uint64_t packet[8] = {0};
  std::vector<uint32_t> user;
};

/// Runs wave `w`'s next instruction (Run.cpp), after the check that none
/// of its registers waits for a load.
void step(Sim &sim, Wave &w);

/// When every wave has stopped at s_barrier or ended: false if all ended;
/// else releases the barrier (a new race-check interval) and returns true.
/// Waves waiting while others ended are a barrier-mismatch fault.
bool releaseBarrier(Sim &sim, std::vector<Wave> &waves);

} // namespace hk::rt::isa

#endif // HK_RUNTIME_ISA_INTERNAL_H
