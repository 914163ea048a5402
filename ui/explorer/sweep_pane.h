#pragma once
/// The sweep tab: the CUDA variant to sweep and its grid axis (none: the block-size curve; SM multiples: a
/// block x grid heatmap), the Sweep button (disabled with the reason when a sweep cannot run), Open sweep (a
/// launchlab.sweep file, or a reference sweep shipped with the app), and what is shown: the student's own sweep or
/// a recorded one, never mixed, with a label that says which. The curve fills point by point with the variant's
/// theoretical occupancy overlaid (drawn before any sweep, without a GPU too); the heatmap colours time, GB/s or
/// % of cudaMemcpy, reads out the cell under the mouse, and a click shows that launch's report beside it.
/// Sweeps run through the RunController (startSweep, sweepPoint, sweepFinished); this pane only shows them.
#include <QElapsedTimer>
#include <QWidget>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "explorer/sweep_sources.h"
#include "plots/view_style.h"
#include "runs/background_read.h"
#include "runs/controller.h"

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QToolButton;

namespace launchlab::ui {

class CrossoverView;
class SweepChart;
class SweepHeatmap;

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
  /// Sweeps `implId` (the first sweepable variant when empty) of `w` over every block size the device allows
  /// (and the grid axis picked, if any), starting from `base`. Returns the job id, or 0 when `w` has nothing to sweep.
  quint64 start(const Workload& w, const RunRequest& base, const QString& implId, const QString& setupText);
  void setViewStyle(const ViewStyle& s);
  /// Empties the student's own sweep (it belonged to another workload or form); a recorded one stays.
  void clear();
  /// Why no sweep can run here at all (no GPU, no sweepable variant), shown on the tab; "" when one can.
  QString unavailableText() const;
  /// Shows the launchlab.sweep file `path` (a Qt resource too) as a recorded sweep; false (one inline message,
  /// what is shown kept) for anything else.
  bool openSweepFile(const QString& path);
  /// The same, read on a thread of its own (a file chosen in the dialog may hold 160000 points): the pane says it
  /// is opening it, and shows it (or why not) when it has been read; sweepFileOpened tells the outcome.
  void openSweepFileInBackground(const QString& path);
  /// Shows the student's own sweep (false) or the recorded one (true, when one is open).
  void showRecorded(bool recorded);
  /// Picks the grid axis by its index in the list (0: none, a block-size curve).
  void setGridChoice(int index);
  void setMetric(SweepMetric m);

  /// The implementation picked in the list ("" when none).
  QString selectedImpl() const;
  QPushButton* button() const { return m_button; }
  QToolButton* openButton() const { return m_open; }
  SweepChart* chart() const { return m_chart.get(); }
  SweepHeatmap* heatmap() const { return m_heatmap.get(); }
  /// The CPU/GPU crossover plot, shown for a sweep over N with CPU and GPU points.
  CrossoverView* crossover() const { return m_crossover.get(); }
  bool crossoverShown() const;
  /// The student's own sweep's points.
  const std::vector<SweepPoint>& points() const;
  const ShownSweep& shown() const;
  QString notes() const;
  QString sourceText() const;   ///< the label over the views: whose sweep this is
  QString messageText() const;  ///< the inline message (a file that could not be opened), "" when none
  QString detailsText() const;  ///< the report of the cell clicked last
  bool heatmapShown() const;
  /// The GPU whose points are drawn, for a sweep measured on several GPUs (hidden otherwise).
  QComboBox* gpuChoice() const { return m_gpu; }

 signals:
  /// The Sweep button was pressed (the window checks the form and calls start()).
  void sweepRequested();
  /// A line for the log (each point, the end of the sweep).
  void logLine(const QString& line);
  /// openSweepFileInBackground has finished: shown, or not (with the message on the pane).
  void sweepFileOpened(bool shown);

 private:
  QWidget* buildControls();
  QWidget* buildHeatmapPage();
  void fillOpenMenu();
  void chooseFile();
  void showPoint(quint64 id, int index, int count, const SweepPoint& p);
  void finished(quint64 id, bool cancelled);
  /// Draws the selected implementation's occupancy curve (`w`: the workload shown; null clears it).
  void updateOccupancy(const Workload* w);
  /// Puts the shown sweep on screen: the heatmap for block x grid, else the curve.
  void refresh();
  /// Lists the GPUs of `all` in the GPU choice, shown only when there are two or more.
  void updateGpuChoice(const ShownSweep& all);
  /// The shown sweep as drawn: shown() itself when it has one GPU, else its copy in `oneGpu` with the points of the
  /// GPU chosen.
  const ShownSweep& visible(ShownSweep& oneGpu) const;
  /// Shows the crossover plot when `s` is a sweep over N with CPU and GPU points; false otherwise.
  bool showCrossover(const ShownSweep& s);
  /// start() when the grid choice is the N axis: the GPU variant and the CPU implementations over N.
  quint64 startNSweep(const Workload& w, const RunRequest& base, const QString& implId, const QString& setupText);
  void showCell(int point);
  void setMessage(const QString& text);
  /// Shows a sweep read by openSweepFile (the function of sweep_sources.h), or why it could not be.
  bool showOpened(const QString& path, std::optional<ShownSweep> s, const QString& why);

  RunController& m_controller;
  QComboBox* m_impl = nullptr;
  QComboBox* m_grid = nullptr;
  QComboBox* m_source = nullptr;
  QComboBox* m_metric = nullptr;
  QComboBox* m_gpu = nullptr;  ///< which GPU's points, for a sweep measured on several (hidden otherwise)
  QLabel* m_gpuLabel = nullptr;
  QPushButton* m_button = nullptr;
  QToolButton* m_open = nullptr;
  QStackedWidget* m_stack = nullptr;
  std::unique_ptr<SweepChart> m_chart;
  std::unique_ptr<SweepHeatmap> m_heatmap;
  std::unique_ptr<CrossoverView> m_crossover;
  std::string m_workloadId;  ///< looked up in the backend's registry when the selection changes
  QLabel* m_sourceLabel = nullptr;
  QLabel* m_message = nullptr;
  QLabel* m_details = nullptr;
  QLabel* m_notes = nullptr;
  QLabel* m_unavailable = nullptr;
  QElapsedTimer m_clock;
  ShownSweep m_live;
  std::optional<ShownSweep> m_recorded;
  QString m_liveTitle, m_liveSetup;
  BackgroundRead m_reading;  ///< a sweep file being read off the GUI thread
};

}  // namespace launchlab::ui
