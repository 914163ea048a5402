#pragma once
/// The toolbar's own actions (Run, Cancel, Export, Parameters, Presentation, Full screen, Counters), with their
/// keys and tooltips. The window places them among the controllers' (Live, run files, presets, OpenGL, device).
class QAction;
class QString;
class QToolBar;
class QWidget;

namespace launchlab {
class Registry;
}

namespace launchlab::ui {

class AppSettings;
class Desk;
class ParamPanel;
class PresetMenu;

struct MainActions {
  QAction* run = nullptr;
  QAction* cancel = nullptr;
  QAction* exportPlot = nullptr;
  QAction* panel = nullptr;
  QAction* present = nullptr;
  QAction* fullScreen = nullptr;
};

/// The actions, owned by `window`, each with its key in the window's context.
MainActions makeMainActions(QWidget* window);

/// The Counters toggle beside Run on `tb`: the parameter panel's "Hardware counters" box, one click away (a memory
/// lesson turns it on with its own counters).
QAction* addCountersAction(QToolBar* tb, ParamPanel* panel);

/// The Presets button on `tb`: named parameter sets saved in `folder`, loaded into the desk's form (its failures in
/// the error banner, its lines in the log); the window takes PresetMenu::presetChosen.
PresetMenu* addPresetButton(QToolBar* tb, const QString& folder, const Registry& registry, AppSettings& settings,
                            Desk& desk);

}  // namespace launchlab::ui
