#include "sweep_pane.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "charts.h"
#include "log_text.h"
#include "occupancy_curves.h"

namespace launchlab::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
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
  auto* srow = new QHBoxLayout;
  m_impl = new QComboBox;
  m_impl->setToolTip("The CUDA implementation to time at every block size");
  m_button = new QPushButton("Sweep 32\xE2\x80\xA6" "1024 threads per block");
  m_button->setToolTip(sweepButtonTip());
  srow->addWidget(new QLabel("Implementation"));
  srow->addWidget(m_impl, 1);
  srow->addWidget(m_button);
  sl->addLayout(srow);
  m_unavailable = new QLabel;
  m_unavailable->setWordWrap(true);
  m_unavailable->setStyleSheet("color: #8a5a00; font-weight: bold;");
  m_unavailable->setVisible(false);
  sl->addWidget(m_unavailable);
  m_chart = std::make_unique<SweepChart>(this);
  sl->addWidget(m_chart->widget(), 1);
  m_notes = new QLabel;
  m_notes->setWordWrap(true);
  m_notes->setStyleSheet("color: #8a5a00;");
  sl->addWidget(m_notes);
  connect(m_button, &QPushButton::clicked, this, &SweepPane::sweepRequested);
  connect(m_impl, &QComboBox::currentIndexChanged, this,
          [this] { updateOccupancy(m_controller.backend().registry().find(m_workloadId)); });
  connect(&m_controller, &RunController::sweepPoint, this, &SweepPane::showPoint);
  connect(&m_controller, &RunController::sweepFinished, this, &SweepPane::finished);
}

SweepPane::~SweepPane() = default;

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
  if (!spec) {
    m_chart->setOccupancy({}, {});
    return;
  }
  const DeviceStatus device = m_controller.backend().deviceStatus();
  const auto own = device.available ? profileForDevice(device.info) : std::nullopt;
  const WorkloadInfo& info = w->info();
  const OccupancyReport r = occupancyReport(info, *spec, m_controller.backend().kernelRecords(),
                                            own.value_or(defaultArchProfile()), true, sweepBlocks(info.launchDims),
                                            GridChoice{std::nullopt, info.defaultN}, info.defaultDType);
  m_chart->setOccupancy(occupancyAxisLabel(r), occupancyCurves(r));
}

void SweepPane::updateControls(bool formOk) {
  const QString why = sweepBlockedReason(m_controller.backend().deviceStatus(), m_impl->count() > 0, formOk, m_controller.busy());
  m_button->setEnabled(why.isEmpty());
  m_impl->setEnabled(m_impl->count() > 0);
  m_button->setToolTip(why.isEmpty() ? sweepButtonTip() : why);
  // Reasons that last (no GPU, nothing to sweep) are said on the tab, not only in a disabled button's tooltip.
  const QString lasting = sweepBlockedReason(m_controller.backend().deviceStatus(), m_impl->count() > 0, true, false);
  m_unavailable->setText(lasting.isEmpty() ? QString() : "Block-size sweeps are not available: " + lasting);
  m_unavailable->setVisible(!lasting.isEmpty());
}

void SweepPane::clear() {
  m_chart->clear();
  m_notes->clear();
}

QString SweepPane::unavailableText() const { return m_unavailable->text(); }

quint64 SweepPane::start(const Workload& w, const RunRequest& base, const QString& implIdIn, const QString& setupText) {
  QString implId = implIdIn;
  if (implId.isEmpty())
    if (const auto impls = sweepableImpls(w); !impls.empty()) implId = q(impls.front()->id);
  if (implId.isEmpty()) return 0;
  const ImplSpec* spec = w.findImpl(implId.toStdString());
  const auto blocks = sweepBlocks(w.info().launchDims, m_controller.backend().launchLimits().maxThreadsPerBlock);
  m_chart->begin(q(spec ? spec->title : implId.toStdString()), setupText);
  m_notes->clear();
  m_clock.start();
  const quint64 id = m_controller.startSweep(base, implId.toStdString(), blocks);
  emit logLine(sweepStartLine(id, implId, blocks.size()));
  return id;
}

void SweepPane::showPoint(quint64, int index, int count, const SweepPoint& p) {
  m_chart->addPoint(p);
  emit logLine(sweepPointLine(index, count, p));
  m_notes->setText(sweepNotesText(m_chart->points()));
}

void SweepPane::finished(quint64, bool cancelled) { emit logLine(sweepFinishedLine(cancelled, m_clock.elapsed() / 1000.0)); }

void SweepPane::setViewStyle(const ViewStyle& s) { m_chart->setViewStyle(s); }

QString SweepPane::selectedImpl() const { return m_impl->currentData().toString(); }
const std::vector<SweepPoint>& SweepPane::points() const { return m_chart->points(); }
QString SweepPane::notes() const { return m_notes->text(); }

}  // namespace launchlab::ui
