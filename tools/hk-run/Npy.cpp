//===- Npy.cpp - NumPy .npy files for hk-run ------------------------------===//
//
// The header dict is parsed as the small Python literal NumPy writes: keys
// and values are strings, True/False and a tuple of integers, in any order,
// with optional spaces and a trailing comma. Anything else is an error.
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace hk::run {

namespace {

const char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

[[noreturn]] void fail(const std::string &name, const std::string &what) {
  throw std::invalid_argument(name + ": " + what);
}

/// A cursor over the header dict.
struct DictParser {
  const std::string &text;
  const std::string &name;
  size_t pos = 0;

  void skipSpace() {
    while (pos < text.size() && std::isspace((unsigned char)text[pos]))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(c))
      fail(name, std::string("malformed .npy header: expected '") + c +
                     "' at offset " + std::to_string(pos) + " of '" + text +
                     "'");
  }
  std::string string() {
    skipSpace();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      fail(name, "malformed .npy header: expected a string at offset " +
                     std::to_string(pos));
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == std::string::npos)
      fail(name, "malformed .npy header: unterminated string");
    std::string s = text.substr(pos, end - pos);
    pos = end + 1;
    return s;
  }
  int64_t integer() {
    skipSpace();
    size_t start = pos;
    while (pos < text.size() && std::isdigit((unsigned char)text[pos]))
      ++pos;
    // A Python 2 long ("300L") is accepted, as NumPy's reader does.
    std::string digits = text.substr(start, pos - start);
    if (pos < text.size() && text[pos] == 'L')
      ++pos;
    if (digits.empty() || digits.size() > 18)
      fail(name, "malformed .npy header: bad dimension at offset " +
                     std::to_string(start));
    return std::stoll(digits);
  }
  bool boolean() {
    skipSpace();
    for (auto [word, value] : {std::pair("True", true), {"False", false}})
      if (text.compare(pos, std::strlen(word), word) == 0) {
        pos += std::strlen(word);
        return value;
      }
    fail(name, "malformed .npy header: expected True or False");
  }
  std::vector<int64_t> tuple() {
    expect('(');
    std::vector<int64_t> values;
    while (!consume(')')) {
      values.push_back(integer());
      if (!consume(',')) {
        expect(')');
        break;
      }
    }
    return values;
  }
};

uint32_t readLittle(const std::string &bytes, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i)
    v |= uint32_t(uint8_t(bytes[at + i])) << (8 * i);
  return v;
}

/// The element size a descr such as "<f4" names; 0 (an unsupported type)
/// for anything else, including sizes of more than 16 bytes, which no
/// kernel argument has and whose digits could overflow an integer.
int64_t descrBytes(const std::string &descr) {
  if (descr.size() < 3 || descr.size() > 4)
    return 0;
  std::string digits = descr.substr(2);
  for (char c : digits)
    if (!std::isdigit((unsigned char)c))
      return 0;
  int64_t bytes = std::stoll(digits);
  return bytes <= 16 ? bytes : 0;
}

} // namespace

