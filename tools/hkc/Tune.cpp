//===- Tune.cpp - hkc --tune ----------------------------------------------===//

#include "Tune.h"

#include "hk/Base/Artifact.h"
#include "hk/Base/Error.h"
#include "hk/Base/InputLimits.h"
#include "hk/Base/TunedTable.h"
#include "hk/Compiler/Compiler.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>

using namespace mlir;

namespace hk::hkc {

namespace {

/// Ranges wider than this must be narrowed with --space.
constexpr int64_t kMaxRangeValues = 64;

int fail(const llvm::Twine &message) {
  llvm::errs() << "hkc: --tune: " << message << "\n";
  return 1;
}

std::string joinShape(const std::vector<int64_t> &shape) {
  std::string s;
  for (int64_t d : shape)
    s += (s.empty() ? "" : ",") + std::to_string(d);
  return s;
}

std::string describe(const ParamValues &values) {
  std::vector<std::string> parts;
  for (const auto &[name, value] : values)
    parts.push_back(name + "=" + value);
  return llvm::join(parts, ", ");
}

//===----------------------------------------------------------------------===//
// hk-run: the harness that sets up a kernel's arguments for a shape
//===----------------------------------------------------------------------===//

/// $HK_RUN, else the hk-run beside this hkc.
std::string hkRunPath() {
  if (const char *env = std::getenv("HK_RUN"); env && *env)
    return env;
  std::string self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&hkRunPath));
  llvm::SmallString<256> path(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(path, "hk-run");
  return path.str().str();
}

/// Runs `args` with stdout and stderr into files under `dir` named by
/// `tag`; the exit status (-1 when it could not start), with `out` and
/// `err` their text.
int runTool(llvm::ArrayRef<std::string> args, const std::string &dir,
            const std::string &tag, std::string &out, std::string &err) {
  std::string outPath = dir + "/" + tag + ".out",
              errPath = dir + "/" + tag + ".err";
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(outPath), llvm::StringRef(errPath)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(args.front(), argv, std::nullopt,
                                         redirects, 0, 0, &message);
  auto slurp = [](const std::string &path) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  };
  out = slurp(outPath);
  err = status < 0 ? message : slurp(errPath);
  return status;
}

/// The number of shape dimensions of `kernel`'s harness, from
/// `hk-run --list` ("  name --shape M,N,K (...)"); an error naming the
/// known kernels when there is none.
llvm::Expected<size_t> harnessDims(const std::string &hkRun,
                                   const std::string &kernel,
                                   const std::string &dir) {
  std::string out, err;
  if (runTool({hkRun, "--list"}, dir, "list", out, err) != 0)
    return llvm::createStringError("cannot list the kernel harnesses with " +
                                   hkRun + ": " + err);
  std::vector<std::string> known;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(out).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef> words;
    line.split(words, ' ', -1, /*KeepEmpty=*/false);
    if (words.size() < 3 || words[1] != "--shape" || line.front() != ' ')
      continue;
    if (words[0] == kernel)
      return words[2].count(',') + 1;
    known.push_back(words[0].str());
  }
  return llvm::createStringError(
      "no harness for a kernel named '" + kernel +
      "': --tune times a kernel of the library (hk-run --list: " +
      llvm::join(known, ", ") +
      "); give --kernel NAME for a template of "
      "one of them stored elsewhere");
}

//===----------------------------------------------------------------------===//
// The space: every combination of the parameters' values
//===----------------------------------------------------------------------===//

struct Space {
  std::vector<ParamValues> instances; ///< the default first
  std::vector<std::string> excluded;  ///< an instance and why
};

/// The values `param` takes in the search.
FailureOr<std::vector<std::string>>
valuesOf(const TemplateParam &param, const KernelTemplate &unconstrained,
         const TuneRequest &request) {
  std::vector<std::string> values;
  if (auto it = request.fixed.find(param.name); it != request.fixed.end())
    values = {it->second};
  else if (auto it = request.space.find(param.name); it != request.space.end())
    values = it->second;
  else if (!param.values.empty())
    return param.values;
  else if (*param.max - *param.min >= kMaxRangeValues)
    return emitError(param.loc)
           << "parameter '" << param.name << "' ranges over "
           << *param.max - *param.min + 1 << " values: narrow it with --space "
           << param.name << "=V1,V2,...";
  else
    for (int64_t v = *param.min; v <= *param.max; ++v)
      values.push_back(std::to_string(v));
  // Each value given by hand is checked against the declaration alone:
  // the constraints apply to whole instances, below.
  for (const std::string &v : values)
    if (failed(resolveParams(unconstrained, {{param.name, v}}, param.loc)))
      return failure();
  return values;
}

