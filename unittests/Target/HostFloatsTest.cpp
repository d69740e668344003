//===- HostFloatsTest.cpp - 16-bit floats in the emulator's host code -----===//
//
// Compiles small functions through the emulator's host path (the same
// lowering, LLVM code generation, link and symbol check as a kernel's host
// object), loads the object and checks the f16 and bf16 conversions against
// a reference written from the formats' definition: decode every 16-bit
// pattern to a double, and round to the nearest representable value, ties
// to the even pattern, overflow to infinity past the largest finite value
// plus half an ulp.
//===----------------------------------------------------------------------===//

#include "hk/Compiler/Compiler.h"
#include "hk/Compiler/Pipelines.h"
#include "hk/Target/Host/HostObject.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <limits>
#include <vector>

namespace {

constexpr const char *kFunctions = R"mlir(
func.func @trunc_f16(%x: f32) -> i16 {
  %h = arith.truncf %x : f32 to f16
  %b = arith.bitcast %h : f16 to i16
  return %b : i16
}
func.func @trunc_bf16(%x: f32) -> i16 {
  %h = arith.truncf %x : f32 to bf16
  %b = arith.bitcast %h : bf16 to i16
  return %b : i16
}
func.func @ext_f16(%b: i16) -> f64 {
  %h = arith.bitcast %b : i16 to f16
  %x = arith.extf %h : f16 to f64
  return %x : f64
}
func.func @ext_bf16(%b: i16) -> f32 {
  %h = arith.bitcast %b : i16 to bf16
  %x = arith.extf %h : bf16 to f32
  return %x : f32
}
// Vectors: 8 f32 at %p -> 8 f16 at %p + 32 bytes.
func.func @trunc_f16_vector(%p: !llvm.ptr) {
  %v = llvm.load %p : !llvm.ptr -> vector<8xf32>
  %h = arith.truncf %v : vector<8xf32> to vector<8xf16>
  %b = arith.bitcast %h : vector<8xf16> to vector<8xi16>
  %q = llvm.getelementptr %p[32] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %b, %q : vector<8xi16>, !llvm.ptr
  return
}
// A bf16 vector live across blocks, as the masked loads of the lowering
// leave it: LLVM would keep it in f32 registers and call __truncsfbf2.
func.func @select_bf16(%p: !llvm.ptr, %c: i1) {
  %v = llvm.load %p : !llvm.ptr -> vector<8xbf16>
  %r = scf.if %c -> vector<8xbf16> {
    scf.yield %v : vector<8xbf16>
  } else {
    %z = arith.constant dense<-2.5> : vector<8xbf16>
    scf.yield %z : vector<8xbf16>
  }
  %q = llvm.getelementptr %p[16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %r, %q : vector<8xbf16>, !llvm.ptr
  return
}
)mlir";

/// The value of a 16-bit pattern with `manBits` mantissa bits (f16: 10,
/// bf16: 7), from the definition.
double decode(uint16_t bits, int manBits) {
  int expBits = 15 - manBits, bias = (1 << (expBits - 1)) - 1;
  int exp = (bits >> manBits) & ((1 << expBits) - 1);
  int man = bits & ((1 << manBits) - 1);
  double sign = bits & 0x8000 ? -1.0 : 1.0;
  if (exp == (1 << expBits) - 1)
    return man ? NAN : sign * INFINITY;
  if (exp == 0)
    return sign * std::ldexp(man, 1 - bias - manBits);
  return sign * std::ldexp(man + (1 << manBits), exp - bias - manBits);
}

/// The nearest pattern to a finite `x`, ties to the even pattern.
uint16_t roundNearestEven(double x, int manBits) {
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  double a = std::fabs(x);
  uint16_t inf = uint16_t(((1 << (15 - manBits)) - 1) << manBits);
  uint16_t lo = 0, hi = inf; // decode(lo) <= a < decode(hi), by bisection
  while (hi - lo > 1) {
    uint16_t mid = uint16_t((lo + hi) / 2);
    (decode(mid, manBits) <= a ? lo : hi) = mid;
  }
  double below = a - decode(lo, manBits);
  // Past the largest finite value, "hi" is infinity; it is chosen from half
  // an ulp above that value on, as if the next binade continued.
  double above = hi == inf
                     ? decode(lo, manBits) +
                           (decode(lo, manBits) - decode(lo - 1, manBits)) - a
                     : decode(hi, manBits) - a;
  uint16_t r = below < above ? lo : above < below ? hi : (lo & 1 ? hi : lo);
  return sign | r;
}

class HostFloats : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    mlir::DialectRegistry registry;
    hk::compiler::registerDialects(registry);
    mlir::MLIRContext context(registry);
    context.loadAllAvailableDialects();
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(kFunctions, &context);
    ASSERT_TRUE(module);
    mlir::PassManager pm(&context);
    hk::compiler::buildEmulatorToLLVMPipeline(pm);
    ASSERT_TRUE(succeeded(pm.run(*module)));
    llvm::LLVMContext llvmContext;
    auto llvmModule = hk::target::translateForHost(*module, llvmContext, 2);
    ASSERT_TRUE(llvmModule);
    auto object =
        hk::target::emitHostSharedObject(*llvmModule, 2, module->getLoc());
    ASSERT_TRUE(succeeded(object)); // also: it calls no builtin
    llvm::SmallString<128> path;
    ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("host-floats", "so", path));
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      ASSERT_FALSE(ec);
      os.write(object->data(), object->size());
    }
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    llvm::sys::fs::remove(path);
    ASSERT_NE(handle, nullptr) << dlerror();
  }
  template <typename F> static F *fn(const char *name) {
    void *p = dlsym(handle, name);
    EXPECT_NE(p, nullptr) << name;
    return reinterpret_cast<F *>(p);
  }
  static void *handle;
};
void *HostFloats::handle = nullptr;

