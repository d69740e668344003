//===- Guard.h - the C API's error handling (internal) --------------------===//
//
// Every entry point of hkrt.h runs its body inside `guard`, which turns an
// hk::rt::Error (or an allocation failure) into a status code and the
// thread's last-error string (hkrt_last_error).
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_CORE_GUARD_H
#define HK_RUNTIME_CORE_GUARD_H

#include "hk/Base/Error.h"

#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <type_traits>

namespace hk::rt {

/// The message of the last failed call on this thread.
inline thread_local std::string lastError;

template <typename F> hkrt_status guard(F &&body) {
  try {
    body();
    lastError.clear();
    return HKRT_SUCCESS;
  } catch (const Error &e) {
    lastError = e.what();
    return e.status();
  } catch (const std::bad_alloc &) {
    lastError = "out of host memory";
    return HKRT_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception &e) {
    // Not the runtime's own errors: still a status, never an escape
    // through the C boundary (which would terminate the program).
    lastError = std::string("internal error: ") + e.what();
    return HKRT_ERROR_DEVICE;
  }
}

/// `body`'s result, or `fallback` with the message when it throws: for the
/// entry points that return a value rather than a status.
template <typename T, typename F> T guardValue(T fallback, F &&body) {
  T result = fallback;
  guard([&] { result = body(); });
  return result;
}

/// The value a caller put in a C enum, as its underlying integer. A C caller
/// may pass any integer where hkrt.h says enum, and loading a value outside
/// the enumerators as the C++ enum type is undefined, so the entry points
/// read it this way (the bytes, not a load of the enum) and check it first.
template <typename E> std::underlying_type_t<E> rawValue(const E &e) {
  std::underlying_type_t<E> v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

inline void require(const void *p, const char *what) {
  if (!p)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, std::string("null ") + what);
}

} // namespace hk::rt

#endif // HK_RUNTIME_CORE_GUARD_H
