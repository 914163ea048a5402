#pragma once
/// The outputs pane: one view per output array and per plotted input of the current workload (made from its
/// metadata through the view factory), with the bar above them: which implementation is shown, the reference
/// overlay, log y, reset zoom and a one-line summary of the view in front.
#include <QWidget>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "plots/output_view.h"

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QTabWidget;

namespace launchlab::ui {

class OutputsPane : public QWidget {
  Q_OBJECT
 public:
  explicit OutputsPane(QWidget* parent = nullptr);
  ~OutputsPane() override;

  /// Makes the views `w`'s arrays call for, each showing `message`, unless they are already this workload's.
  void setWorkload(const Workload& w, const QString& message);
  /// Shows a run: picks the implementation to show (the one shown before when it ran, else the first CUDA
  /// variant that ran, else cpu-parallel, else the first) and hands every view its array.
  /// `live`: a live mode frame (the views keep a zoom the user made, OutputView::setLiveData).
  void setOutcome(std::shared_ptr<const RunOutcome> outcome, bool live = false);
  /// Forgets the shown run (the Show list empties) and shows `reason` in every view instead of its data.
  void markStale(const QString& reason);
  /// A job is running: views that show a message rather than data say "Running…".
  void showRunning();
  /// The one-line summary of the view in front, as shown in the bar.
  QString summaryText() const;
  /// The message the views show instead of data ("" when they show a run).
  QString placeholder() const { return m_placeholder; }
  void setViewStyle(const ViewStyle& s);
  /// Draws the first view now rather than at the next queued replot (cold-start measurement).
  void replotFirstNow();

  int viewCount() const { return int(m_views.size()); }
  OutputView* view(int i) const { return m_views[std::size_t(i)].view.get(); }
  QString tabText(int i) const;
  /// View `i`'s array name ("input:" before an input's name; "" out of range), and the view of a name (-1: none).
  std::string viewName(int i) const;
  int indexOfView(const std::string& name) const;
  /// The bar above the views (Show, overlay, log y, zoom); the stage hides it, the desk shows it.
  void setBarVisible(bool on);
  /// The view in front (-1 when none).
  int currentIndex() const;
  /// Brings view `i` to the front (ignored when out of range).
  void setCurrentIndex(int i);
  /// Live mode's view: the one in front when it has a GL path (OutputView::drawPath), else the first that has one,
  /// points before images before histograms before waveforms (Monte Carlo pi's point cloud rather than its estimate
  /// bar or its per-thread counts), else the one in front.
  int liveViewIndex() const;
  /// The implementation whose outputs are shown ("" before a run).
  std::string shownImpl() const;
  /// Shows implementation `id` at the next run when it ran (a course experiment's declared one); "" forgets it.
  void preferImpl(const std::string& id) { m_preferredImpl = id; }
  /// "Re-run this region": shown for workloads whose image is a region of the plane (region_zoom.h) while an
  /// image is in front.
  QPushButton* regionButton() const { return m_regionRun; }

 signals:
  /// The user asked to re-run on the part of the image in view.
  void regionRequested(const launchlab::ui::ImageWindow& view);
  /// Another view came to the front (a tab clicked or chosen).
  void currentViewChanged(int index);

 private:
  /// What a tab draws: an array, the Blocks on SMs trace, the run's metrics (a lesson's own view: the first call),
  /// or the counters per source line.
  enum class SlotKind { Array, Blocks, Metrics, Lines };
  struct ViewSlot {
    ArraySpec spec;
    std::string source;  // "" for outputs (the shown implementation), "input" for inputs
    std::unique_ptr<OutputView> view;
    SlotKind kind = SlotKind::Array;
  };
  QHBoxLayout* buildBar();
  /// A tab; `view` null: the factory's view for the spec's plot kind.
  void addView(const ArraySpec& spec, const std::string& source, const QString& tabTitle, const QString& tip,
               std::unique_ptr<OutputView> view = nullptr, SlotKind kind = SlotKind::Array);
  /// Adds the Blocks on SMs tab (brought to the front) when `r` has a block trace, removes it when not; the same for
  /// the Per line tab when an implementation has counters per source line.
  void syncExtraTabs(const RunResult& r);
  /// The tab of `kind` (an extra one: Blocks, Lines) added from `make` when `wanted` and missing, removed when not
  /// wanted; true when it was added.
  bool syncTab(SlotKind kind, bool wanted, const ArraySpec& spec, const QString& tip,
               std::unique_ptr<OutputView> (*make)(QWidget*));
  void rebuildViews(const Workload& w);
  void fillShowList(const RunResult& r);
  void refreshViews(bool live = false);
  /// The data a slot's view shows, or the message it shows instead ("" when it has data).
  QString viewDataFor(const ViewSlot& s, ViewData& d) const;
  void showSummary(int tab);

  QWidget* m_bar = nullptr;
  QComboBox* m_showImpl = nullptr;
  QCheckBox* m_overlayRef = nullptr;
  QCheckBox* m_logY = nullptr;
  QLabel* m_viewSummary = nullptr;
  QPushButton* m_regionRun = nullptr;
  bool m_regionParams = false;
  void updateRegionButton();
  QTabWidget* m_tabs = nullptr;
  std::vector<ViewSlot> m_views;
  std::string m_workload;
  std::string m_preferredImpl;
  std::set<std::string> m_otherOutput;  ///< implementations that compute another output than the reference
  ViewStyle m_style;
  std::shared_ptr<const RunOutcome> m_outcome;
  QString m_placeholder;
};

}  // namespace launchlab::ui
