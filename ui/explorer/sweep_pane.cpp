#include "explorer/sweep_pane.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cstring>
#include <iterator>

#include "explorer/crossover_view.h"
#include "explorer/sweep_heatmap.h"
#include "models/log_text.h"
#include "models/occupancy_curves.h"
#include "models/text.h"
#include "plots/sweep_chart.h"

namespace launchlab::ui {

namespace {

/// The grid axes the window offers: none (the block-size curve) or multiples of the SM count ("sm*k", sweep.h).
struct GridChoiceItem {
  const char* label;
  const char* axis;
};
constexpr GridChoiceItem kGridChoices[] = {
    {"Grid: auto (block-size curve)", ""},
    {"Grid: SMs \xC3\x97 1, 2, 4, 8, 16, 32 (heatmap)", "sm*1,sm*2,sm*4,sm*8,sm*16,sm*32"},
    {"Grid: SMs \xC3\x97 1\xE2\x80\xA6"
     "8 (heatmap)",
     "sm*1:sm*8:sm*1"},
    {"N: 2^10\xE2\x80\xA6"
     "2^26 against the CPU (crossover)",
     "n:"
     "2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26"},
};
constexpr const char* kNAxis = "n:";

/// A sweep whose only axis is N: drawn as the crossover plot once CPU and GPU points are in.
bool isNSweep(const ShownSweep& s) { return s.axes.size() == 1 && s.axes.front().field == "n"; }

QLabel* wrappedLabel(const char* style) {
  auto* l = new QLabel;
  l->setWordWrap(true);
  l->setStyleSheet(style);
  return l;
}
}  // namespace

std::vector<const ImplSpec*> sweepableImpls(const Workload& w) {
  std::vector<const ImplSpec*> out;
  for (const auto& impl : w.impls())
    if (impl.isGpu() && impl.usesLaunchConfig) out.push_back(&impl);
  return out;
}

SweepPane::SweepPane(RunController& controller, QWidget* parent) : QWidget(parent), m_controller(controller) {
  auto* sl = new QVBoxLayout(this);
  sl->setContentsMargins(0, 2, 0, 0);
  sl->addWidget(buildControls());
  m_unavailable = wrappedLabel("color: #8a5a00; font-weight: bold;");
  m_unavailable->setVisible(false);
  sl->addWidget(m_unavailable);
  m_message = wrappedLabel("color: #a00000; font-weight: bold;");
  m_message->setVisible(false);
  sl->addWidget(m_message);
  m_sourceLabel = wrappedLabel("");
  m_sourceLabel->setVisible(false);
  sl->addWidget(m_sourceLabel);
  m_stack = new QStackedWidget;
  m_chart = std::make_unique<SweepChart>(this);
  m_stack->addWidget(m_chart->widget());
  m_stack->addWidget(buildHeatmapPage());
  m_crossover = std::make_unique<CrossoverView>(this);
  m_stack->addWidget(m_crossover->widget());
  sl->addWidget(m_stack, 1);
  m_notes = wrappedLabel("color: #8a5a00;");
  sl->addWidget(m_notes);
  m_live.recorded = false;
  connect(&m_controller, &RunController::sweepPoint, this, &SweepPane::showPoint);
  connect(&m_controller, &RunController::sweepFinished, this, &SweepPane::finished);
}

SweepPane::~SweepPane() = default;  // m_reading waits for a read in progress (kMaxSweepJsonBytes, linear in points)

QWidget* SweepPane::buildControls() {
  auto* box = new QWidget;
  auto* rows = new QVBoxLayout(box);
  rows->setContentsMargins(0, 0, 0, 0);
  rows->setSpacing(2);
  auto* row = new QHBoxLayout;
  auto* view = new QHBoxLayout;
  rows->addLayout(row);
  rows->addLayout(view);
  auto compact = [](QComboBox* c, int chars) {
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(chars);
  };
  m_impl = new QComboBox;
  compact(m_impl, 14);
  m_impl->setToolTip("The CUDA implementation to time at every block size");
  m_grid = new QComboBox;
  compact(m_grid, 14);
  for (const auto& c : kGridChoices) m_grid->addItem(c.label, QString(c.axis));
  m_grid->setToolTip(
      "No grid axis: one curve over block sizes. SM multiples: every block size at each grid, as a heatmap");
  m_button = new QPushButton(
      "Sweep 32\xE2\x80\xA6"
      "1024 threads per block");
  m_button->setToolTip(sweepButtonTip());
  m_open = new QToolButton;
  m_open->setText("Open sweep");
  m_open->setPopupMode(QToolButton::InstantPopup);
  m_open->setToolTip("Show a recorded sweep (launchlab-cli sweep --json), e.g. a reference sweep shipped with the app");
  m_open->setMenu(new QMenu(m_open));
  connect(m_open->menu(), &QMenu::aboutToShow, this, &SweepPane::fillOpenMenu);
  m_source = new QComboBox;
  compact(m_source, 12);
  m_source->addItem("Your sweep");
  m_source->setToolTip("Your own sweep, or the recorded one opened: they are shown one at a time, never mixed");
  m_metric = new QComboBox;
  compact(m_metric, 12);
  for (SweepMetric m : {SweepMetric::TimeMs, SweepMetric::BandwidthGBs, SweepMetric::PercentOfCopy})
    m_metric->addItem(q(std::string(sweepMetricName(m))), int(m));
  m_metric->setToolTip(
      "What the heatmap colours: kernel time, GB/s, or GB/s as a share of the cudaMemcpy bandwidth "
      "measured in the same sweep");
  m_gpu = new QComboBox;
  compact(m_gpu, 12);
  m_gpu->setToolTip(
      "This sweep ran on several GPUs (the nodes of a cluster): each GPU's points are drawn on their own");
  m_gpuLabel = new QLabel("GPU");
  m_gpu->setVisible(false);
  m_gpuLabel->setVisible(false);
  row->addWidget(m_impl, 1);
  row->addWidget(m_grid, 1);
  row->addWidget(m_button);
  view->addWidget(m_open);
  view->addWidget(new QLabel("Show"));
  view->addWidget(m_source, 1);
  view->addWidget(new QLabel("Colour by"));
  view->addWidget(m_metric, 1);
  view->addWidget(m_gpuLabel);
  view->addWidget(m_gpu, 1);
  connect(m_button, &QPushButton::clicked, this, &SweepPane::sweepRequested);
  connect(m_impl, &QComboBox::currentIndexChanged, this,
          [this] { updateOccupancy(m_controller.backend().registry().find(m_workloadId)); });
  connect(m_grid, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (m_grid->itemData(i).toString().startsWith(kNAxis))
      m_button->setText("Sweep N against the CPU");
    else
      m_button->setText(i == 0 ? QString("Sweep 32\xE2\x80\xA6"
                                         "1024 threads per block")
                               : QString("Sweep block \xC3\x97 grid"));
  });
  connect(m_source, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
  connect(m_metric, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
  connect(m_gpu, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
  return box;
}

QWidget* SweepPane::buildHeatmapPage() {
  auto* split = new QSplitter(Qt::Horizontal);
  m_heatmap = std::make_unique<SweepHeatmap>(split);
  split->addWidget(m_heatmap->widget());
  m_details = wrappedLabel("");
  m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_details->setText("Click a cell: its launch, occupancy, waves and the gap to the prediction.");
  auto* scroll = new QScrollArea;  // a short window still shows every line, scrolled
  scroll->setWidget(m_details);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setMinimumWidth(200);
  split->addWidget(scroll);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);
  connect(m_heatmap.get(), &SweepHeatmap::cellClicked, this, &SweepPane::showCell);
  return split;
}

void SweepPane::showRecorded(bool recorded) { m_source->setCurrentIndex(recorded && m_recorded ? 1 : 0); }
void SweepPane::setGridChoice(int index) { m_grid->setCurrentIndex(index); }
void SweepPane::setMetric(SweepMetric m) { m_metric->setCurrentIndex(m_metric->findData(int(m))); }

const ShownSweep& SweepPane::shown() const {
  return m_source->currentIndex() == 1 && m_recorded ? *m_recorded : m_live;
}

void SweepPane::setMessage(const QString& text) {
  m_message->setText(text);
  m_message->setVisible(!text.isEmpty());
}

void SweepPane::updateGpuChoice(const ShownSweep& all) {
  const std::vector<std::string> gpus = gpusOf(all);
  const QString chosen = m_gpu->currentText();
  QStringList names;
  for (const auto& g : gpus) names << (g.empty() ? QString("no GPU named") : q(g));
  QStringList listed;
  for (int i = 0; i < m_gpu->count(); ++i) listed << m_gpu->itemText(i);
  if (listed != names) {
    const QSignalBlocker quiet(m_gpu);  // refresh() is already drawing
    m_gpu->clear();
    for (std::size_t i = 0; i < gpus.size(); ++i) m_gpu->addItem(names[int(i)], q(gpus[i]));
    m_gpu->setCurrentIndex(std::max(0, int(names.indexOf(chosen))));
  }
  m_gpu->setVisible(gpus.size() > 1);
  m_gpuLabel->setVisible(gpus.size() > 1);
}

const ShownSweep& SweepPane::visible(ShownSweep& oneGpu) const {
  if (m_gpu->count() < 2) return shown();
  oneGpu = onGpu(shown(), m_gpu->currentData().toString().toStdString());
  return oneGpu;
}

void SweepPane::refresh() {
  updateGpuChoice(shown());
  ShownSweep oneGpu;
  const ShownSweep& s = visible(oneGpu);
  const bool any = s.recorded || !s.points.empty();
  m_sourceLabel->setVisible(any);
  m_sourceLabel->setText(s.label());
  m_sourceLabel->setStyleSheet(
      s.recorded ? "background: #fff3cd; color: #5c4300; border: 1px solid #c9a227; padding: 3px; font-weight: bold;"
                 : "color: #0b4f8a; font-weight: bold;");
  m_stack->setCurrentIndex(s.hasGrid() ? 1 : 0);
  m_unavailable->setVisible(!m_unavailable->text().isEmpty() && !s.recorded);  // the recorded sweep needs no GPU
  m_metric->setEnabled(s.hasGrid());
  if (showCrossover(s)) return;
  const Workload* w = m_controller.backend().registry().find(s.workload.empty() ? m_workloadId : s.workload);
  const ImplSpec* spec = w ? w->findImpl(s.implId()) : nullptr;
  const QString impl = spec ? q(spec->title) : q(s.implId());
  const QString setup =
      s.recorded ? "recorded on " + q(s.device.available ? s.device.info.name : "no GPU") : m_liveSetup;
  if (s.hasGrid()) {
    const auto metric = SweepMetric(m_metric->currentData().toInt());
    // The label above says whose sweep it is; the title names the variant (and the live form's size).
    const QString title = s.recorded || setup.isEmpty() ? impl : QString("%1 (%2)").arg(impl, setup);
    m_heatmap->setMap(sweepMap(s.axes, s.points, s.implId(), metric, s.record.copyGBs), metric, title);
    m_details->setText("Click a cell: its launch, occupancy, waves and the gap to the prediction.");
    return;
  }
  // The whole sweep in one call: drawn once, however many points (point by point, it was drawn once per point).
  if (s.recorded) {
    m_chart->setOccupancy({}, {});  // the curve is this machine's theory for the variant picked, not the file's
    std::vector<SweepPoint> mine;
    const std::string id = s.implId();
    std::copy_if(s.points.begin(), s.points.end(), std::back_inserter(mine),
                 [&](const SweepPoint& p) { return p.implId == id; });
    m_chart->setPoints(impl, setup, std::move(mine));
    return;
  }
  updateOccupancy(m_controller.backend().registry().find(m_workloadId));
  if (s.points.empty() && m_liveTitle.isEmpty())
    m_chart->clear();
  else
    m_chart->setPoints(m_liveTitle, m_liveSetup, s.points);
}

bool SweepPane::showCrossover(const ShownSweep& s) {
  std::vector<std::string> fields;
  for (const auto& a : s.axes) fields.push_back(a.field);
  if (s.hasGrid() || std::find(fields.begin(), fields.end(), "n") == fields.end()) return false;
  const CrossoverPlot plot = crossoverPlot(fields, s.points);
  if (!plot.crossover) return false;
  m_stack->setCurrentIndex(2);
  const QString group = plot.crossover->group.empty() ? QString() : " [" + q(plot.crossover->group) + "]";
  m_crossover->setSweep(plot, q(s.workload) + " " + q(plot.crossover->gpuImpl) + " against the CPU" + group);
  return true;
}

void SweepPane::showCell(int point) {
  ShownSweep oneGpu;
  const ShownSweep& s = visible(oneGpu);
  if (point < 0 || std::size_t(point) >= s.points.size()) {
    m_details->setText("Nothing was run for this cell.");
    return;
  }
  const SweepCellReport r =
      cellReportOf(s, point, m_controller.backend().registry(), m_controller.backend().kernelRecords());
  QString html;
  for (std::size_t i = 0; i < r.lines.size(); ++i) {
    const QString line = q(r.lines[i]).toHtmlEscaped();
    html += i == 0 ? "<b>" + line + "</b>" : "<br>" + line;
  }
  m_details->setText(html);
}

void SweepPane::setWorkload(const Workload& w) {
  clear();
  m_workloadId.clear();  // the list's signals below must not draw the previous workload
  m_impl->clear();
  for (const ImplSpec* impl : sweepableImpls(w)) m_impl->addItem(q(impl->title), q(impl->id));
  m_workloadId = w.info().id;
  updateOccupancy(&w);
}

void SweepPane::updateOccupancy(const Workload* w) {
  const ImplSpec* spec = w ? w->findImpl(selectedImpl().toStdString()) : nullptr;
  if (!spec || shown().recorded) {
    m_chart->setOccupancy({}, {});
    return;
  }
  const DeviceStatus device = m_controller.backend().deviceStatus();
  const auto own = device.available ? profileForDevice(device.info) : std::nullopt;
  const WorkloadInfo& info = w->info();
  const OccupancyReport r =
      occupancyReport(info, *spec, m_controller.backend().kernelRecords(), own.value_or(defaultArchProfile()), true,
                      sweepBlocks(info.launchDims), GridChoice{std::nullopt, info.defaultN}, info.defaultDType);
  m_chart->setOccupancy(occupancyAxisLabel(r), occupancyCurves(r));
}

void SweepPane::updateControls(bool formOk) {
  const QString why =
      sweepBlockedReason(m_controller.backend().deviceStatus(), m_impl->count() > 0, formOk, m_controller.busy());
  m_button->setEnabled(why.isEmpty());
  m_impl->setEnabled(m_impl->count() > 0);
  m_button->setToolTip(why.isEmpty() ? sweepButtonTip() : why);
  // Reasons that last (no GPU, nothing to sweep) are said on the tab, not only in a disabled button's tooltip.
  const QString lasting = sweepBlockedReason(m_controller.backend().deviceStatus(), m_impl->count() > 0, true, false);
  m_unavailable->setText(lasting.isEmpty()
                             ? QString()
                             : "Sweeps are not available here: " + lasting + " (Open sweep shows a recorded one)");
  m_unavailable->setVisible(!lasting.isEmpty() && !shown().recorded);
}

void SweepPane::clear() {
  m_live = ShownSweep{};
  m_liveTitle.clear();
  m_liveSetup.clear();
  m_notes->clear();
  if (!shown().recorded) {
    m_chart->clear();
    refresh();
  }
}

QString SweepPane::unavailableText() const { return m_unavailable->text(); }

quint64 SweepPane::start(const Workload& w, const RunRequest& base, const QString& implIdIn, const QString& setupText) {
  QString implId = implIdIn;
  if (implId.isEmpty())
    if (const auto impls = sweepableImpls(w); !impls.empty()) implId = q(impls.front()->id);
  if (implId.isEmpty()) return 0;
  const ImplSpec* spec = w.findImpl(implId.toStdString());
  const DeviceStatus device = m_controller.backend().deviceStatus();
  if (m_grid->currentData().toString().startsWith(kNAxis)) return startNSweep(w, base, implId, setupText);
  std::string err;
  const auto grids = axisValues(m_grid->currentData().toString().toStdString(), &err, smCountForSweeps(device));
  const bool twoD = grids && !grids->empty() && !m_grid->currentData().toString().isEmpty();
  const auto blocks =
      sweepBlocks(w.info().launchDims, m_controller.backend().launchLimits().maxThreadsPerBlock, twoD ? 64 : 32);
  m_live = ShownSweep{};
  m_live.workload = w.info().id;
  m_live.device = device;
  m_live.axes = {{"block", {}}};
  for (const auto& b : blocks) m_live.axes[0].values.push_back(formatDim3(b));
  if (twoD) m_live.axes.push_back({"grid", *grids});
  m_liveTitle = q(spec ? spec->title : implId.toStdString());
  m_liveSetup = setupText;
  m_notes->clear();
  m_clock.start();
  showRecorded(false);
  refresh();
  const quint64 id =
      m_controller.startSweep(base, implId.toStdString(), blocks, twoD ? *grids : std::vector<std::string>{});
  emit logLine(sweepStartLine(id, implId, blocks.size(), twoD ? grids->size() : 0));
  return id;
}

quint64 SweepPane::startNSweep(const Workload& w, const RunRequest& base, const QString& implId,
                               const QString& setupText) {
  std::string err;
  const auto ns = axisValues(m_grid->currentData().toString().mid(int(std::strlen(kNAxis))).toStdString(), &err);
  if (!ns) return 0;
  // The GPU variant against every CPU implementation the workload has that ignores the launch (the emulated ones
  // run the launch itself, one thread at a time: not a CPU contender).
  std::vector<std::string> impls;
  for (const auto& impl : w.impls())
    if (!impl.isGpu() && !impl.usesLaunchConfig) impls.push_back(impl.id);
  impls.push_back(implId.toStdString());
  const ImplSpec* spec = w.findImpl(implId.toStdString());
  m_live = ShownSweep{};
  m_live.workload = w.info().id;
  m_live.device = m_controller.backend().deviceStatus();
  m_live.axes = {{"n", *ns}};
  m_liveTitle = q(spec ? spec->title : implId.toStdString()) + " against the CPU";
  m_liveSetup = setupText;
  m_notes->clear();
  m_clock.start();
  showRecorded(false);
  refresh();
  const quint64 id = m_controller.startNSweep(base, impls, *ns);
  emit logLine(nSweepStartLine(id, implId, impls.size() - 1, *ns));
  return id;
}

void SweepPane::showPoint(quint64, int index, int count, const SweepPoint& p) {
  m_live.points.push_back(p);
  emit logLine(sweepPointLine(index, count, p, isNSweep(m_live)));
  m_notes->setText(sweepNotesText(m_live.points));
  if (shown().recorded) return;
  // Points of several GPUs: the curve is redrawn with the chosen GPU's alone (visible).
  const bool severalGpus = std::any_of(m_live.points.begin(), m_live.points.end(),
                                       [&](const SweepPoint& o) { return o.deviceName != p.deviceName; });
  if (m_live.hasGrid() || isNSweep(m_live) || severalGpus)
    refresh();
  else {
    m_chart->addPoint(p);
    m_sourceLabel->setVisible(true);
    m_sourceLabel->setText(m_live.label());
  }
}

void SweepPane::finished(quint64, bool cancelled) {
  emit logLine(sweepFinishedLine(cancelled, m_clock.elapsed() / 1000.0));
  if (!shown().recorded && m_live.hasGrid()) m_heatmap->pickBest();
}

void SweepPane::setViewStyle(const ViewStyle& s) {
  m_chart->setViewStyle(s);
  m_heatmap->setViewStyle(s);
  m_crossover->setViewStyle(s);
}

QString SweepPane::selectedImpl() const { return m_impl->currentData().toString(); }
const std::vector<SweepPoint>& SweepPane::points() const { return m_live.points; }
QString SweepPane::notes() const { return m_notes->text(); }
QString SweepPane::sourceText() const { return m_sourceLabel->isVisibleTo(this) ? m_sourceLabel->text() : QString(); }
QString SweepPane::messageText() const { return m_message->isVisibleTo(this) ? m_message->text() : QString(); }
QString SweepPane::detailsText() const { return m_details->text(); }
bool SweepPane::heatmapShown() const { return m_stack->currentIndex() == 1; }
bool SweepPane::crossoverShown() const { return m_stack->currentIndex() == 2; }

}  // namespace launchlab::ui
