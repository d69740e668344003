// examples/attention_bwd.mlir with the i1 `causal` argument taken as an i32
// (nonzero: causal) and turned into the i1 by arith.cmpi, so that hkrt can
// pass it before it has an i1 argument dtype. Otherwise identical; the
// library's launcher passes the flag as i32 meanwhile.

// Attention backward, HipKittens style: a prep kernel for delta, then one
// kernel for dQ, dK and dV. D = 128.
//
// With scale = 1/sqrt(D), S = Q K^T * scale, P = exp(S - L) (L the natural
// log-sum-exp saved by attention_fwd.mlir), and causal masking as in the
// forward pass (P[i, j] = 0 for key j > query i):
//   delta_i = sum_d dO[i, d] * O[i, d]               (@attention_bwd_prep)
//   dV = P^T dO,  dP = dO V^T,  dS = P * (dP - delta),
//   dQ = dS K * scale,  dK = dS^T Q * scale          (@attention_bwd)
// With GQA (H_kv divides H), dK and dV of key/value head hk sum over the
// query heads h with h / (H / H_kv) = hk.
//
// Tensors live in memory as [B, N, H, D] and are passed, like in
// attention_fwd.mlir, as memref<?x?x?x?xT, strided<[?, ?, ?, 1]>> views in
// [B, H, N, D] order (strides [N*H*D, D, H*D, 1]) so that the sequence is
// the second-to-last dimension that tile loads index. L and delta are
// contiguous [B, H, N] f32.
//
// dQ is accumulated with f32 atomic adds from every key block: %dQ is an f32
// [B, N, H, D] buffer that the caller zeroes before the launch (and converts
// to bf16 afterwards if it wants bf16, as HipKittens does).

!gbf = memref<?x?x?x?xbf16, strided<[?, ?, ?, 1]>>
!gf32 = memref<?x?x?x?xf32, strided<[?, ?, ?, 1]>>

// ---------------------------------------------------------------------------
// delta = rowsum(dO * O)
//
// Arguments: %dO, %O : [B, N, H, D] bf16 (as [B, H, N, D] views),
//            %delta : memref<?x?x?xf32> [B, H, N].
// Grid: (ceildiv(N, 128), H, B), 4 waves; wave w handles the 32 rows
// [128x + 32w, 128x + 32w + 32). Rows past N read zeros; their stores are
// dropped. (HipKittens' bwd_prep kernel: load dO and O, mul, row_sum, store.)
// ---------------------------------------------------------------------------
!prep_in = tensor<32x128xbf16, #hk.rt<row, 16x32>>
!prep_f = tensor<32x128xf32, #hk.rt<row, 16x32>>
!prep_vec = tensor<32xf32, #hk.rv<row, #hk.rt<row, 16x32>>>

hk.kernel @attention_bwd_prep(%dO: !gbf, %O: !gbf, %delta: memref<?x?x?xf32>)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(0, 2), dim(0, 1), dim(0, 0)]
                      -> (s0 ceildiv 128, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %x = hk.block_id x
  %h = hk.block_id y
  %b = hk.block_id z
  %w = hk.wave_id
  %x4 = arith.muli %x, %c4 : index
  %tile = arith.addi %x4, %w : index
  %do = hk.load %dO[%b, %h, %tile, %c0] : !gbf -> !prep_in
  %o = hk.load %O[%b, %h, %tile, %c0] : !gbf -> !prep_in
  %dof = arith.extf %do : !prep_in to !prep_f
  %of = arith.extf %o : !prep_in to !prep_f
  %prod = arith.mulf %dof, %of : !prep_f
  %d = hk.row_reduce sum %prod : !prep_f -> !prep_vec
  hk.store %d, %delta[%b, %h, %tile] : !prep_vec, memref<?x?x?xf32>
  hk.return
}

