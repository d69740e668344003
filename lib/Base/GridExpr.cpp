//===- GridExpr.cpp - grid expressions: parse, print, evaluate ------------===//

#include "hk/Base/GridExpr.h"
#include "hk/Base/Error.h"

#include <cctype>

using namespace hk::rt;

GridExpr GridExpr::constant(int64_t v) {
  return GridExpr(std::make_shared<Node>(Node{Op::Const, v, {}, {}}));
}
GridExpr GridExpr::symbol(unsigned index) {
  return GridExpr(std::make_shared<Node>(Node{Op::Sym, index, {}, {}}));
}
GridExpr GridExpr::binary(Op op, GridExpr lhs, GridExpr rhs) {
  return GridExpr(std::make_shared<Node>(Node{op, 0, lhs.node_, rhs.node_}));
}
GridExpr GridExpr::negate(GridExpr e) {
  return GridExpr(std::make_shared<Node>(Node{Op::Neg, 0, e.node_, {}}));
}

namespace hk::rt {
/// expr := term (('+' | '-') term)*
/// term := unary (('*' | 'floordiv' | 'ceildiv' | 'mod') unary)*
/// unary := '-' unary | INT | 's' INT | '(' expr ')'
class GridExprParser {
public:
  explicit GridExprParser(const std::string &t) : text(t) {}
  GridExpr parseAll() {
    GridExpr e = parseExpr(0);
    skip();
    if (pos != text.size())
      fail("unexpected '" + text.substr(pos, 1) + "'");
    return e;
  }

private:
  const std::string &text;
  size_t pos = 0;

