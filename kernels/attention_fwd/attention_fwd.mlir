// Attention forward (flash attention, online softmax), HipKittens style.
//
//   O[b, i, h, :] = sum_j P[i, j] V[b, j, hk, :],
//   P[i, j] = exp(S[i, j] - L[b, h, i]),  S[i, j] = Q[b, i, h, :] . K[b, j, hk, :] / sqrt(D),
//   L[b, h, i] = log(sum_j exp(S[i, j]))  (natural log-sum-exp, for backward),
// with j running over all keys, or over j <= i when `causal` is set, and
// hk = h / (H / H_kv) the key/value head of query head h (GQA; MHA when
// H_kv = H). H_kv must divide H.
//
// Arguments (Q, K, V and O live in memory as [B, N, H, D], row-major):
//   %Q : memref<?x?x?xDxbf16, strided<[?, ?, ?, 1]>>  the [B, N, H, D] buffer
//        seen as [B, H, N, D], strides [N*H*D, D, H*D, 1]; D, 128 or 64, is
//        part of the type (the runtime checks it at launch), so no column
//        of Q, K, V or O is ever out of range and no access is checked or
//        masked along D
//   %K, %V : likewise, [B, N, H_kv, D] seen as [B, H_kv, N, D]
//   %O : bf16 output, [B, N, H, D] seen as [B, H, N, D]
//   %L : memref<?x?x?xf32>  [B, H, N], contiguous
//   %causal : i1
// The permuted view is how a [B, N, H, D] tensor is addressed here: hk.load
// and hk.load_async index the last two dimensions in tile units, so the
// sequence dimension must be second to last. (HipKittens instead passes the
// axis to load: load<1>(tile, gl, {b, i, h, 0}); the dialect has no such
// axis, see kernels/README.md.) The caller passes the strides of the
// [B, N, H, D] buffer; nothing is copied.
//
// Grid: (ceildiv(N, 256), H, B), 8 waves (4 waves and ceildiv(N, 128)
// workgroups with SCHEDULE = interleave, see "Four waves" below). Wave w of
// workgroup (x, h, b) owns query rows [256x + 32w, 256x + 32w + 32) (128x
// with four waves). N need not be a multiple of 32 or
// 64: key columns at or past N are masked to -inf (hk.bounds_mask), rows past
// N are computed on zero-filled Q and their stores are dropped.
//
// Mapping to HipKittens' GQA forward (kernels/attn/gqa, 8 waves, 32 query
// rows per wave, KV blocks of 64, ping-pong schedule):
//   * the MMAs are 32x32 (the 32x32x16 MFMA, two 32x32x8 on gfx942), as
//     HipKittens' are: a quarter of the MFMA instructions of 16x16x16 ones
//     for the same work, and a row of a 32x32 base tile lies in two lanes,
//     so a row reduction has one cross-lane step;
//   * Q is loaded once into registers (32x16 row tiles: the A/B operand
//     layout of the 32x32 MFMAs, eight K values per lane);
//   * K and V blocks are copied global -> LDS asynchronously by all 8 waves,
//     double buffered (2 x 2 x 64xD bf16: 64 KiB at D = 128); K's shared
//     tile has 32x16 subtiles (whole base tiles of its 32x16 reads, which
//     HipKittens' loads need), V's 16x32 ones;
//   * S^T = K Q^T is computed with mma_ABt into a 64x32 col accumulator
//     of 32x32 `group = 4` base tiles. HipKittens computes the transposed
//     scores for the same reason: the accumulator layout, relabelled by
//     hk.transpose (no data movement), is exactly the col layout that P^T
//     needs as the B operand of O^T += V^T P^T (mma_AtB), so P never moves
//     between lanes; V is read in the same col layout, with gfx950's
//     transposing LDS reads (ds_read_b64_tr_b16); on gfx942, which has
//     none, hk-transpose-shared keeps V's tile transposed in LDS (copied
//     through registers, written at the wait; docs/lowering.md);
//   * the softmax works on S = transpose(S^T) (queries as rows, a row tile),
//     in the log2 domain: s = S * log2(e) / sqrt(D), exp2 for exp;
//   * O is kept as a 32xD row tile (the transpose of the O^T accumulator),
//     at D = 128 as two 32x64 halves (one per V half, see Schedule).
//
// Online softmax per KV block (m: running row max of s, l: running sum):
//   m' = max(m, rowmax(s));  alpha = exp2(m - m');  P = exp2(s - m')
//   l' = alpha * l + rowsum(P);  O' = alpha * O + P V
// and at the end O / l, L = (m + log2(l)) * ln(2).
// rowmax(s) is taken on the unscaled, masked S and then scaled (the scale is
// positive), so that s - m' = S * scale - m' is one FMA per pair of
// elements: the multiply is marked fastmath<contract> and the
// row_broadcast's subtraction inherits it (docs/lowering.md).
// P is rounded to bf16 with `fastmath<nnan>`: it is exp2 of a finite value
// or of -inf, never NaN, so gfx942 (no conversion instruction) rounds it
// without a NaN test per element (docs/lowering.md).
// m starts at -inf and alpha at the first block is exp2(-inf) = 0. Every
// query row has a finite m after the first block (key 0 is in bounds and is
// never masked by causality), so m - m' is never -inf - (-inf).
//
// Lazy rescaling (HipKittens' GQA kernel, after FlashAttention 4): m is
// only a reference. It moves to max(m, rowmax(s)) only when, for some row
// of the wave, rowmax(s) - m > 8; one vote (hk.any, `expect false`)
// decides for the whole wave, and only then are alpha, l and O rescaled.
// Otherwise m stays, P = exp2(s - m) <= 2^8, and O and l keep their scale:
// the result O / l and L = m + log2(l) are the same for any reference m
// (P below 2^8 cannot overflow f32 or bf16, whose exponent range is
// f32's). The rescale is a branch LLVM lays out off the straight path: the
// 32 (D = 128) or 16 (D = 64) packed multiplies of O leave the loop's
// common path. The first block always rescales (m = -inf).
//
// Causal: the KV loop stops after the last block holding a key <= the
// workgroup's last query; inside it, hk.tril masks key > query to -inf.
// Blocks fully masked for a wave give rowmax(s) = -inf, no vote and P = 0.
//
// Every KV step prefetches K two blocks ahead and V one block ahead, and
// waits for that V block within the step (see Schedule): a copy waited for
// where it was issued is one hk-transpose-shared can take through
// registers on gfx942. Prefetches past the last block read zeros (or
// unused in-range blocks when causal) and are waited for before the kernel
// ends.
//
// Schedule. The KV loop is an 8-wave ping-pong. hk-schedule ends every
// cluster with a barrier and runs waves 4-7 one cluster behind waves 0-3,
// so an access in cluster i is ordered before the accesses of every other
// wave in cluster i+2 or later, but not in cluster i+1 (docs/schedules.md).
// Every LDS hazard is therefore kept two clusters apart: the overwrite of
// a stage after its last read, and the read of a copied block after the
// waves' hk.wait for it (hk.wait only covers the wave's own copies, so a
// later barrier is what makes the others' visible). An earlier form waited,
// crossed a barrier of its own and read in one cluster; staggered, that
// barrier paired waves 0-3 after their wait with waves 4-7 still a cluster
// earlier, before theirs, so waves 0-3 could read a stage whose other half
// had not landed.
//
// D = 64: four clusters per block j, numbered 4j .. 4j+3: read K and V
// stage j%2 into registers and refill V stage (j+1)%2 with V block j+1;
// scores and softmax; refill K stage j%2 with K block j+2 and wait for this
// wave's copies of K and V block j+1; O += P V. K stage j%2 is read in 4j
// and overwritten in 4j+2; V stage (j+1)%2 was last read in 4j-4 and is
// refilled in 4j; block j+1 is waited for in 4j+2 and read in 4j+4.
//
// D = 128: six clusters per block j, numbered 6j .. 6j+5, V read in two
// halves along D, each just before the MMA that uses it:
//   6j   memory:  read K stage j%2 (block j); refill V stage (j+1)%2 with
//                 V block j+1;
//   6j+1 compute: S, online softmax, P^T in bf16;
//   6j+2 memory:  read columns 0-63 of V stage j%2; refill K stage j%2
//                 with K block j+2; wait for this wave's copies of K
//                 block j+1;
//   6j+3 compute: O[:, 0:64] = alpha O[:, 0:64] + P V[:, 0:64];
//   6j+4 memory:  read columns 64-127 of V stage j%2; wait for this
//                 wave's copies of V block j+1;
//   6j+5 compute: O[:, 64:128] likewise.
// Hazards, per buffer:
//   K stage j%2 holds block j: read in 6j, overwritten with block j+2 in
//     6j+2 (2 later). K block j+1 is waited for in 6j+2 and read in 6j+6
//     (4 later).
//   V stage j%2 holds block j: waited for in 6j-2, read in 6j+2 (4 later)
//     and 6j+4, overwritten with block j+2 from 6(j+1) = 6j+6 (2 after the
//     last read) until the wait in 6j+10. So V block j+1 is copied into
//     stage (j+1)%2 in 6j, two clusters after that stage's last read
//     (block j-1, in 6j-2).
// The prologue copies K blocks 0 and 1 and V block 0, waits for K block 0
// and V block 0 and ends with a barrier, which orders it before cluster 0;
// K block 1 is waited for in cluster 2 and read in cluster 6. V stage 1 is
// first written in cluster 0, nothing having read it. The last block
// leaves K block nkv+1 in flight; it is waited for after the loop, behind
// the mirror barrier.
//
// Copies after reads. In a memory cluster that both reads a shared tile
// into registers and issues a copy, an hk.sched_barrier keeps the copy's
// LDS DMA after the reads: the DMA's writes take the LDS's write port
// when its data lands, and issued first (where LLVM's scheduler put it)
// they delay every read of the cluster, which the cluster's closing
// lgkmcnt(0) waits for (modelled gfx950 D = 128 non-causal: 910 -> 995
// TFLOP/s once the barriers stopped waiting for copies, lib/Target/AMDGPU/
// Optimize.cpp).
//
// Four waves (SCHEDULE = interleave, SYNC = barrier). A workgroup of 4
// waves owns 128 query rows: twice the workgroups of the default, each
// wave alone on its SIMD. Where sequences are short or heads few, the
// default's 256-row workgroups leave most CUs idle and the smaller blocks
// finish sooner (modelled gfx950 B, H, N, D = 1, 8, 512, 64: 15.7 -> 10.7
// us; docs/report.md, "Attention forward tuning"); at the regression
// guard's long sequences the ping-pong stays ahead. hk.interleave needs 4
// waves and inserts no barrier, while every hazard above relies on the
// ping-pong's barrier after each cluster, so the loop carries two
// synchronisation points of its own, each `hk.${SYNC}` in the source: a
// barrier with four waves, a fence under the ping-pong (the one it would
// have put there anyway, so the default compiles to the same code):
//   * at the top of block j, before its first cluster: every wave's waits
//     of block j - 1 (K block j in 6j-4, V block j in 6j-2; 4j-2 at D = 64)
//     are behind it, so block j's stages are complete when read, and every
//     read of V stage (j+1)%2 (block j - 1) is done before the refill;
//   * in the first cluster, between the reads of K stage j%2 and the V
//     copy: every wave has read K block j before K stage j%2 is refilled
//     with block j + 2 (in 6j+2, or 4j+2 at D = 64).
// The template cannot drop or add a line, only rewrite one, so the barrier
// is a keyword the constraint ties to SCHEDULE.
//
// Registers at D = 128 (per lane): Q 32, O 64, K 64, S 32, P^T 16, V 64
// (two halves of 32). Reading K and V together in one cluster of four
// left Q, O, K and V (224) live across the boundary into the scores, and
// 300 (gfx942) / 272 (gfx950) bytes spilled. Now the boundaries hold at
// most Q, O and K (160) after 6j, and Q, O, P^T and one V half after 6j+2
// and 6j+4. A V half is 32 registers packed, on both chips; on gfx942
// the wave's share of V block j+1 (8 registers) also waits in registers
// from 6j to its store in 6j+4.

