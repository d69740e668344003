//===- InputLimits.cpp - nesting limit, compile stack, fatal errors -------===//

#include "hk/Base/InputLimits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <algorithm>
#include <csetjmp>
#include <csignal>
#include <mutex>

using namespace hk;

namespace {

char closerOf(char open) {
  switch (open) {
  case '{':
    return '}';
  case '(':
    return ')';
  case '[':
    return ']';
  default:
    return '>';
  }
}

/// The index just past the string literal that starts at `i` (a `"`).
size_t skipString(llvm::StringRef text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\')
      ++i;
    else if (text[i] == '"')
      return i + 1;
  }
  return text.size();
}

/// Whether the `<` or `>` at `i` is part of `->`, `<=` or `>=`.
bool isOperatorAngle(llvm::StringRef text, size_t i) {
  if (i + 1 < text.size() && text[i + 1] == '=')
    return true;
  return text[i] == '>' && i > 0 && text[i - 1] == '-';
}

/// Pops `open` through its innermost opener of `close`, if there is one.
void closeBracket(llvm::SmallVectorImpl<char> &open, char close) {
  auto it = std::find_if(open.rbegin(), open.rend(),
                         [&](char o) { return closerOf(o) == close; });
  if (it != open.rend())
    open.resize(open.size() - (it - open.rbegin()) - 1);
}

bool isBytecode(llvm::StringRef text) { return text.starts_with("ML\xefR"); }

// The scope of the innermost runCatchingFatalErrors of this thread.
// The message lives here, not in a local of that call: a local changed
// between setjmp and longjmp is indeterminate after the jump.
thread_local std::jmp_buf *fatalJump = nullptr;
thread_local std::string fatalMessage;

void fatalErrorHandler(void *, const char *reason, bool) {
  if (fatalJump) {
    fatalMessage = reason;
    std::longjmp(*fatalJump, 1);
  }
  // Outside a guarded call: what LLVM prints without a handler, then LLVM
  // exits.
  llvm::errs() << "LLVM ERROR: " << reason << "\n";
  llvm::errs().flush();
}

} // namespace

NestingDepth hk::measureNesting(llvm::StringRef text, unsigned stopAbove) {
  NestingDepth deepest;
  llvm::SmallVector<char, 64> open;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '"') {
      i = skipString(text, i);
      continue;
    }
    if (c == '/' && text.substr(i).starts_with("//")) {
      i = text.find('\n', i);
      continue; // npos ends the loop
    }
    if ((c == '<' || c == '>') && isOperatorAngle(text, i)) {
      ++i;
      continue;
    }
    if (c == '{' || c == '(' || c == '[' || c == '<') {
      open.push_back(c);
      if (open.size() > deepest.depth) {
        deepest.depth = open.size();
        deepest.offset = i;
        if (deepest.depth > stopAbove)
          return deepest;
      }
    } else if (c == '}' || c == ')' || c == ']' || c == '>') {
      closeBracket(open, c);
    }
    ++i;
  }
  return deepest;
}

std::optional<unsigned> hk::checkNestingDepth(const llvm::SourceMgr &sourceMgr,
                                              unsigned limit,
                                              llvm::StringRef optionHint,
                                              llvm::raw_ostream &os) {
  unsigned deepest = 0;
  for (unsigned id = 1, e = sourceMgr.getNumBuffers(); id <= e; ++id) {
    const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(id);
    llvm::StringRef text = buffer->getBuffer();
    if (isBytecode(text))
      continue;
    NestingDepth nesting = measureNesting(text, limit);
    deepest = std::max(deepest, nesting.depth);
    if (nesting.depth <= limit)
      continue;
    sourceMgr.PrintMessage(
        os, llvm::SMLoc::getFromPointer(text.data() + nesting.offset),
        llvm::SourceMgr::DK_Error,
        llvm::Twine("nesting deeper than ") + llvm::Twine(limit) +
            " levels of brackets ({, (, [, <); " + optionHint +
            " raises the limit (at most " + llvm::Twine(kMaxNestingDepthLimit) +
            ")");
    return std::nullopt;
  }
  return deepest;
}

unsigned hk::compileStackBytes(unsigned limit) {
  // Parsing, verifying, printing and the passes take a few KiB per level;
  // 32 KiB per level over a 64 MiB base leaves a wide margin. Only the
  // pages touched are ever committed.
  constexpr unsigned kBase = 64u << 20, kPerLevel = 32u << 10;
  return kBase + std::min(limit, kMaxNestingDepthLimit) * kPerLevel;
}

void hk::runOnCompileStack(unsigned limit, llvm::function_ref<void()> fn) {
  llvm::thread worker(std::optional<unsigned>(compileStackBytes(limit)), [&] {
    // The first thread to register LLVM's signal handlers (lld does, for
    // its output file) gets LLVM's alternate signal stack, a heap block, in
    // place of its own. AddressSanitizer made this thread's own and unmaps
    // whatever is there when the thread ends: it died on LLVM's block after
    // the first code object linked. The thread ends with its own back.
    stack_t own;
    bool saved = sigaltstack(nullptr, &own) == 0;
    fn();
    if (saved)
      sigaltstack(&own, nullptr);
  });
  worker.join();
}

std::optional<std::string>
hk::runCatchingFatalErrors(llvm::function_ref<void()> fn) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    llvm::install_fatal_error_handler(fatalErrorHandler, nullptr);
  });
  std::jmp_buf jump;
  // Set before setjmp and not changed after it: still valid after a
  // longjmp back here.
  std::jmp_buf *outerJump = fatalJump;
  if (setjmp(jump) == 0) {
    fatalJump = &jump;
    fn();
    fatalJump = outerJump;
    return std::nullopt;
  }
  fatalJump = outerJump;
  return std::move(fatalMessage);
}
