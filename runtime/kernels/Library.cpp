//===- Library.cpp - loading the compiled kernels, the kernel table -------===//

#include "hk/Runtime/Kernels.h"

#include "hk/Base/Formats.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace hk::kernels {

namespace entries {
#define HK_KERNEL(name) const KernelEntry &name();
#include "Kernels.def"
} // namespace entries

double roundToBF16(double value) {
  return fmt::decodeBF16(fmt::encodeBF16(float(value)));
}

/// <prefix>/share/hk/kernels when the running program is installed in
/// <prefix>/bin, else "".
static std::string installedKernelDir() {
  std::error_code ec;
  std::filesystem::path exe =
      std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    return "";
  std::filesystem::path dir =
      exe.parent_path().parent_path() / "share" / "hk" / "kernels";
  return std::filesystem::is_directory(dir, ec) ? dir.string() : "";
}

std::string defaultKernelDir() {
  if (const char *env = std::getenv("HK_KERNELS_DIR"); env && *env)
    return env;
  std::string installed = installedKernelDir();
  return installed.empty() ? HK_KERNELS_BUILD_DIR : installed;
}

Library::Library(hkrt::Device &device, std::string dir)
    : device_(device), dir_(std::move(dir)) {}

void Library::overrideArtifact(const std::string &artifact,
                               const std::string &path) {
  overrides_[artifact] = path;
  modules_.erase(artifact);
}

std::string Library::artifactPath(const std::string &artifact) const {
  auto it = overrides_.find(artifact);
  return it != overrides_.end() ? it->second : dir_ + "/" + artifact + ".hkrt";
}

hkrt::Kernel Library::kernel(const std::string &artifact,
                             const std::string &name) {
  auto it = modules_.find(artifact);
  if (it == modules_.end())
    it = modules_.emplace(artifact, device_.loadFile(artifactPath(artifact)))
             .first;
  return it->second.kernel(name);
}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

HostTensor &Problem::tensor(const std::string &name) {
  for (HostTensor &t : tensors)
    if (t.name == name)
      return t;
  throw std::logic_error("no tensor '" + name + "'");
}

const HostTensor &Problem::tensor(const std::string &name) const {
  return const_cast<Problem *>(this)->tensor(name);
}

const std::vector<const KernelEntry *> &kernelTable() {
  static const std::vector<const KernelEntry *> table = {
#define HK_KERNEL(name) &entries::name(),
#include "Kernels.def"
  };
  return table;
}

const KernelEntry *findKernel(const std::string &name) {
  for (const KernelEntry *e : kernelTable())
    if (name == e->name || name == e->symbol())
      return e;
  return nullptr;
}

const std::vector<std::string> &kernelChips(const KernelEntry &entry) {
  // Kernels.def's HK_KERNEL_CHIPS lines, split once.
  static const std::map<std::string, std::vector<std::string>> chips = [] {
    std::map<std::string, std::vector<std::string>> m;
    auto add = [&](const char *name, std::string list) {
      std::vector<std::string> &v = m[name];
      for (size_t pos = 0; pos <= list.size();) {
        size_t comma = std::min(list.find(',', pos), list.size());
        v.push_back(list.substr(pos, comma - pos));
        pos = comma + 1;
      }
    };
#define HK_KERNEL_CHIPS(name, list) add(#name, list);
#include "Kernels.def"
    return m;
  }();
  auto it = chips.find(entry.name);
  if (it == chips.end())
    throw std::logic_error(std::string("no chip list for kernel ") +
                           entry.name);
  return it->second;
}

void checkKernelChip(const KernelEntry &entry, const std::string &chip) {
  const std::vector<std::string> &supported = kernelChips(entry);
  if (std::find(supported.begin(), supported.end(), chip) != supported.end())
    return;
  std::string list;
  for (size_t i = 0; i < supported.size(); ++i)
    list += (i == 0                      ? ""
             : i + 1 == supported.size() ? " and "
                                         : ", ") +
            supported[i];
  throw std::invalid_argument(std::string(entry.name) + " runs on " + list +
                              (supported.size() == 1 ? " only" : "") +
                              " (kernels/" + entry.name +
                              "/chips.txt), not on " + chip);
}

} // namespace hk::kernels
