//===- KernelInfo.cpp - kernel metadata and its JSON form -----------------===//

#include "hk/Base/KernelInfo.h"
#include "hk/Base/Chip.h"
#include "hk/Base/Error.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace hk::rt;
namespace json = llvm::json;

namespace {
struct DTypeEntry {
  hkrt_dtype type;
  const char *name;
  int64_t bytes;
};
const DTypeEntry kDTypes[] = {
    {HKRT_DTYPE_BF16, "bf16", 2},
    {HKRT_DTYPE_F16, "f16", 2},
    {HKRT_DTYPE_F32, "f32", 4},
    {HKRT_DTYPE_F64, "f64", 8},
    {HKRT_DTYPE_I8, "i8", 1},
    {HKRT_DTYPE_I16, "i16", 2},
    {HKRT_DTYPE_I32, "i32", 4},
    {HKRT_DTYPE_I64, "i64", 8},
    {HKRT_DTYPE_INDEX, "index", 8},
    {HKRT_DTYPE_F8E4M3FNUZ, "f8E4M3FNUZ", 1},
    {HKRT_DTYPE_F8E5M2FNUZ, "f8E5M2FNUZ", 1},
    {HKRT_DTYPE_F8E4M3FN, "f8E4M3FN", 1},
    {HKRT_DTYPE_F8E5M2, "f8E5M2", 1},
    {HKRT_DTYPE_BOOL, "i1", 1},
    {HKRT_DTYPE_FP8, "!hk.fp8", 1},
    {HKRT_DTYPE_BF8, "!hk.bf8", 1},
};
} // namespace

const char *hk::rt::dtypeName(hkrt_dtype t) {
  for (const auto &e : kDTypes)
    if (e.type == t)
      return e.name;
  return "<invalid dtype>";
}

std::optional<hkrt_dtype> hk::rt::parseDType(const std::string &name) {
  for (const auto &e : kDTypes)
    if (name == e.name)
      return e.type;
  return std::nullopt;
}

int64_t hk::rt::dtypeBytes(hkrt_dtype t) {
  for (const auto &e : kDTypes)
    if (e.type == t)
      return e.bytes;
  return 0;
}

static std::string dimsText(const std::vector<int64_t> &values,
                            const char *sep) {
  std::string s;
  for (size_t d = 0; d < values.size(); ++d)
    s += (d ? sep : "") +
         (values[d] == kDynamic ? std::string("?") : std::to_string(values[d]));
  return s;
}

std::string hk::rt::argTypeText(const ArgInfo &a) {
  if (a.kind == HKRT_ARG_SCALAR)
    return dtypeName(a.dtype);
  std::vector<int64_t> shape = a.shape;
  if (shape.empty())
    shape.assign(size_t(std::max<int64_t>(a.rank, 0)), kDynamic);
  std::string s = "memref<" + dimsText(shape, "x") +
                  (shape.empty() ? "" : "x") + dtypeName(a.dtype);
  if (a.layout == MemrefLayout::Strided)
    s += ", strided<[" + dimsText(a.strides, ", ") + "]>";
  return s + ">";
}

[[noreturn]] static void invalid(const std::string &kernel,
                                 const std::string &what) {
  throw Error(HKRT_ERROR_INVALID_ARTIFACT,
              "metadata of kernel '" + kernel + "': " + what);
}

/// Sizes and strides are non-negative or kDynamic.
static bool allStaticOrDynamic(const std::vector<int64_t> &values) {
  for (int64_t v : values)
    if (v < 0 && v != kDynamic)
      return false;
  return true;
}

/// The memref fields of argument `a` (`which`) of kernel `name`.
static void validateLayout(const std::string &name, const std::string &which,
                           const ArgInfo &a) {
  if (a.kind == HKRT_ARG_SCALAR) {
    if (!a.shape.empty() || a.layout != MemrefLayout::Unknown ||
        !a.strides.empty())
      invalid(name, which + " is a scalar with a shape or layout");
    return;
  }
  if (!a.shape.empty() && int64_t(a.shape.size()) != a.rank)
    invalid(name, which + " has rank " + std::to_string(a.rank) + " but " +
                      std::to_string(a.shape.size()) + " sizes");
  if (!allStaticOrDynamic(a.shape))
    invalid(name, which + " has a negative size");
  if (a.layout != MemrefLayout::Strided) {
    if (!a.strides.empty())
      invalid(name, which + " has strides but no strided layout");
    return;
  }
  if (int64_t(a.strides.size()) != a.rank)
    invalid(name, which + " has rank " + std::to_string(a.rank) + " but " +
                      std::to_string(a.strides.size()) + " strides");
  // The runtime checks strides as non-negative (Launch.cpp); a type with a
  // negative one could never be launched.
  if (!allStaticOrDynamic(a.strides))
    invalid(name, which + " has a negative stride, which the runtime does "
                          "not support");
}

