#pragma once
/// The interop frame source (gl_interop_source.cpp): built when the window links launchlab_render and CUDA.
#include <QString>
#include <memory>

#include "gl/gl_frame_source.h"

namespace launchlab::ui {

/// The device-memory frame source when the current GL context (render thread) can share buffers with CUDA device
/// `cudaOrdinal`; nullptr and the reason in `whyNot` otherwise.
std::unique_ptr<GlFrameSource> makeInteropFrameSource(int cudaOrdinal, QString* whyNot);

}  // namespace launchlab::ui
