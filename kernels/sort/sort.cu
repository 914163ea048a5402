// sort: cub::DeviceRadixSort::SortKeys on the device copy of x, its temporary storage sized once per run.
#include <cub/device/device_radix_sort.cuh>

#include "common/gpu_pipeline.cuh"
#include "sort/sort.h"

namespace launchlab::kernels::sort {

void cudaCubRadix(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto n = static_cast<std::int64_t>(ctx.setup.n);
    std::size_t tempBytes = 0;
    LAUNCHLAB_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, tempBytes, static_cast<const T*>(nullptr),
                                                        static_cast<T*>(nullptr), n));
    gpu::DeviceBuffer temp(tempBytes ? tempBytes : 1);
    ctx.launched = LaunchConfig{Dim3{0, 1, 1}, Dim3{0, 1, 1}, 0};  // 0: not ours to choose
    ctx.launchNote = "chosen by CUB (its tuning policy); the --block/--grid options do not apply";
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      std::size_t bytes = tempBytes;
      LAUNCHLAB_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp.get(), bytes, d.input<T>(0), d.output<T>(0), n, 0,
                                                          int(sizeof(T) * 8), s));
    });
    ctx.metrics["temp_storage_bytes"] = double(tempBytes);
  });
}

}  // namespace launchlab::kernels::sort
