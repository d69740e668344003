//===- Template.cpp - kernel templates and their instances ----------------===//
//
// The declaration is read from the parsed default instance; values are
// checked against it, the marked lines rewritten, and the instance parsed
// like any source (include/hk/Dialect/HK/Template.h).
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/Template.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace hk;

namespace {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// An expression's value: an integer or a keyword.
struct ExprValue {
  bool isInteger = true;
  int64_t integer = 0;
  std::string keyword;

  std::string str() const {
    return isInteger ? std::to_string(integer) : keyword;
  }
};

/// A recursive-descent evaluator over the text of one expression; the first
/// error stops it and is kept in `error`.
class Evaluator {
public:
  Evaluator(StringRef text, const KernelTemplate &tmpl,
            const ParamValues &values)
      : text(text), tmpl(tmpl), values(values) {}

  std::optional<ExprValue> evaluate() {
    std::optional<ExprValue> v = parseOr();
    skipSpace();
    if (v && pos != text.size())
      return fail("unexpected '" + text.substr(pos).str() + "'");
    return v;
  }

  std::string error;

private:
  StringRef text;
  const KernelTemplate &tmpl;
  const ParamValues &values;
  size_t pos = 0;

  std::nullopt_t fail(const Twine &message) {
    if (error.empty())
      error = message.str();
    return std::nullopt;
  }

  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }

  /// Consumes `op` if the text continues with it (and not with a longer
  /// operator that starts with it, such as `<=` for `<`).
  bool accept(StringRef op) {
    skipSpace();
    if (!text.substr(pos).starts_with(op))
      return false;
    char next = pos + op.size() < text.size() ? text[pos + op.size()] : 0;
    if ((op == "<" || op == ">" || op == "!") && next == '=')
      return false;
    pos += op.size();
    return true;
  }

  std::optional<int64_t> integerOf(const std::optional<ExprValue> &v,
                                   StringRef op) {
    if (!v)
      return std::nullopt;
    if (!v->isInteger) {
      fail("'" + op + "' needs integers, got the keyword '" + v->keyword + "'");
      return std::nullopt;
    }
    return v->integer;
  }

  static ExprValue integer(int64_t i) { return ExprValue{true, i, {}}; }

  std::optional<ExprValue> parseOr() {
    std::optional<ExprValue> lhs = parseAnd();
    while (lhs && accept("||")) {
      std::optional<int64_t> a = integerOf(lhs, "||");
      std::optional<int64_t> b = integerOf(parseAnd(), "||");
      if (!a || !b)
        return std::nullopt;
      lhs = integer(*a || *b);
    }
    return lhs;
  }

  std::optional<ExprValue> parseAnd() {
    std::optional<ExprValue> lhs = parseCompare();
    while (lhs && accept("&&")) {
      std::optional<int64_t> a = integerOf(lhs, "&&");
      std::optional<int64_t> b = integerOf(parseCompare(), "&&");
      if (!a || !b)
        return std::nullopt;
      lhs = integer(*a && *b);
    }
    return lhs;
  }

  std::optional<ExprValue> parseCompare() {
    std::optional<ExprValue> lhs = parseAdditive();
    for (StringRef op : {"==", "!=", "<=", ">=", "<", ">"}) {
      if (!lhs || !accept(op))
        continue;
      std::optional<ExprValue> rhs = parseAdditive();
      if (!rhs)
        return std::nullopt;
      return compare(*lhs, *rhs, op);
    }
    return lhs;
  }

  std::optional<ExprValue> compare(const ExprValue &a, const ExprValue &b,
                                   StringRef op) {
    if (a.isInteger != b.isInteger)
      return fail("'" + op + "' compares an integer with a keyword");
    if (!a.isInteger) {
      if (op != "==" && op != "!=")
        return fail("keywords compare with == and != only");
      return integer((a.keyword == b.keyword) == (op == "=="));
    }
    int64_t x = a.integer, y = b.integer;
    bool r = op == "=="   ? x == y
             : op == "!=" ? x != y
             : op == "<=" ? x <= y
             : op == ">=" ? x >= y
             : op == "<"  ? x < y
                          : x > y;
    return integer(r);
  }