/// The instances to time: the default, then every combination of the
/// values that satisfies the constraints.
FailureOr<Space> enumerate(const KernelTemplate &tmpl,
                           const TuneRequest &request, MLIRContext *context) {
  KernelTemplate unconstrained = tmpl;
  unconstrained.constraints.clear();
  std::vector<std::vector<std::string>> choices;
  for (const TemplateParam &p : tmpl.params) {
    FailureOr<std::vector<std::string>> values =
        valuesOf(p, unconstrained, request);
    if (failed(values))
      return failure();
    choices.push_back(std::move(*values));
  }
  Space space;
  space.instances.push_back(tmpl.defaults());
  std::vector<size_t> index(choices.size(), 0);
  while (true) {
    ParamValues values;
    for (size_t i = 0; i < choices.size(); ++i)
      values[tmpl.params[i].name] = choices[i][index[i]];
    // A combination a constraint refuses is listed, not an error.
    std::string why;
    {
      // The message ends with the instance's values, which the line
      // already starts with.
      ScopedDiagnosticHandler capture(context, [&](Diagnostic &d) {
        why = llvm::StringRef(d.str()).split(" fails for ").first.str() +
              " fails";
        return success();
      });
      if (failed(resolveParams(tmpl, values, UnknownLoc::get(context))))
        space.excluded.push_back(describe(values) + ": " + why);
      else if (values != tmpl.defaults())
        space.instances.push_back(values);
    }
    size_t i = 0;
    while (i < index.size() && ++index[i] == choices[i].size())
      index[i++] = 0;
    if (i == index.size())
      return space;
  }
}

//===----------------------------------------------------------------------===//
// A worker: one instance on one chip, timed at every shape
//===----------------------------------------------------------------------===//

struct Work {
  const TuneRequest &request;
  const std::string &source; ///< the template's text
  const std::string &hkRun;
  const std::string &dir; ///< scratch files
};

/// The instance compiled for `chip` into <dir>/<tag>.hkrt; its path, or
/// the compiler's diagnostics.
llvm::Expected<std::string> compileInstance(const Work &work,
                                            const ParamValues &values,
                                            const std::string &chip,
                                            const std::string &tag) {
  DialectRegistry registry;
  compiler::registerDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(work.source, work.request.input),
      llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
  OwningOpRef<ModuleOp> module = parseInstance(sourceMgr, &context, values);
  compiler::Options options;
  options.chips = {chip};
  FailureOr<rt::Artifact> artifact =
      module ? compiler::compileArtifact(*module, options)
             : FailureOr<rt::Artifact>(failure());
  if (failed(artifact))
    return llvm::createStringError("does not compile:\n" + diagnostics);
  std::string path = work.dir + "/" + tag + ".hkrt";
  try {
    rt::writeArtifactFile(*artifact, path);
  } catch (const rt::Error &e) {
    return llvm::createStringError(e.what());
  }
  return path;
}

/// The model's time of the artifact at `path` at `shape`, from hk-run's
/// TIMING line.
llvm::Expected<double> timeAt(const Work &work, const std::string &path,
                              const std::string &chip,
                              const std::vector<int64_t> &shape,
                              const std::string &tag) {
  std::string out, err;
  int status = runTool({work.hkRun, work.request.kernel, "--shape",
                        joinShape(shape), "--chip", chip, "--device", "isa",
                        "--timing", "--artifact", path},
                       work.dir, tag, out, err);
  if (status != 0)
    return llvm::createStringError("at " + joinShape(shape) + ": " +
                                   llvm::StringRef(err).trim().str());
  for (llvm::StringRef line : llvm::split(out, '\n')) {
    if (!line.consume_front("TIMING "))
      continue;
    llvm::Expected<llvm::json::Value> report = llvm::json::parse(line);
    if (!report)
      return report.takeError();
    const llvm::json::Object *o = report->getAsObject();
    if (std::optional<double> us =
            o ? o->getNumber("microseconds") : std::nullopt)
      return *us;
  }
  return llvm::createStringError("at " + joinShape(shape) +
                                 ": hk-run printed no TIMING line");
}

