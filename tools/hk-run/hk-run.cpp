//===- hk-run.cpp - run a library kernel and check it ---------------------===//
//
// hk-run KERNEL [--shape S | --test-shape] [--eps E] [--chip C] [--device D]
//        [--seed N]
// hk-run --artifact FILE.hkrt --kernel NAME ...
// hk-run --artifact FILE.hkrt --kernel NAME --launch-only --args A1,A2,...
//        [--save ARG=FILE.npy ...]
//
// Draws seeded random inputs, launches the kernel through hkrt, compares every
// output with the float64 reference within the kernel's tolerance (both in
// kernels/<name>/Reference.cpp) and prints the errors, the tolerance and its
// reason, PASS or FAIL and the time. Exit status: 0 PASS, 1 FAIL or error.
// --launch-only runs any kernel of an artifact, reference or not, with
// arguments built from its metadata (LaunchOnly.cpp): a kernel fault the
// ISA simulator catches is an error. Its memrefs may come from .npy files and
// be saved to .npy files after the launch (Npy.h).
//===----------------------------------------------------------------------===//

#include "CodeObjectRun.h"
#include "CompileSource.h"
#include "LaunchOnly.h"
#include "Tuned.h"

#include "hk/Base/Chip.h"
#include "hk/Runtime/Kernels.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

using namespace hk::kernels;

