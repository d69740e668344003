// Attention decode (split KV) over a paged KV cache: a few query tokens per
// sequence against a long cache, the KV length split across workgroups,
// then a combine.
//
// For query head h, query token t (0 <= t < q_len) of sequence b,
//   O[b, h, t, :] = sum_j P[j] V_b[j, hk, :],  P = softmax_j(S),
//   S[j] = Q[b, h, t, :] . K_b[j, hk, :] / sqrt(D),
//   L[b, h, t]    = log sum_j exp(S[j])           (natural log),
// with hk = h / (H / H_kv) (GQA; MQA when H_kv = 1) and j running over the
// keys 0 <= j <= len_b - q_len + t, len_b = seq_lens[b]: the query tokens
// are the sequence's last q_len positions (speculative decoding), each
// seeing the keys up to its own. A query token without any key
// (len_b < q_len, len_b = 0) gets O = 0 and L = -inf.
//
// The cache is paged (vLLM's and SGLang's layout): K and V are pools of
// pages of P rows, [num_pages, P, H_kv, D], and key j of sequence b is row
// j mod P of page table[b, j / P]. A contiguous cache [B, N, H_kv, D] is
// the pool of B pages of N rows with the table [[0], [1], ..., [B - 1]]:
// the same kernel.
//
// Arguments of @attention_decode_d<D> and @attention_decode_p16_d<D> (D = 64,
// 128 or 256, part of the types):
//   %Q : memref<?x?x?xDxbf16>  [B, H_kv, G q_len, D]: Q held as
//        [B, H, q_len, D] (G = H / H_kv), whose G heads of one KV head are
//        G q_len consecutive rows; row r is head hk G + r / q_len, token
//        r mod q_len
//   %K, %V : [num_pages, H_kv, P, D] views of the pools, strided (a pool
//        held as [num_pages, P, H_kv, D] is the view with strides
//        [P H_kv D, D, H_kv D, 1]); P as the entry point needs (below)
//   %table : memref<?x?xi32> [B, max_blocks], the pages of each sequence;
//        entries past ceil(len_b / P) are never read. Page ids must be
//        below num_pages: a scalar load is not bounds checked
//   %seq_lens : memref<?xi32> [B], read by the kernel (memref.load)
//   %Op : memref<?x?x?x?xDxf32>  [B, H_kv, S, G q_len, D], the splits' O
//   %Lp : memref<?x?x?x?xf32>    [B, H_kv, S, G q_len], the splits' LSE
//   %q_len : index
// S, the split count, is the third dimension of Op and Lp: the caller
// chooses it (Reference.cpp's decodeSplits: enough workgroups for every
// compute unit of the chip, no more splits than KV blocks of the longest
// sequence) and allocates the partial results to match.
//
// Grid: (ceil(S / 4), H_kv, B), 4 waves. Wave w of workgroup (x, hk, b)
// is split s = 4x + w on its own (a split past S computes nothing and its
// stores are dropped): it takes KV blocks of 64 [s c, min((s + 1) c, nb)),
// nb = ceil(len_b / 64), c = ceil(nb / S), and, for each 32-row tile of the
// G q_len rows (usually one), runs the online softmax of attention_fwd over
// them: S^T = K Q^T with the 32x32 MFMAs, the scores relabelled as a row
// tile, O^T += V^T P^T. Four waves rather than one per workgroup: a
// workgroup of one wave of this size (up to 512 registers) is alone on its
// compute unit. The waves share nothing and never synchronise, so their
// loops may have different trip counts.
//
// The indirection, in two entry points per D. The page's id is a scalar
// load from the table (memref.load, an s_load at a uniform address), and
// the keys are read through a view of the pool (memref.subview at the page
// and row, cut at the split's last key, so that rows past it read zeros
// whatever the pool holds there: a P of 0 times a NaN would be NaN).
//   @attention_decode_d<D>: P a multiple of 64 (or one page per sequence,
//     the contiguous cache): a 64-key block lies in one page, one lookup
//     per block; K is loaded from global memory straight into the MFMA
//     operand layout, V in the row layout, stored into the wave's own 64xD
//     LDS tile and read back in the column layout O^T += V^T P^T needs.
//   @attention_decode_p16_d<D>: P a multiple of 16: a block is four chunks
//     of 16 keys, each in one page, one lookup each; the chunks are loaded
//     in the row layout and stored into the wave's LDS tile, from which K
//     is read in the MFMA operand layout and then V, over the same tile, in
//     the column layout.
// The causal limit of each row (its token's last key, or the split's) is
// one i32 tile built from hk.iota before the KV loop; a key past it is
// masked to -inf. A split without keys writes O = 0 and L = -inf.
//
// @attention_decode_fused_d128 and @attention_decode_fused_p16_d128 are the
// D = 128 entry points with the merge of their splits in the same launch:
// the last workgroup of each group, found with hk.fetch_add on a counter,
// merges the group, up a tree (their comment, below the merge's).
//
// @attention_decode_combine_d<D>(%Op, %Lp, %O, %L) merges the splits:
// O [B, H_kv, G q_len, D] bf16 (Q's layout), L [B, H_kv, G q_len] f32 (that
// is, [B, H, q_len]); grid (ceil(G q_len / 32) D / 32, H_kv, B), four waves
// per 32-column slice of a 32-row tile.

// Tiles shared by both head sizes.
!st_acc = tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
!s_rt = tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>>
!s_i32 = tensor<32x64xi32, #hk.rt<row, 32x32, group = 4>>
!s_mask = tensor<32x64xi1, #hk.rt<row, 32x32, group = 4>>
!p_rt = tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>
!pt_rt = tensor<64x32xbf16, #hk.rt<col, 32x32, group = 4>>
!vec = tensor<32xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
!vec_mask = tensor<32xi1, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
!lp = memref<?x?x?x?xf32>
// The combine's and the merge's 32-column slices of a partial O, and their
// LDS: each wave's O and LSE slices.
!o_slice = tensor<32x32xf32, #hk.rt<row, 32x32, group = 4>>
!o_out_slice = tensor<32x32xbf16, #hk.rt<row, 32x32, group = 4>>
!part_st = !hk.st<256x32xf32, 16x16>
!slice_st = !hk.st<32x32xf32, 16x16>

// ---------------------------------------------------------------------------
// D = 128: scale = log2(e) / sqrt(128) = 0.127517432
// ---------------------------------------------------------------------------
!q_rt128 = tensor<32x128xbf16, #hk.rt<row, 32x16>>
!k_rt128 = tensor<64x128xbf16, #hk.rt<row, 32x16>>
!v_rt128 = tensor<64x128xbf16, #hk.rt<col, 32x32, group = 4>>
!o_rt128 = tensor<32x128xf32, #hk.rt<row, 32x32, group = 4>>
!ot_acc128 = tensor<128x32xf32, #hk.rt<col, 32x32, group = 4>>
!q128 = memref<?x?x?x128xbf16>
!kv128 = memref<?x?x?x128xbf16, strided<[?, ?, ?, 1]>>
!op128 = memref<?x?x?x?x128xf32>
!kv_st128 = !hk.st<64x128xbf16, 16x32>
!kv_st4128 = !hk.st<256x128xbf16, 16x32>
!v_row128 = tensor<64x128xbf16, #hk.rt<row, 16x32>>
!chunk_rt128 = tensor<16x128xbf16, #hk.rt<row, 16x32>>
!chunk_st128 = !hk.st<16x128xbf16, 16x32>
!kv8_128 = memref<?x?x?x128x!hk.fp8, strided<[?, ?, ?, 1]>>
!k8_rt128 = tensor<64x128x!hk.fp8, #hk.rt<row, 32x16>>
!v8_row128 = tensor<64x128x!hk.fp8, #hk.rt<row, 16x32>>
!chunk8_rt128 = tensor<16x128x!hk.fp8, #hk.rt<row, 16x32>>

hk.kernel @attention_decode_d128(%Q: !q128, %K: !kv128, %V: !kv128,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op128, %Lp: !lp,
    %q_len: index)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 128 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %scale = arith.constant dense<0.127517432> : !s_rt
  %scale_v = arith.constant dense<0.127517432> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64xD LDS tile, through which V goes from the row
  // layout of its load to the column layout of O^T += V^T P^T.
  %kvs = hk.alloc_shared : !kv_st4128
  %w = hk.wave_id
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st4128 -> !kv_st128
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %kv_heads = memref.dim %K, %c1 : !kv128
  %page = memref.dim %K, %c2 : !kv128
  %splits = memref.dim %Op, %c2 : !op128
  %rows = memref.dim %Q, %c2 : !q128
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages, and entry 0 for an empty sequence (whose
  // loop does not run; P is at least 1 there, as the table's width).
  %len1 = arith.maxui %len, %c1 : index
  %last_key = arith.subi %len1, %c1 : index
  %page1 = arith.maxui %page, %c1 : index
  %last_pi = arith.divui %last_key, %page1 : index
  %lo_keys = arith.muli %lo, %c64 : index
  %lo_pi = arith.divui %lo_keys, %page1 : index
  %lo_ps = arith.muli %lo_pi, %page1 : index
  %lo_row = arith.subi %lo_keys, %lo_ps : index
  %lo_pi_c = arith.minui %lo_pi, %last_pi : index
  %lo_pid_i32 = memref.load %table[%b, %lo_pi_c] : memref<?x?xi32>
  %lo_pid = arith.index_castui %lo_pid_i32 : i32 to index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32
  %qlen_t = tensor.splat %qlen32 : !s_i32
  %first_t = tensor.splat %first32 : !s_i32
  %last_t = tensor.splat %last32 : !s_i32
  %row_pos = hk.iota row : !s_i32
  %col_pos = hk.iota col : !s_i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %r0_t = tensor.splat %r0_32 : !s_i32
    %r = arith.addi %row_pos, %r0_t : !s_i32
    %tok = arith.remui %r, %qlen_t : !s_i32
    %causal_last = arith.addi %tok, %first_t : !s_i32
    %limit = arith.minsi %causal_last, %last_t : !s_i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q128 -> !q_rt128

    %res:6 = scf.for %j = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec, %pid = %lo_pid,
                  %pi = %lo_pi, %row = %lo_row)
        -> (!o_rt128, !vec, !vec, index, index, index) {
      %k0 = arith.muli %j, %c64 : index
      // The block, keys k0 .. k0 + 63: rows k0 mod P .. + 63 of page %pid
      // (looked up one block ahead, so that the scalar load's latency is
      // not the block's).
      %row_tile = arith.divui %row, %c64 : index
      // The next block's page and row, without a division: P is a
      // multiple of 64 or holds the whole sequence.
      %kn = arith.addi %k0, %c64 : index
      %row_n = arith.addi %row, %c64 : index
      %wrap = arith.cmpi uge, %row_n, %page1 : index
      %pi_inc = arith.addi %pi, %c1 : index
      %pi_next = arith.select %wrap, %pi_inc, %pi : index
      %row_next = arith.select %wrap, %c0, %row_n : index
      %pi_load = arith.minui %pi_next, %last_pi : index
      %pid_next_i32 = memref.load %table[%b, %pi_load] : memref<?x?xi32>
      %pid_next = arith.index_castui %pid_next_i32 : i32 to index
      %kt = hk.load %K[%pid, %hkv, %row_tile, %c0] : !kv128 -> !k_rt128
      %vr = hk.load %V[%pid, %hkv, %row_tile, %c0] : !kv128 -> !v_row128
      // The last block of the sequence: its rows past the length hold
      // whatever the page does (a P of 0 times a NaN would be NaN), so they
      // are zeroed. K's are masked to -inf with the scores.
      %partial = arith.cmpi ugt, %kn, %len : index
      %vz = scf.if %partial -> (!v_row128) {
        %vm = hk.bounds_mask %vr at [%k0, %c0] within [%len, %cD]
            fill %zero_bf : !v_row128
        scf.yield %vm : !v_row128
      } else {
        scf.yield %vr : !v_row128
      }
      hk.store %vz, %kvw : !v_row128, !kv_st128
      %vt = hk.load %kvw : !kv_st128 -> !v_rt128
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt128, !q_rt128, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0_32 = arith.index_cast %k0 : index to i32
      %k0_t = tensor.splat %k0_32 : !s_i32
      %key = arith.addi %col_pos, %k0_t : !s_i32
      %seen = arith.cmpi sle, %key, %limit : !s_i32
      %sm = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T.
      %oa = hk.row_broadcast mul %o, %alpha : !o_rt128, !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      %ot = hk.transpose %oa : !o_rt128 -> !ot_acc128
      %ot2 = hk.mma atb %vt, %pt, %ot : !v_rt128, !pt_rt, !ot_acc128
      %on = hk.transpose %ot2 : !ot_acc128 -> !o_rt128
      scf.yield %on, %mx, %sum, %pid_next, %pi_next, %row_next
          : !o_rt128, !vec, !vec, index, index, index
    }

    // The split's O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %of = hk.row_broadcast div %res#0, %l_safe : !o_rt128, !vec
    hk.store %of, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt128, !op128
    %log_l = math.log2 %res#2 : !vec
    %lse2 = arith.addf %res#1, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