  std::optional<ExprValue> parseAdditive() {
    std::optional<ExprValue> lhs = parseMultiplicative();
    while (lhs) {
      bool add = accept("+");
      if (!add && !accept("-"))
        break;
      std::optional<int64_t> a = integerOf(lhs, add ? "+" : "-");
      std::optional<int64_t> b =
          integerOf(parseMultiplicative(), add ? "+" : "-");
      if (!a || !b)
        return std::nullopt;
      lhs = integer(add ? *a + *b : *a - *b);
    }
    return lhs;
  }

  std::optional<ExprValue> parseMultiplicative() {
    std::optional<ExprValue> lhs = parseUnary();
    while (lhs) {
      StringRef op = accept("*")   ? "*"
                     : accept("/") ? "/"
                     : accept("%") ? "%"
                                   : "";
      if (op.empty())
        break;
      std::optional<int64_t> a = integerOf(lhs, op);
      std::optional<int64_t> b = integerOf(parseUnary(), op);
      if (!a || !b)
        return std::nullopt;
      if (op != "*" && *b == 0)
        return fail("'" + op + "' by zero");
      lhs = integer(op == "*" ? *a * *b : op == "/" ? *a / *b : *a % *b);
    }
    return lhs;
  }

  std::optional<ExprValue> parseUnary() {
    if (accept("-")) {
      std::optional<int64_t> v = integerOf(parseUnary(), "-");
      return v ? std::optional<ExprValue>(integer(-*v)) : std::nullopt;
    }
    if (accept("!")) {
      std::optional<int64_t> v = integerOf(parseUnary(), "!");
      return v ? std::optional<ExprValue>(integer(!*v)) : std::nullopt;
    }
    return parsePrimary();
  }

  std::optional<ExprValue> parsePrimary() {
    skipSpace();
    if (pos == text.size())
      return fail("expression ends early");
    char c = text[pos];
    if (c == '(') {
      ++pos;
      std::optional<ExprValue> v = parseOr();
      if (v && !accept(")"))
        return fail("expected ')'");
      return v;
    }
    if (c == '"')
      return parseKeywordLiteral();
    if (llvm::isDigit(c))
      return parseIntegerLiteral();
    if (llvm::isAlpha(c) || c == '_')
      return parseName();
    return fail("unexpected '" + text.substr(pos).str() + "'");
  }

  std::optional<ExprValue> parseKeywordLiteral() {
    size_t end = text.find('"', pos + 1);
    if (end == StringRef::npos)
      return fail("unterminated keyword");
    ExprValue v{false, 0, text.slice(pos + 1, end).str()};
    pos = end + 1;
    return v;
  }

  std::optional<ExprValue> parseIntegerLiteral() {
    size_t start = pos;
    while (pos < text.size() && llvm::isDigit(text[pos]))
      ++pos;
    int64_t v;
    if (text.slice(start, pos).getAsInteger(10, v))
      return fail("integer out of range");
    return integer(v);
  }

  std::optional<ExprValue> parseName() {
    size_t start = pos;
    while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '_'))
      ++pos;
    StringRef name = text.slice(start, pos);
    const TemplateParam *param = tmpl.find(name);
    auto it = values.find(name.str());
    if (!param || it == values.end())
      return fail("'" + name + "' is not a parameter");
    if (!param->isInteger)
      return ExprValue{false, 0, it->second};
    int64_t v;
    if (StringRef(it->second).getAsInteger(10, v))
      return fail("parameter '" + name + "' = '" + it->second +
                  "' is not an integer");
    return integer(v);
  }
};

//===----------------------------------------------------------------------===//
// Locations in the source
//===----------------------------------------------------------------------===//

Location locationOf(const llvm::SourceMgr &sourceMgr, const char *ptr,
                    MLIRContext *context) {
  unsigned buffer = sourceMgr.getMainFileID();
  auto [line, col] =
      sourceMgr.getLineAndColumn(llvm::SMLoc::getFromPointer(ptr), buffer);
  StringRef name = sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier();
  return FileLineColLoc::get(context, name, line, col);
}

