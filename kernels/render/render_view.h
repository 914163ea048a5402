#pragma once
/// One plot view drawn by the GL renderer from an output array, fed by either path: the interop path (the array on
/// the device, a GPU twin writing into the mapped GL buffer) or the host path (CPU builders + glBufferSubData).
/// Shared by `launchlab-cli render`, `bench-render` and the GPU tests, so every one of them draws the same way.
/// Needs the renderer's GL context current on the calling thread.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "launchlab/engine/dtype.h"
#include "launchlab/engine/workload.h"
#include "launchlab/gl/plot_renderer.h"
#include "render/gl_interop.h"

namespace launchlab::render {

enum class FeedPath { Interop, HostUpload };

/// An output to draw: its host bytes (always: ranges are computed from them) and, for the interop path, the same
/// bytes on the device. Shape as HostArray's: {n}, {rows, cols} (image), {3, k} (points).
struct ViewSource {
  PlotKind kind = PlotKind::Waveform;
  DType dtype = DType::F32;
  std::vector<std::size_t> shape;
  const void* host = nullptr;
  const void* device = nullptr;
};
/// Which part and how much: waveform elements [begin, end) (end 0: all) in `columns` columns (0: the rect's width);
/// histogram bars at most maxBars (0: the width); at most maxPoints points.
struct ViewWindow {
  std::uint64_t begin = 0, end = 0;
  std::uint32_t columns = 0, maxBars = 0;
  std::uint64_t maxPoints = 1u << 20;
  /// The waveform's y range, the image's colour range, the points' x and y range, when the caller knows it (live
  /// frames, the bench); unset: from the finite minimum and maximum of the host data (a pass over it on the CPU).
  std::optional<std::pair<double, double>> valueRange;
};
/// What was fed, ready to draw.
struct FedView {
  PlotKind kind = PlotKind::Waveform;
  std::size_t count = 0;   ///< vertices, bars, texels or points
  int cols = 0, rows = 0;  ///< image
  std::uint64_t begin = 0;
  gl::DataRange range;
  gl::ImageStyle style;
};

/// "" when `kind` is drawn by the GL views, else why not.
std::string unsupportedKind(PlotKind kind);

class ViewFeeder {
 public:
  /// Fills the renderer's buffer for `src` by `path`; with `times` (interop) the map/kernel/unmap breakdown.
  gl::Expected<FedView> feed(gl::PlotRenderer& r, const ViewSource& src, const ViewWindow& w, FeedPath path,
                             std::uint32_t width, InteropTimes* times = nullptr);
  /// Draws a fed view into `rect`.
  static gl::Status draw(gl::PlotRenderer& r, const FedView& v, const gl::PlotRect& rect);

 private:
  GlBufferInterop m_buffers[4];  // waveform, histogram, image, points
};

}  // namespace launchlab::render
