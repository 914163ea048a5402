#include "runs/run_history.h"

#include "launchlab/explorer/run_compare.h"

namespace launchlab::ui {

QString HistoryEntry::summary() const {
  const RunResult& r = result();
  QString when = QString::fromStdString(r.timestamp);
  if (when.size() == 20) when = when.mid(11, 8);  // 2026-11-24T12:04:05Z -> 12:04:05
  // A run measured beside another process on the GPU (gpu_sharing.h): its times are not comparable as they are.
  const QString shared =
      r.sharing.shared ? QStringLiteral(", GPU SHARED: ") + QString::fromStdString(r.sharing.note) : "";
  return QString("#%1 %2 n=%3 %4, %5 implementation%6, %7%8")
      .arg(number)
      .arg(QString::fromStdString(r.workload))
      .arg(r.n)
      .arg(QString::fromStdString(r.dtype))
      .arg(r.impls.size())
      .arg(r.impls.size() == 1 ? "" : "s")
      .arg(when, shared);
}

RunHistory::RunHistory(Dispose dispose, std::size_t maxRuns, std::size_t budgetBytes)
    : m_dispose(std::move(dispose)), m_maxRuns(std::max<std::size_t>(2, maxRuns)), m_budget(budgetBytes) {}

void RunHistory::add(std::shared_ptr<const RunOutcome> outcome) {
  if (!outcome) return;
  HistoryEntry e;
  e.number = m_next++;
  e.request = outcome->request;
  e.light = withoutArrays(outcome->result);
  if (keptArrayBytes(outcome->result) > 0) e.full = std::move(outcome);
  m_entries.push_back(std::move(e));
  applyBounds();
}

const HistoryEntry* RunHistory::find(quint64 number) const {
  for (const auto& e : m_entries)
    if (e.number == number) return &e;
  return nullptr;
}

std::size_t RunHistory::keptBytes() const {
  std::size_t bytes = 0;
  for (const auto& e : m_entries)
    if (e.full) bytes += keptArrayBytes(e.full->result);
  return bytes;
}

void RunHistory::applyBounds() {
  auto drop = [this](HistoryEntry& e) {
    if (e.full && m_dispose) m_dispose(std::move(e.full));
    e.full.reset();
  };
  while (m_entries.size() > m_maxRuns) {
    drop(m_entries.front());
    m_entries.erase(m_entries.begin());
  }
  // Newest first: the arrays of the runs that fit the budget stay, older ones go.
  std::size_t kept = 0;
  for (auto it = m_entries.rbegin(); it != m_entries.rend(); ++it) {
    if (!it->full) continue;
    const std::size_t bytes = keptArrayBytes(it->full->result);
    if (kept + bytes > m_budget)
      drop(*it);
    else
      kept += bytes;
  }
}

}  // namespace launchlab::ui
