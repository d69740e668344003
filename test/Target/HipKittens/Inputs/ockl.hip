// Definitions of the few ROCm device-library (ockl) functions that HIP's
// headers and HipKittens call, for compiling HipKittens C++ without ROCm's
// device libraries: compiled to bitcode for the target chip and linked with
// -mlink-builtin-bitcode, the way clang links ockl.bc. Semantics as ockl's:
// ids and sizes from the workitem/workgroup id registers and the HSA kernel
// dispatch packet (hsa_kernel_dispatch_packet_t: workgroup_size_x/y/z are
// 16-bit fields at bytes 4, 6, 8, grid_size_x/y/z 32-bit fields at bytes 12,
// 16, 20), wave votes over the active lanes.
typedef __SIZE_TYPE__ size_t;
#define DEVICE extern "C" __attribute__((device, const))

static __attribute__((device)) unsigned workgroupSize(unsigned dim) {
  const unsigned short *packet =
      (const unsigned short *)__builtin_amdgcn_dispatch_ptr();
  return dim < 3 ? packet[2 + dim] : 1;
}

static __attribute__((device)) unsigned gridSize(unsigned dim) {
  const unsigned *packet = (const unsigned *)__builtin_amdgcn_dispatch_ptr();
  return dim < 3 ? packet[3 + dim] : 1;
}

DEVICE size_t __ockl_get_local_id(unsigned dim) {
  switch (dim) {
  case 0:
    return __builtin_amdgcn_workitem_id_x();
  case 1:
    return __builtin_amdgcn_workitem_id_y();
  case 2:
    return __builtin_amdgcn_workitem_id_z();
  }
  return 0;
}

DEVICE size_t __ockl_get_group_id(unsigned dim) {
  switch (dim) {
  case 0:
    return __builtin_amdgcn_workgroup_id_x();
  case 1:
    return __builtin_amdgcn_workgroup_id_y();
  case 2:
    return __builtin_amdgcn_workgroup_id_z();
  }
  return 0;
}

DEVICE size_t __ockl_get_num_groups(unsigned dim) {
  unsigned size = workgroupSize(dim), grid = gridSize(dim);
  return (grid + size - 1) / size;
}

// The last workgroup along a dimension may be partial.
DEVICE size_t __ockl_get_local_size(unsigned dim) {
  unsigned size = workgroupSize(dim), grid = gridSize(dim);
  unsigned rest = grid - (unsigned)__ockl_get_group_id(dim) * size;
  return rest < size ? rest : size;
}

DEVICE bool __ockl_wfany_i32(int pred) {
  return __builtin_amdgcn_ballot_w64(pred != 0) != 0;
}

DEVICE bool __ockl_wfall_i32(int pred) {
  return __builtin_amdgcn_ballot_w64(pred != 0) == __builtin_amdgcn_read_exec();
}