// ---------------------------------------------------------------------------
// dQ, dK, dV
//
// Arguments: %Q, %K, %V, %dO : bf16 views ([B, N, H, D], K and V with H_kv
//            heads); %L, %delta : [B, H, N] f32; %dQ : f32 view, zeroed by
//            the caller; %dK, %dV : bf16 views [B, N, H_kv, D];
//            %causal : i1.
// Grid: (ceildiv(N, 128), H_kv, B), 4 waves. Workgroup (x, hk, b) owns keys
// [128x, 128x + 128) of KV head hk; wave w owns keys [128x + 32w, +32) and
// keeps its K and V slices and its dK and dV accumulators in registers.
// It walks every query head of its group and every query block of 64 rows
// (when causal, from the first block that can see its keys, 2x); Q and dO
// blocks are shared by the 4 waves through LDS, double buffered
// (2 x 2 x 64x128 bf16 = 64 KiB). N need not be a multiple of the tiles:
// key and query positions at or past N are masked out of P.
//
// Layouts. Scores are computed as S = Q K^T (queries as rows) into a 64x32
// col accumulator; P and dS, converted to bf16 in place, are then directly
// the K-major col operands of dV = P^T dO and dK = dS^T Q (mma_AtB with K over
// the 64 queries). dQ = dS K contracts over keys, so dS is moved into a
// 16x32 row tile with hk.swap_layout (HipKittens goes through LDS for the
// same transposition). The main loop is a 4-wave interleave schedule, as in
// HipKittens' backward kernel (4 waves, 1 per SIMD).
//
// The body prefetches the (head, block) two steps ahead; the last two
// prefetches address blocks that are never consumed (zeros past N, or a
// neighbouring head), and are waited for before the kernel ends.
// ---------------------------------------------------------------------------
!qd_st2 = !hk.st<128x128xbf16, 16x32>
!qd_st = !hk.st<64x128xbf16, 16x32>
!q_row = tensor<64x128xbf16, #hk.rt<row, 16x32>>
!q_col = tensor<64x128xbf16, #hk.rt<col, 16x16>>
!kv_row = tensor<32x128xbf16, #hk.rt<row, 16x32>>
!k_col = tensor<32x128xbf16, #hk.rt<col, 32x16>>
!s_acc = tensor<64x32xf32, #hk.rt<col, 16x16>>
!s_bf = tensor<64x32xbf16, #hk.rt<col, 16x16>>
!ds_row = tensor<64x32xbf16, #hk.rt<row, 16x32>>
!kv_acc = tensor<32x128xf32, #hk.rt<col, 16x16>>
!kv_out = tensor<32x128xbf16, #hk.rt<col, 16x16>>
!dq_acc = tensor<64x128xf32, #hk.rt<col, 16x16>>
!qvec = tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>