/// Where `needle` first occurs in the main buffer after `anchor` (itself
/// found first), else `fallback`. Without the source (a module verified
/// after parsing, whose text is gone), `fallback`: the op that carries the
/// attribute.
Location findLocation(const llvm::SourceMgr *sourceMgr, StringRef anchor,
                      StringRef needle, Location fallback) {
  if (!sourceMgr)
    return fallback;
  StringRef text =
      sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID())->getBuffer();
  size_t at = text.find(anchor);
  if (at == StringRef::npos)
    return fallback;
  size_t found = text.find(needle, at + anchor.size());
  if (found == StringRef::npos)
    return fallback;
  return locationOf(*sourceMgr, text.data() + found, fallback.getContext());
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

/// A value as written: an integer (not a boolean, which would read as -1
/// or 0) or a keyword.
std::optional<std::string> valueText(Attribute attr, bool &isInteger) {
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    if (i.getType().isInteger(1))
      return std::nullopt;
    isInteger = true;
    return std::to_string(i.getValue().getSExtValue());
  }
  if (auto s = dyn_cast<StringAttr>(attr)) {
    isInteger = false;
    return s.str();
  }
  return std::nullopt;
}

/// Whether `name` can be written in an expression: a letter or _, then
/// letters, digits and _.
bool isIdentifier(StringRef name) {
  return !name.empty() && (llvm::isAlpha(name[0]) || name[0] == '_') &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

LogicalResult readValues(TemplateParam &param, ArrayAttr values) {
  for (Attribute attr : values) {
    bool isInteger = true;
    std::optional<std::string> text = valueText(attr, isInteger);
    if (!text || (!param.values.empty() && isInteger != param.isInteger))
      return emitError(param.loc) << "parameter '" << param.name
                                  << "': 'values' must be all integers or "
                                     "all strings";
    // A keyword is compared in expressions as "text": it cannot hold a
    // quote, and an empty one could not be given as NAME=VALUE.
    if (!isInteger && (text->empty() || StringRef(*text).contains('"')))
      return emitError(param.loc)
             << "parameter '" << param.name << "': the keyword '" << *text
             << "' is empty or holds a quote";
    if (llvm::is_contained(param.values, *text))
      return emitError(param.loc) << "parameter '" << param.name << "': value "
                                  << *text << " listed twice";
    param.isInteger = isInteger;
    param.values.push_back(*text);
  }
  if (param.values.empty())
    return emitError(param.loc)
           << "parameter '" << param.name << "': 'values' is empty";
  return success();
}

LogicalResult readRange(TemplateParam &param, DictionaryAttr decl) {
  auto integer = [](Attribute a) {
    auto i = dyn_cast_or_null<IntegerAttr>(a);
    return i && !i.getType().isInteger(1) ? i : IntegerAttr();
  };
  IntegerAttr min = integer(decl.get("min")), max = integer(decl.get("max"));
  if (!min || !max)
    return emitError(param.loc)
           << "parameter '" << param.name
           << "' needs 'values' or integer 'min' and 'max'";
  param.min = min.getValue().getSExtValue();
  param.max = max.getValue().getSExtValue();
  if (*param.min > *param.max)
    return emitError(param.loc)
           << "parameter '" << param.name << "': 'min' is above 'max'";
  return success();
}

/// Why `value` is not allowed for `param`, or nothing when it is.
std::optional<std::string> rejectValue(const TemplateParam &param,
                                       StringRef value) {
  if (!param.values.empty()) {
    if (llvm::is_contained(param.values, value.str()))
      return std::nullopt;
    return "is not one of " + llvm::join(param.values, ", ");
  }
  int64_t v;
  if (value.getAsInteger(10, v))
    return std::string("is not an integer");
  if (v < *param.min || v > *param.max)
    return "is outside " + std::to_string(*param.min) + " to " +
           std::to_string(*param.max);
  return std::nullopt;
}

/// The keys of a declaration: known, and `values` or a range, not both.
LogicalResult checkKeys(const TemplateParam &param, DictionaryAttr decl) {
  for (NamedAttribute key : decl)
    if (!llvm::is_contained({"values", "min", "max", "default", "doc"},
                            key.getName().strref()))
      return emitError(param.loc)
             << "parameter '" << param.name << "': unknown key '"
             << key.getName().strref() << "' (values, min, max, default, doc)";
  if (decl.get("values") && (decl.get("min") || decl.get("max")))
    return emitError(param.loc)
           << "parameter '" << param.name << "' has both 'values' and a range";
  if (Attribute values = decl.get("values"); values && !isa<ArrayAttr>(values))
    return emitError(param.loc)
           << "parameter '" << param.name << "': 'values' must be an array";
  if (Attribute doc = decl.get("doc"); doc && !isa<StringAttr>(doc))
    return emitError(param.loc)
           << "parameter '" << param.name << "': 'doc' must be a string";
  return success();
}

FailureOr<TemplateParam> readParam(NamedAttribute entry, Location loc) {
  TemplateParam param{entry.getName().str(), true, {}, {}, {}, {}, {}, loc};
  if (!isIdentifier(param.name))
    return emitError(loc) << "parameter '" << param.name
                          << "': a name is a letter or _ followed by "
                             "letters, digits and _ (expressions name it)";
  auto decl = dyn_cast<DictionaryAttr>(entry.getValue());
  if (!decl)
    return emitError(loc) << "parameter '" << param.name
                          << "' must be declared by a dictionary";
  if (failed(checkKeys(param, decl)))
    return failure();
  if (auto values = decl.getAs<ArrayAttr>("values")) {
    if (failed(readValues(param, values)))
      return failure();
  } else if (failed(readRange(param, decl))) {
    return failure();
  }
  bool isInteger = true;
  std::optional<std::string> def;
  if (Attribute d = decl.get("default"))
    def = valueText(d, isInteger);
  if (!def || isInteger != param.isInteger)
    return emitError(loc) << "parameter '" << param.name
                          << "' needs a 'default' of its values' kind";
  if (std::optional<std::string> why = rejectValue(param, *def))
    return emitError(loc) << "parameter '" << param.name << "': default "
                          << *def << " " << *why;
  param.defaultValue = *def;
  if (auto doc = decl.getAs<StringAttr>("doc"))
    param.doc = doc.str();
  return param;
}

LogicalResult readConstraints(ModuleOp module, const llvm::SourceMgr *sm,
                              KernelTemplate &tmpl) {
  Attribute attr = module->getAttr(kConstraintsAttrName);
  if (!attr)
    return success();
  auto list = dyn_cast<ArrayAttr>(attr);
  if (!list || !llvm::all_of(list, llvm::IsaPred<StringAttr>))
    return module.emitError()
           << "'" << kConstraintsAttrName << "' must be an array of strings";
  for (Attribute c : list) {
    std::string expr = cast<StringAttr>(c).str();
    // As written the constraint may escape its quotes: look for its text up
    // to the first one.
    StringRef prefix =
        StringRef(expr).take_until([](char c) { return c == '"'; });
    Location loc = findLocation(sm, kConstraintsAttrName, "\"" + prefix.str(),
                                module.getLoc());
    tmpl.constraints.push_back({expr, loc});
  }
  return success();
}

/// The declaration on `module`, each parameter located in `sm` when given,
/// else at the module.
FailureOr<KernelTemplate> readDeclaration(ModuleOp module,
                                          const llvm::SourceMgr *sm) {
  KernelTemplate tmpl;
  Attribute attr = module->getAttr(kParamsAttrName);
  if (!attr) {
    if (module->hasAttr(kConstraintsAttrName))
      return module.emitError() << "'" << kConstraintsAttrName << "' without '"
                                << kParamsAttrName << "'";
    return tmpl;
  }
  auto decls = dyn_cast<DictionaryAttr>(attr);
  if (!decls || decls.empty())
    return module.emitError()
           << "'" << kParamsAttrName << "' must be a non-empty dictionary";
  for (NamedAttribute entry : decls) {
    Location loc = findLocation(sm, kParamsAttrName,
                                entry.getName().str() + " =", module.getLoc());
    FailureOr<TemplateParam> param = readParam(entry, loc);
    if (failed(param))
      return failure();
    tmpl.params.push_back(std::move(*param));
  }
  if (failed(readConstraints(module, sm, tmpl)))
    return failure();
  return tmpl;
}

/// Evaluates `expr` at `values`; a located error on failure.
FailureOr<ExprValue> evaluateAt(StringRef expr, const KernelTemplate &tmpl,
                                const ParamValues &values, Location loc) {
  Evaluator evaluator(expr, tmpl, values);
  std::optional<ExprValue> v = evaluator.evaluate();
  if (!v)
    return emitError(loc) << "in '" << expr << "': " << evaluator.error;
  return *v;
}

std::string describe(const ParamValues &values) {
  std::vector<std::string> parts;
  for (const auto &[name, value] : values)
    parts.push_back(name + "=" + value);
  return llvm::join(parts, ", ");
}

//===----------------------------------------------------------------------===//
// Marked lines
//===----------------------------------------------------------------------===//

/// `pattern` with each `${expr}` replaced by its value at `values`.
FailureOr<std::string> substitute(StringRef pattern, const KernelTemplate &tmpl,
                                  const ParamValues &values,
                                  const llvm::SourceMgr &sm, MLIRContext *ctx) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = pattern.find("${", pos);
    out += pattern.slice(pos, open).str();
    if (open == StringRef::npos)
      return out;
    Location loc = locationOf(sm, pattern.data() + open, ctx);
    size_t close = pattern.find('}', open);
    if (close == StringRef::npos)
      return emitError(loc) << "'${' without its '}'";
    FailureOr<ExprValue> v =
        evaluateAt(pattern.slice(open + 2, close), tmpl, values, loc);
    if (failed(v))
      return failure();
    out += v->str();
    pos = close + 1;
  }
}

