#pragma once
/// The session's runs, newest last, in bounded memory (no widgets): at most `maxRuns` entries, and the arrays of the
/// newest runs only while they fit `budgetBytes`: an older run keeps its request and timings (withoutArrays), its
/// arrays are handed to `dispose` (the controller frees them off the GUI thread).
#include <QString>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "runs/controller.h"

namespace launchlab::ui {

struct HistoryEntry {
  quint64 number = 0;  ///< 1, 2, 3, … in the session
  RunRequest request;
  std::shared_ptr<const RunOutcome> full;  ///< with its arrays; null once they were dropped
  RunResult light;                         ///< the result without arrays (always there)
  const RunResult& result() const { return full ? full->result : light; }
  /// "#3 vector_add n=16777216 f32, 2 implementations, 12:04:05"
  QString summary() const;
};

class RunHistory {
 public:
  using Dispose = std::function<void(std::shared_ptr<const RunOutcome>)>;
  static constexpr std::size_t kDefaultMaxRuns = 50;
  static constexpr std::size_t kDefaultBudget = std::size_t(512) << 20;
  explicit RunHistory(Dispose dispose = {}, std::size_t maxRuns = kDefaultMaxRuns,
                      std::size_t budgetBytes = kDefaultBudget);

  /// Keeps `outcome` (a finished run) as the newest entry, then applies the bounds.
  void add(std::shared_ptr<const RunOutcome> outcome);
  const std::vector<HistoryEntry>& entries() const { return m_entries; }
  const HistoryEntry* find(quint64 number) const;
  /// The bytes of the arrays still kept.
  std::size_t keptBytes() const;

 private:
  void applyBounds();
  Dispose m_dispose;
  std::size_t m_maxRuns, m_budget;
  quint64 m_next = 1;
  std::vector<HistoryEntry> m_entries;
};

}  // namespace launchlab::ui
