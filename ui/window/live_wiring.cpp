#include "window/live_wiring.h"

#include <QAction>
#include <QLabel>
#include <QStyle>
#include <QToolBar>

#include "gl/device_imports.h"
#include "gl/gl_views.h"
#include "gl/live_mode.h"
#include "models/log_text.h"
#include "models/settings.h"
#include "plots/charts.h"
#include "plots/outputs_pane.h"
#include "window/banner.h"
#include "window/desk.h"
#include "window/param_panel.h"
#include "window/results_presenter.h"

namespace launchlab::ui {

LiveWiring::LiveWiring(Desk& desk, RunController& controller, Backend& backend, AppSettings& settings,
                       ResultsPresenter& results, bool noGl, bool deviceImports, QWidget* window)
    : QObject(window),
      m_desk(desk),
      m_controller(controller),
      m_backend(backend),
      m_settings(settings),
      m_results(results),
      m_noGl(noGl),
      m_deviceImports(deviceImports),
      m_window(window) {}

bool LiveWiring::active() const { return m_live && m_live->active(); }

void LiveWiring::addLiveAction(QToolBar* tb) {
  m_liveAct = new QAction(m_window->style()->standardIcon(QStyle::SP_BrowserReload), "Live", m_window);
  m_liveAct->setCheckable(true);
  m_liveAct->setShortcut(QKeySequence("Ctrl+L"));
  m_liveAct->setShortcutContext(Qt::WindowShortcut);
  m_liveAct->setToolTip(
      "Live mode: run the shown implementation again and again, a new seed each frame, and draw "
      "every result as it arrives (Ctrl+L; Esc stops)");
  tb->addAction(m_liveAct);
  m_live = new LiveMode(
      m_controller, [this](QString& why) { return frameRequest(why); }, this);
  m_overlay = new LiveOverlay(m_desk.outputsPane());
  connect(m_liveAct, &QAction::toggled, m_live, &LiveMode::setActive);
  connect(m_live, &LiveMode::activeChanged, this, [this](bool on) {
    const QSignalBlocker block(m_liveAct);
    m_liveAct->setChecked(on);
    if (!on) {
      m_overlay->hide();
      return emit activeChanged(false);
    }
    m_desk.outputsPane()->setCurrentIndex(m_desk.outputsPane()->liveViewIndex());  // a view the frames are drawn in
    emit activeChanged(true);
    m_desk.timingChart()->markStale("Timing: live mode \xE2\x80\x94 the last frame's timing shows when it stops (Esc)");
    m_desk.log("live mode: a new seed every frame (Esc stops)");
    m_desk.setStatus("Live\xE2\x80\xA6");
  });
  connect(m_live, &LiveMode::frameReady, this, &LiveWiring::showFrame);
  connect(m_live, &LiveMode::failed, this, [this](const QString& m) {
    m_desk.errorBanner()->showMessage(Banner::Level::Error, m.toHtmlEscaped());
    m_desk.log(m);
  });
  connect(m_live, &LiveMode::stopped, this, [this](const QString& summary) {
    m_desk.log(summary);
    m_desk.setStatus(summary.left(1).toUpper() + summary.mid(1));
    if (m_results.last()) m_results.show(m_results.last());  // timing, tables and verification of the last frame
  });
}

void LiveWiring::showFrame(std::shared_ptr<const RunOutcome> o, const LiveStats& s) {
  m_results.showLiveFrame(o);
  OutputsPane* outputs = m_desk.outputsPane();
  const int i = outputs->currentIndex();
  OutputView* v = i >= 0 && i < outputs->viewCount() ? outputs->view(i) : nullptr;
  // The path's first words ("host upload", "QCustomPlot"): its whole line is under the plot.
  const QString path = v ? v->drawPath().section(':', 0, 0) : QString();
  QString text = liveStatsText(s) + (path.isEmpty() ? QString() : " \xC2\xB7 " + path);
  if (const Workload* w = m_backend.registry().find(o->request.workload)) {
    const QString scalars =
        liveScalarsText(w->info(), o->result, o->request.impls.empty() ? std::string() : o->request.impls.front());
    if (!scalars.isEmpty()) text += "\n" + scalars;  // the running estimate (Monte Carlo pi)
  }
  m_overlay->showOver(v ? v->widget() : nullptr, text);
  m_desk.setStatus(QString("Live: %1, seed %2").arg(QString::fromStdString(s.implTitle)).arg(s.seed));
}

void LiveWiring::addGlAction(QToolBar* tb) {
  m_glAct = new QAction("OpenGL plots", m_window);
  m_glAct->setCheckable(true);
  m_glAct->setChecked(!m_noGl && m_settings.drawPlotsWithGl());
  m_glAct->setEnabled(!m_noGl);
  m_glAct->setToolTip(m_noGl ? "Draw plots with OpenGL: off for this session (--no-gl)"
                             : "Draw plots with OpenGL: waveforms, histograms, images and points are drawn by the "
                               "GL renderer on a thread of its own; off: QCustomPlot draws them. Each plot says "
                               "which path draws it, bottom right.");
  tb->addAction(m_glAct);
  auto apply = [this](bool on) {
    GlViews::instance().configure(on, m_noGl ? "--no-gl" : "setting: Draw plots with OpenGL is off");
  };
  connect(&GlViews::instance(), &GlViews::changed, this, [this] {
    if (GlViews::instance().state() != GlViews::State::Starting) m_desk.log("plots: " + GlViews::instance().pathLine());
    updateDeviceImport();
  });
  // A run that ended in a CUDA fault has OpenGL checked before the next frame; each check is in the log.
  GlViews::instance().watch(m_controller);
  connect(&GlViews::instance(), &GlViews::canaryChecked, this, [this](const QString& line, bool passed) {
    if (passed) m_desk.log("plots: " + line);
  });
  apply(m_glAct->isChecked());
  connect(m_glAct, &QAction::toggled, this, [this, apply](bool on) {
    m_settings.setDrawPlotsWithGl(on);
    apply(on);
    m_desk.log(on ? "plots drawn with OpenGL where it starts" : "plots drawn with QCustomPlot (OpenGL plots off)");
  });
}

void LiveWiring::updateDeviceImport() {
  int ordinal = 0;
  const bool on = m_deviceImports && GlViews::instance().interop(&ordinal) && m_backend.runsInLocalWorker();
  if (on == m_controller.deviceImportOn()) return;
  if (!on) return m_controller.setDeviceImport(nullptr);
  // GPU outputs go from the worker's device memory to the GL views without a host round trip (device_imports.h).
  m_controller.setDeviceImport([ordinal](RunOutcome& o) { o.deviceImports = importDeviceOutputs(o.result, ordinal); });
  m_desk.log("plots: GPU outputs are taken from the worker's device memory (CUDA IPC) for the GL views");
}

std::optional<RunRequest> LiveWiring::frameRequest(QString& why) const {
  const FormCheck& c = m_desk.paramPanel()->check();
  if (!c.ok() || !c.request) {
    why = cannotRunText(c);
    return std::nullopt;
  }
  RunRequest req = *c.request;
  req.userKernel.reset();  // live mode runs the built-in implementations
  const Workload* w = m_backend.registry().find(req.workload);
  if (!w) {
    why = "no workload selected";
    return std::nullopt;
  }
  std::string shown = m_desk.outputsPane()->shownImpl();
  if (shown == kMyKernel) shown.clear();
  req.impls = {liveImplOf(*w, req, shown, m_backend.deviceStatus().available)};
  std::string note;
  if (!mayKeepArraysOf(*w, req, note)) {
    why = "live mode draws every frame, but " + QString::fromStdString(note);
    return std::nullopt;
  }
  return req;
}

}  // namespace launchlab::ui
