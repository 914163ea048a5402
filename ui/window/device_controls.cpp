#include "window/device_controls.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QProcess>
#include <QToolBar>

#include "dialogs/device_picker.h"
#include "dialogs/remote_dialog.h"
#include "models/backend.h"
#include "models/log_text.h"
#include "models/settings.h"
#include "runs/controller.h"
#include "window/banner.h"
#include "window/desk.h"
#include "window/param_panel.h"

namespace launchlab::ui {

DeviceControls::DeviceControls(Desk& desk, Backend& backend, RunController& controller, AppSettings& settings,
                               QWidget* window)
    : QObject(window),
      m_desk(desk),
      m_backend(backend),
      m_controller(controller),
      m_settings(settings),
      m_window(window) {}

void DeviceControls::addTo(QToolBar* tb) {
  m_remoteAct = new QAction("GPU server\xE2\x80\xA6", m_window);
  m_remoteAct->setToolTip("Run on this machine or on a GPU server over SSH (launchlab --remote)");
  connect(m_remoteAct, &QAction::triggered, this, &DeviceControls::openRemoteDialog);
  tb->addAction(m_remoteAct);
  m_picker = new DevicePicker(m_backend);
  QAction* pickerAct = tb->addWidget(m_picker);
  pickerAct->setVisible(m_picker->hasChoice());
  connect(m_picker, &DevicePicker::failed, this, [this](const QString& why) {
    m_desk.errorBanner()->showMessage(Banner::Level::Error, why.toHtmlEscaped());
    m_desk.log(why);
  });
  ParamPanel* panel = m_desk.paramPanel();
  connect(m_picker, &DevicePicker::deviceChanged, this, [this, panel](const QString& device) {
    showStatus();
    panel->setForm(panel->form());  // checked again, against this device's limits
    m_desk.log("runs use " + device);
  });
  connect(&m_controller, &RunController::deviceStatusChanged, this, [this, panel, pickerAct] {  // a server answered
    m_picker->refresh();
    pickerAct->setVisible(m_picker->hasChoice());
    showStatus();
    panel->setForm(panel->form());
    const std::string who = m_backend.remoteHost().empty() ? "the GPU worker" : "the GPU server";
    m_desk.log(QString::fromStdString(
        m_backend.deviceStatus().available ? who + " answered" : who + ": " + m_backend.deviceStatus().reason));
  });
}

void DeviceControls::showStatus() {
  const DeviceStatus d = m_backend.deviceStatus();
  m_desk.deviceBanner()->showMessage(d.available ? Banner::Level::Info : Banner::Level::Warning,
                                     deviceBannerText(d, m_backend.remoteHost()));
  emit statusShown();
}

void DeviceControls::openRemoteDialog() {
  if (m_remoteDialog) {
    m_remoteDialog->raise();
    return;
  }
  auto* d = new RemoteDialog(m_settings, QString::fromStdString(m_backend.remoteHost()), m_window);
  d->setAttribute(Qt::WA_DeleteOnClose);
  m_remoteDialog = d;
  connect(d, &QObject::destroyed, this, [this] { m_remoteDialog = nullptr; });
  connect(d, &QDialog::accepted, this, [this] {
    const QString host = m_settings.remoteHost();
    m_desk.log("GPU server saved: " + (host.isEmpty() ? QString("this machine") : host) +
               " (used from the next start)");
  });
  connect(d, &RemoteDialog::restartRequested, this, [this] {
    // The backend is chosen at start: a new LaunchLab on the saved settings, then this one closes (and saves its
    // layout as usual). Arguments are not passed on: --remote would override what was just saved.
    if (QProcess::startDetached(QCoreApplication::applicationFilePath(), {}))
      m_window->close();
    else
      m_desk.errorBanner()->showMessage(Banner::Level::Error, "Could not start LaunchLab again: restart it yourself.");
  });
  d->open();
}

}  // namespace launchlab::ui
