//===- ReportTest.cpp - the code-quality report on fixed assembly ---------===//
//
// Every expected count below was worked out by hand from the line numbers
// written next to the snippet: which label a branch goes back to, which
// lines lie in its range, and which mnemonics they hold.
//===----------------------------------------------------------------------===//

#include "hk/Target/AMDGPU/Report.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include "gtest/gtest.h"

#include <string>

using namespace hk::target;

namespace {

// Three functions, in the layout LLVM's AMDGPU printer uses:
//  - nested (lines 4-29): an outer loop .LBB0_1 (8-26) around an inner loop
//    .LBB0_2 (11-19) with 2 MFMAs;
//  - copy (34-55): two loops in a row without MFMA; the first (.LBB1_1) has
//    more instructions, the second (.LBB1_3) the only memory instructions,
//    and is closed by an s_branch after a forward s_cbranch out of it;
//  - straight (60-66): a forward branch only, then the kernel descriptor
//    directives before .Lfunc_end2;
//  - retry (76-89): an MFMA loop .LBB3_1 (77-88) around the retry loop of an
//    atomic compare-and-swap .LBB3_2 (81-86), as LLVM expands atomics it
//    has no instruction for.
constexpr const char *kSnippet = R"(	.text
	.globl	nested
	.type	nested,@function
nested:                                 ; @nested
; %bb.0:
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_mov_b32 s2, 0
.LBB0_1:                                ; =>This Loop Header: Depth=1
	buffer_load_dword v1, v0, s[8:11], 0 offen lds
	s_mov_b32 s3, 0
.LBB0_2:                                ; =>This Inner Loop Header: Depth=2
	ds_read_b128 v[2:5], v0
	ds_read_b64_tr_b16 v[6:7], v0 offset:64
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_16x16x32_bf16 v[8:11], v[2:5], v[2:5], v[8:11]
	v_mfma_f32_16x16x32_bf16 v[8:11], v[2:5], v[2:5], v[8:11]
	s_add_i32 s3, s3, 1
	s_cmp_lt_u32 s3, 4
	s_cbranch_scc1 .LBB0_2
; %bb.3:
	ds_write_b64 v0, v[6:7]
	s_waitcnt vmcnt(0)
	s_barrier
	s_add_i32 s2, s2, 1
	s_cmp_lt_u32 s2, 8
	s_cbranch_scc1 .LBB0_1
; %bb.4:
	global_store_dwordx4 v[0:1], v[8:11], off
	s_endpgm
.Lfunc_end0:
	.size	nested, .Lfunc_end0-nested
	.globl	copy
	.type	copy,@function
copy:
; %bb.0:
	s_mov_b32 s2, 0
.LBB1_1:
	v_add_u32_e32 v1, 1, v1
	v_add_u32_e32 v1, 1, v1
	v_add_u32_e32 v1, 1, v1
	v_add_u32_e32 v1, 1, v1
	s_add_i32 s2, s2, 1
	s_cmp_lt_u32 s2, 8
	s_cbranch_scc1 .LBB1_1
; %bb.2:
	s_mov_b32 s2, 0
.LBB1_3:
	global_load_dwordx4 v[2:5], v[0:1], off
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v[0:1], v[2:5], off
	s_add_i32 s2, s2, 1
	s_cbranch_scc0 .LBB1_4
	s_branch .LBB1_3
.LBB1_4:
	s_endpgm
.Lfunc_end1:
	.size	copy, .Lfunc_end1-copy
	.globl	straight
	.type	straight,@function
straight:
	s_cmp_eq_u32 s0, 0
	s_cbranch_scc1 .LBB2_2
	buffer_atomic_add_f32 v1, v0, s[8:11], 0 offen
	scratch_store_dword off, v1, s0
.LBB2_2:
	s_endpgm
	.section	.rodata,"a",@progbits
	.amdhsa_kernel straight
		.amdhsa_next_free_vgpr 2
	.end_amdhsa_kernel
	.text
.Lfunc_end2:
	.size	straight, .Lfunc_end2-straight
	.globl	retry
	.type	retry,@function
retry:
.LBB3_1:
	ds_read_b128 v[2:5], v0
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_32x32x16_bf16 v[8:23], v[2:5], v[2:5], v[8:23]
.LBB3_2:
	buffer_atomic_cmpswap v[6:7], v1, s[8:11], 0 offen sc0
	s_waitcnt vmcnt(0)
	v_cmp_eq_u32_e32 vcc, v6, v7
	s_andn2_b64 exec, exec, vcc
	s_cbranch_execnz .LBB3_2
	s_or_b64 exec, exec, s[4:5]
	s_cbranch_scc1 .LBB3_1
	s_endpgm
.Lfunc_end3:
	.size	retry, .Lfunc_end3-retry
amdhsa.kernels:
)";

