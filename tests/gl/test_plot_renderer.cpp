// The renderer on whatever EGL gives here (Mesa llvmpipe on the build machine and in CI): each view drawn into
// an FBO and read back, checked against values computed by hand or by a CPU raster.
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

#include "gl_fixture.h"
#include "launchlab/gl/host_feeder.h"
#include "launchlab/gl/png_writer.h"
#include "launchlab/plot/colormap_lut.h"
#include "launchlab/plot/plot_geometry.h"

namespace launchlab::gl {
namespace {
using testing::Pixel;
using testing::pixelAt;
using testing::readBack;

constexpr Rgba kWhite{1, 1, 1, 1};
constexpr Rgba kBlack{0, 0, 0, 1};
constexpr Pixel kWhitePx{255, 255, 255, 255};

/// Rows (from the top) lit in column x: first and last, or {-1, -1}.
std::pair<int, int> litRows(const std::vector<std::uint8_t>& img, int w, int h, int x) {
  int first = -1, last = -1;
  for (int y = 0; y < h; ++y)
    if (pixelAt(img, w, x, y) != kWhitePx) {
      if (first < 0) first = y;
      last = y;
    }
  return {first, last};
}

TEST(GlContext, SaysWhereGlRuns) {
  LAUNCHLAB_REQUIRE_GL(r);
  const ContextInfo& info = glenv_.context->info();
  EXPECT_FALSE(info.renderer.empty());
  EXPECT_NE(info.reason.find("GL runs on "), std::string::npos) << info.reason;
  if (!info.onCudaDevice) {
    EXPECT_NE(info.reason.find("no CUDA device behind it"), std::string::npos) << info.reason;
  }
  (void)r;
}

TEST(GlContext, MovesToARenderThreadAndBack) {
  LAUNCHLAB_REQUIRE_GL(r);
  (void)r;
  auto ctx = EglContext::create({.cudaOrdinal = -1});
  ASSERT_TRUE(ctx.ok()) << ctx.error();
  (*ctx)->release();  // create() left it current here; the render thread takes it
  Pixel seen{};
  std::string error;
  std::thread render([&] {
    if (Status s = (*ctx)->makeCurrent(); !s.ok()) {
      error = s.error;
      return;
    }
    {
      auto own = PlotRenderer::create();
      if (!own.ok() || !(*own)->resize(3, 2).ok()) {
        error = own.ok() ? "resize" : own.error();
        return;
      }
      (*own)->clear({0, 0, 1, 1});
      seen = pixelAt(readBack(**own), 3, 2, 1);
    }  // the renderer goes while its context is current
    (*ctx)->release();
  });
  render.join();
  EXPECT_EQ(error, "");
  EXPECT_EQ(seen, (Pixel{0, 0, 255, 255}));
  ctx = Expected<std::unique_ptr<EglContext>>::fail("destroyed");  // not current anywhere: nothing to release
  ASSERT_TRUE(glenv_.context->makeCurrent().ok());                 // the other tests' context, back on this thread
}

TEST(PlotRenderer, WaveformMatchesACpuRasterWithinOnePixel) {
  LAUNCHLAB_REQUIRE_GL(r);
  constexpr int W = 256, H = 128;
  ASSERT_TRUE(r.resize(W, H).ok());
  // One vertex per column at its centre: y = a slow sine, with a gap (NaN) over samples 100..119.
  std::vector<geom::Vertex2> v(W);
  for (int i = 0; i < W; ++i) v[i] = {float(i), float(std::sin(i * 0.05) * 0.8)};
  for (int i = 100; i < 120; ++i) v[i].y = std::numeric_limits<float>::quiet_NaN();
  const unsigned buf = r.waveformBuffer(v.size());
  ASSERT_NE(buf, 0u);
  ASSERT_TRUE(r.upload(buf, v.data(), v.size() * sizeof v[0]).ok());
  r.clear(kWhite);
  const DataRange range{.x0 = 1000 - 0.5, .x1 = 1000 + W - 0.5, .y0 = -1, .y1 = 1};  // x relative to begin = 1000
  const Status s = r.drawWaveform({0, 0, W, H}, range, 1000, v.size(), kBlack);
  ASSERT_TRUE(s.ok()) << s.error;
  const auto img = readBack(r);
  auto row = [](double y) { return H - 1 - int(std::floor((y + 1) / 2 * H)); };  // the CPU raster of a y value
  for (int c = 1; c < W - 1; ++c) {
    const auto [first, last] = litRows(img, W, H, c);
    if (c >= 99 && c <= 120) {
      if (c >= 100 && c < 120) {
        EXPECT_EQ(first, -1) << "column " << c << " lies in the gap";
      }
      continue;
    }
    // Column c holds vertex c and the halves of its two segments: from (y[c-1]+y[c])/2 to (y[c]+y[c+1])/2.
    const double y = v[c].y, a = (v[c - 1].y + y) / 2, b = (y + v[c + 1].y) / 2;
    const int top = row(std::max({y, a, b})), bottom = row(std::min({y, a, b}));
    ASSERT_GE(first, 0) << "column " << c << " is empty";
    EXPECT_NEAR(first, top, 1) << "column " << c;
    EXPECT_NEAR(last, bottom, 1) << "column " << c;
  }
}

TEST(PlotRenderer, WaveformOnALogAxisLeavesOutNonPositiveValues) {
  LAUNCHLAB_REQUIRE_GL(r);
  ASSERT_TRUE(r.resize(64, 64).ok());
  // y = 10 at x 0..31 (log10 = 1: the middle of [0.1, 1000]), y = 0 from 32 on (not drawable).
  std::vector<geom::Vertex2> v(64);
  for (int i = 0; i < 64; ++i) v[i] = {float(i), i < 32 ? 10.f : 0.f};
  ASSERT_TRUE(r.upload(r.waveformBuffer(64), v.data(), sizeof(geom::Vertex2) * 64).ok());
  r.clear(kWhite);
  ASSERT_TRUE(r.drawWaveform({0, 0, 64, 64}, {-0.5, 63.5, 0.1, 1000, true}, 0, 64, kBlack).ok());
  const auto img = readBack(r);
  EXPECT_NEAR(litRows(img, 64, 64, 10).first, 64 - 1 - 32, 1);  // log10(10) = 1 of [-1, 3]: halfway up
  EXPECT_EQ(litRows(img, 64, 64, 40).first, -1);
  EXPECT_FALSE(r.drawWaveform({0, 0, 64, 64}, {0, 1, -1, 10, true}, 0, 64, kBlack).ok());  // y0 <= 0 on log
}

TEST(PlotRenderer, HistogramBarsHaveTheirHeightInPixels) {
  LAUNCHLAB_REQUIRE_GL(r);
  constexpr int W = 80, H = 64;
  ASSERT_TRUE(r.resize(W, H).ok());
  const float heights[8] = {0, 1, 2, 3, 4, 5, 6, 8};  // y range [0, 8] over 64 rows: 8 rows per unit
  ASSERT_TRUE(r.upload(r.histogramBuffer(8), heights, sizeof heights).ok());
  float back[8] = {};
  ASSERT_TRUE(r.readBuffer(r.histogramBuffer(8), back, sizeof back).ok());
  EXPECT_EQ(std::memcmp(back, heights, sizeof back), 0);
  r.clear(kWhite);
  const Status s = r.drawHistogram({0, 0, W, H}, {0, 8, 0, 8}, 8, kBlack);
  ASSERT_TRUE(s.ok()) << s.error;
  const auto img = readBack(r);
  for (int b = 0; b < 8; ++b) {
    int lit = 0;
    for (int y = 0; y < H; ++y) lit += pixelAt(img, W, 10 * b + 5, y) != kWhitePx;
    EXPECT_EQ(lit, int(heights[b] * 8)) << "bar " << b;
    if (heights[b] > 0) {
      EXPECT_EQ(pixelAt(img, W, 10 * b + 5, H - 1), (Pixel{0, 0, 0, 255}));  // bars stand on the bottom
    }
  }
}

TEST(PlotRenderer, ImageColoursAreTheLutEntriesAndRecolourWithoutUpload) {
  LAUNCHLAB_REQUIRE_GL(r);
  constexpr int C = 16, R = 16, S = 4;  // 16 x 16 texels, 4 x 4 pixels each
  ASSERT_TRUE(r.resize(C * S, R * S).ok());
  std::vector<float> t(C * R);
  for (int i = 0; i < C * R; ++i) t[i] = float(i);  // value k -> LUT entry k with lo 0, hi 255
  t[3] = std::numeric_limits<float>::quiet_NaN();
  t[4] = std::numeric_limits<float>::infinity();
  ASSERT_TRUE(r.upload(r.imageBuffer(C, R), t.data(), t.size() * sizeof(float)).ok());
  const auto lut = colormap::lut256(colormap::viridis());
  auto check = [&](double hi, int k) {
    const auto img = readBack(r);
    const int c = k % C, row = k / C;  // row 0 at the top
    const Pixel p = pixelAt(img, C * S, c * S + S / 2, row * S + S / 2);
    const int e = int(std::floor(std::clamp(k / hi, 0.0, 1.0) * 255 + 0.5));
    EXPECT_EQ(p, (Pixel{lut[4 * e], lut[4 * e + 1], lut[4 * e + 2], 255})) << "value " << k << " hi " << hi;
  };
  r.clear(kWhite);
  ASSERT_TRUE(r.drawImage({0, 0, C * S, R * S}, C, R, {.lo = 0, .hi = 255}, lut).ok());
  for (int k : {0, 1, 17, 128, 200, 255}) check(255, k);
  const auto img = readBack(r);
  EXPECT_EQ(pixelAt(img, C * S, 3 * S + 1, 1), (Pixel{255, 0, 255, 255}));  // NaN
  EXPECT_EQ(pixelAt(img, C * S, 4 * S + 1, 1), (Pixel{255, 0, 255, 255}));  // inf
  // A new range: the texture as uploaded, only the uniforms change.
  ASSERT_TRUE(r.drawImage({0, 0, C * S, R * S}, C, R, {.lo = 0, .hi = 510}, lut, false).ok());
  // Even values: each falls on a LUT entry. An odd one falls half-way between two (17 / 510 * 255 = 8.5), where
  // float rounding picks either (the NVIDIA driver took 8, Mesa 9): a tie is not a colour error.
  for (int k : {0, 18, 128, 254}) check(510, k);
}

TEST(PlotRenderer, PointsLandOnTheirPixelsInTheirColours) {
  LAUNCHLAB_REQUIRE_GL(r);
  ASSERT_TRUE(r.resize(32, 32).ok());
  // Range [0, 32] on both axes: point (x + 0.5, y + 0.5) is the centre of column x, row 31 - y from the top.
  const geom::PointVertex p[] = {{3.5f, 4.5f, 1}, {20.5f, 10.5f, 0}, {31.5f, 31.5f, 1}};
  ASSERT_TRUE(r.upload(r.pointBuffer(3), p, sizeof p).ok());
  r.clear(kWhite);
  ASSERT_TRUE(r.drawPoints({0, 0, 32, 32}, {0, 32, 0, 32}, 3, {1, 0, 0, 1}, {0, 0, 1, 1}).ok());
  const auto img = readBack(r);
  EXPECT_EQ(pixelAt(img, 32, 3, 27), (Pixel{255, 0, 0, 255}));
  EXPECT_EQ(pixelAt(img, 32, 20, 21), (Pixel{0, 0, 255, 255}));
  EXPECT_EQ(pixelAt(img, 32, 31, 0), (Pixel{255, 0, 0, 255}));
  int lit = 0;
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x) lit += pixelAt(img, 32, x, y) != kWhitePx;
  EXPECT_EQ(lit, 3);
}

TEST(PlotRenderer, PlotRectPlacesTheDrawingAndClipsIt) {
  LAUNCHLAB_REQUIRE_GL(r);
  ASSERT_TRUE(r.resize(40, 30).ok());
  const float h[1] = {100};  // far above the range: clipped at the rect's top
  ASSERT_TRUE(r.upload(r.histogramBuffer(1), h, sizeof h).ok());
  r.clear(kWhite);
  ASSERT_TRUE(r.drawHistogram({10, 5, 20, 15}, {0, 1, 0, 10}, 1, kBlack).ok());  // x 10..29, rows 5..19
  const auto img = readBack(r);
  EXPECT_EQ(litRows(img, 40, 30, 15), (std::pair<int, int>{5, 19}));
  EXPECT_EQ(litRows(img, 40, 30, 9).first, -1);
  EXPECT_EQ(litRows(img, 40, 30, 30).first, -1);
}

TEST(PlotRenderer, TinyAndHugeFramebuffersWorkAndBadSizesAreErrors) {
  LAUNCHLAB_REQUIRE_GL(r);
  ASSERT_TRUE(r.resize(1, 1).ok());
  r.clear({0, 1, 0, 1});
  EXPECT_EQ(pixelAt(readBack(r), 1, 0, 0), (Pixel{0, 255, 0, 255}));
  const Status big = r.resize(7680, 4320);
  ASSERT_TRUE(big.ok()) << big.error;
  r.clear({0, 0, 1, 1});
  const auto img = readBack(r);
  EXPECT_EQ(pixelAt(img, 7680, 7679, 4319), (Pixel{0, 0, 255, 255}));
  for (auto [w, h] : {std::pair{0, 10}, {10, -1}, {kMaxFramebufferSide + 1, 10}}) {
    const Status s = r.resize(w, h);
    EXPECT_FALSE(s.ok()) << w << "x" << h;
    EXPECT_NE(s.error.find("framebuffer size"), std::string::npos) << s.error;
  }
  EXPECT_EQ(r.width(), 7680);           // a refused size keeps the framebuffer
  ASSERT_TRUE(r.resize(8, 8, 4).ok());  // multisampled, resolved on readback
  r.clear({1, 0, 0, 1});
  EXPECT_EQ(pixelAt(readBack(r), 8, 7, 7), (Pixel{255, 0, 0, 255}));
}

TEST(PlotRenderer, DrawsRefuseCountsBeyondTheirBuffers) {
  LAUNCHLAB_REQUIRE_GL(r);
  ASSERT_TRUE(r.resize(8, 8).ok());
  EXPECT_FALSE(r.drawWaveform({0, 0, 8, 8}, {}, 0, std::size_t(1) << 40, kBlack).ok());
  EXPECT_FALSE(r.drawImage({0, 0, 8, 8}, 1 << 15, 1 << 15, {}, colormap::lut256(colormap::viridis())).ok());
  EXPECT_FALSE(r.upload(12345, "x", 1).ok());
}

TEST(Png, WritesAndReadsBackPixels) {
  const std::vector<std::uint8_t> px = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255};
  const std::string path = ::testing::TempDir() + "launchlab_png_test.png";
  const Status s = writePng(path, px, 2, 2);
  ASSERT_TRUE(s.ok()) << s.error;
  const Expected<PngImage> img = readPng(path);
  ASSERT_TRUE(img.ok()) << img.error();
  EXPECT_EQ(img->width, 2);
  EXPECT_EQ(img->height, 2);
  EXPECT_EQ(img->rgba, std::string(px.begin(), px.end()));
  EXPECT_FALSE(writePng(path, px, 3, 3).ok());  // fewer pixels than 3 x 3
}

}  // namespace
}  // namespace launchlab::gl

