/*===- Emulator.h - the emulator engine's C ABI ---------------------------===*
 *
 * The engine runs a kernel's lanes as fibers: a workgroup is W waves of 64
 * lanes, workgroups run one after another. Lane code (today C++ lane
 * functions, later the host-compiled lane-level IR of a kernel) calls these
 * functions; every one takes the calling lane's context first.
 *
 * Wave-collective calls (MFMA, cross-lane ops, readfirstlane, LDS accesses,
 * LDS DMA) complete when all 64 lanes of the wave have made the same call;
 * all 64 lanes must make them (a lane that would be masked off passes
 * active = 0 where there is such a parameter). LDS accesses are collective
 * so that, as on the hardware, all lanes of a wave finish one LDS
 * instruction before any starts the next. hkemu_barrier completes when all
 * lanes of all waves of the workgroup arrive. Global (buffer) accesses are
 * per lane and immediate; LDS DMA lands at the wait that requires it.
 *
 * A fault (see docs/runtime.md) stops the launch: the faulting call does not
 * return, and hkemu_launch returns a message naming the kernel, workgroup and
 * wave.
 *===----------------------------------------------------------------------===*/

#ifndef HK_RUNTIME_EMULATOR_H
#define HK_RUNTIME_EMULATOR_H

#include "hk/Runtime/hkrt.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hkemu_lane hkemu_lane;

/* A memref argument as lane code sees it. num_records: bytes reachable from
 * base through sizes and strides (what a buffer descriptor of it holds). */
typedef struct hkemu_memref {
  void *base;
  uint64_t num_records;
  int64_t rank;
  int64_t sizes[HKRT_MAX_RANK];
  int64_t strides[HKRT_MAX_RANK];
} hkemu_memref;

/* A raw buffer resource: base and size in bytes. */
typedef struct hkemu_buffer {
  const void *base;
  uint32_t num_records;
} hkemu_buffer;

/* args[i] points to an hkemu_memref for a memref argument and to the value
 * (int32_t, int64_t, float, double, uint16_t for bf16/f16) for a scalar. */
typedef void (*hkemu_lane_fn)(hkemu_lane *lane, void *const *args);

typedef struct hkemu_launch_desc {
  const char *kernel; /* for messages */
  const char *chip;   /* "gfx942" or "gfx950": MFMA set, fp8 formats */
  uint32_t grid[3];
  uint32_t waves;     /* per workgroup */
  uint32_t lds_bytes; /* LDS of one workgroup */
  hkemu_lane_fn fn;
  void *const *args;
  size_t stack_bytes; /* per lane; 0: 64 KiB */
} hkemu_launch_desc;

/* Runs the whole grid. Returns 0, or nonzero with a message in `error`. */
int hkemu_launch(const hkemu_launch_desc *desc, char *error, size_t error_size);

/* Ids. dim: 0 = x, 1 = y, 2 = z. */
uint32_t hkemu_lane_id(hkemu_lane *lane);
uint32_t hkemu_wave_id(hkemu_lane *lane);
uint32_t hkemu_num_waves(hkemu_lane *lane);
uint32_t hkemu_workgroup_id(hkemu_lane *lane, uint32_t dim);
uint32_t hkemu_num_workgroups(hkemu_lane *lane, uint32_t dim);

/* s_barrier over the workgroup (with the LDS fences of gpu.barrier). */
void hkemu_barrier(hkemu_lane *lane);

/* A barrier on a path the wave runs only if some lane takes it (`active` in
 * that lane), as a branch whose exec mask is empty is skipped: every lane of
 * the wave calls it; the wave arrives at the barrier iff any lane is active. */
void hkemu_barrier_if(hkemu_lane *lane, int32_t active);

/* Operand element types of hkemu_mfma. FP8/BF8 are E4M3/E5M2 in the chip's
 * format (FNUZ on gfx942, OCP on gfx950). F32 and XF32 operands are f32
 * registers; XF32 (gfx942 only) multiplies them with their mantissa truncated
 * to 10 bits. I8 is signed, one byte per element, with i32 accumulation
 * through hkemu_mfma_i32. */
typedef enum hkemu_type {
  HKEMU_BF16 = 0,
  HKEMU_F16 = 1,
  HKEMU_FP8 = 2,
  HKEMU_BF8 = 3,
  HKEMU_F32 = 4,
  HKEMU_XF32 = 5,
  HKEMU_I8 = 6
} hkemu_type;

/* D = A * B + C for the wave. Shapes: bf16/f16 16x16x16, 32x32x8 and, on
 * gfx950, 16x16x32, 32x32x16; fp8/bf8 16x16x32, 32x32x16. a, b: this lane's
 * M*K/64 packed elements; c, d: its M*N/64 floats, all in the hardware
 * register layout. d may alias c. */
void hkemu_mfma(hkemu_lane *lane, uint32_t m, uint32_t n, uint32_t k,
                hkemu_type a_type, hkemu_type b_type, const void *a,
                const void *b, const float *c, float *d);

/* D = A * B + C for the wave with i32 C and D: i8 16x16x32, 32x32x16
 * (a_type = b_type = HKEMU_I8). a, b: this lane's M*K/64 bytes; c, d: its
 * M*N/64 int32s, in the hardware register layout; d may alias c. The sum is
 * exact and wraps modulo 2^32. */
void hkemu_mfma_i32(hkemu_lane *lane, uint32_t m, uint32_t n, uint32_t k,
                    hkemu_type a_type, hkemu_type b_type, const void *a,
                    const void *b, const int32_t *c, int32_t *d);

