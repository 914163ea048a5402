// The GL canary (launchlab/gl/canary.h): drawn on whatever EGL gives here it matches its expected pixels exactly;
// the comparison tolerates one unit per channel and nothing more.
#include "gl_fixture.h"
#include "launchlab/gl/canary.h"

namespace launchlab::gl {
namespace {
using testing::Pixel;
using testing::pixelAt;

TEST(GlCanary, ExpectedFrameIsTheHandDrawnOne) {
  const auto want = canaryExpected();
  ASSERT_EQ(want.size(), std::size_t(kCanarySide * kCanarySide * 4));
  const Pixel blue{0, 0, 255, 255}, red{255, 0, 0, 255}, green{0, 255, 0, 255}, white{255, 255, 255, 255},
      magenta{255, 0, 255, 255};
  EXPECT_EQ(pixelAt(want, kCanarySide, 0, 0), green);
  EXPECT_EQ(pixelAt(want, kCanarySide, 4, 3), white);
  EXPECT_EQ(pixelAt(want, kCanarySide, 3, 4), magenta);
  EXPECT_EQ(pixelAt(want, kCanarySide, 7, 7), green);
  EXPECT_EQ(pixelAt(want, kCanarySide, 0, 8), blue);  // above bar 0 (4 px high)
  EXPECT_EQ(pixelAt(want, kCanarySide, 0, 12), red);  // bar 0's top row
  EXPECT_EQ(pixelAt(want, kCanarySide, 0, 11), blue);
  EXPECT_EQ(pixelAt(want, kCanarySide, 15, 0), red);  // bar 3 fills its column
  EXPECT_EQ(pixelAt(want, kCanarySide, 8, 3), blue);  // bar 2 (12 px) starts at row 4
  EXPECT_EQ(pixelAt(want, kCanarySide, 8, 4), red);
}

TEST(GlCanary, HealthyGlDrawsItExactly) {
  LAUNCHLAB_REQUIRE_GL(r);
  std::vector<std::uint8_t> got;
  const Status s = drawCanary(r, got);
  ASSERT_TRUE(s.ok()) << s.error;
  EXPECT_EQ(canaryMismatches(got), 0);
  EXPECT_EQ(got, canaryExpected());  // exact here (Mesa llvmpipe); the check allows one unit
}

TEST(GlCanary, AWrongPixelIsFoundAndOneUnitIsNot) {
  std::vector<std::uint8_t> px = canaryExpected();
  px[4 * 20 + 0] = std::uint8_t(px[4 * 20 + 0] == 0 ? 1 : px[4 * 20 + 0] - 1);  // one unit off: tolerated
  EXPECT_EQ(canaryMismatches(px), 0);
  px[4 * 37 + 2] = std::uint8_t(px[4 * 37 + 2] ^ 0x80);  // one channel far off in another pixel
  EXPECT_EQ(canaryMismatches(px), 1);
  std::fill(px.begin(), px.end(), std::uint8_t(0));  // an all-zero read back (nothing drawn)
  EXPECT_EQ(canaryMismatches(px), kCanarySide * kCanarySide);
  EXPECT_EQ(canaryMismatches(std::span<const std::uint8_t>(px.data(), 12)), kCanarySide * kCanarySide);
}

TEST(GlCanary, AtAFramesSizeEveryEdgeStillFallsOnAPixelBoundary) {
  LAUNCHLAB_REQUIRE_GL(r);
  constexpr int kScale = 32;  // 512 x 512, the size of a plot rather than of an icon
  std::vector<std::uint8_t> got;
  const Status s = drawCanary(r, got, kScale);
  ASSERT_TRUE(s.ok()) << s.error;
  EXPECT_EQ(canaryMismatches(got, kScale), 0);
  const std::vector<std::uint8_t> want = canaryExpected(kScale);
  ASSERT_EQ(want.size(), std::size_t(kCanarySide * kScale) * kCanarySide * kScale * 4);
  EXPECT_EQ(canaryMismatches(canaryExpected(), kScale), kCanarySide * kCanarySide * kScale * kScale);  // wrong size
}

TEST(GlCanary, TheFeedIsWhatTheCheckExercises) {
  LAUNCHLAB_REQUIRE_GL(r);
  std::vector<std::uint8_t> got;
  // A path that delivers the wrong data (bar 3 one unit short) draws a frame the check refuses...
  const CanaryFeed shortBar = [](PlotRenderer& pr, const CanaryData& d) {
    CanaryData wrong = d;
    wrong.bars[3] -= 1;
    return hostCanaryFeed(pr, wrong);
  };
  ASSERT_TRUE(drawCanary(r, got, 2, shortBar).ok());
  EXPECT_EQ(canaryMismatches(got, 2), 4 * 2 * 4 * 2);  // bar 3's top 4 units of its 4-unit width
  // ...and a path that fails says why, through the check.
  const CanaryFeed broken = [](PlotRenderer&, const CanaryData&) { return Status::fail("map failed"); };
  const Status s = drawCanary(r, got, 1, broken);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.error, "map failed");
}

}  // namespace
}  // namespace launchlab::gl
