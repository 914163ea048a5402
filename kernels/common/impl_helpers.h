#pragma once
/// Helpers every workload uses to declare itself and its implementations (host code, no CUDA).
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "launchlab/config.h"
#include "launchlab/workload.h"

namespace launchlab::kernels {

using ImplFn = std::function<void(ImplContext&)>;

/// A workload whose metadata and implementation list are filled in by its constructor.
class BasicWorkload : public Workload {
 public:
  const WorkloadInfo& info() const override { return m_info; }
  const std::vector<ImplSpec>& impls() const override { return m_impls; }

 protected:
  WorkloadInfo m_info;
  std::vector<ImplSpec> m_impls;

  void addCpu(std::string id, std::string title, std::string description, ImplFn fn) {
    ImplSpec s;
    s.id = std::move(id);
    s.title = std::move(title);
    s.description = std::move(description);
    s.kind = s.id == kCpuSerial ? ImplKind::CpuSerial : ImplKind::CpuParallel;
    s.run = std::move(fn);
    m_impls.push_back(std::move(s));
  }
  /// A CUDA implementation; `fn` is empty in CPU-only builds (use LAUNCHLAB_CUDA_ENTRY).
  ImplSpec& addGpu(std::string id, std::string title, std::string description, ImplFn fn,
                   ImplKind kind = ImplKind::Cuda, bool usesLaunchConfig = true) {
    ImplSpec s;
    s.id = std::move(id);
    s.title = std::move(title);
    s.description = std::move(description);
    s.kind = kind;
    s.usesLaunchConfig = usesLaunchConfig;
    s.run = std::move(fn);
    if (!s.run) s.unavailableReason = "this build has no CUDA (configured with LAUNCHLAB_CUDA=OFF or without nvcc)";
    m_impls.push_back(std::move(s));
    return m_impls.back();
  }
};

/// Runs `body` warmup + reps times, timing each repetition with a steady clock into Phase::Cpu.
template <typename F> void runCpuTimed(ImplContext& ctx, F&& body) {
  for (int r = -ctx.warmup; r < ctx.reps; ++r) {
    ctx.checkpoint(r);
    const auto t0 = std::chrono::steady_clock::now();
    body();
    const auto t1 = std::chrono::steady_clock::now();
    if (r >= 0) ctx.samples[Phase::Cpu].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
}

/// Allocates one output per spec with the given shape and the run's dtype.
std::vector<HostArray> makeArrays(const std::vector<ArraySpec>& specs, DType dtype, std::vector<std::size_t> shape);

}  // namespace launchlab::kernels

/// Wraps a CUDA entry point (a host function defined in a .cu file) so that CPU-only builds, where it
/// does not exist, register the implementation as unavailable instead of failing to link.
#if LAUNCHLAB_HAVE_CUDA
#define LAUNCHLAB_CUDA_ENTRY(fn) ::launchlab::kernels::ImplFn(fn)
#else
#define LAUNCHLAB_CUDA_ENTRY(fn) ::launchlab::kernels::ImplFn()
#endif
