//===- ArtifactApi.cpp - artifacts, metadata and grids through the C API -===//
//
// The entry points of hkrt.h that need no device: the kernel metadata and
// code objects of an artifact, the value of a grid expression, and which
// instructions of a code object the ISA simulator cannot run. Other
// languages call these instead of reading the container themselves.
//===----------------------------------------------------------------------===//

#include "Guard.h"

#include "../isa/Coverage.h"
#include "hk/Base/Artifact.h"
#include "hk/Base/GridExpr.h"

#include "llvm/ADT/StringExtras.h"

using namespace hk::rt;

/// Reads and checks the artifact's bytes (throws hk::rt::Error).
static Artifact readChecked(const void *data, size_t size) {
  require(data, "artifact data");
  return readArtifact(data, size);
}

extern "C" {

hkrt_status hkrt_artifact_metadata(const void *data, size_t size,
                                   const char **json) {
  static thread_local std::string text;
  return guard([&] {
    require(json, "metadata pointer");
    text = kernelInfoToJson(readChecked(data, size).kernels);
    *json = text.c_str();
  });
}

hkrt_status hkrt_artifact_chips(const void *data, size_t size,
                                const char **chips) {
  static thread_local std::string text;
  return guard([&] {
    require(chips, "chips pointer");
    std::string names;
    for (const auto &[chip, bytes] : readChecked(data, size).codeObjects)
      names += (names.empty() ? "" : "\n") + chip;
    text = std::move(names);
    *chips = text.c_str();
  });
}

hkrt_status hkrt_artifact_code_object(const void *data, size_t size,
                                      const char *chip, const void **code,
                                      size_t *codeSize) {
  static thread_local std::string bytes;
  return guard([&] {
    require(chip, "chip");
    require(code, "code object pointer");
    require(codeSize, "code object size pointer");
    bytes = readChecked(data, size).codeObjectFor(chip, "");
    *code = bytes.data();
    *codeSize = bytes.size();
  });
}

hkrt_status hkrt_grid_evaluate(const char *expr, const int64_t *symbols,
                               size_t numSymbols, int64_t *value) {
  return guard([&] {
    require(expr, "grid expression");
    require(value, "value pointer");
    if (numSymbols)
      require(symbols, "symbols");
    GridExpr parsed = GridExpr::parse(expr);
    try {
      *value =
          parsed.evaluate(std::vector<int64_t>(symbols, symbols + numSymbols));
    } catch (const Error &e) {
      throw Error(e.status(),
                  std::string("grid expression '") + expr + "': " + e.what());
    }
  });
}

hkrt_status hkrt_check_simulated(const void *codeObject, size_t size,
                                 const char *chip, size_t *total,
                                 size_t *unsimulated, const char **report) {
  static thread_local std::string text;
  return guard([&] {
    if (!codeObject || !chip || !total || !unsimulated)
      throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                  "hkrt_check_simulated: null code object, chip or count");
    std::vector<isa::Unsimulated> missing;
    try {
      std::string elf(static_cast<const char *>(codeObject), size);
      missing = isa::unsimulatedInstructions(elf, chip, *total);
    } catch (const std::bad_alloc &) {
      throw;
    } catch (const std::exception &e) {
      // Whatever the decoder refuses is a bad argument of this call.
      throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                  std::string("hkrt_check_simulated: ") + e.what());
    }
    std::string lines;
    for (const isa::Unsimulated &u : missing)
      lines += u.opcode + "\t0x" + llvm::utohexstr(u.pc, /*LowerCase=*/true) +
               "\t" + u.text + "\t" + u.why + "\n";
    text = std::move(lines);
    *unsimulated = missing.size();
    if (report)
      *report = text.c_str();
  });
}

} // extern "C"
