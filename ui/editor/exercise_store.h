#pragma once
/// Where the kernel editor's files come from and go, in each of the two languages a kernel may be written in (CUDA
/// C++ and Python for Numba): the starting files and reference solutions shipped with the app (the workload folders'
/// kernels/<workload>/exercise*.cu and their .py twins, compiled into core: exerciseText, numbaExerciseText), the
/// student's copy of each exercise in the user's data folder (QStandardPaths::AppDataLocation/exercises/<exercise>.cu
/// or .py: each language its own file, written atomically), files imported or exported by hand (checked with core's
/// checkKernelSource: text, not empty, ≤ 256 KiB), and the editor's two choices (language, Python) in editor.ini
/// there.
#include <QString>

#include "launchlab/course/exercise.h"

namespace launchlab::ui {

/// The language of a kernel file: CUDA C++ (NVRTC) or Python (a Numba @cuda.jit kernel).
enum class KernelLanguage { Cuda, Python };
/// ".cu" or ".py".
QString languageSuffix(KernelLanguage language);
/// The language a file's name says (.py: Python; anything else: CUDA C++).
KernelLanguage languageOf(const QString& fileName);

class ExerciseStore {
 public:
  /// `folder`: where the student's files live (default: defaultFolder()).
  explicit ExerciseStore(QString folder = {});
  /// AppDataLocation/exercises.
  static QString defaultFolder();
  const QString& folder() const { return m_folder; }

  /// The shipped starting file of `exerciseId` ("" when the binary has none).
  static QString startingFile(const QString& exerciseId, KernelLanguage language = KernelLanguage::Cuda);
  /// The shipped reference solution of `exerciseId` ("" when none).
  static QString solution(const QString& exerciseId, KernelLanguage language = KernelLanguage::Cuda);
  /// The shipped file's path relative to kernels/ ("vector_add/exercise_solution.py"), "" for an unknown exercise.
  static QString shippedPath(const QString& exerciseId, bool solution, KernelLanguage language);

  /// The student's file of `exerciseId`.
  QString path(const QString& exerciseId, KernelLanguage language = KernelLanguage::Cuda) const;
  bool hasSaved(const QString& exerciseId, KernelLanguage language = KernelLanguage::Cuda) const;
  /// What load() found.
  struct Loaded {
    QString text;            ///< the saved file, or the starting file when there is none or it cannot be loaded
    bool fromSaved = false;  ///< text is the student's saved file
    /// Why the saved file could not be loaded and where it was kept ("" when it loaded or there is none).
    QString problem;
    /// False when a saved file that did not load could not be moved aside either: saving would replace it.
    bool canSave = true;
  };
  /// The student's saved file, else the starting file. A saved file that cannot be loaded (not UTF-8, a NUL byte,
  /// over the size limit) is never lost: it is renamed to <id>.cu.unreadable (-2, -3, ... when taken) and the
  /// problem says so.
  Loaded load(const QString& exerciseId, KernelLanguage language = KernelLanguage::Cuda) const;
  /// Writes the student's file atomically; "" or why not. Refuses what load() could not read back (over the size
  /// limit, a NUL character), so that the editor never writes a file it would set aside on the next start.
  QString save(const QString& exerciseId, const QString& text, KernelLanguage language = KernelLanguage::Cuda) const;

  /// The editor's choice `key` ("language", "python") kept beside the files, "" when none; setPreference writes it.
  QString preference(const QString& key) const;
  void setPreference(const QString& key, const QString& value) const;

  /// Reads a kernel file the user picked (core's readKernelFile: a pipe or a device is refused unread); "" with `text`
  /// set, or one line saying why it cannot be used.
  static QString importFile(const QString& path, QString& text);
  /// Writes `text` to `path` atomically; "" or why not.
  static QString exportFile(const QString& path, const QString& text);

  /// Reads a saved file as importFile does, except that an empty or blank one (which save() writes) loads too.
  static QString readSaved(const QString& path, QString& text);

 private:
  /// `bytes` as the editor's text if checkKernelSource() takes them; else why not, naming the file.
  static QString textOf(const QString& path, const std::string& bytes, QString& text);

  QString m_folder;
};

}  // namespace launchlab::ui
