// Each GPU plot view fed through CUDA–OpenGL interop (a GPU twin writing into the mapped GL buffer) and through
// host upload (the CPU builder + glBufferSubData): the buffers must hold the same bytes (glGetBufferSubData) and
// the framebuffers agree within one pixel.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "gl_gpu_env.h"
#include "launchlab/gl/plot_renderer.h"
#include "render/render_view.h"

namespace launchlab::test {
namespace {

using render::FeedPath;
constexpr int W = 640, H = 360;

/// Every non-white pixel of `a` has a pixel of the same colour within one pixel in `b`.
int unmatchedPixels(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  auto px = [](const std::vector<std::uint8_t>& img, int x, int y) { return &img[(std::size_t(y) * W + x) * 4]; };
  int bad = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const std::uint8_t* p = px(a, x, y);
      if (p[0] == 255 && p[1] == 255 && p[2] == 255) continue;
      bool found = false;
      for (int dy = -1; dy <= 1 && !found; ++dy)
        for (int dx = -1; dx <= 1 && !found; ++dx) {
          const int xx = x + dx, yy = y + dy;
          found = xx >= 0 && yy >= 0 && xx < W && yy < H && std::memcmp(px(b, xx, yy), p, 4) == 0;
        }
      bad += !found;
    }
  return bad;
}

struct Drawn {
  render::FedView view;
  std::vector<std::uint8_t> buffer, pixels;
};

/// One view by one path, on a renderer of its own: the fed buffer's bytes and the picture.
Drawn drawBy(const render::ViewSource& src, const render::ViewWindow& w, FeedPath path) {
  Drawn d;
  auto r = gl::PlotRenderer::create();
  EXPECT_TRUE(r.ok()) << r.error();
  if (!r.ok()) return d;
  EXPECT_TRUE((*r)->resize(W, H).ok());
  render::ViewFeeder feeder;
  auto fed = feeder.feed(**r, src, w, path, W);
  EXPECT_TRUE(fed.ok()) << fed.error();
  if (!fed.ok()) return d;
  d.view = *fed;
  const std::size_t elem = src.kind == PlotKind::Waveform ? 8 : src.kind == PlotKind::Points ? 12 : 4;
  const unsigned name = src.kind == PlotKind::Waveform    ? (*r)->waveformBuffer(0)
                        : src.kind == PlotKind::Histogram ? (*r)->histogramBuffer(0)
                        : src.kind == PlotKind::Image     ? (*r)->imageBuffer(1, 1)
                                                          : (*r)->pointBuffer(0);
  d.buffer.resize(fed->count * elem);
  EXPECT_TRUE((*r)->readBuffer(name, d.buffer.data(), d.buffer.size()).ok());
  (*r)->clear({1, 1, 1, 1});
  const gl::Status s = render::ViewFeeder::draw(**r, *fed, {0, 0, W, H});
  EXPECT_TRUE(s.ok()) << s.error;
  d.pixels.resize(std::size_t(W) * H * 4);
  EXPECT_TRUE((*r)->readRgba(d.pixels).ok());
  return d;
}

void expectSame(const render::ViewSource& host, const render::ViewWindow& w, const char* what) {
  render::DeviceCopy dev(host.host, [&] {
    std::size_t n = dtypeSize(host.dtype);
    for (std::size_t d : host.shape) n *= d;
    return n;
  }());
  ASSERT_EQ(dev.error(), "");
  render::ViewSource src = host;
  src.device = dev.data();
  const Drawn a = drawBy(src, w, FeedPath::Interop), b = drawBy(src, w, FeedPath::HostUpload);
  ASSERT_EQ(a.view.count, b.view.count) << what;
  ASSERT_GT(a.view.count, 0u) << what;
  EXPECT_EQ(a.buffer, b.buffer) << what << ": interop and host-upload buffers differ";
  EXPECT_EQ(unmatchedPixels(a.pixels, b.pixels), 0) << what;
  EXPECT_EQ(unmatchedPixels(b.pixels, a.pixels), 0) << what;
}

TEST(GlInterop, TheContextSitsOnTheCudaDevice) {
  const auto& info = glGpuEnv().context->info();
  EXPECT_TRUE(info.onCudaDevice) << info.reason;
  EXPECT_EQ(info.cudaOrdinal, 0);
  EXPECT_TRUE(render::interopSupport(0).possible);
}

TEST(GlInterop, WaveformBuffersMatchHostUploadWholeAndZoomed) {
  std::vector<float> y((1u << 22) + 3);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = float(std::sin(i * 1e-4) + 0.3 * std::sin(i * 0.71));
  for (std::size_t i = 100000; i < 300000; ++i) y[i] = std::numeric_limits<float>::quiet_NaN();  // a gap
  const render::ViewSource src{PlotKind::Waveform, DType::F32, {y.size()}, y.data(), nullptr};
  expectSame(src, {}, "waveform 2^22 + 3");
  render::ViewWindow zoom;
  zoom.begin = 1234567;
  zoom.end = 1234567 + 50000;
  expectSame(src, zoom, "waveform zoomed");
  zoom.end = zoom.begin + 300;  // fewer elements than columns: one per column
  expectSame(src, zoom, "waveform 300 elements");
}

TEST(GlInterop, HistogramImageAndPointBuffersMatchHostUpload) {
  std::vector<std::uint32_t> counts(5000);
  for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = std::uint32_t((i * 7919) % 1013);
  expectSame({PlotKind::Histogram, DType::U32, {counts.size()}, counts.data(), nullptr}, {}, "histogram");
  std::vector<float> img(300 * 200);
  for (std::size_t i = 0; i < img.size(); ++i) img[i] = float(std::cos(i * 0.001) * (i % 300));
  img[42] = std::numeric_limits<float>::quiet_NaN();
  expectSame({PlotKind::Image, DType::F32, {200, 300}, img.data(), nullptr}, {}, "image");
  const std::size_t k = 50000;
  std::vector<double> pts(3 * k);
  for (std::size_t i = 0; i < k; ++i) {
    pts[i] = double((i * 2654435761u) % 10007) / 10007;
    pts[k + i] = double((i * 40503u) % 9973) / 9973;
    pts[2 * k + i] = pts[i] * pts[i] + pts[k + i] * pts[k + i] <= 1;
  }
  render::ViewWindow w;
  w.maxPoints = 20000;  // strided
  expectSame({PlotKind::Points, DType::F64, {3, k}, pts.data(), nullptr}, w, "points");
}

}  // namespace
}  // namespace launchlab::test