/// A worker's result: "ok" and one time a line, or "error" and why.
std::string measure(const Work &work, const ParamValues &values,
                    const std::string &chip, size_t job) {
  std::string tag = "job" + std::to_string(job);
  llvm::Expected<std::string> path = compileInstance(work, values, chip, tag);
  if (!path)
    return "error\n" + llvm::toString(path.takeError());
  std::string result = "ok\n";
  for (size_t s = 0; s < work.request.shapes.size(); ++s) {
    llvm::Expected<double> us =
        timeAt(work, *path, chip, work.request.shapes[s],
               tag + "-" + std::to_string(s));
    if (!us) {
      result = "error\n" + llvm::toString(us.takeError());
      break;
    }
    result += llvm::formatv("{0:f4}\n", *us).str();
  }
  llvm::sys::fs::remove(*path);
  return result;
}

//===----------------------------------------------------------------------===//
// The pool of workers
//===----------------------------------------------------------------------===//

/// Runs `work(i)` for i < count in forked workers, at most `parallel` at a
/// time, in order of i; each result comes back through a file in `dir`.
/// After a result for which `keepGoing` is false no new worker starts.
/// A worker that dies gives an "error" result.
std::vector<std::string>
runWorkers(size_t count, unsigned parallel, const std::string &dir,
           llvm::function_ref<std::string(size_t)> work,
           llvm::function_ref<bool(size_t, const std::string &)> keepGoing) {
  std::vector<std::string> results(count);
  std::map<pid_t, size_t> running;
  size_t next = 0;
  bool stop = false;
  auto resultPath = [&](size_t i) {
    return dir + "/result" + std::to_string(i);
  };
  while (running.size() || (!stop && next < count)) {
    while (!stop && next < count && running.size() < parallel) {
      // The child gets a copy of everything, buffers included.
      llvm::outs().flush();
      llvm::errs().flush();
      std::fflush(nullptr);
      pid_t pid = fork();
      if (pid == 0) {
        std::string text;
        std::optional<std::string> fatal =
            runCatchingFatalErrors([&] { text = work(next); });
        std::error_code ec;
        llvm::raw_fd_ostream os(resultPath(next), ec);
        os << (fatal ? "error\nLLVM failed: " + *fatal : text);
        os.close();
        _exit(ec || os.has_error() ? 1 : 0);
      }
      if (pid < 0) {
        results[next] = "error\ncannot start a worker process";
        stop = !keepGoing(next, results[next]);
        ++next;
        continue;
      }
      running[pid] = next++;
    }
    if (running.empty())
      break;
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 || !running.count(pid))
      continue;
    size_t i = running[pid];
    running.erase(pid);
    auto buffer = llvm::MemoryBuffer::getFile(resultPath(i));
    results[i] =
        buffer && WIFEXITED(status) && WEXITSTATUS(status) == 0
            ? (*buffer)->getBuffer().str()
            : "error\nthe worker died (status " + std::to_string(status) + ")";
    if (!keepGoing(i, results[i]))
      stop = true;
  }
  return results;
}

//===----------------------------------------------------------------------===//
// The table and the choice
//===----------------------------------------------------------------------===//

/// The times of one instance on one chip, one per shape, or why not.
struct Measured {
  std::vector<double> microseconds;
  std::string error;
};

Measured parseResult(const std::string &text) {
  Measured m;
  llvm::StringRef rest = text;
  llvm::StringRef head = rest.split('\n').first;
  rest = rest.split('\n').second;
  if (head != "ok") {
    // No text: the worker never started, the search having stopped.
    m.error = text.empty() ? "not run: the default instance failed first"
                           : rest.trim().str();
    return m;
  }
  for (llvm::StringRef line : llvm::split(rest, '\n')) {
    double us;
    if (!line.trim().empty() && !line.trim().getAsDouble(us))
      m.microseconds.push_back(us);
  }
  return m;
}

