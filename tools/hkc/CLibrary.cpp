//===- CLibrary.cpp - hkc --emit=c-library --------------------------------===//
//
// Writes a C library for an artifact: typed launch functions whose
// parameters come from each kernel's metadata (a typed host pointer per
// memref and a size per dynamic dimension, a stride per dynamic stride, a C
// scalar per scalar), a grid function evaluating the kernel's grid
// expressions, and the artifact's bytes, loaded through hkrt.h.
//===----------------------------------------------------------------------===//

#include "CLibrary.h"

#include "hk/Base/KernelInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace hk;
using llvm::StringRef;

namespace {

/// A parameter of a generated function.
struct CParam {
  std::string type, name;
};

/// How C spells one element type: as a host element (pointers), as a
/// scalar parameter, and hkrt.h's enumerator.
struct CType {
  const char *element, *scalar, *enumerator;
};

/// In hkrt_dtype's order (hk/Base/CTypes.h). Half floats and the 8-bit
/// float formats have no portable C type: arrays of them hold bit patterns,
/// scalars of them are passed as float and rounded by the runtime.
const CType kCTypes[] = {
    {"uint16_t", "float", "HKRT_DTYPE_BF16"},
    {"uint16_t", "float", "HKRT_DTYPE_F16"},
    {"float", "float", "HKRT_DTYPE_F32"},
    {"double", "double", "HKRT_DTYPE_F64"},
    {"int8_t", "int8_t", "HKRT_DTYPE_I8"},
    {"int16_t", "int16_t", "HKRT_DTYPE_I16"},
    {"int32_t", "int32_t", "HKRT_DTYPE_I32"},
    {"int64_t", "int64_t", "HKRT_DTYPE_I64"},
    {"int64_t", "int64_t", "HKRT_DTYPE_INDEX"},
    {"uint8_t", "float", "HKRT_DTYPE_F8E4M3FNUZ"},
    {"uint8_t", "float", "HKRT_DTYPE_F8E5M2FNUZ"},
    {"uint8_t", "float", "HKRT_DTYPE_F8E4M3FN"},
    {"uint8_t", "float", "HKRT_DTYPE_F8E5M2"},
    {"uint8_t", "bool", "HKRT_DTYPE_BOOL"},
    {"uint8_t", "float", "HKRT_DTYPE_FP8"},
    {"uint8_t", "float", "HKRT_DTYPE_BF8"},
};
static_assert(std::size(kCTypes) == HKRT_DTYPE_COUNT,
              "one C spelling per hkrt_dtype");

const CType &cType(hkrt_dtype t) { return kCTypes[t]; }

bool isFloat(hkrt_dtype t) {
  StringRef scalar = cType(t).scalar;
  return scalar == "float" || scalar == "double";
}

/// Words C or C++ reserve; an argument named like one gets a trailing '_'.
bool isReserved(StringRef name) {
  static const llvm::StringSet<> words = {
      "auto", "bool", "break", "case", "catch", "char", "class", "const",
      "continue", "default", "delete", "do", "double", "else", "enum",
      "explicit", "extern", "false", "float", "for", "friend", "goto", "if",
      "inline", "int", "long", "mutable", "namespace", "new", "operator",
      "private", "protected", "public", "register", "restrict", "return",
      "short", "signed", "sizeof", "static", "struct", "switch", "template",
      "this", "throw", "true", "try", "typedef", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "while",
      // The generated functions' own parameters and locals.
      "library", "grid", "args", "hosts", "bytes", "status", "sizes", "strides",
      "symbols", "exprs"};
  return words.contains(name);
}

std::string sanitize(StringRef text) {
  std::string id;
  for (char c : text)
    id += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (id.empty() || llvm::isDigit(id.front()))
    id.insert(id.begin(), '_');
  return id;
}

/// `text` as a C string literal (kernel names are MLIR symbols, which may
/// hold any character).
std::string cString(StringRef text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\')
      out += {'\\', char(c)};
    else if (llvm::isPrint(c) && c != '?') // '?' could start a trigraph
      out += char(c);
    else
      out += {'\\', char('0' + (c >> 6)), char('0' + ((c >> 3) & 7)),
              char('0' + (c & 7))};
  }
  return out + "\"";
}

/// `text` safe inside a C comment.
std::string commentText(StringRef text) {
  std::string out = text.str();
  for (size_t at = out.find("*/"); at != std::string::npos;
       at = out.find("*/", at))
    out.replace(at, 2, "* /");
  return out;
}

