#include "editor/exercise_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

#include "launchlab/numba/numba.h"
#include "plots/export.h"

namespace launchlab::ui {

QString languageSuffix(KernelLanguage language) { return language == KernelLanguage::Python ? ".py" : ".cu"; }

KernelLanguage languageOf(const QString& fileName) {
  return fileName.endsWith(".py", Qt::CaseInsensitive) ? KernelLanguage::Python : KernelLanguage::Cuda;
}

ExerciseStore::ExerciseStore(QString folder) : m_folder(folder.isEmpty() ? defaultFolder() : std::move(folder)) {}

QString ExerciseStore::defaultFolder() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/exercises";
}

namespace {
/// A shipped exercise file (core compiles the workload folders' exercise*.cu and .py in), "" for an unknown exercise.
QString shippedText(const QString& exerciseId, bool solution, KernelLanguage language) {
  const Exercise* ex = findExercise(exerciseId.toStdString());
  if (!ex) return {};
  const std::string_view text =
      language == KernelLanguage::Python ? numbaExerciseText(*ex, solution) : exerciseText(*ex, solution);
  return QString::fromUtf8(text.data(), qsizetype(text.size()));
}
}  // namespace

QString ExerciseStore::startingFile(const QString& exerciseId, KernelLanguage language) {
  return shippedText(exerciseId, false, language);
}

QString ExerciseStore::solution(const QString& exerciseId, KernelLanguage language) {
  return shippedText(exerciseId, true, language);
}

QString ExerciseStore::shippedPath(const QString& exerciseId, bool solution, KernelLanguage language) {
  const Exercise* ex = findExercise(exerciseId.toStdString());
  if (!ex) return {};
  return QString::fromStdString(language == KernelLanguage::Python ? numbaExerciseFile(*ex, solution)
                                                                   : exerciseFile(*ex, solution));
}

QString ExerciseStore::path(const QString& exerciseId, KernelLanguage language) const {
  return m_folder + "/" + exerciseId + languageSuffix(language);
}

bool ExerciseStore::hasSaved(const QString& exerciseId, KernelLanguage language) const {
  return QFileInfo(path(exerciseId, language)).isFile();
}

QString ExerciseStore::preference(const QString& key) const {
  return QSettings(m_folder + "/editor.ini", QSettings::IniFormat).value("editor/" + key).toString();
}

void ExerciseStore::setPreference(const QString& key, const QString& value) const {
  QDir().mkpath(m_folder);
  QSettings(m_folder + "/editor.ini", QSettings::IniFormat).setValue("editor/" + key, value);
}

ExerciseStore::Loaded ExerciseStore::load(const QString& exerciseId, KernelLanguage language) const {
  Loaded l;
  l.text = startingFile(exerciseId, language);
  if (!hasSaved(exerciseId, language)) return l;
  const QString saved = path(exerciseId, language);
  QString text;
  const QString why = readSaved(saved, text);
  if (why.isEmpty()) {
    l.text = text;
    l.fromSaved = true;
    return l;
  }
  QString aside = saved + ".unreadable";
  for (int k = 2; QFileInfo::exists(aside); ++k) aside = saved + ".unreadable-" + QString::number(k);
  if (QFile::rename(saved, aside)) {
    l.problem = "Your saved file could not be loaded (" + why + "); it is kept, unchanged, as " + aside +
                ". The editor shows the starting file.";
  } else {
    l.canSave = false;
    l.problem = "Your saved file " + saved + " could not be loaded (" + why +
                ") nor moved aside: the editor will not save over it. Move or fix it, then reopen the exercise.";
  }
  return l;
}

QString ExerciseStore::readSaved(const QString& path, QString& text) {
  const KernelFileText f = readKernelFile(path.toStdString());
  if (!f.error.empty()) return QString::fromStdString(f.error);
  // An empty or blank file is one the editor saves when the student clears it: it loads as it is.
  if (QByteArray::fromStdString(f.text).trimmed().isEmpty()) {
    text = QString::fromStdString(f.text);
    return {};
  }
  return textOf(path, f.text, text);
}

QString ExerciseStore::save(const QString& exerciseId, const QString& text, KernelLanguage language) const {
  const QByteArray bytes = text.toUtf8();
  if (std::size_t(bytes.size()) > kMaxKernelSourceBytes)
    return QString::fromStdString(kernelSizeProblem(std::size_t(bytes.size())));
  if (bytes.contains('\0')) return "the text holds a NUL character, which a kernel file cannot";
  if (!QDir().mkpath(m_folder)) return "cannot create the folder " + m_folder;
  return exportFile(path(exerciseId, language), text);
}

QString ExerciseStore::importFile(const QString& path, QString& text) {
  const KernelFileText f = readKernelFile(path.toStdString());  // a FIFO or /dev/zero is refused, never read
  return f.error.empty() ? textOf(path, f.text, text) : QString::fromStdString(f.error);
}

QString ExerciseStore::textOf(const QString& path, const std::string& bytes, QString& text) {
  if (const std::string bad = checkKernelSource(bytes); !bad.empty())
    return QFileInfo(path).fileName() + ": " + QString::fromStdString(bad);
  text = QString::fromStdString(bytes);
  return {};
}

QString ExerciseStore::exportFile(const QString& path, const QString& text) {
  const ExportResult r = exportBytes(path, text.toUtf8());
  return r.ok ? QString() : r.message;
}

}  // namespace launchlab::ui
