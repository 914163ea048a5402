#pragma once
/// Where the kernel editor's files come from and go: the starting files and reference solutions shipped with the
/// app (the workload folders' kernels/<workload>/exercise*.cu, compiled into core: exerciseText), the student's copy of each exercise in
/// the user's data folder (QStandardPaths::AppDataLocation/exercises/<exercise>.cu, written atomically), and
/// .cu files imported or exported by hand (checked with core's checkKernelSource: text, not empty, ≤ 256 KiB).
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
  /// The student's saved file, else the starting file.
  QString load(const QString& exerciseId) const;
  /// Writes the student's file atomically; "" or why not.
  QString save(const QString& exerciseId, const QString& text) const;

  /// Reads a .cu file the user picked; "" with `text` set, or one line saying why it cannot be used.
  static QString importFile(const QString& path, QString& text);
  /// Writes `text` to `path` atomically; "" or why not.
  static QString exportFile(const QString& path, const QString& text);

 private:
  QString m_folder;
};

}  // namespace launchlab::ui
