// 2-D launches: the automatic grid (coverage, the device's per-axis caps and the note that says how it chose) and
// the 2-D index math the kernels call (kernels/common/index_math.h), simulated thread by thread on the host: every
// element of a rows x cols matrix visited exactly once with any block and grid, tails included.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/index_math.h"
#include "core/launch_checks.h"
#include "launchlab/engine/launch_config.h"

using namespace launchlab;

namespace {

using test::expectAllOnce;
using test::h200;

struct Shape {
  std::uint64_t rows, cols;
};

/// Visit counts of every element when each thread of grid x block walks idx::gridStride2D.
std::vector<int> visitsGridStride2D(Shape m, Dim3 grid, Dim3 block) {
  std::vector<int> v(m.rows * m.cols, 0);
  const auto sx = idx::gridStride1D(grid.x, block.x), sy = idx::gridStride1D(grid.y, block.y);
  for (std::uint32_t by = 0; by < grid.y; ++by)
    for (std::uint32_t bx = 0; bx < grid.x; ++bx)
      for (std::uint32_t ty = 0; ty < block.y; ++ty)
        for (std::uint32_t tx = 0; tx < block.x; ++tx)
          idx::gridStride2D(idx::global1D(bx, block.x, tx), idx::global1D(by, block.y, ty), sx, sy, m.cols, m.rows,
                            [&](std::uint64_t x, std::uint64_t y) { ++v[y * m.cols + x]; });
  return v;
}

/// Visit counts when the blocks of `grid` stride over 32 x 32 tiles and every thread of `block` does
/// idx::tileElements in each (the tiled transpose's walk); elements past the matrix are skipped as the kernel does.
std::vector<int> visitsTiles(Shape m, Dim3 grid, Dim3 block) {
  constexpr unsigned T = 32;
  std::vector<int> v(m.rows * m.cols, 0);
  const std::uint64_t tilesX = ceilDiv(m.cols, T), tilesY = ceilDiv(m.rows, T);
  for (std::uint32_t by = 0; by < grid.y; ++by)
    for (std::uint32_t bx = 0; bx < grid.x; ++bx)
      idx::gridStride2D(bx, by, grid.x, grid.y, tilesX, tilesY, [&](std::uint64_t tx, std::uint64_t ty) {
        for (std::uint32_t y = 0; y < block.y; ++y)
          for (std::uint32_t x = 0; x < block.x; ++x)
            idx::tileElements<T>(x, y, block.x, block.y, [&](std::uint32_t i, std::uint32_t j) {
              const std::uint64_t r = ty * T + j, c = tx * T + i;
              if (r < m.rows && c < m.cols) ++v[r * m.cols + c];
            });
      });
  return v;
}

std::string text(Shape m, Dim3 g, Dim3 b) {
  return std::to_string(m.rows) + "x" + std::to_string(m.cols) + " grid " + std::to_string(g.x) + "x" +
         std::to_string(g.y) + " block " + std::to_string(b.x) + "x" + std::to_string(b.y);
}

const Shape kShapes[] = {{1, 1}, {31, 33}, {33, 31}, {64, 64}, {100, 7}, {1000, 1003}};
const Dim3 kBlocks[] = {{1, 1, 1}, {32, 8, 1}, {16, 16, 1}, {33, 3, 1}, {32, 32, 1}};

}  // namespace

TEST(AutoGrid2D, CoversTheMatrixWithTheFewestBlocksAndSaysHow) {
  for (const Shape& m : kShapes)
    for (const Dim3& per : kBlocks) {
      const AutoGrid2D g = autoGrid2D(m.cols, m.rows, per, h200());
      SCOPED_TRACE(text(m, g.grid, per));
      EXPECT_GE(std::uint64_t(g.grid.x) * per.x, m.cols);
      EXPECT_LT(std::uint64_t(g.grid.x - 1) * per.x, m.cols);
      EXPECT_GE(std::uint64_t(g.grid.y) * per.y, m.rows);
      EXPECT_LT(std::uint64_t(g.grid.y - 1) * per.y, m.rows);
      EXPECT_EQ(g.grid.z, 1u);
    }
  EXPECT_EQ(autoGrid2D(1003, 1000, Dim3{32, 8, 1}, h200()).note,
            "auto grid: ceil(1003 / 32) x ceil(1000 / 8) = 32x125 blocks");
  EXPECT_EQ(autoGrid2D(4096, 4096, Dim3{32, 32, 1}, h200()).grid, (Dim3{128, 128, 1}));  // the seed's tile launch
}

