#include "window/roofline_wiring.h"

#include <QTabWidget>

#include "explorer/roofline_view.h"
#include "launchlab/explorer/run_compare.h"
#include "runs/history_pane.h"
#include "runs/run_history.h"
#include "window/desk.h"

namespace launchlab::ui {

RooflineWiring::RooflineWiring(Desk& desk, RunController& controller, Backend& backend, QObject* parent)
    : QObject(parent), m_desk(desk), m_controller(controller), m_backend(backend) {
  connect(&m_controller, &RunController::ceilingsReady, this, [this](const Ceilings& c) {
    const DeviceStatus d = m_backend.deviceStatus();
    if (!c.valid())
      m_desk.log("roofline: no ceilings measured (" + QString::fromStdString(c.problem) +
                 "): datasheet ceilings shown");
    else
      m_desk.log("roofline: " + QString::fromStdString(c.label()) +
                 QString(": copy %1 GB/s, FP32 %2 GFLOP/s").arg(c.copyGBs, 0, 'f', 0).arg(c.fp32Gflops, 0, 'f', 0));
    m_desk.rooflineView()->setCeilings(c.valid() ? c : datasheetCeilingsFor(d), d.available);
  });
  connect(m_desk.bottomTabs(), &QTabWidget::currentChanged, this, [this] {
    if (m_desk.tabShown(m_desk.rooflineView())) updateCeilings(true);
  });
}

void RooflineWiring::updateCeilings(bool ask) {
  const DeviceStatus d = m_backend.deviceStatus();
  if (!ask) m_asked = false;  // the device changed: ask again when the tab is next shown
  if (!d.available || !ask) {
    m_desk.rooflineView()->setCeilings(datasheetCeilingsFor(d), d.available);
    if (d.available && m_desk.tabShown(m_desk.rooflineView())) updateCeilings(true);
    return;
  }
  if (m_asked) return;
  m_asked = true;
  m_desk.log("roofline: measuring the ceilings of " + QString::fromStdString(d.info.name) +
             " (copy bandwidth, FP32 FMA peak), once per device");
  m_controller.requestCeilings();
}

void RooflineWiring::showRun(const RunResult& r) {
  std::vector<std::pair<QString, RunResult>> earlier;
  for (const auto& e : m_desk.historyPane()->history().entries())
    if (e.result().timestamp != r.timestamp)
      earlier.emplace_back("#" + QString::number(e.number), withoutArrays(e.result()));
  m_desk.rooflineView()->setHistory(std::move(earlier));
  m_desk.rooflineView()->setRun(r);
}

}  // namespace launchlab::ui