/// The C name of argument `i`: its name in the source, else arg<i>.
std::string argName(const rt::ArgInfo &arg, size_t i) {
  std::string name = sanitize(arg.name.empty() ? "arg" + std::to_string(i)
                                               : StringRef(arg.name));
  return isReserved(name) ? name + "_" : name;
}

bool dynamicSize(const rt::ArgInfo &arg, int64_t d) {
  return arg.shape.empty() || arg.shape[d] == rt::kDynamic;
}

bool dynamicStride(const rt::ArgInfo &arg, int64_t d) {
  return arg.layout == rt::MemrefLayout::Strided &&
         arg.strides[d] == rt::kDynamic;
}

std::string sizeName(StringRef arg, int64_t d) {
  return llvm::formatv("{0}_size{1}", arg, d).str();
}

std::string strideName(StringRef arg, int64_t d) {
  return llvm::formatv("{0}_stride{1}", arg, d).str();
}

/// A kernel as the library names it.
struct Kernel {
  const rt::KernelInfo *info;
  std::string function;              ///< <library>_<kernel>
  std::vector<std::string> argNames; ///< C names, one per argument
};

/// The launch function's parameters after the library: per memref its
/// typed pointer, a size per dynamic dimension and a stride per dynamic
/// stride; per scalar its C scalar.
std::vector<CParam> launchParams(const Kernel &k) {
  std::vector<CParam> params;
  for (auto [i, arg] : llvm::enumerate(k.info->args)) {
    const std::string &name = k.argNames[i];
    if (arg.kind == HKRT_ARG_SCALAR) {
      params.push_back({cType(arg.dtype).scalar, name});
      continue;
    }
    params.push_back({std::string(cType(arg.dtype).element) + " *", name});
    for (int64_t d = 0; d < arg.rank; ++d)
      if (dynamicSize(arg, d))
        params.push_back({"int64_t", sizeName(name, d)});
    for (int64_t d = 0; d < arg.rank; ++d)
      if (dynamicStride(arg, d))
        params.push_back({"int64_t", strideName(name, d)});
  }
  return params;
}

/// The grid function's parameters: what the grid's symbols are bound to
/// (dynamic sizes and scalars), in argument order.
std::vector<CParam> gridParams(const Kernel &k) {
  std::vector<CParam> params;
  for (auto [i, arg] : llvm::enumerate(k.info->args)) {
    const std::string &name = k.argNames[i];
    for (const rt::GridSymbol &s : k.info->gridSymbols) {
      if (s.arg != int64_t(i))
        continue;
      CParam p = s.isScalar() ? CParam{cType(arg.dtype).scalar, name}
                              : CParam{"int64_t", sizeName(name, s.dim)};
      if (!s.isScalar() && !dynamicSize(arg, s.dim))
        continue; // a static size is a constant of the grid
      if (llvm::none_of(params,
                        [&](const CParam &q) { return q.name == p.name; }))
        params.push_back(p);
    }
  }
  return params;
}

/// The value C code binds grid symbol `s` to.
std::string symbolValue(const Kernel &k, const rt::GridSymbol &s) {
  const rt::ArgInfo &arg = k.info->args[s.arg];
  if (s.isScalar())
    return "(int64_t)" + k.argNames[s.arg];
  if (!dynamicSize(arg, s.dim))
    return std::to_string(arg.shape[s.dim]);
  return sizeName(k.argNames[s.arg], s.dim);
}

/// `head(params...)`, one parameter a line when it does not fit in 80
/// columns; `first` and `last` are extra parameters around `params`.
std::string prototype(StringRef head, StringRef first,
                      const std::vector<CParam> &params, StringRef last) {
  std::vector<std::string> decls;
  if (!first.empty())
    decls.push_back(first.str());
  for (const CParam &p : params)
    decls.push_back(p.type + (StringRef(p.type).ends_with("*") ? "" : " ") +
                    p.name);
  if (!last.empty())
    decls.push_back(last.str());
  if (decls.empty())
    decls.push_back("void");
  std::string line = (head + "(" + llvm::join(decls, ", ") + ")").str();
  if (line.size() <= 80)
    return line;
  return (head + "(\n    " + llvm::join(decls, ",\n    ") + ")").str();
}