hk.kernel @attention_decode_p16_d128(%Q: !q128, %K: !kv128, %V: !kv128,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op128, %Lp: !lp,
    %q_len: index)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 128 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %scale = arith.constant dense<0.127517432> : !s_rt
  %scale_v = arith.constant dense<0.127517432> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64xD LDS tile: K's four 16-key chunks are stored into
  // it and read back in the MFMA operand layout, then V's likewise in the
  // column layout. One wave's LDS accesses execute in order, so V's stores
  // need no wait for K's reads.
  %kvs = hk.alloc_shared : !kv_st4128
  %w = hk.wave_id
  %w4 = arith.muli %w, %c4 : index
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st4128 -> !kv_st128
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %kv_heads = memref.dim %K, %c1 : !kv128
  %page = memref.dim %K, %c2 : !kv128
  %splits = memref.dim %Op, %c2 : !op128
  %rows = memref.dim %Q, %c2 : !q128
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages (the loop runs only when len > 0, so P > 0).
  %last_key = arith.subi %len, %c1 : index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32
  %qlen_t = tensor.splat %qlen32 : !s_i32
  %first_t = tensor.splat %first32 : !s_i32
  %last_t = tensor.splat %last32 : !s_i32
  %row_pos = hk.iota row : !s_i32
  %col_pos = hk.iota col : !s_i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %r0_t = tensor.splat %r0_32 : !s_i32
    %r = arith.addi %row_pos, %r0_t : !s_i32
    %tok = arith.remui %r, %qlen_t : !s_i32
    %causal_last = arith.addi %tok, %first_t : !s_i32
    %limit = arith.minsi %causal_last, %last_t : !s_i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q128 -> !q_rt128

    %res:3 = scf.for %j = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec)
        -> (!o_rt128, !vec, !vec) {
      %k0 = arith.muli %j, %c64 : index
      // Chunk 0: keys k0 + 0 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc0 = arith.addi %k0, %c0 : index
      %kl0 = arith.minui %kc0, %last_key : index
      %pi0 = arith.divui %kl0, %page : index
      %ps0 = arith.muli %pi0, %page : index
      %row0 = arith.subi %kc0, %ps0 : index
      %rt0 = arith.divui %row0, %c16 : index
      %pid0_i32 = memref.load %table[%b, %pi0] : memref<?x?xi32>
      %pid0 = arith.index_castui %pid0_i32 : i32 to index
      %kr0 = hk.load %K[%pid0, %hkv, %rt0, %c0] : !kv128 -> !chunk_rt128
      %vr0 = hk.load %V[%pid0, %hkv, %rt0, %c0] : !kv128 -> !chunk_rt128
      // Chunk 1: keys k0 + 16 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc1 = arith.addi %k0, %c16 : index
      %kl1 = arith.minui %kc1, %last_key : index
      %pi1 = arith.divui %kl1, %page : index
      %ps1 = arith.muli %pi1, %page : index
      %row1 = arith.subi %kc1, %ps1 : index
      %rt1 = arith.divui %row1, %c16 : index
      %pid1_i32 = memref.load %table[%b, %pi1] : memref<?x?xi32>
      %pid1 = arith.index_castui %pid1_i32 : i32 to index
      %kr1 = hk.load %K[%pid1, %hkv, %rt1, %c0] : !kv128 -> !chunk_rt128
      %vr1 = hk.load %V[%pid1, %hkv, %rt1, %c0] : !kv128 -> !chunk_rt128
      // Chunk 2: keys k0 + 32 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc2 = arith.addi %k0, %c32 : index
      %kl2 = arith.minui %kc2, %last_key : index
      %pi2 = arith.divui %kl2, %page : index
      %ps2 = arith.muli %pi2, %page : index
      %row2 = arith.subi %kc2, %ps2 : index
      %rt2 = arith.divui %row2, %c16 : index
      %pid2_i32 = memref.load %table[%b, %pi2] : memref<?x?xi32>
      %pid2 = arith.index_castui %pid2_i32 : i32 to index
      %kr2 = hk.load %K[%pid2, %hkv, %rt2, %c0] : !kv128 -> !chunk_rt128
      %vr2 = hk.load %V[%pid2, %hkv, %rt2, %c0] : !kv128 -> !chunk_rt128
      // Chunk 3: keys k0 + 48 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc3 = arith.addi %k0, %c48 : index
      %kl3 = arith.minui %kc3, %last_key : index
      %pi3 = arith.divui %kl3, %page : index
      %ps3 = arith.muli %pi3, %page : index
      %row3 = arith.subi %kc3, %ps3 : index
      %rt3 = arith.divui %row3, %c16 : index
      %pid3_i32 = memref.load %table[%b, %pi3] : memref<?x?xi32>
      %pid3 = arith.index_castui %pid3_i32 : i32 to index
      %kr3 = hk.load %K[%pid3, %hkv, %rt3, %c0] : !kv128 -> !chunk_rt128
      %vr3 = hk.load %V[%pid3, %hkv, %rt3, %c0] : !kv128 -> !chunk_rt128
      // The last block of the sequence: its rows past the length hold
      // whatever the pages do (a P of 0 times a NaN would be NaN), so V's
      // are zeroed. K's are masked to -inf with the scores.
      %kn = arith.addi %k0, %c64 : index
      %partial = arith.cmpi ugt, %kn, %len : index
      %vz:4 = scf.if %partial
          -> (!chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128) {
        %vm0 = hk.bounds_mask %vr0 at [%kc0, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        %vm1 = hk.bounds_mask %vr1 at [%kc1, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        %vm2 = hk.bounds_mask %vr2 at [%kc2, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        %vm3 = hk.bounds_mask %vr3 at [%kc3, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        scf.yield %vm0, %vm1, %vm2, %vm3
            : !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128
      } else {
        scf.yield %vr0, %vr1, %vr2, %vr3
            : !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128
      }
      // K, then V, through the wave's LDS tile.
      %ksub0 = arith.addi %w4, %c0 : index
      %kst0 = hk.subtile %kvs[%ksub0, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr0, %kst0 : !chunk_rt128, !chunk_st128
      %ksub1 = arith.addi %w4, %c1 : index
      %kst1 = hk.subtile %kvs[%ksub1, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr1, %kst1 : !chunk_rt128, !chunk_st128
      %ksub2 = arith.addi %w4, %c2 : index
      %kst2 = hk.subtile %kvs[%ksub2, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr2, %kst2 : !chunk_rt128, !chunk_st128
      %ksub3 = arith.addi %w4, %c3 : index
      %kst3 = hk.subtile %kvs[%ksub3, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr3, %kst3 : !chunk_rt128, !chunk_st128
      %kt = hk.load %kvw : !kv_st128 -> !k_rt128
      hk.store %vz#0, %kst0 : !chunk_rt128, !chunk_st128
      hk.store %vz#1, %kst1 : !chunk_rt128, !chunk_st128
      hk.store %vz#2, %kst2 : !chunk_rt128, !chunk_st128
      hk.store %vz#3, %kst3 : !chunk_rt128, !chunk_st128
      %vt = hk.load %kvw : !kv_st128 -> !v_rt128
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt128, !q_rt128, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0_32 = arith.index_cast %k0 : index to i32
      %k0_t = tensor.splat %k0_32 : !s_i32
      %key = arith.addi %col_pos, %k0_t : !s_i32
      %seen = arith.cmpi sle, %key, %limit : !s_i32
      %sm = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T.
      %oa = hk.row_broadcast mul %o, %alpha : !o_rt128, !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      %ot = hk.transpose %oa : !o_rt128 -> !ot_acc128
      %ot2 = hk.mma atb %vt, %pt, %ot : !v_rt128, !pt_rt, !ot_acc128
      %on = hk.transpose %ot2 : !ot_acc128 -> !o_rt128
      scf.yield %on, %mx, %sum : !o_rt128, !vec, !vec
    }

    // The split's O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %of = hk.row_broadcast div %res#0, %l_safe : !o_rt128, !vec
    hk.store %of, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt128, !op128
    %log_l = math.log2 %res#2 : !vec
    %lse2 = arith.addf %res#1, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

hk.kernel @attention_decode_fp8_d128(%Q: !q128, %K: !kv8_128, %V: !kv8_128,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op128, %Lp: !lp,
    %q_len: index, %k_scale: memref<?xf32>, %v_scale: memref<?xf32>)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 128 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %score_scale = arith.constant 0.127517432 : f32
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64xD LDS tile, through which V goes from the row
  // layout of its load to the column layout of O^T += V^T P^T.
  %kvs = hk.alloc_shared : !kv_st4128
  %w = hk.wave_id
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st4128 -> !kv_st128
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  // The KV head's scales: k_scale[hk] and v_scale[hk] of per-head arrays
  // ([H_kv]), or element 0 of per-tensor ones ([1]). K's multiplies the
  // scores (with log2(e) / sqrt(D)), V's the output.
  %ks_n = memref.dim %k_scale, %c0 : memref<?xf32>
  %ks_last = arith.subi %ks_n, %c1 : index
  %ks_i = arith.minui %hkv, %ks_last : index
  %sk = memref.load %k_scale[%ks_i] : memref<?xf32>
  %vs_n = memref.dim %v_scale, %c0 : memref<?xf32>
  %vs_last = arith.subi %vs_n, %c1 : index
  %vs_i = arith.minui %hkv, %vs_last : index
  %sv = memref.load %v_scale[%vs_i] : memref<?xf32>
  %skc = arith.mulf %sk, %score_scale : f32
  %scale = tensor.splat %skc : !s_rt
  %scale_v = tensor.splat %skc : !vec
  %sv_v = tensor.splat %sv : !vec
  %kv_heads = memref.dim %K, %c1 : !kv8_128
  %page = memref.dim %K, %c2 : !kv8_128
  %splits = memref.dim %Op, %c2 : !op128
  %rows = memref.dim %Q, %c2 : !q128
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages, and entry 0 for an empty sequence (whose
  // loop does not run; P is at least 1 there, as the table's width).
  %len1 = arith.maxui %len, %c1 : index
  %last_key = arith.subi %len1, %c1 : index
  %page1 = arith.maxui %page, %c1 : index
  %last_pi = arith.divui %last_key, %page1 : index
  %lo_keys = arith.muli %lo, %c64 : index
  %lo_pi = arith.divui %lo_keys, %page1 : index
  %lo_ps = arith.muli %lo_pi, %page1 : index
  %lo_row = arith.subi %lo_keys, %lo_ps : index
  %lo_pi_c = arith.minui %lo_pi, %last_pi : index
  %lo_pid_i32 = memref.load %table[%b, %lo_pi_c] : memref<?x?xi32>
  %lo_pid = arith.index_castui %lo_pid_i32 : i32 to index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32
  %qlen_t = tensor.splat %qlen32 : !s_i32
  %first_t = tensor.splat %first32 : !s_i32
  %last_t = tensor.splat %last32 : !s_i32
  %row_pos = hk.iota row : !s_i32
  %col_pos = hk.iota col : !s_i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %r0_t = tensor.splat %r0_32 : !s_i32
    %r = arith.addi %row_pos, %r0_t : !s_i32
    %tok = arith.remui %r, %qlen_t : !s_i32
    %causal_last = arith.addi %tok, %first_t : !s_i32
    %limit = arith.minsi %causal_last, %last_t : !s_i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q128 -> !q_rt128

    %res:6 = scf.for %j = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec, %pid = %lo_pid,
                  %pi = %lo_pi, %row = %lo_row)
        -> (!o_rt128, !vec, !vec, index, index, index) {
      %k0 = arith.muli %j, %c64 : index
      // The block, keys k0 .. k0 + 63: rows k0 mod P .. + 63 of page %pid
      // (looked up one block ahead, so that the scalar load's latency is
      // not the block's).
      %row_tile = arith.divui %row, %c64 : index
      // The next block's page and row, without a division: P is a
      // multiple of 64 or holds the whole sequence.
      %kn = arith.addi %k0, %c64 : index
      %row_n = arith.addi %row, %c64 : index
      %wrap = arith.cmpi uge, %row_n, %page1 : index
      %pi_inc = arith.addi %pi, %c1 : index
      %pi_next = arith.select %wrap, %pi_inc, %pi : index
      %row_next = arith.select %wrap, %c0, %row_n : index
      %pi_load = arith.minui %pi_next, %last_pi : index
      %pid_next_i32 = memref.load %table[%b, %pi_load] : memref<?x?xi32>
      %pid_next = arith.index_castui %pid_next_i32 : i32 to index
      // fp8 K and V, widened to bf16 (exact: E4M3 values are bf16 values).
      %kt8 = hk.load %K[%pid, %hkv, %row_tile, %c0] : !kv8_128 -> !k8_rt128
      %vr8 = hk.load %V[%pid, %hkv, %row_tile, %c0] : !kv8_128 -> !v8_row128
      %kt = arith.extf %kt8 : !k8_rt128 to !k_rt128
      %vr = arith.extf %vr8 : !v8_row128 to !v_row128
      // The last block of the sequence: its rows past the length hold
      // whatever the page does (a P of 0 times a NaN would be NaN), so they
      // are zeroed. K's are masked to -inf with the scores.
      %partial = arith.cmpi ugt, %kn, %len : index
      %vz = scf.if %partial -> (!v_row128) {
        %vm = hk.bounds_mask %vr at [%k0, %c0] within [%len, %cD]
            fill %zero_bf : !v_row128
        scf.yield %vm : !v_row128
      } else {
        scf.yield %vr : !v_row128
      }
      hk.store %vz, %kvw : !v_row128, !kv_st128
      %vt = hk.load %kvw : !kv_st128 -> !v_rt128
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt128, !q_rt128, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0_32 = arith.index_cast %k0 : index to i32
      %k0_t = tensor.splat %k0_32 : !s_i32
      %key = arith.addi %col_pos, %k0_t : !s_i32
      %seen = arith.cmpi sle, %key, %limit : !s_i32
      %sm = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T.
      %oa = hk.row_broadcast mul %o, %alpha : !o_rt128, !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      %ot = hk.transpose %oa : !o_rt128 -> !ot_acc128
      %ot2 = hk.mma atb %vt, %pt, %ot : !v_rt128, !pt_rt, !ot_acc128
      %on = hk.transpose %ot2 : !ot_acc128 -> !o_rt128
      scf.yield %on, %mx, %sum, %pid_next, %pi_next, %row_next
          : !o_rt128, !vec, !vec, index, index, index
    }

    // The split's v_scale O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %l_sv = arith.divf %l_safe, %sv_v : !vec
    %of = hk.row_broadcast div %res#0, %l_sv : !o_rt128, !vec
    hk.store %of, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt128, !op128
    %log_l = math.log2 %res#2 : !vec
    %lse2 = arith.addf %res#1, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

// @attention_decode_fp8_p16_d128: @attention_decode_p16_d128 over fp8 pools
// (pages of a multiple of 16 rows): each chunk is widened to bf16 after its
// load, before it is stored into the wave's LDS tile; the scales as in
// @attention_decode_fp8_d128.
hk.kernel @attention_decode_fp8_p16_d128(%Q: !q128, %K: !kv8_128, %V: !kv8_128,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op128, %Lp: !lp,
    %q_len: index, %k_scale: memref<?xf32>, %v_scale: memref<?xf32>)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 128 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %score_scale = arith.constant 0.127517432 : f32
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64xD LDS tile: K's four 16-key chunks are stored into
  // it and read back in the MFMA operand layout, then V's likewise in the
  // column layout. One wave's LDS accesses execute in order, so V's stores
  // need no wait for K's reads.
  %kvs = hk.alloc_shared : !kv_st4128
  %w = hk.wave_id
  %w4 = arith.muli %w, %c4 : index
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st4128 -> !kv_st128
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  // The KV head's scales: k_scale[hk] and v_scale[hk] of per-head arrays
  // ([H_kv]), or element 0 of per-tensor ones ([1]). K's multiplies the
  // scores (with log2(e) / sqrt(D)), V's the output.
  %ks_n = memref.dim %k_scale, %c0 : memref<?xf32>
  %ks_last = arith.subi %ks_n, %c1 : index
  %ks_i = arith.minui %hkv, %ks_last : index
  %sk = memref.load %k_scale[%ks_i] : memref<?xf32>
  %vs_n = memref.dim %v_scale, %c0 : memref<?xf32>
  %vs_last = arith.subi %vs_n, %c1 : index
  %vs_i = arith.minui %hkv, %vs_last : index
  %sv = memref.load %v_scale[%vs_i] : memref<?xf32>
  %skc = arith.mulf %sk, %score_scale : f32
  %scale = tensor.splat %skc : !s_rt
  %scale_v = tensor.splat %skc : !vec
  %sv_v = tensor.splat %sv : !vec
  %page = memref.dim %K, %c2 : !kv8_128
  %splits = memref.dim %Op, %c2 : !op128
  %rows = memref.dim %Q, %c2 : !q128
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages (the loop runs only when len > 0, so P > 0).
  %last_key = arith.subi %len, %c1 : index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32
  %qlen_t = tensor.splat %qlen32 : !s_i32
  %first_t = tensor.splat %first32 : !s_i32
  %last_t = tensor.splat %last32 : !s_i32
  %row_pos = hk.iota row : !s_i32
  %col_pos = hk.iota col : !s_i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %r0_t = tensor.splat %r0_32 : !s_i32
    %r = arith.addi %row_pos, %r0_t : !s_i32
    %tok = arith.remui %r, %qlen_t : !s_i32
    %causal_last = arith.addi %tok, %first_t : !s_i32
    %limit = arith.minsi %causal_last, %last_t : !s_i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q128 -> !q_rt128

    %res:3 = scf.for %j = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec)
        -> (!o_rt128, !vec, !vec) {
      %k0 = arith.muli %j, %c64 : index
      // Chunk 0: keys k0 + 0 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc0 = arith.addi %k0, %c0 : index
      %kl0 = arith.minui %kc0, %last_key : index
      %pi0 = arith.divui %kl0, %page : index
      %ps0 = arith.muli %pi0, %page : index
      %row0 = arith.subi %kc0, %ps0 : index
      %rt0 = arith.divui %row0, %c16 : index
      %pid0_i32 = memref.load %table[%b, %pi0] : memref<?x?xi32>
      %pid0 = arith.index_castui %pid0_i32 : i32 to index
      %kr08 = hk.load %K[%pid0, %hkv, %rt0, %c0] : !kv8_128 -> !chunk8_rt128
      %kr0 = arith.extf %kr08 : !chunk8_rt128 to !chunk_rt128
      %vr08 = hk.load %V[%pid0, %hkv, %rt0, %c0] : !kv8_128 -> !chunk8_rt128
      %vr0 = arith.extf %vr08 : !chunk8_rt128 to !chunk_rt128
      // Chunk 1: keys k0 + 16 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc1 = arith.addi %k0, %c16 : index
      %kl1 = arith.minui %kc1, %last_key : index
      %pi1 = arith.divui %kl1, %page : index
      %ps1 = arith.muli %pi1, %page : index
      %row1 = arith.subi %kc1, %ps1 : index
      %rt1 = arith.divui %row1, %c16 : index
      %pid1_i32 = memref.load %table[%b, %pi1] : memref<?x?xi32>
      %pid1 = arith.index_castui %pid1_i32 : i32 to index
      %kr18 = hk.load %K[%pid1, %hkv, %rt1, %c0] : !kv8_128 -> !chunk8_rt128
      %kr1 = arith.extf %kr18 : !chunk8_rt128 to !chunk_rt128
      %vr18 = hk.load %V[%pid1, %hkv, %rt1, %c0] : !kv8_128 -> !chunk8_rt128
      %vr1 = arith.extf %vr18 : !chunk8_rt128 to !chunk_rt128
      // Chunk 2: keys k0 + 32 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc2 = arith.addi %k0, %c32 : index
      %kl2 = arith.minui %kc2, %last_key : index
      %pi2 = arith.divui %kl2, %page : index
      %ps2 = arith.muli %pi2, %page : index
      %row2 = arith.subi %kc2, %ps2 : index
      %rt2 = arith.divui %row2, %c16 : index
      %pid2_i32 = memref.load %table[%b, %pi2] : memref<?x?xi32>
      %pid2 = arith.index_castui %pid2_i32 : i32 to index
      %kr28 = hk.load %K[%pid2, %hkv, %rt2, %c0] : !kv8_128 -> !chunk8_rt128
      %kr2 = arith.extf %kr28 : !chunk8_rt128 to !chunk_rt128
      %vr28 = hk.load %V[%pid2, %hkv, %rt2, %c0] : !kv8_128 -> !chunk8_rt128
      %vr2 = arith.extf %vr28 : !chunk8_rt128 to !chunk_rt128
      // Chunk 3: keys k0 + 48 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc3 = arith.addi %k0, %c48 : index
      %kl3 = arith.minui %kc3, %last_key : index
      %pi3 = arith.divui %kl3, %page : index
      %ps3 = arith.muli %pi3, %page : index
      %row3 = arith.subi %kc3, %ps3 : index
      %rt3 = arith.divui %row3, %c16 : index
      %pid3_i32 = memref.load %table[%b, %pi3] : memref<?x?xi32>
      %pid3 = arith.index_castui %pid3_i32 : i32 to index
      %kr38 = hk.load %K[%pid3, %hkv, %rt3, %c0] : !kv8_128 -> !chunk8_rt128
      %kr3 = arith.extf %kr38 : !chunk8_rt128 to !chunk_rt128
      %vr38 = hk.load %V[%pid3, %hkv, %rt3, %c0] : !kv8_128 -> !chunk8_rt128
      %vr3 = arith.extf %vr38 : !chunk8_rt128 to !chunk_rt128
      // The last block of the sequence: its rows past the length hold
      // whatever the pages do (a P of 0 times a NaN would be NaN), so V's
      // are zeroed. K's are masked to -inf with the scores.
      %kn = arith.addi %k0, %c64 : index
      %partial = arith.cmpi ugt, %kn, %len : index
      %vz:4 = scf.if %partial
          -> (!chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128) {
        %vm0 = hk.bounds_mask %vr0 at [%kc0, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        %vm1 = hk.bounds_mask %vr1 at [%kc1, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        %vm2 = hk.bounds_mask %vr2 at [%kc2, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        %vm3 = hk.bounds_mask %vr3 at [%kc3, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        scf.yield %vm0, %vm1, %vm2, %vm3
            : !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128
      } else {
        scf.yield %vr0, %vr1, %vr2, %vr3
            : !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128
      }
      // K, then V, through the wave's LDS tile.
      %ksub0 = arith.addi %w4, %c0 : index
      %kst0 = hk.subtile %kvs[%ksub0, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr0, %kst0 : !chunk_rt128, !chunk_st128
      %ksub1 = arith.addi %w4, %c1 : index
      %kst1 = hk.subtile %kvs[%ksub1, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr1, %kst1 : !chunk_rt128, !chunk_st128
      %ksub2 = arith.addi %w4, %c2 : index
      %kst2 = hk.subtile %kvs[%ksub2, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr2, %kst2 : !chunk_rt128, !chunk_st128
      %ksub3 = arith.addi %w4, %c3 : index
      %kst3 = hk.subtile %kvs[%ksub3, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr3, %kst3 : !chunk_rt128, !chunk_st128
      %kt = hk.load %kvw : !kv_st128 -> !k_rt128
      hk.store %vz#0, %kst0 : !chunk_rt128, !chunk_st128
      hk.store %vz#1, %kst1 : !chunk_rt128, !chunk_st128
      hk.store %vz#2, %kst2 : !chunk_rt128, !chunk_st128
      hk.store %vz#3, %kst3 : !chunk_rt128, !chunk_st128
      %vt = hk.load %kvw : !kv_st128 -> !v_rt128
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt128, !q_rt128, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0_32 = arith.index_cast %k0 : index to i32
      %k0_t = tensor.splat %k0_32 : !s_i32
      %key = arith.addi %col_pos, %k0_t : !s_i32
      %seen = arith.cmpi sle, %key, %limit : !s_i32
      %sm = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T.
      %oa = hk.row_broadcast mul %o, %alpha : !o_rt128, !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      %ot = hk.transpose %oa : !o_rt128 -> !ot_acc128
      %ot2 = hk.mma atb %vt, %pt, %ot : !v_rt128, !pt_rt, !ot_acc128
      %on = hk.transpose %ot2 : !ot_acc128 -> !o_rt128
      scf.yield %on, %mx, %sum : !o_rt128, !vec, !vec
    }

    // The split's v_scale O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %l_sv = arith.divf %l_safe, %sv_v : !vec
    %of = hk.row_broadcast div %res#0, %l_sv : !o_rt128, !vec
    hk.store %of, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt128, !op128
    %log_l = math.log2 %res#2 : !vec
    %lse2 = arith.addf %res#1, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

// Merges the splits of the D = 128 entry points: for every row,
//   L = log sum_s exp(L_s),  O = sum_s exp(L_s - L) O_s.
// One workgroup per 32-column slice of a 32-row tile (grid
// (ceil(G q_len / 32) 4, H_kv, B)), four waves: the merge of a slice is a
// chain of dependent loads, so each wave takes a quarter of the splits and
// walks them as an online merge (a running maximum from -1e30, finite, so
// that a split without keys weighs exp(-inf) = 0, never NaN), loading split
// s + 1's slice while it merges split s (the last trip loads its last split
// again, never past it). The waves put their normalised O and their LSE
// (as a tile whose rows hold it) into LDS, and wave 0 merges the four. A
// row without any key gets O = 0 and L = -inf.
hk.kernel @attention_decode_combine_d128(%Op: !op128, %Lp: !lp, %O: !q128,
    %L: memref<?x?x?xf32>) attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(2, 2), dim(2, 1), dim(2, 0)]
                    -> ((s0 ceildiv 32) * 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cNC = arith.constant 4 : index
  %log2e = arith.constant dense<1.44269502> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %low = arith.constant dense<-1.0e30> : !vec
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_slice
  %parts = hk.alloc_shared : !part_st
  %w = hk.wave_id
  %x = hk.block_id x
  %rt = arith.divui %x, %cNC : index
  %dc = arith.remui %x, %cNC : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %splits = memref.dim %Op, %c2 : !op128
  %per = arith.ceildivui %splits, %c4 : index
  %lo_raw = arith.muli %w, %per : index
  %lo = arith.minui %lo_raw, %splits : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %splits : index
  %hi1 = arith.maxui %hi, %c1 : index
  %last = arith.subi %hi1, %c1 : index
  %lo_c = arith.minui %lo, %last : index
  %os_0 = hk.load %Op[%b, %hkv, %lo_c, %rt, %dc] : !op128 -> !o_slice
  %ls_0 = hk.load %Lp[%b, %hkv, %lo_c, %rt] : !lp -> !vec
  %res:5 = scf.for %s = %lo to %hi step %c1
      iter_args(%o = %zero_o, %m = %low, %l = %zero_vec, %os = %os_0,
                %ls = %ls_0)
      -> (!o_slice, !vec, !vec, !o_slice, !vec) {
    %sn = arith.addi %s, %c1 : index
    %sn_c = arith.minui %sn, %last : index
    %os_n = hk.load %Op[%b, %hkv, %sn_c, %rt, %dc] : !op128 -> !o_slice
    %ls_n = hk.load %Lp[%b, %hkv, %sn_c, %rt] : !lp -> !vec
    %mx = arith.maximumf %m, %ls : !vec
    %da = arith.subf %m, %mx : !vec
    %da2 = arith.mulf %da, %log2e : !vec
    %alpha = math.exp2 %da2 : !vec
    %dw = arith.subf %ls, %mx : !vec
    %dw2 = arith.mulf %dw, %log2e : !vec
    %wt = math.exp2 %dw2 : !vec
    %oa = hk.row_broadcast mul %o, %alpha : !o_slice, !vec
    %ow = hk.row_broadcast mul %os, %wt : !o_slice, !vec
    %on = arith.addf %oa, %ow : !o_slice
    %la = arith.mulf %l, %alpha : !vec
    %ln = arith.addf %la, %wt : !vec
    scf.yield %on, %mx, %ln, %os_n, %ls_n
        : !o_slice, !vec, !vec, !o_slice, !vec
  }
  %l_safe = arith.maximumf %res#2, %tiny : !vec
  %of = hk.row_broadcast div %res#0, %l_safe : !o_slice, !vec
  %log_l = math.log2 %res#2 : !vec
  %log_e = arith.mulf %log_l, %ln2 : !vec
  %lse = arith.addf %res#1, %log_e : !vec
  %lse_t = hk.row_broadcast add %zero_o, %lse : !o_slice, !vec
  %w4 = arith.addi %w, %c4 : index
  %po = hk.subtile %parts[%w, %c0] : !part_st -> !slice_st
  %pl = hk.subtile %parts[%w4, %c0] : !part_st -> !slice_st
  hk.store %of, %po : !o_slice, !slice_st
  hk.store %lse_t, %pl : !o_slice, !slice_st
  hk.barrier
  %first = arith.cmpi eq, %w, %c0 : index
  scf.if %first {
    %p0 = hk.subtile %parts[%c0, %c0] : !part_st -> !slice_st
    %p1 = hk.subtile %parts[%c1, %c0] : !part_st -> !slice_st
    %p2 = hk.subtile %parts[%c2, %c0] : !part_st -> !slice_st
    %p3 = hk.subtile %parts[%c3, %c0] : !part_st -> !slice_st
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %q0 = hk.subtile %parts[%c4, %c0] : !part_st -> !slice_st
    %q1 = hk.subtile %parts[%c5, %c0] : !part_st -> !slice_st
    %q2 = hk.subtile %parts[%c6, %c0] : !part_st -> !slice_st
    %q3 = hk.subtile %parts[%c7, %c0] : !part_st -> !slice_st
    %o0 = hk.load %p0 : !slice_st -> !o_slice
    %o1 = hk.load %p1 : !slice_st -> !o_slice
    %o2 = hk.load %p2 : !slice_st -> !o_slice
    %o3 = hk.load %p3 : !slice_st -> !o_slice
    %l0 = hk.load %q0 : !slice_st -> !o_slice
    %l1 = hk.load %q1 : !slice_st -> !o_slice
    %l2 = hk.load %q2 : !slice_st -> !o_slice
    %l3 = hk.load %q3 : !slice_st -> !o_slice
    // The four waves' LSEs as vectors (each row of an LSE tile holds one
    // value), the weights exp(L_w - M) on vectors rather than tiles.
    %v0 = hk.row_reduce max %l0 : !o_slice -> !vec
    %v1 = hk.row_reduce max %l1 : !o_slice -> !vec
    %v2 = hk.row_reduce max %l2 : !o_slice -> !vec
    %v3 = hk.row_reduce max %l3 : !o_slice -> !vec
    %m01 = arith.maximumf %v0, %v1 : !vec
    %m23 = arith.maximumf %v2, %v3 : !vec
    %mm = arith.maximumf %m01, %m23 : !vec
    %mt = arith.maximumf %mm, %low : !vec
    %d0 = arith.subf %v0, %mt : !vec
    %d1 = arith.subf %v1, %mt : !vec
    %d2 = arith.subf %v2, %mt : !vec
    %d3 = arith.subf %v3, %mt : !vec
    %e0 = arith.mulf %d0, %log2e : !vec
    %e1 = arith.mulf %d1, %log2e : !vec
    %e2 = arith.mulf %d2, %log2e : !vec
    %e3 = arith.mulf %d3, %log2e : !vec
    %w0 = math.exp2 %e0 : !vec
    %w1 = math.exp2 %e1 : !vec
    %w2 = math.exp2 %e2 : !vec
    %w3 = math.exp2 %e3 : !vec
    %w01 = arith.addf %w0, %w1 : !vec
    %w23 = arith.addf %w2, %w3 : !vec
    %wsum = arith.addf %w01, %w23 : !vec
    %wsafe = arith.maximumf %wsum, %tiny : !vec
    %n0 = arith.divf %w0, %wsafe : !vec
    %n1 = arith.divf %w1, %wsafe : !vec
    %n2 = arith.divf %w2, %wsafe : !vec
    %n3 = arith.divf %w3, %wsafe : !vec
    %a0 = hk.row_broadcast mul %o0, %n0 : !o_slice, !vec
    %a1 = hk.row_broadcast mul %o1, %n1 : !o_slice, !vec
    %a2 = hk.row_broadcast mul %o2, %n2 : !o_slice, !vec
    %a3 = hk.row_broadcast mul %o3, %n3 : !o_slice, !vec
    %s01 = arith.addf %a0, %a1 : !o_slice
    %s23 = arith.addf %a2, %a3 : !o_slice
    %ofin = arith.addf %s01, %s23 : !o_slice
    %ob = arith.truncf %ofin : !o_slice to !o_out_slice
    hk.store %ob, %O[%b, %hkv, %rt, %dc] : !o_out_slice, !q128
    %dfirst = arith.cmpi eq, %dc, %c0 : index
    scf.if %dfirst {
      %lw = math.log2 %wsum : !vec
      %lwe = arith.mulf %lw, %ln2 : !vec
      %lv = arith.addf %mt, %lwe : !vec
      hk.store %lv, %L[%b, %hkv, %rt] : !vec, memref<?x?x?xf32>
    }
  }
  hk.return
}

// Merges groups of the splits of the D = 128 entry points into fewer
// partial results of the same kind, so that the combine does not walk
// hundreds of splits: group g of S2 (the third dimension of %Op2) takes the
// splits [g c, min((g + 1) c, S)), c = ceil(S / S2), and writes their
// merged O (f32, normalised) and LSE. One workgroup per 32-column slice of
// a group (grid (S2 4, H_kv, B)), every row tile in turn, the four waves
// and their merge through LDS as in the combine; a group without splits
// writes O = 0 and L = -inf.
hk.kernel @attention_decode_merge_d128(%Op: !op128, %Lp: !lp, %Op2: !op128,
    %Lp2: !lp) attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(2, 2), dim(2, 1), dim(2, 0)] -> (s0 * 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cNC = arith.constant 4 : index
  %log2e = arith.constant dense<1.44269502> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %low = arith.constant dense<-1.0e30> : !vec
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_slice
  %parts = hk.alloc_shared : !part_st
  %w = hk.wave_id
  %x = hk.block_id x
  %g = arith.divui %x, %cNC : index
  %dc = arith.remui %x, %cNC : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %c32 = arith.constant 32 : index
  %splits = memref.dim %Op, %c2 : !op128
  %groups = memref.dim %Op2, %c2 : !op128
  %rows = memref.dim %Op, %c3 : !op128
  %row_tiles = arith.ceildivui %rows, %c32 : index
  // The group's splits [g c, min((g + 1) c, S)), c = ceil(S / S2), and of
  // them this wave's quarter.
  %gper = arith.ceildivui %splits, %groups : index
  %glo_raw = arith.muli %g, %gper : index
  %glo = arith.minui %glo_raw, %splits : index
  %ghi_raw = arith.addi %glo, %gper : index
  %ghi = arith.minui %ghi_raw, %splits : index
  %gn = arith.subi %ghi, %glo : index
  %per = arith.ceildivui %gn, %c4 : index
  %wlo = arith.muli %w, %per : index
  %lo_raw = arith.addi %glo, %wlo : index
  %lo = arith.minui %lo_raw, %ghi : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %ghi : index
  %hi1 = arith.maxui %hi, %c1 : index
  %last = arith.subi %hi1, %c1 : index
  %lo_c = arith.minui %lo, %last : index
  scf.for %rt = %c0 to %row_tiles step %c1 {
    %os_0 = hk.load %Op[%b, %hkv, %lo_c, %rt, %dc] : !op128 -> !o_slice
    %ls_0 = hk.load %Lp[%b, %hkv, %lo_c, %rt] : !lp -> !vec
    %res:5 = scf.for %s = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %low, %l = %zero_vec, %os = %os_0,
                  %ls = %ls_0)
        -> (!o_slice, !vec, !vec, !o_slice, !vec) {
      %sn = arith.addi %s, %c1 : index
      %sn_c = arith.minui %sn, %last : index
      %os_n = hk.load %Op[%b, %hkv, %sn_c, %rt, %dc] : !op128 -> !o_slice
      %ls_n = hk.load %Lp[%b, %hkv, %sn_c, %rt] : !lp -> !vec
      %mx = arith.maximumf %m, %ls : !vec
      %da = arith.subf %m, %mx : !vec
      %da2 = arith.mulf %da, %log2e : !vec
      %alpha = math.exp2 %da2 : !vec
      %dw = arith.subf %ls, %mx : !vec
      %dw2 = arith.mulf %dw, %log2e : !vec
      %wt = math.exp2 %dw2 : !vec
      %oa = hk.row_broadcast mul %o, %alpha : !o_slice, !vec
      %ow = hk.row_broadcast mul %os, %wt : !o_slice, !vec
      %on = arith.addf %oa, %ow : !o_slice
      %la = arith.mulf %l, %alpha : !vec
      %ln = arith.addf %la, %wt : !vec
      scf.yield %on, %mx, %ln, %os_n, %ls_n
          : !o_slice, !vec, !vec, !o_slice, !vec
    }
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %of = hk.row_broadcast div %res#0, %l_safe : !o_slice, !vec
    %log_l = math.log2 %res#2 : !vec
    %log_e = arith.mulf %log_l, %ln2 : !vec
    %lse = arith.addf %res#1, %log_e : !vec
    %lse_t = hk.row_broadcast add %zero_o, %lse : !o_slice, !vec
    %w4 = arith.addi %w, %c4 : index
    %po = hk.subtile %parts[%w, %c0] : !part_st -> !slice_st
    %pl = hk.subtile %parts[%w4, %c0] : !part_st -> !slice_st
    hk.store %of, %po : !o_slice, !slice_st
    hk.store %lse_t, %pl : !o_slice, !slice_st
    hk.barrier
    %first = arith.cmpi eq, %w, %c0 : index
    scf.if %first {
      %p0 = hk.subtile %parts[%c0, %c0] : !part_st -> !slice_st
      %p1 = hk.subtile %parts[%c1, %c0] : !part_st -> !slice_st
      %p2 = hk.subtile %parts[%c2, %c0] : !part_st -> !slice_st
      %p3 = hk.subtile %parts[%c3, %c0] : !part_st -> !slice_st
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %q0 = hk.subtile %parts[%c4, %c0] : !part_st -> !slice_st
      %q1 = hk.subtile %parts[%c5, %c0] : !part_st -> !slice_st
      %q2 = hk.subtile %parts[%c6, %c0] : !part_st -> !slice_st
      %q3 = hk.subtile %parts[%c7, %c0] : !part_st -> !slice_st
      %o0 = hk.load %p0 : !slice_st -> !o_slice
      %o1 = hk.load %p1 : !slice_st -> !o_slice
      %o2 = hk.load %p2 : !slice_st -> !o_slice
      %o3 = hk.load %p3 : !slice_st -> !o_slice
      %l0 = hk.load %q0 : !slice_st -> !o_slice
      %l1 = hk.load %q1 : !slice_st -> !o_slice
      %l2 = hk.load %q2 : !slice_st -> !o_slice
      %l3 = hk.load %q3 : !slice_st -> !o_slice
      // The four waves' LSEs as vectors (each row of an LSE tile holds one
      // value), the weights exp(L_w - M) on vectors rather than tiles.
      %v0 = hk.row_reduce max %l0 : !o_slice -> !vec
      %v1 = hk.row_reduce max %l1 : !o_slice -> !vec
      %v2 = hk.row_reduce max %l2 : !o_slice -> !vec
      %v3 = hk.row_reduce max %l3 : !o_slice -> !vec
      %m01 = arith.maximumf %v0, %v1 : !vec
      %m23 = arith.maximumf %v2, %v3 : !vec
      %mm = arith.maximumf %m01, %m23 : !vec
      %mt = arith.maximumf %mm, %low : !vec
      %d0 = arith.subf %v0, %mt : !vec
      %d1 = arith.subf %v1, %mt : !vec
      %d2 = arith.subf %v2, %mt : !vec
      %d3 = arith.subf %v3, %mt : !vec
      %e0 = arith.mulf %d0, %log2e : !vec
      %e1 = arith.mulf %d1, %log2e : !vec
      %e2 = arith.mulf %d2, %log2e : !vec
      %e3 = arith.mulf %d3, %log2e : !vec
      %w0 = math.exp2 %e0 : !vec
      %w1 = math.exp2 %e1 : !vec
      %w2 = math.exp2 %e2 : !vec
      %w3 = math.exp2 %e3 : !vec
      %w01 = arith.addf %w0, %w1 : !vec
      %w23 = arith.addf %w2, %w3 : !vec
      %wsum = arith.addf %w01, %w23 : !vec
      %wsafe = arith.maximumf %wsum, %tiny : !vec
      %n0 = arith.divf %w0, %wsafe : !vec
      %n1 = arith.divf %w1, %wsafe : !vec
      %n2 = arith.divf %w2, %wsafe : !vec
      %n3 = arith.divf %w3, %wsafe : !vec
      %a0 = hk.row_broadcast mul %o0, %n0 : !o_slice, !vec
      %a1 = hk.row_broadcast mul %o1, %n1 : !o_slice, !vec
      %a2 = hk.row_broadcast mul %o2, %n2 : !o_slice, !vec
      %a3 = hk.row_broadcast mul %o3, %n3 : !o_slice, !vec
      %s01 = arith.addf %a0, %a1 : !o_slice
      %s23 = arith.addf %a2, %a3 : !o_slice
      %ofin = arith.addf %s01, %s23 : !o_slice
      hk.store %ofin, %Op2[%b, %hkv, %g, %rt, %dc] : !o_slice, !op128
      %dfirst = arith.cmpi eq, %dc, %c0 : index
      scf.if %dfirst {
        %lw = math.log2 %wsum : !vec
        %lwe = arith.mulf %lw, %ln2 : !vec
        %lv = arith.addf %mt, %lwe : !vec
        hk.store %lv, %Lp2[%b, %hkv, %g, %rt] : !vec, !lp
      }
    }
    // The parts are written again for the next row tile.
    hk.barrier
  }
  hk.return
}

// @attention_decode_fused_d128: @attention_decode_d128 and the merge of its
// splits in one launch, for a few long sequences, where the combine's
// launch (and the merge's) would cost as much as the KV read. Arguments:
// those of @attention_decode_d128, with Op's and Lp's third dimension
// 4 W (W the workgroups per KV head and sequence, every split a wave),
// then
//   %Ot : [B, H_kv, W, R, D] f32 and %Lt : [B, H_kv, 4 W, R], the merged
//        results of the tree below;
// where Op, Lp, Ot and Lt have R rows, G q_len rounded up to a multiple of
// 32, so that the merges' loads of whole 32-row tiles need no bounds
// checks (hk.in_bounds; with the checks LLVM issued them two at a time,
// each pair waited for before the next);
//   %count : [B, H_kv, C] i32, C = W + 4 (the groups of every level of the
//        tree), zero before the first launch; every launch leaves it zero;
//   %O, %L as @attention_decode_combine_d128's; %fan the tree's fan-in
//        (at least 2).
// After its splits, each workgroup merges its four waves' splits (wave w
// the 32-column slice w) and enters a tree of counters over the
// workgroups: the last arrival of a group merges it, slice by slice, one
// wave per slice, so no wave walks more than %fan results at a level.
hk.kernel @attention_decode_fused_d128(%Q: !q128, %K: !kv128, %V: !kv128,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op128, %Lp: !lp,
    %Ot: !op128, %Lt: !lp, %count: memref<?x?x?xi32>, %O: !q128,
    %L: memref<?x?x?xf32>, %q_len: index, %fan: index)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 128 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %zero32 = arith.constant 0 : i32
  %scale = arith.constant dense<0.127517432> : !s_rt
  %scale_v = arith.constant dense<0.127517432> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64xD LDS tile, through which V goes from the row
  // layout of its load to the column layout of O^T += V^T P^T.
  %kvs = hk.alloc_shared : !kv_st4128
  %w = hk.wave_id
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st4128 -> !kv_st128
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %kv_heads = memref.dim %K, %c1 : !kv128
  %page = memref.dim %K, %c2 : !kv128
  %splits = memref.dim %Op, %c2 : !op128
  %rows = memref.dim %Q, %c2 : !q128
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages, and entry 0 for an empty sequence (whose
  // loop does not run; P is at least 1 there, as the table's width).
  %len1 = arith.maxui %len, %c1 : index
  %last_key = arith.subi %len1, %c1 : index
  %page1 = arith.maxui %page, %c1 : index
  %last_pi = arith.divui %last_key, %page1 : index
  %lo_keys = arith.muli %lo, %c64 : index
  %lo_pi = arith.divui %lo_keys, %page1 : index
  %lo_ps = arith.muli %lo_pi, %page1 : index
  %lo_row = arith.subi %lo_keys, %lo_ps : index
  %lo_pi_c = arith.minui %lo_pi, %last_pi : index
  %lo_pid_i32 = memref.load %table[%b, %lo_pi_c] : memref<?x?xi32>
  %lo_pid = arith.index_castui %lo_pid_i32 : i32 to index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32
  %qlen_t = tensor.splat %qlen32 : !s_i32
  %first_t = tensor.splat %first32 : !s_i32
  %last_t = tensor.splat %last32 : !s_i32
  %row_pos = hk.iota row : !s_i32
  %col_pos = hk.iota col : !s_i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %r0_t = tensor.splat %r0_32 : !s_i32
    %r = arith.addi %row_pos, %r0_t : !s_i32
    %tok = arith.remui %r, %qlen_t : !s_i32
    %causal_last = arith.addi %tok, %first_t : !s_i32
    %limit = arith.minsi %causal_last, %last_t : !s_i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q128 -> !q_rt128

    %res:6 = scf.for %j = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec, %pid = %lo_pid,
                  %pi = %lo_pi, %row = %lo_row)
        -> (!o_rt128, !vec, !vec, index, index, index) {
      %k0 = arith.muli %j, %c64 : index
      // The block, keys k0 .. k0 + 63: rows k0 mod P .. + 63 of page %pid
      // (looked up one block ahead, so that the scalar load's latency is
      // not the block's).
      %row_tile = arith.divui %row, %c64 : index
      // The next block's page and row, without a division: P is a
      // multiple of 64 or holds the whole sequence.
      %kn = arith.addi %k0, %c64 : index
      %row_n = arith.addi %row, %c64 : index
      %wrap = arith.cmpi uge, %row_n, %page1 : index
      %pi_inc = arith.addi %pi, %c1 : index
      %pi_next = arith.select %wrap, %pi_inc, %pi : index
      %row_next = arith.select %wrap, %c0, %row_n : index
      %pi_load = arith.minui %pi_next, %last_pi : index
      %pid_next_i32 = memref.load %table[%b, %pi_load] : memref<?x?xi32>
      %pid_next = arith.index_castui %pid_next_i32 : i32 to index
      %kt = hk.load %K[%pid, %hkv, %row_tile, %c0] : !kv128 -> !k_rt128
      %vr = hk.load %V[%pid, %hkv, %row_tile, %c0] : !kv128 -> !v_row128
      // The last block of the sequence: its rows past the length hold
      // whatever the page does (a P of 0 times a NaN would be NaN), so they
      // are zeroed. K's are masked to -inf with the scores.
      %partial = arith.cmpi ugt, %kn, %len : index
      %vz = scf.if %partial -> (!v_row128) {
        %vm = hk.bounds_mask %vr at [%k0, %c0] within [%len, %cD]
            fill %zero_bf : !v_row128
        scf.yield %vm : !v_row128
      } else {
        scf.yield %vr : !v_row128
      }
      hk.store %vz, %kvw : !v_row128, !kv_st128
      %vt = hk.load %kvw : !kv_st128 -> !v_rt128
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt128, !q_rt128, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0_32 = arith.index_cast %k0 : index to i32
      %k0_t = tensor.splat %k0_32 : !s_i32
      %key = arith.addi %col_pos, %k0_t : !s_i32
      %seen = arith.cmpi sle, %key, %limit : !s_i32
      %sm = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T.
      %oa = hk.row_broadcast mul %o, %alpha : !o_rt128, !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      %ot = hk.transpose %oa : !o_rt128 -> !ot_acc128
      %ot2 = hk.mma atb %vt, %pt, %ot : !v_rt128, !pt_rt, !ot_acc128
      %on = hk.transpose %ot2 : !ot_acc128 -> !o_rt128
      scf.yield %on, %mx, %sum, %pid_next, %pi_next, %row_next
          : !o_rt128, !vec, !vec, index, index, index
    }

    // The split's O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %of = hk.row_broadcast div %res#0, %l_safe : !o_rt128, !vec
    hk.store %of, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt128, !op128
    %log_l = math.log2 %res#2 : !vec
    %lse2 = arith.addf %res#1, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  // Level 0: the workgroup's four splits, merged slice by slice, wave w
  // taking the 32 columns from 32 w. Each wave's increment of its
  // workgroup's counter releases the wave's partial stores; after the
  // barrier, each wave's decrement reads the counter after all four
  // increments (the barrier waited for them) and so acquires every wave's
  // stores, and leaves the counter at 0 for the next launch.
  %m_one32 = arith.constant -1 : i32
  %arrive = hk.fetch_add %one32, %count[%b, %hkv, %bx] : memref<?x?x?xi32>
  hk.barrier
  %leave = hk.fetch_add %m_one32, %count[%b, %hkv, %bx] : memref<?x?x?xi32>
  %c3 = arith.constant 3 : index
  %log2e = arith.constant dense<1.44269502> : !vec
  %low = arith.constant dense<-1.0e30> : !vec
  %zero_os = arith.constant dense<0.0> : !o_slice
  %neginf = arith.constant 0xFF800000 : f32
  %zero_f = arith.constant 0.0 : f32
  %s1 = arith.addi %bx4, %c1 : index
  %s2 = arith.addi %bx4, %c2 : index
  %s3 = arith.addi %bx4, %c3 : index
  %lt0 = arith.addi %bx4, %w : index
  scf.for %rt = %c0 to %row_tiles step %c1 {
    %o0 = hk.load %Op[%b, %hkv, %bx4, %rt, %w] {hk.cols_in_bounds, hk.in_bounds}
        : !op128 -> !o_slice
    %o1 = hk.load %Op[%b, %hkv, %s1, %rt, %w] {hk.cols_in_bounds, hk.in_bounds}
        : !op128 -> !o_slice
    %o2 = hk.load %Op[%b, %hkv, %s2, %rt, %w] {hk.cols_in_bounds, hk.in_bounds}
        : !op128 -> !o_slice
    %o3 = hk.load %Op[%b, %hkv, %s3, %rt, %w] {hk.cols_in_bounds, hk.in_bounds}
        : !op128 -> !o_slice
    %l0 = hk.load %Lp[%b, %hkv, %bx4, %rt] : !lp -> !vec
    %l1 = hk.load %Lp[%b, %hkv, %s1, %rt] : !lp -> !vec
    %l2 = hk.load %Lp[%b, %hkv, %s2, %rt] : !lp -> !vec
    %l3 = hk.load %Lp[%b, %hkv, %s3, %rt] : !lp -> !vec
    %zmx01 = arith.maximumf %l0, %l1 : !vec
    %zmx23 = arith.maximumf %l2, %l3 : !vec
    %zmx4 = arith.maximumf %zmx01, %zmx23 : !vec
    %zmx = arith.maximumf %low, %zmx4 : !vec
    %zda = arith.subf %low, %zmx : !vec
    %zda2 = arith.mulf %zda, %log2e : !vec
    %zalpha = math.exp2 %zda2 : !vec
    %zd0 = arith.subf %l0, %zmx : !vec
    %ze0 = arith.mulf %zd0, %log2e : !vec
    %zw0 = math.exp2 %ze0 : !vec
    %zd1 = arith.subf %l1, %zmx : !vec
    %ze1 = arith.mulf %zd1, %log2e : !vec
    %zw1 = math.exp2 %ze1 : !vec
    %zd2 = arith.subf %l2, %zmx : !vec
    %ze2 = arith.mulf %zd2, %log2e : !vec
    %zw2 = math.exp2 %ze2 : !vec
    %zd3 = arith.subf %l3, %zmx : !vec
    %ze3 = arith.mulf %zd3, %log2e : !vec
    %zw3 = math.exp2 %ze3 : !vec
    %zoa = hk.row_broadcast mul %zero_os, %zalpha : !o_slice, !vec
    %za0 = hk.row_broadcast mul %o0, %zw0 : !o_slice, !vec
    %za1 = hk.row_broadcast mul %o1, %zw1 : !o_slice, !vec
    %za2 = hk.row_broadcast mul %o2, %zw2 : !o_slice, !vec
    %za3 = hk.row_broadcast mul %o3, %zw3 : !o_slice, !vec
    %zs01 = arith.addf %za0, %za1 : !o_slice
    %zs23 = arith.addf %za2, %za3 : !o_slice
    %zs4 = arith.addf %zs01, %zs23 : !o_slice
    %zon = arith.addf %zoa, %zs4 : !o_slice
    %zla = arith.mulf %zero_vec, %zalpha : !vec
    %zw01 = arith.addf %zw0, %zw1 : !vec
    %zw23 = arith.addf %zw2, %zw3 : !vec
    %zw4s = arith.addf %zw01, %zw23 : !vec
    %zln = arith.addf %zla, %zw4s : !vec
    %zl_safe = arith.maximumf %zln, %tiny : !vec
    %zof = hk.row_broadcast div %zon, %zl_safe : !o_slice, !vec
    %zlog_l = math.log2 %zln : !vec
    %zlog_e = arith.mulf %zlog_l, %ln2 : !vec
    %zlse = arith.addf %zmx, %zlog_e : !vec
    hk.store %zof, %Ot[%b, %hkv, %bx, %rt, %w] : !o_slice, !op128
    hk.store %zlse, %Lt[%b, %hkv, %lt0, %rt] : !vec, !lp
  }

  // The tree: the W workgroup results of a (sequence, KV head) form groups
  // of %fan; per slice, the wave whose increment of its group's counter is
  // the group's last (every other member's result released before it)
  // merges the group into the result of its first member's slot, and goes
  // on up a level, until one group is left, whose merge is O and L. Slot
  // i of a level is Ot's workgroup slot i stride (stride: fan to the
  // level), its LSE Lt's row 4 (i stride) + w; the level's counters follow
  // the workgroups' at %count[b, hkv, off + 4 g + w]. A ticket of at least
  // the group's size less one counts as the last: a real launch hands out
  // 0 .. size - 1 once each, and the timing mode presets the counters so
  // that every sampled workgroup takes the merges its last one would.
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k4 = arith.constant 4 : index
  %k5 = arith.constant 5 : index
  %k6 = arith.constant 6 : index
  %k7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %nwg = memref.dim %Ot, %c2 : !op128
  %done0 = arith.constant false
  %tree:5 = scf.while (%node = %bx, %n = %nwg, %off = %nwg, %stride = %c1,
                       %fin = %done0)
      : (index, index, index, index, i1) -> (index, index, index, index, i1) {
    %go = scf.if %fin -> (i1) {
      scf.yield %done0 : i1
    } else {
      %g = arith.divui %node, %fan : index
      %gfirst = arith.muli %g, %fan : index
      %gleft = arith.subi %n, %gfirst : index
      %gcnt = arith.minui %gleft, %fan : index
      %g4 = arith.muli %g, %c4 : index
      %ci0 = arith.addi %off, %g4 : index
      %ci = arith.addi %ci0, %w : index
      %tk = hk.fetch_add %one32, %count[%b, %hkv, %ci] : memref<?x?x?xi32>
      %gcnt32 = arith.index_cast %gcnt : index to i32
      %glast32 = arith.subi %gcnt32, %one32 : i32
      %is_last = arith.cmpi sge, %tk, %glast32 : i32
      scf.yield %is_last : i1
    }
    scf.condition(%go) %node, %n, %off, %stride, %fin
        : index, index, index, index, i1
  } do {
  ^bb0(%node: index, %n: index, %off: index, %stride: index, %fin: i1):
    %g = arith.divui %node, %fan : index
    %gfirst = arith.muli %g, %fan : index
    %gleft = arith.subi %n, %gfirst : index
    %gcnt = arith.minui %gleft, %fan : index
    %gend = arith.addi %gfirst, %gcnt : index
    %glast = arith.subi %gend, %c1 : index
    %groups = arith.ceildivui %n, %fan : index
    %top = arith.cmpi eq, %groups, %c1 : index
    // Every member has arrived, and no other access to the counter is left
    // in this launch: a plain store (no wait, unlike an atomic) sets it
    // back to 0 for the next launch.
    %g4 = arith.muli %g, %c4 : index
    %ci0 = arith.addi %off, %g4 : index
    %ci = arith.addi %ci0, %w : index
    memref.store %zero32, %count[%b, %hkv, %ci] : memref<?x?x?xi32>
    %dst = arith.muli %gfirst, %stride : index
    %dst4 = arith.muli %dst, %c4 : index
    %dst_l = arith.addi %dst4, %w : index
    scf.for %rt = %c0 to %row_tiles step %c1 {
      // Members eight at a time, their loads issued together; a member
      // index past the group's last is read as the last one again with
      // its LSE made -inf (weight 0).
      %mr:3 = scf.for %i = %gfirst to %gend step %c8
          iter_args(%o = %zero_os, %m = %low, %l = %zero_vec)
          -> (!o_slice, !vec, !vec) {
        %i0r = arith.addi %i, %k0 : index
        %ok0 = arith.cmpi ule, %i0r, %glast : index
        %i0 = arith.minui %i0r, %glast : index
        %sl0 = arith.muli %i0, %stride : index
        %sl40 = arith.muli %sl0, %c4 : index
        %li0 = arith.addi %sl40, %w : index
        %os0 = hk.load %Ot[%b, %hkv, %sl0, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr0 = hk.load %Lt[%b, %hkv, %li0, %rt] : !lp -> !vec
        %pen0 = arith.select %ok0, %zero_f, %neginf : f32
        %penv0 = tensor.splat %pen0 : !vec
        %ls0 = arith.addf %lr0, %penv0 : !vec
        %i1r = arith.addi %i, %k1 : index
        %ok1 = arith.cmpi ule, %i1r, %glast : index
        %i1 = arith.minui %i1r, %glast : index
        %sl1 = arith.muli %i1, %stride : index
        %sl41 = arith.muli %sl1, %c4 : index
        %li1 = arith.addi %sl41, %w : index
        %os1 = hk.load %Ot[%b, %hkv, %sl1, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr1 = hk.load %Lt[%b, %hkv, %li1, %rt] : !lp -> !vec
        %pen1 = arith.select %ok1, %zero_f, %neginf : f32
        %penv1 = tensor.splat %pen1 : !vec
        %ls1 = arith.addf %lr1, %penv1 : !vec
        %i2r = arith.addi %i, %k2 : index
        %ok2 = arith.cmpi ule, %i2r, %glast : index
        %i2 = arith.minui %i2r, %glast : index
        %sl2 = arith.muli %i2, %stride : index
        %sl42 = arith.muli %sl2, %c4 : index
        %li2 = arith.addi %sl42, %w : index
        %os2 = hk.load %Ot[%b, %hkv, %sl2, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr2 = hk.load %Lt[%b, %hkv, %li2, %rt] : !lp -> !vec
        %pen2 = arith.select %ok2, %zero_f, %neginf : f32
        %penv2 = tensor.splat %pen2 : !vec
        %ls2 = arith.addf %lr2, %penv2 : !vec
        %i3r = arith.addi %i, %k3 : index
        %ok3 = arith.cmpi ule, %i3r, %glast : index
        %i3 = arith.minui %i3r, %glast : index
        %sl3 = arith.muli %i3, %stride : index
        %sl43 = arith.muli %sl3, %c4 : index
        %li3 = arith.addi %sl43, %w : index
        %os3 = hk.load %Ot[%b, %hkv, %sl3, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr3 = hk.load %Lt[%b, %hkv, %li3, %rt] : !lp -> !vec
        %pen3 = arith.select %ok3, %zero_f, %neginf : f32
        %penv3 = tensor.splat %pen3 : !vec
        %ls3 = arith.addf %lr3, %penv3 : !vec
        %i4r = arith.addi %i, %k4 : index
        %ok4 = arith.cmpi ule, %i4r, %glast : index
        %i4 = arith.minui %i4r, %glast : index
        %sl4 = arith.muli %i4, %stride : index
        %sl44 = arith.muli %sl4, %c4 : index
        %li4 = arith.addi %sl44, %w : index
        %os4 = hk.load %Ot[%b, %hkv, %sl4, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr4 = hk.load %Lt[%b, %hkv, %li4, %rt] : !lp -> !vec
        %pen4 = arith.select %ok4, %zero_f, %neginf : f32
        %penv4 = tensor.splat %pen4 : !vec
        %ls4 = arith.addf %lr4, %penv4 : !vec
        %i5r = arith.addi %i, %k5 : index
        %ok5 = arith.cmpi ule, %i5r, %glast : index
        %i5 = arith.minui %i5r, %glast : index
        %sl5 = arith.muli %i5, %stride : index
        %sl45 = arith.muli %sl5, %c4 : index
        %li5 = arith.addi %sl45, %w : index
        %os5 = hk.load %Ot[%b, %hkv, %sl5, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr5 = hk.load %Lt[%b, %hkv, %li5, %rt] : !lp -> !vec
        %pen5 = arith.select %ok5, %zero_f, %neginf : f32
        %penv5 = tensor.splat %pen5 : !vec
        %ls5 = arith.addf %lr5, %penv5 : !vec
        %i6r = arith.addi %i, %k6 : index
        %ok6 = arith.cmpi ule, %i6r, %glast : index
        %i6 = arith.minui %i6r, %glast : index
        %sl6 = arith.muli %i6, %stride : index
        %sl46 = arith.muli %sl6, %c4 : index
        %li6 = arith.addi %sl46, %w : index
        %os6 = hk.load %Ot[%b, %hkv, %sl6, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr6 = hk.load %Lt[%b, %hkv, %li6, %rt] : !lp -> !vec
        %pen6 = arith.select %ok6, %zero_f, %neginf : f32
        %penv6 = tensor.splat %pen6 : !vec
        %ls6 = arith.addf %lr6, %penv6 : !vec
        %i7r = arith.addi %i, %k7 : index
        %ok7 = arith.cmpi ule, %i7r, %glast : index
        %i7 = arith.minui %i7r, %glast : index
        %sl7 = arith.muli %i7, %stride : index
        %sl47 = arith.muli %sl7, %c4 : index
        %li7 = arith.addi %sl47, %w : index
        %os7 = hk.load %Ot[%b, %hkv, %sl7, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr7 = hk.load %Lt[%b, %hkv, %li7, %rt] : !lp -> !vec
        %pen7 = arith.select %ok7, %zero_f, %neginf : f32
        %penv7 = tensor.splat %pen7 : !vec
        %ls7 = arith.addf %lr7, %penv7 : !vec
        %tmx0_0 = arith.maximumf %ls0, %ls1 : !vec
        %tmx0_1 = arith.maximumf %ls2, %ls3 : !vec
        %tmx0_2 = arith.maximumf %ls4, %ls5 : !vec
        %tmx0_3 = arith.maximumf %ls6, %ls7 : !vec
        %tmx1_0 = arith.maximumf %tmx0_0, %tmx0_1 : !vec
        %tmx1_1 = arith.maximumf %tmx0_2, %tmx0_3 : !vec
        %tmx2_0 = arith.maximumf %tmx1_0, %tmx1_1 : !vec
        %tmx = arith.maximumf %m, %tmx2_0 : !vec
        %tda = arith.subf %m, %tmx : !vec
        %tda2 = arith.mulf %tda, %log2e : !vec
        %talpha = math.exp2 %tda2 : !vec
        %td0 = arith.subf %ls0, %tmx : !vec
        %te0 = arith.mulf %td0, %log2e : !vec
        %tw0 = math.exp2 %te0 : !vec
        %ta0 = hk.row_broadcast mul %os0, %tw0 : !o_slice, !vec
        %td1 = arith.subf %ls1, %tmx : !vec
        %te1 = arith.mulf %td1, %log2e : !vec
        %tw1 = math.exp2 %te1 : !vec
        %ta1 = hk.row_broadcast mul %os1, %tw1 : !o_slice, !vec
        %td2 = arith.subf %ls2, %tmx : !vec
        %te2 = arith.mulf %td2, %log2e : !vec
        %tw2 = math.exp2 %te2 : !vec
        %ta2 = hk.row_broadcast mul %os2, %tw2 : !o_slice, !vec
        %td3 = arith.subf %ls3, %tmx : !vec
        %te3 = arith.mulf %td3, %log2e : !vec
        %tw3 = math.exp2 %te3 : !vec
        %ta3 = hk.row_broadcast mul %os3, %tw3 : !o_slice, !vec
        %td4 = arith.subf %ls4, %tmx : !vec
        %te4 = arith.mulf %td4, %log2e : !vec
        %tw4 = math.exp2 %te4 : !vec
        %ta4 = hk.row_broadcast mul %os4, %tw4 : !o_slice, !vec
        %td5 = arith.subf %ls5, %tmx : !vec
        %te5 = arith.mulf %td5, %log2e : !vec
        %tw5 = math.exp2 %te5 : !vec
        %ta5 = hk.row_broadcast mul %os5, %tw5 : !o_slice, !vec
        %td6 = arith.subf %ls6, %tmx : !vec
        %te6 = arith.mulf %td6, %log2e : !vec
        %tw6 = math.exp2 %te6 : !vec
        %ta6 = hk.row_broadcast mul %os6, %tw6 : !o_slice, !vec
        %td7 = arith.subf %ls7, %tmx : !vec
        %te7 = arith.mulf %td7, %log2e : !vec
        %tw7 = math.exp2 %te7 : !vec
        %ta7 = hk.row_broadcast mul %os7, %tw7 : !o_slice, !vec
        %tso0_0 = arith.addf %ta0, %ta1 : !o_slice
        %tso0_1 = arith.addf %ta2, %ta3 : !o_slice
        %tso0_2 = arith.addf %ta4, %ta5 : !o_slice
        %tso0_3 = arith.addf %ta6, %ta7 : !o_slice
        %tso1_0 = arith.addf %tso0_0, %tso0_1 : !o_slice
        %tso1_1 = arith.addf %tso0_2, %tso0_3 : !o_slice
        %tso2_0 = arith.addf %tso1_0, %tso1_1 : !o_slice
        %tsw0_0 = arith.addf %tw0, %tw1 : !vec
        %tsw0_1 = arith.addf %tw2, %tw3 : !vec
        %tsw0_2 = arith.addf %tw4, %tw5 : !vec
        %tsw0_3 = arith.addf %tw6, %tw7 : !vec
        %tsw1_0 = arith.addf %tsw0_0, %tsw0_1 : !vec
        %tsw1_1 = arith.addf %tsw0_2, %tsw0_3 : !vec
        %tsw2_0 = arith.addf %tsw1_0, %tsw1_1 : !vec
        %toa = hk.row_broadcast mul %o, %talpha : !o_slice, !vec
        %ton = arith.addf %toa, %tso2_0 : !o_slice
        %tla = arith.mulf %l, %talpha : !vec
        %tln = arith.addf %tla, %tsw2_0 : !vec
        scf.yield %ton, %tmx, %tln : !o_slice, !vec, !vec
      }
      %tl_safe = arith.maximumf %mr#2, %tiny : !vec
      %tof = hk.row_broadcast div %mr#0, %tl_safe : !o_slice, !vec
      %tlog_l = math.log2 %mr#2 : !vec
      %tlog_e = arith.mulf %tlog_l, %ln2 : !vec
      %tlse = arith.addf %mr#1, %tlog_e : !vec
      scf.if %top {
        %ob = arith.truncf %tof : !o_slice to !o_out_slice
        hk.store %ob, %O[%b, %hkv, %rt, %w] : !o_out_slice, !q128
        %w_first = arith.cmpi eq, %w, %c0 : index
        scf.if %w_first {
          hk.store %tlse, %L[%b, %hkv, %rt] : !vec, memref<?x?x?xf32>
        }
      } else {
        hk.store %tof, %Ot[%b, %hkv, %dst, %rt, %w] : !o_slice, !op128
        hk.store %tlse, %Lt[%b, %hkv, %dst_l, %rt] : !vec, !lp
      }
    }
    %groups4 = arith.muli %groups, %c4 : index
    %off_n = arith.addi %off, %groups4 : index
    %stride_n = arith.muli %stride, %fan : index
    scf.yield %g, %groups, %off_n, %stride_n, %top
        : index, index, index, index, i1
  }
  hk.return
}

// @attention_decode_fused_p16_d128: @attention_decode_fused_d128 over the
// 16-key chunks of @attention_decode_p16_d128 (pages of a multiple of 16
// rows; on gfx950 the faster decode at D = 128); arguments, the workgroup
// merge and the tree as there.
hk.kernel @attention_decode_fused_p16_d128(%Q: !q128, %K: !kv128,
    %V: !kv128, %table: memref<?x?xi32>, %seq_lens: memref<?xi32>,
    %Op: !op128, %Lp: !lp, %Ot: !op128, %Lt: !lp,
    %count: memref<?x?x?xi32>, %O: !q128, %L: memref<?x?x?xf32>,
    %q_len: index, %fan: index)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 128 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %zero32 = arith.constant 0 : i32
  %scale = arith.constant dense<0.127517432> : !s_rt
  %scale_v = arith.constant dense<0.127517432> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64xD LDS tile: K's four 16-key chunks are stored into
  // it and read back in the MFMA operand layout, then V's likewise in the
  // column layout. One wave's LDS accesses execute in order, so V's stores
  // need no wait for K's reads.
  %kvs = hk.alloc_shared : !kv_st4128
  %w = hk.wave_id
  %w4 = arith.muli %w, %c4 : index
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st4128 -> !kv_st128
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %kv_heads = memref.dim %K, %c1 : !kv128
  %page = memref.dim %K, %c2 : !kv128
  %splits = memref.dim %Op, %c2 : !op128
  %rows = memref.dim %Q, %c2 : !q128
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages (the loop runs only when len > 0, so P > 0).
  %last_key = arith.subi %len, %c1 : index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32
  %qlen_t = tensor.splat %qlen32 : !s_i32
  %first_t = tensor.splat %first32 : !s_i32
  %last_t = tensor.splat %last32 : !s_i32
  %row_pos = hk.iota row : !s_i32
  %col_pos = hk.iota col : !s_i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %r0_t = tensor.splat %r0_32 : !s_i32
    %r = arith.addi %row_pos, %r0_t : !s_i32
    %tok = arith.remui %r, %qlen_t : !s_i32
    %causal_last = arith.addi %tok, %first_t : !s_i32
    %limit = arith.minsi %causal_last, %last_t : !s_i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q128 -> !q_rt128

    %res:3 = scf.for %j = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec)
        -> (!o_rt128, !vec, !vec) {
      %k0 = arith.muli %j, %c64 : index
      // Chunk 0: keys k0 + 0 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc0 = arith.addi %k0, %c0 : index
      %kl0 = arith.minui %kc0, %last_key : index
      %pi0 = arith.divui %kl0, %page : index
      %ps0 = arith.muli %pi0, %page : index
      %row0 = arith.subi %kc0, %ps0 : index
      %rt0 = arith.divui %row0, %c16 : index
      %pid0_i32 = memref.load %table[%b, %pi0] : memref<?x?xi32>
      %pid0 = arith.index_castui %pid0_i32 : i32 to index
      %kr0 = hk.load %K[%pid0, %hkv, %rt0, %c0] : !kv128 -> !chunk_rt128
      %vr0 = hk.load %V[%pid0, %hkv, %rt0, %c0] : !kv128 -> !chunk_rt128
      // Chunk 1: keys k0 + 16 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc1 = arith.addi %k0, %c16 : index
      %kl1 = arith.minui %kc1, %last_key : index
      %pi1 = arith.divui %kl1, %page : index
      %ps1 = arith.muli %pi1, %page : index
      %row1 = arith.subi %kc1, %ps1 : index
      %rt1 = arith.divui %row1, %c16 : index
      %pid1_i32 = memref.load %table[%b, %pi1] : memref<?x?xi32>
      %pid1 = arith.index_castui %pid1_i32 : i32 to index
      %kr1 = hk.load %K[%pid1, %hkv, %rt1, %c0] : !kv128 -> !chunk_rt128
      %vr1 = hk.load %V[%pid1, %hkv, %rt1, %c0] : !kv128 -> !chunk_rt128
      // Chunk 2: keys k0 + 32 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc2 = arith.addi %k0, %c32 : index
      %kl2 = arith.minui %kc2, %last_key : index
      %pi2 = arith.divui %kl2, %page : index
      %ps2 = arith.muli %pi2, %page : index
      %row2 = arith.subi %kc2, %ps2 : index
      %rt2 = arith.divui %row2, %c16 : index
      %pid2_i32 = memref.load %table[%b, %pi2] : memref<?x?xi32>
      %pid2 = arith.index_castui %pid2_i32 : i32 to index
      %kr2 = hk.load %K[%pid2, %hkv, %rt2, %c0] : !kv128 -> !chunk_rt128
      %vr2 = hk.load %V[%pid2, %hkv, %rt2, %c0] : !kv128 -> !chunk_rt128
      // Chunk 3: keys k0 + 48 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc3 = arith.addi %k0, %c48 : index
      %kl3 = arith.minui %kc3, %last_key : index
      %pi3 = arith.divui %kl3, %page : index
      %ps3 = arith.muli %pi3, %page : index
      %row3 = arith.subi %kc3, %ps3 : index
      %rt3 = arith.divui %row3, %c16 : index
      %pid3_i32 = memref.load %table[%b, %pi3] : memref<?x?xi32>
      %pid3 = arith.index_castui %pid3_i32 : i32 to index
      %kr3 = hk.load %K[%pid3, %hkv, %rt3, %c0] : !kv128 -> !chunk_rt128
      %vr3 = hk.load %V[%pid3, %hkv, %rt3, %c0] : !kv128 -> !chunk_rt128
      // The last block of the sequence: its rows past the length hold
      // whatever the pages do (a P of 0 times a NaN would be NaN), so V's
      // are zeroed. K's are masked to -inf with the scores.
      %kn = arith.addi %k0, %c64 : index
      %partial = arith.cmpi ugt, %kn, %len : index
      %vz:4 = scf.if %partial
          -> (!chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128) {
        %vm0 = hk.bounds_mask %vr0 at [%kc0, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        %vm1 = hk.bounds_mask %vr1 at [%kc1, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        %vm2 = hk.bounds_mask %vr2 at [%kc2, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        %vm3 = hk.bounds_mask %vr3 at [%kc3, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt128
        scf.yield %vm0, %vm1, %vm2, %vm3
            : !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128
      } else {
        scf.yield %vr0, %vr1, %vr2, %vr3
            : !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128
      }
      // K, then V, through the wave's LDS tile.
      %ksub0 = arith.addi %w4, %c0 : index
      %kst0 = hk.subtile %kvs[%ksub0, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr0, %kst0 : !chunk_rt128, !chunk_st128
      %ksub1 = arith.addi %w4, %c1 : index
      %kst1 = hk.subtile %kvs[%ksub1, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr1, %kst1 : !chunk_rt128, !chunk_st128
      %ksub2 = arith.addi %w4, %c2 : index
      %kst2 = hk.subtile %kvs[%ksub2, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr2, %kst2 : !chunk_rt128, !chunk_st128
      %ksub3 = arith.addi %w4, %c3 : index
      %kst3 = hk.subtile %kvs[%ksub3, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr3, %kst3 : !chunk_rt128, !chunk_st128
      %kt = hk.load %kvw : !kv_st128 -> !k_rt128
      hk.store %vz#0, %kst0 : !chunk_rt128, !chunk_st128
      hk.store %vz#1, %kst1 : !chunk_rt128, !chunk_st128
      hk.store %vz#2, %kst2 : !chunk_rt128, !chunk_st128
      hk.store %vz#3, %kst3 : !chunk_rt128, !chunk_st128
      %vt = hk.load %kvw : !kv_st128 -> !v_rt128
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt128, !q_rt128, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0_32 = arith.index_cast %k0 : index to i32
      %k0_t = tensor.splat %k0_32 : !s_i32
      %key = arith.addi %col_pos, %k0_t : !s_i32
      %seen = arith.cmpi sle, %key, %limit : !s_i32
      %sm = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T.
      %oa = hk.row_broadcast mul %o, %alpha : !o_rt128, !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      %ot = hk.transpose %oa : !o_rt128 -> !ot_acc128
      %ot2 = hk.mma atb %vt, %pt, %ot : !v_rt128, !pt_rt, !ot_acc128
      %on = hk.transpose %ot2 : !ot_acc128 -> !o_rt128
      scf.yield %on, %mx, %sum : !o_rt128, !vec, !vec
    }

    // The split's O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %of = hk.row_broadcast div %res#0, %l_safe : !o_rt128, !vec
    hk.store %of, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt128, !op128
    %log_l = math.log2 %res#2 : !vec
    %lse2 = arith.addf %res#1, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  // Level 0: the workgroup's four splits, merged slice by slice, wave w
  // taking the 32 columns from 32 w. Each wave's increment of its
  // workgroup's counter releases the wave's partial stores; after the
  // barrier, each wave's decrement reads the counter after all four
  // increments (the barrier waited for them) and so acquires every wave's
  // stores, and leaves the counter at 0 for the next launch.
  %m_one32 = arith.constant -1 : i32
  %arrive = hk.fetch_add %one32, %count[%b, %hkv, %bx] : memref<?x?x?xi32>
  hk.barrier
  %leave = hk.fetch_add %m_one32, %count[%b, %hkv, %bx] : memref<?x?x?xi32>
  %log2e = arith.constant dense<1.44269502> : !vec
  %low = arith.constant dense<-1.0e30> : !vec
  %zero_os = arith.constant dense<0.0> : !o_slice
  %neginf = arith.constant 0xFF800000 : f32
  %zero_f = arith.constant 0.0 : f32
  %s1 = arith.addi %bx4, %c1 : index
  %s2 = arith.addi %bx4, %c2 : index
  %s3 = arith.addi %bx4, %c3 : index
  %lt0 = arith.addi %bx4, %w : index
  scf.for %rt = %c0 to %row_tiles step %c1 {
    %o0 = hk.load %Op[%b, %hkv, %bx4, %rt, %w] {hk.cols_in_bounds, hk.in_bounds}
        : !op128 -> !o_slice
    %o1 = hk.load %Op[%b, %hkv, %s1, %rt, %w] {hk.cols_in_bounds, hk.in_bounds}
        : !op128 -> !o_slice
    %o2 = hk.load %Op[%b, %hkv, %s2, %rt, %w] {hk.cols_in_bounds, hk.in_bounds}
        : !op128 -> !o_slice
    %o3 = hk.load %Op[%b, %hkv, %s3, %rt, %w] {hk.cols_in_bounds, hk.in_bounds}
        : !op128 -> !o_slice
    %l0 = hk.load %Lp[%b, %hkv, %bx4, %rt] : !lp -> !vec
    %l1 = hk.load %Lp[%b, %hkv, %s1, %rt] : !lp -> !vec
    %l2 = hk.load %Lp[%b, %hkv, %s2, %rt] : !lp -> !vec
    %l3 = hk.load %Lp[%b, %hkv, %s3, %rt] : !lp -> !vec
    %zmx01 = arith.maximumf %l0, %l1 : !vec
    %zmx23 = arith.maximumf %l2, %l3 : !vec
    %zmx4 = arith.maximumf %zmx01, %zmx23 : !vec
    %zmx = arith.maximumf %low, %zmx4 : !vec
    %zda = arith.subf %low, %zmx : !vec
    %zda2 = arith.mulf %zda, %log2e : !vec
    %zalpha = math.exp2 %zda2 : !vec
    %zd0 = arith.subf %l0, %zmx : !vec
    %ze0 = arith.mulf %zd0, %log2e : !vec
    %zw0 = math.exp2 %ze0 : !vec
    %zd1 = arith.subf %l1, %zmx : !vec
    %ze1 = arith.mulf %zd1, %log2e : !vec
    %zw1 = math.exp2 %ze1 : !vec
    %zd2 = arith.subf %l2, %zmx : !vec
    %ze2 = arith.mulf %zd2, %log2e : !vec
    %zw2 = math.exp2 %ze2 : !vec
    %zd3 = arith.subf %l3, %zmx : !vec
    %ze3 = arith.mulf %zd3, %log2e : !vec
    %zw3 = math.exp2 %ze3 : !vec
    %zoa = hk.row_broadcast mul %zero_os, %zalpha : !o_slice, !vec
    %za0 = hk.row_broadcast mul %o0, %zw0 : !o_slice, !vec
    %za1 = hk.row_broadcast mul %o1, %zw1 : !o_slice, !vec
    %za2 = hk.row_broadcast mul %o2, %zw2 : !o_slice, !vec
    %za3 = hk.row_broadcast mul %o3, %zw3 : !o_slice, !vec
    %zs01 = arith.addf %za0, %za1 : !o_slice
    %zs23 = arith.addf %za2, %za3 : !o_slice
    %zs4 = arith.addf %zs01, %zs23 : !o_slice
    %zon = arith.addf %zoa, %zs4 : !o_slice
    %zla = arith.mulf %zero_vec, %zalpha : !vec
    %zw01 = arith.addf %zw0, %zw1 : !vec
    %zw23 = arith.addf %zw2, %zw3 : !vec
    %zw4s = arith.addf %zw01, %zw23 : !vec
    %zln = arith.addf %zla, %zw4s : !vec
    %zl_safe = arith.maximumf %zln, %tiny : !vec
    %zof = hk.row_broadcast div %zon, %zl_safe : !o_slice, !vec
    %zlog_l = math.log2 %zln : !vec
    %zlog_e = arith.mulf %zlog_l, %ln2 : !vec
    %zlse = arith.addf %zmx, %zlog_e : !vec
    hk.store %zof, %Ot[%b, %hkv, %bx, %rt, %w] : !o_slice, !op128
    hk.store %zlse, %Lt[%b, %hkv, %lt0, %rt] : !vec, !lp
  }

  // The tree: the W workgroup results of a (sequence, KV head) form groups
  // of %fan; per slice, the wave whose increment of its group's counter is
  // the group's last (every other member's result released before it)
  // merges the group into the result of its first member's slot, and goes
  // on up a level, until one group is left, whose merge is O and L. Slot
  // i of a level is Ot's workgroup slot i stride (stride: fan to the
  // level), its LSE Lt's row 4 (i stride) + w; the level's counters follow
  // the workgroups' at %count[b, hkv, off + 4 g + w]. A ticket of at least
  // the group's size less one counts as the last: a real launch hands out
  // 0 .. size - 1 once each, and the timing mode presets the counters so
  // that every sampled workgroup takes the merges its last one would.
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k4 = arith.constant 4 : index
  %k5 = arith.constant 5 : index
  %k6 = arith.constant 6 : index
  %k7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %nwg = memref.dim %Ot, %c2 : !op128
  %done0 = arith.constant false
  %tree:5 = scf.while (%node = %bx, %n = %nwg, %off = %nwg, %stride = %c1,
                       %fin = %done0)
      : (index, index, index, index, i1) -> (index, index, index, index, i1) {
    %go = scf.if %fin -> (i1) {
      scf.yield %done0 : i1
    } else {
      %g = arith.divui %node, %fan : index
      %gfirst = arith.muli %g, %fan : index
      %gleft = arith.subi %n, %gfirst : index
      %gcnt = arith.minui %gleft, %fan : index
      %g4 = arith.muli %g, %c4 : index
      %ci0 = arith.addi %off, %g4 : index
      %ci = arith.addi %ci0, %w : index
      %tk = hk.fetch_add %one32, %count[%b, %hkv, %ci] : memref<?x?x?xi32>
      %gcnt32 = arith.index_cast %gcnt : index to i32
      %glast32 = arith.subi %gcnt32, %one32 : i32
      %is_last = arith.cmpi sge, %tk, %glast32 : i32
      scf.yield %is_last : i1
    }
    scf.condition(%go) %node, %n, %off, %stride, %fin
        : index, index, index, index, i1
  } do {
  ^bb0(%node: index, %n: index, %off: index, %stride: index, %fin: i1):
    %g = arith.divui %node, %fan : index
    %gfirst = arith.muli %g, %fan : index
    %gleft = arith.subi %n, %gfirst : index
    %gcnt = arith.minui %gleft, %fan : index
    %gend = arith.addi %gfirst, %gcnt : index
    %glast = arith.subi %gend, %c1 : index
    %groups = arith.ceildivui %n, %fan : index
    %top = arith.cmpi eq, %groups, %c1 : index
    // Every member has arrived, and no other access to the counter is left
    // in this launch: a plain store (no wait, unlike an atomic) sets it
    // back to 0 for the next launch.
    %g4 = arith.muli %g, %c4 : index
    %ci0 = arith.addi %off, %g4 : index
    %ci = arith.addi %ci0, %w : index
    memref.store %zero32, %count[%b, %hkv, %ci] : memref<?x?x?xi32>
    %dst = arith.muli %gfirst, %stride : index
    %dst4 = arith.muli %dst, %c4 : index
    %dst_l = arith.addi %dst4, %w : index
    scf.for %rt = %c0 to %row_tiles step %c1 {
      // Members eight at a time, their loads issued together; a member
      // index past the group's last is read as the last one again with
      // its LSE made -inf (weight 0).
      %mr:3 = scf.for %i = %gfirst to %gend step %c8
          iter_args(%o = %zero_os, %m = %low, %l = %zero_vec)
          -> (!o_slice, !vec, !vec) {
        %i0r = arith.addi %i, %k0 : index
        %ok0 = arith.cmpi ule, %i0r, %glast : index
        %i0 = arith.minui %i0r, %glast : index
        %sl0 = arith.muli %i0, %stride : index
        %sl40 = arith.muli %sl0, %c4 : index
        %li0 = arith.addi %sl40, %w : index
        %os0 = hk.load %Ot[%b, %hkv, %sl0, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr0 = hk.load %Lt[%b, %hkv, %li0, %rt] : !lp -> !vec
        %pen0 = arith.select %ok0, %zero_f, %neginf : f32
        %penv0 = tensor.splat %pen0 : !vec
        %ls0 = arith.addf %lr0, %penv0 : !vec
        %i1r = arith.addi %i, %k1 : index
        %ok1 = arith.cmpi ule, %i1r, %glast : index
        %i1 = arith.minui %i1r, %glast : index
        %sl1 = arith.muli %i1, %stride : index
        %sl41 = arith.muli %sl1, %c4 : index
        %li1 = arith.addi %sl41, %w : index
        %os1 = hk.load %Ot[%b, %hkv, %sl1, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr1 = hk.load %Lt[%b, %hkv, %li1, %rt] : !lp -> !vec
        %pen1 = arith.select %ok1, %zero_f, %neginf : f32
        %penv1 = tensor.splat %pen1 : !vec
        %ls1 = arith.addf %lr1, %penv1 : !vec
        %i2r = arith.addi %i, %k2 : index
        %ok2 = arith.cmpi ule, %i2r, %glast : index
        %i2 = arith.minui %i2r, %glast : index
        %sl2 = arith.muli %i2, %stride : index
        %sl42 = arith.muli %sl2, %c4 : index
        %li2 = arith.addi %sl42, %w : index
        %os2 = hk.load %Ot[%b, %hkv, %sl2, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr2 = hk.load %Lt[%b, %hkv, %li2, %rt] : !lp -> !vec
        %pen2 = arith.select %ok2, %zero_f, %neginf : f32
        %penv2 = tensor.splat %pen2 : !vec
        %ls2 = arith.addf %lr2, %penv2 : !vec
        %i3r = arith.addi %i, %k3 : index
        %ok3 = arith.cmpi ule, %i3r, %glast : index
        %i3 = arith.minui %i3r, %glast : index
        %sl3 = arith.muli %i3, %stride : index
        %sl43 = arith.muli %sl3, %c4 : index
        %li3 = arith.addi %sl43, %w : index
        %os3 = hk.load %Ot[%b, %hkv, %sl3, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr3 = hk.load %Lt[%b, %hkv, %li3, %rt] : !lp -> !vec
        %pen3 = arith.select %ok3, %zero_f, %neginf : f32
        %penv3 = tensor.splat %pen3 : !vec
        %ls3 = arith.addf %lr3, %penv3 : !vec
        %i4r = arith.addi %i, %k4 : index
        %ok4 = arith.cmpi ule, %i4r, %glast : index
        %i4 = arith.minui %i4r, %glast : index
        %sl4 = arith.muli %i4, %stride : index
        %sl44 = arith.muli %sl4, %c4 : index
        %li4 = arith.addi %sl44, %w : index
        %os4 = hk.load %Ot[%b, %hkv, %sl4, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr4 = hk.load %Lt[%b, %hkv, %li4, %rt] : !lp -> !vec
        %pen4 = arith.select %ok4, %zero_f, %neginf : f32
        %penv4 = tensor.splat %pen4 : !vec
        %ls4 = arith.addf %lr4, %penv4 : !vec
        %i5r = arith.addi %i, %k5 : index
        %ok5 = arith.cmpi ule, %i5r, %glast : index
        %i5 = arith.minui %i5r, %glast : index
        %sl5 = arith.muli %i5, %stride : index
        %sl45 = arith.muli %sl5, %c4 : index
        %li5 = arith.addi %sl45, %w : index
        %os5 = hk.load %Ot[%b, %hkv, %sl5, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr5 = hk.load %Lt[%b, %hkv, %li5, %rt] : !lp -> !vec
        %pen5 = arith.select %ok5, %zero_f, %neginf : f32
        %penv5 = tensor.splat %pen5 : !vec
        %ls5 = arith.addf %lr5, %penv5 : !vec
        %i6r = arith.addi %i, %k6 : index
        %ok6 = arith.cmpi ule, %i6r, %glast : index
        %i6 = arith.minui %i6r, %glast : index
        %sl6 = arith.muli %i6, %stride : index
        %sl46 = arith.muli %sl6, %c4 : index
        %li6 = arith.addi %sl46, %w : index
        %os6 = hk.load %Ot[%b, %hkv, %sl6, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr6 = hk.load %Lt[%b, %hkv, %li6, %rt] : !lp -> !vec
        %pen6 = arith.select %ok6, %zero_f, %neginf : f32
        %penv6 = tensor.splat %pen6 : !vec
        %ls6 = arith.addf %lr6, %penv6 : !vec
        %i7r = arith.addi %i, %k7 : index
        %ok7 = arith.cmpi ule, %i7r, %glast : index
        %i7 = arith.minui %i7r, %glast : index
        %sl7 = arith.muli %i7, %stride : index
        %sl47 = arith.muli %sl7, %c4 : index
        %li7 = arith.addi %sl47, %w : index
        %os7 = hk.load %Ot[%b, %hkv, %sl7, %rt, %w]
            {hk.cols_in_bounds, hk.in_bounds} : !op128 -> !o_slice
        %lr7 = hk.load %Lt[%b, %hkv, %li7, %rt] : !lp -> !vec
        %pen7 = arith.select %ok7, %zero_f, %neginf : f32
        %penv7 = tensor.splat %pen7 : !vec
        %ls7 = arith.addf %lr7, %penv7 : !vec
        %tmx0_0 = arith.maximumf %ls0, %ls1 : !vec
        %tmx0_1 = arith.maximumf %ls2, %ls3 : !vec
        %tmx0_2 = arith.maximumf %ls4, %ls5 : !vec
        %tmx0_3 = arith.maximumf %ls6, %ls7 : !vec
        %tmx1_0 = arith.maximumf %tmx0_0, %tmx0_1 : !vec
        %tmx1_1 = arith.maximumf %tmx0_2, %tmx0_3 : !vec
        %tmx2_0 = arith.maximumf %tmx1_0, %tmx1_1 : !vec
        %tmx = arith.maximumf %m, %tmx2_0 : !vec
        %tda = arith.subf %m, %tmx : !vec
        %tda2 = arith.mulf %tda, %log2e : !vec
        %talpha = math.exp2 %tda2 : !vec
        %td0 = arith.subf %ls0, %tmx : !vec
        %te0 = arith.mulf %td0, %log2e : !vec
        %tw0 = math.exp2 %te0 : !vec
        %ta0 = hk.row_broadcast mul %os0, %tw0 : !o_slice, !vec
        %td1 = arith.subf %ls1, %tmx : !vec
        %te1 = arith.mulf %td1, %log2e : !vec
        %tw1 = math.exp2 %te1 : !vec
        %ta1 = hk.row_broadcast mul %os1, %tw1 : !o_slice, !vec
        %td2 = arith.subf %ls2, %tmx : !vec
        %te2 = arith.mulf %td2, %log2e : !vec
        %tw2 = math.exp2 %te2 : !vec
        %ta2 = hk.row_broadcast mul %os2, %tw2 : !o_slice, !vec
        %td3 = arith.subf %ls3, %tmx : !vec
        %te3 = arith.mulf %td3, %log2e : !vec
        %tw3 = math.exp2 %te3 : !vec
        %ta3 = hk.row_broadcast mul %os3, %tw3 : !o_slice, !vec
        %td4 = arith.subf %ls4, %tmx : !vec
        %te4 = arith.mulf %td4, %log2e : !vec
        %tw4 = math.exp2 %te4 : !vec
        %ta4 = hk.row_broadcast mul %os4, %tw4 : !o_slice, !vec
        %td5 = arith.subf %ls5, %tmx : !vec
        %te5 = arith.mulf %td5, %log2e : !vec
        %tw5 = math.exp2 %te5 : !vec
        %ta5 = hk.row_broadcast mul %os5, %tw5 : !o_slice, !vec
        %td6 = arith.subf %ls6, %tmx : !vec
        %te6 = arith.mulf %td6, %log2e : !vec
        %tw6 = math.exp2 %te6 : !vec
        %ta6 = hk.row_broadcast mul %os6, %tw6 : !o_slice, !vec
        %td7 = arith.subf %ls7, %tmx : !vec
        %te7 = arith.mulf %td7, %log2e : !vec
        %tw7 = math.exp2 %te7 : !vec
        %ta7 = hk.row_broadcast mul %os7, %tw7 : !o_slice, !vec
        %tso0_0 = arith.addf %ta0, %ta1 : !o_slice
        %tso0_1 = arith.addf %ta2, %ta3 : !o_slice
        %tso0_2 = arith.addf %ta4, %ta5 : !o_slice
        %tso0_3 = arith.addf %ta6, %ta7 : !o_slice
        %tso1_0 = arith.addf %tso0_0, %tso0_1 : !o_slice
        %tso1_1 = arith.addf %tso0_2, %tso0_3 : !o_slice
        %tso2_0 = arith.addf %tso1_0, %tso1_1 : !o_slice
        %tsw0_0 = arith.addf %tw0, %tw1 : !vec
        %tsw0_1 = arith.addf %tw2, %tw3 : !vec
        %tsw0_2 = arith.addf %tw4, %tw5 : !vec
        %tsw0_3 = arith.addf %tw6, %tw7 : !vec
        %tsw1_0 = arith.addf %tsw0_0, %tsw0_1 : !vec
        %tsw1_1 = arith.addf %tsw0_2, %tsw0_3 : !vec
        %tsw2_0 = arith.addf %tsw1_0, %tsw1_1 : !vec
        %toa = hk.row_broadcast mul %o, %talpha : !o_slice, !vec
        %ton = arith.addf %toa, %tso2_0 : !o_slice
        %tla = arith.mulf %l, %talpha : !vec
        %tln = arith.addf %tla, %tsw2_0 : !vec
        scf.yield %ton, %tmx, %tln : !o_slice, !vec, !vec
      }
      %tl_safe = arith.maximumf %mr#2, %tiny : !vec
      %tof = hk.row_broadcast div %mr#0, %tl_safe : !o_slice, !vec
      %tlog_l = math.log2 %mr#2 : !vec
      %tlog_e = arith.mulf %tlog_l, %ln2 : !vec
      %tlse = arith.addf %mr#1, %tlog_e : !vec
      scf.if %top {
        %ob = arith.truncf %tof : !o_slice to !o_out_slice
        hk.store %ob, %O[%b, %hkv, %rt, %w] : !o_out_slice, !q128
        %w_first = arith.cmpi eq, %w, %c0 : index
        scf.if %w_first {
          hk.store %tlse, %L[%b, %hkv, %rt] : !vec, memref<?x?x?xf32>
        }
      } else {
        hk.store %tof, %Ot[%b, %hkv, %dst, %rt, %w] : !o_slice, !op128
        hk.store %tlse, %Lt[%b, %hkv, %dst_l, %rt] : !vec, !lp
      }
    }
    %groups4 = arith.muli %groups, %c4 : index
    %off_n = arith.addi %off, %groups4 : index
    %stride_n = arith.muli %stride, %fan : index
    scf.yield %g, %groups, %off_n, %stride_n, %top
        : index, index, index, index, i1
  }
  hk.return
}

// ---------------------------------------------------------------------------
// D = 64: scale = log2(e) / sqrt(64) = 0.180336878
// ---------------------------------------------------------------------------
!q_rt64 = tensor<32x64xbf16, #hk.rt<row, 32x16>>
!k_rt64 = tensor<64x64xbf16, #hk.rt<row, 32x16>>
!v_rt64 = tensor<64x64xbf16, #hk.rt<col, 32x32, group = 4>>
!o_rt64 = tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>>
!ot_acc64 = tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
!q64 = memref<?x?x?x64xbf16>
!kv64 = memref<?x?x?x64xbf16, strided<[?, ?, ?, 1]>>
!op64 = memref<?x?x?x?x64xf32>
!kv_st64 = !hk.st<64x64xbf16, 16x32>
!kv_st464 = !hk.st<256x64xbf16, 16x32>
!v_row64 = tensor<64x64xbf16, #hk.rt<row, 16x32>>
!chunk_rt64 = tensor<16x64xbf16, #hk.rt<row, 16x32>>
!chunk_st64 = !hk.st<16x64xbf16, 16x32>
!kv8_64 = memref<?x?x?x64x!hk.fp8, strided<[?, ?, ?, 1]>>
!k8_rt64 = tensor<64x64x!hk.fp8, #hk.rt<row, 32x16>>
!v8_row64 = tensor<64x64x!hk.fp8, #hk.rt<row, 16x32>>
!chunk8_rt64 = tensor<16x64x!hk.fp8, #hk.rt<row, 16x32>>

hk.kernel @attention_decode_d64(%Q: !q64, %K: !kv64, %V: !kv64,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op64, %Lp: !lp,
    %q_len: index)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 64 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %scale = arith.constant dense<0.180336878> : !s_rt
  %scale_v = arith.constant dense<0.180336878> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt64
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64xD LDS tile, through which V goes from the row
  // layout of its load to the column layout of O^T += V^T P^T.
  %kvs = hk.alloc_shared : !kv_st464
  %w = hk.wave_id
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st464 -> !kv_st64
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %kv_heads = memref.dim %K, %c1 : !kv64
  %page = memref.dim %K, %c2 : !kv64
  %splits = memref.dim %Op, %c2 : !op64
  %rows = memref.dim %Q, %c2 : !q64
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages, and entry 0 for an empty sequence (whose
  // loop does not run; P is at least 1 there, as the table's width).
  %len1 = arith.maxui %len, %c1 : index
  %last_key = arith.subi %len1, %c1 : index
  %page1 = arith.maxui %page, %c1 : index
  %last_pi = arith.divui %last_key, %page1 : index
  %lo_keys = arith.muli %lo, %c64 : index
  %lo_pi = arith.divui %lo_keys, %page1 : index
  %lo_ps = arith.muli %lo_pi, %page1 : index
  %lo_row = arith.subi %lo_keys, %lo_ps : index
  %lo_pi_c = arith.minui %lo_pi, %last_pi : index
  %lo_pid_i32 = memref.load %table[%b, %lo_pi_c] : memref<?x?xi32>
  %lo_pid = arith.index_castui %lo_pid_i32 : i32 to index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32
  %qlen_t = tensor.splat %qlen32 : !s_i32
  %first_t = tensor.splat %first32 : !s_i32
  %last_t = tensor.splat %last32 : !s_i32
  %row_pos = hk.iota row : !s_i32
  %col_pos = hk.iota col : !s_i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %r0_t = tensor.splat %r0_32 : !s_i32
    %r = arith.addi %row_pos, %r0_t : !s_i32
    %tok = arith.remui %r, %qlen_t : !s_i32
    %causal_last = arith.addi %tok, %first_t : !s_i32
    %limit = arith.minsi %causal_last, %last_t : !s_i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q64 -> !q_rt64

    %res:6 = scf.for %j = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec, %pid = %lo_pid,
                  %pi = %lo_pi, %row = %lo_row)
        -> (!o_rt64, !vec, !vec, index, index, index) {
      %k0 = arith.muli %j, %c64 : index
      // The block, keys k0 .. k0 + 63: rows k0 mod P .. + 63 of page %pid
      // (looked up one block ahead, so that the scalar load's latency is
      // not the block's).
      %row_tile = arith.divui %row, %c64 : index
      // The next block's page and row, without a division: P is a
      // multiple of 64 or holds the whole sequence.
      %kn = arith.addi %k0, %c64 : index
      %row_n = arith.addi %row, %c64 : index
      %wrap = arith.cmpi uge, %row_n, %page1 : index
      %pi_inc = arith.addi %pi, %c1 : index
      %pi_next = arith.select %wrap, %pi_inc, %pi : index
      %row_next = arith.select %wrap, %c0, %row_n : index
      %pi_load = arith.minui %pi_next, %last_pi : index
      %pid_next_i32 = memref.load %table[%b, %pi_load] : memref<?x?xi32>
      %pid_next = arith.index_castui %pid_next_i32 : i32 to index
      %kt = hk.load %K[%pid, %hkv, %row_tile, %c0] : !kv64 -> !k_rt64
      %vr = hk.load %V[%pid, %hkv, %row_tile, %c0] : !kv64 -> !v_row64
      // The last block of the sequence: its rows past the length hold
      // whatever the page does (a P of 0 times a NaN would be NaN), so they
      // are zeroed. K's are masked to -inf with the scores.
      %partial = arith.cmpi ugt, %kn, %len : index
      %vz = scf.if %partial -> (!v_row64) {
        %vm = hk.bounds_mask %vr at [%k0, %c0] within [%len, %cD]
            fill %zero_bf : !v_row64
        scf.yield %vm : !v_row64
      } else {
        scf.yield %vr : !v_row64
      }
      hk.store %vz, %kvw : !v_row64, !kv_st64
      %vt = hk.load %kvw : !kv_st64 -> !v_rt64
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt64, !q_rt64, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0_32 = arith.index_cast %k0 : index to i32
      %k0_t = tensor.splat %k0_32 : !s_i32
      %key = arith.addi %col_pos, %k0_t : !s_i32
      %seen = arith.cmpi sle, %key, %limit : !s_i32
      %sm = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T.
      %oa = hk.row_broadcast mul %o, %alpha : !o_rt64, !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      %ot = hk.transpose %oa : !o_rt64 -> !ot_acc64
      %ot2 = hk.mma atb %vt, %pt, %ot : !v_rt64, !pt_rt, !ot_acc64
      %on = hk.transpose %ot2 : !ot_acc64 -> !o_rt64
      scf.yield %on, %mx, %sum, %pid_next, %pi_next, %row_next
          : !o_rt64, !vec, !vec, index, index, index
    }

    // The split's O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %of = hk.row_broadcast div %res#0, %l_safe : !o_rt64, !vec
    hk.store %of, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt64, !op64
    %log_l = math.log2 %res#2 : !vec
    %lse2 = arith.addf %res#1, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

hk.kernel @attention_decode_p16_d64(%Q: !q64, %K: !kv64, %V: !kv64,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op64, %Lp: !lp,
    %q_len: index)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 64 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %scale = arith.constant dense<0.180336878> : !s_rt
  %scale_v = arith.constant dense<0.180336878> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt64
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64xD LDS tile: K's four 16-key chunks are stored into
  // it and read back in the MFMA operand layout, then V's likewise in the
  // column layout. One wave's LDS accesses execute in order, so V's stores
  // need no wait for K's reads.
  %kvs = hk.alloc_shared : !kv_st464
  %w = hk.wave_id
  %w4 = arith.muli %w, %c4 : index
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st464 -> !kv_st64
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %kv_heads = memref.dim %K, %c1 : !kv64
  %page = memref.dim %K, %c2 : !kv64
  %splits = memref.dim %Op, %c2 : !op64
  %rows = memref.dim %Q, %c2 : !q64
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages (the loop runs only when len > 0, so P > 0).
  %last_key = arith.subi %len, %c1 : index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32
  %qlen_t = tensor.splat %qlen32 : !s_i32
  %first_t = tensor.splat %first32 : !s_i32
  %last_t = tensor.splat %last32 : !s_i32
  %row_pos = hk.iota row : !s_i32
  %col_pos = hk.iota col : !s_i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %r0_t = tensor.splat %r0_32 : !s_i32
    %r = arith.addi %row_pos, %r0_t : !s_i32
    %tok = arith.remui %r, %qlen_t : !s_i32
    %causal_last = arith.addi %tok, %first_t : !s_i32
    %limit = arith.minsi %causal_last, %last_t : !s_i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q64 -> !q_rt64

    %res:3 = scf.for %j = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec)
        -> (!o_rt64, !vec, !vec) {
      %k0 = arith.muli %j, %c64 : index
      // Chunk 0: keys k0 + 0 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc0 = arith.addi %k0, %c0 : index
      %kl0 = arith.minui %kc0, %last_key : index
      %pi0 = arith.divui %kl0, %page : index
      %ps0 = arith.muli %pi0, %page : index
      %row0 = arith.subi %kc0, %ps0 : index
      %rt0 = arith.divui %row0, %c16 : index
      %pid0_i32 = memref.load %table[%b, %pi0] : memref<?x?xi32>
      %pid0 = arith.index_castui %pid0_i32 : i32 to index
      %kr0 = hk.load %K[%pid0, %hkv, %rt0, %c0] : !kv64 -> !chunk_rt64
      %vr0 = hk.load %V[%pid0, %hkv, %rt0, %c0] : !kv64 -> !chunk_rt64
      // Chunk 1: keys k0 + 16 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc1 = arith.addi %k0, %c16 : index
      %kl1 = arith.minui %kc1, %last_key : index
      %pi1 = arith.divui %kl1, %page : index
      %ps1 = arith.muli %pi1, %page : index
      %row1 = arith.subi %kc1, %ps1 : index
      %rt1 = arith.divui %row1, %c16 : index
      %pid1_i32 = memref.load %table[%b, %pi1] : memref<?x?xi32>
      %pid1 = arith.index_castui %pid1_i32 : i32 to index
      %kr1 = hk.load %K[%pid1, %hkv, %rt1, %c0] : !kv64 -> !chunk_rt64
      %vr1 = hk.load %V[%pid1, %hkv, %rt1, %c0] : !kv64 -> !chunk_rt64
      // Chunk 2: keys k0 + 32 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc2 = arith.addi %k0, %c32 : index
      %kl2 = arith.minui %kc2, %last_key : index
      %pi2 = arith.divui %kl2, %page : index
      %ps2 = arith.muli %pi2, %page : index
      %row2 = arith.subi %kc2, %ps2 : index
      %rt2 = arith.divui %row2, %c16 : index
      %pid2_i32 = memref.load %table[%b, %pi2] : memref<?x?xi32>
      %pid2 = arith.index_castui %pid2_i32 : i32 to index
      %kr2 = hk.load %K[%pid2, %hkv, %rt2, %c0] : !kv64 -> !chunk_rt64
      %vr2 = hk.load %V[%pid2, %hkv, %rt2, %c0] : !kv64 -> !chunk_rt64
      // Chunk 3: keys k0 + 48 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc3 = arith.addi %k0, %c48 : index
      %kl3 = arith.minui %kc3, %last_key : index
      %pi3 = arith.divui %kl3, %page : index
      %ps3 = arith.muli %pi3, %page : index
      %row3 = arith.subi %kc3, %ps3 : index
      %rt3 = arith.divui %row3, %c16 : index
      %pid3_i32 = memref.load %table[%b, %pi3] : memref<?x?xi32>
      %pid3 = arith.index_castui %pid3_i32 : i32 to index
      %kr3 = hk.load %K[%pid3, %hkv, %rt3, %c0] : !kv64 -> !chunk_rt64
      %vr3 = hk.load %V[%pid3, %hkv, %rt3, %c0] : !kv64 -> !chunk_rt64
      // The last block of the sequence: its rows past the length hold
      // whatever the pages do (a P of 0 times a NaN would be NaN), so V's
      // are zeroed. K's are masked to -inf with the scores.
      %kn = arith.addi %k0, %c64 : index
      %partial = arith.cmpi ugt, %kn, %len : index
      %vz:4 = scf.if %partial
          -> (!chunk_rt64, !chunk_rt64, !chunk_rt64, !chunk_rt64) {
        %vm0 = hk.bounds_mask %vr0 at [%kc0, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt64
        %vm1 = hk.bounds_mask %vr1 at [%kc1, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt64
        %vm2 = hk.bounds_mask %vr2 at [%kc2, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt64
        %vm3 = hk.bounds_mask %vr3 at [%kc3, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt64
        scf.yield %vm0, %vm1, %vm2, %vm3
            : !chunk_rt64, !chunk_rt64, !chunk_rt64, !chunk_rt64
      } else {
        scf.yield %vr0, %vr1, %vr2, %vr3
            : !chunk_rt64, !chunk_rt64, !chunk_rt64, !chunk_rt64
      }
      // K, then V, through the wave's LDS tile.
      %ksub0 = arith.addi %w4, %c0 : index
      %kst0 = hk.subtile %kvs[%ksub0, %c0] : !kv_st464 -> !chunk_st64
      hk.store %kr0, %kst0 : !chunk_rt64, !chunk_st64
      %ksub1 = arith.addi %w4, %c1 : index
      %kst1 = hk.subtile %kvs[%ksub1, %c0] : !kv_st464 -> !chunk_st64
      hk.store %kr1, %kst1 : !chunk_rt64, !chunk_st64
      %ksub2 = arith.addi %w4, %c2 : index
      %kst2 = hk.subtile %kvs[%ksub2, %c0] : !kv_st464 -> !chunk_st64
      hk.store %kr2, %kst2 : !chunk_rt64, !chunk_st64
      %ksub3 = arith.addi %w4, %c3 : index
      %kst3 = hk.subtile %kvs[%ksub3, %c0] : !kv_st464 -> !chunk_st64
      hk.store %kr3, %kst3 : !chunk_rt64, !chunk_st64
      %kt = hk.load %kvw : !kv_st64 -> !k_rt64
      hk.store %vz#0, %kst0 : !chunk_rt64, !chunk_st64
      hk.store %vz#1, %kst1 : !chunk_rt64, !chunk_st64
      hk.store %vz#2, %kst2 : !chunk_rt64, !chunk_st64
      hk.store %vz#3, %kst3 : !chunk_rt64, !chunk_st64
      %vt = hk.load %kvw : !kv_st64 -> !v_rt64
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt64, !q_rt64, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0_32 = arith.index_cast %k0 : index to i32
      %k0_t = tensor.splat %k0_32 : !s_i32
      %key = arith.addi %col_pos, %k0_t : !s_i32
      %seen = arith.cmpi sle, %key, %limit : !s_i32
      %sm = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T.
      %oa = hk.row_broadcast mul %o, %alpha : !o_rt64, !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      %ot = hk.transpose %oa : !o_rt64 -> !ot_acc64
      %ot2 = hk.mma atb %vt, %pt, %ot : !v_rt64, !pt_rt, !ot_acc64
      %on = hk.transpose %ot2 : !ot_acc64 -> !o_rt64
      scf.yield %on, %mx, %sum : !o_rt64, !vec, !vec
    }

    // The split's O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %of = hk.row_broadcast div %res#0, %l_safe : !o_rt64, !vec
    hk.store %of, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt64, !op64
    %log_l = math.log2 %res#2 : !vec
    %lse2 = arith.addf %res#1, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

hk.kernel @attention_decode_fp8_d64(%Q: !q64, %K: !kv8_64, %V: !kv8_64,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op64, %Lp: !lp,
    %q_len: index, %k_scale: memref<?xf32>, %v_scale: memref<?xf32>)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 64 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %score_scale = arith.constant 0.180336878 : f32
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt64
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64xD LDS tile, through which V goes from the row
  // layout of its load to the column layout of O^T += V^T P^T.
  %kvs = hk.alloc_shared : !kv_st464
  %w = hk.wave_id
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st464 -> !kv_st64
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  // The KV head's scales: k_scale[hk] and v_scale[hk] of per-head arrays
  // ([H_kv]), or element 0 of per-tensor ones ([1]). K's multiplies the
  // scores (with log2(e) / sqrt(D)), V's the output.
  %ks_n = memref.dim %k_scale, %c0 : memref<?xf32>
  %ks_last = arith.subi %ks_n, %c1 : index
  %ks_i = arith.minui %hkv, %ks_last : index
  %sk = memref.load %k_scale[%ks_i] : memref<?xf32>
  %vs_n = memref.dim %v_scale, %c0 : memref<?xf32>
  %vs_last = arith.subi %vs_n, %c1 : index
  %vs_i = arith.minui %hkv, %vs_last : index
  %sv = memref.load %v_scale[%vs_i] : memref<?xf32>
  %skc = arith.mulf %sk, %score_scale : f32
  %scale = tensor.splat %skc : !s_rt
  %scale_v = tensor.splat %skc : !vec
  %sv_v = tensor.splat %sv : !vec
  %kv_heads = memref.dim %K, %c1 : !kv8_64
  %page = memref.dim %K, %c2 : !kv8_64
  %splits = memref.dim %Op, %c2 : !op64
  %rows = memref.dim %Q, %c2 : !q64
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages, and entry 0 for an empty sequence (whose
  // loop does not run; P is at least 1 there, as the table's width).
  %len1 = arith.maxui %len, %c1 : index
  %last_key = arith.subi %len1, %c1 : index
  %page1 = arith.maxui %page, %c1 : index
  %last_pi = arith.divui %last_key, %page1 : index
  %lo_keys = arith.muli %lo, %c64 : index
  %lo_pi = arith.divui %lo_keys, %page1 : index
  %lo_ps = arith.muli %lo_pi, %page1 : index
  %lo_row = arith.subi %lo_keys, %lo_ps : index
  %lo_pi_c = arith.minui %lo_pi, %last_pi : index
  %lo_pid_i32 = memref.load %table[%b, %lo_pi_c] : memref<?x?xi32>
  %lo_pid = arith.index_castui %lo_pid_i32 : i32 to index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32
  %qlen_t = tensor.splat %qlen32 : !s_i32
  %first_t = tensor.splat %first32 : !s_i32
  %last_t = tensor.splat %last32 : !s_i32
  %row_pos = hk.iota row : !s_i32
  %col_pos = hk.iota col : !s_i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %r0_t = tensor.splat %r0_32 : !s_i32
    %r = arith.addi %row_pos, %r0_t : !s_i32
    %tok = arith.remui %r, %qlen_t : !s_i32
    %causal_last = arith.addi %tok, %first_t : !s_i32
    %limit = arith.minsi %causal_last, %last_t : !s_i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q64 -> !q_rt64

    %res:6 = scf.for %j = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec, %pid = %lo_pid,
                  %pi = %lo_pi, %row = %lo_row)
        -> (!o_rt64, !vec, !vec, index, index, index) {
      %k0 = arith.muli %j, %c64 : index
      // The block, keys k0 .. k0 + 63: rows k0 mod P .. + 63 of page %pid
      // (looked up one block ahead, so that the scalar load's latency is
      // not the block's).
      %row_tile = arith.divui %row, %c64 : index
      // The next block's page and row, without a division: P is a
      // multiple of 64 or holds the whole sequence.
      %kn = arith.addi %k0, %c64 : index
      %row_n = arith.addi %row, %c64 : index
      %wrap = arith.cmpi uge, %row_n, %page1 : index
      %pi_inc = arith.addi %pi, %c1 : index
      %pi_next = arith.select %wrap, %pi_inc, %pi : index
      %row_next = arith.select %wrap, %c0, %row_n : index
      %pi_load = arith.minui %pi_next, %last_pi : index
      %pid_next_i32 = memref.load %table[%b, %pi_load] : memref<?x?xi32>
      %pid_next = arith.index_castui %pid_next_i32 : i32 to index
      // fp8 K and V, widened to bf16 (exact: E4M3 values are bf16 values).
      %kt8 = hk.load %K[%pid, %hkv, %row_tile, %c0] : !kv8_64 -> !k8_rt64
      %vr8 = hk.load %V[%pid, %hkv, %row_tile, %c0] : !kv8_64 -> !v8_row64
      %kt = arith.extf %kt8 : !k8_rt64 to !k_rt64
      %vr = arith.extf %vr8 : !v8_row64 to !v_row64
      // The last block of the sequence: its rows past the length hold
      // whatever the page does (a P of 0 times a NaN would be NaN), so they
      // are zeroed. K's are masked to -inf with the scores.
      %partial = arith.cmpi ugt, %kn, %len : index
      %vz = scf.if %partial -> (!v_row64) {
        %vm = hk.bounds_mask %vr at [%k0, %c0] within [%len, %cD]
            fill %zero_bf : !v_row64
        scf.yield %vm : !v_row64
      } else {
        scf.yield %vr : !v_row64
      }
      hk.store %vz, %kvw : !v_row64, !kv_st64
      %vt = hk.load %kvw : !kv_st64 -> !v_rt64
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt64, !q_rt64, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0_32 = arith.index_cast %k0 : index to i32
      %k0_t = tensor.splat %k0_32 : !s_i32
      %key = arith.addi %col_pos, %k0_t : !s_i32
      %seen = arith.cmpi sle, %key, %limit : !s_i32
      %sm = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T.
      %oa = hk.row_broadcast mul %o, %alpha : !o_rt64, !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      %ot = hk.transpose %oa : !o_rt64 -> !ot_acc64
      %ot2 = hk.mma atb %vt, %pt, %ot : !v_rt64, !pt_rt, !ot_acc64
      %on = hk.transpose %ot2 : !ot_acc64 -> !o_rt64
      scf.yield %on, %mx, %sum, %pid_next, %pi_next, %row_next
          : !o_rt64, !vec, !vec, index, index, index
    }

    // The split's v_scale O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %l_sv = arith.divf %l_safe, %sv_v : !vec
    %of = hk.row_broadcast div %res#0, %l_sv : !o_rt64, !vec
    hk.store %of, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt64, !op64
    %log_l = math.log2 %res#2 : !vec
    %lse2 = arith.addf %res#1, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

// @attention_decode_fp8_p16_d64: @attention_decode_p16_d64 over fp8 pools
// (pages of a multiple of 16 rows): each chunk is widened to bf16 after its
// load, before it is stored into the wave's LDS tile; the scales as in
// @attention_decode_fp8_d64.
hk.kernel @attention_decode_fp8_p16_d64(%Q: !q64, %K: !kv8_64, %V: !kv8_64,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op64, %Lp: !lp,
    %q_len: index, %k_scale: memref<?xf32>, %v_scale: memref<?xf32>)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 64 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %score_scale = arith.constant 0.180336878 : f32
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt64
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64xD LDS tile: K's four 16-key chunks are stored into
  // it and read back in the MFMA operand layout, then V's likewise in the
  // column layout. One wave's LDS accesses execute in order, so V's stores
  // need no wait for K's reads.
  %kvs = hk.alloc_shared : !kv_st464
  %w = hk.wave_id
  %w4 = arith.muli %w, %c4 : index
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st464 -> !kv_st64
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  // The KV head's scales: k_scale[hk] and v_scale[hk] of per-head arrays
  // ([H_kv]), or element 0 of per-tensor ones ([1]). K's multiplies the
  // scores (with log2(e) / sqrt(D)), V's the output.
  %ks_n = memref.dim %k_scale, %c0 : memref<?xf32>
  %ks_last = arith.subi %ks_n, %c1 : index
  %ks_i = arith.minui %hkv, %ks_last : index
  %sk = memref.load %k_scale[%ks_i] : memref<?xf32>
  %vs_n = memref.dim %v_scale, %c0 : memref<?xf32>
  %vs_last = arith.subi %vs_n, %c1 : index
  %vs_i = arith.minui %hkv, %vs_last : index
  %sv = memref.load %v_scale[%vs_i] : memref<?xf32>
  %skc = arith.mulf %sk, %score_scale : f32
  %scale = tensor.splat %skc : !s_rt
  %scale_v = tensor.splat %skc : !vec
  %sv_v = tensor.splat %sv : !vec
  %page = memref.dim %K, %c2 : !kv8_64
  %splits = memref.dim %Op, %c2 : !op64
  %rows = memref.dim %Q, %c2 : !q64
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages (the loop runs only when len > 0, so P > 0).
  %last_key = arith.subi %len, %c1 : index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32
  %qlen_t = tensor.splat %qlen32 : !s_i32
  %first_t = tensor.splat %first32 : !s_i32
  %last_t = tensor.splat %last32 : !s_i32
  %row_pos = hk.iota row : !s_i32
  %col_pos = hk.iota col : !s_i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %r0_t = tensor.splat %r0_32 : !s_i32
    %r = arith.addi %row_pos, %r0_t : !s_i32
    %tok = arith.remui %r, %qlen_t : !s_i32
    %causal_last = arith.addi %tok, %first_t : !s_i32
    %limit = arith.minsi %causal_last, %last_t : !s_i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q64 -> !q_rt64

    %res:3 = scf.for %j = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %m_init, %l = %zero_vec)
        -> (!o_rt64, !vec, !vec) {
      %k0 = arith.muli %j, %c64 : index
      // Chunk 0: keys k0 + 0 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc0 = arith.addi %k0, %c0 : index
      %kl0 = arith.minui %kc0, %last_key : index
      %pi0 = arith.divui %kl0, %page : index
      %ps0 = arith.muli %pi0, %page : index
      %row0 = arith.subi %kc0, %ps0 : index
      %rt0 = arith.divui %row0, %c16 : index
      %pid0_i32 = memref.load %table[%b, %pi0] : memref<?x?xi32>
      %pid0 = arith.index_castui %pid0_i32 : i32 to index
      %kr08 = hk.load %K[%pid0, %hkv, %rt0, %c0] : !kv8_64 -> !chunk8_rt64
      %kr0 = arith.extf %kr08 : !chunk8_rt64 to !chunk_rt64
      %vr08 = hk.load %V[%pid0, %hkv, %rt0, %c0] : !kv8_64 -> !chunk8_rt64
      %vr0 = arith.extf %vr08 : !chunk8_rt64 to !chunk_rt64
      // Chunk 1: keys k0 + 16 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc1 = arith.addi %k0, %c16 : index
      %kl1 = arith.minui %kc1, %last_key : index
      %pi1 = arith.divui %kl1, %page : index
      %ps1 = arith.muli %pi1, %page : index
      %row1 = arith.subi %kc1, %ps1 : index
      %rt1 = arith.divui %row1, %c16 : index
      %pid1_i32 = memref.load %table[%b, %pi1] : memref<?x?xi32>
      %pid1 = arith.index_castui %pid1_i32 : i32 to index
      %kr18 = hk.load %K[%pid1, %hkv, %rt1, %c0] : !kv8_64 -> !chunk8_rt64
      %kr1 = arith.extf %kr18 : !chunk8_rt64 to !chunk_rt64
      %vr18 = hk.load %V[%pid1, %hkv, %rt1, %c0] : !kv8_64 -> !chunk8_rt64
      %vr1 = arith.extf %vr18 : !chunk8_rt64 to !chunk_rt64
      // Chunk 2: keys k0 + 32 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc2 = arith.addi %k0, %c32 : index
      %kl2 = arith.minui %kc2, %last_key : index
      %pi2 = arith.divui %kl2, %page : index
      %ps2 = arith.muli %pi2, %page : index
      %row2 = arith.subi %kc2, %ps2 : index
      %rt2 = arith.divui %row2, %c16 : index
      %pid2_i32 = memref.load %table[%b, %pi2] : memref<?x?xi32>
      %pid2 = arith.index_castui %pid2_i32 : i32 to index
      %kr28 = hk.load %K[%pid2, %hkv, %rt2, %c0] : !kv8_64 -> !chunk8_rt64
      %kr2 = arith.extf %kr28 : !chunk8_rt64 to !chunk_rt64
      %vr28 = hk.load %V[%pid2, %hkv, %rt2, %c0] : !kv8_64 -> !chunk8_rt64
      %vr2 = arith.extf %vr28 : !chunk8_rt64 to !chunk_rt64
      // Chunk 3: keys k0 + 48 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P].
      %kc3 = arith.addi %k0, %c48 : index
      %kl3 = arith.minui %kc3, %last_key : index
      %pi3 = arith.divui %kl3, %page : index
      %ps3 = arith.muli %pi3, %page : index
      %row3 = arith.subi %kc3, %ps3 : index
      %rt3 = arith.divui %row3, %c16 : index
      %pid3_i32 = memref.load %table[%b, %pi3] : memref<?x?xi32>
      %pid3 = arith.index_castui %pid3_i32 : i32 to index
      %kr38 = hk.load %K[%pid3, %hkv, %rt3, %c0] : !kv8_64 -> !chunk8_rt64
      %kr3 = arith.extf %kr38 : !chunk8_rt64 to !chunk_rt64
      %vr38 = hk.load %V[%pid3, %hkv, %rt3, %c0] : !kv8_64 -> !chunk8_rt64
      %vr3 = arith.extf %vr38 : !chunk8_rt64 to !chunk_rt64
      // The last block of the sequence: its rows past the length hold
      // whatever the pages do (a P of 0 times a NaN would be NaN), so V's
      // are zeroed. K's are masked to -inf with the scores.
      %kn = arith.addi %k0, %c64 : index
      %partial = arith.cmpi ugt, %kn, %len : index
      %vz:4 = scf.if %partial
          -> (!chunk_rt64, !chunk_rt64, !chunk_rt64, !chunk_rt64) {
        %vm0 = hk.bounds_mask %vr0 at [%kc0, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt64
        %vm1 = hk.bounds_mask %vr1 at [%kc1, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt64
        %vm2 = hk.bounds_mask %vr2 at [%kc2, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt64
        %vm3 = hk.bounds_mask %vr3 at [%kc3, %c0] within [%len, %cD]
            fill %zero_bf : !chunk_rt64
        scf.yield %vm0, %vm1, %vm2, %vm3
            : !chunk_rt64, !chunk_rt64, !chunk_rt64, !chunk_rt64
      } else {
        scf.yield %vr0, %vr1, %vr2, %vr3
            : !chunk_rt64, !chunk_rt64, !chunk_rt64, !chunk_rt64
      }
      // K, then V, through the wave's LDS tile.
      %ksub0 = arith.addi %w4, %c0 : index
      %kst0 = hk.subtile %kvs[%ksub0, %c0] : !kv_st464 -> !chunk_st64
      hk.store %kr0, %kst0 : !chunk_rt64, !chunk_st64
      %ksub1 = arith.addi %w4, %c1 : index
      %kst1 = hk.subtile %kvs[%ksub1, %c0] : !kv_st464 -> !chunk_st64
      hk.store %kr1, %kst1 : !chunk_rt64, !chunk_st64
      %ksub2 = arith.addi %w4, %c2 : index
      %kst2 = hk.subtile %kvs[%ksub2, %c0] : !kv_st464 -> !chunk_st64
      hk.store %kr2, %kst2 : !chunk_rt64, !chunk_st64
      %ksub3 = arith.addi %w4, %c3 : index
      %kst3 = hk.subtile %kvs[%ksub3, %c0] : !kv_st464 -> !chunk_st64
      hk.store %kr3, %kst3 : !chunk_rt64, !chunk_st64
      %kt = hk.load %kvw : !kv_st64 -> !k_rt64
      hk.store %vz#0, %kst0 : !chunk_rt64, !chunk_st64
      hk.store %vz#1, %kst1 : !chunk_rt64, !chunk_st64
      hk.store %vz#2, %kst2 : !chunk_rt64, !chunk_st64
      hk.store %vz#3, %kst3 : !chunk_rt64, !chunk_st64
      %vt = hk.load %kvw : !kv_st64 -> !v_rt64
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt64, !q_rt64, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0_32 = arith.index_cast %k0 : index to i32
      %k0_t = tensor.splat %k0_32 : !s_i32
      %key = arith.addi %col_pos, %k0_t : !s_i32
      %seen = arith.cmpi sle, %key, %limit : !s_i32
      %sm = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T.
      %oa = hk.row_broadcast mul %o, %alpha : !o_rt64, !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      %ot = hk.transpose %oa : !o_rt64 -> !ot_acc64
      %ot2 = hk.mma atb %vt, %pt, %ot : !v_rt64, !pt_rt, !ot_acc64
      %on = hk.transpose %ot2 : !ot_acc64 -> !o_rt64
      scf.yield %on, %mx, %sum : !o_rt64, !vec, !vec
    }

    // The split's v_scale O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %l_sv = arith.divf %l_safe, %sv_v : !vec
    %of = hk.row_broadcast div %res#0, %l_sv : !o_rt64, !vec
    hk.store %of, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt64, !op64
    %log_l = math.log2 %res#2 : !vec
    %lse2 = arith.addf %res#1, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

// Merges groups of the splits of the D = 64 entry points into fewer
// partial results of the same kind, so that the combine does not walk
// hundreds of splits: group g of S2 (the third dimension of %Op2) takes the
// splits [g c, min((g + 1) c, S)), c = ceil(S / S2), and writes their
// merged O (f32, normalised) and LSE. One workgroup per 32-column slice of
// a group (grid (S2 2, H_kv, B)), every row tile in turn, the four waves
// and their merge through LDS as in the combine; a group without splits
// writes O = 0 and L = -inf.
hk.kernel @attention_decode_merge_d64(%Op: !op64, %Lp: !lp, %Op2: !op64,
    %Lp2: !lp) attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(2, 2), dim(2, 1), dim(2, 0)] -> (s0 * 2, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cNC = arith.constant 2 : index
  %log2e = arith.constant dense<1.44269502> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %low = arith.constant dense<-1.0e30> : !vec
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_slice
  %parts = hk.alloc_shared : !part_st
  %w = hk.wave_id
  %x = hk.block_id x
  %g = arith.divui %x, %cNC : index
  %dc = arith.remui %x, %cNC : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %c32 = arith.constant 32 : index
  %splits = memref.dim %Op, %c2 : !op64
  %groups = memref.dim %Op2, %c2 : !op64
  %rows = memref.dim %Op, %c3 : !op64
  %row_tiles = arith.ceildivui %rows, %c32 : index
  // The group's splits [g c, min((g + 1) c, S)), c = ceil(S / S2), and of
  // them this wave's quarter.
  %gper = arith.ceildivui %splits, %groups : index
  %glo_raw = arith.muli %g, %gper : index
  %glo = arith.minui %glo_raw, %splits : index
  %ghi_raw = arith.addi %glo, %gper : index
  %ghi = arith.minui %ghi_raw, %splits : index
  %gn = arith.subi %ghi, %glo : index
  %per = arith.ceildivui %gn, %c4 : index
  %wlo = arith.muli %w, %per : index
  %lo_raw = arith.addi %glo, %wlo : index
  %lo = arith.minui %lo_raw, %ghi : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %ghi : index
  %hi1 = arith.maxui %hi, %c1 : index
  %last = arith.subi %hi1, %c1 : index
  %lo_c = arith.minui %lo, %last : index
  scf.for %rt = %c0 to %row_tiles step %c1 {
    %os_0 = hk.load %Op[%b, %hkv, %lo_c, %rt, %dc] : !op64 -> !o_slice
    %ls_0 = hk.load %Lp[%b, %hkv, %lo_c, %rt] : !lp -> !vec
    %res:5 = scf.for %s = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %low, %l = %zero_vec, %os = %os_0,
                  %ls = %ls_0)
        -> (!o_slice, !vec, !vec, !o_slice, !vec) {
      %sn = arith.addi %s, %c1 : index
      %sn_c = arith.minui %sn, %last : index
      %os_n = hk.load %Op[%b, %hkv, %sn_c, %rt, %dc] : !op64 -> !o_slice
      %ls_n = hk.load %Lp[%b, %hkv, %sn_c, %rt] : !lp -> !vec
      %mx = arith.maximumf %m, %ls : !vec
      %da = arith.subf %m, %mx : !vec
      %da2 = arith.mulf %da, %log2e : !vec
      %alpha = math.exp2 %da2 : !vec
      %dw = arith.subf %ls, %mx : !vec
      %dw2 = arith.mulf %dw, %log2e : !vec
      %wt = math.exp2 %dw2 : !vec
      %oa = hk.row_broadcast mul %o, %alpha : !o_slice, !vec
      %ow = hk.row_broadcast mul %os, %wt : !o_slice, !vec
      %on = arith.addf %oa, %ow : !o_slice
      %la = arith.mulf %l, %alpha : !vec
      %ln = arith.addf %la, %wt : !vec
      scf.yield %on, %mx, %ln, %os_n, %ls_n
          : !o_slice, !vec, !vec, !o_slice, !vec
    }
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %of = hk.row_broadcast div %res#0, %l_safe : !o_slice, !vec
    %log_l = math.log2 %res#2 : !vec
    %log_e = arith.mulf %log_l, %ln2 : !vec
    %lse = arith.addf %res#1, %log_e : !vec
    %lse_t = hk.row_broadcast add %zero_o, %lse : !o_slice, !vec
    %w4 = arith.addi %w, %c4 : index
    %po = hk.subtile %parts[%w, %c0] : !part_st -> !slice_st
    %pl = hk.subtile %parts[%w4, %c0] : !part_st -> !slice_st
    hk.store %of, %po : !o_slice, !slice_st
    hk.store %lse_t, %pl : !o_slice, !slice_st
    hk.barrier
    %first = arith.cmpi eq, %w, %c0 : index
    scf.if %first {
      %p0 = hk.subtile %parts[%c0, %c0] : !part_st -> !slice_st
      %p1 = hk.subtile %parts[%c1, %c0] : !part_st -> !slice_st
      %p2 = hk.subtile %parts[%c2, %c0] : !part_st -> !slice_st
      %p3 = hk.subtile %parts[%c3, %c0] : !part_st -> !slice_st
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %q0 = hk.subtile %parts[%c4, %c0] : !part_st -> !slice_st
      %q1 = hk.subtile %parts[%c5, %c0] : !part_st -> !slice_st
      %q2 = hk.subtile %parts[%c6, %c0] : !part_st -> !slice_st
      %q3 = hk.subtile %parts[%c7, %c0] : !part_st -> !slice_st
      %o0 = hk.load %p0 : !slice_st -> !o_slice
      %o1 = hk.load %p1 : !slice_st -> !o_slice
      %o2 = hk.load %p2 : !slice_st -> !o_slice
      %o3 = hk.load %p3 : !slice_st -> !o_slice
      %l0 = hk.load %q0 : !slice_st -> !o_slice
      %l1 = hk.load %q1 : !slice_st -> !o_slice
      %l2 = hk.load %q2 : !slice_st -> !o_slice
      %l3 = hk.load %q3 : !slice_st -> !o_slice
      // The four waves' LSEs as vectors (each row of an LSE tile holds one
      // value), the weights exp(L_w - M) on vectors rather than tiles.
      %v0 = hk.row_reduce max %l0 : !o_slice -> !vec
      %v1 = hk.row_reduce max %l1 : !o_slice -> !vec
      %v2 = hk.row_reduce max %l2 : !o_slice -> !vec
      %v3 = hk.row_reduce max %l3 : !o_slice -> !vec
      %m01 = arith.maximumf %v0, %v1 : !vec
      %m23 = arith.maximumf %v2, %v3 : !vec
      %mm = arith.maximumf %m01, %m23 : !vec
      %mt = arith.maximumf %mm, %low : !vec
      %d0 = arith.subf %v0, %mt : !vec
      %d1 = arith.subf %v1, %mt : !vec
      %d2 = arith.subf %v2, %mt : !vec
      %d3 = arith.subf %v3, %mt : !vec
      %e0 = arith.mulf %d0, %log2e : !vec
      %e1 = arith.mulf %d1, %log2e : !vec
      %e2 = arith.mulf %d2, %log2e : !vec
      %e3 = arith.mulf %d3, %log2e : !vec
      %w0 = math.exp2 %e0 : !vec
      %w1 = math.exp2 %e1 : !vec
      %w2 = math.exp2 %e2 : !vec
      %w3 = math.exp2 %e3 : !vec
      %w01 = arith.addf %w0, %w1 : !vec
      %w23 = arith.addf %w2, %w3 : !vec
      %wsum = arith.addf %w01, %w23 : !vec
      %wsafe = arith.maximumf %wsum, %tiny : !vec
      %n0 = arith.divf %w0, %wsafe : !vec
      %n1 = arith.divf %w1, %wsafe : !vec
      %n2 = arith.divf %w2, %wsafe : !vec
      %n3 = arith.divf %w3, %wsafe : !vec
      %a0 = hk.row_broadcast mul %o0, %n0 : !o_slice, !vec
      %a1 = hk.row_broadcast mul %o1, %n1 : !o_slice, !vec
      %a2 = hk.row_broadcast mul %o2, %n2 : !o_slice, !vec
      %a3 = hk.row_broadcast mul %o3, %n3 : !o_slice, !vec
      %s01 = arith.addf %a0, %a1 : !o_slice
      %s23 = arith.addf %a2, %a3 : !o_slice
      %ofin = arith.addf %s01, %s23 : !o_slice
      hk.store %ofin, %Op2[%b, %hkv, %g, %rt, %dc] : !o_slice, !op64
      %dfirst = arith.cmpi eq, %dc, %c0 : index
      scf.if %dfirst {
        %lw = math.log2 %wsum : !vec
        %lwe = arith.mulf %lw, %ln2 : !vec
        %lv = arith.addf %mt, %lwe : !vec
        hk.store %lv, %Lp2[%b, %hkv, %g, %rt] : !vec, !lp
      }
    }
    // The parts are written again for the next row tile.
    hk.barrier
  }
  hk.return
}

// Merges the splits of the D = 64 entry points: for every row,
//   L = log sum_s exp(L_s),  O = sum_s exp(L_s - L) O_s.
// One workgroup per 32-column slice of a 32-row tile (grid
// (ceil(G q_len / 32) 2, H_kv, B)), four waves: the merge of a slice is a
// chain of dependent loads, so each wave takes a quarter of the splits and
// walks them as an online merge (a running maximum from -1e30, finite, so
// that a split without keys weighs exp(-inf) = 0, never NaN), loading split
// s + 1's slice while it merges split s (the last trip loads its last split
// again, never past it). The waves put their normalised O and their LSE
// (as a tile whose rows hold it) into LDS, and wave 0 merges the four. A
// row without any key gets O = 0 and L = -inf.
hk.kernel @attention_decode_combine_d64(%Op: !op64, %Lp: !lp, %O: !q64,
    %L: memref<?x?x?xf32>) attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(2, 2), dim(2, 1), dim(2, 0)]
                    -> ((s0 ceildiv 32) * 2, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cNC = arith.constant 2 : index
  %log2e = arith.constant dense<1.44269502> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %low = arith.constant dense<-1.0e30> : !vec
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_slice
  %parts = hk.alloc_shared : !part_st
  %w = hk.wave_id
  %x = hk.block_id x
  %rt = arith.divui %x, %cNC : index
  %dc = arith.remui %x, %cNC : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %splits = memref.dim %Op, %c2 : !op64
  %per = arith.ceildivui %splits, %c4 : index
  %lo_raw = arith.muli %w, %per : index
  %lo = arith.minui %lo_raw, %splits : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %splits : index
  %hi1 = arith.maxui %hi, %c1 : index
  %last = arith.subi %hi1, %c1 : index
  %lo_c = arith.minui %lo, %last : index
  %os_0 = hk.load %Op[%b, %hkv, %lo_c, %rt, %dc] : !op64 -> !o_slice
  %ls_0 = hk.load %Lp[%b, %hkv, %lo_c, %rt] : !lp -> !vec
  %res:5 = scf.for %s = %lo to %hi step %c1
      iter_args(%o = %zero_o, %m = %low, %l = %zero_vec, %os = %os_0,
                %ls = %ls_0)
      -> (!o_slice, !vec, !vec, !o_slice, !vec) {
    %sn = arith.addi %s, %c1 : index
    %sn_c = arith.minui %sn, %last : index
    %os_n = hk.load %Op[%b, %hkv, %sn_c, %rt, %dc] : !op64 -> !o_slice
    %ls_n = hk.load %Lp[%b, %hkv, %sn_c, %rt] : !lp -> !vec
    %mx = arith.maximumf %m, %ls : !vec
    %da = arith.subf %m, %mx : !vec
    %da2 = arith.mulf %da, %log2e : !vec
    %alpha = math.exp2 %da2 : !vec
    %dw = arith.subf %ls, %mx : !vec
    %dw2 = arith.mulf %dw, %log2e : !vec
    %wt = math.exp2 %dw2 : !vec
    %oa = hk.row_broadcast mul %o, %alpha : !o_slice, !vec
    %ow = hk.row_broadcast mul %os, %wt : !o_slice, !vec
    %on = arith.addf %oa, %ow : !o_slice
    %la = arith.mulf %l, %alpha : !vec
    %ln = arith.addf %la, %wt : !vec
    scf.yield %on, %mx, %ln, %os_n, %ls_n
        : !o_slice, !vec, !vec, !o_slice, !vec
  }
  %l_safe = arith.maximumf %res#2, %tiny : !vec
  %of = hk.row_broadcast div %res#0, %l_safe : !o_slice, !vec
  %log_l = math.log2 %res#2 : !vec
  %log_e = arith.mulf %log_l, %ln2 : !vec
  %lse = arith.addf %res#1, %log_e : !vec
  %lse_t = hk.row_broadcast add %zero_o, %lse : !o_slice, !vec
  %w4 = arith.addi %w, %c4 : index
  %po = hk.subtile %parts[%w, %c0] : !part_st -> !slice_st
  %pl = hk.subtile %parts[%w4, %c0] : !part_st -> !slice_st
  hk.store %of, %po : !o_slice, !slice_st
  hk.store %lse_t, %pl : !o_slice, !slice_st
  hk.barrier
  %first = arith.cmpi eq, %w, %c0 : index
  scf.if %first {
    %p0 = hk.subtile %parts[%c0, %c0] : !part_st -> !slice_st
    %p1 = hk.subtile %parts[%c1, %c0] : !part_st -> !slice_st
    %p2 = hk.subtile %parts[%c2, %c0] : !part_st -> !slice_st
    %p3 = hk.subtile %parts[%c3, %c0] : !part_st -> !slice_st
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %q0 = hk.subtile %parts[%c4, %c0] : !part_st -> !slice_st
    %q1 = hk.subtile %parts[%c5, %c0] : !part_st -> !slice_st
    %q2 = hk.subtile %parts[%c6, %c0] : !part_st -> !slice_st
    %q3 = hk.subtile %parts[%c7, %c0] : !part_st -> !slice_st
    %o0 = hk.load %p0 : !slice_st -> !o_slice
    %o1 = hk.load %p1 : !slice_st -> !o_slice
    %o2 = hk.load %p2 : !slice_st -> !o_slice
    %o3 = hk.load %p3 : !slice_st -> !o_slice
    %l0 = hk.load %q0 : !slice_st -> !o_slice
    %l1 = hk.load %q1 : !slice_st -> !o_slice
    %l2 = hk.load %q2 : !slice_st -> !o_slice
    %l3 = hk.load %q3 : !slice_st -> !o_slice
    // The four waves' LSEs as vectors (each row of an LSE tile holds one
    // value), the weights exp(L_w - M) on vectors rather than tiles.
    %v0 = hk.row_reduce max %l0 : !o_slice -> !vec
    %v1 = hk.row_reduce max %l1 : !o_slice -> !vec
    %v2 = hk.row_reduce max %l2 : !o_slice -> !vec
    %v3 = hk.row_reduce max %l3 : !o_slice -> !vec
    %m01 = arith.maximumf %v0, %v1 : !vec
    %m23 = arith.maximumf %v2, %v3 : !vec
    %mm = arith.maximumf %m01, %m23 : !vec
    %mt = arith.maximumf %mm, %low : !vec
    %d0 = arith.subf %v0, %mt : !vec
    %d1 = arith.subf %v1, %mt : !vec
    %d2 = arith.subf %v2, %mt : !vec
    %d3 = arith.subf %v3, %mt : !vec
    %e0 = arith.mulf %d0, %log2e : !vec
    %e1 = arith.mulf %d1, %log2e : !vec
    %e2 = arith.mulf %d2, %log2e : !vec
    %e3 = arith.mulf %d3, %log2e : !vec
    %w0 = math.exp2 %e0 : !vec
    %w1 = math.exp2 %e1 : !vec
    %w2 = math.exp2 %e2 : !vec
    %w3 = math.exp2 %e3 : !vec
    %w01 = arith.addf %w0, %w1 : !vec
    %w23 = arith.addf %w2, %w3 : !vec
    %wsum = arith.addf %w01, %w23 : !vec
    %wsafe = arith.maximumf %wsum, %tiny : !vec
    %n0 = arith.divf %w0, %wsafe : !vec
    %n1 = arith.divf %w1, %wsafe : !vec
    %n2 = arith.divf %w2, %wsafe : !vec
    %n3 = arith.divf %w3, %wsafe : !vec
    %a0 = hk.row_broadcast mul %o0, %n0 : !o_slice, !vec
    %a1 = hk.row_broadcast mul %o1, %n1 : !o_slice, !vec
    %a2 = hk.row_broadcast mul %o2, %n2 : !o_slice, !vec
    %a3 = hk.row_broadcast mul %o3, %n3 : !o_slice, !vec
    %s01 = arith.addf %a0, %a1 : !o_slice
    %s23 = arith.addf %a2, %a3 : !o_slice
    %ofin = arith.addf %s01, %s23 : !o_slice
    %ob = arith.truncf %ofin : !o_slice to !o_out_slice
    hk.store %ob, %O[%b, %hkv, %rt, %dc] : !o_out_slice, !q64
    %dfirst = arith.cmpi eq, %dc, %c0 : index
    scf.if %dfirst {
      %lw = math.log2 %wsum : !vec
      %lwe = arith.mulf %lw, %ln2 : !vec
      %lv = arith.addf %mt, %lwe : !vec
      hk.store %lv, %L[%b, %hkv, %rt] : !vec, memref<?x?x?xf32>
    }
  }
  hk.return
}

// ---------------------------------------------------------------------------
// D = 256: scale = log2(e) / sqrt(256) = 0.0901684400. The register tiles
// of a 64-key block at D = 256 would not all fit a wave's 512 registers
// with a 64xD LDS tile per wave in gfx942's 64 KiB, so V (and, through LDS,
// K) goes by halves of 128 columns: the D = 128 tiles, one per half, and O
// as two 32x128 accumulators.
// ---------------------------------------------------------------------------
!q_rt256 = tensor<32x256xbf16, #hk.rt<row, 32x16>>
!k_rt256 = tensor<64x256xbf16, #hk.rt<row, 32x16>>
!q256 = memref<?x?x?x256xbf16>
!kv256 = memref<?x?x?x256xbf16, strided<[?, ?, ?, 1]>>
!op256 = memref<?x?x?x?x256xf32>
!kv8_256 = memref<?x?x?x256x!hk.fp8, strided<[?, ?, ?, 1]>>
!k8_rt256 = tensor<64x256x!hk.fp8, #hk.rt<row, 32x16>>

hk.kernel @attention_decode_d256(%Q: !q256, %K: !kv256, %V: !kv256,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op256, %Lp: !lp,
    %q_len: index)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cDh = arith.constant 128 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %scale = arith.constant dense<0.0901684400> : !s_rt
  %scale_v = arith.constant dense<0.0901684400> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64x128 LDS tile, through which each half of V goes
  // from the row layout of its load to the column layout of
  // O^T += V^T P^T (a 64x256 tile per wave would not fit gfx942's LDS).
  %kvs = hk.alloc_shared : !kv_st4128
  %w = hk.wave_id
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st4128 -> !kv_st128
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %page = memref.dim %K, %c2 : !kv256
  %splits = memref.dim %Op, %c2 : !op256
  %rows = memref.dim %Q, %c2 : !q256
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages, and entry 0 for an empty sequence (whose
  // loop does not run; P is at least 1 there, as the table's width).
  %len1 = arith.maxui %len, %c1 : index
  %last_key = arith.subi %len1, %c1 : index
  %page1 = arith.maxui %page, %c1 : index
  %last_pi = arith.divui %last_key, %page1 : index
  %lo_keys = arith.muli %lo, %c64 : index
  %lo_pi = arith.divui %lo_keys, %page1 : index
  %lo_ps = arith.muli %lo_pi, %page1 : index
  %lo_row = arith.subi %lo_keys, %lo_ps : index
  %lo_pi_c = arith.minui %lo_pi, %last_pi : index
  %lo_pid_i32 = memref.load %table[%b, %lo_pi_c] : memref<?x?xi32>
  %lo_pid = arith.index_castui %lo_pid_i32 : i32 to index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q256 -> !q_rt256

    // O in two halves of 128 columns, each its own accumulator.
    %res:7 = scf.for %j = %lo to %hi step %c1
        iter_args(%o0 = %zero_o, %o1 = %zero_o, %m = %m_init, %l = %zero_vec,
                  %pid = %lo_pid, %pi = %lo_pi, %row = %lo_row)
        -> (!o_rt128, !o_rt128, !vec, !vec, index, index, index) {
      %k0 = arith.muli %j, %c64 : index
      // The block, keys k0 .. k0 + 63: rows k0 mod P .. + 63 of page %pid
      // (looked up one block ahead, so that the scalar load's latency is
      // not the block's).
      %row_tile = arith.divui %row, %c64 : index
      // The next block's page and row, without a division: P is a
      // multiple of 64 or holds the whole sequence.
      %kn = arith.addi %k0, %c64 : index
      %row_n = arith.addi %row, %c64 : index
      %wrap = arith.cmpi uge, %row_n, %page1 : index
      %pi_inc = arith.addi %pi, %c1 : index
      %pi_next = arith.select %wrap, %pi_inc, %pi : index
      %row_next = arith.select %wrap, %c0, %row_n : index
      %pi_load = arith.minui %pi_next, %last_pi : index
      %pid_next_i32 = memref.load %table[%b, %pi_load] : memref<?x?xi32>
      %pid_next = arith.index_castui %pid_next_i32 : i32 to index
      %kt = hk.load %K[%pid, %hkv, %row_tile, %c0] : !kv256 -> !k_rt256
      // The last block of the sequence: its rows past the length hold
      // whatever the page does (a P of 0 times a NaN would be NaN), so they
      // are zeroed. K's are masked to -inf with the scores.
      %partial = arith.cmpi ugt, %kn, %len : index
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt256, !q_rt256, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      // Only a block with a key past the first query token's last one,
      // len - q_len, needs the mask (kn + q_len > len: the last one or two
      // blocks of the sequence); the others skip it, so that the mask's
      // index tiles are not live across the whole KV loop.
      %kq = arith.addi %kn, %q_len : index
      %masked = arith.cmpi ugt, %kq, %len : index
      %sm = scf.if %masked -> (!s_rt) {
        %qlen_t = tensor.splat %qlen32 : !s_i32
        %first_t = tensor.splat %first32 : !s_i32
        %last_t = tensor.splat %last32 : !s_i32
        %row_pos = hk.iota row : !s_i32
        %col_pos = hk.iota col : !s_i32
        %r0_t = tensor.splat %r0_32 : !s_i32
        %r = arith.addi %row_pos, %r0_t : !s_i32
        %tok = arith.remui %r, %qlen_t : !s_i32
        %causal_last = arith.addi %tok, %first_t : !s_i32
        %limit = arith.minsi %causal_last, %last_t : !s_i32
        %k0_32 = arith.index_cast %k0 : index to i32
        %k0_t = tensor.splat %k0_32 : !s_i32
        %key = arith.addi %col_pos, %k0_t : !s_i32
        %seen = arith.cmpi sle, %key, %limit : !s_i32
        %sel = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
        scf.yield %sel : !s_rt
      } else {
        scf.yield %sr : !s_rt
      }
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T, half by half
      // through the wave's LDS tile (one wave's LDS accesses execute in
      // order, so the second half's stores need no wait for the first's
      // reads).
      %vr0 = hk.load %V[%pid, %hkv, %row_tile, %c0] : !kv256 -> !v_row128
      %vr1 = hk.load %V[%pid, %hkv, %row_tile, %c1] : !kv256 -> !v_row128
      %vz:2 = scf.if %partial -> (!v_row128, !v_row128) {
        %vm0 = hk.bounds_mask %vr0 at [%k0, %c0] within [%len, %cDh]
            fill %zero_bf : !v_row128
        %vm1 = hk.bounds_mask %vr1 at [%k0, %c0] within [%len, %cDh]
            fill %zero_bf : !v_row128
        scf.yield %vm0, %vm1 : !v_row128, !v_row128
      } else {
        scf.yield %vr0, %vr1 : !v_row128, !v_row128
      }
      hk.store %vz#0, %kvw : !v_row128, !kv_st128
      %vt0 = hk.load %kvw : !kv_st128 -> !v_rt128
      hk.store %vz#1, %kvw : !v_row128, !kv_st128
      %vt1 = hk.load %kvw : !kv_st128 -> !v_rt128
      %oa0 = hk.row_broadcast mul %o0, %alpha : !o_rt128, !vec
      %ot0 = hk.transpose %oa0 : !o_rt128 -> !ot_acc128
      %ou0 = hk.mma atb %vt0, %pt, %ot0 : !v_rt128, !pt_rt, !ot_acc128
      %on0 = hk.transpose %ou0 : !ot_acc128 -> !o_rt128
      %oa1 = hk.row_broadcast mul %o1, %alpha : !o_rt128, !vec
      %ot1 = hk.transpose %oa1 : !o_rt128 -> !ot_acc128
      %ou1 = hk.mma atb %vt1, %pt, %ot1 : !v_rt128, !pt_rt, !ot_acc128
      %on1 = hk.transpose %ou1 : !ot_acc128 -> !o_rt128
      scf.yield %on0, %on1, %mx, %sum, %pid_next, %pi_next, %row_next
          : !o_rt128, !o_rt128, !vec, !vec, index, index, index
    }

    // The split's O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#3, %tiny : !vec
    %of0 = hk.row_broadcast div %res#0, %l_safe : !o_rt128, !vec
    hk.store %of0, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt128, !op256
    %of1 = hk.row_broadcast div %res#1, %l_safe : !o_rt128, !vec
    hk.store %of1, %Op[%b, %hkv, %split, %rt, %c1] : !o_rt128, !op256
    %log_l = math.log2 %res#3 : !vec
    %lse2 = arith.addf %res#2, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

hk.kernel @attention_decode_p16_d256(%Q: !q256, %K: !kv256, %V: !kv256,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op256, %Lp: !lp,
    %q_len: index)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %cDh = arith.constant 128 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %scale = arith.constant dense<0.0901684400> : !s_rt
  %scale_v = arith.constant dense<0.0901684400> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64x128 LDS tile (a 64x256 one per wave would not fit
  // gfx942's LDS): each half of K's four 16-key chunks is stored into it
  // and read back in the MFMA operand layout, then each half of V's in the
  // column layout. One wave's LDS accesses execute in order, so a store
  // needs no wait for the reads before it.
  %kvs = hk.alloc_shared : !kv_st4128
  %w = hk.wave_id
  %w4 = arith.muli %w, %c4 : index
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st4128 -> !kv_st128
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %page = memref.dim %K, %c2 : !kv256
  %splits = memref.dim %Op, %c2 : !op256
  %rows = memref.dim %Q, %c2 : !q256
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages (the loop runs only when len > 0, so P > 0).
  %last_key = arith.subi %len, %c1 : index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %q0 = hk.load %Q[%b, %hkv, %rt, %c0] : !q256 -> !q_rt128
    %q1 = hk.load %Q[%b, %hkv, %rt, %c1] : !q256 -> !q_rt128

    // O in two halves of 128 columns, each its own accumulator.
    %res:4 = scf.for %j = %lo to %hi step %c1
        iter_args(%o0 = %zero_o, %o1 = %zero_o, %m = %m_init, %l = %zero_vec)
        -> (!o_rt128, !o_rt128, !vec, !vec) {
      %k0 = arith.muli %j, %c64 : index
      %kn = arith.addi %k0, %c64 : index
      %partial = arith.cmpi ugt, %kn, %len : index
      // Chunk 0: keys k0 + 0 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P], its two halves of 128 columns.
      %kc0 = arith.addi %k0, %c0 : index
      %kl0 = arith.minui %kc0, %last_key : index
      %pi0 = arith.divui %kl0, %page : index
      %ps0 = arith.muli %pi0, %page : index
      %row0 = arith.subi %kc0, %ps0 : index
      %rt0 = arith.divui %row0, %c16 : index
      %pid0_i32 = memref.load %table[%b, %pi0] : memref<?x?xi32>
      %pid0 = arith.index_castui %pid0_i32 : i32 to index
      %kr0a = hk.load %K[%pid0, %hkv, %rt0, %c0] : !kv256 -> !chunk_rt128
      %kr0b = hk.load %K[%pid0, %hkv, %rt0, %c1] : !kv256 -> !chunk_rt128
      // Chunk 1: keys k0 + 16 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P], its two halves of 128 columns.
      %kc1 = arith.addi %k0, %c16 : index
      %kl1 = arith.minui %kc1, %last_key : index
      %pi1 = arith.divui %kl1, %page : index
      %ps1 = arith.muli %pi1, %page : index
      %row1 = arith.subi %kc1, %ps1 : index
      %rt1 = arith.divui %row1, %c16 : index
      %pid1_i32 = memref.load %table[%b, %pi1] : memref<?x?xi32>
      %pid1 = arith.index_castui %pid1_i32 : i32 to index
      %kr1a = hk.load %K[%pid1, %hkv, %rt1, %c0] : !kv256 -> !chunk_rt128
      %kr1b = hk.load %K[%pid1, %hkv, %rt1, %c1] : !kv256 -> !chunk_rt128
      // Chunk 2: keys k0 + 32 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P], its two halves of 128 columns.
      %kc2 = arith.addi %k0, %c32 : index
      %kl2 = arith.minui %kc2, %last_key : index
      %pi2 = arith.divui %kl2, %page : index
      %ps2 = arith.muli %pi2, %page : index
      %row2 = arith.subi %kc2, %ps2 : index
      %rt2 = arith.divui %row2, %c16 : index
      %pid2_i32 = memref.load %table[%b, %pi2] : memref<?x?xi32>
      %pid2 = arith.index_castui %pid2_i32 : i32 to index
      %kr2a = hk.load %K[%pid2, %hkv, %rt2, %c0] : !kv256 -> !chunk_rt128
      %kr2b = hk.load %K[%pid2, %hkv, %rt2, %c1] : !kv256 -> !chunk_rt128
      // Chunk 3: keys k0 + 48 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P], its two halves of 128 columns.
      %kc3 = arith.addi %k0, %c48 : index
      %kl3 = arith.minui %kc3, %last_key : index
      %pi3 = arith.divui %kl3, %page : index
      %ps3 = arith.muli %pi3, %page : index
      %row3 = arith.subi %kc3, %ps3 : index
      %rt3 = arith.divui %row3, %c16 : index
      %pid3_i32 = memref.load %table[%b, %pi3] : memref<?x?xi32>
      %pid3 = arith.index_castui %pid3_i32 : i32 to index
      %kr3a = hk.load %K[%pid3, %hkv, %rt3, %c0] : !kv256 -> !chunk_rt128
      %kr3b = hk.load %K[%pid3, %hkv, %rt3, %c1] : !kv256 -> !chunk_rt128
      // K, half by half, through the wave's LDS tile.
      %ksub0 = arith.addi %w4, %c0 : index
      %kst0 = hk.subtile %kvs[%ksub0, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr0a, %kst0 : !chunk_rt128, !chunk_st128
      %ksub1 = arith.addi %w4, %c1 : index
      %kst1 = hk.subtile %kvs[%ksub1, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr1a, %kst1 : !chunk_rt128, !chunk_st128
      %ksub2 = arith.addi %w4, %c2 : index
      %kst2 = hk.subtile %kvs[%ksub2, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr2a, %kst2 : !chunk_rt128, !chunk_st128
      %ksub3 = arith.addi %w4, %c3 : index
      %kst3 = hk.subtile %kvs[%ksub3, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr3a, %kst3 : !chunk_rt128, !chunk_st128
      %kt0 = hk.load %kvw : !kv_st128 -> !k_rt128
      hk.store %kr0b, %kst0 : !chunk_rt128, !chunk_st128
      hk.store %kr1b, %kst1 : !chunk_rt128, !chunk_st128
      hk.store %kr2b, %kst2 : !chunk_rt128, !chunk_st128
      hk.store %kr3b, %kst3 : !chunk_rt128, !chunk_st128
      %kt1 = hk.load %kvw : !kv_st128 -> !k_rt128
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st0 = hk.mma abt %kt0, %q0, %zero_s : !k_rt128, !q_rt128, !st_acc
      %st = hk.mma abt %kt1, %q1, %st0 : !k_rt128, !q_rt128, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      // Only a block with a key past the first query token's last one,
      // len - q_len, needs the mask (kn + q_len > len: the last one or two
      // blocks of the sequence); the others skip it, so that the mask's
      // index tiles are not live across the whole KV loop.
      %kq = arith.addi %kn, %q_len : index
      %masked = arith.cmpi ugt, %kq, %len : index
      %sm = scf.if %masked -> (!s_rt) {
        %qlen_t = tensor.splat %qlen32 : !s_i32
        %first_t = tensor.splat %first32 : !s_i32
        %last_t = tensor.splat %last32 : !s_i32
        %row_pos = hk.iota row : !s_i32
        %col_pos = hk.iota col : !s_i32
        %r0_t = tensor.splat %r0_32 : !s_i32
        %r = arith.addi %row_pos, %r0_t : !s_i32
        %tok = arith.remui %r, %qlen_t : !s_i32
        %causal_last = arith.addi %tok, %first_t : !s_i32
        %limit = arith.minsi %causal_last, %last_t : !s_i32
        %k0_32 = arith.index_cast %k0 : index to i32
        %k0_t = tensor.splat %k0_32 : !s_i32
        %key = arith.addi %col_pos, %k0_t : !s_i32
        %seen = arith.cmpi sle, %key, %limit : !s_i32
        %sel = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
        scf.yield %sel : !s_rt
      } else {
        scf.yield %sr : !s_rt
      }
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      // V, loaded once the scores are known (fewer registers in flight).
      // The last block of the sequence: its rows past the length hold
      // whatever the pages do (a P of 0 times a NaN would be NaN), so V's
      // are zeroed. K's are masked to -inf with the scores.
      %vr0a = hk.load %V[%pid0, %hkv, %rt0, %c0] : !kv256 -> !chunk_rt128
      %vr0b = hk.load %V[%pid0, %hkv, %rt0, %c1] : !kv256 -> !chunk_rt128
      %vr1a = hk.load %V[%pid1, %hkv, %rt1, %c0] : !kv256 -> !chunk_rt128
      %vr1b = hk.load %V[%pid1, %hkv, %rt1, %c1] : !kv256 -> !chunk_rt128
      %vr2a = hk.load %V[%pid2, %hkv, %rt2, %c0] : !kv256 -> !chunk_rt128
      %vr2b = hk.load %V[%pid2, %hkv, %rt2, %c1] : !kv256 -> !chunk_rt128
      %vr3a = hk.load %V[%pid3, %hkv, %rt3, %c0] : !kv256 -> !chunk_rt128
      %vr3b = hk.load %V[%pid3, %hkv, %rt3, %c1] : !kv256 -> !chunk_rt128
      %vz:8 = scf.if %partial
          -> (!chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128) {
        %vm0a = hk.bounds_mask %vr0a at [%kc0, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm0b = hk.bounds_mask %vr0b at [%kc0, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm1a = hk.bounds_mask %vr1a at [%kc1, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm1b = hk.bounds_mask %vr1b at [%kc1, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm2a = hk.bounds_mask %vr2a at [%kc2, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm2b = hk.bounds_mask %vr2b at [%kc2, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm3a = hk.bounds_mask %vr3a at [%kc3, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm3b = hk.bounds_mask %vr3b at [%kc3, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        scf.yield %vm0a, %vm0b, %vm1a, %vm1b, %vm2a, %vm2b, %vm3a, %vm3b
            : !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128
      } else {
        scf.yield %vr0a, %vr0b, %vr1a, %vr1b, %vr2a, %vr2b, %vr3a, %vr3b
            : !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128
      }
      hk.store %vz#0, %kst0 : !chunk_rt128, !chunk_st128
      hk.store %vz#2, %kst1 : !chunk_rt128, !chunk_st128
      hk.store %vz#4, %kst2 : !chunk_rt128, !chunk_st128
      hk.store %vz#6, %kst3 : !chunk_rt128, !chunk_st128
      %vt0 = hk.load %kvw : !kv_st128 -> !v_rt128
      hk.store %vz#1, %kst0 : !chunk_rt128, !chunk_st128
      hk.store %vz#3, %kst1 : !chunk_rt128, !chunk_st128
      hk.store %vz#5, %kst2 : !chunk_rt128, !chunk_st128
      hk.store %vz#7, %kst3 : !chunk_rt128, !chunk_st128
      %vt1 = hk.load %kvw : !kv_st128 -> !v_rt128
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T, half by half.
      %oa0 = hk.row_broadcast mul %o0, %alpha : !o_rt128, !vec
      %ot0 = hk.transpose %oa0 : !o_rt128 -> !ot_acc128
      %ou0 = hk.mma atb %vt0, %pt, %ot0 : !v_rt128, !pt_rt, !ot_acc128
      %on0 = hk.transpose %ou0 : !ot_acc128 -> !o_rt128
      %oa1 = hk.row_broadcast mul %o1, %alpha : !o_rt128, !vec
      %ot1 = hk.transpose %oa1 : !o_rt128 -> !ot_acc128
      %ou1 = hk.mma atb %vt1, %pt, %ot1 : !v_rt128, !pt_rt, !ot_acc128
      %on1 = hk.transpose %ou1 : !ot_acc128 -> !o_rt128
      scf.yield %on0, %on1, %mx, %sum : !o_rt128, !o_rt128, !vec, !vec
    }

    // The split's O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#3, %tiny : !vec
    %of0 = hk.row_broadcast div %res#0, %l_safe : !o_rt128, !vec
    hk.store %of0, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt128, !op256
    %of1 = hk.row_broadcast div %res#1, %l_safe : !o_rt128, !vec
    hk.store %of1, %Op[%b, %hkv, %split, %rt, %c1] : !o_rt128, !op256
    %log_l = math.log2 %res#3 : !vec
    %lse2 = arith.addf %res#2, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

hk.kernel @attention_decode_fp8_d256(%Q: !q256, %K: !kv8_256, %V: !kv8_256,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op256, %Lp: !lp,
    %q_len: index, %k_scale: memref<?xf32>, %v_scale: memref<?xf32>)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cDh = arith.constant 128 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %score_scale = arith.constant 0.0901684400 : f32
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64x128 LDS tile, through which each half of V goes
  // from the row layout of its load to the column layout of
  // O^T += V^T P^T (a 64x256 tile per wave would not fit gfx942's LDS).
  %kvs = hk.alloc_shared : !kv_st4128
  %w = hk.wave_id
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st4128 -> !kv_st128
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  // The KV head's scales: k_scale[hk] and v_scale[hk] of per-head arrays
  // ([H_kv]), or element 0 of per-tensor ones ([1]). K's multiplies the
  // scores (with log2(e) / sqrt(D)), V's the output.
  %ks_n = memref.dim %k_scale, %c0 : memref<?xf32>
  %ks_last = arith.subi %ks_n, %c1 : index
  %ks_i = arith.minui %hkv, %ks_last : index
  %sk = memref.load %k_scale[%ks_i] : memref<?xf32>
  %vs_n = memref.dim %v_scale, %c0 : memref<?xf32>
  %vs_last = arith.subi %vs_n, %c1 : index
  %vs_i = arith.minui %hkv, %vs_last : index
  %sv = memref.load %v_scale[%vs_i] : memref<?xf32>
  %skc = arith.mulf %sk, %score_scale : f32
  %scale = tensor.splat %skc : !s_rt
  %scale_v = tensor.splat %skc : !vec
  %sv_v = tensor.splat %sv : !vec
  %page = memref.dim %K, %c2 : !kv8_256
  %splits = memref.dim %Op, %c2 : !op256
  %rows = memref.dim %Q, %c2 : !q256
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages, and entry 0 for an empty sequence (whose
  // loop does not run; P is at least 1 there, as the table's width).
  %len1 = arith.maxui %len, %c1 : index
  %last_key = arith.subi %len1, %c1 : index
  %page1 = arith.maxui %page, %c1 : index
  %last_pi = arith.divui %last_key, %page1 : index
  %lo_keys = arith.muli %lo, %c64 : index
  %lo_pi = arith.divui %lo_keys, %page1 : index
  %lo_ps = arith.muli %lo_pi, %page1 : index
  %lo_row = arith.subi %lo_keys, %lo_ps : index
  %lo_pi_c = arith.minui %lo_pi, %last_pi : index
  %lo_pid_i32 = memref.load %table[%b, %lo_pi_c] : memref<?x?xi32>
  %lo_pid = arith.index_castui %lo_pid_i32 : i32 to index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %q = hk.load %Q[%b, %hkv, %rt, %c0] : !q256 -> !q_rt256

    // O in two halves of 128 columns, each its own accumulator.
    %res:7 = scf.for %j = %lo to %hi step %c1
        iter_args(%o0 = %zero_o, %o1 = %zero_o, %m = %m_init, %l = %zero_vec,
                  %pid = %lo_pid, %pi = %lo_pi, %row = %lo_row)
        -> (!o_rt128, !o_rt128, !vec, !vec, index, index, index) {
      %k0 = arith.muli %j, %c64 : index
      // The block, keys k0 .. k0 + 63: rows k0 mod P .. + 63 of page %pid
      // (looked up one block ahead, so that the scalar load's latency is
      // not the block's).
      %row_tile = arith.divui %row, %c64 : index
      // The next block's page and row, without a division: P is a
      // multiple of 64 or holds the whole sequence.
      %kn = arith.addi %k0, %c64 : index
      %row_n = arith.addi %row, %c64 : index
      %wrap = arith.cmpi uge, %row_n, %page1 : index
      %pi_inc = arith.addi %pi, %c1 : index
      %pi_next = arith.select %wrap, %pi_inc, %pi : index
      %row_next = arith.select %wrap, %c0, %row_n : index
      %pi_load = arith.minui %pi_next, %last_pi : index
      %pid_next_i32 = memref.load %table[%b, %pi_load] : memref<?x?xi32>
      %pid_next = arith.index_castui %pid_next_i32 : i32 to index
      // fp8 K and V, widened to bf16 (exact: E4M3 values are bf16 values).
      %kt8 = hk.load %K[%pid, %hkv, %row_tile, %c0] : !kv8_256 -> !k8_rt256
      %kt = arith.extf %kt8 : !k8_rt256 to !k_rt256
      // The last block of the sequence: its rows past the length hold
      // whatever the page does (a P of 0 times a NaN would be NaN), so they
      // are zeroed. K's are masked to -inf with the scores.
      %partial = arith.cmpi ugt, %kn, %len : index
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt256, !q_rt256, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      // Only a block with a key past the first query token's last one,
      // len - q_len, needs the mask (kn + q_len > len: the last one or two
      // blocks of the sequence); the others skip it, so that the mask's
      // index tiles are not live across the whole KV loop.
      %kq = arith.addi %kn, %q_len : index
      %masked = arith.cmpi ugt, %kq, %len : index
      %sm = scf.if %masked -> (!s_rt) {
        %qlen_t = tensor.splat %qlen32 : !s_i32
        %first_t = tensor.splat %first32 : !s_i32
        %last_t = tensor.splat %last32 : !s_i32
        %row_pos = hk.iota row : !s_i32
        %col_pos = hk.iota col : !s_i32
        %r0_t = tensor.splat %r0_32 : !s_i32
        %r = arith.addi %row_pos, %r0_t : !s_i32
        %tok = arith.remui %r, %qlen_t : !s_i32
        %causal_last = arith.addi %tok, %first_t : !s_i32
        %limit = arith.minsi %causal_last, %last_t : !s_i32
        %k0_32 = arith.index_cast %k0 : index to i32
        %k0_t = tensor.splat %k0_32 : !s_i32
        %key = arith.addi %col_pos, %k0_t : !s_i32
        %seen = arith.cmpi sle, %key, %limit : !s_i32
        %sel = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
        scf.yield %sel : !s_rt
      } else {
        scf.yield %sr : !s_rt
      }
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T, half by half
      // through the wave's LDS tile (one wave's LDS accesses execute in
      // order, so the second half's stores need no wait for the first's
      // reads).
      %vr80 = hk.load %V[%pid, %hkv, %row_tile, %c0] : !kv8_256 -> !v8_row128
      %vr81 = hk.load %V[%pid, %hkv, %row_tile, %c1] : !kv8_256 -> !v8_row128
      %vr0 = arith.extf %vr80 : !v8_row128 to !v_row128
      %vr1 = arith.extf %vr81 : !v8_row128 to !v_row128
      %vz:2 = scf.if %partial -> (!v_row128, !v_row128) {
        %vm0 = hk.bounds_mask %vr0 at [%k0, %c0] within [%len, %cDh]
            fill %zero_bf : !v_row128
        %vm1 = hk.bounds_mask %vr1 at [%k0, %c0] within [%len, %cDh]
            fill %zero_bf : !v_row128
        scf.yield %vm0, %vm1 : !v_row128, !v_row128
      } else {
        scf.yield %vr0, %vr1 : !v_row128, !v_row128
      }
      hk.store %vz#0, %kvw : !v_row128, !kv_st128
      %vt0 = hk.load %kvw : !kv_st128 -> !v_rt128
      hk.store %vz#1, %kvw : !v_row128, !kv_st128
      %vt1 = hk.load %kvw : !kv_st128 -> !v_rt128
      %oa0 = hk.row_broadcast mul %o0, %alpha : !o_rt128, !vec
      %ot0 = hk.transpose %oa0 : !o_rt128 -> !ot_acc128
      %ou0 = hk.mma atb %vt0, %pt, %ot0 : !v_rt128, !pt_rt, !ot_acc128
      %on0 = hk.transpose %ou0 : !ot_acc128 -> !o_rt128
      %oa1 = hk.row_broadcast mul %o1, %alpha : !o_rt128, !vec
      %ot1 = hk.transpose %oa1 : !o_rt128 -> !ot_acc128
      %ou1 = hk.mma atb %vt1, %pt, %ot1 : !v_rt128, !pt_rt, !ot_acc128
      %on1 = hk.transpose %ou1 : !ot_acc128 -> !o_rt128
      scf.yield %on0, %on1, %mx, %sum, %pid_next, %pi_next, %row_next
          : !o_rt128, !o_rt128, !vec, !vec, index, index, index
    }

    // The split's v_scale O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#3, %tiny : !vec
    %l_sv = arith.divf %l_safe, %sv_v : !vec
    %of0 = hk.row_broadcast div %res#0, %l_sv : !o_rt128, !vec
    hk.store %of0, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt128, !op256
    %of1 = hk.row_broadcast div %res#1, %l_sv : !o_rt128, !vec
    hk.store %of1, %Op[%b, %hkv, %split, %rt, %c1] : !o_rt128, !op256
    %log_l = math.log2 %res#3 : !vec
    %lse2 = arith.addf %res#2, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

// @attention_decode_fp8_p16_d256: @attention_decode_p16_d256 over fp8 pools
// (pages of a multiple of 16 rows): each chunk is widened to bf16 after its
// load, before it is stored into the wave's LDS tile; the scales as in
// @attention_decode_fp8_d256.
hk.kernel @attention_decode_fp8_p16_d256(%Q: !q256, %K: !kv8_256, %V: !kv8_256,
    %table: memref<?x?xi32>, %seq_lens: memref<?xi32>, %Op: !op256, %Lp: !lp,
    %q_len: index, %k_scale: memref<?xf32>, %v_scale: memref<?xf32>)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(5, 2), dim(1, 1), dim(4, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %cDh = arith.constant 128 : index
  %zero_bf = arith.constant 0.0 : bf16
  %one32 = arith.constant 1 : i32
  %score_scale = arith.constant 0.0901684400 : f32
  %ln2 = arith.constant dense<0.693147182> : !vec
  %m_init = arith.constant dense<0xFF800000> : !vec
  %neginf_t = arith.constant dense<0xFF800000> : !s_rt
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt128
  %zero_s = arith.constant dense<0.0> : !st_acc

  // Each wave's own 64x128 LDS tile (a 64x256 one per wave would not fit
  // gfx942's LDS): each half of K's four 16-key chunks is stored into it
  // and read back in the MFMA operand layout, then each half of V's in the
  // column layout. One wave's LDS accesses execute in order, so a store
  // needs no wait for the reads before it.
  %kvs = hk.alloc_shared : !kv_st4128
  %w = hk.wave_id
  %w4 = arith.muli %w, %c4 : index
  %kvw = hk.subtile %kvs[%w, %c0] : !kv_st4128 -> !kv_st128
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  // The KV head's scales: k_scale[hk] and v_scale[hk] of per-head arrays
  // ([H_kv]), or element 0 of per-tensor ones ([1]). K's multiplies the
  // scores (with log2(e) / sqrt(D)), V's the output.
  %ks_n = memref.dim %k_scale, %c0 : memref<?xf32>
  %ks_last = arith.subi %ks_n, %c1 : index
  %ks_i = arith.minui %hkv, %ks_last : index
  %sk = memref.load %k_scale[%ks_i] : memref<?xf32>
  %vs_n = memref.dim %v_scale, %c0 : memref<?xf32>
  %vs_last = arith.subi %vs_n, %c1 : index
  %vs_i = arith.minui %hkv, %vs_last : index
  %sv = memref.load %v_scale[%vs_i] : memref<?xf32>
  %skc = arith.mulf %sk, %score_scale : f32
  %scale = tensor.splat %skc : !s_rt
  %scale_v = tensor.splat %skc : !vec
  %sv_v = tensor.splat %sv : !vec
  %page = memref.dim %K, %c2 : !kv8_256
  %splits = memref.dim %Op, %c2 : !op256
  %rows = memref.dim %Q, %c2 : !q256
  %row_tiles = arith.ceildivui %rows, %c32 : index

  // This split's KV blocks of 64, [lo, hi), and its keys [64 lo, key_hi).
  %len_i32 = memref.load %seq_lens[%b] : memref<?xi32>
  %len = arith.index_castui %len_i32 : i32 to index
  %blocks = arith.ceildivui %len, %c64 : index
  %per = arith.ceildivui %blocks, %splits : index
  %lo_raw = arith.muli %split, %per : index
  %lo = arith.minui %lo_raw, %blocks : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %blocks : index
  %hi_keys = arith.muli %hi, %c64 : index
  %key_hi = arith.minui %hi_keys, %len : index
  // The page of key k is table[b, min(k, last_key) / P]: never an entry
  // past the sequence's pages (the loop runs only when len > 0, so P > 0).
  %last_key = arith.subi %len, %c1 : index

  // Query row r is token r mod q_len of its head; the sequence's last
  // q_len positions are the query tokens, so token t sees the keys
  // j <= len - q_len + t, and of those this split holds j < key_hi.
  %qlen32 = arith.index_cast %q_len : index to i32
  %len32 = arith.index_cast %len : index to i32
  %keyhi32 = arith.index_cast %key_hi : index to i32
  %first32 = arith.subi %len32, %qlen32 : i32
  %last32 = arith.subi %keyhi32, %one32 : i32

  scf.for %rt = %c0 to %row_tiles step %c1 {
    %r0 = arith.muli %rt, %c32 : index
    %r0_32 = arith.index_cast %r0 : index to i32
    %q0 = hk.load %Q[%b, %hkv, %rt, %c0] : !q256 -> !q_rt128
    %q1 = hk.load %Q[%b, %hkv, %rt, %c1] : !q256 -> !q_rt128

    // O in two halves of 128 columns, each its own accumulator.
    %res:4 = scf.for %j = %lo to %hi step %c1
        iter_args(%o0 = %zero_o, %o1 = %zero_o, %m = %m_init, %l = %zero_vec)
        -> (!o_rt128, !o_rt128, !vec, !vec) {
      %k0 = arith.muli %j, %c64 : index
      %kn = arith.addi %k0, %c64 : index
      %partial = arith.cmpi ugt, %kn, %len : index
      // Chunk 0: keys k0 + 0 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P], its two halves of 128 columns.
      %kc0 = arith.addi %k0, %c0 : index
      %kl0 = arith.minui %kc0, %last_key : index
      %pi0 = arith.divui %kl0, %page : index
      %ps0 = arith.muli %pi0, %page : index
      %row0 = arith.subi %kc0, %ps0 : index
      %rt0 = arith.divui %row0, %c16 : index
      %pid0_i32 = memref.load %table[%b, %pi0] : memref<?x?xi32>
      %pid0 = arith.index_castui %pid0_i32 : i32 to index
      %kr0a8 = hk.load %K[%pid0, %hkv, %rt0, %c0] : !kv8_256 -> !chunk8_rt128
      %kr0a = arith.extf %kr0a8 : !chunk8_rt128 to !chunk_rt128
      %kr0b8 = hk.load %K[%pid0, %hkv, %rt0, %c1] : !kv8_256 -> !chunk8_rt128
      %kr0b = arith.extf %kr0b8 : !chunk8_rt128 to !chunk_rt128
      // Chunk 1: keys k0 + 16 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P], its two halves of 128 columns.
      %kc1 = arith.addi %k0, %c16 : index
      %kl1 = arith.minui %kc1, %last_key : index
      %pi1 = arith.divui %kl1, %page : index
      %ps1 = arith.muli %pi1, %page : index
      %row1 = arith.subi %kc1, %ps1 : index
      %rt1 = arith.divui %row1, %c16 : index
      %pid1_i32 = memref.load %table[%b, %pi1] : memref<?x?xi32>
      %pid1 = arith.index_castui %pid1_i32 : i32 to index
      %kr1a8 = hk.load %K[%pid1, %hkv, %rt1, %c0] : !kv8_256 -> !chunk8_rt128
      %kr1a = arith.extf %kr1a8 : !chunk8_rt128 to !chunk_rt128
      %kr1b8 = hk.load %K[%pid1, %hkv, %rt1, %c1] : !kv8_256 -> !chunk8_rt128
      %kr1b = arith.extf %kr1b8 : !chunk8_rt128 to !chunk_rt128
      // Chunk 2: keys k0 + 32 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P], its two halves of 128 columns.
      %kc2 = arith.addi %k0, %c32 : index
      %kl2 = arith.minui %kc2, %last_key : index
      %pi2 = arith.divui %kl2, %page : index
      %ps2 = arith.muli %pi2, %page : index
      %row2 = arith.subi %kc2, %ps2 : index
      %rt2 = arith.divui %row2, %c16 : index
      %pid2_i32 = memref.load %table[%b, %pi2] : memref<?x?xi32>
      %pid2 = arith.index_castui %pid2_i32 : i32 to index
      %kr2a8 = hk.load %K[%pid2, %hkv, %rt2, %c0] : !kv8_256 -> !chunk8_rt128
      %kr2a = arith.extf %kr2a8 : !chunk8_rt128 to !chunk_rt128
      %kr2b8 = hk.load %K[%pid2, %hkv, %rt2, %c1] : !kv8_256 -> !chunk8_rt128
      %kr2b = arith.extf %kr2b8 : !chunk8_rt128 to !chunk_rt128
      // Chunk 3: keys k0 + 48 .. + 15, rows k mod P .. + 15 of page
      // table[b, k / P], its two halves of 128 columns.
      %kc3 = arith.addi %k0, %c48 : index
      %kl3 = arith.minui %kc3, %last_key : index
      %pi3 = arith.divui %kl3, %page : index
      %ps3 = arith.muli %pi3, %page : index
      %row3 = arith.subi %kc3, %ps3 : index
      %rt3 = arith.divui %row3, %c16 : index
      %pid3_i32 = memref.load %table[%b, %pi3] : memref<?x?xi32>
      %pid3 = arith.index_castui %pid3_i32 : i32 to index
      %kr3a8 = hk.load %K[%pid3, %hkv, %rt3, %c0] : !kv8_256 -> !chunk8_rt128
      %kr3a = arith.extf %kr3a8 : !chunk8_rt128 to !chunk_rt128
      %kr3b8 = hk.load %K[%pid3, %hkv, %rt3, %c1] : !kv8_256 -> !chunk8_rt128
      %kr3b = arith.extf %kr3b8 : !chunk8_rt128 to !chunk_rt128
      // K, half by half, through the wave's LDS tile.
      %ksub0 = arith.addi %w4, %c0 : index
      %kst0 = hk.subtile %kvs[%ksub0, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr0a, %kst0 : !chunk_rt128, !chunk_st128
      %ksub1 = arith.addi %w4, %c1 : index
      %kst1 = hk.subtile %kvs[%ksub1, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr1a, %kst1 : !chunk_rt128, !chunk_st128
      %ksub2 = arith.addi %w4, %c2 : index
      %kst2 = hk.subtile %kvs[%ksub2, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr2a, %kst2 : !chunk_rt128, !chunk_st128
      %ksub3 = arith.addi %w4, %c3 : index
      %kst3 = hk.subtile %kvs[%ksub3, %c0] : !kv_st4128 -> !chunk_st128
      hk.store %kr3a, %kst3 : !chunk_rt128, !chunk_st128
      %kt0 = hk.load %kvw : !kv_st128 -> !k_rt128
      hk.store %kr0b, %kst0 : !chunk_rt128, !chunk_st128
      hk.store %kr1b, %kst1 : !chunk_rt128, !chunk_st128
      hk.store %kr2b, %kst2 : !chunk_rt128, !chunk_st128
      hk.store %kr3b, %kst3 : !chunk_rt128, !chunk_st128
      %kt1 = hk.load %kvw : !kv_st128 -> !k_rt128
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st0 = hk.mma abt %kt0, %q0, %zero_s : !k_rt128, !q_rt128, !st_acc
      %st = hk.mma abt %kt1, %q1, %st0 : !k_rt128, !q_rt128, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      // Only a block with a key past the first query token's last one,
      // len - q_len, needs the mask (kn + q_len > len: the last one or two
      // blocks of the sequence); the others skip it, so that the mask's
      // index tiles are not live across the whole KV loop.
      %kq = arith.addi %kn, %q_len : index
      %masked = arith.cmpi ugt, %kq, %len : index
      %sm = scf.if %masked -> (!s_rt) {
        %qlen_t = tensor.splat %qlen32 : !s_i32
        %first_t = tensor.splat %first32 : !s_i32
        %last_t = tensor.splat %last32 : !s_i32
        %row_pos = hk.iota row : !s_i32
        %col_pos = hk.iota col : !s_i32
        %r0_t = tensor.splat %r0_32 : !s_i32
        %r = arith.addi %row_pos, %r0_t : !s_i32
        %tok = arith.remui %r, %qlen_t : !s_i32
        %causal_last = arith.addi %tok, %first_t : !s_i32
        %limit = arith.minsi %causal_last, %last_t : !s_i32
        %k0_32 = arith.index_cast %k0 : index to i32
        %k0_t = tensor.splat %k0_32 : !s_i32
        %key = arith.addi %col_pos, %k0_t : !s_i32
        %seen = arith.cmpi sle, %key, %limit : !s_i32
        %sel = arith.select %seen, %sr, %neginf_t : !s_mask, !s_rt
        scf.yield %sel : !s_rt
      } else {
        scf.yield %sr : !s_rt
      }
      // Online softmax in the log2 domain. A row with no key yet keeps
      // m = -inf; it subtracts 0 instead, so that its P and alpha are 0
      // rather than exp2(-inf + inf).
      %rm = hk.row_reduce max %sm : !s_rt -> !vec
      %rms = arith.mulf %rm, %scale_v : !vec
      %mx = arith.maximumf %m, %rms : !vec
      %none = arith.cmpf oeq, %mx, %m_init : !vec
      %msub = arith.select %none, %zero_vec, %mx : !vec_mask, !vec
      %dm = arith.subf %m, %msub : !vec
      %alpha = math.exp2 %dm : !vec
      %s5 = arith.mulf %sm, %scale fastmath<contract> : !s_rt
      %sd = hk.row_broadcast sub %s5, %msub : !s_rt, !vec
      %e = math.exp2 %sd : !s_rt
      %la = arith.mulf %l, %alpha : !vec
      %sum = hk.row_reduce sum %e init %la : !s_rt -> !vec
      %pb = arith.truncf %e fastmath<nnan> : !s_rt to !p_rt
      %pt = hk.transpose %pb : !p_rt -> !pt_rt
      // V, loaded once the scores are known (fewer registers in flight).
      // The last block of the sequence: its rows past the length hold
      // whatever the pages do (a P of 0 times a NaN would be NaN), so V's
      // are zeroed. K's are masked to -inf with the scores.
      %vr0a8 = hk.load %V[%pid0, %hkv, %rt0, %c0] : !kv8_256 -> !chunk8_rt128
      %vr0a = arith.extf %vr0a8 : !chunk8_rt128 to !chunk_rt128
      %vr0b8 = hk.load %V[%pid0, %hkv, %rt0, %c1] : !kv8_256 -> !chunk8_rt128
      %vr0b = arith.extf %vr0b8 : !chunk8_rt128 to !chunk_rt128
      %vr1a8 = hk.load %V[%pid1, %hkv, %rt1, %c0] : !kv8_256 -> !chunk8_rt128
      %vr1a = arith.extf %vr1a8 : !chunk8_rt128 to !chunk_rt128
      %vr1b8 = hk.load %V[%pid1, %hkv, %rt1, %c1] : !kv8_256 -> !chunk8_rt128
      %vr1b = arith.extf %vr1b8 : !chunk8_rt128 to !chunk_rt128
      %vr2a8 = hk.load %V[%pid2, %hkv, %rt2, %c0] : !kv8_256 -> !chunk8_rt128
      %vr2a = arith.extf %vr2a8 : !chunk8_rt128 to !chunk_rt128
      %vr2b8 = hk.load %V[%pid2, %hkv, %rt2, %c1] : !kv8_256 -> !chunk8_rt128
      %vr2b = arith.extf %vr2b8 : !chunk8_rt128 to !chunk_rt128
      %vr3a8 = hk.load %V[%pid3, %hkv, %rt3, %c0] : !kv8_256 -> !chunk8_rt128
      %vr3a = arith.extf %vr3a8 : !chunk8_rt128 to !chunk_rt128
      %vr3b8 = hk.load %V[%pid3, %hkv, %rt3, %c1] : !kv8_256 -> !chunk8_rt128
      %vr3b = arith.extf %vr3b8 : !chunk8_rt128 to !chunk_rt128
      %vz:8 = scf.if %partial
          -> (!chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128) {
        %vm0a = hk.bounds_mask %vr0a at [%kc0, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm0b = hk.bounds_mask %vr0b at [%kc0, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm1a = hk.bounds_mask %vr1a at [%kc1, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm1b = hk.bounds_mask %vr1b at [%kc1, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm2a = hk.bounds_mask %vr2a at [%kc2, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm2b = hk.bounds_mask %vr2b at [%kc2, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm3a = hk.bounds_mask %vr3a at [%kc3, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        %vm3b = hk.bounds_mask %vr3b at [%kc3, %c0] within [%len, %cDh]
            fill %zero_bf : !chunk_rt128
        scf.yield %vm0a, %vm0b, %vm1a, %vm1b, %vm2a, %vm2b, %vm3a, %vm3b
            : !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128
      } else {
        scf.yield %vr0a, %vr0b, %vr1a, %vr1b, %vr2a, %vr2b, %vr3a, %vr3b
            : !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128, !chunk_rt128
      }
      hk.store %vz#0, %kst0 : !chunk_rt128, !chunk_st128
      hk.store %vz#2, %kst1 : !chunk_rt128, !chunk_st128
      hk.store %vz#4, %kst2 : !chunk_rt128, !chunk_st128
      hk.store %vz#6, %kst3 : !chunk_rt128, !chunk_st128
      %vt0 = hk.load %kvw : !kv_st128 -> !v_rt128
      hk.store %vz#1, %kst0 : !chunk_rt128, !chunk_st128
      hk.store %vz#3, %kst1 : !chunk_rt128, !chunk_st128
      hk.store %vz#5, %kst2 : !chunk_rt128, !chunk_st128
      hk.store %vz#7, %kst3 : !chunk_rt128, !chunk_st128
      %vt1 = hk.load %kvw : !kv_st128 -> !v_rt128
      // O = alpha O + P V, as O^T = alpha O^T + V^T P^T, half by half.
      %oa0 = hk.row_broadcast mul %o0, %alpha : !o_rt128, !vec
      %ot0 = hk.transpose %oa0 : !o_rt128 -> !ot_acc128
      %ou0 = hk.mma atb %vt0, %pt, %ot0 : !v_rt128, !pt_rt, !ot_acc128
      %on0 = hk.transpose %ou0 : !ot_acc128 -> !o_rt128
      %oa1 = hk.row_broadcast mul %o1, %alpha : !o_rt128, !vec
      %ot1 = hk.transpose %oa1 : !o_rt128 -> !ot_acc128
      %ou1 = hk.mma atb %vt1, %pt, %ot1 : !v_rt128, !pt_rt, !ot_acc128
      %on1 = hk.transpose %ou1 : !ot_acc128 -> !o_rt128
      scf.yield %on0, %on1, %mx, %sum : !o_rt128, !o_rt128, !vec, !vec
    }

    // The split's v_scale O / l (0 for a row without keys, l = 0) and its
    // natural-log LSE (m + log2 l) ln 2 (-inf without keys).
    %l_safe = arith.maximumf %res#3, %tiny : !vec
    %l_sv = arith.divf %l_safe, %sv_v : !vec
    %of0 = hk.row_broadcast div %res#0, %l_sv : !o_rt128, !vec
    hk.store %of0, %Op[%b, %hkv, %split, %rt, %c0] : !o_rt128, !op256
    %of1 = hk.row_broadcast div %res#1, %l_sv : !o_rt128, !vec
    hk.store %of1, %Op[%b, %hkv, %split, %rt, %c1] : !o_rt128, !op256
    %log_l = math.log2 %res#3 : !vec
    %lse2 = arith.addf %res#2, %log_l : !vec
    %lse = arith.mulf %lse2, %ln2 : !vec
    hk.store %lse, %Lp[%b, %hkv, %split, %rt] : !vec, !lp
  }
  hk.return
}

// Merges groups of the splits of the D = 256 entry points into fewer
// partial results of the same kind, so that the combine does not walk
// hundreds of splits: group g of S2 (the third dimension of %Op2) takes the
// splits [g c, min((g + 1) c, S)), c = ceil(S / S2), and writes their
// merged O (f32, normalised) and LSE. One workgroup per 32-column slice of
// a group (grid (S2 8, H_kv, B)), every row tile in turn, the four waves
// and their merge through LDS as in the combine; a group without splits
// writes O = 0 and L = -inf.
hk.kernel @attention_decode_merge_d256(%Op: !op256, %Lp: !lp, %Op2: !op256,
    %Lp2: !lp) attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(2, 2), dim(2, 1), dim(2, 0)] -> (s0 * 8, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cNC = arith.constant 8 : index
  %log2e = arith.constant dense<1.44269502> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %low = arith.constant dense<-1.0e30> : !vec
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_slice
  %parts = hk.alloc_shared : !part_st
  %w = hk.wave_id
  %x = hk.block_id x
  %g = arith.divui %x, %cNC : index
  %dc = arith.remui %x, %cNC : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %c32 = arith.constant 32 : index
  %splits = memref.dim %Op, %c2 : !op256
  %groups = memref.dim %Op2, %c2 : !op256
  %rows = memref.dim %Op, %c3 : !op256
  %row_tiles = arith.ceildivui %rows, %c32 : index
  // The group's splits [g c, min((g + 1) c, S)), c = ceil(S / S2), and of
  // them this wave's quarter.
  %gper = arith.ceildivui %splits, %groups : index
  %glo_raw = arith.muli %g, %gper : index
  %glo = arith.minui %glo_raw, %splits : index
  %ghi_raw = arith.addi %glo, %gper : index
  %ghi = arith.minui %ghi_raw, %splits : index
  %gn = arith.subi %ghi, %glo : index
  %per = arith.ceildivui %gn, %c4 : index
  %wlo = arith.muli %w, %per : index
  %lo_raw = arith.addi %glo, %wlo : index
  %lo = arith.minui %lo_raw, %ghi : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %ghi : index
  %hi1 = arith.maxui %hi, %c1 : index
  %last = arith.subi %hi1, %c1 : index
  %lo_c = arith.minui %lo, %last : index
  scf.for %rt = %c0 to %row_tiles step %c1 {
    %os_0 = hk.load %Op[%b, %hkv, %lo_c, %rt, %dc] : !op256 -> !o_slice
    %ls_0 = hk.load %Lp[%b, %hkv, %lo_c, %rt] : !lp -> !vec
    %res:5 = scf.for %s = %lo to %hi step %c1
        iter_args(%o = %zero_o, %m = %low, %l = %zero_vec, %os = %os_0,
                  %ls = %ls_0)
        -> (!o_slice, !vec, !vec, !o_slice, !vec) {
      %sn = arith.addi %s, %c1 : index
      %sn_c = arith.minui %sn, %last : index
      %os_n = hk.load %Op[%b, %hkv, %sn_c, %rt, %dc] : !op256 -> !o_slice
      %ls_n = hk.load %Lp[%b, %hkv, %sn_c, %rt] : !lp -> !vec
      %mx = arith.maximumf %m, %ls : !vec
      %da = arith.subf %m, %mx : !vec
      %da2 = arith.mulf %da, %log2e : !vec
      %alpha = math.exp2 %da2 : !vec
      %dw = arith.subf %ls, %mx : !vec
      %dw2 = arith.mulf %dw, %log2e : !vec
      %wt = math.exp2 %dw2 : !vec
      %oa = hk.row_broadcast mul %o, %alpha : !o_slice, !vec
      %ow = hk.row_broadcast mul %os, %wt : !o_slice, !vec
      %on = arith.addf %oa, %ow : !o_slice
      %la = arith.mulf %l, %alpha : !vec
      %ln = arith.addf %la, %wt : !vec
      scf.yield %on, %mx, %ln, %os_n, %ls_n
          : !o_slice, !vec, !vec, !o_slice, !vec
    }
    %l_safe = arith.maximumf %res#2, %tiny : !vec
    %of = hk.row_broadcast div %res#0, %l_safe : !o_slice, !vec
    %log_l = math.log2 %res#2 : !vec
    %log_e = arith.mulf %log_l, %ln2 : !vec
    %lse = arith.addf %res#1, %log_e : !vec
    %lse_t = hk.row_broadcast add %zero_o, %lse : !o_slice, !vec
    %w4 = arith.addi %w, %c4 : index
    %po = hk.subtile %parts[%w, %c0] : !part_st -> !slice_st
    %pl = hk.subtile %parts[%w4, %c0] : !part_st -> !slice_st
    hk.store %of, %po : !o_slice, !slice_st
    hk.store %lse_t, %pl : !o_slice, !slice_st
    hk.barrier
    %first = arith.cmpi eq, %w, %c0 : index
    scf.if %first {
      %p0 = hk.subtile %parts[%c0, %c0] : !part_st -> !slice_st
      %p1 = hk.subtile %parts[%c1, %c0] : !part_st -> !slice_st
      %p2 = hk.subtile %parts[%c2, %c0] : !part_st -> !slice_st
      %p3 = hk.subtile %parts[%c3, %c0] : !part_st -> !slice_st
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %q0 = hk.subtile %parts[%c4, %c0] : !part_st -> !slice_st
      %q1 = hk.subtile %parts[%c5, %c0] : !part_st -> !slice_st
      %q2 = hk.subtile %parts[%c6, %c0] : !part_st -> !slice_st
      %q3 = hk.subtile %parts[%c7, %c0] : !part_st -> !slice_st
      %o0 = hk.load %p0 : !slice_st -> !o_slice
      %o1 = hk.load %p1 : !slice_st -> !o_slice
      %o2 = hk.load %p2 : !slice_st -> !o_slice
      %o3 = hk.load %p3 : !slice_st -> !o_slice
      %l0 = hk.load %q0 : !slice_st -> !o_slice
      %l1 = hk.load %q1 : !slice_st -> !o_slice
      %l2 = hk.load %q2 : !slice_st -> !o_slice
      %l3 = hk.load %q3 : !slice_st -> !o_slice
      // The four waves' LSEs as vectors (each row of an LSE tile holds one
      // value), the weights exp(L_w - M) on vectors rather than tiles.
      %v0 = hk.row_reduce max %l0 : !o_slice -> !vec
      %v1 = hk.row_reduce max %l1 : !o_slice -> !vec
      %v2 = hk.row_reduce max %l2 : !o_slice -> !vec
      %v3 = hk.row_reduce max %l3 : !o_slice -> !vec
      %m01 = arith.maximumf %v0, %v1 : !vec
      %m23 = arith.maximumf %v2, %v3 : !vec
      %mm = arith.maximumf %m01, %m23 : !vec
      %mt = arith.maximumf %mm, %low : !vec
      %d0 = arith.subf %v0, %mt : !vec
      %d1 = arith.subf %v1, %mt : !vec
      %d2 = arith.subf %v2, %mt : !vec
      %d3 = arith.subf %v3, %mt : !vec
      %e0 = arith.mulf %d0, %log2e : !vec
      %e1 = arith.mulf %d1, %log2e : !vec
      %e2 = arith.mulf %d2, %log2e : !vec
      %e3 = arith.mulf %d3, %log2e : !vec
      %w0 = math.exp2 %e0 : !vec
      %w1 = math.exp2 %e1 : !vec
      %w2 = math.exp2 %e2 : !vec
      %w3 = math.exp2 %e3 : !vec
      %w01 = arith.addf %w0, %w1 : !vec
      %w23 = arith.addf %w2, %w3 : !vec
      %wsum = arith.addf %w01, %w23 : !vec
      %wsafe = arith.maximumf %wsum, %tiny : !vec
      %n0 = arith.divf %w0, %wsafe : !vec
      %n1 = arith.divf %w1, %wsafe : !vec
      %n2 = arith.divf %w2, %wsafe : !vec
      %n3 = arith.divf %w3, %wsafe : !vec
      %a0 = hk.row_broadcast mul %o0, %n0 : !o_slice, !vec
      %a1 = hk.row_broadcast mul %o1, %n1 : !o_slice, !vec
      %a2 = hk.row_broadcast mul %o2, %n2 : !o_slice, !vec
      %a3 = hk.row_broadcast mul %o3, %n3 : !o_slice, !vec
      %s01 = arith.addf %a0, %a1 : !o_slice
      %s23 = arith.addf %a2, %a3 : !o_slice
      %ofin = arith.addf %s01, %s23 : !o_slice
      hk.store %ofin, %Op2[%b, %hkv, %g, %rt, %dc] : !o_slice, !op256
      %dfirst = arith.cmpi eq, %dc, %c0 : index
      scf.if %dfirst {
        %lw = math.log2 %wsum : !vec
        %lwe = arith.mulf %lw, %ln2 : !vec
        %lv = arith.addf %mt, %lwe : !vec
        hk.store %lv, %Lp2[%b, %hkv, %g, %rt] : !vec, !lp
      }
    }
    // The parts are written again for the next row tile.
    hk.barrier
  }
  hk.return
}

// Merges the splits of the D = 256 entry points: for every row,
//   L = log sum_s exp(L_s),  O = sum_s exp(L_s - L) O_s.
// One workgroup per 32-column slice of a 32-row tile (grid
// (ceil(G q_len / 32) 8, H_kv, B)), four waves: the merge of a slice is a
// chain of dependent loads, so each wave takes a quarter of the splits and
// walks them as an online merge (a running maximum from -1e30, finite, so
// that a split without keys weighs exp(-inf) = 0, never NaN), loading split
// s + 1's slice while it merges split s (the last trip loads its last split
// again, never past it). The waves put their normalised O and their LSE
// (as a tile whose rows hold it) into LDS, and wave 0 merges the four. A
// row without any key gets O = 0 and L = -inf.
hk.kernel @attention_decode_combine_d256(%Op: !op256, %Lp: !lp, %O: !q256,
    %L: memref<?x?x?xf32>) attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(2, 2), dim(2, 1), dim(2, 0)]
                    -> ((s0 ceildiv 32) * 8, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cNC = arith.constant 8 : index
  %log2e = arith.constant dense<1.44269502> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %low = arith.constant dense<-1.0e30> : !vec
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_slice
  %parts = hk.alloc_shared : !part_st
  %w = hk.wave_id
  %x = hk.block_id x
  %rt = arith.divui %x, %cNC : index
  %dc = arith.remui %x, %cNC : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %splits = memref.dim %Op, %c2 : !op256
  %per = arith.ceildivui %splits, %c4 : index
  %lo_raw = arith.muli %w, %per : index
  %lo = arith.minui %lo_raw, %splits : index
  %hi_raw = arith.addi %lo, %per : index
  %hi = arith.minui %hi_raw, %splits : index
  %hi1 = arith.maxui %hi, %c1 : index
  %last = arith.subi %hi1, %c1 : index
  %lo_c = arith.minui %lo, %last : index
  %os_0 = hk.load %Op[%b, %hkv, %lo_c, %rt, %dc] : !op256 -> !o_slice
  %ls_0 = hk.load %Lp[%b, %hkv, %lo_c, %rt] : !lp -> !vec
  %res:5 = scf.for %s = %lo to %hi step %c1
      iter_args(%o = %zero_o, %m = %low, %l = %zero_vec, %os = %os_0,
                %ls = %ls_0)
      -> (!o_slice, !vec, !vec, !o_slice, !vec) {
    %sn = arith.addi %s, %c1 : index
    %sn_c = arith.minui %sn, %last : index
    %os_n = hk.load %Op[%b, %hkv, %sn_c, %rt, %dc] : !op256 -> !o_slice
    %ls_n = hk.load %Lp[%b, %hkv, %sn_c, %rt] : !lp -> !vec
    %mx = arith.maximumf %m, %ls : !vec
    %da = arith.subf %m, %mx : !vec
    %da2 = arith.mulf %da, %log2e : !vec
    %alpha = math.exp2 %da2 : !vec
    %dw = arith.subf %ls, %mx : !vec
    %dw2 = arith.mulf %dw, %log2e : !vec
    %wt = math.exp2 %dw2 : !vec
    %oa = hk.row_broadcast mul %o, %alpha : !o_slice, !vec
    %ow = hk.row_broadcast mul %os, %wt : !o_slice, !vec
    %on = arith.addf %oa, %ow : !o_slice
    %la = arith.mulf %l, %alpha : !vec
    %ln = arith.addf %la, %wt : !vec
    scf.yield %on, %mx, %ln, %os_n, %ls_n
        : !o_slice, !vec, !vec, !o_slice, !vec
  }
  %l_safe = arith.maximumf %res#2, %tiny : !vec
  %of = hk.row_broadcast div %res#0, %l_safe : !o_slice, !vec
  %log_l = math.log2 %res#2 : !vec
  %log_e = arith.mulf %log_l, %ln2 : !vec
  %lse = arith.addf %res#1, %log_e : !vec
  %lse_t = hk.row_broadcast add %zero_o, %lse : !o_slice, !vec
  %w4 = arith.addi %w, %c4 : index
  %po = hk.subtile %parts[%w, %c0] : !part_st -> !slice_st
  %pl = hk.subtile %parts[%w4, %c0] : !part_st -> !slice_st
  hk.store %of, %po : !o_slice, !slice_st
  hk.store %lse_t, %pl : !o_slice, !slice_st
  hk.barrier
  %first = arith.cmpi eq, %w, %c0 : index
  scf.if %first {
    %p0 = hk.subtile %parts[%c0, %c0] : !part_st -> !slice_st
    %p1 = hk.subtile %parts[%c1, %c0] : !part_st -> !slice_st
    %p2 = hk.subtile %parts[%c2, %c0] : !part_st -> !slice_st
    %p3 = hk.subtile %parts[%c3, %c0] : !part_st -> !slice_st
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %q0 = hk.subtile %parts[%c4, %c0] : !part_st -> !slice_st
    %q1 = hk.subtile %parts[%c5, %c0] : !part_st -> !slice_st
    %q2 = hk.subtile %parts[%c6, %c0] : !part_st -> !slice_st
    %q3 = hk.subtile %parts[%c7, %c0] : !part_st -> !slice_st
    %o0 = hk.load %p0 : !slice_st -> !o_slice
    %o1 = hk.load %p1 : !slice_st -> !o_slice
    %o2 = hk.load %p2 : !slice_st -> !o_slice
    %o3 = hk.load %p3 : !slice_st -> !o_slice
    %l0 = hk.load %q0 : !slice_st -> !o_slice
    %l1 = hk.load %q1 : !slice_st -> !o_slice
    %l2 = hk.load %q2 : !slice_st -> !o_slice
    %l3 = hk.load %q3 : !slice_st -> !o_slice
    // The four waves' LSEs as vectors (each row of an LSE tile holds one
    // value), the weights exp(L_w - M) on vectors rather than tiles.
    %v0 = hk.row_reduce max %l0 : !o_slice -> !vec
    %v1 = hk.row_reduce max %l1 : !o_slice -> !vec
    %v2 = hk.row_reduce max %l2 : !o_slice -> !vec
    %v3 = hk.row_reduce max %l3 : !o_slice -> !vec
    %m01 = arith.maximumf %v0, %v1 : !vec
    %m23 = arith.maximumf %v2, %v3 : !vec
    %mm = arith.maximumf %m01, %m23 : !vec
    %mt = arith.maximumf %mm, %low : !vec
    %d0 = arith.subf %v0, %mt : !vec
    %d1 = arith.subf %v1, %mt : !vec
    %d2 = arith.subf %v2, %mt : !vec
    %d3 = arith.subf %v3, %mt : !vec
    %e0 = arith.mulf %d0, %log2e : !vec
    %e1 = arith.mulf %d1, %log2e : !vec
    %e2 = arith.mulf %d2, %log2e : !vec
    %e3 = arith.mulf %d3, %log2e : !vec
    %w0 = math.exp2 %e0 : !vec
    %w1 = math.exp2 %e1 : !vec
    %w2 = math.exp2 %e2 : !vec
    %w3 = math.exp2 %e3 : !vec
    %w01 = arith.addf %w0, %w1 : !vec
    %w23 = arith.addf %w2, %w3 : !vec
    %wsum = arith.addf %w01, %w23 : !vec
    %wsafe = arith.maximumf %wsum, %tiny : !vec
    %n0 = arith.divf %w0, %wsafe : !vec
    %n1 = arith.divf %w1, %wsafe : !vec
    %n2 = arith.divf %w2, %wsafe : !vec
    %n3 = arith.divf %w3, %wsafe : !vec
    %a0 = hk.row_broadcast mul %o0, %n0 : !o_slice, !vec
    %a1 = hk.row_broadcast mul %o1, %n1 : !o_slice, !vec
    %a2 = hk.row_broadcast mul %o2, %n2 : !o_slice, !vec
    %a3 = hk.row_broadcast mul %o3, %n3 : !o_slice, !vec
    %s01 = arith.addf %a0, %a1 : !o_slice
    %s23 = arith.addf %a2, %a3 : !o_slice
    %ofin = arith.addf %s01, %s23 : !o_slice
    %ob = arith.truncf %ofin : !o_slice to !o_out_slice
    hk.store %ob, %O[%b, %hkv, %rt, %dc] : !o_out_slice, !q256
    %dfirst = arith.cmpi eq, %dc, %c0 : index
    scf.if %dfirst {
      %lw = math.log2 %wsum : !vec
      %lwe = arith.mulf %lw, %ln2 : !vec
      %lv = arith.addf %mt, %lwe : !vec
      hk.store %lv, %L[%b, %hkv, %rt] : !vec, memref<?x?x?xf32>
    }
  }
  hk.return
}
