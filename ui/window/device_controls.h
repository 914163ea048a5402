#pragma once
/// Where the runs go, in the window: the device banner, the device picker (several GPUs) and the "GPU server…"
/// action with its dialog (remote_dialog.h; a new LaunchLab starts on the saved settings).
#include <QObject>

class QAction;
class QDialog;
class QToolBar;
class QWidget;

namespace launchlab::ui {

class AppSettings;
class Backend;
class Desk;
class DevicePicker;
class RunController;

class DeviceControls : public QObject {
  Q_OBJECT
 public:
  DeviceControls(Desk& desk, Backend& backend, RunController& controller, AppSettings& settings, QWidget* window);

  /// "GPU server…" and the device picker on `tb`.
  void addTo(QToolBar* tb);
  DevicePicker* picker() const { return m_picker; }
  /// "GPU server…": where the runs go (this machine or a GPU server over SSH); opens a RemoteDialog.
  QAction* remoteAction() const { return m_remoteAct; }
  /// The open "GPU server" dialog, else null.
  QDialog* remoteDialog() const { return m_remoteDialog; }
  /// The device banner for the backend's device as it is now.
  void showStatus();

 signals:
  /// The device banner changed (a device answered or was picked).
  void statusShown();

 private:
  void openRemoteDialog();

  Desk& m_desk;
  Backend& m_backend;
  RunController& m_controller;
  AppSettings& m_settings;
  QWidget* m_window;
  DevicePicker* m_picker = nullptr;
  QAction* m_remoteAct = nullptr;
  QDialog* m_remoteDialog = nullptr;
};

}  // namespace launchlab::ui
