#pragma once
/// The timing comparison: a horizontal bar per implementation, stacked by phase, min-max whiskers, speedup labels,
/// log toggle. The block-size sweep chart is its neighbour, plots/sweep_chart.h.
#include <QFont>
#include <QPointer>
#include <QWidget>
#include <optional>
#include <vector>

#include "models/chart_data.h"
#include "plots/export.h"
#include "plots/view_style.h"

class QCustomPlot;
class QCPTextElement;

class QCPAxisTickerText;

namespace launchlab::ui {

class TimingChart final : public Renderable {
 public:
  explicit TimingChart(QWidget* parent);
  ~TimingChart() override;
  QWidget* widget();
  void setResult(const RunResult& r);
  void clear();
  /// Drops the bars and says why in the title (e.g. another workload was picked).
  void markStale(const QString& reason);
  QString titleText() const;
  void setLogScale(bool on);
  bool logScale() const { return m_log; }
  /// Where the lesson is the kernel: each bar starts with its kernel time and says it first, copies after it; the
  /// time axis turns logarithmic while the kernels would be slivers beside the copies (kernelsHidden).
  void setKernelFirst(bool on);
  bool kernelFirst() const { return m_kernelFirst; }
  /// Where the lesson is the GPU bars' phases: the linear time axis fits the GPU bars, CPU bars run past its end
  /// (fitToGpuBars); a log axis shows them all.
  void setGpuFit(bool on);
  bool gpuFit() const { return m_gpuFit; }
  /// The time axis is logarithmic: asked for, or kernel-first with kernels too short to see on a linear one.
  bool logAxis() const;
  void setViewStyle(const ViewStyle& s);
  void projectAs(const ViewStyle* style) override;
  void render(QCPPainter& painter, const QSize& size) override;
  QString exportTitle() const override;
  const TimingChartData& data() const { return m_data; }

 private:
  void rebuild();
  TimingAxis setupAxes(double unit);
  void addPhaseBars(const TimingAxis& axis, double unit);
  /// m_data from m_raw: kernel first or not, fitted to the GPU bars or not.
  void refit();
  void addWhiskers(double unit, const TimingAxis& axis);
  void markClipped(double x, double key);
  QString barLabelText(int bar) const;
  QFont barLabelFont(int bar) const;
  double labelFraction(QCPAxisTickerText& keyTicks) const;
  void fitHeight(QCPAxisTickerText& keyTicks);
  QString barReadout(double key) const;
  void addBarLabel(int bar, double base, double unit, const TimingAxis& axis);
  QPointer<QCustomPlot> m_plot;
  QCPTextElement* m_title = nullptr;
  TimingChartData m_data, m_raw;  ///< as drawn; as measured (phase order, plain labels)
  std::string m_workloadTitle;
  QString m_stale;
  ViewStyle m_style;
  bool m_log = false;
  bool m_kernelFirst = false;
  bool m_gpuFit = false;
  std::optional<ViewStyle> m_ownStyle;  ///< while projected (projectAs): the style to return to
};

}  // namespace launchlab::ui
