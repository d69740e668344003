//===- Template.h - kernel templates and their instances ------------------===//
//
// A kernel source becomes a template by declaring compile-time parameters
// on its module and marking the lines that depend on them:
//
//   module attributes {
//     hk.params = {BM = {values = [128, 256], default = 256,
//                        doc = "rows of C per workgroup"},
//                  WGM = {min = 1, max = 64, default = 8}},
//     hk.constraints = ["BM * WGM <= 4096"]} {
//   // hk.template: !acc = tensor<${BM / 4}x32xf32, #hk.rt<col, 16x16>>
//   !acc = tensor<64x32xf32, #hk.rt<col, 16x16>>
//
// A parameter takes integers (`values` or `min`/`max`) or keywords
// (`values` of strings); `default` is required. A `// hk.template:` comment
// holds the text of the line below it with `${expr}` where an expression of
// the parameters goes. The file as written is the default instance: every
// tool reads it as plain MLIR, and instantiating checks that each marked
// line is its pattern at the defaults, so the two cannot drift apart. An
// instance replaces each marked line with its pattern at the instance's
// values, keeping line numbers, and is then parsed and verified as any
// source.
//
// Why text and not a pass over IR: parameters size builtin tensor types and
// hk tile types, and MLIR types have no symbolic dimensions, so an IR that
// used them before instantiation could not be written. The declarations are
// IR (module attributes, read from the parsed module); only the marked lines
// are text.
//
// Expressions (in `${...}` and hk.constraints): integers, parameter names,
// "keywords", parentheses, unary - and !, * / % + -, comparisons
// == != < <= > >=, && and ||; / and % are truncating, by zero an error;
// comparisons and logic give 0 or 1. Keyword values compare with == and !=.
//
// Every error is an MLIR diagnostic located in the source: a value outside
// its parameter's set at the parameter's declaration, a failed constraint
// at the constraint, a bad expression at its `${`.
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_TEMPLATE_H
#define HK_DIALECT_HK_TEMPLATE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include "llvm/Support/SourceMgr.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hk {

/// The module attribute declaring a template's parameters.
inline constexpr llvm::StringLiteral kParamsAttrName = "hk.params";
/// The module attribute holding its constraints (strings).
inline constexpr llvm::StringLiteral kConstraintsAttrName = "hk.constraints";
/// The attribute an instance's module gets: its parameters' values.
inline constexpr llvm::StringLiteral kInstanceAttrName = "hk.instance";
/// The comment that marks a line as depending on the parameters.
inline constexpr llvm::StringLiteral kTemplateLineMarker = "// hk.template:";

/// Parameter name -> value as written (`128`, `ping_pong`).
using ParamValues = std::map<std::string, std::string>;

struct TemplateParam {
  std::string name;
  bool isInteger = true;
  std::vector<std::string> values; ///< the allowed set; empty: min..max
  std::optional<int64_t> min, max;
  std::string defaultValue;
  std::string doc;
  mlir::Location loc; ///< its declaration
};

struct TemplateConstraint {
  std::string expr;
  mlir::Location loc;
};

struct KernelTemplate {
  std::vector<TemplateParam> params;
  std::vector<TemplateConstraint> constraints;

  bool empty() const { return params.empty(); }
  const TemplateParam *find(llvm::StringRef name) const;
  /// Every parameter at its default.
  ParamValues defaults() const;
};

/// The declaration on `module` (an empty template when it has none);
/// located errors on a malformed one.
mlir::FailureOr<KernelTemplate> readTemplate(mlir::ModuleOp module,
                                             const llvm::SourceMgr &sourceMgr);

/// The declaration on `module`, checked as the dialect's verifier checks
/// it whenever a module is verified: each parameter well formed (a name
/// expressions can use; integer or keyword `values` listed once each, or
/// an integer `min` <= `max`; a `default` among them; a string `doc`),
/// every constraint an expression of declared parameters only, and the
/// defaults satisfying every constraint. Errors name the parameter or the
/// constraint and are located at its text in `sourceMgr` when given, else
/// at the module.
mlir::FailureOr<KernelTemplate>
verifyTemplate(mlir::ModuleOp module,
               const llvm::SourceMgr *sourceMgr = nullptr);

/// `given` checked against `tmpl` (known names, allowed values, then every
/// constraint) and completed with the defaults.
mlir::FailureOr<ParamValues> resolveParams(const KernelTemplate &tmpl,
                                           const ParamValues &given,
                                           mlir::Location where);

/// The text of the instance at `values` of the source in `sourceMgr`'s
/// main buffer; each marked line is checked against its pattern at the
/// template's defaults.
mlir::FailureOr<std::string> instantiateText(const llvm::SourceMgr &sourceMgr,
                                             const KernelTemplate &tmpl,
                                             const ParamValues &values,
                                             mlir::MLIRContext *context);

/// Parses the main buffer of `sourceMgr`; for a template, checks `given`
/// and parses the instance at it (added to `sourceMgr` under the same
/// name), whose module carries hk.instance. `given` must be empty for a
/// source that is not a template. Null after located errors.
mlir::OwningOpRef<mlir::ModuleOp> parseInstance(llvm::SourceMgr &sourceMgr,
                                                mlir::MLIRContext *context,
                                                const ParamValues &given);

/// Parses `NAME=VALUE` into `values`; false (and `error`) when malformed or
/// repeated.
bool addParamAssignment(llvm::StringRef assignment, ParamValues &values,
                        std::string &error);

} // namespace hk

#endif // HK_DIALECT_HK_TEMPLATE_H