/// Per bucket of the shapes, the instance with the least time summed over
/// the bucket's shapes; the default wins ties.
std::vector<tuned::Entry> choose(const TuneRequest &request, const Space &space,
                                 const std::vector<Measured> &onChip) {
  std::map<std::vector<int64_t>, std::vector<size_t>> buckets;
  for (size_t s = 0; s < request.shapes.size(); ++s)
    buckets[tuned::shapeBucket(request.shapes[s])].push_back(s);
  std::vector<tuned::Entry> entries;
  for (const auto &[bucket, members] : buckets) {
    tuned::Entry entry;
    entry.bucket = bucket;
    std::optional<size_t> best;
    double bestTime = 0;
    for (size_t i = 0; i < space.instances.size(); ++i) {
      if (!onChip[i].error.empty())
        continue;
      double sum = 0;
      for (size_t s : members)
        sum += onChip[i].microseconds[s];
      if (i == 0)
        entry.defaultMicroseconds = sum;
      if (!best || sum < bestTime)
        best = i, bestTime = sum;
    }
    for (size_t s : members)
      entry.shapes.push_back(request.shapes[s]);
    if (*best != 0)
      entry.params = space.instances[*best];
    entry.microseconds = bestTime;
    entries.push_back(std::move(entry));
  }
  return entries;
}

void printRows(const TuneRequest &request, const std::string &chip,
               const Space &space, const std::vector<Measured> &onChip) {
  for (size_t i = 0; i < space.instances.size(); ++i) {
    std::string instance =
        describe(space.instances[i]) + (i == 0 ? " (default)" : "");
    if (!onChip[i].error.empty()) {
      llvm::outs() << llvm::formatv("{0,-8}  {1,-22}  {2,12}  {3}\n", chip, "-",
                                    "failed", instance);
      continue;
    }
    for (size_t s = 0; s < request.shapes.size(); ++s)
      llvm::outs() << llvm::formatv("{0,-8}  {1,-22}  {2,12:f4}  {3}\n", chip,
                                    joinShape(request.shapes[s]),
                                    onChip[i].microseconds[s], instance);
  }
}

void printChoice(const std::string &chip, const tuned::Entry &e) {
  llvm::outs() << "best " << chip << " bucket " << joinShape(e.bucket) << ": "
               << (e.params.empty() ? std::string("default")
                                    : describe(e.params))
               << llvm::formatv(", {0:f4} us (default {1:f4} us, {2:f3}x)\n",
                                e.microseconds, e.defaultMicroseconds,
                                e.defaultMicroseconds / e.microseconds);
}

std::string tablePath(const TuneRequest &request, const std::string &chip) {
  if (!request.tunedDir.empty())
    return tuned::userTablePath(request.tunedDir, request.kernel, chip);
  llvm::SmallString<256> dir(request.input);
  llvm::sys::fs::make_absolute(dir);
  return tuned::libraryTablePath(llvm::sys::path::parent_path(dir).str(), chip);
}

/// One chip's rows, failures and choice; the entries written with --write.
int report(const TuneRequest &request, const std::string &chip,
           const Space &space, const std::vector<Measured> &onChip) {
  printRows(request, chip, space, onChip);
  for (size_t i = 0; i < space.instances.size(); ++i)
    if (!onChip[i].error.empty())
      llvm::errs() << "hkc: --tune: " << chip << ", "
                   << describe(space.instances[i]) << ": " << onChip[i].error
                   << "\n";
  if (!onChip[0].error.empty())
    return fail("the default instance failed on " + chip +
                ": nothing to compare with");
  std::vector<tuned::Entry> entries = choose(request, space, onChip);
  for (const tuned::Entry &e : entries)
    printChoice(chip, e);
  if (!request.write)
    return 0;
  std::string path = tablePath(request, chip);
  try {
    tuned::mergeEntries(path, request.kernel, chip, "model", entries);
  } catch (const std::exception &e) {
    return fail(e.what());
  }
  llvm::outs() << "wrote " << path << "\n";
  return 0;
}

/// The template at request.input, read into `sourceMgr` and checked; its
/// text in `source`.
FailureOr<KernelTemplate> readInput(const TuneRequest &request,
                                    MLIRContext &context,
                                    llvm::SourceMgr &sourceMgr,
                                    std::string &source) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(request.input, &error);
  if (!buffer) {
    fail(error);
    return failure();
  }
  source = buffer->getBuffer().str();
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  if (!checkNestingDepth(sourceMgr, request.maxNesting, "--max-nesting-depth=N",
                         llvm::errs()))
    return failure();
  OwningOpRef<ModuleOp> module = parseInstance(sourceMgr, &context, {});
  if (!module)
    return failure();
  FailureOr<KernelTemplate> tmpl = readTemplate(*module, sourceMgr);
  if (succeeded(tmpl) && tmpl->empty()) {
    fail(request.input + " declares no parameters ('" + kParamsAttrName +
         "'): there is nothing to tune");
    return failure();
  }
  for (const auto &[name, values] : request.space)
    if (succeeded(tmpl) && request.fixed.count(name)) {
      fail("parameter '" + name + "' is given both --param and --space");
      return failure();
    }
  return tmpl;
}

