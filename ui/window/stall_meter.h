#pragma once
/// Responsiveness measurement: an event-loop heartbeat, and the --measure-stalls sequence (cold start to
/// first plot, then a 2^24-element run and a block-size sweep with the heartbeat running).
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace launchlab::ui {

class MainWindow;

/// A precise timer ticking every `intervalMs` on the GUI thread. The longest gap between two ticks bounds
/// the longest time the event loop was blocked (plus one interval).
class Heartbeat : public QObject {
  Q_OBJECT
 public:
  explicit Heartbeat(int intervalMs = 5, QObject* parent = nullptr);
  void start();
  void stop();
  double longestGapMs() const { return m_longest; }
  int ticks() const { return m_ticks; }
  bool verbose() const { return m_verbose; }

 private:
  QTimer m_timer;
  QElapsedTimer m_clock;
  qint64 m_lastNs = 0;
  double m_longest = 0;
  int m_ticks = 0;
  bool m_verbose = false;  // LAUNCHLAB_DEBUG_STALLS: print every gap over 20 ms to stderr
};

/// Drives the window through the measurement and prints one line per figure to stdout, then exits the
/// application (code 0, or 1 when a step could not run).
class StallMeasurement : public QObject {
  Q_OBJECT
 public:
  StallMeasurement(MainWindow& window, const QElapsedTimer& startClock);

 private:
  void startBigRun();
  void startSweep();
  void finish(int code);
  MainWindow& m_window;
  const QElapsedTimer& m_start;
  Heartbeat m_beat;
  QElapsedTimer m_phase;
  quint64 m_runJob = 0, m_sweepJob = 0;
};

}  // namespace launchlab::ui