std::vector<KernelReport> analyzeSnippet() {
  auto kernels = analyzeAssembly(kSnippet);
  EXPECT_TRUE(static_cast<bool>(kernels));
  if (!kernels) {
    llvm::consumeError(kernels.takeError());
    return {};
  }
  return *kernels;
}

TEST(ReportTest, FindsEveryFunction) {
  std::vector<KernelReport> kernels = analyzeSnippet();
  ASSERT_EQ(kernels.size(), 4u);
  EXPECT_EQ(kernels[0].name, "nested");
  EXPECT_EQ(kernels[1].name, "copy");
  EXPECT_EQ(kernels[2].name, "straight");
  EXPECT_EQ(kernels[3].name, "retry");
  EXPECT_EQ(kernels[0].firstLine, 4u);
  EXPECT_EQ(kernels[0].lastLine, 29u);
  EXPECT_EQ(kernels[2].firstLine, 60u);
  EXPECT_EQ(kernels[2].lastLine, 66u);
}

TEST(ReportTest, NestedLoopsReportTheInnerOne) {
  std::vector<KernelReport> kernels = analyzeSnippet();
  ASSERT_EQ(kernels.size(), 4u);
  const KernelReport &nested = kernels[0];
  // In the order of their backward branches: line 19, then line 26.
  ASSERT_EQ(nested.loops.size(), 2u);
  EXPECT_EQ(nested.loops[0].header, ".LBB0_2");
  EXPECT_EQ(nested.loops[0].nestedLoops, 0u);
  // The outer range (8-26) holds the inner loop's branch at line 19.
  EXPECT_EQ(nested.loops[1].header, ".LBB0_1");
  EXPECT_EQ(nested.loops[1].nestedLoops, 1u);
  EXPECT_EQ(nested.loops[1].counts.mfma, 2);
  EXPECT_EQ(nested.innermostLoops(), 1u);
  // Both loops hold the MFMAs; the outer one holds the loop that does.
  ASSERT_EQ(nested.hotLoop, std::optional<size_t>(0));
  const Loop &loop = nested.loops[*nested.hotLoop];
  EXPECT_EQ(loop.header, ".LBB0_2");
  EXPECT_EQ(loop.headerLine, 11u);
  EXPECT_EQ(loop.branchLine, 19u);
  // Lines 12-19.
  const InstructionCounts &c = nested.hotCounts();
  EXPECT_EQ(c.instructions, 8);
  EXPECT_EQ(c.mfma, 2);
  EXPECT_EQ(c.ldsReads, 2);
  EXPECT_EQ(c.ldsWrites, 0);
  EXPECT_EQ(c.globalLoads, 0);
  EXPECT_EQ(c.barriers, 0);
  EXPECT_EQ(c.waits, 1);
  // The whole function: lines 6-7, 9-10, 12-19, 21-26 and 28-29.
  const InstructionCounts &w = nested.whole;
  EXPECT_EQ(w.instructions, 20);
  EXPECT_EQ(w.mfma, 2);
  EXPECT_EQ(w.ldsReads, 2);
  EXPECT_EQ(w.ldsWrites, 1);
  EXPECT_EQ(w.globalLoads, 1);
  EXPECT_EQ(w.globalLoadsToLds, 1);
  EXPECT_EQ(w.globalStores, 1);
  EXPECT_EQ(w.barriers, 1);
  EXPECT_EQ(w.waits, 2);
}

TEST(ReportTest, WithoutMfmaTheLoopWithMostMemoryInstructionsIsHot) {
  std::vector<KernelReport> kernels = analyzeSnippet();
  ASSERT_EQ(kernels.size(), 4u);
  const KernelReport &copy = kernels[1];
  // Line 52 branches forward to .LBB1_4: not a loop.
  ASSERT_EQ(copy.loops.size(), 2u);
  EXPECT_EQ(copy.innermostLoops(), 2u);
  EXPECT_EQ(copy.loops[0].header, ".LBB1_1");
  EXPECT_EQ(copy.loops[0].counts.instructions, 7); // lines 38-44
  ASSERT_EQ(copy.hotLoop, std::optional<size_t>(1));
  const Loop &loop = copy.loops[1];
  EXPECT_EQ(loop.header, ".LBB1_3");
  EXPECT_EQ(loop.headerLine, 47u);
  EXPECT_EQ(loop.branchLine, 53u);
  EXPECT_EQ(loop.counts.instructions, 6); // lines 48-53
  EXPECT_EQ(loop.counts.mfma, 0);
  EXPECT_EQ(loop.counts.globalLoads, 1);
  EXPECT_EQ(loop.counts.globalLoadsToLds, 0);
  EXPECT_EQ(loop.counts.globalStores, 1);
  EXPECT_EQ(loop.counts.waits, 1);
}

