#pragma once
/// Helpers every workload uses to declare itself and its implementations (host code, no CUDA). The CPU loops of
/// the implementations are in common/cpu_loops.h.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "launchlab/config.h"
#include "launchlab/course/chapters.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels {

using ImplFn = std::function<void(ImplContext&)>;
using Shapes = std::vector<std::vector<std::size_t>>;

/// One array per spec, with the matching shape and the spec's dtype (the run's unless the spec declares its own).
std::vector<HostArray> makeArrays(const std::vector<ArraySpec>& specs, const Shapes& shapes, DType runDType);

/// A workload whose metadata and implementation list are filled in by its constructor. It allocates the outputs
/// (outputShapes and the specs' dtypes), so a workload states its shapes once and byte counts follow from them.
class BasicWorkload : public Workload {
 public:
  const WorkloadInfo& info() const override { return m_info; }
  const std::vector<ImplSpec>& impls() const override { return m_impls; }
  std::vector<HostArray> makeOutputs(const RunSetup& s) const override;

 protected:
  WorkloadInfo m_info;
  std::vector<ImplSpec> m_impls;

  /// The inputs as inputShapes(s) and the specs' dtypes say, for makeInputs to fill.
  std::vector<HostArray> allocateInputs(const RunSetup& s) const;
  /// The reference (id kCpuSerial): it runs first and every other implementation is verified against it.
  ImplSpec& addReference(std::string title, std::string description, ImplFn fn);
  /// Another CPU implementation (any id but kCpuSerial; `fn` may be empty with an unavailableReason set after).
  ImplSpec& addCpu(std::string id, std::string title, std::string description, ImplFn fn);
  /// A CUDA implementation; `fn` is empty in CPU-only builds (use LAUNCHLAB_CUDA_ENTRY).
  ImplSpec& addGpu(std::string id, std::string title, std::string description, ImplFn fn,
                   ImplKind kind = ImplKind::Cuda, bool usesLaunchConfig = true);
  /// The CUDA kernels (function names in namespace launchlab::kernels::<ns>) each implementation launches, so
  /// its occupancy shows those (ImplSpec::kernels). Call after adding the implementations.
  using KernelsOfImpl = std::pair<std::string, std::vector<std::string>>;
  void nameKernels(const std::string& ns, const std::vector<KernelsOfImpl>& kernels);

 private:
  ImplSpec& addImpl(std::string id, std::string title, std::string description, ImplKind kind, ImplFn fn);
};

/// Runs `body` warmup + reps times, timing each repetition with a steady clock into Phase::Cpu.
template <typename F>
void runCpuTimed(ImplContext& ctx, F&& body) {
  for (int r = -ctx.warmup; r < ctx.reps; ++r) {
    ctx.checkpoint(r);
    const auto t0 = std::chrono::steady_clock::now();
    body();
    const auto t1 = std::chrono::steady_clock::now();
    if (r >= 0) ctx.samples[Phase::Cpu].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
}

}  // namespace launchlab::kernels

/// Wraps a CUDA entry point (a host function defined in a .cu file) so that CPU-only builds, where it
/// does not exist, register the implementation as unavailable instead of failing to link.
#if LAUNCHLAB_HAVE_CUDA
#define LAUNCHLAB_CUDA_ENTRY(fn) ::launchlab::kernels::ImplFn(fn)
#else
#define LAUNCHLAB_CUDA_ENTRY(fn) ::launchlab::kernels::ImplFn()
#endif
