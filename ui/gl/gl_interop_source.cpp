// The device-memory frame source (gl_frame_source.h): a run's output array taken from the worker's device memory
// (device_imports.h), or else uploaded once into this process's CUDA context (render/gl_interop.h's DeviceCopy), then
// every frame — a zoom, a pan, a new size — rebuilt on the GPU by the geometry twins straight into the renderer's
// buffers registered with CUDA (render/render_view.h's interop path). Built when the window has both launchlab_render
// and CUDA; the render service installs it when its EGL context sits on the CUDA device (interopSupport), else the host
// feeder stays.
#include "gl/gl_interop_source.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <utility>

#include "gl/device_imports.h"
#include "render/gl_interop.h"
#include "render/render_view.h"

namespace launchlab::ui {

namespace {

PlotKind plotKindOf(GlDraw d) {
  switch (d) {
    case GlDraw::Waveform:
      return PlotKind::Waveform;
    case GlDraw::Histogram:
      return PlotKind::Histogram;
    case GlDraw::Image:
      return PlotKind::Image;
    case GlDraw::Points:
      break;
  }
  return PlotKind::Points;
}

class InteropFrameSource final : public GlFrameSource {
 public:
  gl::Expected<std::size_t> feed(gl::PlotRenderer& r, const GlFrameRequest& q) override {
    const HostArray& a = *q.array;
    const void* device = importedData(q);
    m_dataNote = device ? "data: the worker's device memory (CUDA IPC)" : "data: uploaded once from the host copy";
    if (!device) {
      const render::DeviceCopy& dev = deviceCopyOf(q);
      if (!dev.error().empty() || !dev.data()) return gl::Expected<std::size_t>::fail("interop: " + dev.error());
      device = dev.data();
    }
    render::ViewSource src{plotKindOf(q.kind), a.dtype(), a.shape(), a.data(), device};
    if (q.kind == GlDraw::Image) src.shape = {std::size_t(q.rows), std::size_t(q.cols)};
    render::ViewWindow w;
    w.begin = q.begin;
    w.end = q.end;
    w.columns = q.columns;
    w.maxBars = q.maxBars;
    w.maxPoints = q.maxPoints;
    w.valueRange = std::pair{0.0, 1.0};  // the view draws with its own axis ranges (q.drawRange): none computed here
    auto fed = m_feeder.feed(r, src, w, render::FeedPath::Interop, std::uint32_t(q.pixels.width()));
    if (!fed.ok()) return gl::Expected<std::size_t>::fail(fed.error());
    return fed->count;
  }
  QString pathName() const override { return "GPU-rendered: CUDA\u2013OpenGL interop"; }
  QString dataNote() const override { return m_dataNote; }

 private:
  struct Resident {
    const HostArray* array = nullptr;
    std::shared_ptr<const RunOutcome> keep;  ///< the array's owner, so the key cannot be reused while cached
    std::unique_ptr<render::DeviceCopy> copy;
  };

  /// The window's copy of q.array taken from the worker's device memory (device_imports.h), or nullptr.
  static const void* importedData(const GlFrameRequest& q) {
    return q.keep && q.keep->deviceImports ? q.keep->deviceImports->find(q.array) : nullptr;
  }

  /// The device copy of q.array: uploaded on its first frame, kept for the next ones (the last few arrays; those
  /// whose run the window has let go, and those that never had an owner — the GL check's — are freed first).
  const render::DeviceCopy& deviceCopyOf(const GlFrameRequest& q) {
    m_resident.erase(
        std::remove_if(m_resident.begin(), m_resident.end(), [](const Resident& r) { return r.keep.use_count() <= 1; }),
        m_resident.end());
    for (const auto& r : m_resident)
      if (r.array == q.array && r.keep == q.keep) return *r.copy;
    if (m_resident.size() >= kKept) m_resident.pop_front();
    m_resident.push_back({q.array, q.keep, std::make_unique<render::DeviceCopy>(q.array->data(), q.array->bytes())});
    return *m_resident.back().copy;
  }

  static constexpr std::size_t kKept = 4;
  render::ViewFeeder m_feeder;
  std::deque<Resident> m_resident;
  QString m_dataNote;
};

}  // namespace

std::unique_ptr<GlFrameSource> makeInteropFrameSource(int cudaOrdinal, QString* whyNot) {
  const render::InteropSupport s = render::interopSupport(cudaOrdinal);
  if (!s.possible) {
    if (whyNot) *whyNot = QString::fromStdString(s.reason);
    return nullptr;
  }
  return std::make_unique<InteropFrameSource>();
}

}  // namespace launchlab::ui