TEST(ReportTest, WithoutLoopTheWholeKernelIsReported) {
  std::vector<KernelReport> kernels = analyzeSnippet();
  ASSERT_EQ(kernels.size(), 4u);
  const KernelReport &straight = kernels[2];
  EXPECT_TRUE(straight.loops.empty());
  EXPECT_FALSE(straight.hotLoop.has_value());
  // Lines 61-64 and 66; the directives after s_endpgm are not instructions.
  const InstructionCounts &c = straight.hotCounts();
  EXPECT_EQ(c.instructions, 5);
  EXPECT_EQ(c.globalAtomics, 1);
  EXPECT_EQ(c.scratch, 1);
  EXPECT_EQ(c.globalLoads, 0);
}

TEST(ReportTest, AnAtomicRetryLoopDoesNotHideTheMfmaLoop) {
  std::vector<KernelReport> kernels = analyzeSnippet();
  ASSERT_EQ(kernels.size(), 4u);
  const KernelReport &retry = kernels[3];
  ASSERT_EQ(retry.loops.size(), 2u);
  EXPECT_EQ(retry.innermostLoops(), 1u);
  // The retry loop, lines 82-86, is the only innermost loop and has no MFMA.
  EXPECT_EQ(retry.loops[0].header, ".LBB3_2");
  EXPECT_EQ(retry.loops[0].counts.instructions, 5);
  EXPECT_EQ(retry.loops[0].counts.mfma, 0);
  ASSERT_EQ(retry.hotLoop, std::optional<size_t>(1));
  const Loop &loop = retry.loops[1];
  EXPECT_EQ(loop.header, ".LBB3_1");
  EXPECT_EQ(loop.headerLine, 77u);
  EXPECT_EQ(loop.branchLine, 88u);
  EXPECT_EQ(loop.nestedLoops, 1u);
  // Lines 78-80 and 82-88, the retry loop's body once.
  EXPECT_EQ(loop.counts.instructions, 10);
  EXPECT_EQ(loop.counts.mfma, 1);
  EXPECT_EQ(loop.counts.ldsReads, 1);
  EXPECT_EQ(loop.counts.globalAtomics, 1);
  EXPECT_EQ(loop.counts.waits, 2);
}

