//===- Json.cpp - the small JSON subset of hkrt ---------------------------===//

#include "hk/Runtime/Json.h"
#include "hk/Runtime/Error.h"

#include <cstring>

using namespace hk::rt;
using namespace hk::rt::json;

Value Value::boolean(bool b) {
  Value v;
  v.kind_ = Kind::Bool;
  v.b_ = b;
  return v;
}
Value Value::integer(int64_t i) {
  Value v;
  v.kind_ = Kind::Int;
  v.i_ = i;
  return v;
}
Value Value::string(std::string s) {
  Value v;
  v.kind_ = Kind::String;
  v.s_ = std::move(s);
  return v;
}
Value Value::array(std::vector<Value> items) {
  Value v;
  v.kind_ = Kind::Array;
  v.items_ = std::move(items);
  return v;
}
Value Value::object() {
  Value v;
  v.kind_ = Kind::Object;
  return v;
}
Value &Value::push(Value v) {
  items_.push_back(std::move(v));
  return items_.back();
}
Value &Value::set(const std::string &key, Value v) {
  for (auto &m : members_)
    if (m.first == key)
      return m.second = std::move(v);
  members_.emplace_back(key, std::move(v));
  return members_.back().second;
}
const Value *Value::get(const std::string &key) const {
  for (const auto &m : members_)
    if (m.first == key)
      return &m.second;
  return nullptr;
}

namespace {

/// Recursive descent over the text; nesting is bounded so hostile input
/// cannot exhaust the stack.
class Parser {
public:
  explicit Parser(const std::string &t) : text(t) {}

  Value parseDocument() {
    Value v = parseValue(0);
    skipSpace();
    if (pos != text.size())
      fail("trailing characters after the JSON value");
    return v;
  }

private:
  const std::string &text;
  size_t pos = 0;
  static constexpr int kMaxDepth = 64;

  [[noreturn]] void fail(const std::string &what) {
    throw Error(HKRT_ERROR_INVALID_ARTIFACT,
                "invalid JSON at byte " + std::to_string(pos) + ": " + what);
  }
  void skipSpace() {
    while (pos < text.size() && strchr(" \t\r\n", text[pos]) && text[pos])
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
      fail(std::string("expected '") + c + "'");
  }
  bool keyword(const char *w) {
    size_t n = strlen(w);
    if (text.compare(pos, n, w) == 0) {
      pos += n;
      return true;
    }
    return false;
  }

  Value parseValue(int depth) {
    if (depth > kMaxDepth)
      fail("nesting deeper than 64");
    skipSpace();
    if (pos >= text.size())
      fail("unexpected end of text");
    char c = text[pos];
    if (c == '{')
      return parseObject(depth);
    if (c == '[')
      return parseArray(depth);
    if (c == '"')
      return Value::string(parseString());
    if (c == '-' || (c >= '0' && c <= '9'))
      return Value::integer(parseInt());
    if (keyword("true"))
      return Value::boolean(true);
    if (keyword("false"))
      return Value::boolean(false);
    if (keyword("null"))
      return Value();
    fail(std::string("unexpected character '") + c + "'");
  }

  Value parseObject(int depth) {
    expect('{');
    Value v = Value::object();
    if (consume('}'))
      return v;
    do {
      skipSpace();
      if (pos >= text.size() || text[pos] != '"')
        fail("expected a member name");
      std::string key = parseString();
      if (v.get(key))
        fail("duplicate member '" + key + "'");
      expect(':');
      v.set(key, parseValue(depth + 1));
    } while (consume(','));
    expect('}');
    return v;
  }

  Value parseArray(int depth) {
    expect('[');
    Value v = Value::array();
    if (consume(']'))
      return v;
    do
      v.push(parseValue(depth + 1));
    while (consume(','));
    expect(']');
    return v;
  }

