// Attention backward, HipKittens style: a prep kernel for -delta, then one
// kernel for dQ, dK and dV. D = 128.
//
// With scale = 1/sqrt(D), S = Q K^T * scale, P = exp(S - L) (L the natural
// log-sum-exp saved by attention_fwd.mlir), and causal masking as in the
// forward pass (P[i, j] = 0 for key j > query i):
//   delta_i = sum_d dO[i, d] * O[i, d]     (@attention_bwd_prep stores -delta)
//   dV = P^T dO,  dP = dO V^T,  dS = P * (dP - delta),
//   dQ = dS K * scale,  dK = dS^T Q * scale          (@attention_bwd)
// dS is multiplied by the scale before its rounding to bf16, so that dQ
// and dK need no scaling of their own: one multiply per dS element (32 per
// lane and step) instead of one per dQ element (128).
// With GQA (H_kv divides H), dK and dV of key/value head hk sum over the
// query heads h with h / (H / H_kv) = hk.
//
// Tensors live in memory as [B, N, H, D] and are passed, like in
// attention_fwd.mlir, as memref<?x?x?x128xT, strided<[?, ?, ?, 1]>> views in
// [B, H, N, D] order (strides [N*H*D, D, H*D, 1]) so that the sequence is
// the second-to-last dimension that tile loads index. L and -delta are
// contiguous [B, H, N] f32.
//
// dQ is accumulated with f32 atomic adds from every key block: %dQ is an f32
// [B, N, H, D] buffer that the caller zeroes before the launch (and converts
// to bf16 afterwards if it wants bf16, as HipKittens does).

!gbf = memref<?x?x?x128xbf16, strided<[?, ?, ?, 1]>>
!gf32 = memref<?x?x?x128xf32, strided<[?, ?, ?, 1]>>

// ---------------------------------------------------------------------------
// -delta = -rowsum(dO * O)
//
// Arguments: %dO, %O : [B, N, H, D] bf16 (as [B, H, N, D] views),
//            %ndelta : memref<?x?x?xf32> [B, H, N], receives -delta
//            (the main kernel's dP MMA accumulates onto it).
// Grid: (ceildiv(N, 128), H, B), 4 waves; wave w handles the 32 rows
// [128x + 32w, 128x + 32w + 32). Rows past N read zeros; their stores are
// dropped. (HipKittens' bwd_prep kernel: load dO and O, mul, row_sum, store.)
// ---------------------------------------------------------------------------
!prep_in = tensor<32x128xbf16, #hk.rt<row, 16x32>>
!prep_f = tensor<32x128xf32, #hk.rt<row, 16x32>>
!prep_vec = tensor<32xf32, #hk.rv<row, #hk.rt<row, 16x32>>>

hk.kernel @attention_bwd_prep(%dO: !gbf, %O: !gbf, %ndelta: memref<?x?x?xf32>)
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
  %nd = arith.negf %d : !prep_vec
  hk.store %nd, %ndelta[%b, %h, %tile] : !prep_vec, memref<?x?x?xf32>
  hk.return
}