TEST(ReportTest, PrintsTheHotLoopAndTheResources) {
  std::vector<KernelReport> kernels = analyzeSnippet();
  ASSERT_EQ(kernels.size(), 4u);
  KernelResources nested;
  nested.name = "nested";
  nested.unifiedVgprs = 128;
  nested.sgprs = 16;
  nested.ldsBytes = 65536;
  nested.maxWorkgroupSize = 256;
  std::string text;
  llvm::raw_string_ostream os(text);
  printReport(os, *hk::lookupChip("gfx950"), kernels, {nested});
  // 2 MFMAs of 8 instructions. 128 registers: 512/128 = 4 waves per SIMD;
  // 160 KiB / 64 KiB = 2 workgroups of 4 waves, 2 waves per SIMD.
  EXPECT_NE(text.find("nested: hot loop .LBB0_2, assembly lines 11-19 (of 2 "
                      "loops, 1 innermost)\n"
                      "  per iteration: 8 instructions, 2 mfma (25.0%)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  resources: 128 vgpr, 0 agpr, 16 sgpr, 65536 lds "
                      "bytes, 0 scratch bytes, 0 spills, 2 waves/SIMD "
                      "(limited by lds)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("straight: no loop, whole kernel, assembly lines "
                      "60-66\n  whole kernel: 5 instructions, 0 mfma (0.0%)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("copy: hot loop .LBB1_3"), std::string::npos) << text;
  EXPECT_NE(text.find("retry: hot loop .LBB3_1, assembly lines 77-88 (of 2 "
                      "loops, 1 innermost)\n  the hot loop holds 1 nested "
                      "loops, each counted once\n  per iteration: 10 "
                      "instructions, 1 mfma (10.0%)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  resources: not in the code object's metadata"),
            std::string::npos)
      << text;
}

// Two versions of one K loop, as hk-peel-bounds leaves them: the steady
// state .LBB0_1 (lines 4-9: a load, an MFMA, an add, the branch) and the
// checked loop .LBB0_2 (10-17) with the same load and MFMA and two more
// instructions of bounds work. Equal MFMAs and memory instructions: the
// one with fewer instructions is the hot loop, wherever it stands.
constexpr const char *kVersions = R"(	.type	peeled,@function
peeled:
	s_mov_b32 s0, 0
.LBB0_1:
	buffer_load_dwordx4 v[0:3], v8, s[4:7], 0 offen
	v_mfma_f32_16x16x32_bf16 v[4:7], v[0:3], v[0:3], v[4:7]
	s_add_u32 s0, s0, 1
	s_cmp_lt_u32 s0, s1
	s_cbranch_scc1 .LBB0_1
.LBB0_2:
	v_cmp_gt_i32_e32 vcc, s2, v9
	v_cndmask_b32_e32 v8, s3, v8, vcc
	buffer_load_dwordx4 v[0:3], v8, s[4:7], 0 offen
	v_mfma_f32_16x16x32_bf16 v[4:7], v[0:3], v[0:3], v[4:7]
	s_add_u32 s0, s0, 1
	s_cmp_lt_u32 s0, s2
	s_cbranch_scc1 .LBB0_2
	s_endpgm
.Lfunc_end0:
)";

TEST(ReportTest, OfTwoVersionsOfALoopTheShorterIsHot) {
  auto kernels = analyzeAssembly(kVersions);
  ASSERT_TRUE(static_cast<bool>(kernels)) << toString(kernels.takeError());
  ASSERT_EQ(kernels->size(), 1u);
  const KernelReport &kernel = kernels->front();
  ASSERT_EQ(kernel.loops.size(), 2u);
  EXPECT_EQ(kernel.loops[0].counts.instructions, 5); // lines 5-9
  EXPECT_EQ(kernel.loops[1].counts.instructions, 7); // lines 11-17
  ASSERT_EQ(kernel.hotLoop, std::optional<size_t>(0));

  // In the other order the shorter loop still wins.
  std::string swapped = kVersions;
  auto replaceAll = [&](llvm::StringRef from, llvm::StringRef to) {
    for (size_t at = swapped.find(from.str()); at != std::string::npos;
         at = swapped.find(from.str(), at + to.size()))
      swapped.replace(at, from.size(), to.str());
  };
  replaceAll(".LBB0_1", ".LBB0_X");
  replaceAll(".LBB0_2", ".LBB0_1");
  replaceAll(".LBB0_X", ".LBB0_2");
  // Move the checked loop (lines 10-17) before the steady one (4-9).
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(swapped).split(lines, '\n');
  std::string reordered;
  for (int i :
       {0, 1, 2, 9, 10, 11, 12, 13, 14, 15, 16, 3, 4, 5, 6, 7, 8, 17, 18, 19})
    reordered += lines[i].str() + "\n";
  auto again = analyzeAssembly(reordered);
  ASSERT_TRUE(static_cast<bool>(again)) << toString(again.takeError());
  const KernelReport &other = again->front();
  ASSERT_EQ(other.loops.size(), 2u);
  EXPECT_EQ(other.loops[0].counts.instructions, 7);
  ASSERT_EQ(other.hotLoop, std::optional<size_t>(1));
  EXPECT_EQ(other.loops[1].headerLine, 12u);
}

// Two versions of attention's KV loop: the steady state .LBB0_1 (lines
// 4-9) issues its copy as one LDS DMA; the checked loop .LBB0_2 (10-19)
// also loads the edge columns element by element, so it holds more vector
// memory instructions. Both have one MFMA and one barrier: versions of one
// loop, and the shorter one is hot although the other loads more.
constexpr const char *kMaskedVersions = R"(	.type	kv,@function
kv:
	s_mov_b32 s0, 0
.LBB0_1:
	buffer_load_dwordx4 v1, s[4:7], 0 offen lds
	s_barrier
	v_mfma_f32_16x16x32_bf16 v[4:7], v[0:3], v[0:3], v[4:7]
	s_add_u32 s0, s0, 1
	s_cbranch_scc1 .LBB0_1
.LBB0_2:
	buffer_load_dwordx4 v1, s[4:7], 0 offen lds
	buffer_load_ushort v2, v3, s[4:7], 0 offen
	buffer_load_ushort v9, v10, s[4:7], 0 offen
	s_barrier
	v_mfma_f32_16x16x32_bf16 v[4:7], v[0:3], v[0:3], v[4:7]
	v_cmp_gt_i32_e32 vcc, s2, v9
	v_cndmask_b32_e32 v4, 0xff800000, v4, vcc
	s_add_u32 s0, s0, 1
	s_cbranch_scc1 .LBB0_2
	s_endpgm
.Lfunc_end0:
)";

