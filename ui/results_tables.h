#pragma once
/// Verification per implementation, the copyable results table, and the log.
#include <QPlainTextEdit>
#include <QTableWidget>

#include "launchlab/result.h"

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
/// as tab-separated text (pastes into a spreadsheet).
class ResultsTable : public QTableWidget {
  Q_OBJECT
 public:
  explicit ResultsTable(QWidget* parent = nullptr);
  void setResult(const RunResult& r);
  /// The whole table (or the selection when `selectionOnly`) as TSV with a header row.
  QString toTsv(bool selectionOnly = false) const;
  void copyToClipboard();

 protected:
  void keyPressEvent(QKeyEvent* e) override;
};

/// Time-stamped log lines.
class LogView : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit LogView(QWidget* parent = nullptr);
  void append(const QString& line);
};

}  // namespace launchlab::ui