/// Checks the template and the shapes, then times every instance on every
/// chip; the results by chip, then instance.
int search(const TuneRequest &request, const std::string &dir) {
  DialectRegistry registry;
  compiler::registerDialects(registry);
  // No thread pool in the parent: its workers are forked.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  std::string source;
  // The template's diagnostics, located in it, up to the choice of the
  // instances (a --space value outside its declaration, too).
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  FailureOr<KernelTemplate> tmpl =
      readInput(request, context, sourceMgr, source);
  if (failed(tmpl))
    return 1;
  std::string hkRun = hkRunPath();
  llvm::Expected<size_t> dims = harnessDims(hkRun, request.kernel, dir);
  if (!dims)
    return fail(llvm::toString(dims.takeError()));
  for (const std::vector<int64_t> &shape : request.shapes)
    if (shape.size() != *dims)
      return fail("the shape " + joinShape(shape) + " has " +
                  std::to_string(shape.size()) + " dimensions; " +
                  request.kernel + "'s harness takes " + std::to_string(*dims) +
                  " (hk-run --list)");
  FailureOr<Space> space = enumerate(*tmpl, request, &context);
  if (failed(space))
    return 1;

  size_t n = space->instances.size();
  llvm::outs() << "tuning " << request.kernel << " (" << request.input
               << "): " << n << " instances x " << request.shapes.size()
               << " shapes on " << llvm::join(request.chips, ",") << ", "
               << request.jobs << " jobs\n"
               << "times: the ISA simulator's timing model (docs/timing.md), "
                  "not a GPU\n";
  for (const std::string &e : space->excluded)
    llvm::outs() << "excluded " << e << "\n";
  Work work{request, source, hkRun, dir};
  std::vector<std::string> results = runWorkers(
      n * request.chips.size(), request.jobs, dir,
      [&](size_t job) {
        return measure(work, space->instances[job % n], request.chips[job / n],
                       job);
      },
      // The default comes first on each chip; without it there is no
      // baseline, so its failure (a shape the harness refuses, often)
      // stops the search.
      [&](size_t job, const std::string &result) {
        return job % n != 0 || llvm::StringRef(result).starts_with("ok");
      });
  llvm::outs() << llvm::formatv("{0,-8}  {1,-22}  {2,12}  {3}\n", "chip",
                                "shape", "microseconds", "instance");
  int status = 0;
  for (size_t c = 0; c < request.chips.size(); ++c) {
    std::vector<Measured> onChip;
    for (size_t i = 0; i < n; ++i)
      onChip.push_back(parseResult(results[c * n + i]));
    status |= report(request, request.chips[c], *space, onChip);
  }
  return status;
}

} // namespace

bool parseShape(llvm::StringRef text, std::vector<int64_t> &shape,
                std::string &error) {
  shape.clear();
  for (llvm::StringRef part : llvm::split(text, ',')) {
    int64_t d;
    if (part.trim().getAsInteger(10, d) || d < 0) {
      error = "--shape '" + text.str() +
              "' is not comma-separated non-negative integers";
      return false;
    }
    shape.push_back(d);
  }
  return true;
}

bool addSpace(llvm::StringRef text,
              std::map<std::string, std::vector<std::string>> &space,
              std::string &error) {
  auto [name, list] = text.split('=');
  name = name.trim();
  std::vector<std::string> values;
  for (llvm::StringRef v : llvm::split(list, ','))
    if (!v.trim().empty())
      values.push_back(v.trim().str());
  if (name.empty() || values.empty() || !text.contains('=')) {
    error = "--space '" + text.str() + "' is not NAME=V1,V2,...";
    return false;
  }
  if (!space.emplace(name.str(), values).second) {
    error = "--space: parameter '" + name.str() + "' given twice";
    return false;
  }
  return true;
}

int tune(const TuneRequest &request) {
  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("hkc-tune", dir))
    return fail("cannot create a scratch directory: " + ec.message());
  int status = search(request, dir.str().str());
  llvm::sys::fs::remove_directories(dir);
  return status;
}

} // namespace hk::hkc
