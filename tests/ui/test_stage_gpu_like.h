#pragma once
// A backend that gives a machine without a GPU the runs a GPU machine gets, for the window's layout rules: once
// `gpuLike` is set, every CUDA variant of the workload comes back measured (the reference's time split into H2D,
// kernel and D2H, its outputs shown as the variant's), and the run says another process shared the GPU, as happens
// where the window suites run side by side on one GPU. The window then stacks above its plots what it stacks there:
// the timing chart's CUDA rows, the sharing banner, a reveal with a measured value. Everything else is the engine's.
#include <algorithm>
#include <atomic>
#include <memory>

#include "launchlab/engine/registry.h"
#include "models/backend.h"

namespace launchlab::test {

class GpuLikeBackend final : public ui::Backend {
 public:
  explicit GpuLikeBackend(std::shared_ptr<ui::Backend> inner) : m_inner(std::move(inner)) {
    setKernelRecords(m_inner->kernelRecords());
  }
  std::atomic<bool> gpuLike{false};

  const Registry& registry() const override { return m_inner->registry(); }
  DeviceStatus deviceStatus() const override { return m_inner->deviceStatus(); }
  DeviceLimits launchLimits() const override { return m_inner->launchLimits(); }
  std::vector<RequestProblem> validate(const RunRequest& req) const override { return m_inner->validate(req); }
  std::string selectDevice(int index) override { return m_inner->selectDevice(index); }
  bool deviceQueryPending() const override { return m_inner->deviceQueryPending(); }
  DeviceStatus queryDevice() override { return m_inner->queryDevice(); }
  void adoptDeviceStatus(const DeviceStatus& s) override { m_inner->adoptDeviceStatus(s); }
  void abort() override { m_inner->abort(); }
  std::string takeProgramOutput() override { return m_inner->takeProgramOutput(); }
  std::string remoteHost() const override { return m_inner->remoteHost(); }
  bool runsInLocalWorker() const override { return m_inner->runsInLocalWorker(); }
  Ceilings ceilings() override { return m_inner->ceilings(); }

  RunResult run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) override {
    RunResult r = m_inner->run(req, cancel, progress);
    const Workload* w = registry().find(req.workload);
    const auto ref = std::find_if(r.impls.begin(), r.impls.end(), [](const ImplResult& i) {
      return i.implId == "cpu-serial" && i.status == Status::Ok;
    });
    if (!gpuLike || !w || r.status != Status::Ok || ref == r.impls.end()) return r;
    const ImplResult reference = *ref;
    for (const ImplSpec& spec : w->impls()) {
      if (!spec.isGpu()) continue;
      auto it = std::find_if(r.impls.begin(), r.impls.end(), [&](const ImplResult& i) { return i.implId == spec.id; });
      if (it == r.impls.end()) it = r.impls.insert(r.impls.end(), ImplResult{});
      *it = measuredLike(reference, spec);
    }
    r.sharing.checked = r.sharing.shared = true;
    r.sharing.note = "another process (pid 4242, 1.2 GiB) used the GPU during the run";
    return r;
  }

 private:
  static ImplResult measuredLike(const ImplResult& reference, const ImplSpec& spec) {
    ImplResult i = reference;
    i.implId = spec.id;
    i.title = spec.title;
    i.gpu = true;
    i.demonstration = spec.demonstration;
    const PhaseStats cpu = reference.phases.count(Phase::Cpu) ? reference.phases.at(Phase::Cpu) : PhaseStats{};
    PhaseStats part = cpu;
    for (double* ms : {&part.medianMs, &part.minMs, &part.maxMs}) *ms /= 3;
    i.phases.clear();
    i.phases[Phase::H2D] = i.phases[Phase::Kernel] = i.phases[Phase::D2H] = part;
    i.phases[Phase::Total] = cpu;
    i.verification.outcome = Verification::Outcome::Pass;
    return i;
  }

  std::shared_ptr<ui::Backend> m_inner;
};

}  // namespace launchlab::test