std::string argList(const std::vector<CParam> &params) {
  return llvm::join(
      llvm::map_range(params, [](const CParam &p) { return p.name; }), ", ");
}

std::string gridText(const rt::KernelInfo &info) {
  std::vector<std::string> results;
  for (const rt::GridExpr &e : info.grid)
    results.push_back(e.print());
  std::string text = "(" + llvm::join(results, ", ") + ")";
  for (auto [i, s] : llvm::enumerate(info.gridSymbols)) {
    text += i ? ", " : " with ";
    text += "s" + std::to_string(i) + " = ";
    const std::string &arg = info.args[s.arg].name;
    text +=
        s.isScalar() ? arg : llvm::formatv("dim({0}, {1})", arg, s.dim).str();
  }
  return text;
}

llvm::Error duplicate(StringRef what, StringRef id) {
  return llvm::createStringError("--emit=c-library: two " + what +
                                 " map to the C identifier '" + id + "'");
}

/// The kernels with their C names; fails on two names that collide.
llvm::Expected<std::vector<Kernel>> cKernels(const rt::Artifact &artifact,
                                             StringRef library) {
  std::vector<Kernel> kernels;
  // The names every library defines besides its kernels'.
  llvm::StringSet<> functions;
  for (StringRef own :
       {"library", "artifact", "artifact_size", "load", "unload", "last_error"})
    functions.insert((library + "_" + own).str());
  for (const rt::KernelInfo &info : artifact.kernels) {
    Kernel k{&info, (library + "_" + sanitize(info.name)).str(), {}};
    if (!functions.insert(k.function).second ||
        !functions.insert(k.function + "_grid").second)
      return duplicate("kernels", k.function);
    llvm::StringSet<> params;
    for (auto [i, arg] : llvm::enumerate(info.args))
      k.argNames.push_back(argName(arg, i));
    for (const CParam &p : launchParams(k))
      if (!params.insert(p.name).second)
        return duplicate("parameters of kernel '" + info.name + "'", p.name);
    kernels.push_back(std::move(k));
  }
  return kernels;
}

void writeKernelDeclarations(llvm::raw_ostream &os, const Kernel &k,
                             StringRef library) {
  std::vector<std::string> types;
  for (const rt::ArgInfo &arg : k.info->args)
    types.push_back(arg.name + ": " + rt::argTypeText(arg));
  os << "\n/* "
     << commentText(k.info->name + "(" + llvm::join(types, ", ") + ")")
     << "\n * grid " << commentText(gridText(*k.info)) << " */\n";
  os << prototype("hkrt_status " + k.function + "_grid", "", gridParams(k),
                  "int64_t grid[3]")
     << ";\n"
     << prototype("hkrt_status " + k.function,
                  "const " + library.str() + "_library *library",
                  launchParams(k), "")
     << ";\n";
}

const char *kHeaderPreamble = R"c(
#include "hk/Runtime/hkrt.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The artifact, loaded on one device. */
typedef struct @L@_library {
  hkrt_device device;
  hkrt_module module;
} @L@_library;

/* The embedded artifact's bytes. */
extern const unsigned char @L@_artifact[];
extern const size_t @L@_artifact_size;

/* Loads the embedded artifact on `device` (which stays the caller's). */
hkrt_status @L@_load(hkrt_device device, @L@_library *library);
/* Unloads it; the library's module handle is cleared. */
hkrt_status @L@_unload(@L@_library *library);
/* Why the last call of this library on this thread failed. */
const char *@L@_last_error(void);

/* Per kernel: <kernel>_grid gives the (x, y, z) workgroup grid of a launch
 * with these sizes and scalars, from the kernel's grid expressions; the
 * launch function checks the grid, copies every memref from host memory to
 * a device buffer, launches, waits, and copies every memref back, in
 * argument order (an array passed twice ends as the later argument's
 * copy). Memrefs are given by their element 0 and, where the kernel's type
 * leaves them open, their sizes and strides (in elements). */
)c";

/// `text` with each @L@ replaced by the library's name.
std::string withName(StringRef text, StringRef library) {
  std::string out = text.str();
  for (size_t at = out.find("@L@"); at != std::string::npos;
       at = out.find("@L@", at + library.size()))
    out.replace(at, 3, library.str());
  return out;
}

} // namespace

std::string hk::hkc::cLibraryIdentifier(StringRef prefix) {
  return sanitize(llvm::sys::path::filename(prefix));
}

