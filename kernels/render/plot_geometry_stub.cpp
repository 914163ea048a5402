// CPU-only builds: the GPU plot-geometry builders exist and say why they cannot run (render/plot_geometry_gpu.h).
#include "render/plot_geometry_gpu.h"

namespace launchlab::geom::gpu {

namespace {
const char* const kNoCuda = "no CUDA in this build";
}

std::size_t m4ScratchBytes(std::uint64_t, std::uint32_t) { return 0; }
Built m4Vertices(const void*, DType, std::uint64_t, std::uint64_t, std::uint32_t, Vertex2*, void*, void*, std::size_t) {
  return {0, kNoCuda};
}
Built histogramBarHeights(const void*, DType, std::uint64_t, std::uint32_t, float*, void*) { return {0, kNoCuda}; }
Built imageTexels(const void*, DType, std::uint64_t, float*, void*) { return {0, kNoCuda}; }
Built pointVertices(const void*, DType, std::uint64_t, std::uint64_t, PointVertex*, void*) { return {0, kNoCuda}; }

std::vector<M4Timing> timeM4(const std::vector<std::uint64_t>& sizes, const std::vector<std::uint32_t>& columns, int,
                             int) {
  M4Timing t;
  t.error = kNoCuda;
  return std::vector<M4Timing>(sizes.size() * columns.size(), t);
}

}  // namespace launchlab::geom::gpu
