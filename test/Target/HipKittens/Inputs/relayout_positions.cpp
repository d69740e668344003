// Host check of the element positions the translation's tile_relayout (and
// tile_atomic_add) compute from HipKittens' layout constants
// (for_each_element, base_tile_layout), compiled with the translation
// prepended (-include). For each register tile type, over the 64 lanes:
//  - every element of the R x C tile is visited exactly once;
//  - each lane's positions, per base tile, are those the hk dialect's layout
//    attribute defines for the same layout, base shape and group (its ODS
//    description, an independent statement of AMD's MFMA register layouts):
//    E = BR * BC / 64 elements per lane, Q = 64 / BR (row) or 64 / BC (col)
//    lane groups, q = lane / BR (row) or lane / BC (col); element e lies at
//    (e / group) * group * Q + q * group + e % group along the lane's row
//    (row layout, row lane % BR) or column (col layout, column lane % BC).
// And for tile_transpose (cdna3's, defined by the translation) and the
// relabelling HipKittens main's transpose does: element (r, c) of a register
// in base tile (i, j) of an R x C tile is element (c, r) of the same register
// in base tile (j, i) of the C x R tile of the other layout.
#include <cstdio>
#include <set>
#include <utility>
#include <vector>

template <typename RT>
static bool check(const char *name, bool rowLayout, int br, int bc, int group) {
  RT tile{};
  std::vector<int> seen(RT::rows * RT::cols, 0);
  bool ok = true;
  for (int lane = 0; lane < 64; ++lane) {
    std::set<std::pair<int, int>> got;
    for_each_element(tile, lane, [&](int r, int c, auto &) {
      if (r < 0 || r >= RT::rows || c < 0 || c >= RT::cols) {
        ok = false;
        return;
      }
      ++seen[r * RT::cols + c];
      got.insert({r, c});
    });
    std::set<std::pair<int, int>> want;
    const int e = br * bc / 64, q = rowLayout ? lane / br : lane / bc;
    const int groups = rowLayout ? 64 / br : 64 / bc;
    for (int i = 0; i < RT::rows / br; ++i)
      for (int j = 0; j < RT::cols / bc; ++j)
        for (int k = 0; k < e; ++k) {
          const int along =
              (k / group) * group * groups + q * group + k % group;
          if (rowLayout)
            want.insert({i * br + lane % br, j * bc + along});
          else
            want.insert({i * br + along, j * bc + lane % bc});
        }
    ok = ok && got == want;
  }
  for (int n : seen)
    ok = ok && n == 1;
  std::printf("%s %s\n", ok ? "ok" : "MISMATCH", name);
  return ok;
}

// Position of each element of `tile` for `lane`, by its byte offset in the
// tile (which names the base tile, the register and the half).
template <typename RT>
static std::vector<std::pair<int, int>> positions(RT &tile, int lane) {
  std::vector<std::pair<int, int>> at(sizeof(RT), {-1, -1});
  for_each_element(tile, lane, [&](int r, int c, auto &v) {
    at[(const char *)&v - (const char *)&tile] = {r, c};
  });
  return at;
}

template <typename S, typename D> static bool checkTranspose(const char *name) {
  static_assert(S::rows == D::cols && S::cols == D::rows);
  S src{};
  D dst{};
  constexpr int tileBytes = sizeof(src.tiles[0][0]);
  bool ok = sizeof(src.tiles[0][0]) == sizeof(dst.tiles[0][0]);
  for (int lane = 0; lane < 64 && ok; ++lane) {
    auto s = positions(src, lane), d = positions(dst, lane);
    for (int i = 0; i < S::height; ++i)
      for (int j = 0; j < S::width; ++j)
        for (int o = 0; o < tileBytes; ++o) {
          auto p = s[(i * S::width + j) * tileBytes + o];
          auto q = d[(j * D::width + i) * tileBytes + o];
          if (p.first < 0)
            continue;
          ok = ok && q.first == p.second && q.second == p.first;
        }
  }
  std::printf("%s transpose %s\n", ok ? "ok" : "MISMATCH", name);
  return ok;
}

int main() {
  bool ok = true;
#ifdef KITTENS_CDNA4
  ok &= check<rt_bf<32, 32, row_l, rt_16x32_s>>("row 16x32", true, 16, 32, 8);
  ok &= check<rt_bf<32, 32, row_l, rt_32x16_s>>("row 32x16", true, 32, 16, 8);
  ok &= check<rt_bf<32, 32, row_l, rt_16x16_s>>("row 16x16", true, 16, 16, 4);
  ok &= check<rt_bf<32, 32, col_l, rt_16x16_s>>("col 16x16", false, 16, 16, 4);
  ok &= check<rt_bf<32, 32, col_l, rt_32x16_s>>("col 32x16", false, 32, 16, 8);
  ok &= check<rt_bf<32, 32, col_l, rt_16x32_s>>("col 16x32", false, 16, 32, 8);
  ok &= check<rt_fl<32, 32, col_l, rt_32x32_s>>("col 32x32", false, 32, 32, 4);
  ok &= check<rt_bf<32, 32, col_l, rt_32x32_8_s>>("col 32x32 group 8", false,
                                                  32, 32, 8);
  ok &= check<rt_bf<32, 32, col_l, rt_16x32_4_s>>("col 16x32 group 4", false,
                                                  16, 32, 4);
  ok &= check<rt_bf<32, 32, row_l, rt_32x16_4_s>>("row 32x16 group 4", true, 32,
                                                  16, 4);
  ok &= checkTranspose<rt_bf<32, 64, row_l, rt_16x32_s>,
                       rt_bf<64, 32, col_l, rt_32x16_s>>(
      "row 16x32 to col 32x16");
  ok &= checkTranspose<rt_fl<64, 32, col_l, rt_16x16_s>,
                       rt_fl<32, 64, row_l, rt_16x16_s>>(
      "col 16x16 to row 16x16");
#else
  ok &= check<rt_bf<32, 32, row_l>>("row 16x16", true, 16, 16, 4);
  ok &= check<rt_bf<32, 32, col_l>>("col 16x16", false, 16, 16, 4);
  ok &= check<rt_fl<32, 32, col_l>>("f32 col 16x16", false, 16, 16, 4);
  ok &=
      checkTranspose<rt_bf<32, 64, row_l>, rt_bf<64, 32, col_l>>("row to col");
  ok &=
      checkTranspose<rt_fl<64, 32, col_l>, rt_fl<32, 64, row_l>>("col to row");
#endif
  return ok ? 0 : 1;
}
