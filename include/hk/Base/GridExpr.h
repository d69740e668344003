//===- GridExpr.h - grid expressions of kernel metadata -------------------===//
//
// The launch grid of a kernel as expressions over symbols bound to argument
// sizes and scalar values: the runtime form of #hk.grid, parsed from and
// printed to the kernel metadata, evaluated at launch (hkrt) and by
// hkrt_grid_evaluate for other languages.
//===----------------------------------------------------------------------===//

#ifndef HK_BASE_GRIDEXPR_H
#define HK_BASE_GRIDEXPR_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hk::rt {

/// A grid expression: integers and symbols s0, s1, ... combined with
/// + - * floordiv ceildiv mod (affine-map spelling and precedence: * and the
/// divisions bind tighter than + and -, all left-associative; unary minus and
/// parentheses allowed). Values are exact 64-bit integers; overflow and
/// division by zero are errors.
class GridExpr {
public:
  enum class Op { Const, Sym, Add, Sub, Mul, FloorDiv, CeilDiv, Mod, Neg };

  static GridExpr constant(int64_t v);
  static GridExpr symbol(unsigned index);
  static GridExpr binary(Op op, GridExpr lhs, GridExpr rhs);
  static GridExpr negate(GridExpr e);
  /// Throws hk::rt::Error naming the position of a syntax error.
  static GridExpr parse(const std::string &text);

  Op op() const { return node_->op; }
  /// Parenthesised where precedence needs it; parse(print()) evaluates the
  /// same everywhere (and gives the same tree unless it held Neg(Const)).
  std::string print() const;
  /// Throws on an unbound symbol, division by zero or overflow.
  int64_t evaluate(const std::vector<int64_t> &symbols) const;
  /// Largest symbol index used plus one.
  unsigned numSymbols() const;

private:
  struct Node {
    Op op;
    int64_t value = 0; // Const: the value; Sym: the index.
    std::shared_ptr<const Node> lhs, rhs;
  };
  explicit GridExpr(std::shared_ptr<const Node> n) : node_(std::move(n)) {}
  static std::string printNode(const Node &n, int parentPrec);
  static int64_t evalNode(const Node &n, const std::vector<int64_t> &syms);
  static unsigned maxSymbol(const Node &n);
  std::shared_ptr<const Node> node_;
  friend class GridExprParser;
};

/// What a grid symbol stands for: dim(arg, dim) or, with dim < 0, arg(arg).
struct GridSymbol {
  int64_t arg = 0;
  int64_t dim = -1;
  bool isScalar() const { return dim < 0; }
};

} // namespace hk::rt

#endif // HK_BASE_GRIDEXPR_H