namespace {

const char *kUsage = R"(usage: hk-run KERNEL [options]
       hk-run --artifact FILE.hkrt --kernel NAME [options]
       hk-run --artifact FILE.hkrt --kernel NAME --launch-only --args A1,...
              [--save ARG=FILE.npy ...]
       hk-run --list

Runs a kernel of the library (the directories of kernels/, compiled at build
time into build/kernels/) on seeded random inputs, compares every output
element with a float64 reference written from the kernel's math, and prints
the max absolute and relative errors, the tolerance with its reason, PASS or
FAIL and the time of the launch. Exit status 0 on PASS, 1 on FAIL or any
error.

Kernels:
%s
Options:
  --shape S1,S2,...      the kernel's sizes (see the list above); any
                         non-negative values, not only tile multiples
  --test-shape           the kernel's test shape (see the list above): sizes
                         off the tile multiples, as scripts/examples.sh runs
  --eps E                the epsilon of layernorm and rmsnorm (> 0)
  --chip gfx942|gfx950   the chip whose code object the ISA simulator runs
                         (default %s; with HIP, must match the GPU)
  --device hip|isa|auto
                         auto (default): a HIP GPU if one is usable, else
                         the ISA simulator; isa: the ISA simulator, which
                         runs the artifact's code object for --chip on the
                         CPU (docs/isa-simulator.md)
  --seed N               seed of the random inputs, 0 to 4294967295
                         (default 1)
  --artifact FILE.hkrt   run the kernel from this compiled file instead of the
                         library's; --kernel names it (a library name or the
                         hk.kernel symbol) and so picks the reference. A
                         FILE.mlir (tile program) is compiled first, in
                         process, for every chip, as hkc --emit=artifact does
  --kernel NAME          see --artifact
  --param NAME=VALUE     instantiate the kernel's template (the library's
                         source, or --artifact FILE.mlir) with NAME at VALUE;
                         repeatable (docs/kernels.md, "Templates")
  --no-tuned             run a template's default instance even when a tuned
                         table names one for the shape's bucket (by default
                         $HK_TUNED_DIR/<kernel>/<chip>.json, then
                         kernels/<kernel>/tuned/<chip>.json, are read)
  --kernel-dir DIR       where the library's artifacts are (default
                         $HK_KERNELS_DIR, else %s)
  --tolerance-scale X    multiply every tolerance by X > 0 (to show that
                         the check fails when the tolerance is too tight)
  --launch-only          launch --kernel (an hk.kernel or gpu.func symbol)
                         from --artifact, with or without a reference: no
                         check, only the launch. Its memref arguments get
                         seeded random contents (floats k/256 in [-1, 1),
                         integers in [0, 16), fp8 small finite values), the
                         grid comes from the kernel's metadata. Prints the
                         grid and LAUNCHED or FAULT with the time; a kernel
                         fault the ISA simulator catches (an access out of
                         its buffer or of the LDS, a barrier some waves never
                         reach, an instruction it does not simulate) is
                         reported with its kernel, workgroup, wave and source
                         line, exit status 1
  --args A1,A2,...       with --launch-only: one item per kernel argument,
                         in order; a memref's sizes joined by x (256x128,
                         its rank's count; empty for rank 0) for random
                         contents, zeros:SIZES for zeros (large inputs of
                         a --timing launch), or a FILE.npy holding its
                         contents (C
                         order, little-endian; its element type, rank and
                         the sizes the kernel's type fixes must match), a
                         scalar's value (i1: 0 or 1). .npy element types:
                         f2 f4 f8 i1 i2 i4 i8 as named; bf16 as u2 (uint16
                         bit patterns: NumPy has no bfloat16); fp8 as u1
  --save ARG=FILE.npy    with --launch-only, repeatable: after the launch,
                         write memref argument ARG (its name or position)
                         to FILE.npy, in the types above
  --code-object FILE     run kernel --kernel (its symbol) of any AMDGPU
                         code object for --chip (e.g. one clang compiled
                         from HipKittens C++) on the ISA simulator, with:
  --grid X[,Y,Z]         workgroups (default 1)
  --block X[,Y,Z]        work-items per workgroup (default 64)
  --lds BYTES            dynamic LDS (extern __shared__) bytes (default 0)
  --kernarg I1,I2,...    the kernarg segment, item by item, each at the next
                         offset aligned to its size: ptr:FILE.npy (the
                         address of a buffer holding the file's contents),
                         u64:V, u32:V, pad:N (N zero bytes); the total must
                         be the kernel descriptor's kernarg size
                         --save ITEM=FILE.npy writes ptr item ITEM's buffer
                         after the launch, in its file's shape and type;
                         zeros:N is the address of N zero bytes
  --timing               on the ISA simulator (a library kernel, with
                         --launch-only or --code-object): the cycle model
                         instead of the whole grid (docs/timing.md):
                         modelled time, TFLOP/s, bound, stalls by cause and
                         site, loops; a line TIMING {json} for scripts.
                         Only sampled workgroups run: nothing is checked
  --trace FILE.json      --timing, and the first simulated batch of each
                         launch as a Chrome trace (chrome://tracing,
                         Perfetto): one track per wave, MFMA, memory and
                         stall spans
  --list                 print the kernels and exit (KERNEL is the first
                         word of an entry or the directory's name)
  --help                 this text

The last line is a summary for scripts:
  PASS gemm gfx942 isa M=300 N=200 K=136: max abs error ..., max rel
  error ..., time ... s
)";

struct Options {
  std::string kernel, artifact, chip, device = "auto", kernelDir;
  std::optional<std::vector<int64_t>> shape;
  bool testShape = false;
  std::optional<double> eps;
  uint32_t seed = 1;
  double toleranceScale = 1.0;
  std::optional<std::string> args;
  std::vector<std::string> saves;
  bool list = false;
  bool launchOnly = false;
  /// --code-object: a foreign code object on the ISA simulator.
  std::optional<hk::run::CodeObjectOptions> codeObject;
  /// --timing, --trace FILE: the ISA simulator's cycle model.
  bool timing = false;
  std::string trace;
  /// --param: a template instance chosen by hand; --no-tuned.
  std::map<std::string, std::string> params;
  bool noTuned = false;
};

/// Turns on the device's timing mode when --timing asks for it.
void startTiming(const Options &o, hkrt::Device &dev) {
  if (o.timing)
    dev.setTiming(true, o.trace);
}

/// After a timed launch: the model's report, readable and as one JSON line
/// for scripts.
void printTiming(hkrt::Device &dev) {
  std::string json = dev.timingReport();
  std::printf("TIMING %s\n", json.c_str());
}

std::string joinShape(const std::vector<int64_t> &shape) {
  std::string s;
  for (int64_t v : shape)
    s += (s.empty() ? "" : ",") + std::to_string(v);
  return s;
}

/// Three lines per kernel: name, shapes; summary; the tile program (its
/// directory) and symbol. Scripts and tests read the directory from the
/// third line.
std::string kernelList() {
  std::string s;
  for (const KernelEntry *e : kernelTable()) {
    // The name and shape columns are padded as printf's %-10s / %-7s would;
    // the summary can be any length (no fixed buffer to cut it short).
    auto pad = [](std::string text, size_t width) {
      if (text.size() < width)
        text.append(width - text.size(), ' ');
      return text;
    };
    std::string eps =
        e->hasEps ? ", --eps " + std::to_string(e->defaultEps) : "";
    s += "  " + pad(e->name, 10) + " --shape " + pad(e->shapeNames, 7) +
         " (default " + joinShape(e->defaultShape) + eps + "; test " +
         joinShape(e->testShape) + ")\n";
    s += std::string("             ") + e->summary + "\n";
    // A kernel of some chips of the table says which.
    const std::vector<std::string> &chips = kernelChips(*e);
    std::string only;
    if (chips.size() < hk::supportedChips().size()) {
      for (const std::string &chip : chips)
        only += ", " + chip;
      only += " only";
    }
    s += std::string("             kernels/") + e->name + "/" + e->name +
         ".mlir, kernel " + e->symbol() + only + "\n";
  }
  return s;
}

/// Whether `text` is one or more decimal digits and nothing else (no sign,
/// space, exponent or base prefix that strtoll / strtod would take).
bool isDecimal(const std::string &text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(),
                     [](unsigned char c) { return std::isdigit(c); });
}

std::vector<int64_t> parseShape(const std::string &text) {
  std::vector<int64_t> shape;
  for (const std::string &part : hk::run::split(text, ',')) {
    if (!isDecimal(part))
      throw std::invalid_argument("--shape: '" + text +
                                  "' is not a list of non-negative integers");
    errno = 0;
    long long v = std::strtoll(part.c_str(), nullptr, 10);
    if (errno == ERANGE)
      throw std::invalid_argument("--shape: size " + part +
                                  " does not fit in 64 bits");
    shape.push_back(v);
  }
  return shape;
}

/// A finite number > 0 (eps, a tolerance scale: zero or less means nothing).
double parsePositive(const std::string &flag, const std::string &text) {
  char *end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || std::isspace((unsigned char)text[0]) || *end ||
      !std::isfinite(v) || !(v > 0))
    throw std::invalid_argument(flag + ": expected a positive number, got '" +
                                text + "'");
  return v;
}

