//===- ResourceUsage.cpp - per-kernel resources of a code object ----------===//

#include "hk/Target/AMDGPU/ResourceUsage.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace hk::target {

Occupancy computeOccupancy(const KernelResources &kernel,
                           const hk::ChipInfo &chip) {
  Occupancy occupancy;
  int64_t registers =
      alignTo(std::max<int64_t>(kernel.unifiedVgprs, 1), chip.registerGranule);
  occupancy.byRegisters =
      std::min(chip.wavesPerSimd, chip.unifiedRegisters / registers);
  occupancy.wavesPerSimd = occupancy.byRegisters;
  if (kernel.ldsBytes > 0) {
    int64_t wavesPerGroup = divideCeil(
        std::max<int64_t>(kernel.maxWorkgroupSize, 1), chip.waveSize);
    int64_t groupsPerCu = chip.ldsBytes / kernel.ldsBytes;
    occupancy.byLds = groupsPerCu * divideCeil(wavesPerGroup, chip.simdsPerCu);
    occupancy.wavesPerSimd = std::min(occupancy.wavesPerSimd, occupancy.byLds);
  }
  return occupancy;
}

/// The msgpack blob of the NT_AMDGPU_METADATA note, from the note segments
/// of a linked code object or the note sections of a relocatable one.
static Expected<StringRef> findMetadataNote(const object::ELF64LEFile &elf) {
  auto match = [](const object::ELF64LEFile::Elf_Note &note) {
    return note.getName() == "AMDGPU" &&
           note.getType() == ELF::NT_AMDGPU_METADATA;
  };
  Expected<object::ELF64LEFile::Elf_Phdr_Range> segments =
      elf.program_headers();
  if (!segments)
    return segments.takeError();
  for (const auto &segment : *segments) {
    if (segment.p_type != ELF::PT_NOTE)
      continue;
    Error error = Error::success();
    for (const auto &note : elf.notes(segment, error))
      if (match(note))
        return note.getDescAsStringRef(segment.p_align);
    if (error)
      return std::move(error);
  }
  Expected<object::ELF64LEFile::Elf_Shdr_Range> sections = elf.sections();
  if (!sections)
    return sections.takeError();
  for (const auto &section : *sections) {
    if (section.sh_type != ELF::SHT_NOTE)
      continue;
    Error error = Error::success();
    for (const auto &note : elf.notes(section, error))
      if (match(note))
        return note.getDescAsStringRef(section.sh_addralign);
    if (error)
      return std::move(error);
  }
  return createStringError("the code object has no AMDGPU metadata note");
}

static int64_t getInt(msgpack::MapDocNode &map, StringRef key) {
  auto it = map.find(key);
  if (it == map.end())
    return 0;
  msgpack::DocNode &node = it->second;
  if (node.getKind() == msgpack::Type::UInt)
    return static_cast<int64_t>(node.getUInt());
  if (node.getKind() == msgpack::Type::Int)
    return node.getInt();
  return 0;
}

/// The kernels of the `amdhsa.kernels` list of an AMDGPU metadata document.
static Expected<std::vector<KernelResources>>
kernelsOf(msgpack::Document &document) {
  msgpack::DocNode &root = document.getRoot();
  if (root.getKind() != msgpack::Type::Map)
    return createStringError("the AMDGPU metadata is not a map");
  auto kernelsIt = root.getMap().find("amdhsa.kernels");
  if (kernelsIt == root.getMap().end() ||
      kernelsIt->second.getKind() != msgpack::Type::Array)
    return createStringError("the AMDGPU metadata has no amdhsa.kernels list");

  std::vector<KernelResources> kernels;
  for (msgpack::DocNode &node : kernelsIt->second.getArray()) {
    if (node.getKind() != msgpack::Type::Map)
      return createStringError("an amdhsa.kernels entry is not a map");
    msgpack::MapDocNode &map = node.getMap();
    KernelResources kernel;
    auto nameIt = map.find(".name");
    if (nameIt != map.end() &&
        nameIt->second.getKind() == msgpack::Type::String)
      kernel.name = nameIt->second.getString().str();
    kernel.unifiedVgprs = getInt(map, ".vgpr_count");
    kernel.agprs = getInt(map, ".agpr_count");
    kernel.sgprs = getInt(map, ".sgpr_count");
    kernel.ldsBytes = getInt(map, ".group_segment_fixed_size");
    kernel.scratchBytes = getInt(map, ".private_segment_fixed_size");
    kernel.vgprSpills = getInt(map, ".vgpr_spill_count");
    kernel.sgprSpills = getInt(map, ".sgpr_spill_count");
    kernel.maxWorkgroupSize = getInt(map, ".max_flat_workgroup_size");
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

Expected<std::vector<KernelResources>> readKernelResources(ArrayRef<char> elf) {
  Expected<object::ELF64LEFile> file =
      object::ELF64LEFile::create(StringRef(elf.data(), elf.size()));
  if (!file)
    return file.takeError();
  Expected<StringRef> blob = findMetadataNote(*file);
  if (!blob)
    return blob.takeError();

  msgpack::Document document;
  if (!document.readFromBlob(*blob, /*Multi=*/false))
    return createStringError("the AMDGPU metadata note is not valid msgpack");
  return kernelsOf(document);
}

Expected<std::vector<KernelResources>>
readKernelResourcesFromAssembly(StringRef assembly) {
  size_t begin = assembly.find(".amdgpu_metadata");
  size_t end = assembly.find(".end_amdgpu_metadata");
  if (begin == StringRef::npos || end == StringRef::npos || end < begin)
    return createStringError("the assembly has no .amdgpu_metadata block");
  StringRef yaml = assembly.slice(begin, end)
                       .drop_front(StringRef(".amdgpu_metadata").size());
  msgpack::Document document;
  if (!document.fromYAML(yaml))
    return createStringError("the .amdgpu_metadata block is not valid YAML");
  return kernelsOf(document);
}

} // namespace hk::target
