// Live mode in the window: the Live toggle, the request of each frame, drawing frames as they arrive and the
// overlay (live_mode.h has the loop itself); and the OpenGL plots toggle (gl_views.h).
#include <QAction>
#include <QLabel>
#include <QStyle>
#include <QToolBar>

#include "banner.h"
#include "charts.h"
#include "device_imports.h"
#include "export_dialog.h"
#include "gl_views.h"
#include "live_mode.h"
#include "log_text.h"
#include "main_window.h"
#include "outputs_pane.h"
#include "param_panel.h"
#include "settings.h"
#include "sweep_pane.h"

namespace launchlab::ui {

void MainWindow::addLiveAction(QToolBar* tb) {
  m_liveAct = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), "Live", this);
  m_liveAct->setCheckable(true);
  m_liveAct->setShortcut(QKeySequence("Ctrl+L"));
  m_liveAct->setShortcutContext(Qt::WindowShortcut);
  m_liveAct->setToolTip(
      "Live mode: run the shown implementation again and again, a new seed each frame, and draw "
      "every result as it arrives (Ctrl+L; Esc stops)");
  tb->addAction(m_liveAct);
  m_live = new LiveMode(
      *m_controller, [this](QString& why) { return liveRequest(why); }, this);
  m_liveOverlay = new LiveOverlay(m_outputs);
  connect(m_liveAct, &QAction::toggled, m_live, &LiveMode::setActive);
  connect(m_live, &LiveMode::activeChanged, this, [this](bool on) {
    const QSignalBlocker block(m_liveAct);
    m_liveAct->setChecked(on);
    onBusy(m_controller->busy());
    if (on) {
      m_outputs->setCurrentIndex(m_outputs->liveViewIndex());  // a view the frames are drawn in, not a bar
      stageForLive(true);
      m_timing->markStale("Timing: live mode \xE2\x80\x94 the last frame's timing shows when it stops (Esc)");
      log("live mode: a new seed every frame (Esc stops)");
      m_statusText->setText("Live\xE2\x80\xA6");
    } else {
      m_liveOverlay->hide();
      stageForLive(false);
    }
  });
  connect(m_live, &LiveMode::frameReady, this, [this](std::shared_ptr<const RunOutcome> o, const LiveStats& s) {
    showLiveFrame(o);
    const int i = m_outputs->currentIndex();
    OutputView* v = i >= 0 && i < m_outputs->viewCount() ? m_outputs->view(i) : nullptr;
    // The path's first words ("host upload", "QCustomPlot"): its whole line is under the plot.
    const QString path = v ? v->drawPath().section(':', 0, 0) : QString();
    QString text = liveStatsText(s) + (path.isEmpty() ? QString() : " \xC2\xB7 " + path);
    if (const Workload* w = m_backend->registry().find(o->request.workload)) {
      const QString scalars =
          liveScalarsText(w->info(), o->result, o->request.impls.empty() ? std::string() : o->request.impls.front());
      if (!scalars.isEmpty()) text += "\n" + scalars;  // the running estimate (Monte Carlo pi)
    }
    m_liveOverlay->showOver(v ? v->widget() : nullptr, text);
    m_statusText->setText(QString("Live: %1, seed %2").arg(QString::fromStdString(s.implTitle)).arg(s.seed));
  });
  connect(m_live, &LiveMode::failed, this, [this](const QString& m) {
    m_errorBanner->showMessage(Banner::Level::Error, m.toHtmlEscaped());
    log(m);
  });
  connect(m_live, &LiveMode::stopped, this, [this](const QString& summary) {
    log(summary);
    m_statusText->setText(summary.left(1).toUpper() + summary.mid(1));
    if (m_last) showOutcome(m_last);  // timing, tables and verification of the last frame
  });
}

void MainWindow::addGlAction(QToolBar* tb) {
  m_glAct = new QAction("OpenGL plots", this);
  m_glAct->setCheckable(true);
  m_glAct->setChecked(!m_options.noGl && m_settings->drawPlotsWithGl());
  m_glAct->setEnabled(!m_options.noGl);
  m_glAct->setToolTip(m_options.noGl
                          ? "Draw plots with OpenGL: off for this session (--no-gl)"
                          : "Draw plots with OpenGL: waveforms, histograms, images and points are drawn by the "
                            "GL renderer on a thread of its own; off: QCustomPlot draws them. Each plot says "
                            "which path draws it, bottom right.");
  tb->addAction(m_glAct);
  auto apply = [this](bool on) {
    GlViews::instance().configure(on, m_options.noGl ? "--no-gl" : "setting: Draw plots with OpenGL is off");
  };
  connect(&GlViews::instance(), &GlViews::changed, this, [this] {
    if (GlViews::instance().state() != GlViews::State::Starting) log("plots: " + GlViews::instance().pathLine());
    updateDeviceImport();
  });
  // A run that ended in a CUDA fault has OpenGL checked before the next frame; each check is in the log.
  GlViews::instance().watch(*m_controller);
  connect(&GlViews::instance(), &GlViews::canaryChecked, this, [this](const QString& line, bool passed) {
    if (passed) log("plots: " + line);
  });
  apply(m_glAct->isChecked());
  connect(m_glAct, &QAction::toggled, this, [this, apply](bool on) {
    m_settings->setDrawPlotsWithGl(on);
    apply(on);
    log(on ? "plots drawn with OpenGL where it starts" : "plots drawn with QCustomPlot (OpenGL plots off)");
  });
}

void MainWindow::updateDeviceImport() {
  int ordinal = 0;
  const bool on = m_options.deviceImports && GlViews::instance().interop(&ordinal) && m_backend->runsInLocalWorker();
  if (on == m_controller->deviceImportOn()) return;
  if (!on) return m_controller->setDeviceImport(nullptr);
  // GPU outputs go from the worker's device memory to the GL views without a host round trip (device_imports.h).
  m_controller->setDeviceImport([ordinal](RunOutcome& o) { o.deviceImports = importDeviceOutputs(o.result, ordinal); });
  log("plots: GPU outputs are taken from the worker's device memory (CUDA IPC) for the GL views");
}

std::optional<RunRequest> MainWindow::liveRequest(QString& why) const {
  const FormCheck& c = m_panel->check();
  if (!c.ok() || !c.request) {
    why = cannotRunText(c);
    return std::nullopt;
  }
  RunRequest req = *c.request;
  req.userKernel.reset();  // live mode runs the built-in implementations
  const Workload* w = m_backend->registry().find(req.workload);
  if (!w) {
    why = "no workload selected";
    return std::nullopt;
  }
  std::string shown = m_outputs->shownImpl();
  if (shown == kMyKernel) shown.clear();
  req.impls = {liveImplOf(*w, req, shown, m_backend->deviceStatus().available)};
  std::string note;
  if (!mayKeepArraysOf(*w, req, note)) {
    why = "live mode draws every frame, but " + QString::fromStdString(note);
    return std::nullopt;
  }
  return req;
}

void MainWindow::showLiveFrame(std::shared_ptr<const RunOutcome> outcome) {
  std::shared_ptr<const RunOutcome> previous = std::exchange(m_last, std::move(outcome));
  m_recordedBanner->hide();
  if (const Workload* w = m_backend->registry().find(m_last->result.workload)) m_outputs->setWorkload(*w, {});
  m_outputs->setOutcome(m_last, /*live=*/true);
  if (m_export) m_export->setRun(m_last, m_sweep->points());
  m_controller->disposeLater(std::move(previous));
  if (m_waitingFirstPlot) measureFirstPlot();
}

}  // namespace launchlab::ui
