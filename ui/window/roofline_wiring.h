#pragma once
/// The window's Roofline tab: the ceilings (asked of the device once the tab is first shown, measured once per
/// device; a datasheet's without a GPU), the run on screen and the History's runs beside it.
#include <QObject>

#include "runs/controller.h"

namespace launchlab::ui {

class Backend;
class Desk;

class RooflineWiring : public QObject {
  Q_OBJECT
 public:
  RooflineWiring(Desk& desk, RunController& controller, Backend& backend, QObject* parent);

  /// The ceilings for the device now known: asked again when the tab is next shown (`ask`: now).
  void updateCeilings(bool ask);
  /// `r` on the roofline, with the History's other runs.
  void showRun(const RunResult& r);

 private:
  Desk& m_desk;
  RunController& m_controller;
  Backend& m_backend;
  bool m_asked = false;
};

}  // namespace launchlab::ui
