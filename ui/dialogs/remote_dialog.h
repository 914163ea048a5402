#pragma once
/// The window's "GPU server" settings: where the runs go — this machine, a lab's GPU server over SSH
/// ([user@]host[:port], launchlab --remote's form) with the path of launchlab-cli there, or a cluster's node through
/// Slurm (srun from this machine, a login node: partition, time limit, more srun options; launchlab --slurm). What is
/// typed is checked as it is typed (one inline line, Save disabled while it is wrong); saving stores it in the
/// settings, and the window's backend is chosen at start, so the dialog offers to restart LaunchLab on the new backend.
#include <QDialog>
#include <QString>

class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace launchlab::ui {

class AppSettings;

/// "" when `host` ("" or "local" = this machine) and `cli` (the remote launchlab-cli, "" = the default) are
/// acceptable, else one line saying what is wrong (launchlab/worker/remote.h's rules).
QString checkRemoteForm(const QString& host, const QString& cli);

/// Runs through Slurm (launchlab --slurm): the settings' default, edited by the dialog.
struct SlurmForm {
  bool enabled = false;
  QString partition, time, args;
};
SlurmForm loadSlurmForm(AppSettings& settings);
void saveSlurmForm(AppSettings& settings, const SlurmForm& form);
/// "" when `form` is acceptable beside the GPU server `host`, else one line (launchlab/worker/slurm.h's rules; Slurm
/// runs from this machine, so not together with a GPU server).
QString checkSlurmForm(const SlurmForm& form, const QString& host);

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
  QGroupBox* slurmBox() const { return m_slurm; }
  QLineEdit* partitionEdit() const { return m_partition; }
  QLineEdit* timeEdit() const { return m_time; }
  QLineEdit* slurmArgsEdit() const { return m_args; }

 signals:
  /// Saved, and the user asked to restart LaunchLab on the new backend now.
  void restartRequested();

 private:
  void check();
  bool save();
  SlurmForm slurmForm() const;
  QGroupBox* slurmGroup();
  AppSettings& m_settings;
  QLineEdit* m_host;
  QLineEdit* m_cli;
  QLabel* m_problem;
  QPushButton* m_save;
  QPushButton* m_restart;
  QGroupBox* m_slurm;
  QLineEdit* m_partition;
  QLineEdit* m_time;
  QLineEdit* m_args;
};

}  // namespace launchlab::ui