// Register tiles shared by both head sizes.
!st_acc = tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
!s_rt = tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>>
!p_rt = tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>
!pt_rt = tensor<64x32xbf16, #hk.rt<col, 32x32, group = 4>>
!vec = tensor<32xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
!vec_mask = tensor<32xi1, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>

// ---------------------------------------------------------------------------
// D = 128: scale = log2(e) / sqrt(128) = 0.12751743082459868
// ---------------------------------------------------------------------------
!q_rt128 = tensor<32x128xbf16, #hk.rt<row, 32x16>>
!kv_st2_128 = !hk.st<128x128xbf16, 16x32>
!kv_st128 = !hk.st<64x128xbf16, 16x32>
!vh_st128 = !hk.st<64x64xbf16, 16x32>
!k_st2_128 = !hk.st<128x128xbf16, 32x16>
!k_st128 = !hk.st<64x128xbf16, 32x16>
!k_rt128 = tensor<64x128xbf16, #hk.rt<row, 32x16>>
!vh_rt128 = tensor<64x64xbf16, #hk.rt<col, 32x32, group = 4>>
!oh_rt128 = tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>>
!oth_acc128 = tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
!oh_out128 = tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>
!gmem128 = memref<?x?x?x128xbf16, strided<[?, ?, ?, 1]>>

