//===- attention_decode/Reference.cpp - split-KV decode attention ---------===//
//
// The problem of --shape B,H,H_kv,q_len,N,D,ragged,page: B sequences with
// q_len query tokens each (their last q_len positions), H query heads over
// H_kv key/value heads, up to N positions per sequence and head dimension
// D (64, 128 or 256). ragged = 0 gives every sequence len = N; ragged = 1 draws
// the lengths from [0, N] and sets the first ones to 0, 1 and N (as far as B
// allows), so the degenerate lengths are always checked.
//
// The KV cache is paged as vLLM's and SGLang's are: K and V are pools of
// pages [num_pages, page, H_kv, D] bf16, and the block table
// [B, max_blocks] int32 lists each sequence's pages in order (key j of
// sequence b is row j mod page of page table[b, j / page]). page = 0 is the
// contiguous cache [B, N, H_kv, D]: the pool of B pages of N rows, each
// sequence's one page its own (table [B, 1], entry b). A page size > 0
// takes ceil(N / page) pages per sequence, in a shuffled order, with one
// more page that no table lists; the rows of a page past its sequence's
// length and the unlisted page hold NaN, which the kernel must never read
// into a result.
//
// kv = 0 gives bf16 pools; kv = 1 and 2 fp8 pools (the chip's E4M3, values
// common to both chips' formats) with f32 scales k_scale and v_scale of one
// element (per tensor, kv = 1) or H_kv (per KV head, kv = 2): the keys and
// values are k_scale[hk] K and v_scale[hk] V.
//
// Tensors: Q and O [B, H, q_len, D] bf16, seq_lens [B] int32, L [B, H,
// q_len] f32. The launch allocates the splits' partial O and LSE itself
// (their size follows the chip's split count) and runs the decode kernel,
// then the combine kernel.
//===----------------------------------------------------------------------===//

#include "AttentionSupport.h"

#include "hk/Base/Chip.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace hk::kernels {

namespace {

/// Keys per KV block of the decode kernel.
constexpr int64_t kBlock = 64;
/// Splits (one wave each, four to a workgroup) per compute unit the split
/// count aims for: a wave on each SIMD keeps loads in flight on all four.
constexpr int64_t kSplitsPerCU = 4;

/// Keys per chunk the kernel reads from one page: page sizes are multiples
/// of it (or one page holds a whole sequence).
constexpr int64_t kChunk = 16;

struct Dims {
  /// kv: 0 bf16 pools, 1 fp8 (E4M3) pools with one scale per tensor, 2 fp8
  /// pools with one scale per KV head.
  int64_t B, H, Hkv, Lq, N, D, page, kvFormat;
  int64_t group() const { return H / Hkv; }
  /// Rows of one KV head's query tile: its G heads' q_len tokens.
  int64_t rows() const { return group() * Lq; }
  /// Rows of a page of the pools: the page size, or N for the contiguous
  /// cache (one page per sequence).
  int64_t pageRows() const { return page ? page : N; }
  /// Entries per row of the block table.
  int64_t maxBlocks() const {
    return page ? std::max<int64_t>(1, (N + page - 1) / page) : 1;
  }
  /// Pages of the pools: every sequence's table row, and one page more that
  /// no table lists.
  int64_t numPages() const { return page ? B * maxBlocks() + 1 : B; }
  /// Elements of k_scale and v_scale: none for bf16 pools.
  int64_t scales() const { return kvFormat == 0 ? 0 : kvFormat == 1 ? 1 : Hkv; }
  int64_t q(int64_t b, int64_t h, int64_t t, int64_t d) const {
    return ((b * H + h) * Lq + t) * D + d;
  }
  /// Element d of key j of sequence b for query head h, in the pool: row
  /// j mod P of the page the table lists at j / P.
  int64_t kv(const std::vector<double> &table, int64_t b, int64_t j, int64_t h,
             int64_t d) const {
    int64_t P = pageRows();
    int64_t pg = int64_t(table[size_t(b * maxBlocks() + j / P)]);
    return ((pg * P + j % P) * Hkv + h / group()) * D + d;
  }
};

Dims dimsOf(const Problem &p) {
  return {p.shape[0], p.shape[1], p.shape[2], p.shape[3],
          p.shape[4], p.shape[5], p.shape[7], p.shape[8]};
}

} // namespace

