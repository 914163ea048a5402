// The window's "GPU server" settings: what is typed is checked inline (Save disabled, one line saying why), a good
// host and launchlab-cli path are stored in the settings that `launchlab` reads at start, "local" means this
// machine, and the toolbar's action opens one dialog (not a second one on a second click).
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include "dialogs/remote_dialog.h"
#include "fakes.h"
#include "models/settings.h"
#include "window/main_window.h"

using namespace launchlab::ui;

class TestRemoteDialog : public QObject {
  Q_OBJECT
 private slots:
  void checksWhatTheUserTypes() {
    QCOMPARE(checkRemoteForm("", ""), QString());
    QCOMPARE(checkRemoteForm("local", "anything goes when local"), QString());
    QCOMPARE(checkRemoteForm("alice@gpu-lab:2222", "/opt/launchlab/bin/launchlab-cli"), QString());
    QCOMPARE(checkRemoteForm("[::1]:22", ""), QString());
    QVERIFY(!checkRemoteForm("-oProxyCommand=x", "").isEmpty());
    QVERIFY(!checkRemoteForm("gpu lab", "").isEmpty());
    QVERIFY(!checkRemoteForm("gpu;rm", "").isEmpty());
    QVERIFY(!checkRemoteForm("gpu:99999", "").isEmpty());
    QVERIFY(!checkRemoteForm("gpu", "launchlab-cli; reboot").isEmpty());
    QVERIFY(!checkRemoteForm("gpu", "-x").isEmpty());
  }

  void badInputDisablesSavingWithOneInlineLine() {
    auto settings = AppSettings::ephemeral();
    RemoteDialog d(*settings, "");
    QVERIFY(d.saveButton()->isEnabled());
    QVERIFY(d.problemLabel()->isHidden());
    d.hostEdit()->setText("gpu lab");
    QVERIFY(!d.saveButton()->isEnabled());
    QVERIFY(!d.restartButton()->isEnabled());
    QVERIFY(!d.problemLabel()->isHidden());
    QVERIFY(!d.problemLabel()->text().isEmpty());
    QVERIFY(!d.problemLabel()->text().contains('\n'));
    QVERIFY(!d.problemLabel()->text().startsWith("--"));
    QTest::mouseClick(d.saveButton(), Qt::LeftButton);  // disabled: nothing is stored
    QCOMPARE(settings->remoteHost(), QString());
    d.hostEdit()->setText("bob@gpu-lab:2222");
    QVERIFY(d.saveButton()->isEnabled());
    QVERIFY(d.problemLabel()->isHidden());
  }

  void savingStoresWhatLaunchlabReadsAtStart() {
    auto settings = AppSettings::ephemeral();
    RemoteDialog d(*settings, "");
    d.hostEdit()->setText("  bob@gpu-lab:2222 ");
    d.cliEdit()->setText("/opt/ll/bin/launchlab-cli");
    QSignalSpy restart(&d, &RemoteDialog::restartRequested);
    QTest::mouseClick(d.saveButton(), Qt::LeftButton);
    QCOMPARE(settings->remoteHost(), QString("bob@gpu-lab:2222"));
    QCOMPARE(settings->remoteCli(), QString("/opt/ll/bin/launchlab-cli"));
    QCOMPARE(restart.count(), 0);
    QCOMPARE(d.result(), int(QDialog::Accepted));

    RemoteDialog back(*settings, "bob@gpu-lab:2222");
    QCOMPARE(back.hostEdit()->text(), QString("bob@gpu-lab:2222"));  // shows what is stored
    back.hostEdit()->setText("local");
    QSignalSpy restart2(&back, &RemoteDialog::restartRequested);
    QTest::mouseClick(back.restartButton(), Qt::LeftButton);
    QCOMPARE(settings->remoteHost(), QString());  // "local" = this machine
    QCOMPARE(restart2.count(), 1);
  }

  void slurmIsCheckedInlineAndSaved() {
    auto settings = AppSettings::ephemeral();
    RemoteDialog d(*settings, "");
    QVERIFY(!d.slurmBox()->isChecked());  // off by default
    d.slurmBox()->setChecked(true);
    QVERIFY(d.saveButton()->isEnabled());  // every field may be left to the cluster's defaults
    d.timeEdit()->setText("soon");
    QVERIFY(!d.saveButton()->isEnabled());
    QVERIFY(d.problemLabel()->text().contains("soon"));
    d.timeEdit()->setText("0:30:00");
    d.slurmArgsEdit()->setText("--gres=gpu:1 hostname");  // a word that is no option would become srun's command
    QVERIFY(!d.saveButton()->isEnabled());
    QVERIFY(d.problemLabel()->text().contains("hostname"));
    d.slurmArgsEdit()->setText("--gres=gpu:1");
    d.hostEdit()->setText("gpu-lab");  // Slurm goes from this machine: not with a GPU server as well
    QVERIFY(!d.saveButton()->isEnabled());
    d.hostEdit()->setText("");
    d.partitionEdit()->setText("gpu");
    QVERIFY(d.saveButton()->isEnabled());
    QTest::mouseClick(d.saveButton(), Qt::LeftButton);
    const SlurmForm saved = loadSlurmForm(*settings);
    QVERIFY(saved.enabled);
    QCOMPARE(saved.partition, QString("gpu"));
    QCOMPARE(saved.time, QString("0:30:00"));
    QCOMPARE(saved.args, QString("--gres=gpu:1"));
    RemoteDialog back(*settings, "a Slurm node (partition gpu)");
    QVERIFY(back.slurmBox()->isChecked());  // shows what is stored
    QCOMPARE(back.partitionEdit()->text(), QString("gpu"));
  }

  void theToolbarActionOpensOneDialog() {
    auto settings = AppSettings::ephemeral();
    MainWindowOptions o;
    o.firstRun = false;
    o.noGl = true;  // the dialog is the subject: no Mesa threads to tear down at exit (seen to abort there once)
    o.presetFolder = settings->privateFolder() + "/presets";
    MainWindow w(std::make_shared<test::FakeBackend>(), std::move(settings), o);
    QVERIFY(w.devices().remoteAction());
    QVERIFY(!w.devices().remoteDialog());
    w.devices().remoteAction()->trigger();
    QDialog* d = w.devices().remoteDialog();
    QVERIFY(d);
    w.devices().remoteAction()->trigger();
    QCOMPARE(w.devices().remoteDialog(), d);
    d->reject();
    QTRY_VERIFY(!w.devices().remoteDialog());
  }
};

QTEST_MAIN(TestRemoteDialog)
#include "test_remote_dialog.moc"
