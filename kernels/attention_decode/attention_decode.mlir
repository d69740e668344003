// Attention decode (split KV): a few query tokens per sequence against a
// long KV cache, the KV length split across workgroups, then a combine.
//
// For query head h, query token t (0 <= t < q_len) of sequence b,
//   O[b, h, t, :] = sum_j P[j] V[b, j, hk, :],  P = softmax_j(S),
//   S[j] = Q[b, h, t, :] . K[b, j, hk, :] / sqrt(D),
//   L[b, h, t]    = log sum_j exp(S[j])           (natural log),
// with hk = h / (H / H_kv) (GQA; MQA when H_kv = 1) and j running over the
// keys 0 <= j <= len_b - q_len + t, len_b = seq_lens[b]: the query tokens
// are the sequence's last q_len positions (speculative decoding), each
// seeing the keys up to its own. A query token without any key
// (len_b < q_len, len_b = 0) gets O = 0 and L = -inf.
//
// Arguments of @attention_decode_d<D> (D = 64 or 128, part of the types):
//   %Q : memref<?x?x?xDxbf16>  [B, H_kv, G q_len, D]: Q held as
//        [B, H, q_len, D] (G = H / H_kv), whose G heads of one KV head are
//        G q_len consecutive rows; row r is head hk G + r / q_len, token
//        r mod q_len
//   %K, %V : [B, H_kv, N, D] views of the cache, strided (a cache held as
//        [B, N, H_kv, D] is the view with strides [N H_kv D, D, H_kv D, 1]);
//        N >= max_b len_b
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
// K is loaded from global memory straight into the MFMA operand layout; a
// V block is loaded in the row layout, stored into the wave's own 64xD LDS
// tile and read back in the column layout O^T += V^T P^T needs. K and V
// are cut at the split's last key (memref.subview), so the rows past it
// read zeros whatever the cache holds there. The causal limit of each row
// (its token's last key, or the split's) is one i32 tile built from
// hk.iota before the KV loop; a key past it is masked to -inf. A split
// without keys writes O = 0 and L = -inf.
//
// @attention_decode_combine_d<D>(%Op, %Lp, %O, %L) merges the splits:
// O [B, H_kv, G q_len, D] bf16 (Q's layout), L [B, H_kv, G q_len] f32 (that
// is, [B, H, q_len]); grid (ceil(G q_len / 32), H_kv, B), one wave.

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

// ---------------------------------------------------------------------------
// D = 128: scale = log2(e) / sqrt(128) = 0.127517432
// ---------------------------------------------------------------------------
!q_rt128 = tensor<32x128xbf16, #hk.rt<row, 32x16>>
!k_rt128 = tensor<64x128xbf16, #hk.rt<row, 32x16>>
!v_rt128 = tensor<64x128xbf16, #hk.rt<col, 32x32, group = 4>>
!o_rt128 = tensor<32x128xf32, #hk.rt<row, 32x32, group = 4>>
!ot_acc128 = tensor<128x32xf32, #hk.rt<col, 32x32, group = 4>>
!o_out128 = tensor<32x128xbf16, #hk.rt<row, 32x32, group = 4>>
!q128 = memref<?x?x?x128xbf16>
!kv128 = memref<?x?x?x128xbf16, strided<[?, ?, ?, 1]>>
!op128 = memref<?x?x?x?x128xf32>
!v_st128 = !hk.st<64x128xbf16, 16x32>
!v_st4128 = !hk.st<256x128xbf16, 16x32>
!v_row128 = tensor<64x128xbf16, #hk.rt<row, 16x32>>