hk.kernel @attention_bwd(%Q: !gbf, %K: !gbf, %V: !gbf, %dO: !gbf,
                         %L: memref<?x?x?xf32>, %delta: memref<?x?x?xf32>,
                         %dQ: !gf32, %dK: !gbf, %dV: !gbf, %causal_flag: i32)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(1, 2), dim(1, 1), dim(1, 0)]
                      -> (s0 ceildiv 128, s1, s2)>} {
  %c0 = arith.constant 0 : index
  %zero_i32 = arith.constant 0 : i32
  %causal = arith.cmpi ne, %causal_flag, %zero_i32 : i32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %neginf = arith.constant 0xFF800000 : f32
  // log2(e) / sqrt(128), log2(e), 1 / sqrt(128).
  %scale_log2 = arith.constant dense<0.127517432> : !s_acc
  %log2e = arith.constant dense<1.44269502> : !qvec
  %scale_kv = arith.constant dense<0.0883883476> : !kv_acc
  %scale_dq = arith.constant dense<0.0883883476> : !dq_acc
  %zero_s = arith.constant dense<0.0> : !s_acc
  %zero_kv = arith.constant dense<0.0> : !kv_acc
  %zero_dq = arith.constant dense<0.0> : !dq_acc

  // Q and dO blocks, two stages each; stage s is rows [64*s, 64*s + 64).
  %qs = hk.alloc_shared : !qd_st2
  %dos = hk.alloc_shared : !qd_st2

  %x = hk.block_id x
  %hkv = hk.block_id y
  %b = hk.block_id z
  %w = hk.wave_id

  %heads = memref.dim %Q, %c1 : !gbf
  %kv_heads = memref.dim %K, %c1 : !gbf
  %group = arith.divui %heads, %kv_heads : index
  %h_first = arith.muli %hkv, %group : index

  // This wave's 32 keys.
  %x4 = arith.muli %x, %c4 : index
  %ktile = arith.addi %x4, %w : index
  %k0 = arith.muli %ktile, %c32 : index
  %k_end = arith.addi %k0, %c32 : index
  %kr = hk.load %K[%b, %hkv, %ktile, %c0] : !gbf -> !kv_row
  %kc = hk.load %K[%b, %hkv, %ktile, %c0] : !gbf -> !k_col
  %vr = hk.load %V[%b, %hkv, %ktile, %c0] : !gbf -> !kv_row

  // Query blocks of 64: [i0, nq) per head, i0 = 2x when causal (earlier
  // blocks only hold queries before this workgroup's first key).
  %n = memref.dim %Q, %c2 : !gbf
  %n_pad = arith.addi %n, %c63 : index
  %nq = arith.divui %n_pad, %c64 : index
  %x2 = arith.muli %x, %c2 : index
  %i0_causal = arith.minui %x2, %nq : index
  %i0 = arith.select %causal, %i0_causal, %c0 : index
  %per_head = arith.subi %nq, %i0 : index
  %steps = arith.muli %per_head, %group : index

  // Step t covers head h_first + t / per_head, query block i0 + t % per_head
  // (per_head clamped to 1 for the divisions when there is nothing to do).
  %qs0 = hk.subtile %qs[%c0, %c0] : !qd_st2 -> !qd_st
  %dos0 = hk.subtile %dos[%c0, %c0] : !qd_st2 -> !qd_st
  %qs1 = hk.subtile %qs[%c1, %c0] : !qd_st2 -> !qd_st
  %dos1 = hk.subtile %dos[%c1, %c0] : !qd_st2 -> !qd_st
  %per_head1 = arith.maxui %per_head, %c1 : index
  %hd1 = arith.divui %c1, %per_head1 : index
  %ht1 = arith.addi %h_first, %hd1 : index
  %ir1 = arith.remui %c1, %per_head1 : index
  %it1 = arith.addi %i0, %ir1 : index
  %tq0 = hk.load_async %Q[%b, %h_first, %i0, %c0], %qs0 : !gbf, !qd_st
  %td0 = hk.load_async %dO[%b, %h_first, %i0, %c0], %dos0 : !gbf, !qd_st
  %tq1 = hk.load_async %Q[%b, %ht1, %it1, %c0], %qs1 : !gbf, !qd_st
  %td1 = hk.load_async %dO[%b, %ht1, %it1, %c0], %dos1 : !gbf, !qd_st

  %res:6 = hk.interleave -> !kv_acc, !kv_acc, !hk.token, !hk.token,
                            !hk.token, !hk.token {
    %r:6 = scf.for %t = %c0 to %steps step %c1
        iter_args(%dk = %zero_kv, %dv = %zero_kv, %tq = %tq0, %td = %td0,
                  %tqn = %tq1, %tdn = %td1)
        -> (!kv_acc, !kv_acc, !hk.token, !hk.token, !hk.token, !hk.token) {
      %s = arith.remui %t, %c2 : index
      %q_stage = hk.subtile %qs[%s, %c0] : !qd_st2 -> !qd_st
      %do_stage = hk.subtile %dos[%s, %c0] : !qd_st2 -> !qd_st
      %hd = arith.divui %t, %per_head1 : index
      %h = arith.addi %h_first, %hd : index
      %ir = arith.remui %t, %per_head1 : index
      %i = arith.addi %i0, %ir : index
      %q0 = arith.muli %i, %c64 : index

      %qrow, %qcol, %dorow, %docol, %lv, %dlt = hk.cluster memory
          -> !q_row, !q_col, !q_row, !q_col, !qvec, !qvec {
        hk.wait %tq, %td
        hk.barrier
        %a = hk.load %q_stage : !qd_st -> !q_row
        %bq = hk.load %q_stage : !qd_st -> !q_col
        %c = hk.load %do_stage : !qd_st -> !q_row
        %d = hk.load %do_stage : !qd_st -> !q_col
        %e = hk.load %L[%b, %h, %i] : memref<?x?x?xf32> -> !qvec
        %f = hk.load %delta[%b, %h, %i] : memref<?x?x?xf32> -> !qvec
        hk.yield %a, %bq, %c, %d, %e, %f
            : !q_row, !q_col, !q_row, !q_col, !qvec, !qvec
      }

      %dk2, %dv2, %dq = hk.cluster compute -> !kv_acc, !kv_acc, !dq_acc {
        // P = exp2(S * log2(e) / sqrt(D) - L * log2(e)), masked to 0.
        %sa = hk.mma abt %qrow, %kr, %zero_s : !q_row, !kv_row, !s_acc
        %s2 = arith.mulf %sa, %scale_log2 : !s_acc
        %s3 = hk.bounds_mask %s2 at [%q0, %k0] within [%n, %n]
            fill %neginf : !s_acc
        %s4 = scf.if %causal -> !s_acc {
          %sc = hk.tril %s3 at [%q0, %k0] fill %neginf : !s_acc
          scf.yield %sc : !s_acc
        } else {
          scf.yield %s3 : !s_acc
        }
        %l2 = arith.mulf %lv, %log2e : !qvec
        %sl = hk.row_broadcast sub %s4, %l2 : !s_acc, !qvec
        %p = math.exp2 %sl : !s_acc
        %pb = arith.truncf %p : !s_acc to !s_bf
        // dV += P^T dO.
        %dvn = hk.mma atb %pb, %docol, %dv : !s_bf, !q_col, !kv_acc
        // dS = P * (dO V^T - delta).
        %dp = hk.mma abt %dorow, %vr, %zero_s : !q_row, !kv_row, !s_acc
        %dpd = hk.row_broadcast sub %dp, %dlt : !s_acc, !qvec
        %ds = arith.mulf %p, %dpd : !s_acc
        %dsb = arith.truncf %ds : !s_acc to !s_bf
        // dK += dS^T Q (scaled once at the end).
        %dkn = hk.mma atb %dsb, %qcol, %dk : !s_bf, !q_col, !kv_acc
        // This wave's share of dQ = dS K * scale.
        %dsr = hk.swap_layout %dsb : !s_bf -> !ds_row
        %dqp = hk.mma ab %dsr, %kc, %zero_dq : !ds_row, !k_col, !dq_acc
        %dqs = arith.mulf %dqp, %scale_dq : !dq_acc
        hk.yield %dkn, %dvn, %dqs : !kv_acc, !kv_acc, !dq_acc
      }

      // Add dQ; once every wave has read stage s, refill it two steps ahead.
      %nq_tok, %nd_tok = hk.cluster memory -> !hk.token, !hk.token {
        hk.atomic_add %dq, %dQ[%b, %h, %i, %c0] : !dq_acc, !gf32
        hk.barrier
        %t2 = arith.addi %t, %c2 : index
        %hd2 = arith.divui %t2, %per_head1 : index
        %h2 = arith.addi %h_first, %hd2 : index
        %ir2 = arith.remui %t2, %per_head1 : index
        %i2 = arith.addi %i0, %ir2 : index
        %a = hk.load_async %Q[%b, %h2, %i2, %c0], %q_stage : !gbf, !qd_st
        %c = hk.load_async %dO[%b, %h2, %i2, %c0], %do_stage : !gbf, !qd_st
        hk.yield %a, %c : !hk.token, !hk.token
      }
      scf.yield %dk2, %dv2, %tqn, %tdn, %nq_tok, %nd_tok
          : !kv_acc, !kv_acc, !hk.token, !hk.token, !hk.token, !hk.token
    }
    hk.yield %r#0, %r#1, %r#2, %r#3, %r#4, %r#5
        : !kv_acc, !kv_acc, !hk.token, !hk.token, !hk.token, !hk.token
  }
  hk.wait %res#2, %res#3, %res#4, %res#5

  %dkf = arith.mulf %res#0, %scale_kv : !kv_acc
  %dkb = arith.truncf %dkf : !kv_acc to !kv_out
  %dvb = arith.truncf %res#1 : !kv_acc to !kv_out
  hk.store %dkb, %dK[%b, %hkv, %ktile, %c0] : !kv_out, !gbf
  hk.store %dvb, %dV[%b, %hkv, %ktile, %c0] : !kv_out, !gbf
  hk.return
}
