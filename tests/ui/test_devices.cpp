// Several GPUs in the window, on two fake devices (no GPU needed): the backend selects a device (its status, limits
// and the runs that follow), the toolbar's picker lists the devices and the banner names the chosen one, and a
// device that does not exist (launchlab --device N) is reported inline.
#include <QSignalSpy>
#include <QTest>

#include "../fake_devices.h"
#include "dialogs/device_picker.h"
#include "launchlab/kernels.h"
#include "models/backend.h"
#include "models/settings.h"
#include "window/banner.h"
#include "window/main_window.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

std::shared_ptr<EngineBackend> backendWith(DeviceStatus s) {
  auto reg = std::make_unique<Registry>();
  kernels::registerAllWorkloads(*reg);
  return std::make_shared<EngineBackend>(std::move(reg), makeStaticGpuRuntime(std::move(s)));
}

std::shared_ptr<EngineBackend> twoDeviceBackend() { return backendWith(launchlab::test::twoDevices()); }

MainWindowOptions quiet() {
  MainWindowOptions o;
  o.firstRun = false;
  o.startWorkload = "hypot";
  return o;
}

}  // namespace

class TestDevices : public QObject {
  Q_OBJECT
 private slots:
  void backendSelectsTheDeviceOfTheRunsThatFollow() {
    auto b = twoDeviceBackend();
    QCOMPARE(QString::fromStdString(b->selectDevice(2)),
             QString("device 2 does not exist: this machine has 2 CUDA devices (0 to 1)"));
    QCOMPARE(b->deviceStatus().info.name, std::string("GPU zero"));
    QCOMPARE(b->selectDevice(1), std::string());
    QCOMPARE(b->deviceStatus().info.name, std::string("GPU one"));
    QCOMPARE(b->launchLimits().maxThreadsPerBlock, 512);
    RunRequest r;
    r.workload = "hypot";
    r.n = 1000;
    r.impls = {"cpu-serial"};
    r.launch.block = Dim3{1024, 1, 1};
    const auto problems = b->validate(r);  // against GPU one's limits: the request names no device itself
    QCOMPARE(int(problems.size()), 1);
    QCOMPARE(problems[0].field, std::string("block"));
    r.launch.block.reset();
    const RunResult res = b->run(r, nullptr, {});
    QCOMPARE(int(res.status), int(Status::Ok));
    QCOMPARE(res.device.info.name, std::string("GPU one"));  // the engine ran it on the chosen device
  }

  void pickerListsTheDevicesAndTheBannerNamesTheChosenOne() {
    MainWindow w(twoDeviceBackend(), AppSettings::ephemeral(), quiet());
    DevicePicker* picker = w.devices().picker();
    QVERIFY(picker->hasChoice());
    QCOMPARE(picker->count(), 2);
    QCOMPARE(picker->itemText(1), QString("1: GPU one"));
    QVERIFY(w.desk().deviceBanner()->text().contains("device 0 of 2"));
    QSignalSpy changed(picker, &DevicePicker::deviceChanged);
    picker->choose(1);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(picker->currentIndex(), 1);
    QVERIFY(w.desk().deviceBanner()->text().contains("GPU one"));
    QVERIFY(w.desk().deviceBanner()->text().contains("device 1 of 2"));
  }

  void aStartDeviceThatDoesNotExistIsShownInline() {
    MainWindowOptions o = quiet();
    o.startDevice = 7;
    MainWindow w(twoDeviceBackend(), AppSettings::ephemeral(), o);
    QVERIFY(
        w.desk().errorBanner()->text().contains("device 7 does not exist: this machine has 2 CUDA devices (0 to 1)"));
    QVERIFY(w.desk().deviceBanner()->text().contains("GPU zero"));  // the runs stay on the default device
    o.startDevice = 1;
    MainWindow w1(twoDeviceBackend(), AppSettings::ephemeral(), o);
    QVERIFY(w1.desk().deviceBanner()->text().contains("GPU one"));
  }

  void withoutAGpuThereIsNothingToPick() {
    DeviceStatus none;
    none.reason = "no CUDA device found";
    MainWindowOptions o = quiet();
    o.startDevice = 0;
    MainWindow w(backendWith(none), AppSettings::ephemeral(), o);
    QVERIFY(!w.devices().picker()->hasChoice());
    QVERIFY(w.desk().errorBanner()->text().contains("no CUDA device (no CUDA device found)"));
  }
};

QTEST_MAIN(TestDevices)
#include "test_devices.moc"
