#pragma once
/// The window's "GPU server" settings: where the runs go — this machine, or a lab's GPU server over SSH
/// ([user@]host[:port], launchlab --remote's form) with the path of launchlab-cli there. What is typed is checked
/// as it is typed (one inline line, Save disabled while it is wrong); saving stores it in the settings, and the
/// window's backend is chosen at start, so the dialog offers to restart LaunchLab on the new backend.
#include <QDialog>
#include <QString>

class QLabel;
class QLineEdit;
class QPushButton;

namespace launchlab::ui {

class AppSettings;

/// "" when `host` ("" or "local" = this machine) and `cli` (the remote launchlab-cli, "" = the default) are
/// acceptable, else one line saying what is wrong (launchlab/remote.h's rules).
QString checkRemoteForm(const QString& host, const QString& cli);

class RemoteDialog : public QDialog {
  Q_OBJECT
 public:
  /// `current` is the backend's remote host now ("" = this machine), shown on the dialog.
  RemoteDialog(AppSettings& settings, const QString& current, QWidget* parent = nullptr);

  QLineEdit* hostEdit() const { return m_host; }
  QLineEdit* cliEdit() const { return m_cli; }
  QLabel* problemLabel() const { return m_problem; }
  QPushButton* saveButton() const { return m_save; }
  QPushButton* restartButton() const { return m_restart; }

 signals:
  /// Saved, and the user asked to restart LaunchLab on the new backend now.
  void restartRequested();

 private:
  void check();
  bool save();
  AppSettings& m_settings;
  QLineEdit* m_host;
  QLineEdit* m_cli;
  QLabel* m_problem;
  QPushButton* m_save;
  QPushButton* m_restart;
};

}  // namespace launchlab::ui
