//===- TunedTable.cpp - tables of tuned template instances ----------------===//

#include "hk/Base/TunedTable.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace hk::tuned {

namespace json = llvm::json;

std::vector<int64_t> shapeBucket(const std::vector<int64_t> &shape) {
  std::vector<int64_t> bucket;
  for (int64_t d : shape) {
    int64_t b = 1;
    while (b < d)
      b *= 2;
    bucket.push_back(d <= 1 ? d : b);
  }
  return bucket;
}

std::string userTablePath(const std::string &dir, const std::string &kernel,
                          const std::string &chip) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, kernel, chip + ".json");
  return p.str().str();
}

std::string libraryTablePath(const std::string &kernelDir,
                             const std::string &chip) {
  llvm::SmallString<256> p(kernelDir);
  llvm::sys::path::append(p, "tuned", chip + ".json");
  return p.str().str();
}

namespace {

[[noreturn]] void malformed(const std::string &path, const std::string &why) {
  throw std::runtime_error(path + ": " + why);
}

/// The table at `path` as JSON; nothing when there is no such file.
std::optional<json::Object> readTable(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return std::nullopt;
  llvm::Expected<json::Value> value = json::parse((*buffer)->getBuffer());
  if (!value)
    malformed(path, llvm::toString(value.takeError()));
  json::Object *root = value->getAsObject();
  if (!root || !root->getArray("entries"))
    malformed(path, "no \"entries\" array");
  return std::move(*root);
}

std::optional<std::vector<int64_t>> integers(const json::Array *array) {
  if (!array)
    return std::nullopt;
  std::vector<int64_t> out;
  for (const json::Value &v : *array) {
    std::optional<int64_t> i = v.getAsInteger();
    if (!i)
      return std::nullopt;
    out.push_back(*i);
  }
  return out;
}

/// An entry's bucket; a malformed entry throws.
std::vector<int64_t> bucketOf(const json::Value &e, const std::string &path) {
  const json::Object *entry = e.getAsObject();
  std::optional<std::vector<int64_t>> b =
      entry ? integers(entry->getArray("bucket")) : std::nullopt;
  if (!b || !entry->getObject("params"))
    malformed(path, "an entry without \"bucket\" (integers) or \"params\"");
  return *b;
}

/// A JSON parameter value as --param takes it.
std::string paramText(const json::Value &v, const std::string &path) {
  if (std::optional<int64_t> i = v.getAsInteger())
    return std::to_string(*i);
  if (std::optional<llvm::StringRef> s = v.getAsString())
    return s->str();
  malformed(path, "a parameter value is neither an integer nor a string");
}

Entry readEntry(const json::Value &e, const std::string &path) {
  Entry out;
  out.bucket = bucketOf(e, path);
  const json::Object &entry = *e.getAsObject();
  for (const auto &[name, value] : *entry.getObject("params"))
    out.params[name.str()] = paramText(value, path);
  if (const json::Array *shapes = entry.getArray("shapes"))
    for (const json::Value &s : *shapes)
      if (std::optional<std::vector<int64_t>> shape = integers(s.getAsArray()))
        out.shapes.push_back(*shape);
  out.microseconds = entry.getNumber("microseconds").value_or(0);
  out.defaultMicroseconds = entry.getNumber("default_microseconds").value_or(0);
  return out;
}

/// `x` rounded to 4 decimals, as hk.autotune rounds its times.
double round4(double x) { return std::round(x * 1e4) / 1e4; }

json::Value entryJson(const Entry &e) {
  json::Array shapes;
  for (const std::vector<int64_t> &s : e.shapes)
    shapes.push_back(json::Array(s));
  json::Object params;
  for (const auto &[name, value] : e.params) {
    int64_t i;
    if (!llvm::StringRef(value).getAsInteger(10, i))
      params[name] = i;
    else
      params[name] = value;
  }
  return json::Object{
      {"bucket", json::Array(e.bucket)},
      {"shapes", std::move(shapes)},
      {"params", std::move(params)},
      {"microseconds", round4(e.microseconds)},
      {"default_microseconds", round4(e.defaultMicroseconds)},
      {"speedup", e.microseconds > 0
                      ? round4(e.defaultMicroseconds / e.microseconds)
                      : 0.0}};
}

//===----------------------------------------------------------------------===//
// Writing as Python's json.dump(indent=2) does, so that a table keeps its
// look whichever tool wrote it last.
//===----------------------------------------------------------------------===//

/// The shortest text that reads back as `d`, with a ".0" on whole numbers
/// (Python's repr of a float).
std::string numberText(double d) {
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d)
      break;
  }
  std::string s = buf;
  if (s.find_first_of(".eni") == std::string::npos)
    s += ".0";
  return s;
}

