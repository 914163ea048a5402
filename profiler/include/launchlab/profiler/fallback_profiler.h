#pragma once
/// Counters for everyone: CUPTI's hardware counters where the driver lets this user profile, the access probes
/// (launchlab/ptx/ptx_counters.h) where it does not, where CUPTI is missing, or where asked (--counters=accesses).
/// The choice is made before a run, so every implementation of it is measured one way, and said.
#include <memory>
#include <optional>
#include <string>

#include "launchlab/ptx/ptx_counters.h"

namespace launchlab::profiler {

enum class CounterSource { Auto, Hardware, Accesses };

/// "auto", "hardware", "accesses" → the source; nullopt otherwise.
std::optional<CounterSource> parseCounterSource(std::string_view text);

/// Whether the driver restricts profiling to administrators for this process: /proc/driver/nvidia/params says
/// RmProfilingAdminOnly: 1 and the process is not root. False where the file is missing (no NVIDIA driver).
bool profilingRestrictedToAdmins(const std::string& paramsFile = "/proc/driver/nvidia/params");

class FallbackProfiler : public CounterProfiler, public ptx::AccessProbeSession {
 public:
  FallbackProfiler(std::shared_ptr<CounterProfiler> hardware, CounterSource source,
                   bool restricted = profilingRestrictedToAdmins());
  CounterError libraryProblem() override;
  void prepare(const std::vector<std::string>& hardwareMetrics) override { active().prepare(hardwareMetrics); }
  void beforeKernels() override { active().beforeKernels(); }
  void afterKernels() override { active().afterKernels(); }
  RawCounters finish() override;
  bool probing() const override { return m_useAccesses; }
  const ptx::PtxInstrumentation& instrument(std::string_view ptx) override { return m_accesses.instrument(ptx); }
  void addRecords(const std::vector<std::uint64_t>& records) override { m_accesses.addRecords(records); }
  ptx::ProbeModule* runModule() override { return m_accesses.runModule(); }
  void keepRunModule(std::unique_ptr<ptx::ProbeModule> module) override { m_accesses.keepRunModule(std::move(module)); }
  void launched(const std::string& entry) override { m_accesses.launched(entry); }

  /// Where the figures come from, and why: "measured from the kernel's accesses (this driver lets only
  /// administrators read hardware counters)".
  std::string sourceNote() const;
  const ptx::AccessProfiler& accesses() const { return m_accesses; }

 private:
  CounterProfiler& active() { return m_useAccesses ? static_cast<CounterProfiler&>(m_accesses) : *m_hardware; }
  std::shared_ptr<CounterProfiler> m_hardware;
  ptx::AccessProfiler m_accesses;
  CounterSource m_source;
  bool m_useAccesses = false;
  std::string m_why;  ///< why the accesses measure (empty: asked for)
};

}  // namespace launchlab::profiler
