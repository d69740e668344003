//===- TargetMachine.cpp - an LLVM TargetMachine for a triple and CPU -----===//

#include "hk/Target/Common/TargetMachine.h"

#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>

namespace hk::target {

std::unique_ptr<llvm::TargetMachine>
createPICTargetMachine(const llvm::Triple &triple, llvm::StringRef cpu,
                       const llvm::TargetOptions &options, unsigned optLevel,
                       std::string &error) {
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  static const llvm::CodeGenOptLevel levels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, cpu, /*Features=*/"", options, llvm::Reloc::PIC_, std::nullopt,
      levels[std::min(optLevel, 3u)]));
}

} // namespace hk::target