// D = 64 (its kernel is the second below).
!q_rt64 = tensor<32x64xbf16, #hk.rt<row, 32x16>>
!kv_st2_64 = !hk.st<128x64xbf16, 16x32>
!kv_st64 = !hk.st<64x64xbf16, 16x32>
!k_st2_64 = !hk.st<128x64xbf16, 32x16>
!k_st64 = !hk.st<64x64xbf16, 32x16>
!k_rt64 = tensor<64x64xbf16, #hk.rt<row, 32x16>>
!v_rt64 = tensor<64x64xbf16, #hk.rt<col, 32x32, group = 4>>
!o_rt64 = tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>>
!ot_acc64 = tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
!o_out64 = tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>
!gmem64 = memref<?x?x?x64xbf16, strided<[?, ?, ?, 1]>>

// The template's parameters (docs/kernels.md, "Templates"); the defaults are
// the kernels described above.
module attributes {hk.params = {
    THRESHOLD = {values = [0, 4, 8, 16], default = 8,
                 doc = "lazy rescaling: how far (log2) a row maximum may pass the reference before O and l are rescaled"},
    MWPS64 = {values = [2, 3, 4], default = 3,
              doc = "min_waves_per_simd of the D = 64 kernel"},
    SCHEDULE = {values = ["ping_pong", "interleave"], default = "ping_pong",
                doc = "8 waves under the ping-pong (256 query rows per workgroup) or 4 under hk.interleave (128 rows)"},
    SYNC = {values = ["sched_barrier 0", "barrier"],
            default = "sched_barrier 0",
            doc = "the op at the KV loop's two synchronisation points: a fence under the ping-pong, whose barriers order the stages; a barrier under hk.interleave, which inserts none"}},
  hk.constraints = ["(SCHEDULE == \"interleave\") == (SYNC == \"barrier\")"]} {

hk.kernel @attention_fwd_d128(%Q: !gmem128, %K: !gmem128, %V: !gmem128,
                             %O: !gmem128, %L: memref<?x?x?xf32>,
                             %causal: i1) attributes {
    // hk.template: waves = ${4 + 4 * (SCHEDULE == "ping_pong")} : i32,
    waves = 8 : i32,
    // hk.template: grid = #hk.grid<[dim(0, 2), dim(0, 1), dim(0, 0)] -> (s0 ceildiv ${128 + 128 * (SCHEDULE == "ping_pong")}, s1, s2)>} {
    grid = #hk.grid<[dim(0, 2), dim(0, 1), dim(0, 0)] -> (s0 ceildiv 256, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // hk.template: %waves = arith.constant ${4 + 4 * (SCHEDULE == "ping_pong")} : index
  %waves = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  // hk.template: %rows = arith.constant ${128 + 128 * (SCHEDULE == "ping_pong")} : index
  %rows = arith.constant 256 : index
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant dense<0.127517432> : !s_rt
  %scale_v = arith.constant dense<0.127517432> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %zero_vec = arith.constant dense<0.0> : !vec
  %one_vec = arith.constant dense<1.0> : !vec
  // hk.template: %threshold = arith.constant dense<${THRESHOLD}.0> : !vec
  %threshold = arith.constant dense<8.0> : !vec
  %zero_o = arith.constant dense<0.0> : !oh_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  // K and V, two stages each; stage s is rows [64*s, 64*s + 64).
  %ks = hk.alloc_shared : !k_st2_128
  %vs = hk.alloc_shared : !kv_st2_128

  %qblk = hk.block_id x
  %h = hk.block_id y
  %b = hk.block_id z
  %w = hk.wave_id

  // GQA: key/value head of query head h.
  %heads = memref.dim %Q, %c1 : !gmem128
  %kv_heads = memref.dim %K, %c1 : !gmem128
  // In 32 bits: head counts fit (a Q buffer, at most 4 GiB, holds fewer
  // than 2^25 heads of D >= 64 bf16), a 64-bit division takes about 40
  // scalar instructions, and LLVM then knows hkv is below 2^32 where the KV
  // loop multiplies it by K's and V's head stride.
  %heads32 = arith.index_cast %heads : index to i32
  %kv_heads32 = arith.index_cast %kv_heads : index to i32
  %group = arith.divui %heads32, %kv_heads32 : i32
  %h32 = arith.index_cast %h : index to i32
  %hkv32 = arith.divui %h32, %group : i32
  %hkv = arith.index_castui %hkv32 : i32 to index

  // This wave's 32 query rows, in units of 32 and of rows.
  %qblkw = arith.muli %qblk, %waves : index
  %qtile = arith.addi %qblkw, %w : index
  %q0 = arith.muli %qtile, %c32 : index
  %q_end = arith.addi %q0, %c32 : index

  // KV blocks of 64: all of them, or when causal those holding a key <= the
  // workgroup's last query rows*qblk + rows - 1 (rows: 256, or 128 with
  // four waves).
  %n = memref.dim %Q, %c2 : !gmem128
  %n_pad = arith.addi %n, %c63 : index
  %nkv_all = arith.divui %n_pad, %c64 : index
  %wg_q0 = arith.muli %qblk, %rows : index
  %wg_q_end = arith.addi %wg_q0, %rows : index
  %wg_pad = arith.addi %wg_q_end, %c63 : index
  %nkv_wg = arith.divui %wg_pad, %c64 : index
  %nkv_causal = arith.minui %nkv_all, %nkv_wg : index
  %nkv = arith.select %causal, %nkv_causal, %nkv_all : index

  %q = hk.load %Q[%b, %h, %qtile, %c0] : !gmem128 -> !q_rt128

  // Prologue: K blocks 0 and 1 into K stages 0 and 1, V block 0 into V
  // stage 0 (cluster 0 issues V block 1).
  %ks0 = hk.subtile %ks[%c0, %c0] : !k_st2_128 -> !k_st128
  %vs0 = hk.subtile %vs[%c0, %c0] : !kv_st2_128 -> !kv_st128
  %ks1 = hk.subtile %ks[%c1, %c0] : !k_st2_128 -> !k_st128
  %tk0 = hk.load_async %K[%b, %hkv, %c0, %c0], %ks0 : !gmem128, !k_st128
  %tv0 = hk.load_async %V[%b, %hkv, %c0, %c0], %vs0 : !gmem128, !kv_st128
  %tk1 = hk.load_async %K[%b, %hkv, %c1, %c0], %ks1 : !gmem128, !k_st128
  // K block 0 and V block 0 in LDS for every wave before clusters 0 and 2
  // read them.
  hk.wait %tk0, %tv0
  hk.barrier

  // Six clusters per KV block j, numbered 6j .. 6j+5. The token carried is
  // that of K block j + 1; V block j + 1 is copied and waited for within
  // block j.
  // hk.template: %res:5 = hk.${SCHEDULE} -> !oh_rt128, !oh_rt128, !vec, !vec, !hk.token {
  %res:5 = hk.ping_pong -> !oh_rt128, !oh_rt128, !vec, !vec, !hk.token {
    %r:5 = scf.for %j = %c0 to %nkv step %c1
        iter_args(%o0 = %zero_o, %o1 = %zero_o, %m = %m_init,
                  %l = %zero_vec, %tkn = %tk1)
        -> (!oh_rt128, !oh_rt128, !vec, !vec, !hk.token) {
      %s = arith.remui %j, %c2 : index
      %j1 = arith.addi %j, %c1 : index
      %s1 = arith.subi %c1, %s : index
      %k_stage = hk.subtile %ks[%s, %c0] : !k_st2_128 -> !k_st128
      %v_next = hk.subtile %vs[%s1, %c0] : !kv_st2_128 -> !kv_st128
      // The two halves of V block j along D: columns 0-63 and 64-127.
      %v_lo = hk.subtile %vs[%s, %c0] : !kv_st2_128 -> !vh_st128
      %v_hi = hk.subtile %vs[%s, %c1] : !kv_st2_128 -> !vh_st128
      %k0 = arith.muli %j, %c64 : index

      // 6j: K block j (waited for in 6j-4, by the prologue for j = 0).
      // V stage s1 was last read in 6j-2 (block j - 1): refill it with
      // block j + 1, waited for in 6j+4.
      // The loop's first synchronisation point (see "Four waves" above):
      // under the ping-pong a fence, the one the schedule would put here.
      // hk.template: hk.${SYNC}
      hk.sched_barrier 0
      %kt, %nv = hk.cluster memory -> !k_rt128, !hk.token {
        %kr = hk.load %k_stage : !k_st128 -> !k_rt128
        // The copy after the reads (see "Copies after reads" above).
        // hk.template: hk.${SYNC}
        hk.sched_barrier 0
        %t1 = hk.load_async %V[%b, %hkv, %j1, %c0], %v_next
            : !gmem128, !kv_st128
        hk.yield %kr, %t1 : !k_rt128, !hk.token
      }

      // 6j+1: scores, queries as rows, in the log2 domain; online softmax.
      // P leaves as P^T in bf16, the B operand of clusters 6j+3 and 6j+5.
      %pt, %mn, %ln, %alpha, %rescale = hk.cluster compute pair = mfma_exp
          -> !pt_rt, !vec, !vec, !vec, i1 {
        %st = hk.mma abt %kt, %q, %zero_s : !k_rt128, !q_rt128, !st_acc
        %sr = hk.transpose %st : !st_acc -> !s_rt
        %s3 = hk.bounds_mask %sr at [%q0, %k0] within [%q_end, %n]
            fill %neginf : !s_rt
        %s4 = scf.if %causal -> !s_rt {
          %sc = hk.tril %s3 at [%q0, %k0] fill %neginf : !s_rt
          scf.yield %sc : !s_rt
        } else {
          scf.yield %s3 : !s_rt
        }
        %rm = hk.row_reduce max %s4 : !s_rt -> !vec
        %rms = arith.mulf %rm, %scale_v : !vec
        // The reference maximum m moves only when a row's maximum passed
        // it by more than 8 (lazy rescaling, see the header): one vote for
        // the wave. alpha is read only when the vote is true.
        %grow = arith.subf %rms, %m : !vec
        %grew = arith.cmpf ogt, %grow, %threshold : !vec
        %re = hk.any %grew expect false : !vec_mask
        %mx, %al, %la = scf.if %re -> (!vec, !vec, !vec) {
          %mxr = arith.maxnumf %m, %rms : !vec
          %dm = arith.subf %m, %mxr : !vec
          %alr = math.exp2 %dm : !vec
          %lar = arith.mulf %l, %alr : !vec
          scf.yield %mxr, %alr, %lar : !vec, !vec, !vec
        } else {
          scf.yield %m, %one_vec, %l : !vec, !vec, !vec
        }
        %s5 = arith.mulf %s4, %scale fastmath<contract> : !s_rt
        %sd = hk.row_broadcast sub %s5, %mx : !s_rt, !vec
        %e = math.exp2 %sd : !s_rt
        %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
        %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
        %ptr = hk.transpose %pb : !p_rt -> !pt_rt
        hk.yield %ptr, %mx, %sum, %al, %re : !pt_rt, !vec, !vec, !vec, i1
      }

      // 6j+2: V block j, columns 0-63 (waited for in 6j-2, by the prologue
      // for j = 0). Every wave has
      // read K stage s (in 6j): refill it with K block j + 2. Then wait for
      // this wave's copies of K block j + 1, which every wave reads in 6j+6.
      %vt0, %nk = hk.cluster memory -> !vh_rt128, !hk.token {
        %vr = hk.load %v_lo : !vh_st128 -> !vh_rt128
        // The copy after the reads (see "Copies after reads" above).
        hk.sched_barrier 0
        %j2 = arith.addi %j, %c2 : index
        %t0 = hk.load_async %K[%b, %hkv, %j2, %c0], %k_stage
            : !gmem128, !k_st128
        hk.wait %tkn
        hk.yield %vr, %t0 : !vh_rt128, !hk.token
      }

      // 6j+3: O[:, 0:64] = alpha * O[:, 0:64] + P V[:, 0:64], as
      // O^T = alpha * O^T + V^T P^T.
      %o0n = hk.cluster compute -> !oh_rt128 {
        %oa = scf.if %rescale -> !oh_rt128 {
          %os = hk.row_broadcast mul %o0, %alpha : !oh_rt128, !vec
          scf.yield %os : !oh_rt128
        } else {
          scf.yield %o0 : !oh_rt128
        }
        %ot = hk.transpose %oa : !oh_rt128 -> !oth_acc128
        %ot2 = hk.mma atb %vt0, %pt, %ot
            : !vh_rt128, !pt_rt, !oth_acc128
        %on = hk.transpose %ot2 : !oth_acc128 -> !oh_rt128
        hk.yield %on : !oh_rt128
      }

      // 6j+4: V block j, columns 64-127. Wait for this wave's copies of
      // V block j + 1, which every wave reads from 6j+8.
      %vt1 = hk.cluster memory -> !vh_rt128 {
        %vr = hk.load %v_hi : !vh_st128 -> !vh_rt128
        hk.wait %nv
        hk.yield %vr : !vh_rt128
      }

      // 6j+5: O[:, 64:128] likewise.
      %o1n = hk.cluster compute -> !oh_rt128 {
        %oa = scf.if %rescale -> !oh_rt128 {
          %os = hk.row_broadcast mul %o1, %alpha : !oh_rt128, !vec
          scf.yield %os : !oh_rt128
        } else {
          scf.yield %o1 : !oh_rt128
        }
        %ot = hk.transpose %oa : !oh_rt128 -> !oth_acc128
        %ot2 = hk.mma atb %vt1, %pt, %ot
            : !vh_rt128, !pt_rt, !oth_acc128
        %on = hk.transpose %ot2 : !oth_acc128 -> !oh_rt128
        hk.yield %on : !oh_rt128
      }
      scf.yield %o0n, %o1n, %mn, %ln, %nk
          : !oh_rt128, !oh_rt128, !vec, !vec, !hk.token
    }
    hk.yield %r#0, %r#1, %r#2, %r#3, %r#4
        : !oh_rt128, !oh_rt128, !vec, !vec, !hk.token
  }
  hk.wait %res#4

  // O / l, in two halves of 64 columns, and the natural-log LSE
  // (m + log2 l) * ln 2.
  %of0 = hk.row_broadcast div %res#0, %res#3 : !oh_rt128, !vec
  %ob0 = arith.truncf %of0 : !oh_rt128 to !oh_out128
  hk.store %ob0, %O[%b, %h, %qtile, %c0] : !oh_out128, !gmem128
  %of1 = hk.row_broadcast div %res#1, %res#3 : !oh_rt128, !vec
  %ob1 = arith.truncf %of1 : !oh_rt128 to !oh_out128
  hk.store %ob1, %O[%b, %h, %qtile, %c1] : !oh_out128, !gmem128
  %log_l = math.log2 %res#3 : !vec
  %lse2 = arith.addf %res#2, %log_l : !vec
  %lse = arith.mulf %lse2, %ln2 : !vec
  hk.store %lse, %L[%b, %h, %qtile] : !vec, memref<?x?x?xf32>
  hk.return
}

// ---------------------------------------------------------------------------
// D = 64: scale = log2(e) / sqrt(64) = 0.18033688011112042
// ---------------------------------------------------------------------------
// Three waves per SIMD, as HipKittens' D = 64 kernel has: at most 168
// VGPRs per lane. The kernel fits them without spills, but the code
// generator, asked only for the two a workgroup of 8 waves needs, may take
// more.
hk.kernel @attention_fwd_d64(%Q: !gmem64, %K: !gmem64, %V: !gmem64,
                             %O: !gmem64, %L: memref<?x?x?xf32>,
                             %causal: i1) attributes {
    // hk.template: waves = ${4 + 4 * (SCHEDULE == "ping_pong")} : i32, min_waves_per_simd = ${MWPS64} : i32,
    waves = 8 : i32, min_waves_per_simd = 3 : i32,
    // hk.template: grid = #hk.grid<[dim(0, 2), dim(0, 1), dim(0, 0)] -> (s0 ceildiv ${128 + 128 * (SCHEDULE == "ping_pong")}, s1, s2)>} {
    grid = #hk.grid<[dim(0, 2), dim(0, 1), dim(0, 0)] -> (s0 ceildiv 256, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // hk.template: %waves = arith.constant ${4 + 4 * (SCHEDULE == "ping_pong")} : index
  %waves = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  // hk.template: %rows = arith.constant ${128 + 128 * (SCHEDULE == "ping_pong")} : index
  %rows = arith.constant 256 : index
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant dense<0.180336878> : !s_rt
  %scale_v = arith.constant dense<0.180336878> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %zero_vec = arith.constant dense<0.0> : !vec
  %one_vec = arith.constant dense<1.0> : !vec
  // hk.template: %threshold = arith.constant dense<${THRESHOLD}.0> : !vec
  %threshold = arith.constant dense<8.0> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt64
  %zero_s = arith.constant dense<0.0> : !st_acc

  // K and V, two stages each; stage s is rows [64*s, 64*s + 64).
  %ks = hk.alloc_shared : !k_st2_64
  %vs = hk.alloc_shared : !kv_st2_64

  %qblk = hk.block_id x
  %h = hk.block_id y
  %b = hk.block_id z
  %w = hk.wave_id

  // GQA: key/value head of query head h.
  %heads = memref.dim %Q, %c1 : !gmem64
  %kv_heads = memref.dim %K, %c1 : !gmem64
  // In 32 bits: head counts fit (a Q buffer, at most 4 GiB, holds fewer
  // than 2^25 heads of D >= 64 bf16), a 64-bit division takes about 40
  // scalar instructions, and LLVM then knows hkv is below 2^32 where the KV
  // loop multiplies it by K's and V's head stride.
  %heads32 = arith.index_cast %heads : index to i32
  %kv_heads32 = arith.index_cast %kv_heads : index to i32
  %group = arith.divui %heads32, %kv_heads32 : i32
  %h32 = arith.index_cast %h : index to i32
  %hkv32 = arith.divui %h32, %group : i32
  %hkv = arith.index_castui %hkv32 : i32 to index

  // This wave's 32 query rows, in units of 32 and of rows.
  %qblkw = arith.muli %qblk, %waves : index
  %qtile = arith.addi %qblkw, %w : index
  %q0 = arith.muli %qtile, %c32 : index
  %q_end = arith.addi %q0, %c32 : index

  // KV blocks of 64: all of them, or when causal those holding a key <= the
  // workgroup's last query rows*qblk + rows - 1 (rows: 256, or 128 with
  // four waves).
  %n = memref.dim %Q, %c2 : !gmem64
  %n_pad = arith.addi %n, %c63 : index
  %nkv_all = arith.divui %n_pad, %c64 : index
  %wg_q0 = arith.muli %qblk, %rows : index
  %wg_q_end = arith.addi %wg_q0, %rows : index
  %wg_pad = arith.addi %wg_q_end, %c63 : index
  %nkv_wg = arith.divui %wg_pad, %c64 : index
  %nkv_causal = arith.minui %nkv_all, %nkv_wg : index
  %nkv = arith.select %causal, %nkv_causal, %nkv_all : index

  %q = hk.load %Q[%b, %h, %qtile, %c0] : !gmem64 -> !q_rt64

  // Prologue: K blocks 0 and 1 into K stages 0 and 1, V block 0 into V
  // stage 0 (cluster 0 copies V block 1).
  %ks0 = hk.subtile %ks[%c0, %c0] : !k_st2_64 -> !k_st64
  %vs0 = hk.subtile %vs[%c0, %c0] : !kv_st2_64 -> !kv_st64
  %ks1 = hk.subtile %ks[%c1, %c0] : !k_st2_64 -> !k_st64
  %tk0 = hk.load_async %K[%b, %hkv, %c0, %c0], %ks0 : !gmem64, !k_st64
  %tv0 = hk.load_async %V[%b, %hkv, %c0, %c0], %vs0 : !gmem64, !kv_st64
  %tk1 = hk.load_async %K[%b, %hkv, %c1, %c0], %ks1 : !gmem64, !k_st64
  // Block 0 in LDS for every wave before the loop reads it.
  hk.wait %tk0, %tv0
  hk.barrier

  // Four clusters per KV block j, numbered 4j .. 4j+3. The token carried
  // is that of K block j + 1; V block j + 1 is copied and waited for within
  // block j.
  // hk.template: %res:4 = hk.${SCHEDULE} -> !o_rt64, !vec, !vec, !hk.token {
  %res:4 = hk.ping_pong -> !o_rt64, !vec, !vec, !hk.token {
    %r:4 = scf.for %j = %c0 to %nkv step %c1
        iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec,
                  %tkn = %tk1)
        -> (!o_rt64, !vec, !vec, !hk.token) {
      %s = arith.remui %j, %c2 : index
      %j1 = arith.addi %j, %c1 : index
      %s1 = arith.subi %c1, %s : index
      %k_stage = hk.subtile %ks[%s, %c0] : !k_st2_64 -> !k_st64
      %v_stage = hk.subtile %vs[%s, %c0] : !kv_st2_64 -> !kv_st64
      %v_next = hk.subtile %vs[%s1, %c0] : !kv_st2_64 -> !kv_st64
      %k0 = arith.muli %j, %c64 : index

      // 4j: block j, waited for in cluster 4j-2 (the prologue for j = 0).
      // V stage s1 was last read in 4j-4 (block j - 1): refill it with
      // block j + 1, waited for in 4j+2.
      // The loop's first synchronisation point (see "Four waves" above):
      // under the ping-pong a fence, the one the schedule would put here.
      // hk.template: hk.${SYNC}
      hk.sched_barrier 0
      %kt, %vt, %nv = hk.cluster memory -> !k_rt64, !v_rt64, !hk.token {
        %kr = hk.load %k_stage : !k_st64 -> !k_rt64
        %vr = hk.load %v_stage : !kv_st64 -> !v_rt64
        // The copy after the reads (see "Copies after reads" above).
        // hk.template: hk.${SYNC}
        hk.sched_barrier 0
        %t1 = hk.load_async %V[%b, %hkv, %j1, %c0], %v_next
            : !gmem64, !kv_st64
        hk.yield %kr, %vr, %t1 : !k_rt64, !v_rt64, !hk.token
      }

      // 4j+1: scores, queries as rows, in the log2 domain; online softmax.
      %p, %mn, %ln, %alpha, %rescale = hk.cluster compute pair = mfma_exp
          -> !s_rt, !vec, !vec, !vec, i1 {
        %st = hk.mma abt %kt, %q, %zero_s : !k_rt64, !q_rt64, !st_acc
        %sr = hk.transpose %st : !st_acc -> !s_rt
        %s3 = hk.bounds_mask %sr at [%q0, %k0] within [%q_end, %n]
            fill %neginf : !s_rt
        %s4 = scf.if %causal -> !s_rt {
          %sc = hk.tril %s3 at [%q0, %k0] fill %neginf : !s_rt
          scf.yield %sc : !s_rt
        } else {
          scf.yield %s3 : !s_rt
        }
        %rm = hk.row_reduce max %s4 : !s_rt -> !vec
        %rms = arith.mulf %rm, %scale_v : !vec
        %grow = arith.subf %rms, %m : !vec
        %grew = arith.cmpf ogt, %grow, %threshold : !vec
        %re = hk.any %grew expect false : !vec_mask
        %mx, %al, %la = scf.if %re -> (!vec, !vec, !vec) {
          %mxr = arith.maxnumf %m, %rms : !vec
          %dm = arith.subf %m, %mxr : !vec
          %alr = math.exp2 %dm : !vec
          %lar = arith.mulf %l, %alr : !vec
          scf.yield %mxr, %alr, %lar : !vec, !vec, !vec
        } else {
          scf.yield %m, %one_vec, %l : !vec, !vec, !vec
        }
        %s5 = arith.mulf %s4, %scale fastmath<contract> : !s_rt
        %sd = hk.row_broadcast sub %s5, %mx : !s_rt, !vec
        %e = math.exp2 %sd : !s_rt
        %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
        hk.yield %e, %mx, %sum, %al, %re : !s_rt, !vec, !vec, !vec, i1
      }

      // 4j+2: every wave has read K stage s (in 4j): refill it with K
      // block j + 2. Then wait for this wave's copies of K and V block
      // j + 1, which every wave reads in 4j+4, two clusters on.
      %nk = hk.cluster memory -> !hk.token {
        %j2 = arith.addi %j, %c2 : index
        %t0 = hk.load_async %K[%b, %hkv, %j2, %c0], %k_stage : !gmem64, !k_st64
        hk.wait %tkn, %nv
        hk.yield %t0 : !hk.token
      }

      // 4j+3: O = alpha * O + P V, as O^T = alpha * O^T + V^T P^T.
      %o2 = hk.cluster compute -> !o_rt64 {
        %oa = scf.if %rescale -> !o_rt64 {
          %os = hk.row_broadcast mul %o, %alpha : !o_rt64, !vec
          scf.yield %os : !o_rt64
        } else {
          scf.yield %o : !o_rt64
        }
        %pb = arith.truncf %p fastmath<nnan> : !s_rt to !p_rt
        %pt = hk.transpose %pb : !p_rt -> !pt_rt
        %ot = hk.transpose %oa : !o_rt64 -> !ot_acc64
        %ot2 = hk.mma atb %vt, %pt, %ot : !v_rt64, !pt_rt, !ot_acc64
        %on = hk.transpose %ot2 : !ot_acc64 -> !o_rt64
        hk.yield %on : !o_rt64
      }
      scf.yield %o2, %mn, %ln, %nk
          : !o_rt64, !vec, !vec, !hk.token
    }
    hk.yield %r#0, %r#1, %r#2, %r#3
        : !o_rt64, !vec, !vec, !hk.token
  }
  hk.wait %res#3

  // O / l, and the natural-log LSE (m + log2 l) * ln 2.
  %of = hk.row_broadcast div %res#0, %res#2 : !o_rt64, !vec
  %ob = arith.truncf %of : !o_rt64 to !o_out64
  hk.store %ob, %O[%b, %h, %qtile, %c0] : !o_out64, !gmem64
  %log_l = math.log2 %res#2 : !vec
  %lse2 = arith.addf %res#1, %log_l : !vec
  %lse = arith.mulf %lse2, %ln2 : !vec
  hk.store %lse, %L[%b, %h, %qtile] : !vec, memref<?x?x?xf32>
  hk.return
}

} // module