/// The split count: enough (split, KV head, sequence) waves to give every
/// compute unit kSplitsPerCU of them, but no more splits than KV
/// blocks of the longest sequence (a split without blocks only writes an
/// empty result). From the shape and the chip alone, never the lengths.
int64_t decodeSplits(const std::string &chip, int64_t B, int64_t Hkv,
                     int64_t maxLen) {
  const hk::ChipInfo *info = hk::lookupChip(chip);
  if (!info)
    throw std::invalid_argument("attention_decode: unknown chip '" + chip +
                                "'");
  int64_t slots = info->computeUnits * kSplitsPerCU;
  int64_t wanted = (slots + B * Hkv - 1) / (B * Hkv);
  int64_t blocks = (maxLen + kBlock - 1) / kBlock;
  return std::max<int64_t>(1, std::min(wanted, blocks));
}

namespace {

/// Whether the launch just made ran the ISA simulator's cycle model (a
/// timing report is valid only after a timed launch, until the next one).
/// Then the launcher stops after the decode kernel, so that the report
/// `hk-run attention_decode --timing` prints is the KV read's; the timing
/// mode checks no output, and the combine, a read of S partial rows per
/// query row, is timed on its own with hk-run --launch-only (README.md).
bool decodeWasTimed(Library &lib) {
  const char *json = nullptr;
  return hkrt_device_timing_report(lib.device().get(), &json) == HKRT_SUCCESS;
}

/// Whether the launch takes the entry point that reads 16-key chunks
/// (one lookup each, K through LDS) rather than whole 64-key blocks (one
/// lookup per block, K straight into registers). Blocks need pages of a
/// multiple of 64 rows or one page per sequence. Where both work, the
/// modelled times choose (docs/report.md): at D = 128 on gfx950 the chunks
/// keep more loads in flight (64 x 8k: 36.1 against 38.3 us), elsewhere
/// the blocks are faster (gfx942: 56.2 against 71.0 us; D = 64 on gfx950:
/// 19.9 against 22.4 us).
bool blockPages(const Dims &dims) {
  return dims.pageRows() % kBlock == 0 || dims.maxBlocks() == 1;
}
bool readsChunks(const std::string &chip, const Dims &dims) {
  return !blockPages(dims) || (chip == "gfx950" && dims.D == 128);
}

/// The decode kernel's entry point for the pools and the chip.
std::string decodeEntry(const std::string &chip, const Dims &dims) {
  std::string d = std::to_string(dims.D);
  if (dims.kvFormat)
    return (blockPages(dims) ? "attention_decode_fp8_d"
                             : "attention_decode_fp8_p16_d") +
           d;
  return (readsChunks(chip, dims) ? "attention_decode_p16_d"
                                  : "attention_decode_d") +
         d;
}

/// Groups the merge kernel reduces S splits to before the combine: S itself
/// up to kMergeMin splits (the combine's four waves per slice walk a quarter
/// each), else about sqrt(S) groups of about sqrt(S) splits each. Where the
/// merge's launch starts to pay, in the model: 64 splits take 8.40 us in
/// the combine alone and 4.60 + 4.22 us merged into 8 first (gfx950); 19
/// splits 6.10 us alone against 11.31 + 4.65 us (gfx942).
constexpr int64_t kMergeMin = 64;
int64_t mergeGroups(int64_t S) {
  if (S <= kMergeMin)
    return S;
  int64_t per = int64_t(std::ceil(std::sqrt(double(S))));
  return (S + per - 1) / per;
}

/// Whether the decode and the merge of its splits run as one launch
/// (@attention_decode_fused_d128 and _fused_p16_d128): a counter per group
/// of workgroups finds the last one to finish, which merges the group, up a
/// tree, so that no merge or combine launch follows. Where the modelled
/// times favour it (docs/report.md): D = 128 bf16 pools on gfx950 (the
/// chunked decode), when the grid is one batch of workgroups (every
/// workgroup's merges then overlap the others' KV reads; 64 x 8k 38.24
/// against 41.33 us, 1 x 128k 24.72 against 25.33). On gfx942 its decode
/// is the per-block one and the tree one level deeper (1 x 128k 30.13
/// against 29.09 us). HK_DECODE_FUSED=1 takes it wherever it exists (the
/// tests on gfx942), HK_DECODE_FUSED=0 nowhere; another shape is refused.
bool fusedDecode(const std::string &chip, const Dims &dims, int64_t S) {
  const char *env = std::getenv("HK_DECODE_FUSED");
  std::string force = env ? env : "";
  bool exists = dims.D == 128 && dims.kvFormat == 0;
  if (force == "1" && !exists)
    throw std::invalid_argument(
        "attention_decode: HK_DECODE_FUSED=1 needs D = 128 and bf16 pools");
  if (force == "1" || force == "0")
    return force == "1";
  const hk::ChipInfo *info = hk::lookupChip(chip);
  int64_t workgroups = dims.B * dims.Hkv * ((S + 3) / 4);
  return exists && chip == "gfx950" && workgroups <= info->computeUnits;
}

/// The fused launch's tree over W workgroup results: groups of eight, the
/// members of a group read together (one batch of loads per level), so
/// ceil(log8 W) levels (fan-ins of 4 and 16 were slower in the model).
constexpr int64_t kFusedFan = 8;
int64_t fusedFan(int64_t) { return kFusedFan; }

/// Counters of the fused launch per KV head and sequence: one per
/// workgroup, then one per group of each level of the tree and slice.
int64_t fusedCounters(int64_t W, int64_t fan) {
  int64_t count = W;
  for (int64_t n = W;;) {
    int64_t groups = (n + fan - 1) / fan;
    count += 4 * groups;
    if (groups == 1)
      return count;
    n = groups;
  }
}

/// A ticket the fused kernel takes for the last of any group: the timing
/// mode runs only sampled workgroups, so their counters are preset to it
/// for the timed launch, and each sampled workgroup takes every merge the
/// last one of its groups would (the launch's critical path).
constexpr int32_t kEveryTicketLast = 1 << 20;

/// The fused launch: S splits rounded up to whole workgroups of four; args
/// the decode's first five (Q, K, V, the table and the lengths).
void attentionDecodeFused(Library &lib, std::vector<hkrt_arg> args,
                          const hkrt::Buffer &O, const hkrt::Buffer &L,
                          const Dims &dims, int64_t S) {
  // The partial results' rows: whole 32-row tiles (the kernel loads them
  // without bounds checks).
  int64_t B = dims.B, Hkv = dims.Hkv, D = dims.D, R = dims.rows(),
          Rp = (R + 31) / 32 * 32;
  int64_t W = (S + 3) / 4, fan = fusedFan(W), C = fusedCounters(W, fan);
  hkrt::Device &dev = lib.device();
  hkrt::Buffer Op = dev.alloc(size_t(B * Hkv * 4 * W * Rp * D) * 4);
  hkrt::Buffer Lp = dev.alloc(size_t(B * Hkv * 4 * W * Rp) * 4);
  hkrt::Buffer Ot = dev.alloc(size_t(B * Hkv * W * Rp * D) * 4);
  hkrt::Buffer Lt = dev.alloc(size_t(B * Hkv * 4 * W * Rp) * 4);
  hkrt::Buffer count = dev.alloc(size_t(B * Hkv * C) * 4);
  std::vector<int32_t> counters(size_t(B * Hkv * C), 0);
  count.write(counters.data(), counters.size() * 4);
  args.insert(args.end(), {Op.memref(HKRT_DTYPE_F32, {B, Hkv, 4 * W, Rp, D}),
                           Lp.memref(HKRT_DTYPE_F32, {B, Hkv, 4 * W, Rp}),
                           Ot.memref(HKRT_DTYPE_F32, {B, Hkv, W, Rp, D}),
                           Lt.memref(HKRT_DTYPE_F32, {B, Hkv, 4 * W, Rp}),
                           count.memref(HKRT_DTYPE_I32, {B, Hkv, C}),
                           O.memref(HKRT_DTYPE_BF16, {B, Hkv, R, D}),
                           L.memref(HKRT_DTYPE_F32, {B, Hkv, R}),
                           hkrt_arg_int(HKRT_DTYPE_INDEX, dims.Lq),
                           hkrt_arg_int(HKRT_DTYPE_INDEX, fan)});
  hkrt::Kernel kernel =
      lib.kernel("attention_decode", readsChunks(dev.chip(), dims)
                                         ? "attention_decode_fused_p16_d128"
                                         : "attention_decode_fused_d128");
  kernel.launch(args);
  if (!decodeWasTimed(lib))
    return;
  std::fill(counters.begin(), counters.end(), kEveryTicketLast);
  count.write(counters.data(), counters.size() * 4);
  kernel.launch(args);
}

/// The decode launch over the page pools K and V ([pages, P, H_kv, D]) and
/// the block table ([B, blocks] int32); N bounds the lengths. scales: k_scale
/// and v_scale of fp8 pools, nothing for bf16 ones.
void attentionDecode(Library &lib, const hkrt::Buffer &Q, const hkrt::Buffer &K,
                     const hkrt::Buffer &V, const hkrt::Buffer &table,
                     const hkrt::Buffer &seqLens, const hkrt::Buffer &O,
                     const hkrt::Buffer &L, const Dims &dims,
                     const std::vector<const hkrt::Buffer *> &scales) {
  int64_t B = dims.B, H = dims.H, Hkv = dims.Hkv, Lq = dims.Lq, N = dims.N,
          D = dims.D, P = dims.pageRows();
  attention::checkHeads(H, Hkv);
  if (dims.page % kChunk != 0)
    throw std::invalid_argument(
        "attention_decode: the page size must be a multiple of 16, got " +
        std::to_string(dims.page));
  if (D != 64 && D != 128 && D != 256)
    throw std::invalid_argument(
        "attention_decode: D must be 64, 128 or 256, got " + std::to_string(D));
  if (Lq < 1)
    throw std::invalid_argument("attention_decode: q_len must be at least 1");
  int64_t S = decodeSplits(lib.device().chip(), B, Hkv, N);
  int64_t R = H / Hkv * Lq;
  using attention::view;
  hkrt_dtype kv = dims.kvFormat ? HKRT_DTYPE_FP8 : HKRT_DTYPE_BF16;
  std::vector<hkrt_arg> args = {
      Q.memref(HKRT_DTYPE_BF16, {B, Hkv, R, D}),
      view(K, kv, dims.numPages(), P, Hkv, D),
      view(V, kv, dims.numPages(), P, Hkv, D),
      table.memref(HKRT_DTYPE_I32, {B, dims.maxBlocks()}),
      seqLens.memref(HKRT_DTYPE_I32, {B})};
  if (fusedDecode(lib.device().chip(), dims, S))
    return attentionDecodeFused(lib, std::move(args), O, L, dims, S);
  hkrt::Buffer Op = lib.device().alloc(size_t(B * Hkv * S * R * D) * 4);
  hkrt::Buffer Lp = lib.device().alloc(size_t(B * Hkv * S * R) * 4);
  std::string d = std::to_string(D);
  hkrt_arg op = Op.memref(HKRT_DTYPE_F32, {B, Hkv, S, R, D});
  hkrt_arg lp = Lp.memref(HKRT_DTYPE_F32, {B, Hkv, S, R});
  args.insert(args.end(), {op, lp, hkrt_arg_int(HKRT_DTYPE_INDEX, Lq)});
  for (const hkrt::Buffer *scale : scales)
    args.push_back(scale->memref(HKRT_DTYPE_F32, {dims.scales()}));
  lib.kernel("attention_decode", decodeEntry(lib.device().chip(), dims))
      .launch(args);
  if (decodeWasTimed(lib))
    return;
  // Many splits (a few long sequences) are first merged in parallel groups
  // of about sqrt(S), so that no wave walks more than a quarter of that
  // many in series.
  std::optional<hkrt::Buffer> Op2, Lp2;
  int64_t S2 = mergeGroups(S);
  if (S2 < S) {
    Op2.emplace(lib.device().alloc(size_t(B * Hkv * S2 * R * D) * 4));
    Lp2.emplace(lib.device().alloc(size_t(B * Hkv * S2 * R) * 4));
    hkrt_arg op2 = Op2->memref(HKRT_DTYPE_F32, {B, Hkv, S2, R, D});
    hkrt_arg lp2 = Lp2->memref(HKRT_DTYPE_F32, {B, Hkv, S2, R});
    lib.kernel("attention_decode", "attention_decode_merge_d" + d)
        .launch({op, lp, op2, lp2});
    op = op2;
    lp = lp2;
  }
  lib.kernel("attention_decode", "attention_decode_combine_d" + d)
      .launch({op, lp, O.memref(HKRT_DTYPE_BF16, {B, Hkv, R, D}),
               L.memref(HKRT_DTYPE_F32, {B, Hkv, R})});
}

/// Keys query token t of a sequence of length len sees: j <= len - Lq + t.
int64_t visibleKeys(int64_t len, int64_t Lq, int64_t t) {
  return std::clamp<int64_t>(len - Lq + t + 1, 0, len);
}

/// One query row: its scores (natural scale) into s[0, keys), the
/// probabilities into p, and the error terms of the kernel's scores.
struct Row {
  std::vector<double> p;
  double lse = -INFINITY;
  attention::ScoreError err{0, 0};
};

/// The scale of query head h's KV head in the tensor `name` (k_scale or
/// v_scale), 1 for bf16 pools.
double kvScale(const Dims &d, const Problem &p, const char *name, int64_t h) {
  if (!d.kvFormat)
    return 1.0;
  const std::vector<double> &s = p.tensor(name).values;
  return s[size_t(d.kvFormat == 1 ? 0 : h / d.group())];
}

Row decodeRow(const Dims &d, const Problem &pr, int64_t b, int64_t h, int64_t t,
              int64_t keys) {
  const std::vector<double> &Q = pr.tensor("Q").values,
                            &K = pr.tensor("K").values,
                            &table = pr.tensor("block_table").values;
  double ks = kvScale(d, pr, "k_scale", h);
  Row row;
  row.p.assign(size_t(keys), 0.0);
  double scale = 1.0 / std::sqrt(double(d.D)), c = M_LOG2E * scale;
  double mx = -INFINITY, dot = 0;
  for (int64_t j = 0; j < keys; ++j) {
    double s = 0, mag = 0;
    for (int64_t k = 0; k < d.D; ++k) {
      double x = Q[d.q(b, h, t, k)] * ks * K[d.kv(table, b, j, h, k)];
      s += x;
      mag += std::fabs(x);
    }
    row.p[j] = s * scale;
    mx = std::fmax(mx, row.p[j]);
    dot = std::fmax(dot, mag);
    row.err.maxAbs = std::fmax(row.err.maxAbs, std::fabs(s * c));
  }
  row.err.delta =
      c * double(d.D) * std::ldexp(dot, -24) + std::ldexp(row.err.maxAbs, -21);
  if (keys == 0)
    return row;
  double sum = 0;
  for (int64_t j = 0; j < keys; ++j)
    sum += std::exp(row.p[j] - mx);
  row.lse = mx + std::log(sum);
  for (int64_t j = 0; j < keys; ++j)
    row.p[j] = std::exp(row.p[j] - row.lse);
  return row;
}

/// Per split, the forward kernel's bound (attention_fwd's Reference.cpp)
/// with N the keys of the row; the combine adds the error of its weights
/// exp(L_s - L): the splits' LSE errors (twice: L_s and the maximum) and
/// exp2 and the sum over S splits in f32.
constexpr const char *kDecodeFormula =
    "2 x [O: 2^-8 |O| + (2^-8 + 2 eps_i + 2 n 2^-24 + 2 e_L + S 2^-23) "
    "sum_j p_ij |V_jd|; L: 2 e_L + S 2^-23], eps_i = ln2 delta_i + 2^-23, "
    "e_L = ln2 delta_i + n 2^-24 + 2^-23 + 2^-22 ln2 (max|s_i| + log2 n), "
    "delta_i = D 2^-24 log2e/sqrt(D) max_j sum_d |q k| + 2^-21 max_j |s_ij|, "
    "n the row's keys";
constexpr const char *kDecodeReason =
    "attention_fwd's bound per split (bf16 P before P V, f32 scores and "
    "sums, exp2 via v_exp_f32), f32 partial O and LSE, the combine's "
    "weights exp(L_s - L) off by the LSE errors and exp2, bf16 O (2^-8); "
    "first-order bound, factor 2 for second-order terms";

/// Sequence lengths of the problem (file comment).
std::vector<double> sequenceLengths(int64_t B, int64_t N, bool ragged,
                                    std::mt19937 &gen) {
  std::vector<double> lens(static_cast<size_t>(B), static_cast<double>(N));
  if (!ragged)
    return lens;
  std::uniform_int_distribution<int64_t> dist(0, N);
  for (double &len : lens)
    len = double(dist(gen));
  const double fixed[3] = {0, 1, double(N)};
  for (int64_t b = 0; b < std::min<int64_t>(B, 3); ++b)
    lens[b] = fixed[b];
  return lens;
}

/// The block table: sequence b's pages in order, drawn from a shuffled
/// order of the pool's pages, the last of which no row lists; entries past
/// a sequence's last page are -1 (the kernel must not read them).
std::vector<double> blockTable(const Dims &d, const std::vector<double> &lens,
                               std::mt19937 &gen) {
  if (!d.page) {
    std::vector<double> table(size_t(d.B));
    for (int64_t b = 0; b < d.B; ++b)
      table[size_t(b)] = double(b);
    return table;
  }
  std::vector<int64_t> ids(size_t(d.numPages()));
  for (size_t i = 0; i < ids.size(); ++i)
    ids[i] = int64_t(i);
  std::shuffle(ids.begin(), ids.end(), gen);
  std::vector<double> table(size_t(d.B * d.maxBlocks()), -1.0);
  for (int64_t b = 0; b < d.B; ++b) {
    int64_t used = (int64_t(lens[size_t(b)]) + d.page - 1) / d.page;
    for (int64_t i = 0; i < used; ++i)
      table[size_t(b * d.maxBlocks() + i)] =
          double(ids[size_t(b * d.maxBlocks() + i)]);
  }
  return table;
}

/// +-(1 + m/8) 2^e, e in [-4, 0], below hi (a power of two up to 2):
/// normal E4M3 numbers in both chips' formats (FNUZ from 2^-7, OCP from
/// 2^-6), so that one set of values serves both, whatever bytes encode them.
std::vector<double> randomE4M3(int64_t n, double hi, std::mt19937 &gen) {
  int top = int(std::log2(hi)) - 1;
  std::uniform_int_distribution<int> mant(0, 7), exp(top - 4, top), sign(0, 1);
  std::vector<double> v(static_cast<size_t>(n));
  for (double &x : v)
    x = (sign(gen) ? -1 : 1) * std::ldexp(1 + mant(gen) / 8.0, exp(gen));
  return v;
}

/// A pool of pages: random bf16 in [-hi, hi) (fp8 pools: E4M3 values below
/// hi) at every key a sequence holds
/// (through the table), NaN everywhere else (the rows of a last page past
/// the length, pages no sequence lists), which a read into a result would
/// turn into NaN.
std::vector<double> pagePool(const Dims &d, const std::vector<double> &lens,
                             const std::vector<double> &table, double hi,
                             std::mt19937 &gen) {
  int64_t row = d.Hkv * d.D;
  std::vector<double> pool(size_t(d.numPages() * d.pageRows() * row), NAN);
  std::vector<double> keys = d.kvFormat
                                 ? randomE4M3(d.B * d.N * row, hi, gen)
                                 : randomBF16(d.B * d.N * row, -hi, hi, gen);
  for (int64_t b = 0; b < d.B; ++b)
    for (int64_t j = 0; j < int64_t(lens[size_t(b)]); ++j) {
      int64_t at = d.kv(table, b, j, 0, 0);
      std::copy_n(keys.begin() + (b * d.N + j) * row, row, pool.begin() + at);
    }
  return pool;
}

/// A pool as its tensor: bf16, or the chip's E4M3 for fp8 pools.
HostTensor kvInput(const char *name, std::vector<int64_t> sizes,
                   std::vector<double> values, const Dims &d) {
  HostTensor t = input(name, std::move(sizes), std::move(values));
  t.dtype = d.kvFormat ? HKRT_DTYPE_FP8 : HKRT_DTYPE_BF16;
  return t;
}

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::attention_decode(), p);
  Dims d = dimsOf(p);
  attention::checkHeads(d.H, d.Hkv);
  if (d.D != 64 && d.D != 128 && d.D != 256)
    throw std::invalid_argument("attention_decode: D must be 64, 128 or 256");
  if (d.Lq < 1 || d.B < 1 || d.N > INT32_MAX || p.shape[6] > 1 ||
      d.page % kChunk != 0 || d.kvFormat > 2)
    throw std::invalid_argument(
        "attention_decode: B and q_len at least 1, N fits int32, ragged 0 "
        "(every length N) or 1 (random lengths, the first 0, 1 and N), page "
        "0 (contiguous) or a multiple of 16, kv 0 (bf16), 1 (fp8, one scale) "
        "or 2 (fp8, a scale per KV head)");
  checkTensorSizes(
      entries::attention_decode(), p,
      {{"Q", {d.B, d.H, d.Lq, d.D}},
       {"K", {d.numPages(), d.pageRows(), d.Hkv, d.D}},
       {"Op",
        {d.B, d.Hkv, std::max<int64_t>(1, (d.N + kBlock - 1) / kBlock),
         d.rows(), d.D},
        HKRT_DTYPE_F32}});
  int64_t nq = d.B * d.H * d.Lq * d.D;
  std::vector<double> lens = sequenceLengths(d.B, d.N, p.shape[6] == 1, gen);
  HostTensor table =
      input("block_table", {d.B, d.maxBlocks()}, blockTable(d, lens, gen));
  table.dtype = HKRT_DTYPE_I32;
  std::vector<int64_t> pool = {d.numPages(), d.pageRows(), d.Hkv, d.D};
  // Q, K in [-2, 2) as attention_fwd's: neither flat nor one-hot scores.
  std::vector<double> K = pagePool(d, lens, table.values, 2, gen),
                      V = pagePool(d, lens, table.values, 1, gen);
  HostTensor seqLens = input("seq_lens", {d.B}, std::move(lens));
  seqLens.dtype = HKRT_DTYPE_I32;
  p.tensors = {input("Q", {d.B, d.H, d.Lq, d.D}, randomBF16(nq, -2, 2, gen)),
               kvInput("K", pool, std::move(K), d),
               kvInput("V", pool, std::move(V), d),
               std::move(table),
               std::move(seqLens),
               output("O", {d.B, d.H, d.Lq, d.D}),
               output("L", {d.B, d.H, d.Lq})};
  p.tensor("L").dtype = HKRT_DTYPE_F32;
  // Scales in [0.5, 2), bf16 values (exact in f32).
  for (const char *name : {"k_scale", "v_scale"})
    if (d.kvFormat) {
      p.tensors.push_back(
          input(name, {d.scales()}, randomBF16(d.scales(), 0.5, 2.0, gen)));
      p.tensors.back().dtype = HKRT_DTYPE_F32;
    }
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  Dims d = dimsOf(p);
  std::vector<const hkrt::Buffer *> scales;
  for (size_t i = 7; i < b.size(); ++i)
    scales.push_back(&b[i]);
  attentionDecode(lib, b[0], b[1], b[2], b[3], b[4], b[5], b[6], d, scales);
}

