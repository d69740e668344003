//===- ArtifactTest.cpp - metadata, grid expressions, artifact container --===//

#include "hk/Base/Artifact.h"
#include "hk/Base/Error.h"

#include <gtest/gtest.h>

using namespace hk::rt;

namespace {

KernelInfo gemmInfo() {
  KernelInfo k;
  k.name = "gemm";
  k.waves = 8;
  k.workgroupSize = 512;
  k.ldsBytes = 65536;
  k.args = {{"A", HKRT_ARG_MEMREF, HKRT_DTYPE_BF16, 2},
            {"B", HKRT_ARG_MEMREF, HKRT_DTYPE_BF16, 2},
            {"C", HKRT_ARG_MEMREF, HKRT_DTYPE_BF16, 2},
            {"n", HKRT_ARG_SCALAR, HKRT_DTYPE_I32, 0}};
  k.gridSymbols = {{2, 0}, {2, 1}, {3, -1}};
  k.grid = {GridExpr::parse("s0 ceildiv 256"),
            GridExpr::parse("(s1 + s2) floordiv 256 - 1")};
  return k;
}

Artifact sample() {
  Artifact a;
  a.kernels = {gemmInfo()};
  a.codeObjects["gfx942"] = std::string("\x7f"
                                        "ELF942",
                                        7);
  a.codeObjects["gfx950"] = std::string("\x7f"
                                        "ELF950\0x",
                                        9);
  return a;
}

std::string errorOf(const std::string &bytes) {
  try {
    readArtifact(bytes.data(), bytes.size());
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), HKRT_ERROR_INVALID_ARTIFACT);
    return e.what();
  }
  return "";
}

TEST(GridExpr, ParsePrintEvaluate) {
  GridExpr e = GridExpr::parse("s0 ceildiv 256 + s1 * 2 mod 3 - -4");
  EXPECT_EQ(e.print(), "s0 ceildiv 256 + s1 * 2 mod 3 - (-4)");
  // 1000 ceildiv 256 = 4; (7 * 2) mod 3 = 2; 4 + 2 + 4 = 10.
  EXPECT_EQ(e.evaluate({1000, 7}), 10);
  EXPECT_EQ(GridExpr::parse("s0 - (s1 - s2)").evaluate({10, 4, 1}), 7);
  EXPECT_EQ(GridExpr::parse("s0 - (s1 - s2)").print(), "s0 - (s1 - s2)");
  // Affine rounding: floordiv down, ceildiv up, mod non-negative.
  EXPECT_EQ(GridExpr::parse("-7 floordiv 2").evaluate({}), -4);
  EXPECT_EQ(GridExpr::parse("-7 ceildiv 2").evaluate({}), -3);
  EXPECT_EQ(GridExpr::parse("-7 mod 3").evaluate({}), 2);
  EXPECT_EQ(GridExpr::parse("s0 * (s1 + 1)").evaluate({3, 4}), 15);
}

