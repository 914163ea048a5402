// go_fast on the GPU: the kernel source compiled with NVRTC at the start of the run (common/user_kernel.h), the
// compile and the first call timed against the later calls.
#include <vector>

#include "common/user_kernel.h"
#include "go_fast/go_fast.h"
#include "launchlab/engine/result.h"

namespace launchlab::kernels::go_fast {

void cudaNvrtcFirstCall(ImplContext& ctx) {
  const UserKernel k{"go_fast", "go_fast.cu", std::string(kKernelSource), "go_fast", 10};
  runUserKernel(ctx, k, kernelContract());
  // Each repetition's total (copies and kernel); without warm-up the first is the cold first call.
  std::vector<double> totals;
  for (const auto& [phase, samples] : ctx.samples) {
    totals.resize(samples.size(), 0.0);
    for (std::size_t i = 0; i < samples.size(); ++i) totals[i] += samples[i];
  }
  if (ctx.warmup != 0 || totals.size() < 2) return;  // the first call is a warm-up, or there is no later one
  const double first = ctx.metrics.at("compile_ms") + totals[0];
  const double later = summarize(std::vector<double>(totals.begin() + 1, totals.end())).medianMs;
  ctx.metrics["first_call_ms"] = first;
  ctx.metrics["later_call_ms"] = later;
  if (later > 0) ctx.metrics["first_over_later"] = first / later;
}

}  // namespace launchlab::kernels::go_fast
