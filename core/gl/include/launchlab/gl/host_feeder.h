#pragma once
/// The host-upload path: geometry built on the CPU (launchlab/plot/plot_geometry.h's builders) and copied into the
/// renderer's buffers with glBufferSubData. The interop path (kernels/render/gl_interop.h) fills the same buffers
/// with the same bytes from the GPU. Each returns the element count to draw.
#include <cstddef>
#include <cstdint>

#include "launchlab/engine/dtype.h"
#include "launchlab/gl/plot_renderer.h"
#include "launchlab/gl/status.h"

namespace launchlab::gl {

/// M4 vertices of elements [begin, end) in `columns` columns -> the waveform buffer; the vertex count.
Expected<std::size_t> feedWaveform(PlotRenderer& r, const void* data, DType dt, std::uint64_t begin, std::uint64_t end,
                                   std::uint32_t columns);
/// Bar heights of a counts array of `bins` bins in at most `maxBars` bars -> the histogram buffer; the bar count.
Expected<std::size_t> feedHistogram(PlotRenderer& r, const void* counts, DType dt, std::uint64_t bins,
                                    std::uint32_t maxBars);
/// cols x rows texels -> the image buffer (PBO); cols * rows.
Expected<std::size_t> feedImage(PlotRenderer& r, const void* data, DType dt, int cols, int rows);
/// At most maxPoints of a 3 x k points array -> the point buffer; the point count.
Expected<std::size_t> feedPoints(PlotRenderer& r, const void* data, DType dt, std::uint64_t k, std::uint64_t maxPoints);

}  // namespace launchlab::gl