/// The marked line below `marker` (the text after the marker) at `values`,
/// after checking that at the defaults it reads as `line` does.
FailureOr<std::string> rewriteMarkedLine(StringRef pattern, StringRef line,
                                         const KernelTemplate &tmpl,
                                         const ParamValues &values,
                                         const llvm::SourceMgr &sm,
                                         MLIRContext *ctx) {
  pattern = pattern.trim();
  Location loc = locationOf(sm, pattern.data(), ctx);
  FailureOr<std::string> atDefault =
      substitute(pattern, tmpl, tmpl.defaults(), sm, ctx);
  if (failed(atDefault))
    return failure();
  StringRef body = line.trim();
  if (*atDefault != body)
    return emitError(loc) << "at the defaults this template line reads '"
                          << *atDefault << "', but the line below it reads '"
                          << body << "'";
  FailureOr<std::string> instance = substitute(pattern, tmpl, values, sm, ctx);
  if (failed(instance))
    return failure();
  StringRef indent = line.take_until([](char c) { return !llvm::isSpace(c); });
  return indent.str() + *instance;
}

} // namespace

//===----------------------------------------------------------------------===//
// API
//===----------------------------------------------------------------------===//

const TemplateParam *KernelTemplate::find(StringRef name) const {
  for (const TemplateParam &p : params)
    if (p.name == name)
      return &p;
  return nullptr;
}

