#pragma once
/// The toolbar's CUDA device picker: one entry per device of the backend ("1: NVIDIA H200"), shown when the
/// machine has more than one. Choosing an entry (or `launchlab --device N`) selects that device in the backend:
/// the runs that follow use it, the form is checked against its limits and the device banner names it.
#include <QComboBox>

#include "models/backend.h"

namespace launchlab::ui {

class DevicePicker : public QComboBox {
  Q_OBJECT
 public:
  explicit DevicePicker(Backend& backend, QWidget* parent = nullptr);
  /// Whether there is a choice to make (more than one device).
  bool hasChoice() const { return count() > 1; }
  /// Selects device `index` in the backend; deviceChanged() or failed() with the reason follows.
  void choose(int index);
  /// Lists the backend's devices again and marks the selected one (no signal).
  void refresh();

 signals:
  void deviceChanged(const QString& description);
  void failed(const QString& reason);

 private:
  Backend& m_backend;
};

}  // namespace launchlab::ui
