//===- ArtifactTool.cpp - pack and inspect hkrt artifacts -----------------===//
//
//   hkrt-artifact pack -o OUT --metadata META.json [--code GFX=FILE]...
//   hkrt-artifact dump FILE
// Exit status 1 with the reader's message on a bad file.
//===----------------------------------------------------------------------===//

#include "hk/Base/Artifact.h"
#include "hk/Base/Error.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace hk::rt;

static std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(HKRT_ERROR_NOT_FOUND, "cannot open '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

static int pack(int argc, char **argv) {
  Artifact a;
  std::string out;
  for (int i = 2; i < argc; ++i) {
    std::string opt = argv[i];
    if (i + 1 >= argc)
      throw Error(HKRT_ERROR_INVALID_ARGUMENT, "missing value for " + opt);
    std::string value = argv[++i];
    if (opt == "-o") {
      out = value;
    } else if (opt == "--metadata") {
      a.kernels = kernelInfoFromJson(readFile(value));
    } else if (opt == "--code") {
      size_t eq = value.find('=');
      if (eq == std::string::npos)
        throw Error(HKRT_ERROR_INVALID_ARGUMENT, "--code wants GFX=FILE");
      a.codeObjects[value.substr(0, eq)] = readFile(value.substr(eq + 1));
    } else {
      throw Error(HKRT_ERROR_INVALID_ARGUMENT, "unknown option " + opt);
    }
  }
  if (out.empty())
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, "missing -o");
  writeArtifactFile(a, out);
  return 0;
}

static int dump(const std::string &path) {
  Artifact a = readArtifactFile(path);
  for (const auto &[chip, bytes] : a.codeObjects)
    printf("code object %s: %zu bytes\n", chip.c_str(), bytes.size());
  printf("%s", kernelInfoToJson(a.kernels).c_str());
  return 0;
}

int main(int argc, char **argv) {
  try {
    if (argc >= 2 && !strcmp(argv[1], "pack"))
      return pack(argc, argv);
    if (argc == 3 && !strcmp(argv[1], "dump"))
      return dump(argv[2]);
    fprintf(stderr, "usage: hkrt-artifact pack -o OUT --metadata META.json "
                    "[--code GFX=FILE]...\n"
                    "       hkrt-artifact dump FILE\n");
    return 2;
  } catch (const Error &e) {
    fprintf(stderr, "hkrt-artifact: error: %s\n", e.what());
    return 1;
  }
}
