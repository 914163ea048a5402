#include "dialogs/device_picker.h"

#include <QSignalBlocker>

namespace launchlab::ui {

DevicePicker::DevicePicker(Backend& backend, QWidget* parent) : QComboBox(parent), m_backend(backend) {
  setObjectName("devicePicker");
  setToolTip("The CUDA device the runs use (launchlab --device N chooses it at start; launchlab-cli info lists them)");
  setSizeAdjustPolicy(QComboBox::AdjustToContents);
  refresh();
  connect(this, qOverload<int>(&QComboBox::activated), this, [this](int row) { choose(itemData(row).toInt()); });
}

void DevicePicker::refresh() {
  const QSignalBlocker block(this);
  const DeviceStatus s = m_backend.deviceStatus();
  clear();
  for (const auto& d : s.devices) {
    addItem(QString("%1: %2").arg(d.index).arg(QString::fromStdString(d.name)), d.index);
    if (s.available && d.index == s.info.index) setCurrentIndex(count() - 1);
  }
}

void DevicePicker::choose(int index) {
  const std::string why = m_backend.selectDevice(index);
  refresh();
  if (!why.empty()) {
    emit failed(QString("Device %1: %2").arg(index).arg(QString::fromStdString(why)));
    return;
  }
  const DeviceInfo d = m_backend.deviceStatus().info;
  emit deviceChanged(QString("device %1: %2").arg(d.index).arg(QString::fromStdString(d.name)));
}

}  // namespace launchlab::ui