// ---------------------------------------------------------------------------
// dQ, dK, dV
//
// Arguments: %Q, %K, %V, %dO : bf16 views ([B, N, H, D], K and V with H_kv
//            heads); %L, %ndelta (-delta, from the prep kernel) :
//            [B, H, N] f32; %dQ : f32 view, zeroed by the caller; %dK, %dV :
//            bf16 views [B, N, H_kv, D]; %causal : i1.
// Grid: (ceildiv(N, 128), H_kv, B), 4 waves. Workgroup (x, hk, b) owns keys
// [128x, 128x + 128) of KV head hk; wave w owns keys [128x + 32w, +32) and
// keeps its K and V slices and its dK and dV accumulators in registers.
// It walks every query head of its group and every query block of 64 rows
// (when causal, from the first block that can see its keys, 2x); Q and dO
// blocks are shared by the 4 waves through LDS, double buffered
// (2 x 2 x 64x128 bf16 = 64 KiB). N need not be a multiple of the tiles,
// and nothing is masked for it: positions past N read zeros and their
// stores and adds are dropped (see P below).
//
// Layouts. Scores are computed as S = Q K^T (queries as rows) into a 64x32
// col accumulator; P and dS, converted to bf16 in place, are then directly
// the K-major col operands of dV = P^T dO and dK = dS^T Q (mma_AtB with K over
// the 64 queries). dQ = dS K contracts over keys, so dS is moved into a
// 16x32 row tile with hk.swap_layout (HipKittens goes through LDS for the
// same transposition). P and dS are rounded to bf16 with `fastmath<nnan>`:
// neither is NaN for finite inputs (P is an exp2), so gfx942 rounds them
// without a NaN test per element (docs/lowering.md). The main loop is a 4-wave interleave schedule, as in
// HipKittens' backward kernel (4 waves, 1 per SIMD).
//
// Step t, after its wait and barrier, refills the stage step t - 1 read
// with step t + 1's blocks (a full step of math hides the copy); the last
// refill addresses blocks that are never consumed (zeros past N, or a
// neighbouring head) and is waited for before the kernel ends. One barrier
// per step covers both hazards: every wave's reads of the other stage
// (step t - 1) are behind it, and so is the copy into this one.
//
// Registers. A wave has 512 (256 VGPRs, 256 AGPRs) and keeps K (row, 32),
// K (col, 32), V (32) and the dK and dV accumulators (128) for the whole
// loop. Col tiles read from LDS cost one register per element until packed
// for the MFMA, so Q and dO are read per use, never together: Q (row) for
// S, dO (row) for dP, then dO and Q as col in 64-column halves, each
// consumed by the next compute cluster (dV, dK and dQ are split in D
// halves to match). At most one unpacked half (64) is live with P, dS and
// the next read in flight. The refill sits at the top of the step on
// purpose: its ragged-edge copy is branchy code, and the backend sinks pure
// math whose results are only used by the loop's back edge (the dK and dV
// MMAs) past such branches to the latch. With the refill at the end, all
// four col halves were read before it and consumed after it (256
// registers live across it): about 1 KB of scratch per lane.
// ---------------------------------------------------------------------------
!qd_st2 = !hk.st<128x128xbf16, 16x32>
!qd_st = !hk.st<64x128xbf16, 16x32>
!q_row = tensor<64x128xbf16, #hk.rt<row, 16x32>>
!kv_row = tensor<32x128xbf16, #hk.rt<row, 16x32>>
!s_acc = tensor<64x32xf32, #hk.rt<col, 16x16>>
!s_bf = tensor<64x32xbf16, #hk.rt<col, 16x16>>
!ds_row = tensor<64x32xbf16, #hk.rt<row, 16x32>>
!qh_st = !hk.st<64x64xbf16, 16x32>
!q_colh = tensor<64x64xbf16, #hk.rt<col, 16x16>>
!kh_col = tensor<32x64xbf16, #hk.rt<col, 32x16>>
!kvh_acc = tensor<32x64xf32, #hk.rt<col, 16x16>>
!kvh_out = tensor<32x64xbf16, #hk.rt<col, 16x16>>
!dqh_acc = tensor<64x64xf32, #hk.rt<col, 16x16>>
!qvec = tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>