void KernelInfo::validate() const {
  if (name.empty())
    invalid(name, "empty name");
  if (waves < 1 || waves > 16)
    invalid(name, "waves must be in [1, 16], got " + std::to_string(waves));
  if (workgroupSize != waves * hk::kWaveSize)
    invalid(name, "workgroup size " + std::to_string(workgroupSize) +
                      " is not waves * " + std::to_string(hk::kWaveSize) +
                      " = " + std::to_string(waves * hk::kWaveSize));
  if (ldsBytes < 0 || ldsBytes > (int64_t(1) << 20))
    invalid(name, "LDS bytes out of range: " + std::to_string(ldsBytes));
  for (const auto &[chip, bytes] : ldsBytesByChip)
    if (bytes < 0 || bytes > ldsBytes)
      invalid(name, "LDS bytes for " + chip + " (" + std::to_string(bytes) +
                        ") out of range [0, lds_bytes = " +
                        std::to_string(ldsBytes) + "]");
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgInfo &a = args[i];
    std::string which = "argument " + std::to_string(i) + " '" + a.name + "'";
    if (a.kind == HKRT_ARG_MEMREF && (a.rank < 0 || a.rank > HKRT_MAX_RANK))
      invalid(name, which + " has rank " + std::to_string(a.rank) +
                        " (at most " + std::to_string(HKRT_MAX_RANK) + ")");
    if (a.kind == HKRT_ARG_SCALAR && a.rank != 0)
      invalid(name, which + " is a scalar with a rank");
    // Memrefs of i1 have no agreed storage (bytes, or bits).
    if (a.kind == HKRT_ARG_MEMREF && a.dtype == HKRT_DTYPE_BOOL)
      invalid(name, which + " is a memref of i1; only scalar i1 is supported");
    validateLayout(name, which, a);
  }
  for (size_t s = 0; s < gridSymbols.size(); ++s) {
    const GridSymbol &g = gridSymbols[s];
    std::string which = "grid symbol s" + std::to_string(s);
    if (g.arg < 0 || size_t(g.arg) >= args.size())
      invalid(name, which + " names argument " + std::to_string(g.arg) +
                        " of " + std::to_string(args.size()));
    const ArgInfo &a = args[g.arg];
    if (g.isScalar()) {
      if (a.kind != HKRT_ARG_SCALAR || a.dtype == HKRT_DTYPE_BOOL ||
          a.dtype == HKRT_DTYPE_BF16 || a.dtype == HKRT_DTYPE_F16 ||
          a.dtype == HKRT_DTYPE_F32 || a.dtype == HKRT_DTYPE_F64)
        invalid(name, which + " = arg(" + std::to_string(g.arg) +
                          ") needs an integer scalar argument");
    } else if (a.kind != HKRT_ARG_MEMREF || g.dim >= a.rank) {
      invalid(name, which + " = dim(" + std::to_string(g.arg) + ", " +
                        std::to_string(g.dim) + ") names a missing dimension");
    }
  }
  if (grid.empty() || grid.size() > 3)
    invalid(name, "the grid needs 1 to 3 results, got " +
                      std::to_string(grid.size()));
  for (const GridExpr &e : grid)
    if (e.numSymbols() > gridSymbols.size())
      invalid(name, "grid result '" + e.print() + "' uses an unbound symbol");
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

/// The compact JSON of one scalar value (string, integer or null).
static std::string scalarText(const json::Value &v) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << v;
  return text;
}

/// Writes a list of scalars on one line, "[a, b]": the lists are short
/// (sizes, strides, grid results) and docs/runtime.md shows them so.
static void flatArray(json::OStream &j, llvm::StringRef key,
                      const std::vector<json::Value> &items) {
  std::string text = "[";
  for (size_t i = 0; i < items.size(); ++i)
    text += (i ? ", " : "") + scalarText(items[i]);
  text += "]";
  j.attributeBegin(key);
  j.rawValue(text);
  j.attributeEnd();
}

/// Sizes or strides with null for kDynamic ('?').
static std::vector<json::Value> dimsToJson(const std::vector<int64_t> &values) {
  std::vector<json::Value> list;
  for (int64_t v : values)
    list.push_back(v == kDynamic ? json::Value(nullptr) : json::Value(v));
  return list;
}