/// Keys in the order hk.autotune writes them, then any others by name.
std::vector<llvm::StringRef> orderedKeys(const json::Object &object) {
  static const char *const order[] = {"kernel",
                                      "chip",
                                      "entries",
                                      "measured_on",
                                      "bucketing",
                                      "bucket",
                                      "shapes",
                                      "params",
                                      "microseconds",
                                      "default_"
                                      "microseconds",
                                      "speedup"};
  auto rank = [](llvm::StringRef key) {
    auto it = std::find(std::begin(order), std::end(order), key);
    return static_cast<size_t>(it - std::begin(order));
  };
  std::vector<llvm::StringRef> keys;
  for (const auto &kv : object)
    keys.push_back(kv.first);
  std::sort(keys.begin(), keys.end(),
            [&](llvm::StringRef a, llvm::StringRef b) {
              return std::make_pair(rank(a), a) < std::make_pair(rank(b), b);
            });
  return keys;
}

void print(llvm::raw_ostream &os, const json::Value &v, unsigned indent);

void printString(llvm::raw_ostream &os, llvm::StringRef s) {
  json::OStream(os).value(s);
}

void printObject(llvm::raw_ostream &os, const json::Object &o,
                 unsigned indent) {
  if (o.empty()) {
    os << "{}";
    return;
  }
  os << "{";
  bool first = true;
  for (llvm::StringRef key : orderedKeys(o)) {
    os << (first ? "\n" : ",\n");
    os.indent(indent + 2);
    printString(os, key);
    os << ": ";
    print(os, *o.get(key), indent + 2);
    first = false;
  }
  os << "\n";
  os.indent(indent) << "}";
}

void print(llvm::raw_ostream &os, const json::Value &v, unsigned indent) {
  if (const json::Object *o = v.getAsObject())
    return printObject(os, *o, indent);
  if (const json::Array *a = v.getAsArray()) {
    if (a->empty()) {
      os << "[]";
      return;
    }
    os << "[";
    for (size_t i = 0; i < a->size(); ++i) {
      os << (i ? ",\n" : "\n");
      os.indent(indent + 2);
      print(os, (*a)[i], indent + 2);
    }
    os << "\n";
    os.indent(indent) << "]";
    return;
  }
  if (v.kind() == json::Value::Number) {
    // JSON integers stay integers, doubles keep their decimal point. The
    // parser's integers are the values getAsUINT64 takes, and the negative
    // ones getAsInteger takes (with the negative whole doubles, which read
    // back the same either way).
    std::optional<int64_t> i = v.getAsInteger();
    if (std::optional<uint64_t> u = v.getAsUINT64())
      os << *u;
    else if (i && *i < 0)
      os << *i;
    else
      os << numberText(*v.getAsNumber());
    return;
  }
  if (std::optional<llvm::StringRef> s = v.getAsString())
    return printString(os, *s);
  json::OStream(os).value(v);
}

void writeAtomically(const std::string &path, const std::string &text) {
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  if (!dir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      malformed(path, "cannot create its directory: " + ec.message());
  llvm::SmallString<256> model(dir.empty() ? "." : dir);
  llvm::sys::path::append(model, ".tmp-%%%%%%%%");
  int fd;
  llvm::SmallString<256> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, tmp))
    malformed(path, "cannot write beside it: " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    os.close();
    if (os.has_error()) {
      llvm::sys::fs::remove(tmp);
      malformed(path, "cannot write it");
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    malformed(path, "cannot replace it: " + ec.message());
  }
}

} // namespace

std::optional<Entry> findEntry(const std::string &path,
                               const std::vector<int64_t> &bucket) {
  std::optional<json::Object> table = readTable(path);
  if (!table)
    return std::nullopt;
  for (const json::Value &e : *table->getArray("entries"))
    if (bucketOf(e, path) == bucket)
      return readEntry(e, path);
  return std::nullopt;
}

void mergeEntries(const std::string &path, const std::string &kernel,
                  const std::string &chip, const std::string &measuredOn,
                  const std::vector<Entry> &entries) {
  json::Object table = readTable(path).value_or(json::Object{
      {"kernel", kernel}, {"chip", chip}, {"entries", json::Array()}});
  table["measured_on"] = measuredOn;
  table["bucketing"] = "each dimension above 1 rounded up to a power of two";
  std::vector<std::pair<std::vector<int64_t>, json::Value>> merged;
  for (const json::Value &e : *table.getArray("entries")) {
    std::vector<int64_t> b = bucketOf(e, path);
    if (std::none_of(entries.begin(), entries.end(),
                     [&](const Entry &n) { return n.bucket == b; }))
      merged.emplace_back(b, e);
  }
  for (const Entry &e : entries)
    merged.emplace_back(e.bucket, entryJson(e));
  std::stable_sort(
      merged.begin(), merged.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  json::Array out;
  for (auto &[bucket, e] : merged)
    out.push_back(std::move(e));
  table["entries"] = std::move(out);
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os, json::Value(std::move(table)), 0);
  os << "\n";
  writeAtomically(path, text);
}

} // namespace hk::tuned
