//===- Link.cpp - relocatable object to code object with lld --------------===//
//
// HIP and HSA load a code object as an ELF shared object. lld's ELF driver
// is linked into the library and run in process, so no ld.lld binary (nor
// ROCm's copy of it) is needed.
//===----------------------------------------------------------------------===//

#include "hk/Target/AMDGPU/Backend.h"

#include "mlir/IR/Diagnostics.h"

#include "lld/Common/Driver.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <vector>

LLD_HAS_DRIVER(elf)

using namespace mlir;

namespace hk::target {

/// A temporary file removed when this goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  llvm::FileRemover remover;
};

static LogicalResult createTempFile(StringRef suffix, TempFile &file,
                                    Location loc) {
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("hkc", suffix, file.path))
    return emitError(loc) << "cannot create a temporary file: " << ec.message();
  file.remover.setFile(file.path);
  return success();
}

static LogicalResult writeFile(StringRef path, ArrayRef<char> data,
                               Location loc) {
  std::error_code ec;
  llvm::raw_fd_ostream stream(path, ec, llvm::sys::fs::OF_None);
  if (!ec)
    stream.write(data.data(), data.size());
  if (ec || stream.has_error())
    return emitError(loc) << "cannot write " << path << ": " << ec.message();
  return success();
}

FailureOr<llvm::SmallVector<char, 0>> linkCodeObject(ArrayRef<char> object,
                                                     Location loc) {
  TempFile input, output;
  if (failed(createTempFile("o", input, loc)) ||
      failed(createTempFile("so", output, loc)) ||
      failed(writeFile(input.path, object, loc)))
    return failure();

  // The same arguments as ROCm's own device link: a shared object, and no
  // undefined symbol left for a loader that cannot resolve any.
  std::vector<const char *> args = {
      "ld.lld", "-shared",           input.path.c_str(),
      "-o",     output.path.c_str(), "--no-undefined"};
  std::string messages;
  llvm::raw_string_ostream messageStream(messages);
  // lld keeps global state while it runs: one link at a time in the
  // process.
  static std::mutex linkerMutex;
  lld::Result result;
  {
    std::lock_guard<std::mutex> lock(linkerMutex);
    result = lld::lldMain(args, messageStream, messageStream,
                          {{lld::Gnu, &lld::elf::link}});
  }
  if (result.retCode != 0)
    return emitError(loc) << "linking the code object failed: " << messages;

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> linked =
      llvm::MemoryBuffer::getFile(output.path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!linked)
    return emitError(loc) << "cannot read the linked code object: "
                          << linked.getError().message();
  StringRef bytes = (*linked)->getBuffer();
  return llvm::SmallVector<char, 0>(bytes.begin(), bytes.end());
}

} // namespace hk::target
