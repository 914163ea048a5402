#pragma once
/// The export window (non-modal): any plot to PNG/PDF/SVG at a chosen size and DPI with a caption, and the
/// run's data to CSV, JSON and .npy. Results are reported inline, never in a dialog storm.
#include <QDialog>
#include <QList>
#include <memory>
#include <vector>

#include "plots/export.h"
#include "runs/controller.h"

class QCheckBox;
class QComboBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace launchlab::ui {

class ExportDialog : public QDialog {
  Q_OBJECT
 public:
  struct Target {
    QString name;
    Renderable* plot = nullptr;
  };
  explicit ExportDialog(QWidget* parent = nullptr);
  void setTargets(const QList<Target>& targets, int current);
  void setRun(std::shared_ptr<const RunOutcome> outcome, std::vector<SweepPoint> sweep);
  void setFolder(const QString& folder);
  QString folder() const { return m_folder; }
  /// Exports the selected plot to the path in the field (what the Export button does).
  ExportResult exportPlotNow();
  QString status() const;
  QComboBox* formatBox() const { return m_format; }
  QCheckBox* projectedBox() const { return m_projected; }
  QLineEdit* pathField() const { return m_path; }

 signals:
  void exported(bool ok, const QString& message);

 private:
  QGroupBox* buildPlotBox();
  QHBoxLayout* sizeRow();
  QHBoxLayout* pathRow();
  QGroupBox* buildDataBox();
  void suggestPath();
  void matchSuffixToFormat();
  void report(const ExportResult& r);
  QString browse(const QString& title, const QString& suggested, const QString& filter);
  void exportData(int kind);

  QList<Target> m_targets;
  std::shared_ptr<const RunOutcome> m_outcome;
  std::vector<SweepPoint> m_sweep;
  QString m_folder;
  QComboBox* m_target;
  QComboBox* m_format;
  QSpinBox* m_width;
  QSpinBox* m_height;
  QSpinBox* m_dpi;
  QCheckBox* m_caption;
  QCheckBox* m_projected;
  QLineEdit* m_path;
  QLabel* m_status;
  QList<QPushButton*> m_dataButtons;
  bool m_pathChosen = false;  ///< the file name was typed or browsed to: only its extension follows the format
};

}  // namespace launchlab::ui