/// eps reaches the kernels as an f32: it must stay positive and finite
/// there.
double parseEps(const std::string &text) {
  double v = parsePositive("--eps", text);
  if (!(float(v) > 0) || !std::isfinite(float(v)))
    throw std::invalid_argument("--eps: '" + text +
                                "' is not a positive f32 value (the kernels "
                                "take eps as f32)");
  return v;
}

uint32_t parseSeed(const std::string &text) {
  errno = 0;
  unsigned long long v =
      isDecimal(text) ? std::strtoull(text.c_str(), nullptr, 10) : 0;
  if (!isDecimal(text) || errno == ERANGE || v > UINT32_MAX)
    throw std::invalid_argument(
        "--seed: expected an integer in [0, 4294967295], got '" + text + "'");
  return uint32_t(v);
}

Options parseArgs(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::printf(kUsage, kernelList().c_str(), hk::kDefaultChip,
                  defaultKernelDir().c_str());
      std::exit(0);
    } else if (a == "--list") {
      o.list = true;
    } else if (a == "--shape") {
      o.shape = parseShape(value());
    } else if (a == "--test-shape") {
      o.testShape = true;
    } else if (a == "--eps") {
      o.eps = parseEps(value());
    } else if (a == "--chip") {
      o.chip = value();
      if (!hk::lookupChip(o.chip))
        throw std::invalid_argument("--chip: '" + o.chip + "' is not one of " +
                                    hk::supportedChipNames());
    } else if (a == "--device") {
      o.device = value();
      if (o.device == "emulator")
        throw std::invalid_argument(
            "--device emulator: the CPU emulator was removed; the ISA "
            "simulator (--device isa) replaces it");
      if (o.device != "hip" && o.device != "isa" && o.device != "auto")
        throw std::invalid_argument("--device: '" + o.device +
                                    "' is not hip, isa or auto");
    } else if (a == "--backend") {
      throw std::invalid_argument(
          "--backend is now --device (--device hip|isa|auto)");
    } else if (a == "--seed") {
      o.seed = parseSeed(value());
    } else if (a == "--artifact") {
      o.artifact = value();
    } else if (a == "--kernel") {
      o.kernel = value();
    } else if (a == "--param") {
      hk::run::addParam(value(), o.params);
    } else if (a == "--no-tuned") {
      o.noTuned = true;
    } else if (a == "--kernel-dir") {
      o.kernelDir = value();
    } else if (a == "--launch-only") {
      o.launchOnly = true;
    } else if (a == "--args") {
      o.args = value();
    } else if (a == "--save") {
      o.saves.push_back(value());
    } else if (a == "--code-object") {
      if (!o.codeObject)
        o.codeObject.emplace();
      o.codeObject->path = value();
    } else if (a == "--grid" || a == "--block" || a == "--lds" ||
               a == "--kernarg") {
      if (!o.codeObject)
        o.codeObject.emplace();
      std::string v = value();
      if (a == "--grid")
        o.codeObject->grid = v;
      else if (a == "--block")
        o.codeObject->block = v;
      else if (a == "--lds")
        o.codeObject->lds = v;
      else
        o.codeObject->kernarg = v;
    } else if (a == "--timing") {
      o.timing = true;
    } else if (a == "--trace") {
      o.timing = true;
      o.trace = value();
    } else if (a == "--tolerance-scale") {
      o.toleranceScale = parsePositive(a, value());
    } else if (!a.empty() && a[0] == '-') {
      throw std::invalid_argument("unknown option '" + a + "' (see --help)");
    } else if (o.kernel.empty()) {
      o.kernel = a;
    } else {
      throw std::invalid_argument("more than one kernel named: '" + o.kernel +
                                  "' and '" + a + "'");
    }
  }
  return o;
}

