#pragma once
/// Verification per implementation, the copyable results table, and the log.
#include <QPlainTextEdit>
#include <QTableWidget>

#include "launchlab/engine/result.h"

namespace launchlab::ui {

/// One row per implementation: outcome (pass/fail/reference/demonstration), max errors, mismatches and the
/// first mismatching indices. Failures are red, demonstrations amber, passes green.
class VerificationTable : public QTableWidget {
  Q_OBJECT
 public:
  explicit VerificationTable(QWidget* parent = nullptr);
  void setResult(const RunResult& r);
};

/// One row per implementation with every timing and throughput figure; Ctrl+C or the Copy button copies it
/// as tab-separated text (pastes into a spreadsheet): the whole table, or the cells the user selected.
class ResultsTable : public QTableWidget {
  Q_OBJECT
 public:
  explicit ResultsTable(QWidget* parent = nullptr);
  void setResult(const RunResult& r);
  /// The whole table as TSV with a header row; with `selectionOnly`, the rows and columns that hold selected
  /// cells (a cell of them that is not selected is left empty).
  QString toTsv(bool selectionOnly = false) const;
  /// The selection when the user selected cells, else the whole table.
  void copyToClipboard();
  /// The counter columns after the timing ones (launchlab/engine/counters.h ids; the first, the lesson's, in bold).
  const std::vector<std::string>& counterIds() const { return m_counterIds; }

 protected:
  void keyPressEvent(QKeyEvent* e) override;

 private:
  void addCounterColumns(const RunResult& r);
  void fillCounterCells(int row, const ImplResult& impl);
  std::vector<std::string> m_counterIds;
};

/// Time-stamped log lines; a new line scrolls the view to it.
class LogView : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit LogView(QWidget* parent = nullptr);
  void append(const QString& line);
};

}  // namespace launchlab::ui
