//===- CApiTest.cpp - libhkc's C API at its enum arguments
//-----------------===//
//
// hkc.h's enums come from C callers (and from ctypes) as any integer: an
// output kind outside the enumerators is refused before anything reads it
// as the C++ enum, which the sanitizer build (scripts/test-sanitizers.sh)
// reported as undefined behaviour.
//===----------------------------------------------------------------------===//

#include "hk/Compiler/hkc.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

/// `kind` as a C caller would pass it. A conversion, not a load: reading a
/// stored enum object holding 99 (as a memcpy into one, then a return,
/// would) is itself the undefined load this test keeps out of libhkc, and
/// UBSan stopped the test there.
hkc_output outputOf(int kind) { return static_cast<hkc_output>(kind); }

const char *const kEmpty = "module {}";

TEST(CApi, OutputKindsOutsideTheEnumeratorsAreRefused) {
  hkc_options options;
  hkc_options_init(&options);
  for (int kind : {2, 6, 99, -1}) {
    hkc_result result = nullptr;
    EXPECT_EQ(hkc_compile(kEmpty, std::strlen(kEmpty), "empty.mlir",
                          outputOf(kind), &options, &result),
              HKC_ERROR_INVALID_ARGUMENT)
        << kind;
    EXPECT_EQ(result, nullptr);
    EXPECT_EQ(std::string(hkc_last_error()), "unknown output kind") << kind;
  }
  hkc_result result = nullptr;
  EXPECT_EQ(hkc_compile(kEmpty, std::strlen(kEmpty), "empty.mlir",
                        outputOf(HKC_OUTPUT_LANE_IR), &options, &result),
            HKC_SUCCESS)
      << hkc_last_error();
  hkc_result_free(result);
}

} // namespace
