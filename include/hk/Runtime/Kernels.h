//===- Kernels.h - the kernel library over hkrt ---------------------------===//
//
// Each kernel of the library is a directory kernels/<name>/ (docs/kernels.md):
// its tile program <name>.mlir is compiled at build time for gfx942 and gfx950
// into build/kernels/<name>.hkrt. This library launches the kernels with
// shapes given at run time on an hkrt device, and holds a float64 reference
// for each (kernels/<name>/Reference.cpp), written from the math in the tile
// program's header comment:
//
//   hkrt::Device dev = hkrt::Device::isa("gfx950");
//   hk::kernels::Library lib(dev);
//   hk::kernels::gemm(lib, A, B, C, M, N, K);      // C = A * B^T
//
// Every kernel also has an entry in a table (kernelTable(), generated from the
// directories) saying how to build a random problem, launch it, compute the
// reference and compare; hk-run and the tests use it. Adding a kernel is
// adding its directory; the typed entry points below are optional.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_KERNELS_H
#define HK_RUNTIME_KERNELS_H

#include "hk/Runtime/hkrt.hpp"

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace hk::kernels {

/// `value` rounded to float and then to bf16 (hk/Base/Formats.h, nearest
/// even), as a double: the values a bf16 input tensor holds.
double roundToBF16(double value);

/// $HK_KERNELS_DIR if set, else <prefix>/share/hk/kernels for a program
/// installed in <prefix>/bin, else the build tree's kernels directory.
std::string defaultKernelDir();

/// The compiled kernels, loaded on first use on one device.
class Library {
public:
  explicit Library(hkrt::Device &device, std::string dir = defaultKernelDir());
  hkrt::Device &device() { return device_; }
  /// Load `artifact` (a kernel's directory name, e.g. "gemm_bf16") from `path`
  /// instead of <dir>/<artifact>.hkrt.
  void overrideArtifact(const std::string &artifact, const std::string &path);
  std::string artifactPath(const std::string &artifact) const;
  /// Throws hkrt::Error when the file or the kernel is missing.
  hkrt::Kernel kernel(const std::string &artifact, const std::string &name);

private:
  hkrt::Device &device_;
  std::string dir_;
  std::map<std::string, std::string> overrides_;
  std::map<std::string, hkrt::Module> modules_;
};

//===----------------------------------------------------------------------===//
// Typed entry points. Buffers hold contiguous row-major bf16 tensors of the
// shapes given; hkrt checks that each buffer is large enough.
//===----------------------------------------------------------------------===//

/// C = A * B^T. A: MxK, B: NxK, C: MxN; f32 accumulation. Any M, N, K.
void gemm(Library &lib, const hkrt::Buffer &A, const hkrt::Buffer &B,
          const hkrt::Buffer &C, int64_t M, int64_t N, int64_t K);
/// Rotate-half rotary embedding, D = 128. x, out: BxHxNx128; cos, sin: Nx64.
void rotary(Library &lib, const hkrt::Buffer &x, const hkrt::Buffer &cos,
            const hkrt::Buffer &sin, const hkrt::Buffer &out, int64_t B,
            int64_t H, int64_t N);
/// r = x + residual; y = LayerNorm(r) * weight + bias. x, residual, resOut,
/// y: Mx128; weight, bias: 128.
void layernorm(Library &lib, const hkrt::Buffer &x,
               const hkrt::Buffer &residual, const hkrt::Buffer &weight,
               const hkrt::Buffer &bias, const hkrt::Buffer &resOut,
               const hkrt::Buffer &y, int64_t M, float eps);
/// y = x / sqrt(mean(x^2) + eps) * weight. x, y: Mx128; weight: 128.
void rmsnorm(Library &lib, const hkrt::Buffer &x, const hkrt::Buffer &weight,
             const hkrt::Buffer &y, int64_t M, float eps);
/// Row softmax of an MxN matrix.
void softmax(Library &lib, const hkrt::Buffer &x, const hkrt::Buffer &y,
             int64_t M, int64_t N);

//===----------------------------------------------------------------------===//
// float64 references (row-major, values as doubles).
//===----------------------------------------------------------------------===//

void gemmReference(const double *A, const double *B, double *C, int64_t M,
                   int64_t N, int64_t K);
void rotaryReference(const double *x, const double *cos, const double *sin,
                     double *out, int64_t B, int64_t H, int64_t N);
void layernormReference(const double *x, const double *residual,
                        const double *weight, const double *bias,
                        double *resOut, double *y, int64_t M, double eps);
void rmsnormReference(const double *x, const double *weight, double *y,
                      int64_t M, double eps);
void softmaxReference(const double *x, double *y, int64_t M, int64_t N);

//===----------------------------------------------------------------------===//
// Checking a kernel against its reference.
//===----------------------------------------------------------------------===//

/// Element i of an output passes when
///   |got - exact| <= scale * (rel * |exact| + abs * errorScale[i]).
/// Each kernel's constants and their reasons live in its Reference.cpp; the
/// shared ones (bf16 rounding) in runtime/kernels/Tolerances.h.
struct Tolerance {
  double rel = 0;
  double abs = 0;
  std::string formula; // e.g. "2^-8 |c| + 2^-23 K sum_k |a_k b_k|"
  std::string reason;
};

/// One tensor argument of a problem (bf16 or f32).
struct HostTensor {
  std::string name;
  hkrt_dtype dtype = HKRT_DTYPE_BF16;
  std::vector<int64_t> sizes;
  bool output = false;
  /// Inputs: the values written (exactly representable in dtype). Outputs:
  /// the values read back (NaN where the kernel wrote nothing).
  std::vector<double> values;
  /// Outputs: the reference and the per-element error scale.
  std::vector<double> exact, errorScale;
  int64_t numElements() const;
};

/// A problem instance: the shape (as given to --shape), eps where the kernel
/// has one, the tensors in argument order.
struct Problem {
  std::vector<int64_t> shape;
  double eps = 0;
  std::vector<HostTensor> tensors;
  HostTensor &tensor(const std::string &name);
  const HostTensor &tensor(const std::string &name) const;
};

/// A kernel of the library, as its directory's Reference.cpp describes it
/// (field by field: `KernelEntry e; e.name = "softmax"; ...`).
struct KernelEntry {
  /// The kernel's one name: its directory kernels/<name>/, its artifact
  /// build/kernels/<name>.hkrt and its name on hk-run's command line.
  const char *name = "";
  /// The hk.kernel it launches, when the directory holds several entry
  /// points (attention_fwd_d128 of attention_fwd); null when the kernel is
  /// called `name`. symbol() is the one in force.
  const char *entryPoint = nullptr;
  const char *summary = "";          ///< one line for --help
  const char *shapeNames = "";       ///< "M,N,K"
  std::vector<int64_t> defaultShape; ///< same length as shapeNames
  /// What hk-run --test-shape runs (scripts/examples.sh, test/Kernels): sizes
  /// that are not multiples of the kernel's tiles wherever it takes any size,
  /// so that the ragged edges are checked.
  std::vector<int64_t> testShape;
  bool hasEps = false;
  double defaultEps = 0;
  /// Sizes the tensors and fills the inputs from `gen`; throws
  /// std::invalid_argument on a bad shape.
  void (*setup)(Problem &problem, std::mt19937 &gen) = nullptr;
  /// Launches through the typed entry point; buffers in tensor order.
  void (*launch)(Library &lib, const Problem &problem,
                 const std::vector<hkrt::Buffer> &buffers) = nullptr;
  /// Fills exact and errorScale of every output.
  void (*reference)(Problem &problem) = nullptr;
  Tolerance (*tolerance)(const Problem &problem) = nullptr;

  /// The hk.kernel the entry launches.
  const char *symbol() const { return entryPoint ? entryPoint : name; }
};

/// Every library kernel, in the byte order of their directories' names.
const std::vector<const KernelEntry *> &kernelTable();
/// By name (the directory's) or by the hk.kernel it launches; null when
/// unknown.
const KernelEntry *findKernel(const std::string &name);
/// The chips `entry` supports, in the chip table's order: those its
/// directory's chips.txt names (a kernel built on instructions only some
/// chips have), else every chip of the table. Its artifact holds a code
/// object for each of them and no other.
const std::vector<std::string> &kernelChips(const KernelEntry &entry);
/// Throws std::invalid_argument naming the chips `entry` supports when
/// `chip` is not one of them.
void checkKernelChip(const KernelEntry &entry, const std::string &chip);

struct CheckResult {
  struct Output {
    std::string name;
    int64_t elements = 0, mismatches = 0, unwritten = 0, guardWrites = 0;
    double maxAbsError = 0, maxRelError = 0, worstRatio = 0;
    std::string firstMismatch;
  };
  std::vector<Output> outputs;
  double maxAbsError = 0, maxRelError = 0, worstRatio = 0; // over outputs
  double seconds = 0; // the launch and synchronize, wall clock
  bool pass = false;
};

/// Runs `entry` on `problem` (set up already): writes the inputs, fills the
/// outputs and a guard zone after each with a NaN pattern no result has,
/// launches, reads back and compares with the reference, the tolerance
/// multiplied by `toleranceScale`. Every output element must be written and
/// the guard zones untouched. Throws hkrt::Error on runtime errors.
CheckResult runAndCheck(Library &lib, const KernelEntry &entry,
                        Problem &problem, double toleranceScale = 1.0);

/// Writes the inputs, fills the outputs and their guard zones, launches and
/// waits: the launch of runAndCheck without the check (what a timed launch
/// needs). Returns the device buffers, one per tensor of `problem`.
std::vector<hkrt::Buffer> launchProblem(Library &lib, const KernelEntry &entry,
                                        Problem &problem);

} // namespace hk::kernels

#endif // HK_RUNTIME_KERNELS_H
