//===- HostObjectLoader.cpp - lane code from a host object ----------------===//
//
// dlopen needs a file: the object is written to a private temporary file
// (mkstemp: mode 0600, a fresh name) that is unlinked as soon as it is
// mapped. Its undefined hkemu_* symbols bind to this library, which is made
// visible globally first in case the program opened it RTLD_LOCAL.
//===----------------------------------------------------------------------===//

#include "HostObjectLoader.h"

#include "hk/Runtime/Error.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>

using namespace hk::rt;

namespace {

class HostObjectModule : public EmulatorModule {
public:
  ~HostObjectModule() override {
    if (handle)
      dlclose(handle);
  }
  void *handle = nullptr;
};

[[noreturn]] void invalid(const std::string &message) {
  throw Error(HKRT_ERROR_INVALID_ARTIFACT, message);
}

std::string writePrivateFile(const std::string &bytes) {
  const char *dir = getenv("TMPDIR");
  std::string path =
      std::string(dir && *dir ? dir : "/tmp") + "/hkrt-emulator-XXXXXX";
  int fd = mkstemp(path.data());
  if (fd < 0)
    throw Error(HKRT_ERROR_BACKEND, "cannot create a temporary file for the "
                                    "emulator's host object: " +
                                        std::string(strerror(errno)));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      int err = errno;
      close(fd);
      unlink(path.c_str());
      throw Error(HKRT_ERROR_BACKEND,
                  "cannot write " + path + ": " + std::string(strerror(err)));
    }
    done += size_t(n);
  }
  close(fd);
  return path;
}

/// Makes this library's symbols available to objects loaded later.
void exportRuntimeSymbols() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&hkemu_launch), &info) && info.dli_fname)
    dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

} // namespace

std::string hk::rt::emulatorObjectKey(const std::string &chip) {
  return "emulator-" + chip;
}

std::unique_ptr<EmulatorModule>
hk::rt::loadEmulatorModule(const Artifact &artifact, const std::string &chip) {
  auto module = std::make_unique<HostObjectModule>();
  auto it = artifact.codeObjects.find(emulatorObjectKey(chip));
  if (it == artifact.codeObjects.end())
    return module;
  exportRuntimeSymbols();
  std::string path = writePrivateFile(it->second);
  module->handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  const char *error = module->handle ? nullptr : dlerror();
  unlink(path.c_str());
  if (!module->handle)
    invalid("cannot load the emulator's host object for " + chip + ": " +
            (error ? error : "unknown error"));
  for (const KernelInfo &kernel : artifact.kernels) {
    std::string symbol = kernel.name + "__lane";
    void *fn = dlsym(module->handle, symbol.c_str());
    if (!fn)
      invalid("the emulator's host object for " + chip + " has no '" + symbol +
              "' for kernel '" + kernel.name + "'");
    module->setLaneCode(kernel.name, reinterpret_cast<hkemu_lane_fn>(fn));
  }
  return module;
}
