//===- IsaTestUtil.h - small kernels in assembly for the ISA simulator ----===//
//
// Kernels written in assembly, assembled with llvm-mc and linked with ld.lld
// into code objects, then run on the ISA simulator. Shared by the ISA
// simulator's unit tests (Isa*Test.cpp).
//===----------------------------------------------------------------------===//

#ifndef HK_UNITTESTS_RUNTIME_ISATESTUTIL_H
#define HK_UNITTESTS_RUNTIME_ISATESTUTIL_H

#include "isa/IsaSimulator.h"

#include "hk/Base/Error.h"
#include "hk/Runtime/hkrt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace hk::rt::isatest {

using namespace hk::rt;

inline std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// `body` (ending with s_endpgm) as kernel `k` of a code object for `chip`:
/// one kernarg pointer in s[0:1], work-item ids in v0, 4 KiB of LDS, and
/// the further kernel descriptor `directives` (float modes, scratch).
inline std::string assembleWith(const std::string &chip,
                                const std::string &body,
                                const std::string &directives) {
  char dir[] = "/tmp/hk-isa-test-XXXXXX";
  EXPECT_NE(mkdtemp(dir), nullptr);
  std::string base = std::string(dir) + "/k";
  std::ofstream(base + ".s")
      << ".amdgcn_target \"amdgcn-amd-amdhsa--" << chip << "\"\n"
      << ".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n"
      << body << "\n.rodata\n.p2align 6\n.amdhsa_kernel k\n"
      << "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
      << "  .amdhsa_next_free_vgpr 64\n  .amdhsa_next_free_sgpr 32\n"
      << "  .amdhsa_accum_offset 32\n"
      << "  .amdhsa_group_segment_fixed_size 4096\n"
      << directives << ".end_amdhsa_kernel\n";
  std::string tools = HK_LLVM_TOOLS_DIR;
  std::string cmd = tools + "/llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=" + chip +
                    " -filetype=obj " + base + ".s -o " + base + ".o && " +
                    tools + "/ld.lld -shared " + base + ".o -o " + base +
                    ".hsaco";
  EXPECT_EQ(system(cmd.c_str()), 0) << cmd;
  std::string elf = readFile(base + ".hsaco");
  system(("rm -rf " + std::string(dir)).c_str());
  return elf;
}

/// assembleWith, with `privateBytes` of scratch per lane.
inline std::string assemble(const std::string &chip, const std::string &body,
                            unsigned privateBytes = 0) {
  return assembleWith(chip, body,
                      privateBytes ? "  .amdhsa_enable_private_segment 1\n"
                                     "  .amdhsa_private_segment_fixed_size " +
                                         std::to_string(privateBytes) + "\n"
                                   : std::string());
}

/// Runs kernel k with one workgroup of `lanes` work-items; the kernarg
/// segment is the given pointers (8 bytes each) and 32-bit values; `buffers`
/// are the memory it may touch.
inline void launch(const std::string &chip, const std::string &body,
                   const std::vector<uint64_t> &kernarg,
                   const std::vector<std::pair<void *, size_t>> &buffers,
                   uint32_t lanes = 64, unsigned privateBytes = 0) {
  auto code = isa::loadCodeObject(assemble(chip, body, privateBytes), chip);
  isa::Launch l;
  l.kernel = "k";
  l.block = {lanes, 1, 1};
  l.kernarg.resize(8 * kernarg.size());
  memcpy(l.kernarg.data(), kernarg.data(), l.kernarg.size());
  for (auto [p, n] : buffers)
    l.memory.push_back({uint64_t(p), uint64_t(p) + n});
  std::sort(l.memory.begin(), l.memory.end(),
            [](auto &a, auto &b) { return a.begin < b.begin; });
  isa::run(*code, l);
}

inline uint64_t ptr(const void *p) { return reinterpret_cast<uint64_t>(p); }

/// The kernel fault `body` raises when run as launch() runs it, with one
/// kernarg pointer to 65 dwords of 3s; "" if it runs to the end.
inline std::string faultOf(const std::string &chip, const std::string &body) {
  std::vector<uint32_t> buf(65, 3);
  try {
    launch(chip, body, {ptr(buf.data())}, {{buf.data(), 4 * buf.size()}});
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), HKRT_ERROR_KERNEL_FAULT);
    return e.what();
  }
  return "";
}

} // namespace hk::rt::isatest

#endif // HK_UNITTESTS_RUNTIME_ISATESTUTIL_H
