#pragma once
/// Named presets (a FormState with a name) as JSON files, and the folder that holds them.
#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

#include "form_state.h"

namespace launchlab::ui {

struct Preset {
  QString name;
  FormState form;
  QString courseId;  ///< a built-in preset's course experiment (launchlab/course.h); empty for the user's own
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

/// A folder of named presets (<folder>/<safe name>.json) plus the read-only built-in ones (resources).
class PresetStore {
 public:
  explicit PresetStore(QString folder);
  /// The user's preset folder: <AppConfigLocation>/presets.
  static QString defaultFolder();
  const QString& folder() const { return m_folder; }
  /// User presets (sorted), then built-in ones prefixed "Course: ".
  QStringList names() const;
  bool save(const Preset& p, QString* error = nullptr) const;
  std::optional<Preset> load(const QString& name, QString* error = nullptr) const;
  /// The built-in preset of course experiment `courseId` (its "course_id"), or nullopt with the reason.
  static std::optional<Preset> loadCourse(const QString& courseId, QString* error = nullptr);
  bool remove(const QString& name) const;
  /// Renames a user preset (its file and the name inside); false with the reason for a built-in preset, a missing
  /// one, a bad new name or a new name already taken.
  bool rename(const QString& from, const QString& to, QString* error = nullptr) const;
  /// True for the read-only presets that come with the application ("Course: …").
  static bool isBuiltin(const QString& name);
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