/// Fills row (b, h, t) of O and L with the reference and its error scale.
void referenceRow(Problem &p, const Dims &d, int64_t S, int64_t b, int64_t h,
                  int64_t t, int64_t keys) {
  const std::vector<double> &V = p.tensor("V").values,
                            &table = p.tensor("block_table").values;
  double vs = kvScale(d, p, "v_scale", h);
  HostTensor &O = p.tensor("O"), &L = p.tensor("L");
  Row row = decodeRow(d, p, b, h, t, keys);
  int64_t li = (b * d.H + h) * d.Lq + t;
  double lseErr = attention::lseError(row.err, keys);
  double combine = 2 * lseErr + double(S) * std::ldexp(1.0, -23);
  L.exact[li] = row.lse;
  L.errorScale[li] = combine;
  double rel = attention::forwardTermError(row.err, keys) + combine;
  for (int64_t dd = 0; dd < d.D; ++dd) {
    double acc = 0, mag = 0;
    for (int64_t j = 0; j < keys; ++j) {
      double v = vs * V[d.kv(table, b, j, h, dd)];
      acc += row.p[j] * v;
      mag += row.p[j] * std::fabs(v);
    }
    int64_t oi = d.q(b, h, t, dd);
    O.exact[oi] = acc;
    O.errorScale[oi] = tolerance::kBF16Rounding * std::fabs(acc) + rel * mag;
  }
}

