#pragma once
/// Live mode in the window: the Live toggle, the request of each frame, drawing frames as they arrive and the
/// overlay (live_mode.h has the loop itself); and the OpenGL plots toggle (gl_views.h) with the device import it
/// allows (device_imports.h).
#include <QObject>
#include <optional>

#include "runs/controller.h"

class QAction;
class QToolBar;
class QWidget;

namespace launchlab::ui {

class AppSettings;
class Backend;
class Desk;
class LiveMode;
class LiveOverlay;
struct LiveStats;
class ResultsPresenter;

class LiveWiring : public QObject {
  Q_OBJECT
 public:
  /// `noGl`: QCustomPlot draws every plot this session (--no-gl); `deviceImports`: GL views may draw a local
  /// worker's outputs from its device memory (--device-imports).
  LiveWiring(Desk& desk, RunController& controller, Backend& backend, AppSettings& settings, ResultsPresenter& results,
             bool noGl, bool deviceImports, QWidget* window);

  /// The Live toggle (Ctrl+L) on `tb`.
  void addLiveAction(QToolBar* tb);
  /// The OpenGL plots toggle on `tb`: the setting Draw plots with OpenGL; disabled under --no-gl.
  void addGlAction(QToolBar* tb);

  QAction* liveAction() const { return m_liveAct; }
  QAction* glAction() const { return m_glAct; }
  LiveMode* liveMode() const { return m_live; }
  /// The box over the plots while live mode runs (fps, kernel time, drawing path).
  LiveOverlay* liveOverlay() const { return m_overlay; }
  bool active() const;

 signals:
  /// Live mode started or stopped: the stage gives the live plot its room, the Cancel action follows.
  void activeChanged(bool on);

 private:
  /// The next frame's request: the form as it is, with the implementation live mode runs; nullopt and `why`.
  std::optional<RunRequest> frameRequest(QString& why) const;
  void showFrame(std::shared_ptr<const RunOutcome> o, const LiveStats& s);
  void updateDeviceImport();

  Desk& m_desk;
  RunController& m_controller;
  Backend& m_backend;
  AppSettings& m_settings;
  ResultsPresenter& m_results;
  bool m_noGl, m_deviceImports;
  QWidget* m_window;
  QAction* m_liveAct = nullptr;
  QAction* m_glAct = nullptr;
  LiveMode* m_live = nullptr;
  LiveOverlay* m_overlay = nullptr;
};

}  // namespace launchlab::ui
