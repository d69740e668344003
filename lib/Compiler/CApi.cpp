//===- CApi.cpp - the hk compiler, C API (hkc.h) --------------------------===//
//
// Each call parses and compiles in its own MLIRContext; diagnostics are
// collected as text (name:line:col: error: ...) into the thread's last
// error. A result handle is a token, not a pointer, looked up in a registry
// of live results: a stale or foreign handle gives an error, not a crash,
// and tokens are never reused, so a freed result stays stale after later
// compiles. Parsing and compiling run on a stack sized for the nesting
// limit, text nested deeper is refused before it is parsed, and an LLVM
// fatal error is a status (hk/Base/InputLimits.h).
//===----------------------------------------------------------------------===//

#include "hk/Base/Error.h"
#include "hk/Base/InputLimits.h"
#include "hk/Compiler/Compiler.h"
#include "hk/Compiler/hkc.h"
#include "hk/Dialect/HK/Template.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <type_traits>

using namespace mlir;
namespace compiler = hk::compiler;

struct hkc_result_t {
  std::vector<std::string> chips, outputs;
};

namespace {

thread_local std::string lastError;

std::atomic<unsigned> maxNestingDepth{hk::kDefaultMaxNestingDepth};

/// The live results by token. Tokens are kTokenBase + 16 * id with ids
/// counting up and never reused, so a freed result's token never comes
/// back; kTokenBase sets bits 48-62, so no user-space pointer equals a
/// token, and it differs from hkrt's, so no runtime handle does either.
class Results {
public:
  static constexpr uintptr_t kTokenBase = uintptr_t(0x4843) << 48; // "HC"
  static constexpr uint64_t kMaxId = (uint64_t(1) << 44) - 1;

  /// The new result's token; null once every id has been used.
  hkc_result add(std::unique_ptr<hkc_result_t> result) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (nextId_ > kMaxId)
      return nullptr;
    uintptr_t token = kTokenBase + 16 * uintptr_t(nextId_++);
    live_.emplace(token, std::move(result));
    return reinterpret_cast<hkc_result>(token);
  }
  /// The result behind a live token, else null. Callers must not free a
  /// result while another thread reads it (hkc.h).
  hkc_result_t *find(hkc_result handle) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(reinterpret_cast<uintptr_t>(handle));
    return it == live_.end() ? nullptr : it->second.get();
  }
  /// The result behind a live token, removed; null if it was not live.
  std::unique_ptr<hkc_result_t> remove(hkc_result handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(reinterpret_cast<uintptr_t>(handle));
    if (it == live_.end())
      return nullptr;
    std::unique_ptr<hkc_result_t> result = std::move(it->second);
    live_.erase(it);
    return result;
  }

private:
  mutable std::mutex mutex_;
  std::map<uintptr_t, std::unique_ptr<hkc_result_t>> live_;
  uint64_t nextId_ = 1;
};

Results &results() {
  // Never destroyed: results may be freed by static destructors of the
  // program after this registry would have gone.
  static auto *registry = new Results;
  return *registry;
}