/// The device the options ask for. auto: HIP when a GPU is usable (and
/// matches --chip if given), else the ISA simulator.
hkrt::Device openDevice(const Options &o) {
  std::string chip = o.chip.empty() ? hk::kDefaultChip : o.chip;
  if (o.device == "isa")
    return hkrt::Device::isa(chip);
  try {
    hkrt::Device dev = hkrt::Device::open(HKRT_DEVICE_HIP);
    if (o.chip.empty() || dev.chip() == o.chip)
      return dev;
    if (o.device == "hip")
      throw std::runtime_error("--chip " + o.chip + ", but the GPU is a " +
                               dev.chip());
  } catch (const hkrt::Error &e) {
    if (o.device == "hip")
      throw;
  }
  return hkrt::Device::isa(chip);
}

/// `o` with --chip set to the first chip `entry` supports when none was
/// given and the default chip is not one of them (a kernel of one chip
/// runs on that chip without --chip).
Options withKernelChip(const Options &o, const KernelEntry &entry) {
  const std::vector<std::string> &chips = kernelChips(entry);
  if (!o.chip.empty() ||
      std::find(chips.begin(), chips.end(), hk::kDefaultChip) != chips.end())
    return o;
  Options chosen = o;
  chosen.chip = chips.front();
  return chosen;
}

std::string shapeText(const KernelEntry &e, const Problem &p) {
  std::string names = e.shapeNames, s;
  size_t pos = 0;
  for (int64_t v : p.shape) {
    size_t comma = names.find(',', pos);
    s += (s.empty() ? "" : " ") + names.substr(pos, comma - pos) + "=" +
         std::to_string(v);
    pos = comma == std::string::npos ? names.size() : comma + 1;
  }
  if (e.hasEps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " eps=%g", p.eps);
    s += buf;
  }
  return s;
}