TEST(GridExpr, Errors) {
  auto message = [](const std::string &text, std::vector<int64_t> syms) {
    try {
      GridExpr::parse(text).evaluate(syms);
    } catch (const Error &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message("s0 ceildiv", {1}),
            "grid expression 's0 ceildiv' at column 11: unexpected end");
  EXPECT_EQ(message("s0 + (1", {1}),
            "grid expression 's0 + (1' at column 8: expected ')'");
  EXPECT_EQ(message("s0 floordiv s1", {1, 0}), "division by zero");
  EXPECT_EQ(message("s3", {1}), "symbol s3 is not bound");
  EXPECT_EQ(message("s0 * s0", {int64_t(1) << 40}), "integer overflow");
  EXPECT_EQ(message("s0 modx 2", {1}),
            "grid expression 's0 modx 2' at column 4: unexpected 'm'");
}

TEST(KernelInfo, JsonRoundTrip) {
  std::string text = kernelInfoToJson({gemmInfo()});
  std::vector<KernelInfo> back = kernelInfoFromJson(text);
  ASSERT_EQ(back.size(), 1u);
  const KernelInfo &k = back[0];
  EXPECT_EQ(k.name, "gemm");
  EXPECT_EQ(k.waves, 8);
  EXPECT_EQ(k.workgroupSize, 512);
  EXPECT_EQ(k.ldsBytes, 65536);
  ASSERT_EQ(k.args.size(), 4u);
  EXPECT_EQ(k.args[2].name, "C");
  EXPECT_EQ(k.args[2].dtype, HKRT_DTYPE_BF16);
  EXPECT_EQ(k.args[3].kind, HKRT_ARG_SCALAR);
  ASSERT_EQ(k.gridSymbols.size(), 3u);
  EXPECT_TRUE(k.gridSymbols[2].isScalar());
  EXPECT_EQ(k.gridSymbols[1].dim, 1);
  ASSERT_EQ(k.grid.size(), 2u);
  EXPECT_EQ(k.grid[1].print(), "(s1 + s2) floordiv 256 - 1");
  EXPECT_EQ(kernelInfoToJson(back), text);
  // The documented spelling (docs/runtime.md) is what is written.
  EXPECT_NE(text.find("\"symbols\": [\n"), std::string::npos);
  EXPECT_NE(text.find("\"results\": [\"s0 ceildiv 256\", "
                      "\"(s1 + s2) floordiv 256 - 1\"]"),
            std::string::npos)
      << text;
}

/// The reader's error for metadata `text`, "" if it reads.
std::string message(const std::string &text) {
  try {
    kernelInfoFromJson(text);
  } catch (const Error &e) {
    return std::string(e.what());
  }
  return std::string();
}

/// The reader's error for `text` with its first `from` replaced by `to`.
std::string messageWith(std::string text, const std::string &from,
                        const std::string &to) {
  text.replace(text.find(from), from.size(), to);
  return message(text);
}

TEST(KernelInfo, JsonErrorsNameTheField) {
  std::string good = kernelInfoToJson({gemmInfo()});
  auto replace = [&](const std::string &from, const std::string &to) {
    return messageWith(good, from, to);
  };
  EXPECT_EQ(replace("\"bf16\"", "\"bf17\""),
            "kernel metadata: kernel 'gemm' argument 0 has unknown dtype "
            "'bf17'");
  EXPECT_EQ(replace("\"dim\": 1", "\"dim\": 2"),
            "metadata of kernel 'gemm': grid symbol s1 = dim(2, 2) names a "
            "missing dimension");
  EXPECT_EQ(replace("\"workgroup_size\": 512", "\"workgroup_size\": 500"),
            "metadata of kernel 'gemm': workgroup size 500 is not waves * 64 "
            "= 512");
  EXPECT_EQ(replace("\"waves\": 8", "\"waves\": \"8\""),
            "kernel metadata: kernel 'gemm' 'waves' has the wrong type");
  EXPECT_EQ(message("{\"version\": 1, \"kernels\": [1.5]}"),
            "kernel metadata: kernel 0 is not an object");
  EXPECT_EQ(replace("\"lds_bytes\": 65536", "\"lds_bytes\": 0.5"),
            "kernel metadata: kernel 'gemm' 'lds_bytes' has the wrong type");
  EXPECT_EQ(message("{\"version\": 1,"),
            "invalid JSON: [1:14, byte=14]: Expected object key");
  EXPECT_EQ(message(std::string(100, '[')),
            "invalid JSON: nesting deeper than 64");
  EXPECT_EQ(message("{\"version\": 2, \"kernels\": []}"),
            "kernel metadata: document has version 2, this runtime reads "
            "version 1");
}

// Per-chip LDS (docs/runtime.md): written only when present, read back,
// looked up by chip with lds_bytes for the others, and each value must lie
// in [0, lds_bytes].
TEST(KernelInfo, JsonLdsByChip) {
  KernelInfo k = gemmInfo();
  k.ldsBytes = 81920;
  k.ldsBytesByChip = {{"gfx942", 65536}, {"gfx950", 81920}};
  std::string text = kernelInfoToJson({k});
  EXPECT_NE(text.find("\"lds_bytes_by_chip\": {\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\"gfx942\": 65536,\n"), std::string::npos) << text;
  std::vector<KernelInfo> back = kernelInfoFromJson(text);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].ldsBytesFor("gfx942"), 65536);
  EXPECT_EQ(back[0].ldsBytesFor("gfx950"), 81920);
  EXPECT_EQ(back[0].ldsBytesFor("gfx1250"), 81920);
  EXPECT_EQ(kernelInfoToJson(back), text);
  EXPECT_EQ(kernelInfoToJson({gemmInfo()}).find("lds_bytes_by_chip"),
            std::string::npos);

  auto replaced = [&](const std::string &from, const std::string &to) {
    return messageWith(text, from, to);
  };
  EXPECT_EQ(replaced("\"gfx942\": 65536", "\"gfx942\": 99999"),
            "metadata of kernel 'gemm': LDS bytes for gfx942 (99999) out of "
            "range [0, lds_bytes = 81920]");
  EXPECT_EQ(replaced("\"gfx942\": 65536", "\"gfx942\": \"x\""),
            "kernel metadata: kernel 'gemm' lds_bytes_by_chip.gfx942 is not "
            "an integer");
}

