//===- Error.h - the error type of the base and the runtime ---------------===//
//
// The artifact and metadata readers of the base and the C++ side of hkrt
// report every failure as an hk::rt::Error carrying a status code and a
// message meant for the user; the C API turns it into a status code plus
// the last-error string. Nothing in the base or the runtime aborts.
//===----------------------------------------------------------------------===//

#ifndef HK_BASE_ERROR_H
#define HK_BASE_ERROR_H

#include "hk/Base/CTypes.h"

#include <stdexcept>
#include <string>

namespace hk::rt {

class Error : public std::runtime_error {
public:
  Error(hkrt_status status, const std::string &message)
      : std::runtime_error(message), status_(status) {}
  hkrt_status status() const { return status_; }

private:
  hkrt_status status_;
};

} // namespace hk::rt

#endif // HK_BASE_ERROR_H
