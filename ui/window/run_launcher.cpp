#include "window/run_launcher.h"

#include <QAction>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <utility>

#include "explorer/sweep_pane.h"
#include "gl/live_mode.h"
#include "launchlab/files/parse.h"
#include "models/log_text.h"
#include "models/settings.h"
#include "models/stage_text.h"
#include "models/text.h"
#include "plots/outputs_pane.h"
#include "plots/region_zoom.h"
#include "window/banner.h"
#include "window/desk.h"
#include "window/editor_wiring.h"
#include "window/live_wiring.h"
#include "window/param_panel.h"
#include "window/results_presenter.h"
#include "window/stage_wiring.h"

namespace launchlab::ui {

namespace {}  // namespace

RunLauncher::RunLauncher(Parts parts, double quickRunSeconds, QAction* runAct, QAction* cancelAct, QObject* parent)
    : QObject(parent), m_p(parts), m_quickRunSeconds(quickRunSeconds), m_runAct(runAct), m_cancelAct(cancelAct) {}

void RunLauncher::updateRunEnabled() {
  const FormCheck& c = m_p.desk.paramPanel()->check();
  m_runAct->setEnabled(c.ok());
  m_runAct->setToolTip(runActionTip(c));
  m_p.desk.sweepPane()->updateControls(c.ok());
}

void RunLauncher::onBusy(bool busy) {
  const bool live = m_p.live.active();  // Esc stops live mode between frames too
  m_cancelAct->setEnabled(busy || live);
  m_p.desk.progress()->setValue(0);
  m_p.desk.progress()->setVisible(busy && !live);
  m_p.desk.sweepPane()->updateControls(m_p.desk.paramPanel()->check().ok());
}

void RunLauncher::startFirstRun() {
  ParamPanel* panel = m_p.desk.paramPanel();
  const Workload* w = m_p.backend.registry().find(panel->form().workload);
  if (!w) return;
  const FormState f = panel->form();
  // Start fast: the first screen (and each experiment walked on the stage) must come up in about a second.
  const int passes = 2 * (f.warmup + f.reps) + 2;
  const std::uint64_t quick = chooseQuickSize(*w, passes, m_quickRunSeconds);
  if (auto n = parseSize(f.size); n && *n > quick && panel->check().ok()) {
    m_firstRunNote = firstRunNote(quick, f.size);
    m_firstRunN = quick;
    m_p.stage.setPreviewNote(previewNote(quick, *n));
  }
  m_p.results.expectFirstPlot();
  run();
}

void RunLauncher::run() {
  const FormCheck& c = m_p.desk.paramPanel()->check();
  if (!c.ok() || !c.request) {
    m_p.desk.errorBanner()->showMessage(Banner::Level::Error, cannotRunText(c));
    return;
  }
  if (c.request->userKernel) return m_p.editor.compileThenRun(*c.request, [this](RunRequest r) { startRequest(r); });
  startRequest(*c.request);
}

void RunLauncher::startRequest(RunRequest req) {
  if (m_firstRunN)
    req.n = std::exchange(m_firstRunN, std::nullopt);
  else
    m_p.stage.setPreviewNote({});  // the form's own size: no longer a preview
  std::string note;
  req.keepInputs = req.keepOutputs = mayKeepArraysOf(*m_p.backend.registry().find(req.workload), req, note);
  if (!req.keepOutputs) {
    m_p.desk.log(q(note));
    m_p.desk.errorBanner()->showMessage(Banner::Level::Warning, q(note).toHtmlEscaped());
  }
  const FormState& form = m_p.desk.paramPanel()->form();
  m_p.settings.setLastForm(form);
  m_p.settings.setLastWorkload(q(req.workload));
  m_p.results.runStarted();
  const quint64 id = m_p.controller.startRun(req);
  m_p.desk.log(runStartLine(id, req, form.dtype));
  m_p.desk.outputsPane()->showRunning();
  if (!m_firstRunNote.isEmpty()) m_p.desk.log(std::exchange(m_firstRunNote, {}));
  m_p.desk.setStatus("Running\xE2\x80\xA6");
}

void RunLauncher::cancel() {
  if (m_p.live.active()) return m_p.live.liveMode()->stop("stopped (Esc)");
  if (!m_p.controller.busy()) return;
  m_p.controller.cancel();
  m_p.desk.setStatus("Cancelling at the next repetition\xE2\x80\xA6");
  m_p.desk.log("cancel requested");
}

quint64 RunLauncher::startSweepOf(const QString& implId) {
  const FormCheck& c = m_p.desk.paramPanel()->check();
  if (!c.ok() || !c.request) return 0;
  const Workload* w = m_p.backend.registry().find(c.request->workload);
  const FormState& f = m_p.desk.paramPanel()->form();
  SweepPane* sweep = m_p.desk.sweepPane();
  const quint64 id = sweep->start(*w, *c.request, implId, QString("n = %1 %2").arg(q(f.size), q(f.dtype)));
  if (id == 0) return 0;
  m_p.desk.showTab(sweep);
  m_p.desk.setStatus("Sweeping\xE2\x80\xA6");
  return id;
}

void RunLauncher::startSweep() {
  if (m_p.desk.sweepPane()->button()->isEnabled()) startSweepOf(m_p.desk.sweepPane()->selectedImpl());
}

void RunLauncher::runRegion(const ImageWindow& view) {
  FormState f = m_p.desk.paramPanel()->form();
  const Workload* w = m_p.backend.registry().find(f.workload);
  const auto params = w ? zoomedRegion(w->info(), f.params, view) : std::nullopt;
  if (!params) {
    m_p.desk.errorBanner()->showMessage(
        Banner::Level::Warning, "Zoom into the image first (wheel, or right-drag a box): the whole image is in view.");
    return;
  }
  f.params = *params;
  m_p.desk.paramPanel()->setForm(f);
  m_p.desk.log(
      q("region: x_min " + params->at("x_min") + ", y_min " + params->at("y_min") + ", step " + params->at("step")));
  run();
}

}  // namespace launchlab::ui
