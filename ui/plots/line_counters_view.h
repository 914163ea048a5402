#pragma once
/// The per-line counters of a kernel (line_counters.h) as a table: a heading that names the implementation and where
/// the figures come from, one row per source line and kind of access (line, access, warp requests, sectors per
/// request against the ideal, bank conflicts, active lanes, the line in words), the costliest row highlighted and
/// named under the table. A row's click asks to go to its line (the kernel editor moves its cursor there). It sits
/// under the kernel editor for the student's kernel and is a tab of the outputs pane for a lesson's kernels.
#include <QWidget>
#include <memory>

#include "plots/line_counters.h"
#include "plots/output_view.h"

class QLabel;
class QTableWidget;

namespace launchlab::ui {

class LineCountersView : public QWidget {
  Q_OBJECT
 public:
  explicit LineCountersView(QWidget* parent = nullptr);
  void setTable(const LineCountersTable& t);
  /// The student's kernel: implementation my-kernel of `r`, its lines of `file` (the editor's file name). Hidden
  /// until a run asked for counters of it.
  void showKernelOf(const RunResult& r, const QString& file);
  /// A sentence instead of a table.
  void showMessage(const QString& text);

  const LineCountersTable& table() const { return m_table; }
  QTableWidget* tableWidget() const { return m_rows; }
  QString headingText() const;
  QString footText() const;

 signals:
  /// A row was clicked: its source line (1-based).
  void lineActivated(int line);

 protected:
  void showEvent(QShowEvent* e) override;

 private:
  /// Under the editor: the first time it appears, a third of the splitter's height; the costliest row scrolled to.
  void takeRoomInSplitter();
  bool m_wantsRoom = false;
  QLabel* m_heading = nullptr;
  QTableWidget* m_rows = nullptr;
  QLabel* m_foot = nullptr;
  LineCountersTable m_table;
};

/// The outputs pane's "Per line" tab: the shown implementation's lines, or the first implementation's that has
/// them when the shown one has none (a CPU row).
std::unique_ptr<OutputView> makeLineCountersOutputView(QWidget* parent);

}  // namespace launchlab::ui
