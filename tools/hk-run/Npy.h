//===- Npy.h - NumPy .npy files for hk-run --------------------------------===//
//
// Reads and writes NumPy's .npy format (versions 1.0, 2.0 and 3.0 read, 1.0
// written unless the header needs 2.0): the magic "\x93NUMPY", a version, a
// little-endian header length, a Python dict literal with 'descr',
// 'fortran_order' and 'shape', then the data in C order.
//
// Element types map to the runtime's by their bytes, little-endian only:
//   f2 f16, f4 f32, f8 f64, i1 i8, i2 i16, i4 i32, i8 i64 and index,
//   u2 bf16 (NumPy has no bfloat16: a bf16 array is stored as the uint16 bit
//   patterns, as the Python package's hk.bf16 makes them),
//   u1 the fp8 types (their bit patterns).
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HKRUN_NPY_H
#define HK_TOOLS_HKRUN_NPY_H

#include "hk/Runtime/hkrt.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hk::run {

struct NpyArray {
  std::string descr; ///< as in the file, e.g. "<f4"
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; ///< C order
};

/// Parses .npy bytes; throws std::invalid_argument saying what is wrong,
/// prefixed with `name`. Fortran order and big-endian data are refused.
NpyArray parseNpy(const std::string &bytes, const std::string &name);
NpyArray readNpyFile(const std::string &path);

/// The .npy bytes of `array` (a version 1.0 header padded to 64 bytes).
std::string formatNpy(const NpyArray &array);
void writeNpyFile(const std::string &path, const NpyArray &array);

/// The descr of the runtime's `dtype` as described above (i1 has none: "").
const char *npyDescr(hkrt_dtype dtype);

} // namespace hk::run

#endif // HK_TOOLS_HKRUN_NPY_H
