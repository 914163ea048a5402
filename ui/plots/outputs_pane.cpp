#include "plots/outputs_pane.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "models/text.h"
#include "plots/lesson_data.h"
#include "plots/line_counters.h"
#include "plots/line_counters_view.h"

namespace launchlab::ui {

namespace {

bool keptArrays(const RunResult& r) {
  return !r.inputs.empty() ||
         std::any_of(r.impls.begin(), r.impls.end(), [](const ImplResult& i) { return !i.outputs.empty(); });
}
std::optional<double> exactScalar(const WorkloadInfo& info) {
  for (const auto& o : info.outputs)
    if (o.plot == PlotKind::Scalar && o.referenceValue) return o.referenceValue;
  return std::nullopt;
}
bool producedOutputs(const ImplResult& i) {
  return i.status == Status::Ok && (!i.outputs.empty() || !i.blockTrace.empty());
}
}  // namespace

OutputsPane::OutputsPane(QWidget* parent) : QWidget(parent) {
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  m_bar = new QWidget;
  m_bar->setLayout(buildBar());
  m_bar->layout()->setContentsMargins(0, 0, 0, 0);
  lay->addWidget(m_bar);
  m_tabs = new QTabWidget;
  m_tabs->setDocumentMode(true);
  m_tabs->setElideMode(Qt::ElideRight);
  m_tabs->setUsesScrollButtons(true);
  lay->addWidget(m_tabs, 1);
  connect(m_tabs, &QTabWidget::currentChanged, this, &OutputsPane::showSummary);
  connect(m_tabs, &QTabWidget::currentChanged, this, &OutputsPane::currentViewChanged);
}

OutputsPane::~OutputsPane() {
  // Views delete their plots, which removes tabs (a shown pane then shows and replots the next plot, whose axes
  // change): no signal may reach this half-destroyed pane.
  m_tabs->disconnect(this);
  for (auto& s : m_views)
    if (auto* plot = qobject_cast<QCustomPlot*>(s.view->widget())) plot->xAxis->disconnect(this);
  m_views.clear();
}

QHBoxLayout* OutputsPane::buildBar() {
  auto* bar = new QHBoxLayout;
  m_showImpl = new QComboBox;
  m_showImpl->setToolTip("Which implementation's outputs the plots show");
  m_showImpl->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_showImpl->setMinimumContentsLength(16);
  m_overlayRef = new QCheckBox("Overlay reference");
  m_overlayRef->setChecked(true);
  m_overlayRef->setToolTip("Draw cpu-serial (the reference) under the shown implementation: any difference shows");
  m_logY = new QCheckBox("Log y");
  m_logY->setToolTip("Logarithmic value axis");
  auto* reset = new QPushButton("Reset zoom");
  reset->setToolTip(
      "Wheel: zoom; drag: pan; right-drag or Shift+drag: zoom to a box. Waveforms stay min/max "
      "decimated per pixel at every zoom.");
  auto* all = new QPushButton("Show all");
  all->setToolTip("The whole array (random data starts on its first elements, inputs beside the output)");
  m_regionRun = new QPushButton("Re-run this region");
  m_regionRun->setToolTip(
      "Zoom into the image (wheel, or right-drag a box), then compute the part in view again at "
      "full resolution: sets x_min, y_min and step and runs");
  m_regionRun->setVisible(false);
  m_viewSummary = new QLabel;
  m_viewSummary->setStyleSheet("color: palette(mid);");
  m_viewSummary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // never widens the window
  bar->addWidget(new QLabel("Show"));
  bar->addWidget(m_showImpl);
  bar->addWidget(m_overlayRef);
  bar->addWidget(m_logY);
  bar->addWidget(reset);
  bar->addWidget(all);
  bar->addWidget(m_regionRun);
  bar->addWidget(m_viewSummary, 1);
  connect(m_showImpl, &QComboBox::currentIndexChanged, this, [this] { refreshViews(); });
  connect(m_overlayRef, &QCheckBox::toggled, this, [this] { refreshViews(); });
  connect(m_logY, &QCheckBox::toggled, this, [this](bool on) {
    for (auto& s : m_views) s.view->setLogY(on);
  });
  connect(reset, &QPushButton::clicked, this, [this] {
    for (auto& s : m_views) {
      s.view->forgetUserZoom();
      s.view->resetZoom();
    }
  });
  connect(all, &QPushButton::clicked, this, [this] {
    for (auto& s : m_views) {
      s.view->forgetUserZoom();
      s.view->showAll();
    }
  });
  connect(m_regionRun, &QPushButton::clicked, this, [this] {
    const int i = currentIndex();
    if (i < 0 || i >= viewCount()) return;
    if (const auto w = view(i)->imageWindow()) emit regionRequested(*w);
  });
  return bar;
}

QString OutputsPane::tabText(int i) const { return m_tabs->tabText(i); }

std::string OutputsPane::viewName(int i) const {
  if (i < 0 || i >= viewCount()) return {};
  const ViewSlot& s = m_views[std::size_t(i)];
  return s.source == "input" ? "input:" + s.spec.name : s.spec.name;
}

int OutputsPane::indexOfView(const std::string& name) const {
  for (int i = 0; i < viewCount(); ++i)
    if (viewName(i) == name) return i;
  return -1;
}

void OutputsPane::setBarVisible(bool on) {
  m_bar->setVisible(on);
  m_tabs->tabBar()->setVisible(on);  // the stage shows one view (F6 the next): its name is the plot's title
}
int OutputsPane::currentIndex() const { return m_tabs->currentIndex(); }

void OutputsPane::setCurrentIndex(int i) {
  if (i >= 0 && i < m_tabs->count()) m_tabs->setCurrentIndex(i);
}

int OutputsPane::liveViewIndex() const {
  const int front = currentIndex();
  if (front >= 0 && front < viewCount() && !view(front)->drawPath().isEmpty()) return front;
  for (PlotKind k : {PlotKind::Points, PlotKind::Image, PlotKind::Histogram, PlotKind::Waveform})
    for (int i = 0; i < viewCount(); ++i)
      if (m_views[std::size_t(i)].kind == SlotKind::Array && m_views[std::size_t(i)].spec.plot == k &&
          !view(i)->drawPath().isEmpty())
        return i;
  return front;
}
std::string OutputsPane::shownImpl() const { return m_showImpl->currentData().toString().toStdString(); }

void OutputsPane::setWorkload(const Workload& w, const QString& message) {
  if (m_workload == w.info().id) return;
  m_regionParams = hasRegionParams(w.info());
  rebuildViews(w);
  markStale(message);
}

void OutputsPane::markStale(const QString& reason) {
  m_outcome.reset();
  m_placeholder = reason;
  {
    QSignalBlocker block(m_showImpl);
    m_showImpl->clear();
  }
  m_showImpl->setEnabled(false);
  for (auto& s : m_views) s.view->showMessage(reason);
  m_viewSummary->setText(reason.isEmpty() ? QString() : "no run shown");
}

void OutputsPane::showRunning() {
  if (m_outcome) return;  // the last run of this workload stays until the new one arrives
  markStale("Running\xE2\x80\xA6");
}

QString OutputsPane::summaryText() const { return m_viewSummary->text(); }

void OutputsPane::addView(const ArraySpec& spec, const std::string& source, const QString& tabTitle, const QString& tip,
                          std::unique_ptr<OutputView> view, SlotKind kind) {
  ViewSlot s{spec, source, view ? std::move(view) : createOutputView(spec.plot, m_tabs), kind};
  const int tab = m_tabs->addTab(s.view->widget(), tabTitle);
  if (!tip.isEmpty()) m_tabs->setTabToolTip(tab, tip);
  s.view->setViewStyle(m_style);
  s.view->setLogY(m_logY->isChecked());
  // Zoom and pan change what is visible: the summary follows (the view updates its own first).
  if (auto* plot = qobject_cast<QCustomPlot*>(s.view->widget()))
    connect(plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this] { showSummary(m_tabs->currentIndex()); });
  m_views.push_back(std::move(s));
}