NpyArray parseNpy(const std::string &bytes, const std::string &name) {
  if (bytes.size() < 10 || bytes.compare(0, kMagicSize, kMagic) != 0)
    fail(name, "not a .npy file (no \\x93NUMPY magic)");
  int major = uint8_t(bytes[6]);
  size_t lengthSize = major == 1 ? 2 : 4;
  if (major < 1 || major > 3)
    fail(name, ".npy version " + std::to_string(major) +
                   " is not supported (1, 2 or 3)");
  if (bytes.size() < 8 + lengthSize)
    fail(name, "truncated .npy header");
  size_t headerSize = readLittle(bytes, 8, lengthSize);
  size_t dataStart = 8 + lengthSize + headerSize;
  if (bytes.size() < dataStart)
    fail(name, "truncated .npy header: it says " + std::to_string(headerSize) +
                   " bytes, the file has " +
                   std::to_string(bytes.size() - 8 - lengthSize));
  std::string header = bytes.substr(8 + lengthSize, headerSize);

  NpyArray array;
  DictParser p{header, name};
  bool haveDescr = false, haveOrder = false, haveShape = false, fortran = false;
  p.expect('{');
  while (!p.consume('}')) {
    std::string key = p.string();
    p.expect(':');
    if (key == "descr") {
      array.descr = p.string();
      haveDescr = true;
    } else if (key == "fortran_order") {
      fortran = p.boolean();
      haveOrder = true;
    } else if (key == "shape") {
      array.shape = p.tuple();
      haveShape = true;
    } else {
      fail(name, "unexpected key '" + key + "' in the .npy header");
    }
    if (!p.consume(',')) {
      p.expect('}');
      break;
    }
  }
  if (!haveDescr || !haveOrder || !haveShape)
    fail(name, "the .npy header lacks "
               "'descr', 'fortran_order' or 'shape'");
  if (fortran)
    fail(name, "the array is in Fortran order; save a C-order array "
               "(numpy.ascontiguousarray)");
  int64_t elementBytes = descrBytes(array.descr);
  char order = array.descr.empty() ? 0 : array.descr[0];
  bool singleByte = elementBytes == 1 && (order == '|' || order == '<');
  if (!elementBytes || !(order == '<' || singleByte))
    fail(name, "element type '" + array.descr +
                   "' is not supported (little-endian numbers only)");
  uint64_t elements = 1;
  for (int64_t d : array.shape)
    if (__builtin_mul_overflow(elements, uint64_t(d), &elements))
      fail(name, "the shape's element count overflows");
  uint64_t dataBytes;
  if (__builtin_mul_overflow(elements, uint64_t(elementBytes), &dataBytes) ||
      bytes.size() - dataStart != dataBytes)
    fail(name, "the data has " + std::to_string(bytes.size() - dataStart) +
                   " bytes, the header's shape and type need " +
                   std::to_string(elements * elementBytes));
  array.data.assign(bytes.begin() + dataStart, bytes.end());
  return array;
}

NpyArray readNpyFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail(path, "cannot open");
  std::stringstream ss;
  ss << in.rdbuf();
  return parseNpy(ss.str(), path);
}

std::string formatNpy(const NpyArray &array) {
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i)
    // Python's tuple syntax: (4,) for one size, (2, 3, 4) for more.
    shape += std::to_string(array.shape[i]) + (i + 1 < array.shape.size() ? ", "
                                               : array.shape.size() == 1  ? ","
                                                                          : "");
  shape += ")";
  std::string dict = "{'descr': '" + array.descr +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic, version, length, dict, spaces and a newline: a multiple of 64.
  bool v2 = 10 + dict.size() + 1 > 65535;
  size_t prefix = v2 ? 12 : 10;
  size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic, kMagicSize);
  out += char(v2 ? 2 : 1);
  out += char(0);
  size_t length = dict.size();
  for (size_t i = 0; i < (v2 ? 4 : 2); ++i)
    out += char((length >> (8 * i)) & 0xFF);
  out += dict;
  out.append(array.data.begin(), array.data.end());
  return out;
}

void writeNpyFile(const std::string &path, const NpyArray &array) {
  std::ofstream out(path, std::ios::binary);
  std::string bytes = formatNpy(array);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  if (!out)
    fail(path, "cannot write");
}

const char *npyDescr(hkrt_dtype dtype) {
  switch (dtype) {
  case HKRT_DTYPE_BF16:
    return "<u2";
  case HKRT_DTYPE_F16:
    return "<f2";
  case HKRT_DTYPE_F32:
    return "<f4";
  case HKRT_DTYPE_F64:
    return "<f8";
  case HKRT_DTYPE_I8:
    return "|i1";
  case HKRT_DTYPE_I16:
    return "<i2";
  case HKRT_DTYPE_I32:
    return "<i4";
  case HKRT_DTYPE_I64:
  case HKRT_DTYPE_INDEX:
    return "<i8";
  case HKRT_DTYPE_F8E4M3FNUZ:
  case HKRT_DTYPE_F8E5M2FNUZ:
  case HKRT_DTYPE_F8E4M3FN:
  case HKRT_DTYPE_F8E5M2:
  case HKRT_DTYPE_FP8:
  case HKRT_DTYPE_BF8:
    return "|u1";
  default:
    return "";
  }
}

} // namespace hk::run
