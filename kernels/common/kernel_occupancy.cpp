// The CUDA API's occupancy of a launched kernel (host code: CUDA runtime API only), beside core's theoretical one.
#include <cuda_runtime.h>

#include <algorithm>

#include "common/gpu_pipeline.cuh"

namespace launchlab::gpu {

void recordKernelOccupancy(ImplContext& ctx, const void* kernel, const LaunchConfig& cfg) {
  cudaFuncAttributes a{};
  const char* name = nullptr;
  int perSm = 0;
  const int threads = int(cfg.block.count());
  if (cudaFuncGetAttributes(&a, kernel) != cudaSuccess || cudaFuncGetName(&name, kernel) != cudaSuccess || !name ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, threads, cfg.dynamicSmemBytes) != cudaSuccess) {
    (void)cudaGetLastError();  // these errors are not sticky: clear them, the run goes on without the record
    return;
  }
  ApiOccupancy o;
  o.symbol = name;
  o.resources.registersPerThread = a.numRegs;
  o.resources.staticSharedBytes = a.sharedSizeBytes;
  o.resources.localBytesPerThread = a.localSizeBytes;
  o.resources.maxThreadsPerBlock = a.maxThreadsPerBlock;
  o.threadsPerBlock = threads;
  o.dynamicSharedBytes = cfg.dynamicSmemBytes;
  o.gridBlocks = cfg.grid.count();
  o.blocksPerSm = perSm;
  auto& v = ctx.kernelOccupancy;
  if (std::find(v.begin(), v.end(), o) == v.end()) v.push_back(std::move(o));
}

}  // namespace launchlab::gpu
