// vector_add: CPU implementations.
#include <cstdint>

#include "common/impl_helpers.h"
#include "vector_add/vector_add.h"

namespace launchlab::kernels::vector_add {

namespace {
template <typename T> void serial(const T* x, const T* y, T* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = x[i] + y[i];
}
template <typename T> void parallel(const T* x, const T* y, T* out, std::size_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) out[i] = x[i] + y[i];
}
template <typename F> void dispatch(ImplContext& ctx, F f) {
  visitDTypeAmong<float, double, std::int32_t>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const T* x = ctx.inputs[0].view<T>().data();
    const T* y = ctx.inputs[1].view<T>().data();
    T* out = ctx.outputs[0].view<T>().data();
    const std::size_t n = ctx.outputs[0].size();
    runCpuTimed(ctx, [&] { f(x, y, out, n); });
  });
}
}  // namespace

void cpuSerial(ImplContext& ctx) {
  dispatch(ctx, [](auto x, auto y, auto out, std::size_t n) { serial(x, y, out, n); });
}
void cpuParallel(ImplContext& ctx) {
  dispatch(ctx, [](auto x, auto y, auto out, std::size_t n) { parallel(x, y, out, n); });
}

}  // namespace launchlab::kernels::vector_add
