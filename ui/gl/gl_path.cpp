#include "gl/gl_path.h"

namespace launchlab::ui {

namespace {
constexpr std::uint64_t kKiB = 1024, kMiB = 1024 * kKiB;
}

std::uint64_t glFrameBytes(const GlFrameRequest& q) {
  if (!q.array) return 0;
  if (q.kind == GlDraw::Waveform && q.end > q.begin) return (q.end - q.begin) * dtypeSize(q.array->dtype());
  return q.array->bytes();
}

std::uint64_t interopCrossoverBytes(GlDraw kind) {
  // Where the host path's frame (CPU builders + glBufferSubData) costs what interop's does (its ~0.33 ms GL/CUDA
  // hand-off), from bench-render's rows of both paths on the H200 (docs/PERFORMANCE.md, "The faster path, per
  // size"): the M4 decimation jumps once it goes parallel, the image and points paths upload every element, the
  // histogram's sum per bar lies between.
  switch (kind) {
    case GlDraw::Waveform:
      return 192 * kKiB;
    case GlDraw::Histogram:
      return 768 * kKiB;
    case GlDraw::Image:
      return 128 * kKiB;
    case GlDraw::Points:
      return 256 * kKiB;
  }
  return 256 * kKiB;
}

GlPathChoice chooseGlPath(const GlFrameRequest& q, bool onDevice) {
  if (onDevice) return {true, "its data is in device memory already"};
  const std::uint64_t bytes = glFrameBytes(q), crossover = interopCrossoverBytes(q.kind);
  const QString tail = " the interop crossover (~" + byteSizeText(crossover) + ")";
  if (bytes > crossover) return {true, byteSizeText(bytes) + " is above" + tail};
  return {false, byteSizeText(bytes) + " is below" + tail};
}

QString byteSizeText(std::uint64_t bytes) {
  if (bytes < kKiB) return QString("%1 B").arg(bytes);
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes) / double(kKiB);
  int u = 0;
  while (v >= 1024 && u < 3) {
    v /= 1024;
    ++u;
  }
  // Whole numbers as such ("4 KiB", "10 MiB"); one decimal below 10 otherwise ("1.5 MiB").
  const bool whole = v == double(qint64(v)) || v >= 10;
  return QString("%1 %2").arg(v, 0, 'f', whole ? 0 : 1).arg(units[u]);
}

}  // namespace launchlab::ui
