#pragma once
/// The History tab: the session's runs (run_history.h: the last 50, arrays only while they fit a memory budget),
/// each with its configuration; two selected are compared side by side (median times and B/A ratios, and each kept
/// output element by element, run_compare.h); "Copy as command" puts the `launchlab-cli run` line that reproduces a
/// run on the clipboard (command_line.h).
#include <QWidget>
#include <memory>
#include <vector>

#include "runs/controller.h"
#include "runs/run_history.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace launchlab::ui {

class HistoryPane : public QWidget {
  Q_OBJECT
 public:
  explicit HistoryPane(RunController& controller, QWidget* parent = nullptr);
  const RunHistory& history() const { return m_history; }
  QTableWidget* list() const { return m_list; }
  QTableWidget* timingTable() const { return m_timings; }
  QTableWidget* outputTable() const { return m_outputs; }
  QPushButton* compareButton() const { return m_compare; }
  QPushButton* copyButton() const { return m_copy; }
  /// Shows runs `a` and `b` (history numbers) side by side; false when either is gone.
  bool compare(quint64 a, quint64 b);
  /// Puts run `number`'s command line on the clipboard and returns it ("" when the run is gone).
  QString copyCommand(quint64 number);
  QString comparisonTitle() const;
  QString statusText() const;

 signals:
  void logLine(const QString& line);

 private:
  void add(quint64 id, std::shared_ptr<const RunOutcome> outcome);
  void refreshList();
  void updateButtons();
  std::vector<quint64> selectedNumbers() const;
  void fillTimings(const RunResult& a, const RunResult& b);
  void fillOutputs(const RunResult& a, const RunResult& b);

  RunHistory m_history;
  QTableWidget* m_list = nullptr;
  QTableWidget* m_timings = nullptr;
  QTableWidget* m_outputs = nullptr;
  QPushButton* m_compare = nullptr;
  QPushButton* m_copy = nullptr;
  QLabel* m_title = nullptr;
  QLabel* m_status = nullptr;
};

}  // namespace launchlab::ui
