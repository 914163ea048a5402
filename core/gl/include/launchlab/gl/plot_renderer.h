#pragma once
/// Draws the GPU plot views into an offscreen framebuffer (FBO) and reads the pixels back. Qt-free, no CUDA, no GL
/// types in this header. The buffers it draws from have the layouts of launchlab/plot/plot_geometry.h; they are filled
/// either from host memory (host_feeder.h: glBufferSubData) or by a CUDA kernel through interop
/// (kernels/render/gl_interop.h registers the GL buffer names returned below).
///
/// Needs a current OpenGL 3.3 core context (EglContext) on the calling thread for its whole life, destructor included.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "launchlab/gl/status.h"

namespace launchlab::gl {

struct Rgba {
  float r = 0, g = 0, b = 0, a = 1;
};
/// Pixels of the framebuffer, origin at the TOP-left (like the image read back): the plot's data rectangle.
struct PlotRect {
  int x = 0, y = 0, width = 0, height = 0;
};
/// The data -> pixel mapping: [x0, x1] to the rect's left and right edges, [y0, y1] to its bottom and top
/// (log10 when logY; values <= 0 are then not drawn).
struct DataRange {
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  bool logY = false;
};
/// The image view's colouring: value lo -> LUT entry 0, hi -> entry 255 (clamped); NaN and +-inf -> nanColor.
struct ImageStyle {
  double lo = 0, hi = 1;
  Rgba nanColor{1, 0, 1, 1};
  bool rowZeroAtTop = true;  ///< false: row 0 at the bottom (a y axis pointing up)
};

/// The largest framebuffer side accepted (8K UHD and more; the device's own limit may be lower).
inline constexpr int kMaxFramebufferSide = 16384;

class PlotRenderer {
 public:
  /// Compiles the shaders and makes the buffers; needs the current context.
  static Expected<std::unique_ptr<PlotRenderer>> create();
  ~PlotRenderer();
  PlotRenderer(const PlotRenderer&) = delete;
  PlotRenderer& operator=(const PlotRenderer&) = delete;

  /// (Re)allocates the framebuffer: width x height RGBA8, `samples` > 1 for multisampling (resolved on readback).
  /// Sizes < 1, above kMaxFramebufferSide or above the device's limits give an error and keep the old framebuffer.
  Status resize(int width, int height, int samples = 0);
  int width() const { return m_width; }
  int height() const { return m_height; }

  void clear(Rgba color);

  // The buffers, by GL name (for CUDA registration), grown to at least `capacity` elements; 0 on failure.
  unsigned waveformBuffer(std::size_t vertices);  ///< geom::Vertex2 (8 bytes each)
  unsigned histogramBuffer(std::size_t bars);     ///< float heights
  unsigned imageBuffer(int cols, int rows);       ///< float texels, row-major: the pixel-unpack buffer (PBO)
  unsigned pointBuffer(std::size_t points);       ///< geom::PointVertex (12 bytes each)
  /// Host upload (glBufferSubData) into one of the buffers above (at most its capacity).
  Status upload(unsigned buffer, const void* bytes, std::size_t size);
  /// Reads the first `size` bytes of one of the buffers back (glGetBufferSubData): tests compare both paths' bytes.
  Status readBuffer(unsigned buffer, void* out, std::size_t size);

  /// Waveform: `vertices` geom::Vertex2 of the waveform buffer as one line strip; x is relative to `begin`, so
  /// range.x0/x1 are element indices. Vertices with y NaN (or <= 0 on a log axis) leave a gap.
  Status drawWaveform(const PlotRect& rect, const DataRange& range, std::uint64_t begin, std::size_t vertices,
                      Rgba color, float lineWidth = 1);
  /// Histogram: bar b spans x [b, b + 1) and y [range.y0, height b] (range.x0/x1 are in bars).
  Status drawHistogram(const PlotRect& rect, const DataRange& range, std::size_t bars, Rgba color);
  /// Image: the image buffer's cols x rows texels (copied to the R32F texture here) over the whole rect, coloured
  /// through `lut` (256 RGBA8 entries, e.g. colormap::lut256). Re-colouring with another style or LUT needs no
  /// new data: pass reupload = false to draw the texture as last uploaded.
  Status drawImage(const PlotRect& rect, int cols, int rows, const ImageStyle& style, std::span<const std::uint8_t> lut,
                   bool reupload = true);
  /// Points: `points` geom::PointVertex, inside ones in `inside`, the others in `outside`, `size` pixels wide.
  Status drawPoints(const PlotRect& rect, const DataRange& range, std::size_t points, Rgba inside, Rgba outside,
                    float size = 1);

  /// Waits for the GPU (glFinish).
  void finish();
  /// Reads the framebuffer as RGBA8, rows from the top, into `out` (width * height * 4 bytes).
  Status readRgba(std::span<std::uint8_t> out);

  struct Impl;

 private:
  PlotRenderer() = default;
  std::unique_ptr<Impl> m;
  int m_width = 0, m_height = 0;
};

}  // namespace launchlab::gl
