#pragma once
/// The Presets menu (toolbar): the user's saved presets, filled each time it opens, and saving the current
/// parameters, importing and exporting preset files (the course's experiments are the browser's Course tab). It owns
/// the preset folder; what a loaded preset does to the window is the window's business (presetChosen).
#include <QMenu>
#include <functional>
#include <memory>

#include "launchlab/engine/registry.h"
#include "models/presets.h"

namespace launchlab::ui {

class AppSettings;

class PresetMenu : public QMenu {
  Q_OBJECT
 public:
  /// The parameters a preset is saved from.
  using FormSource = std::function<FormState()>;
  PresetMenu(const QString& folder, const Registry& registry, const AppSettings& settings, FormSource currentForm,
             QWidget* parent = nullptr);
  ~PresetMenu() override;

  const PresetStore& store() const { return *m_store; }
  /// Rebuilds the entries: one per preset, then save / import / export.
  void refill();
  /// Loads `name`: presetChosen() when its workload is in this build, failed() otherwise.
  void load(const QString& name);
  /// Saves the current parameters as `name` (what "Save current parameters as…" does after asking); a log line
  /// confirms it.
  bool saveCurrentAs(const QString& name);
  /// Renames / deletes a preset (what the Rename and Delete submenus do after asking for the new name).
  bool renamePreset(const QString& from, const QString& to);
  bool deletePreset(const QString& name);
  /// Imports a preset file into the folder and loads it (what "Import preset file…" does after asking). When a
  /// preset of that name exists and differs, the user is asked first (replaceQuestion): replace it, keep both (the
  /// import gets a free name, "NAME (2)"), or cancel (false, nothing changed, no error).
  bool importFrom(const QString& path);

  enum class ImportChoice { Replace, KeepBoth, Cancel };
  using ReplaceQuestion = std::function<ImportChoice(const QString& name)>;
  /// How the user is asked before an import replaces a preset (a question box by default; tests answer it).
  void setReplaceQuestion(ReplaceQuestion ask) { m_askReplace = std::move(ask); }

 signals:
  void presetChosen(const launchlab::ui::Preset& preset);
  /// A line for the log.
  void logLine(const QString& line);
  /// Something went wrong (rich text for the error banner).
  void failed(const QString& message);
  /// A later preset action succeeded: the message of the last failed() is stale (the banner may drop it).
  void failureResolved(const QString& message);

 private:
  QWidget* dialogParent() const;
  void askAndSave();
  void askAndRename(const QString& name);
  void addUserPresetSubmenu(const QString& title, const QStringList& userNames, std::function<void(QString)> act);
  bool fail(const QString& message);
  void succeed(const QString& logText);
  void importFile();
  void exportFile();
  ImportChoice askReplace(const QString& name) const;
  QString freeName(const QString& name) const;

  std::unique_ptr<PresetStore> m_store;
  const Registry& m_registry;
  const AppSettings& m_settings;
  FormSource m_currentForm;
  QString m_lastFailure;
  ReplaceQuestion m_askReplace;
};

}  // namespace launchlab::ui