void OutputsPane::rebuildViews(const Workload& w) {
  m_tabs->clear();
  m_views.clear();
  const auto& info = w.info();
  m_otherOutput.clear();
  for (const auto& impl : w.impls())
    if (!impl.sameOutputAsReference) m_otherOutput.insert(impl.id);
  // A lesson told by its metrics rather than an array has its view first (go_fast: the first call's compile).
  if (timesFirstCall(info))
    addView({.name = kFirstCallView, .title = "First call (compile + load + cold call) against a later call"}, "",
            "First call", "The first call, with its compile, against the median of the later calls",
            makeFirstCallView(m_tabs), SlotKind::Metrics);
  for (ArraySpec spec : info.outputs) {
    const QString title = q(spec.title.empty() ? spec.name : spec.title);
    // A series of estimates converges to the exact value of the workload's scalar result (e.g. pi).
    if (spec.plot == PlotKind::Series && !spec.referenceValue) spec.referenceValue = exactScalar(info);
    // The coalescing lesson's picture: both kernels side by side, each named with its sectors per request.
    addView(spec, "", title.size() > 40 ? q(spec.name) : title, title,
            isSectorPicture(info, spec) ? makeSectorMapView(m_tabs) : nullptr);
  }
  // Inputs are drawn as waveforms, images as images; scalar inputs have no tab.
  for (const auto& spec : info.inputs) {
    if (spec.plot == PlotKind::Scalar) continue;
    ArraySpec in = spec;
    if (in.plot != PlotKind::Image) in.plot = PlotKind::Waveform;
    addView(in, "input", "input: " + q(spec.name), {});
  }
  m_workload = info.id;
}

void OutputsPane::setOutcome(std::shared_ptr<const RunOutcome> outcome, bool live) {
  m_outcome = std::move(outcome);
  m_placeholder.clear();
  m_showImpl->setEnabled(true);
  syncExtraTabs(m_outcome->result);
  fillShowList(m_outcome->result);
  refreshViews(live);
}

