#include "common/gpu_pipeline.cuh"

namespace launchlab::gpu {

DeviceArrays allocateFor(const ImplContext& ctx) {
  DeviceArrays d;
  for (const auto& a : ctx.inputs) d.in.emplace_back(a.bytes());
  for (const auto& a : ctx.outputs) d.out.emplace_back(a.bytes());
  return d;
}

void copyInputs(const ImplContext& ctx, DeviceArrays& d, cudaStream_t s) {
  for (std::size_t i = 0; i < ctx.inputs.size(); ++i)
    if (ctx.inputs[i].bytes())
      LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(d.in[i].get(), ctx.inputs[i].data(), ctx.inputs[i].bytes(),
                                           cudaMemcpyHostToDevice, s));
}

void copyOutputs(ImplContext& ctx, const DeviceArrays& d, cudaStream_t s) {
  for (std::size_t i = 0; i < ctx.outputs.size(); ++i)
    if (ctx.outputs[i].bytes())
      LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(ctx.outputs[i].data(), d.out[i].get(), ctx.outputs[i].bytes(),
                                           cudaMemcpyDeviceToHost, s));
}

void poisonOutputs(const DeviceArrays& d, cudaStream_t s) {
  for (const auto& b : d.out)
    if (b.bytes()) LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(b.get(), 0xFF, b.bytes(), s));
}

}  // namespace launchlab::gpu