/// A memref argument with its sizes and layout, as the documentation
/// (docs/runtime.md) spells them.
std::string typedArgs(const std::string &args) {
  return "{\"version\": 1, \"kernels\": [{\"name\": \"k\", \"waves\": 1, "
         "\"workgroup_size\": 64, \"lds_bytes\": 0, \"args\": [" +
         args + "], \"grid\": {\"symbols\": [], \"results\": [\"1\"]}}]}";
}

TEST(KernelInfo, JsonSizesAndLayouts) {
  std::string text = typedArgs(
      R"({"name": "x", "kind": "memref", "dtype": "bf16", "rank": 2,
          "shape": [null, 128], "layout": "row-major"},
         {"name": "q", "kind": "memref", "dtype": "bf16", "rank": 3,
          "shape": [4, null, 64], "layout": "strided",
          "strides": [null, null, 1]},
         {"name": "old", "kind": "memref", "dtype": "f32", "rank": 1})");
  std::string written = kernelInfoToJson(kernelInfoFromJson(text));
  EXPECT_NE(written.find(R"("rank": 2,
          "shape": [null, 128],
          "layout": "row-major")"),
            std::string::npos)
      << written;
  EXPECT_NE(written.find(R"("shape": [4, null, 64],
          "layout": "strided",
          "strides": [null, null, 1])"),
            std::string::npos)
      << written;
  // Metadata without them reads as before and is written back without them.
  EXPECT_NE(written.find(R"("dtype": "f32",
          "rank": 1
        })"),
            std::string::npos)
      << written;
  EXPECT_EQ(kernelInfoToJson(kernelInfoFromJson(written)), written);
}

