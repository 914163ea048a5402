#pragma once
/// Where the kernel editor's files come from and go: the starting files and reference solutions shipped with the
/// app (the workload folders' kernels/<workload>/exercise*.cu, compiled into core: exerciseText), the student's copy of
/// each exercise in the user's data folder (QStandardPaths::AppDataLocation/exercises/<exercise>.cu, written
/// atomically), and .cu files imported or exported by hand (checked with core's checkKernelSource: text, not empty, ≤
/// 256 KiB).
#include <QString>

#include "launchlab/exercise.h"

namespace launchlab::ui {

class ExerciseStore {
 public:
  /// `folder`: where the student's files live (default: defaultFolder()).
  explicit ExerciseStore(QString folder = {});
  /// AppDataLocation/exercises.
  static QString defaultFolder();
  const QString& folder() const { return m_folder; }

  /// The shipped starting file of `exerciseId` ("" when the binary has none).
  static QString startingFile(const QString& exerciseId);
  /// The shipped reference solution of `exerciseId` ("" when none).
  static QString solution(const QString& exerciseId);

  /// The student's file of `exerciseId`.
  QString path(const QString& exerciseId) const;
  bool hasSaved(const QString& exerciseId) const;
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
  Loaded load(const QString& exerciseId) const;
  /// Writes the student's file atomically; "" or why not. Refuses what load() could not read back (over the size
  /// limit, a NUL character), so that the editor never writes a file it would set aside on the next start.
  QString save(const QString& exerciseId, const QString& text) const;

  /// Reads a .cu file the user picked (core's readKernelFile: a pipe or a device is refused unread); "" with `text`
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
