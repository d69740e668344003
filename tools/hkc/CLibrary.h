//===- CLibrary.h - hkc --emit=c-library ----------------------------------===//
//
// Ahead-of-time export for C and C++: a header with one typed launch
// function per kernel of an artifact, and a C source embedding the
// artifact's bytes that loads and launches through hkrt.h. docs/hkc.md,
// "Export for C and C++", describes what is generated.
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HKC_CLIBRARY_H
#define HK_TOOLS_HKC_CLIBRARY_H

#include "hk/Base/Artifact.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace hk::hkc {

/// The C identifier of the library written to `prefix`: the prefix's file
/// name, each character that cannot be in an identifier replaced by '_', and
/// a '_' before a leading digit.
std::string cLibraryIdentifier(llvm::StringRef prefix);

/// The header text (<prefix>.h) of the library `name` for `artifact`.
/// Fails, naming the kernel or argument, on what C cannot express (two
/// kernels or arguments that map to one identifier).
llvm::Expected<std::string> cLibraryHeader(const rt::Artifact &artifact,
                                           llvm::StringRef name,
                                           llvm::StringRef source);

/// The C source (<prefix>.c): the artifact's `bytes` and the functions the
/// header declares; it includes the header as `header`.
llvm::Expected<std::string> cLibrarySource(const rt::Artifact &artifact,
                                           llvm::StringRef bytes,
                                           llvm::StringRef name,
                                           llvm::StringRef header);

/// Writes <prefix>.h and <prefix>.c for `artifact` (whose bytes are
/// `bytes`), compiled from `source`, the input's name.
llvm::Error writeCLibrary(const rt::Artifact &artifact, llvm::StringRef bytes,
                          llvm::StringRef prefix, llvm::StringRef source);

} // namespace hk::hkc

#endif // HK_TOOLS_HKC_CLIBRARY_H
