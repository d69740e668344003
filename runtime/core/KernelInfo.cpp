//===- KernelInfo.cpp - kernel metadata and its JSON form -----------------===//

#include "hk/Runtime/KernelInfo.h"
#include "hk/Base/Chip.h"
#include "hk/Runtime/Error.h"
#include "hk/Runtime/Json.h"

#include <algorithm>

using namespace hk::rt;
using json::Value;

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

/// Sizes or strides with null for kDynamic ('?').
static Value dimsToJson(const std::vector<int64_t> &values) {
  Value list = Value::array();
  for (int64_t v : values)
    list.push(v == kDynamic ? Value() : Value::integer(v));
  return list;
}

static void setLayout(Value &j, const ArgInfo &a) {
  if (!a.shape.empty())
    j.set("shape", dimsToJson(a.shape));
  if (a.layout == MemrefLayout::RowMajor)
    j.set("layout", Value::string("row-major"));
  if (a.layout == MemrefLayout::Strided) {
    j.set("layout", Value::string("strided"));
    j.set("strides", dimsToJson(a.strides));
  }
}

static Value toJson(const KernelInfo &k) {
  Value v = Value::object();
  v.set("name", Value::string(k.name));
  v.set("waves", Value::integer(k.waves));
  v.set("workgroup_size", Value::integer(k.workgroupSize));
  v.set("lds_bytes", Value::integer(k.ldsBytes));
  if (!k.ldsBytesByChip.empty()) {
    Value byChip = Value::object();
    for (const auto &[chip, bytes] : k.ldsBytesByChip)
      byChip.set(chip, Value::integer(bytes));
    v.set("lds_bytes_by_chip", std::move(byChip));
  }
  Value args = Value::array();
  for (const ArgInfo &a : k.args) {
    Value j = Value::object();
    j.set("name", Value::string(a.name));
    j.set("kind",
          Value::string(a.kind == HKRT_ARG_MEMREF ? "memref" : "scalar"));
    j.set("dtype", Value::string(dtypeName(a.dtype)));
    if (a.kind == HKRT_ARG_MEMREF) {
      j.set("rank", Value::integer(a.rank));
      setLayout(j, a);
    }
    args.push(std::move(j));
  }
  v.set("args", std::move(args));
  Value grid = Value::object();
  Value syms = Value::array();
  for (const GridSymbol &s : k.gridSymbols) {
    Value j = Value::object();
    j.set("arg", Value::integer(s.arg));
    if (!s.isScalar())
      j.set("dim", Value::integer(s.dim));
    syms.push(std::move(j));
  }
  grid.set("symbols", std::move(syms));
  Value results = Value::array();
  for (const GridExpr &e : k.grid)
    results.push(Value::string(e.print()));
  grid.set("results", std::move(results));
  v.set("grid", std::move(grid));
  return v;
}

std::string hk::rt::kernelInfoToJson(const std::vector<KernelInfo> &kernels) {
  Value root = Value::object();
  root.set("version", Value::integer(1));
  Value list = Value::array();
  for (const KernelInfo &k : kernels) {
    k.validate();
    list.push(toJson(k));
  }
  root.set("kernels", std::move(list));
  return json::write(root);
}

namespace {
/// Field access that names the path of what is missing or mistyped.
class Reader {
public:
  explicit Reader(std::string where) : where(std::move(where)) {}
  const Value &field(const Value &obj, const char *key, Value::Kind kind) {
    if (obj.kind() != Value::Kind::Object)
      fail("is not an object");
    const Value *v = obj.get(key);
    if (!v)
      fail(std::string("has no '") + key + "'");
    if (v->kind() != kind)
      fail(std::string("'") + key + "' has the wrong type");
    return *v;
  }
  int64_t integer(const Value &obj, const char *key) {
    return field(obj, key, Value::Kind::Int).asInt();
  }
  const std::string &string(const Value &obj, const char *key) {
    return field(obj, key, Value::Kind::String).asString();
  }
  [[noreturn]] void fail(const std::string &what) {
    throw Error(HKRT_ERROR_INVALID_ARTIFACT,
                "kernel metadata: " + where + " " + what);
  }
  std::string where;
};
} // namespace

