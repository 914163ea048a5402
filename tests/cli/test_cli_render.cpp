// launchlab-cli render: a CPU output drawn through Mesa (--allow-software, the host path) into a PNG whose size and
// pixels are checked; bad input is one line and exit 2; without a GPU and without --allow-software, exit 1.
#include "cli_helpers.h"

#if LAUNCHLAB_HAVE_GL
#include "launchlab/gl/egl_context.h"
#include "launchlab/gl/png_writer.h"
#endif

namespace launchlab::test {
namespace {

#if LAUNCHLAB_HAVE_GL
struct Rgba8 {
  int r, g, b, a;
};
Rgba8 at(const gl::PngImage& img, int x, int y) {
  const auto* p = reinterpret_cast<const unsigned char*>(img.rgba.data()) + (std::size_t(y) * img.width + x) * 4;
  return {p[0], p[1], p[2], p[3]};
}
bool white(Rgba8 p) { return p.r == 255 && p.g == 255 && p.b == 255; }

/// Skips when this machine has no EGL display at all (the CLI would say so and exit 1).
#define REQUIRE_EGL() \
  if (auto ctx = gl::EglContext::create({.cudaOrdinal = -1}); !ctx.ok()) GTEST_SKIP() << ctx.error()

TEST(CliRender, ImageOutputBecomesAPngWithTheColourMap) {
  REQUIRE_EGL();
  const auto png = scratch() / "mandelbrot.png";
  // 300 x 300 pixels of step 0.01 from (-2, -1.5): the whole set, drawn at 300 x 200.
  const Out o =
      cli("render mandelbrot --n 300 --param step=0.01 --impl cpu-serial --output iters --size 300x200 "
          "--allow-software --png '" +
          png.string() + "'");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("rendered mandelbrot iters (cpu-serial"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("host upload"), std::string::npos) << o.out;  // no interop without a CUDA device behind GL
  const auto img = gl::readPng(png.string());
  ASSERT_TRUE(img.ok()) << img.error();
  EXPECT_EQ(img->width, 300);
  EXPECT_EQ(img->height, 200);
  // Inside the main cardioid (c = -0.25 + 0i, about 3/5 across): the most iterations -> viridis' last entry.
  const Rgba8 inside = at(*img, 180, 100);
  EXPECT_EQ(inside.r, 253);
  EXPECT_EQ(inside.g, 231);
  EXPECT_EQ(inside.b, 37);
  // The corner escapes at once: the map's dark end (entry 0 is 68, 1, 84).
  const Rgba8 corner = at(*img, 0, 0);
  EXPECT_LT(corner.g, 40);
  EXPECT_GT(corner.b, 60);
}

TEST(CliRender, WaveformIsOneConnectedLineAcrossThePicture) {
  REQUIRE_EGL();
  const auto png = scratch() / "wave.png";
  const Out o =
      cli("render pulse_waveform --n 64Ki --impl cpu-serial --output waveform --size 400x120 "
          "--allow-software --range 0:4096 --png '" +
          png.string() + "'");
  ASSERT_EQ(o.code, 0) << o.err;
  const auto img = gl::readPng(png.string());
  ASSERT_TRUE(img.ok()) << img.error();
  ASSERT_EQ(img->width, 400);
  for (int x = 1; x < 399; ++x) {
    bool lit = false;
    for (int y = 0; y < img->height && !lit; ++y) lit = !white(at(*img, x, y));
    EXPECT_TRUE(lit) << "column " << x << " is empty";
  }
  EXPECT_TRUE(white(at(*img, 200, 0)));  // 5 % margin above the highest sample
}
#endif

TEST(CliRender, BadInputIsOneLineAndExit2) {
  const std::string base = "render pulse_waveform --n 4096 --impl cpu-serial --allow-software --png '" +
                           (scratch() / "bad.png").string() + "' ";
  for (const std::string& args : {base + "--output nope", base + "--output waveform --size 12",
                                  base + "--output waveform --size 0x10", base + "--output waveform --range 9:3"}) {
    const Out o = cli(args);
    EXPECT_EQ(o.code, 2) << args << "\n" << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  }
#if LAUNCHLAB_HAVE_GL  // without the renderer, `render` says so (exit 1) before looking at the output's kind
  const Out scalar = cli("render monte_carlo_pi --output pi --png '" + (scratch() / "pi.png").string() + "'");
  EXPECT_EQ(scalar.code, 2);
  EXPECT_NE(scalar.err.find("scalar"), std::string::npos) << scalar.err;
#endif
}

TEST(CliRender, WithoutAGpuItSaysWhyAndExits1) {
  if (gpuAvailable()) GTEST_SKIP() << "a GPU is present";
  const Out o = cli("render pulse_waveform --n 4096 --output waveform --png '" + (scratch() / "x.png").string() + "'");
  EXPECT_EQ(o.code, 1);
#if LAUNCHLAB_HAVE_GL
  EXPECT_NE(o.err.find("--allow-software"), std::string::npos) << o.err;  // the way out, named
#else
  EXPECT_NE(o.err.find("no OpenGL renderer"), std::string::npos) << o.err;
#endif
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
}

}  // namespace
}  // namespace launchlab::test
