// The sweep pane's recorded sweeps: a sweep file the user picks (read on a background thread, so a large one does not
// stop the window) or one of the reference sweeps shipped with LaunchLab, shown beside the live one.
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QToolButton>

#include "explorer/sweep_heatmap.h"
#include "explorer/sweep_pane.h"

namespace launchlab::ui {

void SweepPane::fillOpenMenu() {
  QMenu* menu = m_open->menu();
  menu->clear();
  menu->addAction("Open a sweep file (JSON)\xE2\x80\xA6", this, &SweepPane::chooseFile);
  menu->addSection("Reference sweeps shipped with LaunchLab");
  const auto refs = referenceSweepFiles();
  for (const QString& path : refs)
    menu->addAction(QFileInfo(path).completeBaseName(), this, [this, path] { openSweepFile(path); });
  if (refs.empty()) menu->addAction("none in this build (resources/reference-sweeps/README.md)")->setEnabled(false);
}

void SweepPane::chooseFile() {
  const QString path = QFileDialog::getOpenFileName(this, "Open a sweep", {}, "Sweeps (*.json);;All files (*)");
  if (!path.isEmpty()) openSweepFileInBackground(path);
}

bool SweepPane::openSweepFile(const QString& path) {
  QString why;
  auto s = launchlab::ui::openSweepFile(path, &why);
  return showOpened(path, std::move(s), why);
}

void SweepPane::openSweepFileInBackground(const QString& path) {
  if (m_reading.busy()) {
    setMessage("Still opening the previous sweep file\xE2\x80\xA6");
    return emit sweepFileOpened(false);
  }
  setMessage("Opening " + QFileInfo(path).fileName() + "\xE2\x80\xA6");
  auto read = std::make_shared<std::optional<ShownSweep>>();
  auto why = std::make_shared<QString>();
  m_reading.start([path, read, why] { *read = launchlab::ui::openSweepFile(path, why.get()); },
                  [this, path, read, why] { emit sweepFileOpened(showOpened(path, std::move(*read), *why)); });
}

bool SweepPane::showOpened(const QString& path, std::optional<ShownSweep> s, const QString& why) {
  if (!s) {
    setMessage("Cannot show this sweep: " + why);
    emit logLine("cannot open sweep " + why);
    return false;
  }
  setMessage({});
  m_recorded = std::move(*s);
  if (m_source->count() < 2) m_source->addItem({});
  m_source->setItemText(1, "Recorded: " + QFileInfo(path).fileName());
  emit logLine(m_recorded->label());
  if (m_source->currentIndex() == 1)
    refresh();
  else
    m_source->setCurrentIndex(1);
  m_heatmap->pickBest();  // the best launch explained at once; a click explains another
  return true;
}

}  // namespace launchlab::ui
