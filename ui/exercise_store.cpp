#include "exercise_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include "export.h"

namespace launchlab::ui {

ExerciseStore::ExerciseStore(QString folder) : m_folder(folder.isEmpty() ? defaultFolder() : std::move(folder)) {}

QString ExerciseStore::defaultFolder() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/exercises";
}

namespace {
/// A shipped exercise file (core compiles the workload folders' exercise*.cu in), "" for an unknown exercise.
QString shippedText(const QString& exerciseId, bool solution) {
  const Exercise* ex = findExercise(exerciseId.toStdString());
  if (!ex) return {};
  const std::string_view text = exerciseText(*ex, solution);
  return QString::fromUtf8(text.data(), qsizetype(text.size()));
}
}  // namespace

QString ExerciseStore::startingFile(const QString& exerciseId) { return shippedText(exerciseId, false); }

QString ExerciseStore::solution(const QString& exerciseId) { return shippedText(exerciseId, true); }

QString ExerciseStore::path(const QString& exerciseId) const { return m_folder + "/" + exerciseId + ".cu"; }

bool ExerciseStore::hasSaved(const QString& exerciseId) const { return QFileInfo(path(exerciseId)).isFile(); }

QString ExerciseStore::load(const QString& exerciseId) const {
  if (hasSaved(exerciseId)) {
    QString text;
    if (importFile(path(exerciseId), text).isEmpty()) return text;
  }
  return startingFile(exerciseId);
}

QString ExerciseStore::save(const QString& exerciseId, const QString& text) const {
  if (!QDir().mkpath(m_folder)) return "cannot create the folder " + m_folder;
  return exportFile(path(exerciseId), text);
}

QString ExerciseStore::importFile(const QString& path, QString& text) {
  const QFileInfo info(path);
  if (!info.isFile()) return path + " is not a file";
  if (std::size_t(info.size()) > kMaxKernelSourceBytes)
    return QString::fromStdString(kernelSizeProblem(std::size_t(info.size())));
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return "cannot read " + path + ": " + f.errorString();
  const QByteArray bytes = f.readAll();
  if (const std::string bad = checkKernelSource(bytes.toStdString()); !bad.empty())
    return info.fileName() + ": " + QString::fromStdString(bad);
  text = QString::fromUtf8(bytes);
  return {};
}

QString ExerciseStore::exportFile(const QString& path, const QString& text) {
  const ExportResult r = exportBytes(path, text.toUtf8());
  return r.ok ? QString() : r.message;
}

}  // namespace launchlab::ui
