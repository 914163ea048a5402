#include "settings.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>

#include "presets.h"

namespace launchlab::ui {

AppSettings::AppSettings() : m_settings(std::make_unique<QSettings>("LaunchLab", "launchlab")) {}

AppSettings::AppSettings(const QString& iniPath) : m_settings(std::make_unique<QSettings>(iniPath, QSettings::IniFormat)) {}

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
QString AppSettings::remoteHost() const { return m_settings->value("remote/host").toString(); }
void AppSettings::setRemoteHost(const QString& host) { m_settings->setValue("remote/host", host); }
QString AppSettings::remoteCli() const { return m_settings->value("remote/cli").toString(); }
void AppSettings::setRemoteCli(const QString& path) { m_settings->setValue("remote/cli", path); }
bool AppSettings::drawPlotsWithGl() const { return m_settings->value("ui/drawPlotsWithGl", true).toBool(); }
void AppSettings::setDrawPlotsWithGl(bool on) { m_settings->setValue("ui/drawPlotsWithGl", on); }
QString AppSettings::exportFolder() const { return m_settings->value("export/folder", QDir::homePath()).toString(); }
void AppSettings::setExportFolder(const QString& folder) { m_settings->setValue("export/folder", folder); }

}  // namespace launchlab::ui
