//===- Json.h - the small JSON subset the runtime reads and writes --------===//
//
// Kernel metadata travels as JSON. The runtime links of LLVM only what the
// ISA simulator's disassembler needs, not its JSON support, and has its own
// reader and writer for the subset it needs: objects, arrays,
// strings, 64-bit integers, booleans and null. Floating-point numbers are
// rejected: no metadata field needs one.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_JSON_H
#define HK_RUNTIME_JSON_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hk::rt::json {

class Value {
public:
  enum class Kind { Null, Bool, Int, String, Array, Object };

  Value() = default;
  static Value boolean(bool b);
  static Value integer(int64_t i);
  static Value string(std::string s);
  static Value array(std::vector<Value> items = {});
  static Value object();

  Kind kind() const { return kind_; }
  bool asBool() const { return b_; }
  int64_t asInt() const { return i_; }
  const std::string &asString() const { return s_; }
  const std::vector<Value> &items() const { return items_; }
  const std::vector<std::pair<std::string, Value>> &members() const {
    return members_;
  }

  /// Appends to an array / sets a member of an object (insertion order kept).
  Value &push(Value v);
  Value &set(const std::string &key, Value v);
  /// The member called `key`, or null if there is none.
  const Value *get(const std::string &key) const;

private:
  Kind kind_ = Kind::Null;
  bool b_ = false;
  int64_t i_ = 0;
  std::string s_;
  std::vector<Value> items_;
  std::vector<std::pair<std::string, Value>> members_;
};

/// Parses `text`; throws hk::rt::Error (HKRT_ERROR_INVALID_ARTIFACT) with the
/// byte offset of the problem.
Value parse(const std::string &text);
/// Indented, deterministic text.
std::string write(const Value &v);

} // namespace hk::rt::json

#endif // HK_RUNTIME_JSON_H
