//===- TestTolerances.h - how close the runtime tests' kernels must come --===//
//
// The one place for the numeric tolerances of the runtime tests, each with
// its reason.
//===----------------------------------------------------------------------===//

#ifndef HK_UNITTESTS_RUNTIME_TESTTOLERANCES_H
#define HK_UNITTESTS_RUNTIME_TESTTOLERANCES_H

namespace hk::test {

/// Vector add through global loads/stores: one f32 addition (v_add_f32),
/// exact to half an ulp; compared with the f32 sum computed on the host, it
/// must be exact.
constexpr double kVectorAddAbsTol = 0.0;

} // namespace hk::test

#endif // HK_UNITTESTS_RUNTIME_TESTTOLERANCES_H
