#pragma once
/// Which way a GL frame's geometry is filled when the render thread can do both (its EGL context sits on the CUDA
/// device): CUDA–OpenGL interop costs a fixed ~0.32 ms a frame (the GL/CUDA hand-off of map + unmap), a host
/// upload costs what the CPU builders take over the data the frame reads, so small outputs are faster uploaded.
/// The crossovers per plot kind come from bench-render's figures (docs/PERFORMANCE.md, "The faster path, per
/// size"); this is their one owner. Plain data: no GL, no CUDA.
#include <QString>
#include <cstdint>

#include "gl/gl_frame.h"

namespace launchlab::ui {

struct GlPathChoice {
  bool interop = false;
  QString why;  ///< "4 KiB is below the interop crossover (~768 KiB)"
};

/// The bytes of the frame's array a frame reads: a waveform's visible elements, the whole array otherwise.
std::uint64_t glFrameBytes(const GlFrameRequest& q);
/// The size above which interop is the faster path for `kind` (measured; docs/PERFORMANCE.md).
std::uint64_t interopCrossoverBytes(GlDraw kind);
/// Interop when the frame reads more than the crossover or its data is already in device memory (`onDevice`: the
/// worker's outputs imported, device_imports.h); else a host upload. `why` says which and why, for the path line.
GlPathChoice chooseGlPath(const GlFrameRequest& q, bool onDevice);
/// "512 B", "4 KiB", "1.5 MiB", "10 MiB", "2.0 GiB".
QString byteSizeText(std::uint64_t bytes);

}  // namespace launchlab::ui
