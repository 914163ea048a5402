// gpu::launch's measured path (probe_launch.cuh): a compiled-in kernel's instrumented twin, from its workload's PTX.
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/probe_launch.cuh"
#include "common/user_kernel_launch.cuh"
#include "launchlab/engine/errors.h"
#include "launchlab/lesson_ptx.h"
#include "launchlab/ptx/ptx_instrument.h"

namespace launchlab::gpu {

namespace {

struct LessonKernel {
  std::string workload;
  std::string entry;  ///< its name in the workload's PTX
};

/// The workload whose compiled-in PTX holds the kernel the CUDA runtime names `mangled`: a table of every
/// module's entries, read once.
std::optional<LessonKernel> findLessonKernel(std::string_view mangled) {
  static const auto table = [] {
    std::vector<std::pair<std::string, std::vector<std::string>>> t;
    for (const auto& w : kernels::lessonPtxWorkloads()) t.emplace_back(w, ptx::ptxEntryNames(kernels::lessonPtx(w)));
    return t;
  }();
  for (const auto& [workload, entries] : table)
    if (auto entry = ptx::matchingEntry(entries, mangled)) return LessonKernel{workload, *entry};
  return std::nullopt;
}

/// What one run loads: the workload's instrumented kernels, each JIT-compiled alone when first launched (a lesson's
/// module holds every variant and dtype), all counting into one zeroed buffer in the instrumentation's numbering.
class LessonModule final : public ptx::ProbeModule {
 public:
  LessonModule(std::string workload, const ptx::PtxInstrumentation& inst)
      : m_workload(std::move(workload)), m_ptx(inst.ptx), m_buffer(std::size_t(inst.records) * ptx::kRecordBytes) {
    if (m_buffer.bytes() > 0) LAUNCHLAB_CUDA_CHECK(cudaMemset(m_buffer.get(), 0, m_buffer.bytes()));
  }
  const std::string& workload() const { return m_workload; }

  const void* kernel(const std::string& entry) {
    auto it = m_kernels.find(entry);
    if (it == m_kernels.end()) {
      std::string why;
      const std::string one = ptx::ptxWithOnlyEntry(m_ptx, entry, &why);
      if (one.empty()) throw std::runtime_error("the access probes: " + why);
      auto lib = std::make_unique<kernels::UserLibrary>(one);
      if (m_buffer.bytes() > 0) {
        void* address = m_buffer.get();
        LAUNCHLAB_CUDA_CHECK(cudaMemcpy(lib->global(std::string(ptx::kCountersSymbol)), &address, sizeof address,
                                        cudaMemcpyHostToDevice));
      }
      const void* k = reinterpret_cast<const void*>(lib->kernel(entry));
      it = m_kernels.emplace(entry, Loaded{std::move(lib), k}).first;
    }
    return it->second.kernel;
  }

  std::vector<std::uint64_t> records() override {
    std::vector<std::uint64_t> out(m_buffer.bytes() / sizeof(std::uint64_t));
    if (out.empty()) return out;
    if (cudaDeviceSynchronize() != cudaSuccess ||
        cudaMemcpy(out.data(), m_buffer.get(), m_buffer.bytes(), cudaMemcpyDeviceToHost) != cudaSuccess)
      return {};  // the run failed; its error is reported where it happened
    return out;
  }

 private:
  struct Loaded {
    std::unique_ptr<kernels::UserLibrary> library;
    const void* kernel = nullptr;
  };
  std::string m_workload;
  std::string m_ptx;  ///< the instrumented module
  DeviceBuffer m_buffer;
  std::map<std::string, Loaded> m_kernels;
};

/// The run's module for `workload`: instrumented and kept in the session at the run's first launch.
LessonModule& moduleFor(ptx::AccessProbeSession& probes, const std::string& workload) {
  if (auto* m = dynamic_cast<LessonModule*>(probes.runModule())) {
    if (m->workload() != workload)
      throw std::runtime_error("the access probes measure one workload's kernels per run, not " + m->workload() +
                               "'s and " + workload + "'s");
    return *m;
  }
  const auto& inst = probes.instrument(kernels::lessonPtx(workload));
  if (!inst.ok()) throw std::runtime_error("the access probes cannot read " + workload + "'s PTX: " + inst.error);
  auto module = std::make_unique<LessonModule>(workload, inst);
  LessonModule& m = *module;
  probes.keepRunModule(std::move(module));
  return m;
}

}  // namespace

bool launchProbed(ptx::AccessProbeSession& probes, const void* kernel, dim3 grid, dim3 block, std::size_t smemBytes,
                  cudaStream_t stream, void** args) {
#if CUDART_VERSION >= 12030
  const char* name = nullptr;
  LAUNCHLAB_CUDA_CHECK(cudaFuncGetName(&name, kernel));
  const auto found = findLessonKernel(name ? name : "");
  if (!found) return false;
  LessonModule& module = moduleFor(probes, found->workload);
  const void* twin = module.kernel(found->entry);
  if (smemBytes > 48 * 1024)  // what the caller set on the compiled-in kernel, the twin needs too
    LAUNCHLAB_CUDA_CHECK(cudaFuncSetAttribute(twin, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smemBytes)));
  probes.launched(found->entry);
  LAUNCHLAB_CUDA_CHECK(cudaLaunchKernel(twin, grid, block, args, smemBytes, stream));
  return true;
#else
  (void)probes, (void)kernel, (void)grid, (void)block, (void)smemBytes, (void)stream, (void)args;
  throw Unavailable("measuring a built-in kernel from its accesses needs CUDA 12.3 or newer (cudaFuncGetName)");
#endif
}

}  // namespace launchlab::gpu
