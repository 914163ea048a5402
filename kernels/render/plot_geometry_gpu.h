#pragma once
/// The CUDA twins of core's plot-geometry builders (launchlab/plot/plot_geometry.h): the same buffers, byte for byte,
/// written into ANY device pointer (cudaMalloc memory or a mapped OpenGL buffer). No CUDA types here: device
/// pointers are plain pointers, the stream is a cudaStream_t passed as void* (nullptr: the legacy default stream).
/// Each call only enqueues work on the stream and returns; the caller synchronises before reading `out`. Errors
/// (a launch failure, no CUDA in this build) come back as values. A CPU-only build has these functions too: they
/// return "no CUDA in this build".
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "launchlab/engine/dtype.h"
#include "launchlab/plot/plot_geometry.h"

namespace launchlab::geom::gpu {

/// What a builder enqueued: the element count it writes (as its CPU twin returns) or why nothing was enqueued.
struct Built {
  std::size_t count = 0;
  std::string error;  ///< empty on success
  bool ok() const { return error.empty(); }
};

/// Device scratch bytes m4Vertices needs for these sizes on the current device: long columns are split over several
/// blocks whose partial results are combined by a second kernel. 0 when every column fits one block.
std::size_t m4ScratchBytes(std::uint64_t n, std::uint32_t columns);

/// geom::m4Vertices on the GPU: `data` and `out` are device pointers. `scratch` (device, m4ScratchBytes(end - begin,
/// columns) bytes) may be nullptr: then the call allocates it stream-ordered (cudaMallocAsync) and frees it after.
Built m4Vertices(const void* data, DType dt, std::uint64_t begin, std::uint64_t end, std::uint32_t columns,
                 Vertex2* out, void* stream = nullptr, void* scratch = nullptr, std::size_t scratchBytes = 0);
/// geom::histogramBarHeights on the GPU (one thread per bar, summed in double in bin order).
Built histogramBarHeights(const void* counts, DType dt, std::uint64_t bins, std::uint32_t maxBars, float* out,
                          void* stream = nullptr);
/// geom::imageTexels on the GPU.
Built imageTexels(const void* data, DType dt, std::uint64_t count, float* out, void* stream = nullptr);
/// geom::pointVertices on the GPU.
Built pointVertices(const void* data, DType dt, std::uint64_t k, std::uint64_t maxPoints, PointVertex* out,
                    void* stream = nullptr);

/// One M4 timing: `columns` columns over n f32 samples already on the device, CUDA events around each of `reps`
/// calls after `warmup` untimed ones.
struct M4Timing {
  std::uint64_t n = 0;
  std::uint32_t columns = 0;
  double medianMs = 0, minMs = 0;
  double gbPerS = 0;  ///< n * 4 bytes / median
  std::string error;
};
/// Times m4Vertices on f32 data of n elements (filled on the device) for each column count; the sizes, columns and
/// repetitions are the caller's. Without a device every timing carries the error.
std::vector<M4Timing> timeM4(const std::vector<std::uint64_t>& sizes, const std::vector<std::uint32_t>& columns,
                             int reps = 20, int warmup = 3);

}  // namespace launchlab::geom::gpu