namespace launchlab::gl {
namespace {

// The host feeder: the CPU M4 builder into the waveform buffer, drawn: each column spans its samples' minimum to
// maximum (a CPU raster of the column), within one pixel.
TEST(HostFeeder, M4WaveformSpansEachColumnsMinimumToMaximum) {
  LAUNCHLAB_REQUIRE_GL(r);
  constexpr int W = 200, H = 100, PerColumn = 16;
  ASSERT_TRUE(r.resize(W, H).ok());
  std::vector<float> y(W * PerColumn);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = float(std::sin(i * 0.002) * 0.7 + 0.2 * std::sin(i * 1.3));
  const Expected<std::size_t> n = feedWaveform(r, y.data(), DType::F32, 0, y.size(), W);
  ASSERT_TRUE(n.ok()) << n.error();
  EXPECT_EQ(*n, std::size_t(4 * W));
  r.clear({1, 1, 1, 1});
  const DataRange range{-0.5, double(y.size()) - 0.5, -1, 1};
  ASSERT_TRUE(r.drawWaveform({0, 0, W, H}, range, 0, *n, {0, 0, 0, 1}).ok());
  const auto img = testing::readBack(r);
  auto row = [](double v) { return H - 1 - int(std::floor((v + 1) / 2 * H)); };
  for (int c = 0; c < W; ++c) {
    const auto first = y.begin() + c * PerColumn;
    const auto [lo, hi] = std::minmax_element(first, first + PerColumn);
    int top = -1, bottom = -1;
    for (int py = 0; py < H; ++py)
      if (testing::pixelAt(img, W, c, py) != testing::Pixel{255, 255, 255, 255}) {
        if (top < 0) top = py;
        bottom = py;
      }
    EXPECT_NEAR(top, row(*hi), 1) << "column " << c;
    EXPECT_NEAR(bottom, row(*lo), 1) << "column " << c;
  }
}

}  // namespace
}  // namespace launchlab::gl
