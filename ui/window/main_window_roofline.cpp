// The window's Roofline tab: the ceilings (asked of the device once the tab is first shown, a datasheet's without a
// GPU), the run on screen and the History's runs.
#include <QTabWidget>

#include "history_pane.h"
#include "launchlab/run_compare.h"
#include "main_window.h"
#include "roofline_view.h"
#include "run_history.h"

namespace launchlab::ui {

void MainWindow::connectRoofline() {
  connect(m_controller, &RunController::ceilingsReady, this, [this](const Ceilings& c) {
    const DeviceStatus d = m_backend->deviceStatus();
    if (!c.valid())
      log("roofline: no ceilings measured (" + QString::fromStdString(c.problem) + "): datasheet ceilings shown");
    else
      log("roofline: " + QString::fromStdString(c.label()) +
          QString(": copy %1 GB/s, FP32 %2 GFLOP/s").arg(c.copyGBs, 0, 'f', 0).arg(c.fp32Gflops, 0, 'f', 0));
    m_roofline->setCeilings(c.valid() ? c : datasheetCeilingsFor(d), d.available);
  });
  connect(m_bottomTabs, &QTabWidget::currentChanged, this, [this] {
    if (m_bottomTabs->currentWidget() == m_roofline) updateCeilings(true);
  });
}

void MainWindow::updateCeilings(bool ask) {
  const DeviceStatus d = m_backend->deviceStatus();
  if (!ask) m_ceilingsAsked = false;  // the device changed: ask again when the tab is next shown
  if (!d.available || !ask) {
    m_roofline->setCeilings(datasheetCeilingsFor(d), d.available);
    if (d.available && m_bottomTabs->currentWidget() == m_roofline) updateCeilings(true);
    return;
  }
  if (m_ceilingsAsked) return;
  m_ceilingsAsked = true;
  log("roofline: measuring the ceilings of " + QString::fromStdString(d.info.name) +
      " (copy bandwidth, FP32 FMA peak), once per device");
  m_controller->requestCeilings();
}

void MainWindow::showRooflineRun(const RunResult& r) {
  std::vector<std::pair<QString, RunResult>> earlier;
  for (const auto& e : m_history->history().entries())
    if (e.result().timestamp != r.timestamp)
      earlier.emplace_back("#" + QString::number(e.number), withoutArrays(e.result()));
  m_roofline->setHistory(std::move(earlier));
  m_roofline->setRun(r);
}

bool MainWindow::showBottomTab(const QString& name) {
  for (int i = 0; i < m_bottomTabs->count(); ++i)
    if (m_bottomTabs->tabText(i).startsWith(name, Qt::CaseInsensitive)) {
      m_bottomTabs->setCurrentIndex(i);
      return true;
    }
  return false;
}

}  // namespace launchlab::ui