/// --launch-only: the options that apply to it, then the launch.
int runLaunchOnly(const Options &o) {
  if (o.artifact.empty())
    throw std::invalid_argument("--launch-only needs --artifact FILE.hkrt");
  if (o.shape || o.eps || o.toleranceScale != 1.0)
    throw std::invalid_argument(
        "--shape, --eps and --tolerance-scale belong to the reference check; "
        "--launch-only takes --args");
  if (o.testShape)
    throw std::invalid_argument("--test-shape belongs to the reference "
                                "check; --launch-only takes --args");
  hkrt::Device dev = openDevice(o);
  startTiming(o, dev);
  int status =
      hk::run::launchOnly(dev, o.artifact, o.kernel, o.args, o.saves, o.seed);
  if (o.timing)
    printTiming(dev);
  return status;
}

/// --code-object: the options that apply to it, then the launch.
int runCodeObject(const Options &o) {
  if (o.codeObject->path.empty())
    throw std::invalid_argument(
        "--grid, --block, --lds and --kernarg belong to --code-object FILE");
  if (!o.artifact.empty() || o.launchOnly || o.args || o.shape || o.testShape ||
      o.eps || (o.device != "auto" && o.device != "isa"))
    throw std::invalid_argument(
        "--code-object runs on the ISA simulator with --chip, --kernel, "
        "--grid, --block, --lds, --kernarg and --save only");
  hk::run::CodeObjectOptions c = *o.codeObject;
  c.chip = o.chip;
  c.kernel = o.kernel;
  c.saves = o.saves;
  c.timing = o.timing;
  c.trace = o.trace;
  return hk::run::runCodeObject(c);
}

std::string describeParams(const std::map<std::string, std::string> &params) {
  std::string s;
  for (const auto &[name, value] : params)
    s += (s.empty() ? "" : ", ") + name + "=" + value;
  return s;
}

/// The template instance `o` asks for, or the one a tuned table names for
/// `shape`: compiled and put in place of the library's artifact. What ran,
/// for the `instance:` line.
std::string chooseInstance(const Options &o, const KernelEntry &entry,
                           const std::string &chip,
                           const std::vector<int64_t> &shape, Library &lib) {
  if (!o.artifact.empty())
    return o.params.empty() ? "the artifact's"
                            : describeParams(o.params) + " (--param)";
  std::string source = hk::run::kernelSourcePath(entry.name);
  if (!o.params.empty()) {
    lib.overrideArtifact(entry.name, hk::run::compileSource(
                                         source, o.params, kernelChips(entry)));
    return describeParams(o.params) + " (--param)";
  }
  if (o.noTuned)
    return "default (--no-tuned)";
  std::optional<hk::run::TunedChoice> tuned =
      hk::run::findTuned(entry.name, chip, shape);
  if (!tuned)
    return "default";
  lib.overrideArtifact(entry.name, hk::run::compileSource(source, tuned->params,
                                                          kernelChips(entry)));
  return describeParams(tuned->params) + " (tuned: " + tuned->table +
         ", bucket " + joinShape(tuned->bucket) + ")";
}