void OutputsPane::syncExtraTabs(const RunResult& r) {
  const bool traced =
      std::any_of(r.impls.begin(), r.impls.end(), [](const ImplResult& i) { return !i.blockTrace.empty(); });
  if (syncTab(SlotKind::Blocks, traced, {.name = "block_trace", .title = "Blocks on SMs"},
              "Where and when each block of the traced launch ran: one lane per SM, one bar per block",
              makeBlocksOnSmsView))
    m_tabs->setCurrentWidget(m_views.back().view->widget());  // the trace is what a traced run was asked for
  syncTab(SlotKind::Lines, !implsWithLines(r).empty(), {.name = "per_line", .title = "Per line"},
          "Each source line's memory accesses, measured from the kernel's own accesses: sectors per request, bank "
          "conflicts, active lanes; the costliest line highlighted",
          makeLineCountersOutputView);
}

bool OutputsPane::syncTab(SlotKind kind, bool wanted, const ArraySpec& spec, const QString& tip,
                          std::unique_ptr<OutputView> (*make)(QWidget*)) {
  const auto slot = std::find_if(m_views.begin(), m_views.end(), [kind](const ViewSlot& v) { return v.kind == kind; });
  if (wanted && slot == m_views.end()) {
    addView(spec, "", q(spec.title), tip, make(m_tabs), kind);
    return true;
  }
  if (!wanted && slot != m_views.end()) {
    m_tabs->removeTab(m_tabs->indexOf(slot->view->widget()));
    m_views.erase(slot);
  }
  return false;
}

void OutputsPane::fillShowList(const RunResult& r) {
  const QString previous = m_showImpl->currentData().toString();
  QSignalBlocker block(m_showImpl);
  m_showImpl->clear();
  for (const auto& i : r.impls)
    if (producedOutputs(i)) m_showImpl->addItem(q(i.title), q(i.implId));
  int pick = m_showImpl->findData(previous);
  // An experiment's declared implementation (the one its view teaches with) wins once, at its first run.
  if (const int preferred = m_showImpl->findData(q(std::exchange(m_preferredImpl, {}))); preferred >= 0)
    pick = preferred;
  // A GPU variant first, else a launch emulated on the CPU (what a GPU would have written), else cpu-parallel.
  for (bool gpu : {true, false})
    for (const auto& i : r.impls)
      if (pick < 0 && producedOutputs(i) && (gpu ? i.gpu : i.launch.has_value()))
        pick = m_showImpl->findData(q(i.implId));
  if (pick < 0) pick = m_showImpl->findData("cpu-parallel");
  m_showImpl->setCurrentIndex(std::max(0, pick));
}

QString OutputsPane::viewDataFor(const ViewSlot& s, ViewData& d) const {
  const RunResult& r = m_outcome->result;
  if (s.kind == SlotKind::Lines) {  // counters, not arrays: shown whether or not outputs were kept
    d.outcome = m_outcome;
    d.source = shownImpl();
    return {};
  }
  if (!keptArrays(r) && s.kind == SlotKind::Array)
    return r.status == Status::Ok ? "Outputs were not kept for this size (see the log)" : "No outputs: " + q(r.reason);
  const bool input = s.source == "input";
  d.spec = resolvedForParams(s.spec, r.params);  // a reference that depends on a parameter (shape)
  d.outcome = m_outcome;
  d.source = input ? "input" : shownImpl();
  // A reference only over an implementation that computes the same output (not coalescing's contiguous kernel
  // against the strided reference: two different curves would read as a wrong GPU).
  const bool sameOutput = !m_otherOutput.contains(d.source);
  d.reference = input || !m_overlayRef->isChecked() || !sameOutput ? "" : std::string(kCpuSerial);
  d.colorIndex = 0;
  for (std::size_t i = 0; i < r.impls.size() && !input; ++i)
    if (r.impls[i].implId == d.source) d.colorIndex = int(i);
  if (d.source.empty())
    return "No implementation produced outputs" + (r.reason.empty() ? QString() : ": " + q(r.reason));
  return {};
}

void OutputsPane::refreshViews(bool live) {
  if (!m_outcome) return;
  for (auto& s : m_views) {
    ViewData d;
    const QString message = viewDataFor(s, d);
    if (message.isEmpty() && live)
      s.view->setLiveData(d);
    else if (message.isEmpty())
      s.view->setData(d);
    else
      s.view->showMessage(message);
  }
  showSummary(m_tabs->currentIndex());
}

void OutputsPane::showSummary(int tab) {
  m_viewSummary->setText(tab >= 0 && tab < int(m_views.size()) ? m_views[std::size_t(tab)].view->summary() : QString());
  updateRegionButton();
}

void OutputsPane::updateRegionButton() {
  const int i = currentIndex();
  m_regionRun->setVisible(m_regionParams && m_outcome && i >= 0 && i < viewCount() && view(i)->imageWindow());
}

void OutputsPane::setViewStyle(const ViewStyle& s) {
  m_style = s;
  for (auto& v : m_views) v.view->setViewStyle(m_style);
}

void OutputsPane::replotFirstNow() {
  if (m_views.empty()) return;
  if (auto* plot = qobject_cast<QCustomPlot*>(m_views.front().view->widget()))
    plot->replot(QCustomPlot::rpImmediateRefresh);
}

}  // namespace launchlab::ui
