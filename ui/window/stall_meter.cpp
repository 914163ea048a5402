#include "window/stall_meter.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <algorithm>
#include <cstdio>

#include "launchlab/engine/engine.h"
#include "window/main_window.h"
#include "window/param_panel.h"

namespace launchlab::ui {

Heartbeat::Heartbeat(int intervalMs, QObject* parent)
    : QObject(parent), m_verbose(qEnvironmentVariableIsSet("LAUNCHLAB_DEBUG_STALLS")) {
  m_timer.setTimerType(Qt::PreciseTimer);
  m_timer.setInterval(intervalMs);
  connect(&m_timer, &QTimer::timeout, this, [this] {
    const qint64 now = m_clock.nsecsElapsed();
    if (m_ticks > 0) m_longest = std::max(m_longest, double(now - m_lastNs) / 1e6);
    if (m_ticks > 0 && m_verbose && now - m_lastNs > 20000000)
      std::fprintf(stderr, "gap %.1f ms ending at %.1f ms\n", double(now - m_lastNs) / 1e6, double(now) / 1e6);
    m_lastNs = now;
    ++m_ticks;
  });
}

void Heartbeat::start() {
  m_longest = 0;
  m_ticks = 0;
  m_clock.start();
  m_timer.start();
}

void Heartbeat::stop() { m_timer.stop(); }

StallMeasurement::StallMeasurement(MainWindow& window, const QElapsedTimer& startClock)
    : m_window(window), m_start(startClock) {
  std::printf("launchlab --measure-stalls, %s, %s\n", nowIso8601().c_str(), hostDescription().c_str());
  connect(&m_window, &MainWindow::firstPlotShown, this, [this](qint64 ms) {
    std::printf("cold start to first plot: %lld ms (%s)\n", static_cast<long long>(ms),
                m_window.results().last() ? (m_window.results().last()->result.workload +
                                             ", n = " + std::to_string(m_window.results().last()->result.n))
                                                .c_str()
                                          : "no run");
    std::fflush(stdout);
    QTimer::singleShot(300, this, &StallMeasurement::startBigRun);
  });
  connect(&m_window, &MainWindow::runDisplayed, this, [this](quint64 id) {
    if (id != m_runJob || m_runJob == 0) return;
    if (qEnvironmentVariableIsSet("LAUNCHLAB_DEBUG_STALLS"))
      std::fprintf(stderr, "displayed at %lld ms\n", static_cast<long long>(m_phase.elapsed()));
    // Include the queued replots that follow the result.
    QTimer::singleShot(200, this, [this] {
      m_beat.stop();
      if (m_beat.verbose())
        for (QCustomPlot* p : m_window.findChildren<QCustomPlot*>())
          if (p->isVisible()) std::fprintf(stderr, "visible plot replot: %.1f ms\n", p->replotTime());
      const auto& r = m_window.results().last()->result;
      std::printf(
          "run: %s n = %llu %s, %zu implementations, %d reps: %.2f s; longest event-loop gap %.1f ms "
          "(5 ms heartbeat, %d ticks); putting the result on screen took %lld ms\n",
          r.workload.c_str(), static_cast<unsigned long long>(r.n), r.dtype.c_str(), r.impls.size(), r.reps,
          m_phase.elapsed() / 1000.0, m_beat.longestGapMs(), m_beat.ticks(),
          static_cast<long long>(m_window.results().lastDisplayMs()));
      std::fflush(stdout);
      startSweep();
    });
  });
  connect(&m_window.controller(), &RunController::sweepFinished, this, [this](quint64 id, bool cancelled) {
    if (id != m_sweepJob) return;
    QTimer::singleShot(200, this, [this, cancelled] {
      m_beat.stop();
      std::printf("sweep: 32 block sizes%s: %.2f s; longest event-loop gap %.1f ms (%d ticks)\n",
                  cancelled ? " (cancelled)" : "", m_phase.elapsed() / 1000.0, m_beat.longestGapMs(), m_beat.ticks());
      finish(0);
    });
  });
}

void StallMeasurement::startBigRun() {
  // vector_add when the build has it (comparable across builds), else whatever the window started on.
  m_window.selectWorkload("vector_add");
  ParamPanel* panel = m_window.desk().paramPanel();
  FormState f = panel->form();
  f.size = "16Mi";
  panel->setForm(f);
  if (!panel->check().ok()) {
    std::fprintf(stderr, "measure-stalls: cannot run at 2^24: %s\n", panel->check().firstError().c_str());
    return finish(1);
  }
  m_beat.start();
  m_phase.start();
  m_window.run();
  m_runJob = m_window.controller().currentJob();
}

void StallMeasurement::startSweep() {
  m_beat.start();
  m_phase.start();
  m_sweepJob = m_window.startSweepOf({});
  if (m_sweepJob == 0) {
    std::printf("sweep: this workload has no CUDA implementation that takes a block size\n");
    finish(0);
  }
}

void StallMeasurement::finish(int code) {
  std::fflush(stdout);
  QCoreApplication::exit(code);
}

}  // namespace launchlab::ui
