// CUPTI or the access probes (fallback_profiler.h).
#include "launchlab/profiler/fallback_profiler.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace launchlab::profiler {

std::optional<CounterSource> parseCounterSource(std::string_view text) {
  if (text == "auto" || text.empty()) return CounterSource::Auto;
  if (text == "hardware") return CounterSource::Hardware;
  if (text == "accesses") return CounterSource::Accesses;
  return std::nullopt;
}

bool profilingRestrictedToAdmins(const std::string& paramsFile) {
  std::ifstream in(paramsFile);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("RmProfilingAdminOnly:", 0) == 0) return line.find('1') != std::string::npos && ::geteuid() != 0;
  return false;
}

FallbackProfiler::FallbackProfiler(std::shared_ptr<CounterProfiler> hardware, CounterSource source, bool restricted)
    : m_hardware(std::move(hardware)), m_source(source) {
  if (source == CounterSource::Accesses) {
    m_useAccesses = true;
  } else if (source == CounterSource::Auto && restricted) {
    m_useAccesses = true;
    m_why = "this driver lets only administrators read hardware counters";
  }
}

CounterError FallbackProfiler::libraryProblem() {
  if (m_useAccesses) return {};
  CounterError e = m_hardware->libraryProblem();
  if (!e.ok() && m_source == CounterSource::Auto) {
    m_useAccesses = true;
    m_why = counterErrorMessage(e);
    return {};
  }
  return e;
}

RawCounters FallbackProfiler::finish() {
  RawCounters raw = active().finish();
  raw.source = std::string(m_useAccesses ? ptx::kAccessSource : ptx::kHardwareSource);
  if (m_useAccesses) raw.sourceReason = m_why;
  // Refused after all (the driver's setting was not readable): the next implementation is measured from its
  // accesses, and this one says so.
  if (!m_useAccesses && m_source == CounterSource::Auto && raw.error.kind == CounterErrorKind::NotPermitted) {
    m_useAccesses = true;
    m_why = "CUPTI was refused";
    raw.error.detail += " (the next run measures from the kernel's accesses: --counters=accesses)";
  }
  return raw;
}

std::string FallbackProfiler::sourceNote() const {
  if (!m_useAccesses) return std::string(ptx::kHardwareSource);
  return std::string(ptx::kAccessSource) + (m_why.empty() ? "" : " (" + m_why + ")");
}

}  // namespace launchlab::profiler