  [[noreturn]] void fail(const std::string &what) {
    throw Error(HKRT_ERROR_INVALID_ARTIFACT,
                "grid expression '" + text + "' at column " +
                    std::to_string(pos + 1) + ": " + what);
  }
  void skip() {
    while (pos < text.size() && isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool word(const char *w) {
    skip();
    size_t n = std::char_traits<char>::length(w);
    if (text.compare(pos, n, w) != 0)
      return false;
    // A keyword must not run into a following identifier character.
    if (isalpha(static_cast<unsigned char>(w[0])) && pos + n < text.size() &&
        isalnum(static_cast<unsigned char>(text[pos + n])))
      return false;
    pos += n;
    return true;
  }
  int64_t number() {
    if (pos >= text.size() || !isdigit(static_cast<unsigned char>(text[pos])))
      fail("expected a number");
    int64_t v = 0;
    while (pos < text.size() &&
           isdigit(static_cast<unsigned char>(text[pos]))) {
      int d = text[pos] - '0';
      if (v > (INT64_MAX - d) / 10)
        fail("number out of range");
      v = v * 10 + d;
      ++pos;
    }
    return v;
  }
  GridExpr parseExpr(int depth) {
    GridExpr lhs = parseTerm(depth);
    while (true) {
      if (word("+"))
        lhs = GridExpr::binary(GridExpr::Op::Add, lhs, parseTerm(depth));
      else if (word("-"))
        lhs = GridExpr::binary(GridExpr::Op::Sub, lhs, parseTerm(depth));
      else
        return lhs;
    }
  }
  GridExpr parseTerm(int depth) {
    GridExpr lhs = parseUnary(depth);
    while (true) {
      GridExpr::Op op;
      if (word("*"))
        op = GridExpr::Op::Mul;
      else if (word("floordiv"))
        op = GridExpr::Op::FloorDiv;
      else if (word("ceildiv"))
        op = GridExpr::Op::CeilDiv;
      else if (word("mod"))
        op = GridExpr::Op::Mod;
      else
        return lhs;
      lhs = GridExpr::binary(op, lhs, parseUnary(depth));
    }
  }
  GridExpr parseUnary(int depth) {
    if (depth > 64)
      fail("nesting deeper than 64");
    skip();
    if (word("-")) {
      skip();
      if (pos < text.size() && isdigit(static_cast<unsigned char>(text[pos])))
        return GridExpr::constant(-number());
      return GridExpr::negate(parseUnary(depth + 1));
    }
    if (word("(")) {
      GridExpr e = parseExpr(depth + 1);
      if (!word(")"))
        fail("expected ')'");
      return e;
    }
    if (pos < text.size() && text[pos] == 's') {
      ++pos;
      int64_t i = number();
      if (i > 1024)
        fail("symbol index out of range");
      return GridExpr::symbol(unsigned(i));
    }
    if (pos >= text.size())
      fail("unexpected end");
    return GridExpr::constant(number());
  }
};
} // namespace hk::rt

GridExpr GridExpr::parse(const std::string &text) {
  return GridExprParser(text).parseAll();
}

static int precedence(GridExpr::Op op) {
  switch (op) {
  case GridExpr::Op::Add:
  case GridExpr::Op::Sub:
    return 1;
  case GridExpr::Op::Mul:
  case GridExpr::Op::FloorDiv:
  case GridExpr::Op::CeilDiv:
  case GridExpr::Op::Mod:
    return 2;
  case GridExpr::Op::Neg:
    return 3;
  default:
    return 4;
  }
}

std::string GridExpr::printNode(const Node &n, int parentPrec) {
  static const char *names[] = {
      "", "", " + ", " - ", " * ", " floordiv ", " ceildiv ", " mod ", "-"};
  std::string s;
  int prec = precedence(n.op);
  switch (n.op) {
  case Op::Const:
    return n.value < 0 ? "(" + std::to_string(n.value) + ")"
                       : std::to_string(n.value);
  case Op::Sym:
    return "s" + std::to_string(n.value);
  case Op::Neg:
    s = "-" + printNode(*n.lhs, prec);
    break;
  default:
    // Left-associative: the right operand needs parentheses at equal
    // precedence, the left one does not.
    s = printNode(*n.lhs, prec) + names[int(n.op)] +
        printNode(*n.rhs, prec + 1);
  }
  return prec < parentPrec ? "(" + s + ")" : s;
}

std::string GridExpr::print() const { return printNode(*node_, 0); }

static int64_t checked(bool overflow, int64_t v) {
  if (overflow)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, "integer overflow");
  return v;
}

int64_t GridExpr::evalNode(const Node &n, const std::vector<int64_t> &syms) {
  if (n.op == Op::Const)
    return n.value;
  if (n.op == Op::Sym) {
    if (size_t(n.value) >= syms.size())
      throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                  "symbol s" + std::to_string(n.value) + " is not bound");
    return syms[n.value];
  }
  int64_t a = evalNode(*n.lhs, syms), r;
  if (n.op == Op::Neg)
    return checked(__builtin_sub_overflow(int64_t(0), a, &r), r);
  int64_t b = evalNode(*n.rhs, syms);
  switch (n.op) {
  case Op::Add:
    return checked(__builtin_add_overflow(a, b, &r), r);
  case Op::Sub:
    return checked(__builtin_sub_overflow(a, b, &r), r);
  case Op::Mul:
    return checked(__builtin_mul_overflow(a, b, &r), r);
  default:
    break;
  }
  if (b == 0)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, "division by zero");
  if (a == INT64_MIN && b == -1)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, "integer overflow");
  int64_t q = a / b, m = a % b;
  // Affine semantics: floordiv rounds down, ceildiv up, mod has the sign of
  // the divisor's magnitude (always in [0, |b|)).
  switch (n.op) {
  case Op::FloorDiv:
    return (m != 0 && ((m < 0) != (b < 0))) ? q - 1 : q;
  case Op::CeilDiv:
    return (m != 0 && ((m < 0) == (b < 0))) ? q + 1 : q;
  case Op::Mod:
    return m < 0 ? m + (b < 0 ? -b : b) : m;
  default:
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, "bad grid expression");
  }
}

int64_t GridExpr::evaluate(const std::vector<int64_t> &symbols) const {
  return evalNode(*node_, symbols);
}

unsigned GridExpr::maxSymbol(const Node &n) {
  if (n.op == Op::Sym)
    return unsigned(n.value) + 1;
  unsigned m = 0;
  if (n.lhs)
    m = maxSymbol(*n.lhs);
  if (n.rhs)
    m = std::max(m, maxSymbol(*n.rhs));
  return m;
}

unsigned GridExpr::numSymbols() const { return maxSymbol(*node_); }
