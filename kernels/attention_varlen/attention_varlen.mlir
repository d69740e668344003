// Variable-length prefill attention (flash attention over packed
// sequences), HipKittens style: attention_fwd's 8-wave ping-pong with the
// sequences' offsets read from device memory.
//
// B sequences are packed one after another: sequence b holds the query rows
// [cu_q[b], cu_q[b + 1]) of Q and O and the key rows [cu_k[b], cu_k[b + 1])
// of K and V, len_q = cu_q[b + 1] - cu_q[b], len_k likewise. For query i of
// sequence b and query head h,
//   O[cu_q[b] + i, h, :] = sum_j P[i, j] V[cu_k[b] + j, hk, :],
//   P[i, j] = exp(S[i, j] - L[h, cu_q[b] + i]),
//   S[i, j] = Q[cu_q[b] + i, h, :] . K[cu_k[b] + j, hk, :] / sqrt(D),
//   L = log sum_j exp(S[i, j])  (natural log),
// hk = h / (H / H_kv) (GQA), j over the keys query i sees:
//   * query i sits at key position p = i + len_k - len_q: the queries are
//     the sequence's last len_q positions (bottom-right alignment, as
//     FlashAttention's varlen kernels when len_q != len_k; with
//     len_q = len_k it is attention_fwd's top-left causal mask);
//   * j < len_k; j <= p when causal; j >= p - W when a window is given
//     (W >= 0: a key more than W positions before the query's is masked;
//     W = 0 keeps the diagonal only; without causal the window still
//     bounds from the left only).
// A query without any visible key (causal with p < 0, or len_k = 0) gets
// O = 0 and L = -inf.
//
// Arguments of @attention_varlen_d<D> (D = 128 or 64, part of the types):
//   %Q : memref<?x?xDxbf16, strided<[?, ?, 1]>>  the [total_q, H, D] buffer
//        seen as [H, total_q, D] (strides [D, H D, 1]), as attention_fwd's
//        permuted views: tile loads index the last two dimensions
//   %K, %V : likewise, [total_k, H_kv, D] seen as [H_kv, total_k, D]
//   %O : bf16 output, [total_q, H, D] seen as [H, total_q, D]
//   %L : memref<?x?xf32>  [H, total_q] (FlashAttention's varlen LSE layout)
//   %cu_q, %cu_k : memref<?xi32>  [B + 1] offsets, read by the kernel
//        (memref.load); cu[0] <= cu[1] <= ... (empty sequences allowed)
//   %workgroups : index  the number of workgroups to launch (Grid)
//   %causal : i1
//   %window : i32  the left window W, negative for none
// Every sequence is a memref.subview of the packed tensors at the offsets
// read from memory, so tile loads past a sequence's last row read zeros and
// tile stores past it are dropped, as at the ragged end of attention_fwd.
//
// Grid: a persistent 1-D grid of %workgroups workgroups (P), 8 waves
// each; the host chooses P from the chip alone (one per compute unit, no
// more than a bound on the tiles from the shapes, ((total_q ceildiv 256)
// + B) H) and any positive P is correct.
//
// Tile scheduler. A tile is 256 query rows of one sequence and head, wave
// w its rows [32w, 32w + 32). A tile's cost is its KV blocks, which grow
// with its last row's last visible key; the schedule orders the tiles by
// that key, heaviest first, and deals them so that each workgroup's sum
// comes out even:
//   * levels: a tile's level is ceildiv(k_end, unit), k_end the keys up to
//     its last row's last visible key (0 when it sees none), unit 256 keys
//     (a multiple of 256 when the longest sequence has more than 32 x 256
//     keys, so that there are at most 33 levels). Along a sequence the
//     level does not fall, so the tiles of sequence b at level L are the
//     query tiles [f(b, L), f(b, L + 1)), f(b, L) the first at level L or
//     above: ntiles when len_k <= (L - 1) unit, else with causal masking
//     max(0, floor(((L - 1) unit - off) / 256)), off = len_k - len_q, and
//     0 without it (every tile of a sequence then shares one level); f(b,
//     0) = 0.
//   * ranks: the groups (L, b) in order of L from the top down, then b; a
//     group's tiles from its last query tile down, each tile's H heads in
//     turn. Level order is cost order up to the unit's width (host model:
//     figures.py --schedules).
//   * deal: round r of P ranks goes to the workgroups forwards when r is
//     even (workgroup wg takes rank r P + wg) and backwards when odd (r P +
//     P - 1 - wg), so a workgroup dealt a round's heaviest tile gets the
//     next round's lightest.
// Every workgroup walks the groups in that order with the offsets read from
// memory (four scalar loads per group, no division) and runs its tiles as
// its ranks come up: one loop of (levels + 1) B + (its tiles) steps, each
// a tile or a move to the next group, so that only seven scalars (the
// group's level, sequence, ranks and last tile, the workgroup's round and
// rank) stay live across a tile; a nest of loops over levels, sequences
// and rounds kept more and spilled into the KV loop (gfx942: 8.8% more
// cycles per block). A workgroup past its last rank runs its remaining
// steps empty; one dealt the last ranks walks every group. Before the
// walk, one pass over the offsets counts U = sum_b ceildiv(len_q(b), 256)
// and the longest len_k. Ranks are i32: U H must stay below 2^31. Every
// wave of a workgroup takes the same tiles, so the barriers of a tile
// match across its waves.
// Between tiles: the ping-pong region ends with every wave past its last
// cluster (waves 0-3 wait at the closing barrier for waves 4-7), so no
// wave still reads a stage when the next tile's prologue copies into it;
// the one copy left in flight, K block nkv + 1, is the wave's own and is
// waited for before the epilogue, and every wave copies the same rows of
// a stage in every copy, so the next prologue's copies into that stage
// follow it in the wave's own order.
// Why this grid:
//   * not FlashAttention's (ceildiv(max_seqlen_q, 256), H, B) with early
//     exit: that needs the longest length from the caller, and with
//     unbalanced lengths most of its workgroups are empty (a ramp of 16
//     lengths from 1/8 to 15/8 of the mean leaves half of them empty);
//     one workgroup per tile over a bound on the tile count (tried second)
//     still has up to B spare workgroups per head at the end of the grid;
//     the timing model samples six workgroups along the grid, the last one
//     included, and deals their times out to all, so either grid's spare
//     workgroups skewed its figures by a sixth or more (docs/timing.md,
//     "Sampling"); a persistent grid's workgroups all carry a share of
//     the tiles;
//   * ordered by cost rather than in sequence order: gemm_grouped's steps
//     of P (tried first) hand one workgroup the same query block of every
//     sequence when P is a multiple of a sequence's tile count (modelled
//     gfx950, 16 x 8192 causal: 66% of the dense kernel); a zigzag over
//     the sequence order (tried second, rounds of 2P, wg taking 2P r + wg
//     and 2P r + 2P - 1 - wg) pairs a late query block with an early one
//     within a sequence, but sequences of different lengths make each
//     round a sawtooth of costs: its slowest workgroup ran 1.35 times the
//     mean KV blocks for a ramp of 16 causal lengths (figures.py);
//   * static rather than a tile counter (hk.fetch_add): the eight waves
//     must take the same tile, handed over through LDS, which D = 128
//     fills on gfx942, and the timing model runs its sampled workgroups
//     one after another, so it could not time a shared counter.
// The cost: the two passes over the offsets, (levels + 2) B iterations.
// Skipped and masked tiles. The workgroup's KV blocks of 64 are
// [blk_lo, blk_hi): blk_hi from its last row's last visible key (causal:
// p of its last row; otherwise len_k - 1), blk_lo from its first row's
// window start (0 without a window). Blocks outside are never loaded or
// computed. Inside, every score tile goes through hk.bounds_mask (keys at
// or past len_k), hk.tril at row offset q0 + len_k - len_q (causal) and
// hk.triu at row offset q0 + len_k - len_q - W (window); the
// hk-peel-bounds pass runs the blocks whose masks keep everything without
// them: the window's edge cuts only a wave's first blocks and the causal
// diagonal and the key bound only its last ones, so the loop runs in three
// parts, masked, unmasked, masked (each wave splits at its own blocks; all
// three run the same barriers per block). Positions are signed i32 in the
// masks, so a negative row offset (len_q > len_k) is exact.
//
// Rows without a key. attention_fwd's online softmax assumes every row has
// a finite maximum after the first block. Here a row may see no key in a
// block (window, causal with len_q > len_k) or at all, so its reference
// maximum m may still be -inf: it subtracts 0 instead (P = exp2(-inf) = 0,
// not NaN), the rescale's alpha uses the same rule, and the final O / l
// divides by max(l, 1e-30), 0 for such a row; L = (m + log2 l) ln 2 is
// then -inf.
//
// Everything else (lazy rescaling, the scale folded into exp2, the
// clusters, the double buffers and their hazards two clusters apart, the
// copies issued after the reads, the register budget) is attention_fwd's;
// its header explains each. The KV loop runs over jj = j - blk_lo, the
// stages alternate with jj, and the prologue copies blocks blk_lo and
// blk_lo + 1. The D = 64 kernel does not ask for attention_fwd_d64's three
// waves per SIMD: under that cap of 168 registers the tile scheduler's
// state spilled, and a persistent grid runs one workgroup per compute unit
// whatever the residency.