void reference(Problem &p) {
  Dims d = dimsOf(p);
  // The bound's S term, for the largest split count of the chip table.
  int64_t S = 1;
  for (const std::string &chip : hk::supportedChips())
    S = std::max(S, decodeSplits(chip, d.B, d.Hkv, d.N));
  const std::vector<double> &lens = p.tensor("seq_lens").values;
  for (int64_t b = 0; b < d.B; ++b)
    for (int64_t h = 0; h < d.H; ++h)
      for (int64_t t = 0; t < d.Lq; ++t)
        referenceRow(p, d, S, b, h, t, visibleKeys(int64_t(lens[b]), d.Lq, t));
}

Tolerance toleranceOf(const Problem &) {
  return {0.0, tolerance::kAttentionMargin, kDecodeFormula, kDecodeReason};
}

} // namespace

const KernelEntry &entries::attention_decode() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "attention_decode";
    e.entryPoint = "attention_decode_d128";
    e.summary =
        "decode attention, KV split across workgroups then a log-sum-exp "
        "combine: q_len query tokens per sequence (its last positions), "
        "Q, O: [B,H,q_len,D] bf16, K, V: page pools [pages,page,H_kv,D] "
        "bf16 through a block table [B,ceil(N/page)] int32 (page 0: the "
        "contiguous cache [B,N,H_kv,D]), seq_lens: B int32 (<= N), L: "
        "[B,H,q_len]; D 64, 128 or 256; ragged 0/1 (random lengths with 0, 1 "
        "and "
        "N among them); page 0 or a multiple of 16, shuffled pages; kv 0 bf16, "
        "1/2 fp8 (E4M3) pools with k_scale, v_scale: [1] or [H_kv] f32";
    e.shapeNames = "B,H,H_kv,q_len,N,D,ragged,page,kv";
    e.defaultShape = {4, 8, 2, 1, 1000, 128, 1, 16, 0};
    e.testShape = {5, 8, 2, 3, 200, 128, 1, 16, 0};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceOf;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
