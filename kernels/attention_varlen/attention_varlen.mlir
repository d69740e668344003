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
//        (memref.load); 0 = cu[0] <= cu[1] <= ... (empty sequences allowed)
//   %max_q : index  a bound on the sequences' len_q, for the grid only
//   %causal : i1
//   %window : i32  the left window W, negative for none
// Every sequence is a memref.subview of the packed tensors at the offsets
// read from memory, so tile loads past a sequence's last row read zeros and
// tile stores past it are dropped, as at the ragged end of attention_fwd.
//
// Grid: (ceildiv(max_q, 256), H, B), 8 waves: an upper bound with early
// exit, as FlashAttention's varlen grid (max_seqlen_q comes from the
// caller). Workgroup (x, h, b) takes rows [256x, 256x + 256) of sequence b
// and head h, wave w rows [256x + 32w, +32); a workgroup whose first row is
// at or past len_q does nothing (a uniform branch around the whole body).
// The bound rather than a persistent scheduler (gemm_grouped's): a tile's
// coordinates come straight from the block ids, one scalar load pair per
// workgroup instead of a walk over the offsets, and the schedule inside a
// tile is exactly attention_fwd's; the cost is ceildiv(max_q, 256) H B
// workgroups, those past their sequence's end leaving after four scalar
// loads.
//
// Skipped and masked tiles. The workgroup's KV blocks of 64 are
// [blk_lo, blk_hi): blk_hi from its last row's last visible key (causal:
// p of its last row; otherwise len_k - 1), blk_lo from its first row's
// window start (0 without a window). Blocks outside are never loaded or
// computed. Inside, every score tile goes through hk.bounds_mask (keys at
// or past len_k), hk.tril at row offset q0 + len_k - len_q (causal) and
// hk.triu at row offset q0 + len_k - len_q - W (window); the
// hk-peel-bounds pass runs the blocks whose masks keep everything without
// them. Positions are signed i32 in the masks, so a negative row offset
// (len_q > len_k) is exact.
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
// blk_lo + 1.

// Register tiles shared by both head sizes.
!st_acc = tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
!s_rt = tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>>
!s_i32 = tensor<32x64xi32, #hk.rt<row, 32x32, group = 4>>
!s_mask = tensor<32x64xi1, #hk.rt<row, 32x32, group = 4>>
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
    %O: !g128, %L: !lse, %cu_q: !cu, %cu_k: !cu, %max_q: index,
    %causal: i1, %window: i32) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[arg(7), dim(0, 0), dim(5, 0)]
                    -> (s0 ceildiv 256, s1, s2 - 1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c0_i32 = arith.constant 0 : i32
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

  %qblk = hk.block_id x
  %h = hk.block_id y
  %b = hk.block_id z
  %w = hk.wave_id

  // Sequence b: its queries [q_lo, q_lo + len_q) and keys [k_lo, k_lo + len_k)
  // of the packed tensors, read from device memory.
  %b1 = arith.addi %b, %c1 : index
  %q_lo_i = memref.load %cu_q[%b] : !cu
  %q_hi_i = memref.load %cu_q[%b1] : !cu
  %k_lo_i = memref.load %cu_k[%b] : !cu
  %k_hi_i = memref.load %cu_k[%b1] : !cu
  %q_lo = arith.index_castui %q_lo_i : i32 to index
  %q_hi = arith.index_castui %q_hi_i : i32 to index
  %k_lo = arith.index_castui %k_lo_i : i32 to index
  %k_hi = arith.index_castui %k_hi_i : i32 to index
  %len_q = arith.subi %q_hi, %q_lo : index
  %len_k = arith.subi %k_hi, %k_lo : index

  // The workgroup's query rows [r0, r0 + 256) of the sequence; none left:
  // nothing to do.
  %r0 = arith.muli %qblk, %c256 : index
  %active = arith.cmpi ult, %r0, %len_q : index
  scf.if %active {
    %heads = memref.dim %Q, %c0 : !g128
    %kv_heads = memref.dim %K, %c0 : !g128
    %heads32 = arith.index_cast %heads : index to i32
    %kv_heads32 = arith.index_cast %kv_heads : index to i32
    %group = arith.divui %heads32, %kv_heads32 : i32
    %h32 = arith.index_cast %h : index to i32
    %hkv32 = arith.divui %h32, %group : i32
    %hkv = arith.index_castui %hkv32 : i32 to index

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
    %O: !g64, %L: !lse, %cu_q: !cu, %cu_k: !cu, %max_q: index,
    %causal: i1, %window: i32) attributes {
    waves = 8 : i32, min_waves_per_simd = 3 : i32,
    grid = #hk.grid<[arg(7), dim(0, 0), dim(5, 0)]
                    -> (s0 ceildiv 256, s1, s2 - 1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c0_i32 = arith.constant 0 : i32
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

  %qblk = hk.block_id x
  %h = hk.block_id y
  %b = hk.block_id z
  %w = hk.wave_id

  // Sequence b: its queries [q_lo, q_lo + len_q) and keys [k_lo, k_lo + len_k)
  // of the packed tensors, read from device memory.
  %b1 = arith.addi %b, %c1 : index
  %q_lo_i = memref.load %cu_q[%b] : !cu
  %q_hi_i = memref.load %cu_q[%b1] : !cu
  %k_lo_i = memref.load %cu_k[%b] : !cu
  %k_hi_i = memref.load %cu_k[%b1] : !cu
  %q_lo = arith.index_castui %q_lo_i : i32 to index
  %q_hi = arith.index_castui %q_hi_i : i32 to index
  %k_lo = arith.index_castui %k_lo_i : i32 to index
  %k_hi = arith.index_castui %k_hi_i : i32 to index
  %len_q = arith.subi %q_hi, %q_lo : index
  %len_k = arith.subi %k_hi, %k_lo : index

  // The workgroup's query rows [r0, r0 + 256) of the sequence; none left:
  // nothing to do.
  %r0 = arith.muli %qblk, %c256 : index
  %active = arith.cmpi ult, %r0, %len_q : index
  scf.if %active {
    %heads = memref.dim %Q, %c0 : !g64
    %kv_heads = memref.dim %K, %c0 : !g64
    %heads32 = arith.index_cast %heads : index to i32
    %kv_heads32 = arith.index_cast %kv_heads : index to i32
    %group = arith.divui %heads32, %kv_heads32 : i32
    %h32 = arith.index_cast %h : index to i32
    %hkv32 = arith.divui %h32, %group : i32
    %hkv = arith.index_castui %hkv32 : i32 to index

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
  }
  hk.return
}
