#pragma once
/// Where a GL frame's geometry comes from: the seam between the window's GL views and the data. The host feeder
/// (CPU builders of launchlab/plot/plot_geometry.h -> glBufferSubData) is the one here. The device-memory path (the
/// worker's device arrays through CUDA IPC, the GPU twins writing into buffers registered with CUDA: interop) is
/// another implementation, installed with GlRenderService::setFrameSource; it fills the same buffers with the same
/// bytes. Render thread only; GL builds only.
#include <QString>
#include <cstddef>
#include <memory>

#include "gl/gl_frame.h"
#if LAUNCHLAB_UI_GL
#include "launchlab/gl/plot_renderer.h"
#endif

namespace launchlab::ui {

class GlFrameSource {
 public:
  virtual ~GlFrameSource() = default;
#if LAUNCHLAB_UI_GL
  /// Fills the renderer's buffer of req.kind for `req`; the count to draw (vertices, bars, texels or points).
  virtual gl::Expected<std::size_t> feed(gl::PlotRenderer& r, const GlFrameRequest& req) = 0;
  /// The path line's first words: "host upload", "GPU-rendered: CUDA\u2013OpenGL interop".
  virtual QString pathName() const = 0;
  /// Where the last frame's data came from, for the path line ("data: the worker's device memory (CUDA IPC)"),
  /// or "" when the path name says it all.
  virtual QString dataNote() const { return {}; }
#endif
};

/// The host feeder: the run's host arrays, built on the CPU and uploaded.
std::unique_ptr<GlFrameSource> makeHostFrameSource();

}  // namespace launchlab::ui