llvm::Expected<std::string>
hk::hkc::cLibraryHeader(const rt::Artifact &artifact, StringRef name,
                        StringRef source) {
  auto kernels = cKernels(artifact, name);
  if (!kernels)
    return kernels.takeError();
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string guard = llvm::StringRef(name).upper() + "_HK_LIBRARY_H";
  std::vector<std::string> chips;
  for (const auto &entry : artifact.codeObjects)
    chips.push_back(entry.first);
  os << "/* Generated by hkc --emit=c-library from "
     << llvm::sys::path::filename(source)
     << ": the kernels' launch functions for C and C++, with code objects "
        "for "
     << llvm::join(chips, ", ") << ". */\n\n#ifndef " << guard << "\n#define "
     << guard << "\n"
     << withName(kHeaderPreamble, name);
  for (const Kernel &k : *kernels)
    writeKernelDeclarations(os, k, name);
  os << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return text;
}

namespace {

/// The helpers every generated source has: errors, loading, the grid, and
/// the copies around a launch.
const char *kSourcePreamble = R"c(
#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[512];

static hkrt_status fail(hkrt_status status, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(last_error, sizeof last_error, format, args);
  va_end(args);
  return status;
}

/* hkrt's own message for a status it returned. */
static hkrt_status failed_in_hkrt(hkrt_status status, const char *what) {
  return fail(status, "%s: %s", what, hkrt_last_error());
}

const char *@L@_last_error(void) { return last_error; }

hkrt_status @L@_load(hkrt_device device, @L@_library *library) {
  last_error[0] = 0;
  if (!library)
    return fail(HKRT_ERROR_INVALID_ARGUMENT, "@L@_load: library is NULL");
  library->device = device;
  library->module = NULL;
  hkrt_status status = hkrt_module_load(device, @L@_artifact,
                                        @L@_artifact_size, &library->module);
  return status ? failed_in_hkrt(status, "@L@_load") : status;
}

hkrt_status @L@_unload(@L@_library *library) {
  last_error[0] = 0;
  if (!library)
    return HKRT_SUCCESS;
  hkrt_status status = hkrt_module_unload(library->module);
  library->module = NULL;
  return status ? failed_in_hkrt(status, "@L@_unload") : status;
}

/* The grid as a launch computes it: each expression evaluated by hkrt,
 * each result in [0, 2^31), missing dimensions 1. */
static hkrt_status evaluate_grid(const char *kernel, const char *const *exprs,
                                 size_t count, const int64_t *symbols,
                                 size_t num_symbols, int64_t grid[3]) {
  last_error[0] = 0;
  if (!grid)
    return fail(HKRT_ERROR_INVALID_ARGUMENT, "%s: grid is NULL", kernel);
  for (size_t d = 0; d < 3; ++d)
    grid[d] = 1;
  for (size_t d = 0; d < count; ++d) {
    int64_t value = 0;
    hkrt_status status =
        hkrt_grid_evaluate(exprs[d], symbols, num_symbols, &value);
    if (status)
      return failed_in_hkrt(status, kernel);
    if (value < 0 || value >= ((int64_t)1 << 31))
      return fail(HKRT_ERROR_INVALID_ARGUMENT,
                  "%s: grid expression '%s' gives %lld, outside [0, 2^31)",
                  kernel, exprs[d], (long long)value);
    grid[d] = value;
  }
  return HKRT_SUCCESS;
}

static size_t element_bytes(hkrt_dtype dtype) {
  switch (dtype) {
  case HKRT_DTYPE_F64: case HKRT_DTYPE_I64: case HKRT_DTYPE_INDEX:
    return 8;
  case HKRT_DTYPE_F32: case HKRT_DTYPE_I32:
    return 4;
  case HKRT_DTYPE_BF16: case HKRT_DTYPE_F16: case HKRT_DTYPE_I16:
    return 2;
  default:
    return 1;
  }
}

/* The bytes from element 0 to the end of the last element a memref
 * reaches (0 if it is empty); false on a negative size or stride, or a
 * reach past 64 bits. */
static bool reach_bytes(const hkrt_arg *arg, uint64_t *bytes) {
  uint64_t last = 0, reach = 0;
  bool empty = false;
  for (int32_t d = 0; d < arg->rank; ++d) {
    if (arg->sizes[d] < 0 || arg->strides[d] < 0)
      return false;
    empty |= arg->sizes[d] == 0;
  }
  for (int32_t d = 0; d < arg->rank && !empty; ++d)
    if (__builtin_mul_overflow((uint64_t)(arg->sizes[d] - 1),
                               (uint64_t)arg->strides[d], &reach) ||
        __builtin_add_overflow(last, reach, &last))
      return false;
  *bytes = 0;
  return empty || !__builtin_mul_overflow(last + 1,
                                          element_bytes(arg->dtype), bytes);
}

/* A memref argument's device buffer, with the host's elements copied in. */
static hkrt_status upload(hkrt_device device, const char *kernel, size_t i,
                          hkrt_arg *arg, void *host, uint64_t *bytes) {
  if (!reach_bytes(arg, bytes))
    return fail(HKRT_ERROR_INVALID_ARGUMENT,
                "%s: argument %zu: negative sizes or strides, or a memref "
                "past 64 bits", kernel, i);
  if (!host && *bytes)
    return fail(HKRT_ERROR_INVALID_ARGUMENT, "%s: argument %zu is NULL",
                kernel, i);
  hkrt_status status = hkrt_buffer_alloc(device, *bytes, &arg->buffer);
  if (!status && *bytes)
    status = hkrt_buffer_write(arg->buffer, 0, host, *bytes);
  return status ? failed_in_hkrt(status, kernel) : status;
}

/* Uploads every memref, launches, waits, copies the memrefs back and frees
 * their buffers. */
static hkrt_status run(const @L@_library *library, const char *kernel,
                       hkrt_arg *args, void *const *hosts, uint64_t *bytes,
                       size_t count) {
  hkrt_kernel handle = NULL;
  if (!library)
    return fail(HKRT_ERROR_INVALID_ARGUMENT, "%s: library is NULL", kernel);
  hkrt_status status = hkrt_kernel_get(library->module, kernel, &handle);
  if (status)
    return failed_in_hkrt(status, kernel);
  for (size_t i = 0; i < count && !status; ++i)
    if (args[i].kind == HKRT_ARG_MEMREF)
      status = upload(library->device, kernel, i, &args[i], hosts[i],
                      &bytes[i]);
  if (!status)
    status = hkrt_launch(handle, args, count);
  if (!status)
    status = hkrt_synchronize(library->device);
  for (size_t i = 0; i < count && !status; ++i)
    if (args[i].kind == HKRT_ARG_MEMREF && bytes[i])
      status = hkrt_buffer_read(args[i].buffer, 0, hosts[i], bytes[i]);
  if (status && !last_error[0])
    failed_in_hkrt(status, kernel);
  for (size_t i = 0; i < count; ++i)
    if (args[i].kind == HKRT_ARG_MEMREF)
      hkrt_buffer_free(args[i].buffer);
  return status;
}
)c";