TEST(AutoGrid2D, CapsAnAxisAtTheDevicesLimitAndTheGridStrideCoversTheRest) {
  const std::uint64_t rows = 65535ull * 8 + 5;
  const AutoGrid2D g = autoGrid2D(64, rows, Dim3{32, 8, 1}, h200());
  EXPECT_EQ(g.grid, (Dim3{2, 65535, 1}));
  EXPECT_NE(g.note.find("y capped at 65535 (the limit of NVIDIA H200)"), std::string::npos) << g.note;
  EXPECT_NE(g.note.find("strides over 2 tiles in y"), std::string::npos) << g.note;
  EXPECT_EQ(validateLaunch({g.grid, Dim3{32, 8, 1}}, h200()), "");
  // The same walk with a small capped grid: a 3 x 2 grid over a matrix it cannot cover in one pass.
  expectAllOnce(visitsGridStride2D({1000, 1003}, Dim3{3, 2, 1}, Dim3{32, 8, 1}), "capped grid");
}

TEST(LaunchMath2D, GridStrideVisitsEveryElementOnceWithAnyBlockAndGrid) {
  for (const Shape& m : kShapes)
    for (const Dim3& b : kBlocks) {
      const Dim3 cover = autoGrid2D(m.cols, m.rows, b, h200()).grid;
      for (const Dim3& g : {cover, Dim3{1, 1, 1}, Dim3{3, 2, 1}, Dim3{cover.x + 1, cover.y + 2, 1}}) {
        if (m.rows * m.cols > 100000 && g.count() * b.count() > 2000000) continue;  // keep the simulation short
        expectAllOnce(visitsGridStride2D(m, g, b), text(m, g, b));
      }
    }
}

TEST(LaunchMath2D, OnePassWithoutTheLoopMissesWhatTheGridDoesNotCover) {
  // The seed's matrix_add has no loop: a grid of (1, 1) blocks of (32, 32) threads covers the top-left 32 x 32 only.
  const Shape m{64, 48};
  std::vector<int> v(m.rows * m.cols, 0);
  for (std::uint32_t ty = 0; ty < 32; ++ty)
    for (std::uint32_t tx = 0; tx < 32; ++tx) ++v[idx::global1D(0, 32, ty) * m.cols + idx::global1D(0, 32, tx)];
  std::size_t covered = 0;
  for (int c : v) covered += c;
  EXPECT_EQ(covered, 32u * 32u);
  EXPECT_EQ(v[31 * m.cols + 31], 1);
  EXPECT_EQ(v[32 * m.cols + 0], 0);
}

TEST(LaunchMath2D, TileElementsCoverATileOnceForAnyBlock) {
  for (const Dim3& b : kBlocks) {
    std::vector<int> v(32 * 32, 0);
    for (std::uint32_t ty = 0; ty < b.y; ++ty)
      for (std::uint32_t tx = 0; tx < b.x; ++tx)
        idx::tileElements<32>(tx, ty, b.x, b.y, [&](std::uint32_t i, std::uint32_t j) { ++v[j * 32 + i]; });
    expectAllOnce(v, "tile, block " + std::to_string(b.x) + "x" + std::to_string(b.y));
  }
}

TEST(LaunchMath2D, FixedTileLoopsVisitWhatTheGeneralOnesDo) {
  std::vector<int> v(32 * 32, 0);
  for (std::uint32_t ty = 0; ty < 8; ++ty)
    for (std::uint32_t tx = 0; tx < 32; ++tx) {
      std::vector<std::pair<std::uint32_t, std::uint32_t>> general, fixed;
      idx::tileElements<32>(tx, ty, 32, 8, [&](std::uint32_t i, std::uint32_t j) { general.emplace_back(i, j); });
      idx::tileElementsFixed<32, 32, 8>(tx, ty, [&](std::uint32_t i, std::uint32_t j) {
        fixed.emplace_back(i, j);
        ++v[j * 32 + i];
      });
      EXPECT_EQ(fixed, general);
      EXPECT_EQ(fixed.size(), 4u);  // 32 x 8 threads on a 32 x 32 tile: 4 elements each
    }
  expectAllOnce(v, "fixed 32x8");
}

TEST(LaunchMath2D, TiledWalkVisitsEveryElementOnceIncludingTails) {
  for (const Shape& m : kShapes)
    for (const Dim3& b : {Dim3{32, 8, 1}, Dim3{32, 32, 1}, Dim3{16, 16, 1}, Dim3{33, 3, 1}}) {
      const Dim3 cover = autoGrid2D(m.cols, m.rows, Dim3{32, 32, 1}, h200()).grid;
      for (const Dim3& g : {cover, Dim3{1, 1, 1}, Dim3{2, 3, 1}}) expectAllOnce(visitsTiles(m, g, b), text(m, g, b));
    }
}