ParamValues KernelTemplate::defaults() const {
  ParamValues values;
  for (const TemplateParam &p : params)
    values[p.name] = p.defaultValue;
  return values;
}

FailureOr<KernelTemplate> hk::readTemplate(ModuleOp module,
                                           const llvm::SourceMgr &sourceMgr) {
  return readDeclaration(module, &sourceMgr);
}

FailureOr<KernelTemplate> hk::verifyTemplate(ModuleOp module,
                                             const llvm::SourceMgr *sourceMgr) {
  FailureOr<KernelTemplate> tmpl = readDeclaration(module, sourceMgr);
  if (failed(tmpl))
    return failure();
  // Resolving no values checks the defaults against every constraint, which
  // also parses each constraint and checks the names it uses.
  if (!tmpl->empty() && failed(resolveParams(*tmpl, {}, module.getLoc())))
    return failure();
  return tmpl;
}

FailureOr<ParamValues> hk::resolveParams(const KernelTemplate &tmpl,
                                         const ParamValues &given,
                                         Location where) {
  for (const auto &[name, value] : given) {
    const TemplateParam *param = tmpl.find(name);
    if (!param) {
      std::vector<std::string> names;
      for (const TemplateParam &p : tmpl.params)
        names.push_back(p.name);
      return emitError(where)
             << "'" << name << "' is not a parameter of this source"
             << (names.empty()
                     ? std::string(" (it declares none)")
                     : "; its parameters: " + llvm::join(names, ", "));
    }
    if (std::optional<std::string> why = rejectValue(*param, value))
      return emitError(param->loc)
             << "parameter '" << name << "' = " << value << " " << *why;
  }
  ParamValues values = tmpl.defaults();
  for (const auto &[name, value] : given)
    values[name] = value;
  for (const TemplateConstraint &c : tmpl.constraints) {
    FailureOr<ExprValue> ok = evaluateAt(c.expr, tmpl, values, c.loc);
    if (failed(ok))
      return failure();
    if (!ok->isInteger)
      return emitError(c.loc) << "constraint '" << c.expr
                              << "' gives a keyword, not a truth value";
    if (!ok->integer)
      return emitError(c.loc)
             << "constraint '" << c.expr << "' fails for "
             << (given.empty() ? "the defaults " : "") << describe(values);
  }
  return values;
}

