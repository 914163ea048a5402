#include "models/settings.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QStringDecoder>

#include "models/presets.h"

namespace launchlab::ui {

namespace {

/// The user's settings file (QSettings' native format on Unix: $XDG_CONFIG_HOME/LaunchLab/launchlab.conf), found
/// without QSettings reading it.
QString userSettingsPath() {
  return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + "/LaunchLab/launchlab.conf";
}

/// Whether the bytes can be a settings file LaunchLab wrote: text, valid UTF-8, no NUL byte.
bool looksLikeSettings(const QByteArray& bytes) {
  if (bytes.contains('\0')) return false;
  QStringDecoder utf8(QStringDecoder::Utf8);
  (void)utf8.decode(bytes);
  return !utf8.hasError();
}

}  // namespace

AppSettings::AppSettings() {
  const QString path = userSettingsPath();
  const QFileInfo fi(path);
  // Not read, or not read whole: this session keeps its settings aside and leaves the file alone.
  auto sessionOnly = [this](const QString& problem) {
    m_tmp = std::make_unique<QTemporaryDir>();
    m_settings = std::make_unique<QSettings>(m_tmp->filePath("launchlab.conf"), QSettings::IniFormat);
    m_problem = problem + ": it was not read, and this session's settings are not saved (remove it to start afresh).";
  };
  if (fi.isDir()) {
    m_problem = "The settings file " + path + " is a folder: settings are not saved until it is removed.";
  } else if (fi.isFile() && fi.size() > kMaxSettingsBytes) {
    // Not read at all (that could take minutes).
    sessionOnly(
        QString("The settings file %1 holds %2 MB, far more than settings take").arg(path).arg(fi.size() >> 20));
    return;
  } else if (fi.exists()) {
    // Core's reader: a pipe or a device is refused without waiting on it, and the cap counts what is read (a file
    // that reports 0 bytes and never ends). QSettings, which reads the file next, must not see either.
    const files::FileBytes read = files::readBoundedFile(path.toStdString(), files::kMaxSettingsFileBytes);
    if (!read.ok()) {
      sessionOnly("The settings file " + QString::fromStdString(read.error));
      return;
    }
    if (!looksLikeSettings(QByteArray::fromStdString(read.bytes))) {
      const QString kept = path + ".unreadable";
      QFile::remove(kept);
      QFile::rename(path, kept);
      m_problem = "The settings file " + path + " was not a settings file (kept as " + QFileInfo(kept).fileName() +
                  "): LaunchLab starts with fresh settings.";
    }
  }
  m_settings = std::make_unique<QSettings>(path, QSettings::IniFormat);
  if (m_problem.isEmpty() && m_settings->status() != QSettings::NoError)
    m_problem = "The settings file " + path + " could not be read: LaunchLab starts with fresh settings.";
}

AppSettings::AppSettings(const QString& iniPath)
    : m_settings(std::make_unique<QSettings>(iniPath, QSettings::IniFormat)) {}

std::unique_ptr<AppSettings> AppSettings::ephemeral() {
  auto tmp = std::make_unique<QTemporaryDir>();
  std::unique_ptr<AppSettings> s(new AppSettings(tmp->filePath("launchlab.ini")));
  s->m_tmp = std::move(tmp);
  return s;
}

QString AppSettings::privateFolder() const { return m_tmp ? m_tmp->path() : QString(); }

bool AppSettings::presentation() const { return m_settings->value("ui/presentation", false).toBool(); }
void AppSettings::setPresentation(bool on) { m_settings->setValue("ui/presentation", on); }
QString AppSettings::lastWorkload() const { return m_settings->value("last/workload").toString(); }
void AppSettings::setLastWorkload(const QString& id) { m_settings->setValue("last/workload", id); }

std::optional<FormState> AppSettings::lastForm(const QString& workload) const {
  const QByteArray bytes = m_settings->value("form/" + workload).toByteArray();
  if (bytes.isEmpty()) return std::nullopt;
  const auto doc = QJsonDocument::fromJson(bytes);
  if (!doc.isObject()) return std::nullopt;
  auto f = formFromJson(doc.object());
  if (f && QString::fromStdString(f->workload) != workload) return std::nullopt;
  return f;
}

void AppSettings::setLastForm(const FormState& f) {
  m_settings->setValue("form/" + QString::fromStdString(f.workload),
                       QJsonDocument(formToJson(f)).toJson(QJsonDocument::Compact));
}

QByteArray AppSettings::windowGeometry() const { return m_settings->value("ui/geometry").toByteArray(); }
QByteArray AppSettings::windowState() const { return m_settings->value("ui/state").toByteArray(); }
void AppSettings::setWindowLayout(const QByteArray& geometry, const QByteArray& state) {
  m_settings->setValue("ui/geometry", geometry);
  m_settings->setValue("ui/state", state);
}
std::optional<AppSettings::Desk> AppSettings::desk() const {
  if (!m_settings->contains("desk/panel")) return std::nullopt;
  return Desk{m_settings->value("desk/panel").toBool(), m_settings->value("desk/main").toByteArray(),
              m_settings->value("desk/results").toByteArray()};
}
void AppSettings::setDesk(const Desk& d) {
  m_settings->setValue("desk/panel", d.panelShown);
  m_settings->setValue("desk/main", d.mainSplit);
  m_settings->setValue("desk/results", d.resultsSplit);
}
QString AppSettings::remoteHost() const { return m_settings->value("remote/host").toString(); }
void AppSettings::setRemoteHost(const QString& host) { m_settings->setValue("remote/host", host); }
QString AppSettings::remoteCli() const { return m_settings->value("remote/cli").toString(); }
void AppSettings::setRemoteCli(const QString& path) { m_settings->setValue("remote/cli", path); }
bool AppSettings::drawPlotsWithGl() const { return m_settings->value("ui/drawPlotsWithGl", true).toBool(); }
void AppSettings::setDrawPlotsWithGl(bool on) { m_settings->setValue("ui/drawPlotsWithGl", on); }
QString AppSettings::exportFolder() const { return m_settings->value("export/folder", QDir::homePath()).toString(); }
void AppSettings::setExportFolder(const QString& folder) { m_settings->setValue("export/folder", folder); }

}  // namespace launchlab::ui
