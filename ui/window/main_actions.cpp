#include "window/main_actions.h"

#include <QAction>
#include <QCheckBox>
#include <QSignalBlocker>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QWidget>

#include "window/banner.h"
#include "window/desk.h"
#include "window/param_panel.h"
#include "window/preset_menu.h"

namespace launchlab::ui {

MainActions makeMainActions(QWidget* window) {
  MainActions a;
  QStyle* style = window->style();
  a.run = new QAction(style->standardIcon(QStyle::SP_MediaPlay), "Run", window);
  a.run->setShortcut(QKeySequence("Ctrl+R"));
  a.run->setToolTip("Run the selected implementations (Ctrl+R)");
  a.cancel = new QAction(style->standardIcon(QStyle::SP_MediaStop), "Cancel", window);
  a.cancel->setShortcut(QKeySequence(Qt::Key_Escape));
  a.cancel->setToolTip("Stop at the next repetition (Esc)");
  a.cancel->setEnabled(false);
  a.exportPlot = new QAction(style->standardIcon(QStyle::SP_DialogSaveButton), "Export\xE2\x80\xA6", window);
  a.exportPlot->setShortcut(QKeySequence("Ctrl+E"));
  a.exportPlot->setToolTip("Export a plot (PNG, PDF, SVG) or the data (CSV, JSON, .npy) (Ctrl+E)");
  a.present = new QAction("Presentation", window);
  a.present->setCheckable(true);
  a.present->setShortcut(QKeySequence(Qt::Key_F5));
  a.present->setToolTip("Projector mode: large fonts, thick lines, high contrast, full screen (F5)");
  a.panel = new QAction("Parameters", window);
  a.panel->setCheckable(true);
  a.panel->setChecked(true);
  a.panel->setShortcut(QKeySequence(Qt::Key_F4));
  a.panel->setToolTip("Show or hide the parameter panel (F4); presentation mode hides it so the plots get the room");
  a.fullScreen = new QAction("Full screen", window);
  a.fullScreen->setShortcut(QKeySequence(Qt::Key_F11));
  a.fullScreen->setToolTip("Full screen (F11)");
  for (QAction* x : {a.run, a.cancel, a.exportPlot, a.panel, a.present, a.fullScreen})
    x->setShortcutContext(Qt::WindowShortcut);
  return a;
}

QAction* addCountersAction(QToolBar* tb, ParamPanel* panel) {
  auto* act = tb->addAction("Counters");
  act->setCheckable(true);
  act->setToolTip(
      "Counters for every CUDA implementation: sectors per request, bank conflicts, DRAM bytes, occupancy... in the "
      "Results table, the lesson's own on the stage; measured on one more, untimed run, by the hardware counters "
      "(CUPTI) where the driver allows it, else from the kernel's own accesses (no admin rights; per source line)");
  QObject::connect(act, &QAction::toggled, panel, [panel](bool on) {
    if (QCheckBox* box = panel->countersBox(); box && box->isChecked() != on) box->setChecked(on);
  });
  QObject::connect(panel, &ParamPanel::changed, act, [panel, act] {
    const QSignalBlocker quiet(act);
    act->setChecked(!panel->form().counters.empty());
  });
  return act;
}

PresetMenu* addPresetButton(QToolBar* tb, const QString& folder, const Registry& registry, AppSettings& settings,
                            Desk& desk) {
  auto* button = new QToolButton;
  button->setText("Presets");
  button->setPopupMode(QToolButton::InstantPopup);
  button->setToolTip("Save and load named parameter sets (JSON)");
  ParamPanel* panel = desk.paramPanel();
  auto* presets = new PresetMenu(
      folder, registry, settings, [panel] { return panel->form(); }, button);
  button->setMenu(presets);
  Banner* banner = desk.errorBanner();
  QObject::connect(presets, &PresetMenu::logLine, &desk, &Desk::log);
  QObject::connect(presets, &PresetMenu::failed, banner,
                   [banner](const QString& m) { banner->showMessage(Banner::Level::Error, m); });
  QObject::connect(presets, &PresetMenu::failureResolved, banner, [banner](const QString& m) {
    if (banner->text() == m) banner->hide();
  });
  tb->addWidget(button);
  return presets;
}

}  // namespace launchlab::ui