TEST(ReportTest, OfTwoVersionsWithAsManyBarriersTheShorterIsHot) {
  auto kernels = analyzeAssembly(kMaskedVersions);
  ASSERT_TRUE(static_cast<bool>(kernels)) << toString(kernels.takeError());
  const KernelReport &kernel = kernels->front();
  ASSERT_EQ(kernel.loops.size(), 2u);
  EXPECT_EQ(kernel.loops[0].counts.instructions, 5);
  EXPECT_EQ(kernel.loops[1].counts.globalLoads, 3);
  EXPECT_EQ(kernel.loops[1].counts.instructions, 9);
  EXPECT_EQ(kernel.hotLoop, std::optional<size_t>(0));
}

TEST(ReportTest, BranchToUnknownLabelIsAnError) {
  auto kernels = analyzeAssembly("\t.type\tbad,@function\nbad:\n\ts_branch "
                                 ".LBB9_9\n.Lfunc_end9:\n");
  ASSERT_FALSE(static_cast<bool>(kernels));
  std::string message = llvm::toString(kernels.takeError());
  EXPECT_NE(message.find("line 3: branch to '.LBB9_9'"), std::string::npos)
      << message;
}

TEST(ReportTest, UnterminatedFunctionIsAnError) {
  auto kernels = analyzeAssembly("\t.type\tcut,@function\ncut:\n\ts_nop 0\n");
  ASSERT_FALSE(static_cast<bool>(kernels));
  EXPECT_NE(llvm::toString(kernels.takeError()).find("'cut' does not end"),
            std::string::npos);
}

TEST(ReportTest, ClassifiesByMnemonic) {
  struct Case {
    const char *line;
    InstructionClass kind;
  } cases[] = {
      {"v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]",
       InstructionClass::Mfma},
      {"ds_read_b128 v[0:3], v4 offset:16", InstructionClass::LdsRead},
      {"ds_read_b64_tr_b16 v[0:1], v4", InstructionClass::LdsRead},
      {"ds_load_b32 v0, v1", InstructionClass::LdsRead},
      {"ds_write_b64 v0, v[2:3]", InstructionClass::LdsWrite},
      {"ds_store_b32 v0, v1", InstructionClass::LdsWrite},
      {"ds_bpermute_b32 v0, v1, v2", InstructionClass::LdsOther},
      {"buffer_load_dwordx4 v[0:3], v4, s[4:7], 0 offen",
       InstructionClass::GlobalLoad},
      {"buffer_load_dword v1, s[4:7], 0 offen lds",
       InstructionClass::GlobalLoadToLds},
      {"global_load_lds_dwordx4 v[0:1], off",
       InstructionClass::GlobalLoadToLds},
      {"global_load_dwordx2 v[0:1], v[2:3], off", InstructionClass::GlobalLoad},
      {"buffer_store_short v0, v1, s[4:7], 0 offen",
       InstructionClass::GlobalStore},
      {"global_store_dword v[0:1], v2, off", InstructionClass::GlobalStore},
      {"global_atomic_add_f32 v[0:1], v2, off", InstructionClass::GlobalAtomic},
      {"scratch_load_dwordx4 v[0:3], off, s0", InstructionClass::Scratch},
      {"s_barrier", InstructionClass::Barrier},
      {"s_waitcnt vmcnt(0) lgkmcnt(0)", InstructionClass::Wait},
      {"s_waitcnt_vscnt null, 0x0", InstructionClass::Wait},
      {"s_setprio 1", InstructionClass::Other},
      {"v_add_u32_e32 v0, v1, v2", InstructionClass::Other},
  };
  for (const Case &c : cases) {
    auto [mnemonic, operands] = llvm::StringRef(c.line).split(' ');
    EXPECT_EQ(classifyInstruction(mnemonic, operands), c.kind) << c.line;
  }
}

} // namespace