static void writeArg(json::OStream &j, const ArgInfo &a) {
  j.object([&] {
    j.attribute("name", a.name);
    j.attribute("kind", a.kind == HKRT_ARG_MEMREF ? "memref" : "scalar");
    j.attribute("dtype", dtypeName(a.dtype));
    if (a.kind != HKRT_ARG_MEMREF)
      return;
    j.attribute("rank", a.rank);
    if (!a.shape.empty())
      flatArray(j, "shape", dimsToJson(a.shape));
    if (a.layout == MemrefLayout::RowMajor)
      j.attribute("layout", "row-major");
    if (a.layout == MemrefLayout::Strided) {
      j.attribute("layout", "strided");
      flatArray(j, "strides", dimsToJson(a.strides));
    }
  });
}

static void writeGrid(json::OStream &j, const KernelInfo &k) {
  j.attributeObject("grid", [&] {
    j.attributeArray("symbols", [&] {
      for (const GridSymbol &s : k.gridSymbols)
        j.object([&] {
          j.attribute("arg", s.arg);
          if (!s.isScalar())
            j.attribute("dim", s.dim);
        });
    });
    std::vector<json::Value> results;
    for (const GridExpr &e : k.grid)
      results.push_back(e.print());
    flatArray(j, "results", results);
  });
}

static void writeKernel(json::OStream &j, const KernelInfo &k) {
  j.object([&] {
    j.attribute("name", k.name);
    j.attribute("waves", k.waves);
    j.attribute("workgroup_size", k.workgroupSize);
    j.attribute("lds_bytes", k.ldsBytes);
    if (!k.ldsBytesByChip.empty())
      j.attributeObject("lds_bytes_by_chip", [&] {
        for (const auto &[chip, bytes] : k.ldsBytesByChip)
          j.attribute(chip, bytes);
      });
    j.attributeArray("args", [&] {
      for (const ArgInfo &a : k.args)
        writeArg(j, a);
    });
    writeGrid(j, k);
  });
}

std::string hk::rt::kernelInfoToJson(const std::vector<KernelInfo> &kernels) {
  for (const KernelInfo &k : kernels)
    k.validate();
  std::string text;
  llvm::raw_string_ostream os(text);
  json::OStream j(os, /*IndentSize=*/2);
  j.object([&] {
    j.attribute("version", 1);
    j.attributeArray("kernels", [&] {
      for (const KernelInfo &k : kernels)
        writeKernel(j, k);
    });
  });
  os << "\n";
  return text;
}

namespace {
/// Field access that names the path of what is missing or mistyped.
class Reader {
public:
  explicit Reader(std::string where) : where(std::move(where)) {}
  const json::Object &object(const json::Value &v) {
    const json::Object *obj = v.getAsObject();
    if (!obj)
      fail("is not an object");
    return *obj;
  }
  const json::Value &field(const json::Value &v, const char *key) {
    const json::Value *field = object(v).get(key);
    if (!field)
      fail(std::string("has no '") + key + "'");
    return *field;
  }
  const json::Array &array(const json::Value &v, const char *key) {
    const json::Array *a = field(v, key).getAsArray();
    if (!a)
      wrongType(key);
    return *a;
  }
  const json::Object &member(const json::Value &v, const char *key) {
    const json::Object *o = field(v, key).getAsObject();
    if (!o)
      wrongType(key);
    return *o;
  }
  int64_t integer(const json::Value &v, const char *key) {
    std::optional<int64_t> i = field(v, key).getAsInteger();
    if (!i)
      wrongType(key);
    return *i;
  }
  std::string string(const json::Value &v, const char *key) {
    std::optional<llvm::StringRef> s = field(v, key).getAsString();
    if (!s)
      wrongType(key);
    return s->str();
  }
  [[noreturn]] void wrongType(const char *key) {
    fail(std::string("'") + key + "' has the wrong type");
  }
  [[noreturn]] void fail(const std::string &what) {
    throw Error(HKRT_ERROR_INVALID_ARTIFACT,
                "kernel metadata: " + where + " " + what);
  }
  std::string where;
};
} // namespace

/// An array of integers and nulls (kDynamic).
static std::vector<int64_t> dimsFromJson(Reader &r, const json::Value &obj,
                                         const char *key) {
  std::vector<int64_t> values;
  for (const json::Value &item : r.array(obj, key)) {
    std::optional<int64_t> i = item.getAsInteger();
    if (item.getAsNull())
      values.push_back(kDynamic);
    else if (i && *i >= 0)
      values.push_back(*i);
    else
      r.fail(std::string("'") + key +
             "' holds something other than a non-negative integer or null");
  }
  return values;
}