  int64_t parseInt() {
    bool negative = text[pos] == '-';
    if (negative)
      ++pos;
    if (pos >= text.size() || text[pos] < '0' || text[pos] > '9')
      fail("expected a digit");
    uint64_t magnitude = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      uint64_t digit = text[pos++] - '0';
      if (magnitude > (UINT64_MAX - digit) / 10)
        fail("integer out of range");
      magnitude = magnitude * 10 + digit;
    }
    if (pos < text.size() && strchr(".eE", text[pos]) && text[pos])
      fail("only integers are allowed");
    uint64_t limit = negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
    if (magnitude > limit)
      fail("integer out of range");
    return negative ? int64_t(0 - magnitude) : int64_t(magnitude);
  }

  std::string parseString() {
    ++pos; // opening quote
    std::string out;
    while (true) {
      if (pos >= text.size())
        fail("unterminated string");
      char c = text[pos++];
      if (c == '"')
        return out;
      if (static_cast<unsigned char>(c) < 0x20)
        fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos >= text.size())
        fail("unterminated escape");
      char e = text[pos++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u':
        out += parseUnicodeEscape();
        break;
      default:
        fail("unknown escape");
      }
    }
  }

  /// \uXXXX, encoded as UTF-8 (surrogate pairs are not needed by hkrt's
  /// names and are rejected).
  std::string parseUnicodeEscape() {
    if (pos + 4 > text.size())
      fail("short \\u escape");
    unsigned cp = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text[pos++];
      cp <<= 4;
      if (h >= '0' && h <= '9')
        cp |= h - '0';
      else if (h >= 'a' && h <= 'f')
        cp |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F')
        cp |= h - 'A' + 10;
      else
        fail("bad hex digit in \\u escape");
    }
    if (cp >= 0xD800 && cp <= 0xDFFF)
      fail("surrogate in \\u escape");
    std::string s;
    if (cp < 0x80) {
      s += char(cp);
    } else if (cp < 0x800) {
      s += char(0xC0 | (cp >> 6));
      s += char(0x80 | (cp & 0x3F));
    } else {
      s += char(0xE0 | (cp >> 12));
      s += char(0x80 | ((cp >> 6) & 0x3F));
      s += char(0x80 | (cp & 0x3F));
    }
    return s;
  }
};

void writeString(const std::string &s, std::string &out) {
  out += '"';
  for (char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        static const char *hex = "0123456789abcdef";
        out += "\\u00";
        out += hex[(c >> 4) & 0xF];
        out += hex[c & 0xF];
      } else {
        out += c;
      }
    }
  }
  out += '"';
}

void writeValue(const Value &v, int indent, std::string &out) {
  std::string pad(indent + 2, ' ');
  switch (v.kind()) {
  case Value::Kind::Null:
    out += "null";
    return;
  case Value::Kind::Bool:
    out += v.asBool() ? "true" : "false";
    return;
  case Value::Kind::Int:
    out += std::to_string(v.asInt());
    return;
  case Value::Kind::String:
    writeString(v.asString(), out);
    return;
  case Value::Kind::Array: {
    // Arrays of scalars stay on one line: they are short (dims, symbols).
    bool flat = true;
    for (const Value &i : v.items())
      flat &= i.kind() != Value::Kind::Array && i.kind() != Value::Kind::Object;
    out += '[';
    for (size_t i = 0; i < v.items().size(); ++i) {
      out += i ? (flat ? ", " : ",\n" + pad) : (flat ? "" : "\n" + pad);
      writeValue(v.items()[i], indent + 2, out);
    }
    if (!flat && !v.items().empty())
      out += "\n" + std::string(indent, ' ');
    out += ']';
    return;
  }
  case Value::Kind::Object:
    out += '{';
    for (size_t i = 0; i < v.members().size(); ++i) {
      out += i ? ",\n" + pad : "\n" + pad;
      writeString(v.members()[i].first, out);
      out += ": ";
      writeValue(v.members()[i].second, indent + 2, out);
    }
    if (!v.members().empty())
      out += "\n" + std::string(indent, ' ');
    out += '}';
    return;
  }
}

} // namespace

Value hk::rt::json::parse(const std::string &text) {
  return Parser(text).parseDocument();
}

std::string hk::rt::json::write(const Value &v) {
  std::string out;
  writeValue(v, 0, out);
  out += '\n';
  return out;
}