TEST(KernelInfo, JsonLayoutErrors) {
  auto message = [](const std::string &arg) {
    try {
      kernelInfoFromJson(typedArgs(arg));
    } catch (const Error &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::string memref =
      R"("name": "x", "kind": "memref", "dtype": "f32", "rank": 2, )";
  EXPECT_EQ(message("{" + memref + R"("shape": [-3, 1]})"),
            "kernel metadata: kernel 'k' argument 0 'shape' holds something "
            "other than a non-negative integer or null");
  EXPECT_EQ(message("{" + memref + R"("shape": [8]})"),
            "metadata of kernel 'k': argument 0 'x' has rank 2 but 1 sizes");
  EXPECT_EQ(message("{" + memref + R"("layout": "col-major"})"),
            "kernel metadata: kernel 'k' argument 0 has unknown layout "
            "'col-major'");
  EXPECT_EQ(message("{" + memref + R"("layout": "strided"})"),
            "kernel metadata: kernel 'k' argument 0 has no 'strides'");
  EXPECT_EQ(
      message("{" + memref + R"("layout": "strided", "strides": [1, 2, 3]})"),
      "metadata of kernel 'k': argument 0 'x' has rank 2 but 3 strides");
}

TEST(Artifact, RoundTrip) {
  Artifact a = sample();
  std::string bytes = writeArtifact(a);
  EXPECT_EQ(bytes.substr(0, 8), std::string("HKRTART\0", 8));
  Artifact b = readArtifact(bytes.data(), bytes.size());
  EXPECT_EQ(b.codeObjects, a.codeObjects);
  ASSERT_EQ(b.kernels.size(), 1u);
  EXPECT_EQ(kernelInfoToJson(b.kernels), kernelInfoToJson(a.kernels));
  ASSERT_TRUE(b.findKernel("gemm"));
  EXPECT_FALSE(b.findKernel("gemv"));
  EXPECT_EQ(writeArtifact(b), bytes);
}

TEST(Artifact, EveryTruncationIsAnError) {
  std::string bytes = writeArtifact(sample());
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_NE(errorOf(bytes.substr(0, n)), "") << "prefix of " << n;
  EXPECT_EQ(errorOf(bytes.substr(0, 10)),
            "invalid artifact: truncated: 10 bytes, shorter than the 24-byte "
            "header");
  EXPECT_EQ(errorOf(bytes.substr(0, 100)),
            "invalid artifact: header says " + std::to_string(bytes.size()) +
                " bytes, the data has 100 (truncated)");
}

TEST(Artifact, EveryByteFlipIsCaught) {
  // Every byte is checked: header fields, entry fields (reserved words and
  // key padding must be zero), and payloads through their hashes.
  std::string bytes = writeArtifact(sample());
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string bad = bytes;
    bad[i] ^= 0x5A;
    EXPECT_NE(errorOf(bad), "") << "byte " << i;
  }
}

TEST(Artifact, SpecificCorruptions) {
  std::string bytes = writeArtifact(sample());
  std::string bad = bytes;
  bad[0] = 'X';
  EXPECT_EQ(errorOf(bad), "invalid artifact: bad magic (not an hkrt "
                          "artifact)");
  bad = bytes;
  bad[8] = 9;
  EXPECT_EQ(errorOf(bad), "invalid artifact: version 9, this runtime reads 1");
  bad = bytes;
  bad[bad.size() - 1] ^= 1; // last byte of the gfx950 code object
  EXPECT_EQ(errorOf(bad), "invalid artifact: entry 2: hash mismatch (corrupt "
                          "data)");
  bad = bytes;
  bad[24 + 64 + 8 + 7] = 0x10; // code object offset far outside the file
  EXPECT_NE(errorOf(bad).find("outside the file's payload area"),
            std::string::npos)
      << errorOf(bad);
  bad = bytes;
  bad[12] = 0; // zero entries
  EXPECT_EQ(errorOf(bad), "invalid artifact: entry count 0 outside [1, 256]");
}

/// An artifact built byte by byte from the container's definition
/// (Artifact.h): header, 64-byte entries with their FNV-1a 64 hashes, then
/// the payloads.
struct HandEntry {
  uint32_t kind;
  std::string key, payload;
};

uint64_t fnv1a(const std::string &bytes, uint64_t h) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

void putLE(std::string &out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out += char((v >> (8 * i)) & 0xFF);
}

std::string handMade(const std::vector<HandEntry> &entries) {
  uint64_t offset = 24 + 64 * entries.size(), total = offset;
  for (const HandEntry &e : entries)
    total += e.payload.size();
  std::string out("HKRTART\0", 8);
  putLE(out, 1, 4);
  putLE(out, entries.size(), 4);
  putLE(out, total, 8);
  for (const HandEntry &e : entries) {
    std::string kind, key = e.key;
    putLE(kind, e.kind, 4);
    key.resize(32, '\0');
    putLE(out, e.kind, 4);
    putLE(out, 0, 4);
    putLE(out, offset, 8);
    putLE(out, e.payload.size(), 8);
    putLE(out, fnv1a(e.payload, fnv1a(key, fnv1a(kind, 0xcbf29ce484222325ULL))),
          8);
    out += key;
    offset += e.payload.size();
  }
  for (const HandEntry &e : entries)
    out += e.payload;
  return out;
}

// An artifact holds metadata and GPU code objects only: the entries of the
// removed lane emulator (kind 3, its lane-level MLIR; code objects keyed
// "emulator-<chip>", its host shared objects) and any other kind are
// refused by name, never loaded.
TEST(Artifact, OnlyMetadataAndCodeObjectsAreLoaded) {
  std::string metadata = kernelInfoToJson({gemmInfo()});
  HandEntry meta{1, "", metadata}, code{2, "gfx942",
                                        "\x7f"
                                        "ELF"};
  Artifact ok = readArtifact(handMade({meta, code}).data(),
                             handMade({meta, code}).size());
  EXPECT_EQ(ok.codeObjects.at("gfx942"), "\x7f"
                                         "ELF");
  EXPECT_EQ(errorOf(handMade({meta, code, {3, "", "gpu.module @m {}"}})),
            "invalid artifact: entry 2: kind 3 is the lane-level MLIR of the "
            "removed emulator (an artifact holds metadata and GPU code "
            "objects only)");
  EXPECT_EQ(errorOf(handMade({meta,
                              {2, "emulator-gfx942",
                               "\x7f"
                               "ELF"},
                              code})),
            "invalid artifact: entry 1: 'emulator-gfx942' is a host object of "
            "the removed emulator (an artifact holds metadata and GPU code "
            "objects only)");
  EXPECT_EQ(errorOf(handMade({meta, {7, "", "x"}})),
            "invalid artifact: entry 1: unknown kind 7");
}

TEST(Artifact, WriterRejectsBadKeys) {
  Artifact a = sample();
  a.codeObjects[std::string(40, 'x')] = "y";
  EXPECT_THROW(writeArtifact(a), Error);
  EXPECT_EQ(stripTargetFeatures("gfx942:sramecc+:xnack-"), "gfx942");
  EXPECT_EQ(stripTargetFeatures("gfx950"), "gfx950");
}

} // namespace