int run(const Options &o) {
  if (o.codeObject)
    return runCodeObject(o);
  if (o.list) {
    std::fputs(kernelList().c_str(), stdout);
    return 0;
  }
  if (o.kernel.empty())
    throw std::invalid_argument("no kernel named (see --help)");
  if (o.launchOnly)
    return runLaunchOnly(o);
  if (o.args)
    throw std::invalid_argument("--args needs --launch-only");
  if (!o.saves.empty())
    throw std::invalid_argument("--save needs --launch-only");
  if (o.shape && o.testShape)
    throw std::invalid_argument("--shape and --test-shape: give one");
  const KernelEntry *entry = findKernel(o.kernel);
  if (!entry)
    throw std::invalid_argument(
        "no reference for a kernel named '" + o.kernel + "'; known: " + [] {
          std::string s;
          for (const KernelEntry *e : kernelTable())
            s += (s.empty() ? "" : ", ") + std::string(e->name);
          return s;
        }());
  if (!o.eps || entry->hasEps) {
  } else {
    throw std::invalid_argument(std::string(entry->name) + " takes no --eps");
  }

  hkrt::Device dev = openDevice(withKernelChip(o, *entry));
  checkKernelChip(*entry, dev.chip());
  Library lib(dev, o.kernelDir.empty() ? defaultKernelDir() : o.kernelDir);
  if (!o.artifact.empty())
    lib.overrideArtifact(entry->name, o.artifact);
  const char *device = hk::run::deviceName(dev);

  Problem problem;
  if (o.testShape)
    problem.shape = entry->testShape;
  else
    problem.shape = o.shape ? *o.shape : entry->defaultShape;
  problem.eps = o.eps ? *o.eps : entry->defaultEps;
  std::mt19937 gen(o.seed);
  entry->setup(problem, gen);

  std::string instance =
      chooseInstance(o, *entry, dev.chip(), problem.shape, lib);
  std::printf("kernel:    %s (%s in %s)\n", entry->name, entry->symbol(),
              lib.artifactPath(entry->name).c_str());
  std::printf("instance:  %s\n", instance.c_str());
  std::printf("device:    %s %s\n", device, dev.chip().c_str());
  std::printf("shape:     %s, seed %u\n", shapeText(*entry, problem).c_str(),
              o.seed);
  std::fflush(stdout);

  if (o.timing) {
    // The model runs a few batches of workgroups: the outputs are not the
    // kernel's, so nothing is checked.
    startTiming(o, dev);
    launchProblem(lib, *entry, problem);
    printTiming(dev);
    std::printf("TIMED %s %s %s %s: not checked (the timing mode runs "
                "sampled workgroups only)\n",
                entry->name, dev.chip().c_str(), device,
                shapeText(*entry, problem).c_str());
    return 0;
  }
  CheckResult r = runAndCheck(lib, *entry, problem, o.toleranceScale);
  Tolerance tol = entry->tolerance(problem);
  for (const CheckResult::Output &out : r.outputs) {
    std::printf("%-10s %lld elements: max abs error %.3e, max rel error "
                "%.3e, error/tolerance %.3f; %lld mismatches, %lld "
                "unwritten, %lld guard writes\n",
                (out.name + ":").c_str(), (long long)out.elements,
                out.maxAbsError, out.maxRelError, out.worstRatio,
                (long long)out.mismatches, (long long)out.unwritten,
                (long long)out.guardWrites);
    if (!out.firstMismatch.empty())
      std::printf("           first mismatch %s\n", out.firstMismatch.c_str());
  }
  std::printf("tolerance: |err| <= %s%s\n", tol.formula.c_str(),
              o.toleranceScale == 1.0
                  ? ""
                  : (", times " + std::to_string(o.toleranceScale)).c_str());
  std::printf("           because: %s\n", tol.reason.c_str());
  std::printf("time:      %.3f s (launch to completion)\n", r.seconds);
  std::printf("%s %s %s %s %s: max abs error %.3e, max rel error %.3e, "
              "time %.3f s\n",
              r.pass ? "PASS" : "FAIL", entry->name, dev.chip().c_str(), device,
              shapeText(*entry, problem).c_str(), r.maxAbsError, r.maxRelError,
              r.seconds);
  return r.pass ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  try {
    Options options = parseArgs(argc, argv);
    if (hk::run::isSource(options.artifact)) {
      // For a library kernel's chips only (gemm_mx: gfx950).
      const KernelEntry *entry = findKernel(options.kernel);
      options.artifact = hk::run::compileSource(
          options.artifact, options.params,
          entry ? kernelChips(*entry) : std::vector<std::string>());
    } else if (!options.artifact.empty() && !options.params.empty())
      throw std::invalid_argument("--param instantiates a template: a "
                                  "library kernel or --artifact FILE.mlir");
    return run(options);
  } catch (const hkrt::Error &e) {
    std::fprintf(stderr, "hk-run: error: %s\n", e.what());
  } catch (const std::bad_alloc &) {
    // Sizes that pass the checks can still need more host memory (inputs,
    // references and error scales in float64) than the machine has.
    std::fprintf(stderr, "hk-run: error: out of host memory for this "
                         "problem; try smaller sizes\n");
  } catch (const std::exception &e) {
    std::fprintf(stderr, "hk-run: error: %s\n", e.what());
  }
  return 1;
}
