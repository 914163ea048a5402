#pragma once
/// The Roofline tab: every implementation of the run on screen (and, ticked, the History's runs) placed
/// at its arithmetic intensity (FLOP/byte) and achieved GFLOP/s on log-log axes, under the memory roof (copy
/// bandwidth x intensity) and the compute roof (FP32 FMA peak), with the ridge point between them. The ceilings come
/// from the device, measured once per session through the controller (RunController::requestCeilings), or, without
/// a GPU, from the datasheet of an architecture profile's GPU; where they come from is written on the plot.
/// Implementations without a FLOP count are listed under the plot, not placed on it.
#include <QString>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "launchlab/explorer/roofline.h"
#include "plots/export.h"
#include "plots/view_style.h"

class QCheckBox;
class QCustomPlot;
class QCPTextElement;
class QLabel;

namespace launchlab::ui {

class PlotInteraction;

/// One implementation of one run on the roofline.
struct RooflineMark {
  QString label;  ///< "cuda-grid-stride", or "#3 cuda-grid-stride" for a History run
  bool gpu = false;
  bool current = true;  ///< of the run on screen (false: a History run)
  RooflinePoint point;
};

struct RooflineMarks {
  std::vector<RooflineMark> placed;
  QStringList noFlopCount;  ///< implementations that ran but have no FLOP count (or moved no bytes)
};

/// The implementations of `r` that ran, placed under `c` (their kernel time for CUDA, CPU time for CPU);
/// `tag` prefixes the labels ("#3 ").
RooflineMarks rooflineMarks(const RunResult& r, const Ceilings& c, const QString& tag = {}, bool current = true);
/// "cuda-grid-stride (GPU): 0.083 FLOP/byte, 83.9 GFLOP/s, 1007 GB/s, memory-bound, 101 % of the roof"
QString rooflineReadout(const RooflineMark& m);
/// The ceilings to draw without measured ones: the datasheet of the device's profile, else of the default one.
Ceilings datasheetCeilingsFor(const DeviceStatus& device);
/// "Ceilings measured on NVIDIA H200, 2026-11-24" or "Ceilings theoretical: datasheet of NVIDIA H100 SXM5 (no GPU
/// here)".
QString ceilingsProvenance(const Ceilings& c, bool gpuPresent);

class RooflineView final : public QWidget, public Renderable {
  Q_OBJECT
 public:
  explicit RooflineView(QWidget* parent = nullptr);
  ~RooflineView() override;
  /// The ceilings drawn; `gpuPresent` false adds "(no GPU here)" to a datasheet's provenance.
  void setCeilings(const Ceilings& c, bool gpuPresent);
  void setRun(const RunResult& r);
  /// Earlier runs shown faded when "History runs" is ticked, each with its tag ("#3 ").
  void setHistory(std::vector<std::pair<QString, RunResult>> runs);
  void setViewStyle(const ViewStyle& s);
  void render(QCPPainter& painter, const QSize& size) override;
  QString exportTitle() const override;

  const Ceilings& ceilings() const { return m_ceilings; }
  const std::vector<RooflineMark>& marks() const { return m_marks; }
  QString provenanceText() const;
  QString noFlopText() const;
  /// A run measured on another GPU than the ceilings' (a run file opened here): says so; "" otherwise.
  QString otherDeviceNote() const;
  /// The readout for the mouse at plot coordinates (intensity, GFLOP/s): the nearest mark within 12 pixels.
  QString readoutAt(double intensity, double gflops) const;
  QCheckBox* historyBox() const { return m_historyBox; }
  QCustomPlot* plot() const { return m_plot; }

 private:
  void rebuild();
  void drawRoofs(double xLo, double xHi);
  void drawMarks();
  void fitAxes(double& xLo, double& xHi);
  QCustomPlot* m_plot = nullptr;
  QCPTextElement* m_title = nullptr;
  QCPTextElement* m_provenance = nullptr;
  QLabel* m_noFlop = nullptr;
  QCheckBox* m_historyBox = nullptr;
  PlotInteraction* m_interaction = nullptr;
  Ceilings m_ceilings;
  bool m_gpuPresent = false;
  RunResult m_run;
  bool m_haveRun = false;
  std::vector<std::pair<QString, RunResult>> m_history;
  std::vector<RooflineMark> m_marks;
  QStringList m_noFlopCount;
  ViewStyle m_style;
};

}  // namespace launchlab::ui