void writeArtifactBytes(llvm::raw_ostream &os, StringRef bytes,
                        StringRef library) {
  os << "\n/* The artifact (hkc --emit=artifact's bytes). */\n"
     << "const unsigned char " << library << "_artifact[] = {";
  for (size_t i = 0; i < bytes.size(); ++i) {
    os << (i % 16 ? " " : "\n   ");
    os << llvm::formatv("{0:x2},", uint8_t(bytes[i]));
  }
  os << "\n};\nconst size_t " << library << "_artifact_size = sizeof "
     << library << "_artifact;\n";
}

void writeGridFunction(llvm::raw_ostream &os, const Kernel &k) {
  const rt::KernelInfo &info = *k.info;
  os << "\n"
     << prototype("hkrt_status " + k.function + "_grid", "", gridParams(k),
                  "int64_t grid[3]")
     << " {\n";
  os << "  static const char *const exprs[] = {";
  for (auto [i, e] : llvm::enumerate(info.grid))
    os << (i ? ", " : "") << '"' << e.print() << '"';
  os << "};\n";
  std::vector<std::string> values;
  for (const rt::GridSymbol &s : info.gridSymbols)
    values.push_back(symbolValue(k, s));
  // A grid without symbols still needs an array to point at.
  if (values.empty())
    values.push_back("0");
  os << "  const int64_t symbols[] = {" << llvm::join(values, ", ")
     << "};\n  return evaluate_grid(" << cString(info.name) << ", exprs, "
     << info.grid.size() << ", symbols, " << info.gridSymbols.size()
     << ", grid);\n}\n";
}

