#pragma once
/// Persistent settings (QSettings "LaunchLab/launchlab"): presentation mode, window layout, last workload,
/// last-used parameters per workload, export choices. An ephemeral instance (a temporary file, read and
/// written by nobody else) gives a new user's view, for screenshots and tests.
#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QTemporaryDir>
#include <memory>
#include <optional>

#include "launchlab/files/bounded_file.h"
#include "models/form_state.h"

namespace launchlab::ui {

class AppSettings {
 public:
  /// The user's settings.
  AppSettings();
  /// Fresh settings in a temporary folder, gone when this object is.
  static std::unique_ptr<AppSettings> ephemeral();

  bool presentation() const;
  void setPresentation(bool on);
  QString lastWorkload() const;
  void setLastWorkload(const QString& id);
  std::optional<FormState> lastForm(const QString& workload) const;
  void setLastForm(const FormState& f);
  QByteArray windowGeometry() const;
  QByteArray windowState() const;
  void setWindowLayout(const QByteArray& geometry, const QByteArray& state);
  /// What the student folded at the desk (saved on close outside presentation mode): the parameter panel shown or
  /// hidden, and the states of the window's splitters (browser | panel | results, plots over the timing chart).
  struct Desk {
    bool panelShown = true;
    QByteArray mainSplit, resultsSplit;
  };
  std::optional<Desk> desk() const;
  void setDesk(const Desk& d);
  /// The remote GPU the window runs on at start ([user@]host[:port], launchlab --remote's form), "" for this machine.
  QString remoteHost() const;
  void setRemoteHost(const QString& host);
  /// The path of launchlab-cli on the remote host (launchlab --remote-cli), "" for the default.
  QString remoteCli() const;
  void setRemoteCli(const QString& path);
  /// "Draw plots with OpenGL": the waveform, histogram, image and points views draw through the GL renderer when it
  /// can start (default on); off, QCustomPlot draws them (launchlab --no-gl does the same for one session).
  bool drawPlotsWithGl() const;
  void setDrawPlotsWithGl(bool on);
  QString exportFolder() const;
  void setExportFolder(const QString& folder);
  /// Why the user's settings file could not be used as it is ("" when it could): a folder in its place (nothing is
  /// saved), a file too large to be settings, a pipe or a device (left alone, unread; this session starts fresh and
  /// saves nothing), or one that is not a settings
  /// file (kept beside it as "<name>.unreadable", then replaced). Shown once in the window.
  QString problem() const { return m_problem; }
  /// The largest settings file read: LaunchLab's own stay far below (a few KiB per workload's form).
  static constexpr qint64 kMaxSettingsBytes = qint64(files::kMaxSettingsFileBytes);
  /// The ephemeral instance's temporary folder (removed with it), for anything else a fresh instance writes; empty
  /// for the user's settings.
  QString privateFolder() const;
  QSettings& raw() { return *m_settings; }
  void sync() { m_settings->sync(); }

 private:
  explicit AppSettings(const QString& iniPath);
  std::unique_ptr<QTemporaryDir> m_tmp;
  std::unique_ptr<QSettings> m_settings;
  QString m_problem;
};

}  // namespace launchlab::ui
