// The view factory: a QCustomPlot view per PlotKind unless another factory was installed.
#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {
OutputViewFactory& factory() {
  static OutputViewFactory f = createQcpOutputView;
  return f;
}
}  // namespace

std::unique_ptr<OutputView> createQcpOutputView(PlotKind kind, QWidget* parent) {
  switch (kind) {
    case PlotKind::Waveform:
      return makeWaveformView(parent);
    case PlotKind::Scatter:
      return makeScatterView(parent);
    case PlotKind::Histogram:
      return makeHistogramView(parent);
    case PlotKind::Image:
      return makeImageView(parent);
    case PlotKind::Scalar:
      return makeScalarView(parent);
    case PlotKind::Series:
      return makeSeriesView(parent);
    case PlotKind::Points:
      return makePointsView(parent);
    case PlotKind::Timeline:
      return makeTimelineView(parent);
  }
  return makeWaveformView(parent);
}

std::unique_ptr<OutputView> createOutputView(PlotKind kind, QWidget* parent) { return factory()(kind, parent); }

void setOutputViewFactory(OutputViewFactory f) {
  factory() = f ? std::move(f) : OutputViewFactory(createQcpOutputView);
}

}  // namespace launchlab::ui
