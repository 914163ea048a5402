#pragma once
/// The block-size sweep tab: the CUDA variant to sweep, the Sweep button (disabled with the reason when a
/// sweep cannot run), the chart that fills point by point with the variant's theoretical occupancy over the same
/// block sizes overlaid (drawn before any sweep, without a GPU too), and the notes on points without a measurement.
/// Sweeps run through the RunController (startSweep, sweepPoint, sweepFinished); this pane only shows them.
#include <QElapsedTimer>
#include <QWidget>

#include <memory>
#include <string>
#include <vector>

#include "controller.h"
#include "view_style.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace launchlab::ui {

class SweepChart;

/// The implementations a sweep can time: CUDA variants that honour the user's block size.
std::vector<const ImplSpec*> sweepableImpls(const Workload& w);

class SweepPane : public QWidget {
  Q_OBJECT
 public:
  explicit SweepPane(RunController& controller, QWidget* parent = nullptr);
  ~SweepPane() override;

  /// Lists `w`'s sweepable implementations.
  void setWorkload(const Workload& w);
  /// Enables the button when a sweep can run now (a GPU, a sweepable variant, a valid form, no job running);
  /// otherwise its tooltip says why.
  void updateControls(bool formOk);
  /// Sweeps `implId` (the first sweepable variant when empty) of `w` over every block size the device allows,
  /// starting from `base`. Returns the job id, or 0 when `w` has nothing to sweep.
  quint64 start(const Workload& w, const RunRequest& base, const QString& implId, const QString& setupText);
  void setViewStyle(const ViewStyle& s);
  /// Empties the chart and the notes (the sweep belonged to another workload or form).
  void clear();
  /// Why no sweep can run here at all (no GPU, no sweepable variant), shown on the tab; "" when one can.
  QString unavailableText() const;

  /// The implementation picked in the list ("" when none).
  QString selectedImpl() const;
  QPushButton* button() const { return m_button; }
  SweepChart* chart() const { return m_chart.get(); }
  const std::vector<SweepPoint>& points() const;
  QString notes() const;

 signals:
  /// The Sweep button was pressed (the window checks the form and calls start()).
  void sweepRequested();
  /// A line for the log (each point, the end of the sweep).
  void logLine(const QString& line);

 private:
  void showPoint(quint64 id, int index, int count, const SweepPoint& p);
  void finished(quint64 id, bool cancelled);
  /// Draws the selected implementation's occupancy curve (`w`: the workload shown; null clears it).
  void updateOccupancy(const Workload* w);

  RunController& m_controller;
  QComboBox* m_impl = nullptr;
  QPushButton* m_button = nullptr;
  std::unique_ptr<SweepChart> m_chart;
  std::string m_workloadId;  ///< looked up in the backend's registry when the selection changes
  QLabel* m_notes = nullptr;
  QLabel* m_unavailable = nullptr;
  QElapsedTimer m_clock;
};

}  // namespace launchlab::ui
