//===- CApi.cpp - the hk compiler, C API (hkc.h) --------------------------===//
//
// Each call parses and compiles in its own MLIRContext; diagnostics are
// collected as text (name:line:col: error: ...) into the thread's last
// error. Results are checked against a registry of live ones, so that a
// stale or foreign pointer gives an error, not a crash.
//===----------------------------------------------------------------------===//

#include "hk/Base/Error.h"
#include "hk/Compiler/Compiler.h"
#include "hk/Compiler/hkc.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <new>
#include <set>

using namespace mlir;
namespace compiler = hk::compiler;

struct hkc_result_t {
  std::vector<std::string> chips, outputs;
};

namespace {

thread_local std::string lastError;

std::mutex liveMutex;
std::set<hkc_result> &live() {
  static auto *results = new std::set<hkc_result>;
  return *results;
}

bool isLive(hkc_result result) {
  std::lock_guard<std::mutex> lock(liveMutex);
  return live().count(result);
}

hkc_status fail(hkc_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

std::optional<compiler::Output> perChipOutput(hkc_output output) {
  switch (output) {
  case HKC_OUTPUT_LANE_IR:
    return compiler::Output::LaneIR;
  case HKC_OUTPUT_LLVM_IR:
    return compiler::Output::LLVMIR;
  case HKC_OUTPUT_ASSEMBLY:
    return compiler::Output::Assembly;
  case HKC_OUTPUT_CODE_OBJECT:
    return compiler::Output::CodeObject;
  case HKC_OUTPUT_ARTIFACT:
    break;
  }
  return std::nullopt;
}

/// Compiles `module` into `result`.
LogicalResult compileModule(ModuleOp module, hkc_output output,
                            const compiler::Options &options,
                            hkc_result_t &result) {
  if (output == HKC_OUTPUT_ARTIFACT) {
    FailureOr<hk::rt::Artifact> artifact =
        compiler::compileArtifact(module, options);
    if (failed(artifact))
      return failure();
    result.chips.push_back("");
    result.outputs.push_back(hk::rt::writeArtifact(*artifact));
    return success();
  }
  auto outputs = compiler::compile(module, *perChipOutput(output), options);
  if (failed(outputs))
    return failure();
  for (compiler::ChipOutput &out : *outputs) {
    result.chips.push_back(out.chip);
    result.outputs.push_back(std::move(out.bytes));
  }
  return success();
}

/// Parses (and so verifies) `source` with diagnostics going to
/// `diagnostics`, then calls `body` on the module.
LogicalResult
withParsedModule(llvm::StringRef source, llvm::StringRef name,
                 std::string &diagnostics,
                 llvm::function_ref<LogicalResult(ModuleOp)> body) {
  DialectRegistry registry;
  compiler::registerDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::raw_string_ostream os(diagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, name), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return failure();
  return body(*module);
}

/// Compiles with diagnostics going to `diagnostics`; fills `result`.
LogicalResult compileInto(llvm::StringRef source, llvm::StringRef name,
                          hkc_output output, const compiler::Options &options,
                          hkc_result_t &result, std::string &diagnostics) {
  return withParsedModule(source, name, diagnostics, [&](ModuleOp module) {
    return compileModule(module, output, options, result);
  });
}

} // namespace

extern "C" {

void hkc_options_init(hkc_options *options) {
  if (!options)
    return;
  compiler::Options defaults;
  options->chips = nullptr;
  options->num_chips = 0;
  options->opt_level = defaults.optLevel;
  options->code_object_version = defaults.codeObjectVersion;
  options->schedule = defaults.schedule;
}

hkc_status hkc_compile(const char *source, size_t size, const char *name,
                       hkc_output output, const hkc_options *options,
                       hkc_result *out) {
  if (!out)
    return fail(HKC_ERROR_INVALID_ARGUMENT, "null output handle");
  *out = nullptr;
  if (!source && size)
    return fail(HKC_ERROR_INVALID_ARGUMENT, "null source");
  if (!options)
    return fail(HKC_ERROR_INVALID_ARGUMENT, "null options");
  if (output != HKC_OUTPUT_ARTIFACT && !perChipOutput(output))
    return fail(HKC_ERROR_INVALID_ARGUMENT, "unknown output kind");
  if (options->num_chips && !options->chips)
    return fail(HKC_ERROR_INVALID_ARGUMENT, "null chip list");
  compiler::Options opts;
  if (options->num_chips) {
    opts.chips.clear();
    for (size_t i = 0; i < options->num_chips; ++i) {
      if (!options->chips[i])
        return fail(HKC_ERROR_INVALID_ARGUMENT, "null chip name");
      opts.chips.push_back(options->chips[i]);
    }
  }
  opts.optLevel = options->opt_level;
  opts.codeObjectVersion = options->code_object_version;
  opts.schedule = options->schedule != 0;
  std::string error;
  compiler::Output checked = output == HKC_OUTPUT_ARTIFACT
                                 ? compiler::Output::CodeObject
                                 : *perChipOutput(output);
  if (failed(compiler::checkOptions(opts, checked, error)))
    return fail(HKC_ERROR_INVALID_ARGUMENT, error);

  try {
    auto result = std::make_unique<hkc_result_t>();
    std::string diagnostics;
    if (failed(compileInto(llvm::StringRef(source ? source : "", size),
                           name ? name : "<source>", output, opts, *result,
                           diagnostics)))
      return fail(HKC_ERROR_COMPILE,
                  diagnostics.empty() ? "compilation failed" : diagnostics);
    std::lock_guard<std::mutex> lock(liveMutex);
    live().insert(result.get());
    *out = result.release();
  } catch (const std::bad_alloc &) {
    return fail(HKC_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception &e) {
    return fail(HKC_ERROR_COMPILE, e.what());
  }
  lastError.clear();
  return HKC_SUCCESS;
}

size_t hkc_result_count(hkc_result result) {
  if (!isLive(result)) {
    fail(HKC_ERROR_INVALID_ARGUMENT, "unknown or freed result");
    return 0;
  }
  return result->outputs.size();
}

const void *hkc_result_data(hkc_result result, size_t index, size_t *size) {
  if (size)
    *size = 0;
  if (!isLive(result) || index >= result->outputs.size()) {
    fail(HKC_ERROR_INVALID_ARGUMENT, "unknown result or output index");
    return nullptr;
  }
  if (size)
    *size = result->outputs[index].size();
  return result->outputs[index].data();
}

const char *hkc_result_chip(hkc_result result, size_t index) {
  if (!isLive(result) || index >= result->chips.size()) {
    fail(HKC_ERROR_INVALID_ARGUMENT, "unknown result or output index");
    return "";
  }
  return result->chips[index].c_str();
}

void hkc_result_free(hkc_result result) {
  {
    std::lock_guard<std::mutex> lock(liveMutex);
    if (!result || !live().erase(result))
      return;
  }
  delete result;
}

const char *hkc_last_error(void) { return lastError.c_str(); }

const char *hkc_version(void) {
  return "hk-mlir " HK_PROJECT_VERSION " (LLVM " LLVM_VERSION_STRING ")";
}

hkc_status hkc_verify(const char *source, size_t size, const char *name) {
  if (!source && size)
    return fail(HKC_ERROR_INVALID_ARGUMENT, "null source");
  try {
    std::string diagnostics;
    if (failed(withParsedModule(llvm::StringRef(source ? source : "", size),
                                name ? name : "<source>", diagnostics,
                                [](ModuleOp) { return success(); })))
      return fail(HKC_ERROR_COMPILE,
                  diagnostics.empty() ? "verification failed" : diagnostics);
  } catch (const std::bad_alloc &) {
    return fail(HKC_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  lastError.clear();
  return HKC_SUCCESS;
}

} // extern "C"