FailureOr<std::string> hk::instantiateText(const llvm::SourceMgr &sourceMgr,
                                           const KernelTemplate &tmpl,
                                           const ParamValues &values,
                                           MLIRContext *context) {
  StringRef text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i)
      out += '\n';
    out += lines[i].str();
    StringRef trimmed = lines[i].ltrim();
    if (!trimmed.starts_with(kTemplateLineMarker))
      continue;
    Location loc = locationOf(sourceMgr, trimmed.data(), context);
    if (tmpl.empty())
      return emitError(loc)
             << "'" << kTemplateLineMarker << "' in a source without '"
             << kParamsAttrName << "'";
    if (i + 1 == lines.size() ||
        lines[i + 1].ltrim().starts_with(kTemplateLineMarker))
      return emitError(loc) << "a template line must be followed by the "
                               "line it stands for";
    FailureOr<std::string> line =
        rewriteMarkedLine(trimmed.drop_front(kTemplateLineMarker.size()),
                          lines[i + 1], tmpl, values, sourceMgr, context);
    if (failed(line))
      return failure();
    out += '\n' + *line;
    ++i;
  }
  return out;
}

static DictionaryAttr instanceAttr(const KernelTemplate &tmpl,
                                   const ParamValues &values, Builder &b) {
  SmallVector<NamedAttribute> entries;
  for (const auto &[name, value] : values) {
    int64_t v;
    Attribute attr =
        tmpl.find(name)->isInteger && !StringRef(value).getAsInteger(10, v)
            ? Attribute(b.getI64IntegerAttr(v))
            : Attribute(b.getStringAttr(value));
    entries.push_back(b.getNamedAttr(name, attr));
  }
  return b.getDictionaryAttr(entries);
}

OwningOpRef<ModuleOp> hk::parseInstance(llvm::SourceMgr &sourceMgr,
                                        MLIRContext *context,
                                        const ParamValues &given) {
  // The declaration is checked before the rest of the module, here where
  // the source is at hand to locate each parameter; the dialect's verifier
  // would check it again, located at the module only.
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(
      sourceMgr, ParserConfig(context, /*verifyAfterParse=*/false));
  if (!module)
    return nullptr;
  FailureOr<KernelTemplate> tmpl = verifyTemplate(*module, &sourceMgr);
  if (failed(tmpl) || failed(verify(*module)))
    return nullptr;
  Location where =
      findLocation(&sourceMgr, "", kParamsAttrName, module->getLoc());
  FailureOr<ParamValues> values = resolveParams(*tmpl, given, where);
  if (failed(values))
    return nullptr;
  // The default instance is the source itself, once its marked lines are
  // known to match their patterns.
  FailureOr<std::string> text =
      instantiateText(sourceMgr, *tmpl, *values, context);
  if (failed(text))
    return nullptr;
  if (tmpl->empty() || *values == tmpl->defaults())
    return module;
  StringRef name = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                       ->getBufferIdentifier();
  OwningOpRef<ModuleOp> instance =
      parseSourceString<ModuleOp>(*text, ParserConfig(context), name);
  if (!instance) {
    emitRemark(where) << "in the instance " << describe(*values);
    return nullptr;
  }
  Builder b(context);
  (*instance)->setAttr(kInstanceAttrName, instanceAttr(*tmpl, *values, b));
  return instance;
}

bool hk::addParamAssignment(StringRef assignment, ParamValues &values,
                            std::string &error) {
  auto [name, value] = assignment.split('=');
  name = name.trim();
  value = value.trim();
  if (name.empty() || value.empty() || !assignment.contains('=')) {
    error = "'" + assignment.str() + "' is not NAME=VALUE";
    return false;
  }
  if (!values.emplace(name.str(), value.str()).second) {
    error = "parameter '" + name.str() + "' given twice";
    return false;
  }
  return true;
}