/// An array of integers and nulls (kDynamic).
static std::vector<int64_t> dimsFromJson(Reader &r, const Value &obj,
                                         const char *key) {
  std::vector<int64_t> values;
  for (const Value &item : r.field(obj, key, Value::Kind::Array).items()) {
    if (item.kind() == Value::Kind::Null)
      values.push_back(kDynamic);
    else if (item.kind() == Value::Kind::Int && item.asInt() >= 0)
      values.push_back(item.asInt());
    else
      r.fail(std::string("'") + key +
             "' holds something other than a non-negative integer or null");
  }
  return values;
}

/// "shape", "layout" and "strides" are optional: metadata written before
/// them has none, and its memrefs are launched unchecked as before.
static void layoutFromJson(Reader &r, const Value &v, ArgInfo &a) {
  if (v.get("shape"))
    a.shape = dimsFromJson(r, v, "shape");
  if (!v.get("layout"))
    return;
  const std::string &layout = r.string(v, "layout");
  if (layout == "row-major") {
    a.layout = MemrefLayout::RowMajor;
  } else if (layout == "strided") {
    a.layout = MemrefLayout::Strided;
    a.strides = dimsFromJson(r, v, "strides");
  } else {
    r.fail("has unknown layout '" + layout + "'");
  }
}

static ArgInfo argFromJson(const Value &v, const std::string &where) {
  Reader r(where);
  ArgInfo a;
  a.name = r.string(v, "name");
  const std::string &kind = r.string(v, "kind");
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

static KernelInfo kernelFromJson(const Value &v, size_t index) {
  Reader r("kernel " + std::to_string(index));
  KernelInfo k;
  k.name = r.string(v, "name");
  r.where = "kernel '" + k.name + "'";
  k.waves = r.integer(v, "waves");
  k.workgroupSize = r.integer(v, "workgroup_size");
  k.ldsBytes = r.integer(v, "lds_bytes");
  if (v.get("lds_bytes_by_chip"))
    for (const auto &[chip, bytes] :
         r.field(v, "lds_bytes_by_chip", Value::Kind::Object).members()) {
      if (bytes.kind() != Value::Kind::Int)
        r.fail("lds_bytes_by_chip." + chip + " is not an integer");
      k.ldsBytesByChip[chip] = bytes.asInt();
    }
  const Value &args = r.field(v, "args", Value::Kind::Array);
  for (size_t i = 0; i < args.items().size(); ++i)
    k.args.push_back(argFromJson(args.items()[i],
                                 r.where + " argument " + std::to_string(i)));
  const Value &grid = r.field(v, "grid", Value::Kind::Object);
  for (const Value &s : r.field(grid, "symbols", Value::Kind::Array).items()) {
    GridSymbol g;
    g.arg = r.integer(s, "arg");
    g.dim = s.get("dim") ? r.integer(s, "dim") : -1;
    if (s.get("dim") && g.dim < 0)
      r.fail("has a grid symbol with negative dim");
    k.gridSymbols.push_back(g);
  }
  for (const Value &e : r.field(grid, "results", Value::Kind::Array).items()) {
    if (e.kind() != Value::Kind::String)
      r.fail("has a grid result that is not a string");
    k.grid.push_back(GridExpr::parse(e.asString()));
  }
  k.validate();
  return k;
}

std::vector<KernelInfo> hk::rt::kernelInfoFromJson(const std::string &text) {
  Value root = json::parse(text);
  Reader r("document");
  if (r.integer(root, "version") != 1)
    r.fail("has version " + std::to_string(r.integer(root, "version")) +
           ", this runtime reads version 1");
  std::vector<KernelInfo> kernels;
  const Value &list = r.field(root, "kernels", Value::Kind::Array);
  for (size_t i = 0; i < list.items().size(); ++i) {
    kernels.push_back(kernelFromJson(list.items()[i], i));
    for (size_t j = 0; j + 1 < kernels.size(); ++j)
      if (kernels[j].name == kernels.back().name)
        r.fail("names kernel '" + kernels.back().name + "' twice");
  }
  return kernels;
}
