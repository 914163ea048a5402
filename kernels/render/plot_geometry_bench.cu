// Timing of the GPU M4 decimation (render/plot_geometry_gpu.h, timeM4): f32 noise filled on the device, CUDA events
// around each call after untimed warm-up calls, the median of the repetitions. `launchlab-cli bench-geometry` prints
// it.
#include <cuda_runtime.h>

#include <algorithm>
#include <exception>

#include "common/cuda_check.h"
#include "render/plot_geometry_gpu.h"

namespace launchlab::geom::gpu {

namespace {

/// Deterministic noise in [-1, 1) with a slow sine-like ramp, so columns have distinct extremes.
__global__ void fillNoise(float* out, std::uint64_t n) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    std::uint64_t h = i * 0x9e3779b97f4a7c15ull;
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    out[i] =
        static_cast<float>(h >> 40) / 8388608.0f - 1.0f + 0.5f * __sinf(static_cast<float>(i % 65536) * 9.5874e-5f);
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

M4Timing timeOne(const float* data, std::uint64_t n, std::uint32_t columns, Vertex2* out, int reps, int warmup) {
  M4Timing t;
  t.n = n;
  t.columns = columns;
  launchlab::gpu::DeviceBuffer scratch(std::max<std::size_t>(m4ScratchBytes(n, columns), 1));
  launchlab::gpu::Event start, stop;
  std::vector<double> ms;
  for (int r = -warmup; r < reps; ++r) {
    start.record(nullptr);
    const Built b = m4Vertices(data, DType::F32, 0, n, columns, out, nullptr, scratch.get(), scratch.bytes());
    stop.record(nullptr);
    if (!b.ok()) {
      t.error = b.error;
      return t;
    }
    LAUNCHLAB_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    if (r >= 0) ms.push_back(stop.elapsedSince(start));
  }
  t.medianMs = median(ms);
  t.minMs = *std::min_element(ms.begin(), ms.end());
  t.gbPerS = t.medianMs > 0 ? double(n) * sizeof(float) / (t.medianMs * 1e6) : 0;
  return t;
}

}  // namespace

std::vector<M4Timing> timeM4(const std::vector<std::uint64_t>& sizes, const std::vector<std::uint32_t>& columns,
                             int reps, int warmup) {
  std::vector<M4Timing> all;
  reps = std::max(reps, 1);
  try {
    const std::uint64_t biggest = sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
    const std::uint32_t most = columns.empty() ? 0 : *std::max_element(columns.begin(), columns.end());
    launchlab::gpu::DeviceBuffer data(std::max<std::uint64_t>(biggest, 1) * sizeof(float));
    launchlab::gpu::DeviceBuffer out(std::max<std::size_t>(std::size_t{most} * 4 * sizeof(Vertex2), 1));
    fillNoise<<<1024, 256>>>(data.as<float>(), biggest);
    LAUNCHLAB_CUDA_CHECK_LAUNCH();
    for (std::uint64_t n : sizes)
      for (std::uint32_t c : columns) all.push_back(timeOne(data.as<float>(), n, c, out.as<Vertex2>(), reps, warmup));
  } catch (const std::exception& e) {
    M4Timing failed;
    failed.error = e.what();
    all.assign(sizes.size() * columns.size(), failed);
  }
  return all;
}

}  // namespace launchlab::geom::gpu
