#include "preset_menu.h"

#include <QFileDialog>
#include <QInputDialog>

#include "log_text.h"
#include "settings.h"

namespace launchlab::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

PresetMenu::PresetMenu(const QString& folder, const Registry& registry, const AppSettings& settings, FormSource currentForm,
                       QWidget* parent)
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
  addAction("Import preset file\xE2\x80\xA6", this, &PresetMenu::importFile);
  addAction("Export preset file\xE2\x80\xA6", this, &PresetMenu::exportFile);
}

void PresetMenu::load(const QString& name) {
  QString err;
  auto p = m_store->load(name, &err);
  if (!p) {
    emit failed(err.toHtmlEscaped());
    return;
  }
  if (!m_registry.find(p->form.workload)) {
    emit failed(presetWorkloadMissingText(name, p->form.workload));
    return;
  }
  emit presetChosen(*p);
  emit logLine("loaded preset " + name);
}

bool PresetMenu::saveCurrentAs(const QString& name) {
  QString err;
  if (!m_store->save({name.trimmed(), m_currentForm()}, &err)) {
    emit failed(err.toHtmlEscaped());
    return false;
  }
  emit logLine("saved preset " + name.trimmed() + " in " + m_store->folder());
  return true;
}

QWidget* PresetMenu::dialogParent() const { return parentWidget() ? parentWidget()->window() : nullptr; }

void PresetMenu::askAndSave() {
  bool ok = false;
  const QString name = QInputDialog::getText(dialogParent(), "Save preset", "Name:", QLineEdit::Normal,
                                             q(m_currentForm().workload) + " ", &ok);
  if (ok) saveCurrentAs(name);
}

void PresetMenu::importFile() {
  const QString path = QFileDialog::getOpenFileName(dialogParent(), "Import preset", m_settings.exportFolder(), "*.json");
  if (path.isEmpty()) return;
  QString err;
  auto p = loadPresetFile(path, &err);
  if (!p || !m_store->save(*p, &err)) {
    emit failed(err.toHtmlEscaped());
    return;
  }
  load(p->name);
}

void PresetMenu::exportFile() {
  const FormState form = m_currentForm();
  const QString path = QFileDialog::getSaveFileName(dialogParent(), "Export preset",
                                                    m_settings.exportFolder() + "/" + q(form.workload) + "_preset.json", "*.json");
  if (path.isEmpty()) return;
  QString err;
  if (savePresetFile(path, {q(form.workload), form}, &err)) emit logLine("wrote preset " + path);
  else emit failed(err.toHtmlEscaped());
}

}  // namespace launchlab::ui