hkc_status fail(hkc_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

/// The output kind a caller passed, read as its integer: a C caller may pass
/// any value where hkc.h says hkc_output, and loading one outside the
/// enumerators as the C++ enum is undefined.
unsigned rawOutput(const hkc_output &output) {
  std::underlying_type_t<hkc_output> raw;
  std::memcpy(&raw, &output, sizeof raw);
  return raw;
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
/// `diagnostics`, then calls `body` on the module and the source manager
/// holding its text.
LogicalResult withParsedModule(
    llvm::StringRef source, llvm::StringRef name, std::string &diagnostics,
    llvm::function_ref<LogicalResult(ModuleOp, llvm::SourceMgr &)> body) {
  DialectRegistry registry;
  compiler::registerDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::raw_string_ostream os(diagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, name), llvm::SMLoc());
  if (!hk::checkNestingDepth(sourceMgr, maxNestingDepth,
                             "hkc_set_max_nesting_depth", os))
    return failure();
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return failure();
  return body(*module, sourceMgr);
}

/// Compiles with diagnostics going to `diagnostics`; fills `result`.
LogicalResult compileInto(llvm::StringRef source, llvm::StringRef name,
                          hkc_output output, const compiler::Options &options,
                          hkc_result_t &result, std::string &diagnostics) {
  return withParsedModule(
      source, name, diagnostics, [&](ModuleOp module, llvm::SourceMgr &) {
        return compileModule(module, output, options, result);
      });
}

/// The text of the instance of `source` at `given` (a template's parameters,
/// checked), verified by parsing it, into `result`.
LogicalResult instantiateInto(llvm::StringRef source, llvm::StringRef name,
                              const hk::ParamValues &given,
                              hkc_result_t &result, std::string &diagnostics) {
  return withParsedModule(
      source, name, diagnostics,
      [&](ModuleOp module, llvm::SourceMgr &sourceMgr) -> LogicalResult {
        FailureOr<hk::KernelTemplate> tmpl =
            hk::readTemplate(module, sourceMgr);
        if (failed(tmpl))
          return failure();
        FailureOr<hk::ParamValues> values =
            hk::resolveParams(*tmpl, given, module->getLoc());
        if (failed(values))
          return failure();
        FailureOr<std::string> text = hk::instantiateText(
            sourceMgr, *tmpl, *values, module->getContext());
        if (failed(text))
          return failure();
        result.chips.push_back("");
        result.outputs.push_back(std::move(*text));
        return success();
      });
}

/// Runs `body`, which returns a status and fills `message` on failure,
/// where the nesting limit's text cannot overflow the stack, with
/// exceptions and LLVM fatal errors turned into statuses; sets the calling
/// thread's last error.
hkc_status
runGuarded(llvm::StringRef name,
           llvm::function_ref<hkc_status(std::string &message)> body) {
  hkc_status status = HKC_ERROR_COMPILE;
  std::string message;
  hk::runOnCompileStack(maxNestingDepth, [&] {
    std::optional<std::string> fatal = hk::runCatchingFatalErrors([&] {
      try {
        status = body(message);
      } catch (const std::bad_alloc &) {
        status = HKC_ERROR_OUT_OF_MEMORY;
        message = "out of host memory";
      } catch (const std::exception &e) {
        status = HKC_ERROR_COMPILE;
        message = e.what();
      }
    });
    if (fatal) {
      status = HKC_ERROR_COMPILE;
      message = (name + ": error: LLVM failed to compile it: " + *fatal).str();
    }
  });
  if (status != HKC_SUCCESS)
    return fail(status, std::move(message));
  lastError.clear();
  return HKC_SUCCESS;
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
  unsigned kind = rawOutput(output);
  if (kind > HKC_OUTPUT_CODE_OBJECT ||
      (kind != HKC_OUTPUT_ARTIFACT && !perChipOutput(hkc_output(kind))))
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

  llvm::StringRef sourceName = name ? name : "<source>";
  return runGuarded(sourceName, [&](std::string &message) {
    auto result = std::make_unique<hkc_result_t>();
    std::string diagnostics;
    if (failed(compileInto(llvm::StringRef(source ? source : "", size),
                           sourceName, output, opts, *result, diagnostics))) {
      message = diagnostics.empty() ? "compilation failed" : diagnostics;
      return HKC_ERROR_COMPILE;
    }
    *out = results().add(std::move(result));
    if (!*out) {
      message = "out of result handles: every one this process can hold "
                "has been used";
      return HKC_ERROR_OUT_OF_MEMORY;
    }
    return HKC_SUCCESS;
  });
}

size_t hkc_result_count(hkc_result handle) {
  hkc_result_t *result = results().find(handle);
  if (!result) {
    fail(HKC_ERROR_INVALID_ARGUMENT, "unknown or freed result");
    return 0;
  }
  return result->outputs.size();
}

const void *hkc_result_data(hkc_result handle, size_t index, size_t *size) {
  if (size)
    *size = 0;
  hkc_result_t *result = results().find(handle);
  if (!result || index >= result->outputs.size()) {
    fail(HKC_ERROR_INVALID_ARGUMENT, "unknown result or output index");
    return nullptr;
  }
  if (size)
    *size = result->outputs[index].size();
  return result->outputs[index].data();
}

const char *hkc_result_chip(hkc_result handle, size_t index) {
  hkc_result_t *result = results().find(handle);
  if (!result || index >= result->chips.size()) {
    fail(HKC_ERROR_INVALID_ARGUMENT, "unknown result or output index");
    return "";
  }
  return result->chips[index].c_str();
}

void hkc_result_free(hkc_result handle) {
  // A stale or foreign handle changes nothing (hkc.h).
  results().remove(handle);
}

const char *hkc_last_error(void) { return lastError.c_str(); }

const char *hkc_version(void) {
  return "hk-mlir " HK_PROJECT_VERSION " (LLVM " LLVM_VERSION_STRING ")";
}

hkc_status hkc_verify(const char *source, size_t size, const char *name) {
  if (!source && size)
    return fail(HKC_ERROR_INVALID_ARGUMENT, "null source");
  llvm::StringRef sourceName = name ? name : "<source>";
  return runGuarded(sourceName, [&](std::string &message) {
    std::string diagnostics;
    if (failed(withParsedModule(
            llvm::StringRef(source ? source : "", size), sourceName,
            diagnostics,
            [](ModuleOp, llvm::SourceMgr &) { return success(); }))) {
      message = diagnostics.empty() ? "verification failed" : diagnostics;
      return HKC_ERROR_COMPILE;
    }
    return HKC_SUCCESS;
  });
}

hkc_status hkc_instantiate(const char *source, size_t size, const char *name,
                           const char *const *param_names,
                           const char *const *param_values, size_t num_params,
                           hkc_result *out) {
  if ((!source && size) || !out ||
      (num_params && (!param_names || !param_values)))
    return fail(HKC_ERROR_INVALID_ARGUMENT,
                "null source, names, values or out");
  hk::ParamValues given;
  for (size_t i = 0; i < num_params; ++i) {
    if (!param_names[i] || !param_values[i])
      return fail(HKC_ERROR_INVALID_ARGUMENT, "null parameter name or value");
    if (!given.emplace(param_names[i], param_values[i]).second)
      return fail(HKC_ERROR_INVALID_ARGUMENT, std::string("parameter '") +
                                                  param_names[i] +
                                                  "' given twice");
  }
  llvm::StringRef sourceName = name ? name : "<source>";
  return runGuarded(sourceName, [&](std::string &message) {
    auto result = std::make_unique<hkc_result_t>();
    std::string diagnostics;
    llvm::StringRef text(source ? source : "", size);
    if (failed(
            instantiateInto(text, sourceName, given, *result, diagnostics))) {
      message = diagnostics.empty() ? "instantiation failed" : diagnostics;
      return HKC_ERROR_COMPILE;
    }
    *out = results().add(std::move(result));
    if (!*out) {
      message = "no result handles left";
      return HKC_ERROR_OUT_OF_MEMORY;
    }
    return HKC_SUCCESS;
  });
}

unsigned hkc_max_nesting_depth(void) { return maxNestingDepth; }

hkc_status hkc_set_max_nesting_depth(unsigned depth) {
  if (depth < 1 || depth > hk::kMaxNestingDepthLimit)
    return fail(HKC_ERROR_INVALID_ARGUMENT,
                "the nesting limit must be 1 to " +
                    std::to_string(hk::kMaxNestingDepthLimit) + ", got " +
                    std::to_string(depth));
  maxNestingDepth = depth;
  lastError.clear();
  return HKC_SUCCESS;
}

} // extern "C"