// Register tiles shared by both head sizes.
!st_acc = tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
!s_rt = tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>>
!p_rt = tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>
!pt_rt = tensor<64x32xbf16, #hk.rt<col, 32x32, group = 4>>
!vec = tensor<32xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
!vec_mask = tensor<32xi1, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
!lse = memref<?x?xf32>
!lse_s = memref<?x?xf32, strided<[?, 1], offset: ?>>
!cu = memref<?xi32>

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
!g128 = memref<?x?x128xbf16, strided<[?, ?, 1]>>
!s128 = memref<?x?x128xbf16, strided<[?, ?, 1], offset: ?>>

hk.kernel @attention_varlen_d128(%Q: !g128, %K: !g128, %V: !g128,
    %O: !g128, %L: !lse, %cu_q: !cu, %cu_k: !cu, %workgroups: index,
    %causal: i1, %window: i32) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[arg(7)] -> (s0)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c8_i32 = arith.constant 8 : i32
  %c32_i32 = arith.constant 32 : i32
  %c256_i32 = arith.constant 256 : i32
  // 2^30, past any position: the window and the causal slack when off.
  %far = arith.constant 1073741824 : index
  %scale = arith.constant dense<0.127517432> : !s_rt
  %scale_v = arith.constant dense<0.127517432> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf = arith.constant 0xFF800000 : f32
  %zero_vec = arith.constant dense<0.0> : !vec
  %one_vec = arith.constant dense<1.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %threshold = arith.constant dense<8.0> : !vec
  %zero_o = arith.constant dense<0.0> : !oh_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  %ks = hk.alloc_shared : !k_st2_128
  %vs = hk.alloc_shared : !kv_st2_128

  %wg = hk.block_id x
  %count = hk.num_blocks x
  %w = hk.wave_id
  %heads = memref.dim %Q, %c0 : !g128
  %kv_heads = memref.dim %K, %c0 : !g128
  // In 32 bits, as attention_fwd's: a 64-bit division is about 40 scalar
  // instructions.
  %heads32 = arith.index_cast %heads : index to i32
  %kv_heads32 = arith.index_cast %kv_heads : index to i32
  %group = arith.divui %heads32, %kv_heads32 : i32
  %cu_len = memref.dim %cu_q, %c0 : !cu
  %batch = arith.subi %cu_len, %c1 : index

  // One pass over the offsets: U = sum_b ceildiv(len_q(b), 256) query
  // tiles, and the most keys of any sequence, which bounds the levels.
  %q_first = memref.load %cu_q[%c0] : !cu
  %k_first = memref.load %cu_k[%c0] : !cu
  %pass:4 = scf.for %b = %c0 to %batch step %c1
      iter_args(%u = %c0_i32, %kmax = %c0_i32, %qlo = %q_first,
                %klo = %k_first) -> (i32, i32, i32, i32) {
    %b1 = arith.addi %b, %c1 : index
    %qhi = memref.load %cu_q[%b1] : !cu
    %khi = memref.load %cu_k[%b1] : !cu
    %nq = arith.subi %qhi, %qlo : i32
    %nk = arith.subi %khi, %klo : i32
    %nt = arith.ceildivui %nq, %c256_i32 : i32
    %u1 = arith.addi %u, %nt : i32
    %kmax1 = arith.maxui %kmax, %nk : i32
    scf.yield %u1, %kmax1, %qhi, %khi : i32, i32, i32, i32
  }
  %all = arith.muli %pass#0, %heads32 : i32
  // Levels of %unit keys: 256, or a multiple of 256 that keeps them at
  // most 32 above level 0.
  %units = arith.ceildivui %pass#1, %c256_i32 : i32
  %coarse = arith.ceildivui %units, %c32_i32 : i32
  %coarse1 = arith.maxui %coarse, %c1_i32 : i32
  %unit = arith.muli %coarse1, %c256_i32 : i32
  %top = arith.ceildivui %pass#1, %unit : i32
  %levels32 = arith.addi %top, %c1_i32 : i32
  %batch32 = arith.index_cast %batch : index to i32
  %groups = arith.muli %levels32, %batch32 : i32

  // The snake deal: in round r workgroup wg takes rank r P + wg (r even)
  // or r P + P - 1 - wg (r odd). Its tiles: every round but the last, and
  // the last if its rank there is a tile.
  %p32 = arith.index_cast %count : index to i32
  %wg32 = arith.index_cast %wg : index to i32
  %p_last32 = arith.subi %p32, %c1_i32 : i32
  %wg_back = arith.subi %p_last32, %wg32 : i32
  %rounds = arith.ceildivui %all, %p32 : i32
  %last_r = arith.subi %rounds, %c1_i32 : i32
  %last_odd = arith.andi %last_r, %c1_i32 : i32
  %last_back = arith.cmpi ne, %last_odd, %c0_i32 : i32
  %last_pick = arith.select %last_back, %wg_back, %wg32 : i32
  %last_base = arith.muli %last_r, %p32 : i32
  %last_rank = arith.addi %last_base, %last_pick : i32
  %last_in = arith.cmpi ult, %last_rank, %all : i32
  %last_one = arith.extui %last_in : i1 to i32
  %own = arith.addi %last_r, %last_one : i32
  %own_any = arith.cmpi ugt, %rounds, %c0_i32 : i32
  %own_tiles = arith.select %own_any, %own, %c0_i32 : i32
  %steps32 = arith.addi %groups, %own_tiles : i32
  %steps = arith.index_castui %steps32 : i32 to index

  // Each step runs this workgroup's next tile if it lies in the current
  // group (level lev, sequence cb, ranks [first, end), its query tiles
  // below f1), else moves on to the next group; the walk passes every
  // group once and each tile takes one step, so the steps suffice. Past
  // its last tile a workgroup's steps do nothing. Only these seven values
  // live across a tile; the tile reloads its sequence's offsets.
  %cb_init = arith.constant -1 : i32
  scf.for %step = %c0 to %steps step %c1
      iter_args(%lev = %top, %cb = %cb_init, %first = %c0_i32,
                %end = %c0_i32, %f1 = %c0_i32, %round = %c0_i32,
                %next_rank = %wg32)
      -> (i32, i32, i32, i32, i32, i32, i32) {
    %run = arith.cmpi ult, %next_rank, %end : i32
    %next:7 = scf.if %run -> (i32, i32, i32, i32, i32, i32, i32) {
      // Rank first + H i + h: head h of query tile f1 - 1 - i.
      %in_grp = arith.subi %next_rank, %first : i32
      %qi32 = arith.divui %in_grp, %heads32 : i32
      %h32 = arith.remui %in_grp, %heads32 : i32
      %f1m = arith.subi %f1, %c1_i32 : i32
      %qblk32 = arith.subi %f1m, %qi32 : i32
      %qblk = arith.index_castui %qblk32 : i32 to index
      %h = arith.index_castui %h32 : i32 to index
      %hkv32 = arith.divui %h32, %group : i32
      %hkv = arith.index_castui %hkv32 : i32 to index
      %seq = arith.index_castui %cb : i32 to index
      %seq1 = arith.addi %seq, %c1 : index
      %q_lo_i = memref.load %cu_q[%seq] : !cu
      %q_hi_i = memref.load %cu_q[%seq1] : !cu
      %k_lo_i = memref.load %cu_k[%seq] : !cu
      %k_hi_i = memref.load %cu_k[%seq1] : !cu
      %q_lo = arith.index_castui %q_lo_i : i32 to index
      %q_hi = arith.index_castui %q_hi_i : i32 to index
      %k_lo = arith.index_castui %k_lo_i : i32 to index
      %k_hi = arith.index_castui %k_hi_i : i32 to index
      %len_q = arith.subi %q_hi, %q_lo : index
      %len_k = arith.subi %k_hi, %k_lo : index
      %r0 = arith.muli %qblk, %c256 : index

      // The sequence's rows of the packed tensors.
      %Qs = memref.subview %Q[0, %q_lo, 0] [%heads, %len_q, 128] [1, 1, 1]
          : !g128 to !s128
      %Os = memref.subview %O[0, %q_lo, 0] [%heads, %len_q, 128] [1, 1, 1]
          : !g128 to !s128
      %Ks = memref.subview %K[0, %k_lo, 0] [%kv_heads, %len_k, 128] [1, 1, 1]
          : !g128 to !s128
      %Vs = memref.subview %V[0, %k_lo, 0] [%kv_heads, %len_k, 128] [1, 1, 1]
          : !g128 to !s128
      %Ls = memref.subview %L[0, %q_lo] [%heads, %len_q] [1, 1]
          : !lse to !lse_s

      // Query row i sits at key position i + off (bottom-right alignment).
      %off = arith.subi %len_k, %len_q : index
      %win_i = arith.index_cast %window : i32 to index
      %windowed = arith.cmpi sge, %window, %c0_i32 : i32
      %win = arith.select %windowed, %win_i, %far : index
      %slack = arith.select %causal, %c0, %far : index

      // KV blocks [blk_lo, blk_hi) of the workgroup.
      %r_end = arith.addi %r0, %c256 : index
      %r_last_raw = arith.minui %r_end, %len_q : index
      %r_last = arith.subi %r_last_raw, %c1 : index
      %p_last = arith.addi %r_last, %off : index
      %p_last_s = arith.addi %p_last, %slack : index
      %len_k1 = arith.subi %len_k, %c1 : index
      %key_hi = arith.minsi %p_last_s, %len_k1 : index
      %key_hi1 = arith.addi %key_hi, %c1 : index
      %key_hi1c = arith.maxsi %key_hi1, %c0 : index
      %blk_hi = arith.ceildivui %key_hi1c, %c64 : index
      %p_first = arith.addi %r0, %off : index
      %key_lo_raw = arith.subi %p_first, %win : index
      %key_lo = arith.maxsi %key_lo_raw, %c0 : index
      %blk_lo_raw = arith.divui %key_lo, %c64 : index
      %blk_lo = arith.minui %blk_lo_raw, %blk_hi : index
      %nkv = arith.subi %blk_hi, %blk_lo : index

      // This wave's 32 query rows.
      %qblk8 = arith.muli %qblk, %c8 : index
      %qtile = arith.addi %qblk8, %w : index
      %q0 = arith.muli %qtile, %c32 : index
      // The wave's first row's position and last row's window start.
      %wp0 = arith.addi %q0, %off : index
      %q_end = arith.addi %q0, %c32 : index
      %wstart = arith.subi %wp0, %win : index
      // Element bounds: row r of the wave sees keys [pos - win, pos + slack]
      // within [0, len_k), pos = q0 + off + r.

      %q = hk.load %Qs[%h, %qtile, %c0] : !s128 -> !q_rt128

      %ks0 = hk.subtile %ks[%c0, %c0] : !k_st2_128 -> !k_st128
      %vs0 = hk.subtile %vs[%c0, %c0] : !kv_st2_128 -> !kv_st128
      %ks1 = hk.subtile %ks[%c1, %c0] : !k_st2_128 -> !k_st128
      %blk_lo1 = arith.addi %blk_lo, %c1 : index
      %tk0 = hk.load_async %Ks[%hkv, %blk_lo, %c0], %ks0 : !s128, !k_st128
      %tv0 = hk.load_async %Vs[%hkv, %blk_lo, %c0], %vs0 : !s128, !kv_st128
      %tk1 = hk.load_async %Ks[%hkv, %blk_lo1, %c0], %ks1 : !s128, !k_st128
      hk.wait %tk0, %tv0
      hk.barrier

      %res:5 = hk.ping_pong -> !oh_rt128, !oh_rt128, !vec, !vec, !hk.token {
        %r:5 = scf.for %jj = %c0 to %nkv step %c1
            iter_args(%o0 = %zero_o, %o1 = %zero_o, %m = %m_init,
                      %l = %zero_vec, %tkn = %tk1)
            -> (!oh_rt128, !oh_rt128, !vec, !vec, !hk.token) {
          %j = arith.addi %blk_lo, %jj : index
          %s = arith.remui %jj, %c2 : index
          %j1 = arith.addi %j, %c1 : index
          %s1 = arith.subi %c1, %s : index
          %k_stage = hk.subtile %ks[%s, %c0] : !k_st2_128 -> !k_st128
          %v_next = hk.subtile %vs[%s1, %c0] : !kv_st2_128 -> !kv_st128
          %v_lo = hk.subtile %vs[%s, %c0] : !kv_st2_128 -> !vh_st128
          %v_hi = hk.subtile %vs[%s, %c1] : !kv_st2_128 -> !vh_st128
          %k0 = arith.muli %j, %c64 : index

          %kt, %nv = hk.cluster memory -> !k_rt128, !hk.token {
            %kr = hk.load %k_stage : !k_st128 -> !k_rt128
            hk.sched_barrier 0
            %t1 = hk.load_async %Vs[%hkv, %j1, %c0], %v_next
                : !s128, !kv_st128
            hk.yield %kr, %t1 : !k_rt128, !hk.token
          }

          %pt, %mn, %ln, %alpha, %rescale = hk.cluster compute pair = mfma_exp
              -> !pt_rt, !vec, !vec, !vec, i1 {
            %st = hk.mma abt %kt, %q, %zero_s : !k_rt128, !q_rt128, !st_acc
            %sr = hk.transpose %st : !st_acc -> !s_rt
            %s3 = hk.bounds_mask %sr at [%q0, %k0] within [%q_end, %len_k]
                fill %neginf : !s_rt
            %s3c = scf.if %causal -> !s_rt {
              %sc = hk.tril %s3 at [%wp0, %k0] fill %neginf : !s_rt
              scf.yield %sc : !s_rt
            } else {
              scf.yield %s3 : !s_rt
            }
            %s4 = scf.if %windowed -> !s_rt {
              %sw = hk.triu %s3c at [%wstart, %k0] fill %neginf : !s_rt
              scf.yield %sw : !s_rt
            } else {
              scf.yield %s3c : !s_rt
            }
            %rm = hk.row_reduce max %s4 : !s_rt -> !vec
            %rms = arith.mulf %rm, %scale_v : !vec
            %grow = arith.subf %rms, %m : !vec
            %grew = arith.cmpf ogt, %grow, %threshold : !vec
            %re = hk.any %grew expect false : !vec_mask
            %mx, %al, %la = scf.if %re -> (!vec, !vec, !vec) {
              %mxr = arith.maxnumf %m, %rms : !vec
              %nk0 = arith.cmpf oeq, %mxr, %m_init : !vec
              %mxs = arith.select %nk0, %zero_vec, %mxr : !vec_mask, !vec
              %dm = arith.subf %m, %mxs : !vec
              %alr = math.exp2 %dm : !vec
              %lar = arith.mulf %l, %alr : !vec
              scf.yield %mxr, %alr, %lar : !vec, !vec, !vec
            } else {
              scf.yield %m, %one_vec, %l : !vec, !vec, !vec
            }
            // A row without a key so far keeps m = -inf and subtracts 0, so
            // that its P is exp2(-inf) = 0 rather than NaN.
            %none = arith.cmpf oeq, %mx, %m_init : !vec
            %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
            %s5 = arith.mulf %s4, %scale fastmath<contract> : !s_rt
            %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
            %e = math.exp2 %sd : !s_rt
            %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
            %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
            %ptr = hk.transpose %pb : !p_rt -> !pt_rt
            hk.yield %ptr, %mx, %sum, %al, %re : !pt_rt, !vec, !vec, !vec, i1
          }

          %vt0, %nk = hk.cluster memory -> !vh_rt128, !hk.token {
            %vr = hk.load %v_lo : !vh_st128 -> !vh_rt128
            hk.sched_barrier 0
            %j2 = arith.addi %j, %c2 : index
            %t0 = hk.load_async %Ks[%hkv, %j2, %c0], %k_stage
                : !s128, !k_st128
            hk.wait %tkn
            hk.yield %vr, %t0 : !vh_rt128, !hk.token
          }

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

          %vt1 = hk.cluster memory -> !vh_rt128 {
            %vr = hk.load %v_hi : !vh_st128 -> !vh_rt128
            hk.wait %nv
            hk.yield %vr : !vh_rt128
          }

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

      %l_safe = arith.maximumf %res#3, %tiny : !vec
      %of0 = hk.row_broadcast div %res#0, %l_safe : !oh_rt128, !vec
      %ob0 = arith.truncf %of0 : !oh_rt128 to !oh_out128
      hk.store %ob0, %Os[%h, %qtile, %c0] : !oh_out128, !s128
      %of1 = hk.row_broadcast div %res#1, %l_safe : !oh_rt128, !vec
      %ob1 = arith.truncf %of1 : !oh_rt128 to !oh_out128
      hk.store %ob1, %Os[%h, %qtile, %c1] : !oh_out128, !s128
      %log_l = math.log2 %res#3 : !vec
      %lse2 = arith.addf %res#2, %log_l : !vec
      %lse = arith.mulf %lse2, %ln2 : !vec
      hk.store %lse, %Ls[%h, %qtile] : !vec, !lse_s
      // The next round and its rank.
      %round1 = arith.addi %round, %c1_i32 : i32
      %odd = arith.andi %round1, %c1_i32 : i32
      %back = arith.cmpi ne, %odd, %c0_i32 : i32
      %pick = arith.select %back, %wg_back, %wg32 : i32
      %base = arith.muli %round1, %p32 : i32
      %rank1 = arith.addi %base, %pick : i32
      scf.yield %lev, %cb, %first, %end, %f1, %round1, %rank1
          : i32, i32, i32, i32, i32, i32, i32
    } else {
      %busy = arith.cmpi ult, %next_rank, %all : i32
      %moved:4 = scf.if %busy -> (i32, i32, i32, i32) {
        // The next group: the next sequence, or the first a level down.
        %cb1 = arith.addi %cb, %c1_i32 : i32
        %wrap = arith.cmpi eq, %cb1, %batch32 : i32
        %lev_dn = arith.subi %lev, %c1_i32 : i32
        %nlev = arith.select %wrap, %lev_dn, %lev : i32
        %ncb = arith.select %wrap, %c0_i32, %cb1 : i32
        %sb = arith.index_castui %ncb : i32 to index
        %sb1 = arith.addi %sb, %c1 : index
        %sq = memref.load %cu_q[%sb] : !cu
        %sk = memref.load %cu_k[%sb] : !cu
        %sq_hi = memref.load %cu_q[%sb1] : !cu
        %sk_hi = memref.load %cu_k[%sb1] : !cu
        %len_q32 = arith.subi %sq_hi, %sq : i32
        %len_k32 = arith.subi %sk_hi, %sk : i32
        %ntiles = arith.ceildivui %len_q32, %c256_i32 : i32
        %off32 = arith.subi %len_k32, %len_q32 : i32
        // A tile reaches level L when it sees a key at or past (L - 1)
        // unit: lim0 for this level, lim1 for the one above. The first
        // query tile that sees a key at or past lim: none when the
        // sequence has at most lim keys; with causal masking the first
        // whose last row r, 256 q + 255, has r + off >= lim; else tile 0.
        %lim1 = arith.muli %nlev, %unit : i32
        %lim0 = arith.subi %lim1, %unit : i32
        %x0 = arith.subi %lim0, %off32 : i32
        %x1 = arith.subi %lim1, %off32 : i32
        %y0 = arith.shrsi %x0, %c8_i32 : i32
        %y1 = arith.shrsi %x1, %c8_i32 : i32
        %z0 = arith.maxsi %y0, %c0_i32 : i32
        %z1 = arith.maxsi %y1, %c0_i32 : i32
        %c0q = arith.select %causal, %z0, %c0_i32 : i32
        %c1q = arith.select %causal, %z1, %c0_i32 : i32
        %has0 = arith.cmpi sgt, %len_k32, %lim0 : i32
        %has1 = arith.cmpi sgt, %len_k32, %lim1 : i32
        %g0 = arith.select %has0, %c0q, %ntiles : i32
        %nf1 = arith.select %has1, %c1q, %ntiles : i32
        // Level 0 holds every tile left, those without keys included.
        %bottom = arith.cmpi eq, %nlev, %c0_i32 : i32
        %f0 = arith.select %bottom, %c0_i32, %g0 : i32
        // The group: query tiles [f0, f1) of the sequence, H ranks each.
        %nq_grp = arith.subi %nf1, %f0 : i32
        %n_grp = arith.muli %nq_grp, %heads32 : i32
        %nend = arith.addi %end, %n_grp : i32
        scf.yield %nlev, %ncb, %nend, %nf1 : i32, i32, i32, i32
      } else {
        scf.yield %lev, %cb, %end, %f1 : i32, i32, i32, i32
      }
      scf.yield %moved#0, %moved#1, %end, %moved#2, %moved#3, %round,
          %next_rank : i32, i32, i32, i32, i32, i32, i32
    }
    scf.yield %next#0, %next#1, %next#2, %next#3, %next#4, %next#5, %next#6
        : i32, i32, i32, i32, i32, i32, i32
  }
  hk.return
}

// ---------------------------------------------------------------------------
// D = 64: scale = log2(e) / sqrt(64) = 0.18033688011112042
// ---------------------------------------------------------------------------
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
!g64 = memref<?x?x64xbf16, strided<[?, ?, 1]>>
!s64 = memref<?x?x64xbf16, strided<[?, ?, 1], offset: ?>>

hk.kernel @attention_varlen_d64(%Q: !g64, %K: !g64, %V: !g64,
    %O: !g64, %L: !lse, %cu_q: !cu, %cu_k: !cu, %workgroups: index,
    %causal: i1, %window: i32) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[arg(7)] -> (s0)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c8_i32 = arith.constant 8 : i32
  %c32_i32 = arith.constant 32 : i32
  %c256_i32 = arith.constant 256 : i32
  // 2^30, past any position: the window and the causal slack when off.
  %far = arith.constant 1073741824 : index
  %scale = arith.constant dense<0.180336878> : !s_rt
  %scale_v = arith.constant dense<0.180336878> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf = arith.constant 0xFF800000 : f32
  %zero_vec = arith.constant dense<0.0> : !vec
  %one_vec = arith.constant dense<1.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %threshold = arith.constant dense<8.0> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt64
  %zero_s = arith.constant dense<0.0> : !st_acc

  %ks = hk.alloc_shared : !k_st2_64
  %vs = hk.alloc_shared : !kv_st2_64

  %wg = hk.block_id x
  %count = hk.num_blocks x
  %w = hk.wave_id
  %heads = memref.dim %Q, %c0 : !g64
  %kv_heads = memref.dim %K, %c0 : !g64
  // In 32 bits, as attention_fwd's: a 64-bit division is about 40 scalar
  // instructions.
  %heads32 = arith.index_cast %heads : index to i32
  %kv_heads32 = arith.index_cast %kv_heads : index to i32
  %group = arith.divui %heads32, %kv_heads32 : i32
  %cu_len = memref.dim %cu_q, %c0 : !cu
  %batch = arith.subi %cu_len, %c1 : index

  // One pass over the offsets: U = sum_b ceildiv(len_q(b), 256) query
  // tiles, and the most keys of any sequence, which bounds the levels.
  %q_first = memref.load %cu_q[%c0] : !cu
  %k_first = memref.load %cu_k[%c0] : !cu
  %pass:4 = scf.for %b = %c0 to %batch step %c1
      iter_args(%u = %c0_i32, %kmax = %c0_i32, %qlo = %q_first,
                %klo = %k_first) -> (i32, i32, i32, i32) {
    %b1 = arith.addi %b, %c1 : index
    %qhi = memref.load %cu_q[%b1] : !cu
    %khi = memref.load %cu_k[%b1] : !cu
    %nq = arith.subi %qhi, %qlo : i32
    %nk = arith.subi %khi, %klo : i32
    %nt = arith.ceildivui %nq, %c256_i32 : i32
    %u1 = arith.addi %u, %nt : i32
    %kmax1 = arith.maxui %kmax, %nk : i32
    scf.yield %u1, %kmax1, %qhi, %khi : i32, i32, i32, i32
  }
  %all = arith.muli %pass#0, %heads32 : i32
  // Levels of %unit keys: 256, or a multiple of 256 that keeps them at
  // most 32 above level 0.
  %units = arith.ceildivui %pass#1, %c256_i32 : i32
  %coarse = arith.ceildivui %units, %c32_i32 : i32
  %coarse1 = arith.maxui %coarse, %c1_i32 : i32
  %unit = arith.muli %coarse1, %c256_i32 : i32
  %top = arith.ceildivui %pass#1, %unit : i32
  %levels32 = arith.addi %top, %c1_i32 : i32
  %batch32 = arith.index_cast %batch : index to i32
  %groups = arith.muli %levels32, %batch32 : i32

  // The snake deal: in round r workgroup wg takes rank r P + wg (r even)
  // or r P + P - 1 - wg (r odd). Its tiles: every round but the last, and
  // the last if its rank there is a tile.
  %p32 = arith.index_cast %count : index to i32
  %wg32 = arith.index_cast %wg : index to i32
  %p_last32 = arith.subi %p32, %c1_i32 : i32
  %wg_back = arith.subi %p_last32, %wg32 : i32
  %rounds = arith.ceildivui %all, %p32 : i32
  %last_r = arith.subi %rounds, %c1_i32 : i32
  %last_odd = arith.andi %last_r, %c1_i32 : i32
  %last_back = arith.cmpi ne, %last_odd, %c0_i32 : i32
  %last_pick = arith.select %last_back, %wg_back, %wg32 : i32
  %last_base = arith.muli %last_r, %p32 : i32
  %last_rank = arith.addi %last_base, %last_pick : i32
  %last_in = arith.cmpi ult, %last_rank, %all : i32
  %last_one = arith.extui %last_in : i1 to i32
  %own = arith.addi %last_r, %last_one : i32
  %own_any = arith.cmpi ugt, %rounds, %c0_i32 : i32
  %own_tiles = arith.select %own_any, %own, %c0_i32 : i32
  %steps32 = arith.addi %groups, %own_tiles : i32
  %steps = arith.index_castui %steps32 : i32 to index

  // Each step runs this workgroup's next tile if it lies in the current
  // group (level lev, sequence cb, ranks [first, end), its query tiles
  // below f1), else moves on to the next group; the walk passes every
  // group once and each tile takes one step, so the steps suffice. Past
  // its last tile a workgroup's steps do nothing. Only these seven values
  // live across a tile; the tile reloads its sequence's offsets.
  %cb_init = arith.constant -1 : i32
  scf.for %step = %c0 to %steps step %c1
      iter_args(%lev = %top, %cb = %cb_init, %first = %c0_i32,
                %end = %c0_i32, %f1 = %c0_i32, %round = %c0_i32,
                %next_rank = %wg32)
      -> (i32, i32, i32, i32, i32, i32, i32) {
    %run = arith.cmpi ult, %next_rank, %end : i32
    %next:7 = scf.if %run -> (i32, i32, i32, i32, i32, i32, i32) {
      // Rank first + H i + h: head h of query tile f1 - 1 - i.
      %in_grp = arith.subi %next_rank, %first : i32
      %qi32 = arith.divui %in_grp, %heads32 : i32
      %h32 = arith.remui %in_grp, %heads32 : i32
      %f1m = arith.subi %f1, %c1_i32 : i32
      %qblk32 = arith.subi %f1m, %qi32 : i32
      %qblk = arith.index_castui %qblk32 : i32 to index
      %h = arith.index_castui %h32 : i32 to index
      %hkv32 = arith.divui %h32, %group : i32
      %hkv = arith.index_castui %hkv32 : i32 to index
      %seq = arith.index_castui %cb : i32 to index
      %seq1 = arith.addi %seq, %c1 : index
      %q_lo_i = memref.load %cu_q[%seq] : !cu
      %q_hi_i = memref.load %cu_q[%seq1] : !cu
      %k_lo_i = memref.load %cu_k[%seq] : !cu
      %k_hi_i = memref.load %cu_k[%seq1] : !cu
      %q_lo = arith.index_castui %q_lo_i : i32 to index
      %q_hi = arith.index_castui %q_hi_i : i32 to index
      %k_lo = arith.index_castui %k_lo_i : i32 to index
      %k_hi = arith.index_castui %k_hi_i : i32 to index
      %len_q = arith.subi %q_hi, %q_lo : index
      %len_k = arith.subi %k_hi, %k_lo : index
      %r0 = arith.muli %qblk, %c256 : index

      // The sequence's rows of the packed tensors.
      %Qs = memref.subview %Q[0, %q_lo, 0] [%heads, %len_q, 64] [1, 1, 1]
          : !g64 to !s64
      %Os = memref.subview %O[0, %q_lo, 0] [%heads, %len_q, 64] [1, 1, 1]
          : !g64 to !s64
      %Ks = memref.subview %K[0, %k_lo, 0] [%kv_heads, %len_k, 64] [1, 1, 1]
          : !g64 to !s64
      %Vs = memref.subview %V[0, %k_lo, 0] [%kv_heads, %len_k, 64] [1, 1, 1]
          : !g64 to !s64
      %Ls = memref.subview %L[0, %q_lo] [%heads, %len_q] [1, 1]
          : !lse to !lse_s

      // Query row i sits at key position i + off (bottom-right alignment).
      %off = arith.subi %len_k, %len_q : index
      %win_i = arith.index_cast %window : i32 to index
      %windowed = arith.cmpi sge, %window, %c0_i32 : i32
      %win = arith.select %windowed, %win_i, %far : index
      %slack = arith.select %causal, %c0, %far : index

      // KV blocks [blk_lo, blk_hi) of the workgroup.
      %r_end = arith.addi %r0, %c256 : index
      %r_last_raw = arith.minui %r_end, %len_q : index
      %r_last = arith.subi %r_last_raw, %c1 : index
      %p_last = arith.addi %r_last, %off : index
      %p_last_s = arith.addi %p_last, %slack : index
      %len_k1 = arith.subi %len_k, %c1 : index
      %key_hi = arith.minsi %p_last_s, %len_k1 : index
      %key_hi1 = arith.addi %key_hi, %c1 : index
      %key_hi1c = arith.maxsi %key_hi1, %c0 : index
      %blk_hi = arith.ceildivui %key_hi1c, %c64 : index
      %p_first = arith.addi %r0, %off : index
      %key_lo_raw = arith.subi %p_first, %win : index
      %key_lo = arith.maxsi %key_lo_raw, %c0 : index
      %blk_lo_raw = arith.divui %key_lo, %c64 : index
      %blk_lo = arith.minui %blk_lo_raw, %blk_hi : index
      %nkv = arith.subi %blk_hi, %blk_lo : index

      // This wave's 32 query rows.
      %qblk8 = arith.muli %qblk, %c8 : index
      %qtile = arith.addi %qblk8, %w : index
      %q0 = arith.muli %qtile, %c32 : index
      // The wave's first row's position and last row's window start.
      %wp0 = arith.addi %q0, %off : index
      %q_end = arith.addi %q0, %c32 : index
      %wstart = arith.subi %wp0, %win : index
      // Element bounds: row r of the wave sees keys [pos - win, pos + slack]
      // within [0, len_k), pos = q0 + off + r.

      %q = hk.load %Qs[%h, %qtile, %c0] : !s64 -> !q_rt64

      %ks0 = hk.subtile %ks[%c0, %c0] : !k_st2_64 -> !k_st64
      %vs0 = hk.subtile %vs[%c0, %c0] : !kv_st2_64 -> !kv_st64
      %ks1 = hk.subtile %ks[%c1, %c0] : !k_st2_64 -> !k_st64
      %blk_lo1 = arith.addi %blk_lo, %c1 : index
      %tk0 = hk.load_async %Ks[%hkv, %blk_lo, %c0], %ks0 : !s64, !k_st64
      %tv0 = hk.load_async %Vs[%hkv, %blk_lo, %c0], %vs0 : !s64, !kv_st64
      %tk1 = hk.load_async %Ks[%hkv, %blk_lo1, %c0], %ks1 : !s64, !k_st64
      hk.wait %tk0, %tv0
      hk.barrier

      %res:4 = hk.ping_pong -> !o_rt64, !vec, !vec, !hk.token {
        %r:4 = scf.for %jj = %c0 to %nkv step %c1
            iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec,
                      %tkn = %tk1)
            -> (!o_rt64, !vec, !vec, !hk.token) {
          %j = arith.addi %blk_lo, %jj : index
          %s = arith.remui %jj, %c2 : index
          %j1 = arith.addi %j, %c1 : index
          %s1 = arith.subi %c1, %s : index
          %k_stage = hk.subtile %ks[%s, %c0] : !k_st2_64 -> !k_st64
          %v_stage = hk.subtile %vs[%s, %c0] : !kv_st2_64 -> !kv_st64
          %v_next = hk.subtile %vs[%s1, %c0] : !kv_st2_64 -> !kv_st64
          %k0 = arith.muli %j, %c64 : index

          // 4j: read block j; refill V stage s1 with block j + 1.
          %kt, %vt, %nv = hk.cluster memory -> !k_rt64, !v_rt64, !hk.token {
            %kr = hk.load %k_stage : !k_st64 -> !k_rt64
            %vr = hk.load %v_stage : !kv_st64 -> !v_rt64
            hk.sched_barrier 0
            %t1 = hk.load_async %Vs[%hkv, %j1, %c0], %v_next
                : !s64, !kv_st64
            hk.yield %kr, %vr, %t1 : !k_rt64, !v_rt64, !hk.token
          }

          // 4j+1: scores, the mask, online softmax.
          %p, %mn, %ln, %alpha, %rescale = hk.cluster compute pair = mfma_exp
              -> !s_rt, !vec, !vec, !vec, i1 {
            %st = hk.mma abt %kt, %q, %zero_s : !k_rt64, !q_rt64, !st_acc
            %sr = hk.transpose %st : !st_acc -> !s_rt
            %s3 = hk.bounds_mask %sr at [%q0, %k0] within [%q_end, %len_k]
                fill %neginf : !s_rt
            %s3c = scf.if %causal -> !s_rt {
              %sc = hk.tril %s3 at [%wp0, %k0] fill %neginf : !s_rt
              scf.yield %sc : !s_rt
            } else {
              scf.yield %s3 : !s_rt
            }
            %s4 = scf.if %windowed -> !s_rt {
              %sw = hk.triu %s3c at [%wstart, %k0] fill %neginf : !s_rt
              scf.yield %sw : !s_rt
            } else {
              scf.yield %s3c : !s_rt
            }
            %rm = hk.row_reduce max %s4 : !s_rt -> !vec
            %rms = arith.mulf %rm, %scale_v : !vec
            %grow = arith.subf %rms, %m : !vec
            %grew = arith.cmpf ogt, %grow, %threshold : !vec
            %re = hk.any %grew expect false : !vec_mask
            %mx, %al, %la = scf.if %re -> (!vec, !vec, !vec) {
              %mxr = arith.maxnumf %m, %rms : !vec
              %nk0 = arith.cmpf oeq, %mxr, %m_init : !vec
              %mxs = arith.select %nk0, %zero_vec, %mxr : !vec_mask, !vec
              %dm = arith.subf %m, %mxs : !vec
              %alr = math.exp2 %dm : !vec
              %lar = arith.mulf %l, %alr : !vec
              scf.yield %mxr, %alr, %lar : !vec, !vec, !vec
            } else {
              scf.yield %m, %one_vec, %l : !vec, !vec, !vec
            }
            // A row without a key so far keeps m = -inf and subtracts 0, so
            // that its P is exp2(-inf) = 0 rather than NaN.
            %none = arith.cmpf oeq, %mx, %m_init : !vec
            %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
            %s5 = arith.mulf %s4, %scale fastmath<contract> : !s_rt
            %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
            %e = math.exp2 %sd : !s_rt
            %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
            hk.yield %e, %mx, %sum, %al, %re : !s_rt, !vec, !vec, !vec, i1
          }

          // 4j+2: refill K stage s with block j + 2; wait for this wave's
          // copies of K and V block j + 1.
          %nk = hk.cluster memory -> !hk.token {
            %j2 = arith.addi %j, %c2 : index
            %t0 = hk.load_async %Ks[%hkv, %j2, %c0], %k_stage : !s64, !k_st64
            hk.wait %tkn, %nv
            hk.yield %t0 : !hk.token
          }

          // 4j+3: O = alpha O + P V, as O^T = alpha O^T + V^T P^T.
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
          scf.yield %o2, %mn, %ln, %nk : !o_rt64, !vec, !vec, !hk.token
        }
        hk.yield %r#0, %r#1, %r#2, %r#3 : !o_rt64, !vec, !vec, !hk.token
      }
      hk.wait %res#3

      %l_safe = arith.maximumf %res#2, %tiny : !vec
      %of = hk.row_broadcast div %res#0, %l_safe : !o_rt64, !vec
      %ob = arith.truncf %of : !o_rt64 to !o_out64
      hk.store %ob, %Os[%h, %qtile, %c0] : !o_out64, !s64
      %log_l = math.log2 %res#2 : !vec
      %lse2 = arith.addf %res#1, %log_l : !vec
      %lse = arith.mulf %lse2, %ln2 : !vec
      hk.store %lse, %Ls[%h, %qtile] : !vec, !lse_s
      // The next round and its rank.
      %round1 = arith.addi %round, %c1_i32 : i32
      %odd = arith.andi %round1, %c1_i32 : i32
      %back = arith.cmpi ne, %odd, %c0_i32 : i32
      %pick = arith.select %back, %wg_back, %wg32 : i32
      %base = arith.muli %round1, %p32 : i32
      %rank1 = arith.addi %base, %pick : i32
      scf.yield %lev, %cb, %first, %end, %f1, %round1, %rank1
          : i32, i32, i32, i32, i32, i32, i32
    } else {
      %busy = arith.cmpi ult, %next_rank, %all : i32
      %moved:4 = scf.if %busy -> (i32, i32, i32, i32) {
        // The next group: the next sequence, or the first a level down.
        %cb1 = arith.addi %cb, %c1_i32 : i32
        %wrap = arith.cmpi eq, %cb1, %batch32 : i32
        %lev_dn = arith.subi %lev, %c1_i32 : i32
        %nlev = arith.select %wrap, %lev_dn, %lev : i32
        %ncb = arith.select %wrap, %c0_i32, %cb1 : i32
        %sb = arith.index_castui %ncb : i32 to index
        %sb1 = arith.addi %sb, %c1 : index
        %sq = memref.load %cu_q[%sb] : !cu
        %sk = memref.load %cu_k[%sb] : !cu
        %sq_hi = memref.load %cu_q[%sb1] : !cu
        %sk_hi = memref.load %cu_k[%sb1] : !cu
        %len_q32 = arith.subi %sq_hi, %sq : i32
        %len_k32 = arith.subi %sk_hi, %sk : i32
        %ntiles = arith.ceildivui %len_q32, %c256_i32 : i32
        %off32 = arith.subi %len_k32, %len_q32 : i32
        // A tile reaches level L when it sees a key at or past (L - 1)
        // unit: lim0 for this level, lim1 for the one above. The first
        // query tile that sees a key at or past lim: none when the
        // sequence has at most lim keys; with causal masking the first
        // whose last row r, 256 q + 255, has r + off >= lim; else tile 0.
        %lim1 = arith.muli %nlev, %unit : i32
        %lim0 = arith.subi %lim1, %unit : i32
        %x0 = arith.subi %lim0, %off32 : i32
        %x1 = arith.subi %lim1, %off32 : i32
        %y0 = arith.shrsi %x0, %c8_i32 : i32
        %y1 = arith.shrsi %x1, %c8_i32 : i32
        %z0 = arith.maxsi %y0, %c0_i32 : i32
        %z1 = arith.maxsi %y1, %c0_i32 : i32
        %c0q = arith.select %causal, %z0, %c0_i32 : i32
        %c1q = arith.select %causal, %z1, %c0_i32 : i32
        %has0 = arith.cmpi sgt, %len_k32, %lim0 : i32
        %has1 = arith.cmpi sgt, %len_k32, %lim1 : i32
        %g0 = arith.select %has0, %c0q, %ntiles : i32
        %nf1 = arith.select %has1, %c1q, %ntiles : i32
        // Level 0 holds every tile left, those without keys included.
        %bottom = arith.cmpi eq, %nlev, %c0_i32 : i32
        %f0 = arith.select %bottom, %c0_i32, %g0 : i32
        // The group: query tiles [f0, f1) of the sequence, H ranks each.
        %nq_grp = arith.subi %nf1, %f0 : i32
        %n_grp = arith.muli %nq_grp, %heads32 : i32
        %nend = arith.addi %end, %n_grp : i32
        scf.yield %nlev, %ncb, %nend, %nf1 : i32, i32, i32, i32
      } else {
        scf.yield %lev, %cb, %end, %f1 : i32, i32, i32, i32
      }
      scf.yield %moved#0, %moved#1, %end, %moved#2, %moved#3, %round,
          %next_rank : i32, i32, i32, i32, i32, i32, i32
    }
    scf.yield %next#0, %next#1, %next#2, %next#3, %next#4, %next#5, %next#6
        : i32, i32, i32, i32, i32, i32, i32
  }
  hk.return
}