/// f32 inputs: a sweep over the bit patterns, the exact midpoints between
/// neighbouring 16-bit values (the ties), the edges and the specials.
std::vector<float> truncationInputs(int manBits) {
  std::vector<float> in;
  for (uint64_t bits = 0; bits <= 0xffffffffu; bits += 65521) {
    float f;
    uint32_t b = uint32_t(bits);
    std::memcpy(&f, &b, 4);
    in.push_back(f);
  }
  for (uint32_t p = 0; p < 0x7fff; ++p) {
    double lo = decode(uint16_t(p), manBits);
    double hi = decode(uint16_t(p + 1), manBits);
    if (!std::isfinite(hi))
      break;
    float mid = float((lo + hi) / 2); // exact: a tie
    for (float x :
         {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)}) {
      in.push_back(x);
      in.push_back(-x);
    }
  }
  for (float f : {0.0f, -0.0f, 65504.0f, 65519.99f, 65520.0f, 1e-8f, 3e-8f,
                  std::numeric_limits<float>::denorm_min(),
                  std::numeric_limits<float>::max(), INFINITY, -INFINITY})
    in.push_back(f);
  return in;
}

void checkTruncation(uint16_t (*trunc)(float), int manBits, const char *name) {
  int failures = 0;
  for (float x : truncationInputs(manBits)) {
    uint16_t got = trunc(x);
    if (std::isnan(x)) {
      EXPECT_TRUE(std::isnan(decode(got, manBits))) << name << " NaN";
      continue;
    }
    uint16_t want = roundNearestEven(x, manBits);
    if (got != want && ++failures <= 10)
      ADD_FAILURE() << name << "(" << x << " = 0x" << std::hex <<
          [&] {
            uint32_t b;
            std::memcpy(&b, &x, 4);
            return b;
          }() << "): got 0x"
                    << got << ", want 0x" << want;
  }
  EXPECT_EQ(failures, 0);
}

TEST_F(HostFloats, TruncateToF16) {
  checkTruncation(fn<uint16_t(float)>("trunc_f16"), 10, "trunc_f16");
}

TEST_F(HostFloats, TruncateToBF16) {
  checkTruncation(fn<uint16_t(float)>("trunc_bf16"), 7, "trunc_bf16");
}

TEST_F(HostFloats, ExtendEveryPattern) {
  auto extF16 = fn<double(uint16_t)>("ext_f16");
  auto extBF16 = fn<float(uint16_t)>("ext_bf16");
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    double want16 = decode(uint16_t(b), 10), wantB = decode(uint16_t(b), 7);
    double got16 = extF16(uint16_t(b)), gotB = extBF16(uint16_t(b));
    if (std::isnan(want16))
      EXPECT_TRUE(std::isnan(got16)) << std::hex << b;
    else
      ASSERT_EQ(got16, want16) << "f16 0x" << std::hex << b;
    if (std::isnan(wantB))
      EXPECT_TRUE(std::isnan(gotB)) << std::hex << b;
    else
      ASSERT_EQ(gotB, wantB) << "bf16 0x" << std::hex << b;
  }
}

TEST_F(HostFloats, VectorTruncation) {
  auto trunc = fn<void(void *)>("trunc_f16_vector");
  std::vector<float> in = truncationInputs(10);
  for (size_t i = 0; i + 8 <= in.size(); i += 8) {
    alignas(32) unsigned char buffer[48];
    std::memcpy(buffer, &in[i], 32);
    trunc(buffer);
    for (int k = 0; k < 8; ++k) {
      uint16_t got;
      std::memcpy(&got, buffer + 32 + 2 * k, 2);
      if (std::isnan(in[i + k]))
        continue;
      ASSERT_EQ(got, roundNearestEven(in[i + k], 10)) << in[i + k];
    }
  }
}

TEST_F(HostFloats, MovedBitsStayExact) {
  auto select = fn<void(void *, bool)>("select_bf16");
  // A signalling NaN, a negative zero, a subnormal: moved, not converted.
  const uint16_t values[8] = {0x7f81, 0x8000, 0x0001, 0x3f80,
                              0xff80, 0x7fc0, 0x1234, 0xc020};
  alignas(16) uint16_t buffer[16];
  std::memcpy(buffer, values, 16);
  select(buffer, true);
  for (int k = 0; k < 8; ++k)
    EXPECT_EQ(buffer[8 + k], values[k]) << k;
  select(buffer, false);
  for (int k = 0; k < 8; ++k)
    EXPECT_EQ(buffer[8 + k], 0xc020) << k; // -2.5 in bf16
}

} // namespace