/// The statements filling args[i] (and hosts[i]) for memref argument `i`.
void writeMemrefArg(llvm::raw_ostream &os, const Kernel &k, size_t i) {
  const rt::ArgInfo &arg = k.info->args[i];
  const std::string &name = k.argNames[i];
  std::vector<std::string> sizes, strides;
  for (int64_t d = 0; d < arg.rank; ++d) {
    sizes.push_back(dynamicSize(arg, d) ? sizeName(name, d)
                                        : std::to_string(arg.shape[d]));
    if (arg.layout == rt::MemrefLayout::Strided)
      strides.push_back(dynamicStride(arg, d) ? strideName(name, d)
                                              : std::to_string(arg.strides[d]));
  }
  os << "  {\n    const int64_t sizes[] = {" << llvm::join(sizes, ", ")
     << "};\n";
  if (!strides.empty())
    os << "    const int64_t strides[] = {" << llvm::join(strides, ", ")
       << "};\n";
  os << "    args[" << i << "] = hkrt_arg_memref(NULL, "
     << cType(arg.dtype).enumerator << ", " << arg.rank << ", sizes, "
     << (strides.empty() ? "NULL" : "strides") << ");\n    hosts[" << i
     << "] = " << name << ";\n  }\n";
}

void writeLaunchFunction(llvm::raw_ostream &os, const Kernel &k,
                         StringRef library) {
  const rt::KernelInfo &info = *k.info;
  size_t count = std::max<size_t>(1, info.args.size());
  os << "\n"
     << prototype("hkrt_status " + k.function,
                  "const " + library.str() + "_library *library",
                  launchParams(k), "")
     << " {\n";
  std::vector<CParam> gridArgs = gridParams(k);
  os << "  int64_t grid[3];\n  hkrt_status status = " << k.function << "_grid("
     << argList(gridArgs) << (gridArgs.empty() ? "" : ", ")
     << "grid);\n  if (status)\n    return status;\n";
  os << "  hkrt_arg args[" << count << "];\n  void *hosts[" << count
     << "] = {0};\n  uint64_t bytes[" << count << "] = {0};\n";
  for (auto [i, arg] : llvm::enumerate(info.args)) {
    if (arg.kind == HKRT_ARG_MEMREF) {
      writeMemrefArg(os, k, i);
      continue;
    }
    os << "  args[" << i
       << "] = " << (isFloat(arg.dtype) ? "hkrt_arg_float(" : "hkrt_arg_int(")
       << cType(arg.dtype).enumerator << ", " << k.argNames[i] << ");\n";
  }
  os << "  return run(library, " << cString(info.name)
     << ", args, hosts, bytes, " << info.args.size() << ");\n}\n";
}

} // namespace

llvm::Expected<std::string>
hk::hkc::cLibrarySource(const rt::Artifact &artifact, StringRef bytes,
                        StringRef name, StringRef header) {
  auto kernels = cKernels(artifact, name);
  if (!kernels)
    return kernels.takeError();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "/* Generated by hkc --emit=c-library: the embedded artifact and the "
        "launch functions of "
     << header << ". */\n\n#include \"" << header << "\"\n"
     << withName(kSourcePreamble, name);
  writeArtifactBytes(os, bytes, name);
  for (const Kernel &k : *kernels) {
    writeGridFunction(os, k);
    writeLaunchFunction(os, k, name);
  }
  return text;
}

llvm::Error hk::hkc::writeCLibrary(const rt::Artifact &artifact,
                                   StringRef bytes, StringRef prefix,
                                   StringRef source) {
  std::string name = cLibraryIdentifier(prefix);
  std::string headerPath = (prefix + ".h").str();
  auto header = cLibraryHeader(artifact, name, source);
  if (!header)
    return header.takeError();
  auto code = cLibrarySource(artifact, bytes, name,
                             llvm::sys::path::filename(headerPath));
  if (!code)
    return code.takeError();
  for (auto [path, text] : {std::pair{headerPath, &*header},
                            std::pair{(prefix + ".c").str(), &*code}}) {
    std::error_code error;
    llvm::raw_fd_ostream file(path, error);
    if (!error) {
      file << *text;
      file.close();
      error = file.error();
    }
    if (error)
      return llvm::createStringError(error, "cannot write " + path + ": " +
                                                error.message());
  }
  return llvm::Error::success();
}