hk.kernel @attention_decode_d128(%Q: !q128, %K: !kv128, %V: !kv128,
    %seq_lens: memref<?xi32>, %Op: !op128, %Lp: !lp, %q_len: index)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(4, 2), dim(0, 1), dim(0, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 128 : index
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

  %c4 = arith.constant 4 : index
  %vs = hk.alloc_shared : !v_st4128
  %w = hk.wave_id
  %vw = hk.subtile %vs[%w, %c0] : !v_st4128 -> !v_st128
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %batch = memref.dim %K, %c0 : !kv128
  %kv_heads = memref.dim %K, %c1 : !kv128
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

  // K and V cut at key_hi: rows past the split's last key read as zero,
  // whatever the cache holds there (a P of 0 times a NaN would be NaN).
  %Kc = memref.subview %K[0, 0, 0, 0] [%batch, %kv_heads, %key_hi, 128]
      [1, 1, 1, 1] : !kv128 to !kv128
  %Vc = memref.subview %V[0, 0, 0, 0] [%batch, %kv_heads, %key_hi, 128]
      [1, 1, 1, 1] : !kv128 to !kv128

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
      %kt = hk.load %Kc[%b, %hkv, %j, %c0] : !kv128 -> !k_rt128
      %vr = hk.load %Vc[%b, %hkv, %j, %c0] : !kv128 -> !v_row128
      hk.store %vr, %vw : !v_row128, !v_st128
      %vt = hk.load %vw : !v_st128 -> !v_rt128
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt128, !q_rt128, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0 = arith.muli %j, %c64 : index
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

// Merges the splits of @attention_decode_d128: for every row,
//   L = log sum_s exp(L_s),  O = sum_s exp(L_s - L) O_s,
// as an online merge over s with a running maximum that starts at -1e30
// (finite, so that exp(L_s - max) is exp(-inf) = 0, never NaN, for a split
// without keys). A row without any key gets O = 0 and L = -inf.
hk.kernel @attention_decode_combine_d128(%Op: !op128, %Lp: !lp, %O: !q128,
    %L: memref<?x?x?xf32>) attributes {waves = 1 : i32,
    grid = #hk.grid<[dim(2, 2), dim(2, 1), dim(2, 0)]
                    -> (s0 ceildiv 32, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %log2e = arith.constant dense<1.44269502> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %low = arith.constant dense<-1.0e30> : !vec
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt128
  %rt = hk.block_id x
  %hkv = hk.block_id y
  %b = hk.block_id z
  %splits = memref.dim %Op, %c2 : !op128
  %res:3 = scf.for %s = %c0 to %splits step %c1
      iter_args(%o = %zero_o, %m = %low, %l = %zero_vec)
      -> (!o_rt128, !vec, !vec) {
    %os = hk.load %Op[%b, %hkv, %s, %rt, %c0] : !op128 -> !o_rt128
    %ls = hk.load %Lp[%b, %hkv, %s, %rt] : !lp -> !vec
    %mx = arith.maximumf %m, %ls : !vec
    %da = arith.subf %m, %mx : !vec
    %da2 = arith.mulf %da, %log2e : !vec
    %alpha = math.exp2 %da2 : !vec
    %dw = arith.subf %ls, %mx : !vec
    %dw2 = arith.mulf %dw, %log2e : !vec
    %w = math.exp2 %dw2 : !vec
    %oa = hk.row_broadcast mul %o, %alpha : !o_rt128, !vec
    %ow = hk.row_broadcast mul %os, %w : !o_rt128, !vec
    %on = arith.addf %oa, %ow : !o_rt128
    %la = arith.mulf %l, %alpha : !vec
    %ln = arith.addf %la, %w : !vec
    scf.yield %on, %mx, %ln : !o_rt128, !vec, !vec
  }
  %l_safe = arith.maximumf %res#2, %tiny : !vec
  %of = hk.row_broadcast div %res#0, %l_safe : !o_rt128, !vec
  %ob = arith.truncf %of : !o_rt128 to !o_out128
  hk.store %ob, %O[%b, %hkv, %rt, %c0] : !o_out128, !q128
  %log_l = math.log2 %res#2 : !vec
  %log_e = arith.mulf %log_l, %ln2 : !vec
  %lse = arith.addf %res#1, %log_e : !vec
  hk.store %lse, %L[%b, %hkv, %rt] : !vec, memref<?x?x?xf32>
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
!o_out64 = tensor<32x64xbf16, #hk.rt<row, 32x32, group = 4>>
!q64 = memref<?x?x?x64xbf16>
!kv64 = memref<?x?x?x64xbf16, strided<[?, ?, ?, 1]>>
!op64 = memref<?x?x?x?x64xf32>
!v_st64 = !hk.st<64x64xbf16, 16x32>
!v_st464 = !hk.st<256x64xbf16, 16x32>
!v_row64 = tensor<64x64xbf16, #hk.rt<row, 16x32>>

hk.kernel @attention_decode_d64(%Q: !q64, %K: !kv64, %V: !kv64,
    %seq_lens: memref<?xi32>, %Op: !op64, %Lp: !lp, %q_len: index)
    attributes {waves = 4 : i32,
    grid = #hk.grid<[dim(4, 2), dim(0, 1), dim(0, 0)]
                    -> (s0 ceildiv 4, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cD = arith.constant 64 : index
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

  %c4 = arith.constant 4 : index
  %vs = hk.alloc_shared : !v_st464
  %w = hk.wave_id
  %vw = hk.subtile %vs[%w, %c0] : !v_st464 -> !v_st64
  %bx = hk.block_id x
  %bx4 = arith.muli %bx, %c4 : index
  %split = arith.addi %bx4, %w : index
  %hkv = hk.block_id y
  %b = hk.block_id z
  %batch = memref.dim %K, %c0 : !kv64
  %kv_heads = memref.dim %K, %c1 : !kv64
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

  // K and V cut at key_hi: rows past the split's last key read as zero,
  // whatever the cache holds there (a P of 0 times a NaN would be NaN).
  %Kc = memref.subview %K[0, 0, 0, 0] [%batch, %kv_heads, %key_hi, 64]
      [1, 1, 1, 1] : !kv64 to !kv64
  %Vc = memref.subview %V[0, 0, 0, 0] [%batch, %kv_heads, %key_hi, 64]
      [1, 1, 1, 1] : !kv64 to !kv64

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
      %kt = hk.load %Kc[%b, %hkv, %j, %c0] : !kv64 -> !k_rt64
      %vr = hk.load %Vc[%b, %hkv, %j, %c0] : !kv64 -> !v_row64
      hk.store %vr, %vw : !v_row64, !v_st64
      %vt = hk.load %vw : !v_st64 -> !v_rt64
      // S^T = K Q^T, relabelled as S (queries as rows).
      %st = hk.mma abt %kt, %q, %zero_s : !k_rt64, !q_rt64, !st_acc
      %sr = hk.transpose %st : !st_acc -> !s_rt
      %k0 = arith.muli %j, %c64 : index
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

// Merges the splits of @attention_decode_d64: for every row,
//   L = log sum_s exp(L_s),  O = sum_s exp(L_s - L) O_s,
// as an online merge over s with a running maximum that starts at -1e30
// (finite, so that exp(L_s - max) is exp(-inf) = 0, never NaN, for a split
// without keys). A row without any key gets O = 0 and L = -inf.
hk.kernel @attention_decode_combine_d64(%Op: !op64, %Lp: !lp, %O: !q64,
    %L: memref<?x?x?xf32>) attributes {waves = 1 : i32,
    grid = #hk.grid<[dim(2, 2), dim(2, 1), dim(2, 0)]
                    -> (s0 ceildiv 32, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %log2e = arith.constant dense<1.44269502> : !vec
  %ln2 = arith.constant dense<0.693147182> : !vec
  %low = arith.constant dense<-1.0e30> : !vec
  %zero_vec = arith.constant dense<0.0> : !vec
  %tiny = arith.constant dense<1.0e-30> : !vec
  %zero_o = arith.constant dense<0.0> : !o_rt64
  %rt = hk.block_id x
  %hkv = hk.block_id y
  %b = hk.block_id z
  %splits = memref.dim %Op, %c2 : !op64
  %res:3 = scf.for %s = %c0 to %splits step %c1
      iter_args(%o = %zero_o, %m = %low, %l = %zero_vec)
      -> (!o_rt64, !vec, !vec) {
    %os = hk.load %Op[%b, %hkv, %s, %rt, %c0] : !op64 -> !o_rt64
    %ls = hk.load %Lp[%b, %hkv, %s, %rt] : !lp -> !vec
    %mx = arith.maximumf %m, %ls : !vec
    %da = arith.subf %m, %mx : !vec
    %da2 = arith.mulf %da, %log2e : !vec
    %alpha = math.exp2 %da2 : !vec
    %dw = arith.subf %ls, %mx : !vec
    %dw2 = arith.mulf %dw, %log2e : !vec
    %w = math.exp2 %dw2 : !vec
    %oa = hk.row_broadcast mul %o, %alpha : !o_rt64, !vec
    %ow = hk.row_broadcast mul %os, %w : !o_rt64, !vec
    %on = arith.addf %oa, %ow : !o_rt64
    %la = arith.mulf %l, %alpha : !vec
    %ln = arith.addf %la, %w : !vec
    scf.yield %on, %mx, %ln : !o_rt64, !vec, !vec
  }
  %l_safe = arith.maximumf %res#2, %tiny : !vec
  %of = hk.row_broadcast div %res#0, %l_safe : !o_rt64, !vec
  %ob = arith.truncf %of : !o_rt64 to !o_out64
  hk.store %ob, %O[%b, %hkv, %rt, %c0] : !o_out64, !q64
  %log_l = math.log2 %res#2 : !vec
  %log_e = arith.mulf %log_l, %ln2 : !vec
  %lse = arith.addf %res#1, %log_e : !vec
  hk.store %lse, %L[%b, %hkv, %rt] : !vec, memref<?x?x?xf32>
  hk.return
}