hk.kernel @attention_bwd(%Q: !gbf, %K: !gbf, %V: !gbf, %dO: !gbf,
                         %L: memref<?x?x?xf32>, %ndelta: memref<?x?x?xf32>,
                         %dQ: !gf32, %dK: !gbf, %dV: !gbf, %causal: i1)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(1, 2), dim(1, 1), dim(1, 0)]
                      -> (s0 ceildiv 128, s1, s2)>} {
  %c0 = arith.constant 0 : index
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
  %scale_s = arith.constant dense<0.0883883476> : !s_acc
  %zero_s = arith.constant dense<0.0> : !s_acc
  %one_s = arith.constant dense<1.0> : !s_acc
  %zero_kv = arith.constant dense<0.0> : !kvh_acc
  %zero_dq = arith.constant dense<0.0> : !dqh_acc

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
  %kr = hk.load %K[%b, %hkv, %ktile, %c0] : !gbf -> !kv_row
  %kc0 = hk.load %K[%b, %hkv, %ktile, %c0] : !gbf -> !kh_col
  %kc1 = hk.load %K[%b, %hkv, %ktile, %c1] : !gbf -> !kh_col
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
  // (per_head clamped to 1 when there is nothing to do). The loop carries
  // both (h, t % per_head) and steps them, wrapping to the next head, rather
  // than dividing t: a division of the step would be a 64-bit unsigned
  // division in every trip (the index type), about 80 scalar instructions,
  // twice with the prefetch's t + 1.
  %qs0 = hk.subtile %qs[%c0, %c0] : !qd_st2 -> !qd_st
  %dos0 = hk.subtile %dos[%c0, %c0] : !qd_st2 -> !qd_st
  %per_head1 = arith.maxui %per_head, %c1 : index
  %tq0 = hk.load_async %Q[%b, %h_first, %i0, %c0], %qs0 : !gbf, !qd_st
  %td0 = hk.load_async %dO[%b, %h_first, %i0, %c0], %dos0 : !gbf, !qd_st

  %res:6 = hk.interleave -> !kvh_acc, !kvh_acc, !kvh_acc, !kvh_acc,
                            !hk.token, !hk.token {
    %r:8 = scf.for %t = %c0 to %steps step %c1
        iter_args(%dk0 = %zero_kv, %dk1 = %zero_kv, %dv0 = %zero_kv,
                  %dv1 = %zero_kv, %tq = %tq0, %td = %td0, %h = %h_first,
                  %ir = %c0)
        -> (!kvh_acc, !kvh_acc, !kvh_acc, !kvh_acc, !hk.token, !hk.token,
            index, index) {
      %s = arith.remui %t, %c2 : index
      %s1 = arith.subi %c1, %s : index
      %q_stage = hk.subtile %qs[%s, %c0] : !qd_st2 -> !qd_st
      %do_stage = hk.subtile %dos[%s, %c0] : !qd_st2 -> !qd_st
      %q_next = hk.subtile %qs[%s1, %c0] : !qd_st2 -> !qd_st
      %do_next = hk.subtile %dos[%s1, %c0] : !qd_st2 -> !qd_st
      %q_lo = hk.subtile %qs[%s, %c0] : !qd_st2 -> !qh_st
      %q_hi = hk.subtile %qs[%s, %c1] : !qd_st2 -> !qh_st
      %do_lo = hk.subtile %dos[%s, %c0] : !qd_st2 -> !qh_st
      %do_hi = hk.subtile %dos[%s, %c1] : !qd_st2 -> !qh_st
      %i = arith.addi %i0, %ir : index
      %q0 = arith.muli %i, %c64 : index
      // Step t + 1's head and query block.
      %ir_inc = arith.addi %ir, %c1 : index
      %wrap = arith.cmpi eq, %ir_inc, %per_head1 : index
      %ir1 = arith.select %wrap, %c0, %ir_inc : index
      %h_inc = arith.addi %h, %c1 : index
      %h1 = arith.select %wrap, %h_inc, %h : index
      %i1 = arith.addi %i0, %ir1 : index

      // Step t's blocks are in stage s, and every wave is done with stage
      // 1 - s (read in step t - 1): refill it with step t + 1's blocks. Then
      // Q (row) for the scores, L and -delta.
      %qrow, %lv, %ndlt, %nq_tok, %nd_tok = hk.cluster memory
          -> !q_row, !qvec, !qvec, !hk.token, !hk.token {
        hk.wait %tq, %td
        hk.barrier
        %aq = hk.load_async %Q[%b, %h1, %i1, %c0], %q_next : !gbf, !qd_st
        %ad = hk.load_async %dO[%b, %h1, %i1, %c0], %do_next : !gbf, !qd_st
        %a = hk.load %q_stage : !qd_st -> !q_row
        %e = hk.load %L[%b, %h, %i] : memref<?x?x?xf32> -> !qvec
        %f = hk.load %ndelta[%b, %h, %i] : memref<?x?x?xf32> -> !qvec
        hk.yield %a, %e, %f, %aq, %ad
            : !q_row, !qvec, !qvec, !hk.token, !hk.token
      }

      // P = exp2(S * log2(e) / sqrt(D) - L * log2(e)), clamped to [0, 1]
      // (the code generator folds the clamp into v_exp_f32's clamp bit).
      // With L the log-sum-exp of S's row, P <= 1 up to rounding, so the
      // clamp changes no P by more than that; what it bounds are the
      // positions past N, which are not masked:
      //  * a query row past N reads zeros for Q, dO, L and -delta: its P is
      //    1 and its dS 0, it adds nothing to dV (dO is 0) or dK (dS is 0),
      //    and its dQ adds are dropped;
      //  * a key past N reads zeros for K and V: its S is 0 and its P,
      //    exp2(-L * log2(e)), at most 1 (unclamped it overflows when L <
      //    -88); its dP is 0, so its dS is finite, adds 0 to dQ (K is 0),
      //    and its dK and dV rows are dropped.
      // The causal mask sets S to -inf, so that the scaling and the
      // subtraction are one FMA per element (the multiply is marked
      // fastmath<contract> and the row_broadcast's subtraction inherits it,
      // as in the forward).
      %p = hk.cluster compute -> !s_acc {
        %sa = hk.mma abt %qrow, %kr, %zero_s : !q_row, !kv_row, !s_acc
        %s4 = scf.if %causal -> !s_acc {
          %sc = hk.tril %sa at [%q0, %k0] fill %neginf : !s_acc
          scf.yield %sc : !s_acc
        } else {
          scf.yield %sa : !s_acc
        }
        %s5 = arith.mulf %s4, %scale_log2 fastmath<contract> : !s_acc
        %l2 = arith.mulf %lv, %log2e : !qvec
        %sl = hk.row_broadcast sub %s5, %l2 : !s_acc, !qvec
        %pe = math.exp2 %sl : !s_acc
        %pz = arith.maxnumf %pe, %zero_s : !s_acc
        %pc = arith.minnumf %pz, %one_s : !s_acc
        hk.yield %pc : !s_acc
      }
      %dorow = hk.cluster memory -> !q_row {
        %c = hk.load %do_stage : !qd_st -> !q_row
        hk.yield %c : !q_row
      }

      // dS * scale = P * (dO V^T - delta) * scale. The MMA accumulates
      // onto -delta (as the prep kernel stores it), spread over its rows:
      // the subtraction costs nothing per element, and the spread is the
      // copy that the MMA's accumulator needs.
      %pb, %dsb, %dsr = hk.cluster compute -> !s_bf, !s_bf, !ds_row {
        %pbf = arith.truncf %p fastmath<nnan> : !s_acc to !s_bf
        %nd = hk.row_broadcast copy %zero_s, %ndlt : !s_acc, !qvec
        %dpd = hk.mma abt %dorow, %vr, %nd : !q_row, !kv_row, !s_acc
        %ds = arith.mulf %p, %dpd : !s_acc
        %dss = arith.mulf %ds, %scale_s : !s_acc
        %dsbf = arith.truncf %dss fastmath<nnan> : !s_acc to !s_bf
        %dsrow = hk.swap_layout %dsbf : !s_bf -> !ds_row
        hk.yield %pbf, %dsbf, %dsrow : !s_bf, !s_bf, !ds_row
      }
      %doc0 = hk.cluster memory -> !q_colh {
        %d = hk.load %do_lo : !qh_st -> !q_colh
        hk.yield %d : !q_colh
      }

      // dV += P^T dO, one half of D at a time.
      %dv0n = hk.cluster compute -> !kvh_acc {
        %v = hk.mma atb %pb, %doc0, %dv0 : !s_bf, !q_colh, !kvh_acc
        hk.yield %v : !kvh_acc
      }
      %doc1 = hk.cluster memory -> !q_colh {
        %d = hk.load %do_hi : !qh_st -> !q_colh
        hk.yield %d : !q_colh
      }
      %dv1n = hk.cluster compute -> !kvh_acc {
        %v = hk.mma atb %pb, %doc1, %dv1 : !s_bf, !q_colh, !kvh_acc
        hk.yield %v : !kvh_acc
      }
      %qc0 = hk.cluster memory -> !q_colh {
        %d = hk.load %q_lo : !qh_st -> !q_colh
        hk.yield %d : !q_colh
      }

      // dK += (dS * scale)^T Q, one half of D at a time.
      %dk0n = hk.cluster compute -> !kvh_acc {
        %v = hk.mma atb %dsb, %qc0, %dk0 : !s_bf, !q_colh, !kvh_acc
        hk.yield %v : !kvh_acc
      }
      %qc1 = hk.cluster memory -> !q_colh {
        %d = hk.load %q_hi : !qh_st -> !q_colh
        hk.yield %d : !q_colh
      }
      // ... and this wave's share of dQ = (dS * scale) K, columns 0-63.
      %dk1n, %dq0 = hk.cluster compute -> !kvh_acc, !dqh_acc {
        %v = hk.mma atb %dsb, %qc1, %dk1 : !s_bf, !q_colh, !kvh_acc
        %dqp = hk.mma ab %dsr, %kc0, %zero_dq : !ds_row, !kh_col, !dqh_acc
        hk.yield %v, %dqp : !kvh_acc, !dqh_acc
      }

      hk.cluster memory {
        hk.atomic_add %dq0, %dQ[%b, %h, %i, %c0] : !dqh_acc, !gf32
        hk.yield
      }
      // dQ columns 64-127.
      %dq1 = hk.cluster compute -> !dqh_acc {
        %dqp = hk.mma ab %dsr, %kc1, %zero_dq : !ds_row, !kh_col, !dqh_acc
        hk.yield %dqp : !dqh_acc
      }
      hk.cluster memory {
        hk.atomic_add %dq1, %dQ[%b, %h, %i, %c1] : !dqh_acc, !gf32
        hk.yield
      }
      scf.yield %dk0n, %dk1n, %dv0n, %dv1n, %nq_tok, %nd_tok, %h1, %ir1
          : !kvh_acc, !kvh_acc, !kvh_acc, !kvh_acc, !hk.token, !hk.token,
            index, index
    }
    hk.yield %r#0, %r#1, %r#2, %r#3, %r#4, %r#5
        : !kvh_acc, !kvh_acc, !kvh_acc, !kvh_acc, !hk.token, !hk.token
  }
  hk.wait %res#4, %res#5

  %dkb0 = arith.truncf %res#0 : !kvh_acc to !kvh_out
  %dkb1 = arith.truncf %res#1 : !kvh_acc to !kvh_out
  %dvb0 = arith.truncf %res#2 : !kvh_acc to !kvh_out
  %dvb1 = arith.truncf %res#3 : !kvh_acc to !kvh_out
  hk.store %dkb0, %dK[%b, %hkv, %ktile, %c0] : !kvh_out, !gbf
  hk.store %dkb1, %dK[%b, %hkv, %ktile, %c1] : !kvh_out, !gbf
  hk.store %dvb0, %dV[%b, %hkv, %ktile, %c0] : !kvh_out, !gbf
  hk.store %dvb1, %dV[%b, %hkv, %ktile, %c1] : !kvh_out, !gbf
  hk.return
}