/* ds_bpermute_b32: returns `value` of lane (byte_addr / 4) % 64. */
uint32_t hkemu_bpermute(hkemu_lane *lane, uint32_t byte_addr, uint32_t value);

/* gpu.shuffle: mode 0 xor, 1 up, 2 down, 3 idx; *valid = 0 (and the own
 * value returned) when the source lane is outside the width segment. */
uint32_t hkemu_shuffle(hkemu_lane *lane, uint32_t value, uint32_t offset,
                       uint32_t width, uint32_t mode, int32_t *valid);

/* DPP move with the hardware DPP_CTRL encoding: quad_perm 0x00-0xFF,
 * row_shl 0x101-0x10F, row_shr 0x111-0x11F, row_ror 0x121-0x12F,
 * row_mirror 0x140, row_half_mirror 0x141, row_bcast15 0x142,
 * row_bcast31 0x143. A lane whose row is off in row_mask or bank off in
 * bank_mask keeps `old`; a lane whose source is invalid gets 0 if
 * bound_ctrl else keeps `old`. */
uint32_t hkemu_dpp(hkemu_lane *lane, uint32_t old, uint32_t src,
                   uint32_t dpp_ctrl, uint32_t row_mask, uint32_t bank_mask,
                   int32_t bound_ctrl);

/* v_permlane16_swap (rows = 16) / v_permlane32_swap (rows = 32), gfx950:
 * swaps the odd 16-lane rows (upper 32 lanes) of *vdst with the even rows
 * (lower 32 lanes) of *vsrc, in place. */
void hkemu_permlane_swap(hkemu_lane *lane, uint32_t rows, uint32_t *vdst,
                         uint32_t *vsrc);

/* v_readfirstlane_b32 (all lanes active: lane 0's value). */
uint32_t hkemu_readfirstlane(hkemu_lane *lane, uint32_t value);

/* 1 in every lane if `pred` is nonzero in any lane of the wave, else 0: the
 * exec-mask test by which a wave skips a branch side no lane takes. */
uint32_t hkemu_wave_any(hkemu_lane *lane, uint32_t pred);

/* v_cmp into a lane mask (rocdl.ballot, all lanes active): bit l is set when
 * `pred` is nonzero in lane l; the same mask in every lane. */
uint64_t hkemu_ballot(hkemu_lane *lane, uint32_t pred);

/* Raw buffer accesses, per 4-byte component (or the whole access if smaller):
 * a component with offset + size > num_records reads 0 / is not written. */
void hkemu_buffer_load(hkemu_lane *lane, hkemu_buffer rsrc, uint32_t offset,
                       uint32_t bytes, void *dst);
void hkemu_buffer_store(hkemu_lane *lane, hkemu_buffer rsrc, uint32_t offset,
                        uint32_t bytes, const void *src);
/* Atomic f32 add (in range only); returns nothing, like the no-return form. */
void hkemu_buffer_atomic_fadd(hkemu_lane *lane, hkemu_buffer rsrc,
                              uint32_t offset, float value);

/* Declares an LDS allocation: `bytes` at address `base`, named `name` (a
 * string that outlives the launch) in fault reports. Lane code calls it for
 * every allocation before its first LDS access, in every lane; repeating a
 * declaration is a no-op. Once any is declared, every LDS access names the
 * allocation it belongs to by its base and must stay inside it; without
 * declarations the whole LDS is one allocation at 0. */
void hkemu_lds_region(hkemu_lane *lane, const char *name, uint32_t base,
                      uint32_t bytes);

/* LDS accesses of `bytes` (1..16) at byte address addr, in the allocation
 * that starts at `base`. Collective. Reported as faults: an access outside
 * its allocation; a read or write of bytes an LDS DMA in flight will write;
 * a race with another wave since the last barrier (read after write, write
 * after read, write after write). */
void hkemu_lds_load(hkemu_lane *lane, uint32_t base, uint32_t addr,
                    uint32_t bytes, void *dst, int32_t active);
void hkemu_lds_store(hkemu_lane *lane, uint32_t base, uint32_t addr,
                     uint32_t bytes, const void *src, int32_t active);

/* Global -> LDS without registers (buffer_load ... lds): every lane loads
 * bytes_per_lane (4, or 12/16 on gfx950) at its offset in rsrc, with buffer
 * range semantics, and lane i writes them at lds_addr + i * bytes_per_lane,
 * inside the allocation at `base`. lds_addr must be the same in all lanes
 * (it is M0). Collective. The global data is read at issue; it reaches LDS
 * only when a hkemu_wait_vmcnt of the wave requires it. `site` (or null)
 * names the copy in fault reports. */
void hkemu_lds_dma(hkemu_lane *lane, hkemu_buffer rsrc, uint32_t offset,
                   uint32_t base, uint32_t lds_addr, uint32_t bytes_per_lane,
                   int32_t active, const char *site);

/* s_waitcnt vmcnt(count) for the wave. Collective. The wave's vector-memory
 * instructions complete in order; an LDS DMA lands once at least `count`
 * of them were issued after it. The engine counts them from below: a lane's
 * buffer accesses after the DMA as their bytes / 16, rounded up (an
 * instruction moves at most 16 bytes per lane), plus the wave's later DMAs,
 * the most of any lane. `site` (or null) names the wait in fault reports. */
void hkemu_wait_vmcnt(hkemu_lane *lane, uint32_t count, const char *site);

/* Native lane code for a kernel of a module loaded on the emulator (the
 * host-compiled form of its lane-level IR). */
hkrt_status hkrt_emulator_set_lane_code(hkrt_module module, const char *kernel,
                                        hkemu_lane_fn fn);

#ifdef __cplusplus
}
#endif

#endif /* HK_RUNTIME_EMULATOR_H */
