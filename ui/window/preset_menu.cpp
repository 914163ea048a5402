#include "window/preset_menu.h"

#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <utility>

#include "models/log_text.h"
#include "models/settings.h"
#include "models/text.h"

namespace launchlab::ui {

namespace {}  // namespace

PresetMenu::PresetMenu(const QString& folder, const Registry& registry, const AppSettings& settings,
                       FormSource currentForm, QWidget* parent)
    : QMenu(parent),
      m_store(std::make_unique<PresetStore>(folder)),
      m_registry(registry),
      m_settings(settings),
      m_currentForm(std::move(currentForm)) {
  connect(this, &QMenu::aboutToShow, this, &PresetMenu::refill);
}

PresetMenu::~PresetMenu() = default;

void PresetMenu::refill() {
  clear();
  const QStringList names = m_store->names();
  for (const auto& n : names) addAction(n, this, [this, n] { load(n); });
  if (names.isEmpty()) addAction("(no presets yet)")->setEnabled(false);
  addSeparator();
  addAction("Save current parameters as\xE2\x80\xA6", this, &PresetMenu::askAndSave);
  addUserPresetSubmenu("Rename preset", names, [this](const QString& n) { askAndRename(n); });
  addUserPresetSubmenu("Delete preset", names, [this](const QString& n) { deletePreset(n); });
  addAction("Import preset file\xE2\x80\xA6", this, &PresetMenu::importFile);
  addAction("Export preset file\xE2\x80\xA6", this, &PresetMenu::exportFile);
}

void PresetMenu::addUserPresetSubmenu(const QString& title, const QStringList& userNames,
                                      std::function<void(QString)> act) {
  QMenu* sub = addMenu(title);
  sub->setEnabled(!userNames.isEmpty());
  for (const auto& n : userNames) sub->addAction(n, this, [act, n] { act(n); });
}

bool PresetMenu::fail(const QString& message) {
  m_lastFailure = message.toHtmlEscaped();
  emit failed(m_lastFailure);
  return false;
}

void PresetMenu::succeed(const QString& logText) {
  if (!m_lastFailure.isEmpty()) emit failureResolved(std::exchange(m_lastFailure, QString()));
  emit logLine(logText);
}

void PresetMenu::load(const QString& name) {
  QString err;
  auto p = m_store->load(name, &err);
  if (!p) {
    fail(err);
    return;
  }
  if (!m_registry.find(p->form.workload)) {
    m_lastFailure = presetWorkloadMissingText(name, p->form.workload);
    emit failed(m_lastFailure);
    return;
  }
  emit presetChosen(*p);
  succeed("loaded preset " + name);
}

bool PresetMenu::saveCurrentAs(const QString& name) {
  QString err;
  const bool replaced = m_store->names().contains(name.trimmed());
  if (!m_store->save({name.trimmed(), m_currentForm()}, &err)) return fail(err);
  succeed(QString(replaced ? "replaced" : "saved") + " preset " + name.trimmed() + " in " + m_store->folder());
  return true;
}

bool PresetMenu::renamePreset(const QString& from, const QString& to) {
  QString err;
  if (!m_store->rename(from, to, &err)) return fail(err);
  succeed("renamed preset '" + from + "' to '" + to.trimmed() + "'");
  return true;
}

bool PresetMenu::deletePreset(const QString& name) {
  if (!m_store->remove(name)) return fail("could not delete preset '" + name + "'");
  succeed("deleted preset '" + name + "'");
  return true;
}

QWidget* PresetMenu::dialogParent() const { return parentWidget() ? parentWidget()->window() : nullptr; }

void PresetMenu::askAndSave() {
  bool ok = false;
  const QString name = QInputDialog::getText(dialogParent(), "Save preset", "Name:", QLineEdit::Normal,
                                             q(m_currentForm().workload) + " ", &ok);
  if (ok) saveCurrentAs(name);
}

void PresetMenu::askAndRename(const QString& name) {
  bool ok = false;
  const QString to = QInputDialog::getText(dialogParent(), "Rename preset", "New name:", QLineEdit::Normal, name, &ok);
  if (ok) renamePreset(name, to);
}

void PresetMenu::importFile() {
  const QString path =
      QFileDialog::getOpenFileName(dialogParent(), "Import preset", m_settings.exportFolder(), "*.json");
  if (!path.isEmpty()) importFrom(path);
}

bool PresetMenu::importFrom(const QString& path) {
  QString err;
  auto p = loadPresetFile(path, &err);
  if (!p) return fail(err);
  if (m_store->names().contains(p->name)) {
    const auto existing = m_store->load(p->name, nullptr);
    if (!existing || existing->form != p->form) {
      switch (askReplace(p->name)) {
        case ImportChoice::Cancel:
          emit logLine("import of " + path + " cancelled: preset '" + p->name + "' kept as it was");
          return false;
        case ImportChoice::KeepBoth:
          p->name = freeName(p->name);
          break;
        case ImportChoice::Replace:
          break;
      }
    }
  }
  if (!m_store->save(*p, &err)) return fail(err);
  load(p->name);
  return m_lastFailure.isEmpty();
}

PresetMenu::ImportChoice PresetMenu::askReplace(const QString& name) const {
  if (m_askReplace) return m_askReplace(name);
  QMessageBox box(QMessageBox::Question, "Import preset", "A preset named '" + name + "' exists with other parameters.",
                  QMessageBox::NoButton, dialogParent());
  QPushButton* replace = box.addButton("Replace it", QMessageBox::DestructiveRole);
  QPushButton* both = box.addButton("Keep both", QMessageBox::AcceptRole);
  box.addButton(QMessageBox::Cancel);
  box.setDefaultButton(both);
  box.exec();
  if (box.clickedButton() == replace) return ImportChoice::Replace;
  return box.clickedButton() == both ? ImportChoice::KeepBoth : ImportChoice::Cancel;
}

/// "NAME (2)", "NAME (3)", …: the first name no preset has.
QString PresetMenu::freeName(const QString& name) const {
  const QStringList names = m_store->names();
  QString candidate;
  for (int k = 2; names.contains(candidate = name + " (" + QString::number(k) + ")"); ++k) {
  }
  return candidate;
}

void PresetMenu::exportFile() {
  const FormState form = m_currentForm();
  const QString path = QFileDialog::getSaveFileName(
      dialogParent(), "Export preset", m_settings.exportFolder() + "/" + q(form.workload) + "_preset.json", "*.json");
  if (path.isEmpty()) return;
  QString err;
  if (savePresetFile(path, {q(form.workload), form}, &err))
    succeed("wrote preset " + path);
  else
    fail(err);
}

}  // namespace launchlab::ui