/// "shape", "layout" and "strides" are optional: metadata written before
/// them has none, and its memrefs are launched unchecked as before.
static void layoutFromJson(Reader &r, const json::Value &v, ArgInfo &a) {
  const json::Object &obj = r.object(v);
  if (obj.get("shape"))
    a.shape = dimsFromJson(r, v, "shape");
  if (!obj.get("layout"))
    return;
  std::string layout = r.string(v, "layout");
  if (layout == "row-major") {
    a.layout = MemrefLayout::RowMajor;
  } else if (layout == "strided") {
    a.layout = MemrefLayout::Strided;
    a.strides = dimsFromJson(r, v, "strides");
  } else {
    r.fail("has unknown layout '" + layout + "'");
  }
}

static ArgInfo argFromJson(const json::Value &v, const std::string &where) {
  Reader r(where);
  ArgInfo a;
  a.name = r.string(v, "name");
  std::string kind = r.string(v, "kind");
  if (kind == "memref")
    a.kind = HKRT_ARG_MEMREF;
  else if (kind == "scalar")
    a.kind = HKRT_ARG_SCALAR;
  else
    r.fail("has unknown kind '" + kind + "'");
  auto dtype = parseDType(r.string(v, "dtype"));
  if (!dtype)
    r.fail("has unknown dtype '" + r.string(v, "dtype") + "'");
  a.dtype = *dtype;
  if (a.kind == HKRT_ARG_MEMREF) {
    a.rank = r.integer(v, "rank");
    layoutFromJson(r, v, a);
  }
  return a;
}

static void gridFromJson(Reader &r, const json::Value &v, KernelInfo &k) {
  const json::Value &grid = r.field(v, "grid");
  r.member(v, "grid");
  for (const json::Value &s : r.array(grid, "symbols")) {
    GridSymbol g;
    g.arg = r.integer(s, "arg");
    bool hasDim = r.object(s).get("dim");
    g.dim = hasDim ? r.integer(s, "dim") : -1;
    if (hasDim && g.dim < 0)
      r.fail("has a grid symbol with negative dim");
    k.gridSymbols.push_back(g);
  }
  for (const json::Value &e : r.array(grid, "results")) {
    std::optional<llvm::StringRef> text = e.getAsString();
    if (!text)
      r.fail("has a grid result that is not a string");
    k.grid.push_back(GridExpr::parse(text->str()));
  }
}

static KernelInfo kernelFromJson(const json::Value &v, size_t index) {
  Reader r("kernel " + std::to_string(index));
  KernelInfo k;
  k.name = r.string(v, "name");
  r.where = "kernel '" + k.name + "'";
  k.waves = r.integer(v, "waves");
  k.workgroupSize = r.integer(v, "workgroup_size");
  k.ldsBytes = r.integer(v, "lds_bytes");
  if (r.object(v).get("lds_bytes_by_chip"))
    for (const auto &[chip, bytes] : r.member(v, "lds_bytes_by_chip")) {
      std::optional<int64_t> value = bytes.getAsInteger();
      if (!value)
        r.fail("lds_bytes_by_chip." + chip.str() + " is not an integer");
      k.ldsBytesByChip[chip.str()] = *value;
    }
  const json::Array &args = r.array(v, "args");
  for (size_t i = 0; i < args.size(); ++i)
    k.args.push_back(
        argFromJson(args[i], r.where + " argument " + std::to_string(i)));
  gridFromJson(r, v, k);
  k.validate();
  return k;
}

/// The deepest nesting of arrays and objects in `text`, outside strings:
/// llvm::json's parser recurses once per level, so metadata from an
/// untrusted artifact is refused before it could exhaust the stack.
static size_t nestingDepth(const std::string &text) {
  size_t depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

/// Deeper than any metadata the compiler writes (5 levels).
static constexpr size_t kMaxDepth = 64;

std::vector<KernelInfo> hk::rt::kernelInfoFromJson(const std::string &text) {
  if (nestingDepth(text) > kMaxDepth)
    throw Error(HKRT_ERROR_INVALID_ARTIFACT,
                "invalid JSON: nesting deeper than " +
                    std::to_string(kMaxDepth));
  llvm::Expected<json::Value> root = json::parse(text);
  if (!root)
    throw Error(HKRT_ERROR_INVALID_ARTIFACT,
                "invalid JSON: " + llvm::toString(root.takeError()));
  Reader r("document");
  if (r.integer(*root, "version") != 1)
    r.fail("has version " + std::to_string(r.integer(*root, "version")) +
           ", this runtime reads version 1");
  std::vector<KernelInfo> kernels;
  const json::Array &list = r.array(*root, "kernels");
  for (size_t i = 0; i < list.size(); ++i) {
    kernels.push_back(kernelFromJson(list[i], i));
    for (size_t j = 0; j + 1 < kernels.size(); ++j)
      if (kernels[j].name == kernels.back().name)
        r.fail("names kernel '" + kernels.back().name + "' twice");
  }
  return kernels;
}
