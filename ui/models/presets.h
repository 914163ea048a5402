#pragma once
/// Named presets (a FormState with a name) as JSON files, the folder that holds the user's, and a course
/// experiment's form, built from the course data (launchlab/course/course.h) where the window opens one.
#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

#include "launchlab/course/course.h"
#include "launchlab/engine/registry.h"
#include "models/form_state.h"

namespace launchlab::ui {

struct Preset {
  QString name;
  FormState form;
  QString courseId;  ///< the course experiment it was built from (coursePreset); empty for the user's own
  bool operator==(const Preset&) const = default;
};

QJsonObject formToJson(const FormState& f);
/// Reads a form; missing keys keep FormState's defaults, wrong types are an error (in `error`).
std::optional<FormState> formFromJson(const QJsonObject& o, QString* error = nullptr);

/// {"launchlab_preset": 1, "name": …, "form": {…}} as indented JSON.
QByteArray presetToJson(const Preset& p);
/// The longest preset name read (it becomes a menu entry); a longer one refuses the preset.
inline constexpr int kMaxPresetNameChars = 200;
std::optional<Preset> presetFromJson(const QByteArray& bytes, QString* error = nullptr);
/// Writes atomically (QSaveFile); on failure returns false with the reason and leaves no partial file.
bool savePresetFile(const QString& path, const Preset& p, QString* error = nullptr);
/// Reads a preset: a user's file through core's bounded reader (a pipe or a device is refused unread; at most
/// files::kMaxPresetFileBytes), a built-in one (":/…") from the resources.
std::optional<Preset> loadPresetFile(const QString& path, QString* error = nullptr);

/// The form that runs course experiment `e` as `launchlab-cli course run` does: the workload's default form with
/// the experiment's request over it (its size, dtype, parameters, launch, implementations, repetitions and seed as
/// the course file writes them; "all" implementations ticks every one) and its counters. The one translation of a
/// course request into the window's form; nullopt with the reason when the request's repetitions or seed are not
/// numbers (the form holds them as numbers; other fields keep their text and the form checks them).
std::optional<FormState> courseForm(const CourseExperiment& e, const Workload& w, QString* error = nullptr);
/// Course experiment `id` (built-in, or an instructor's --course-dir one) as a preset named by its title, or
/// nullopt with one line: the id is not in the course, or this build lacks its workload.
std::optional<Preset> coursePreset(std::string_view id, const Registry& registry, QString* error = nullptr);

/// A folder of the user's named presets (<folder>/<safe name>.json).
class PresetStore {
 public:
  explicit PresetStore(QString folder);
  /// The user's preset folder: <AppConfigLocation>/presets.
  static QString defaultFolder();
  const QString& folder() const { return m_folder; }
  /// The presets' names, sorted.
  QStringList names() const;
  bool save(const Preset& p, QString* error = nullptr) const;
  std::optional<Preset> load(const QString& name, QString* error = nullptr) const;
  bool remove(const QString& name) const;
  /// Renames a preset (its file and the name inside); false with the reason for a missing one, a bad new name or a
  /// new name already taken.
  bool rename(const QString& from, const QString& to, QString* error = nullptr) const;
  /// A file name for a preset name: letters, digits, '-', '_' and '.' kept, anything else '_'. Names that map to
  /// the same file ("lab a", "lab_a") each keep their own: the second is saved as "<stem>-2.json", and so on.
  static QString fileNameFor(const QString& name);

 private:
  /// The file holding preset `name`, or "" when none does.
  QString fileOf(const QString& name) const;
  /// Where `name` is saved: its own file, else fileNameFor(name) or the first "<stem>-K.json" no preset holds.
  QString fileToSave(const QString& name) const;
  QString m_folder;
};

}  // namespace launchlab::ui
