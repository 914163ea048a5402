// Run files in the window: a run saved by launchlab-cli (--save-run) opens offscreen on this CPU-only machine,
// labelled with the GPU that measured it, its arrays plotted like a live run's; a bad file changes nothing on
// screen; Save run writes what is shown, and the CLI reads it back.
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <optional>

#include "../fake_devices.h"
#include "app/gui_wiring.h"
#include "launchlab/files/run_file.h"
#include "models/settings.h"
#include "plots/outputs_pane.h"
#include "window/banner.h"
#include "window/main_window.h"
#include "window/param_panel.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

class TestRunFileView : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_dir;
  QString m_file;  // made by the CLI, then marked as measured on an H200

  static QString cli(const QStringList& args, int* code = nullptr) {
    QProcess p;
    p.start(LAUNCHLAB_CLI_PATH, args);
    p.waitForFinished(60000);
    if (code) *code = p.exitCode();
    return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
  }

 private slots:
  void initTestCase() {
    m_file = m_dir.filePath("pulse.llrun");
    int code = -1;
    const QString out = cli({"run", "vector_add", "--n", "5000", "--reps", "2", "--save-run", m_file}, &code);
    QVERIFY2(code == 0, qPrintable(out));
    launchlab::test::markRecordedOnH200(m_file.toStdString());
    m_window = ui::test::openWindow(app::makeEngineBackend(), m_dir.filePath("presets"));
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
  }

  void opensARunFileMadeByTheCliLabelledWithWhereItWasMeasured() {
    const QString ownDevice = m_window->desk().deviceBanner()->text();
    QVERIFY(m_window->runFiles().open(m_file));
    const QString label = m_window->desk().recordedBanner()->text();
    QVERIFY2(m_window->desk().recordedBanner()->isVisible(), qPrintable(label));
    QVERIFY2(label.contains("Recorded on NVIDIA H200 (driver 13.0), 2026-11-23 09:15 UTC"), qPrintable(label));
    QVERIFY2(label.contains("pulse.llrun"), qPrintable(label));
    // This machine is not said to have measured it: its own banner still names its own device (or none).
    QCOMPARE(m_window->desk().deviceBanner()->text(), ownDevice);

    const auto shown = m_window->results().last();
    QVERIFY(shown);
    QCOMPARE(shown->result, runfile::load(m_file.toStdString()));
    QVERIFY(m_window->desk().outputsPane()->viewCount() > 0);
    for (int i = 0; i < m_window->desk().outputsPane()->viewCount(); ++i)
      QVERIFY2(m_window->desk().outputsPane()->view(i)->drawnPoints() > 0,
               qPrintable(m_window->desk().outputsPane()->view(i)->summary()));
    // The form holds the recorded request, so Run measures the same thing again here.
    QCOMPARE(m_window->desk().paramPanel()->form().workload, std::string("vector_add"));
    QCOMPARE(m_window->desk().paramPanel()->form().reps, 2);
  }

  // A run measured while another process used the GPU says so in amber, under the device banner: its times hold
  // that process's share. The next run that had the GPU to itself takes the warning away.
  void aRunMeasuredBesideAnotherProcessOnTheGpuIsAnAmberWarning() {
    RunResult r = runfile::load(m_file.toStdString());
    r.sharing = sharingRule({true, "", {{4242, 0, "python3"}}, 0, 0, 0, 0}, {true, "", {}, 90, 0, 0, 0}, 1, 2);
    const QString shared = m_dir.filePath("shared.llrun");
    runfile::save(shared.toStdString(), r);
    QVERIFY(m_window->runFiles().open(shared));
    const QString text = m_window->desk().errorBanner()->text();
    QVERIFY2(m_window->desk().errorBanner()->isVisible(), qPrintable(text));
    QCOMPARE(m_window->desk().errorBanner()->level(), Banner::Level::Warning);
    QCOMPARE(text, QString("GPU shared: another process used the GPU: pid 4242 (python3). These times include its "
                           "share of the GPU: run again when the GPU is free to compare them."));
    QVERIFY(m_window->runFiles().open(m_file));
    QVERIFY(!m_window->desk().errorBanner()->isVisible());
  }

  // The window reads a run file off the GUI thread (a large or hostile one must not freeze it): the event loop
  // turns while the file is read, then the run is shown; a second file asked for meanwhile is refused in the log,
  // and a bad one read in the background is one inline message like any other.
  void aRunFileIsReadOffTheGuiThread() {
    std::optional<bool> shown, second, bad;
    m_window->runFiles().openInBackground(m_file, [&](bool ok) { shown = ok; });
    QVERIFY(!shown);  // not read yet: nothing happened on this thread
    m_window->runFiles().openInBackground(m_file, [&](bool ok) { second = ok; });
    QVERIFY(second && !*second);                         // one read at a time
    QTRY_VERIFY_WITH_TIMEOUT(shown.has_value(), 60000);  // failure guard only
    QVERIFY(*shown);
    QCOMPARE(m_window->results().last()->result, runfile::load(m_file.toStdString()));
    const QString junk = m_dir.filePath("junk-background.llrun");
    QFile f(junk);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a zip");
    f.close();
    const auto before = m_window->results().last();
    m_window->runFiles().openInBackground(junk, [&](bool ok) { bad = ok; });
    QTRY_VERIFY_WITH_TIMEOUT(bad.has_value(), 60000);
    QVERIFY(!*bad);
    QVERIFY(m_window->desk().errorBanner()->isVisible());
    QCOMPARE(m_window->results().last(), before);
  }

  void aBadFileIsOneInlineMessageAndNothingIsLost() {
    const auto before = m_window->results().last();
    const QString junk = m_dir.filePath("junk.llrun");
    QFile f(junk);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("PK\x03\x04 truncated");
    f.close();
    QVERIFY(!m_window->runFiles().open(junk));
    QVERIFY(m_window->desk().errorBanner()->isVisible());
    QVERIFY2(m_window->desk().errorBanner()->text().contains("not a LaunchLab run file"),
             qPrintable(m_window->desk().errorBanner()->text()));
    QCOMPARE(m_window->results().last(), before);
    QVERIFY(m_window->desk().recordedBanner()->isVisible());
  }

  void savedRunsOpenInTheCliAndALiveRunDropsTheLabel() {
    QVERIFY(ui::test::runAndWait(*m_window));
    QVERIFY(!m_window->desk().recordedBanner()->isVisible());  // measured here, now
    const QString saved = m_dir.filePath("saved.llrun");
    QVERIFY(m_window->runFiles().save(saved));
    QCOMPARE(runfile::load(saved.toStdString()), m_window->results().last()->result);
    int code = -1;
    const QString shown = cli({"show", saved}, &code);
    QCOMPARE(code, 0);
    // Where it was measured: this machine, with its GPU or without one.
    const bool gpu = m_window->results().last()->result.device.available;
    QVERIFY2(shown.contains(gpu ? "recorded on " +
                                      QString::fromStdString(m_window->results().last()->result.device.info.name)
                                : QString("recorded on a machine without a usable GPU")),
             qPrintable(shown));
  }

  // The launch is part of what was measured: a run file recorded with a block, a grid and a block trace reopens
  // with them in the form, and Run measures that launch again, not the automatic one.
  void aReopenedRunFileRunsItsOwnLaunchAgain() {
    const QString file = m_dir.filePath("launch.llrun");
    int code = -1;
    const QString out = cli({"run", "vector_add", "--n", "5000", "--reps", "2", "--block", "128", "--grid", "64",
                             "--trace-blocks", "--save-run", file},
                            &code);
    QVERIFY2(code == 0, qPrintable(out));
    const RunResult recorded = runfile::load(file.toStdString());
    QCOMPARE(recorded.requestedLaunch.block, std::optional<Dim3>(Dim3{128, 1, 1}));
    QCOMPARE(recorded.requestedLaunch.grid, std::optional<Dim3>(Dim3{64, 1, 1}));
    QVERIFY(recorded.traceBlocks);
    QVERIFY(m_window->runFiles().open(file));
    const FormState form = m_window->desk().paramPanel()->form();
    QVERIFY(!form.autoBlock);
    QCOMPARE(form.block, std::string("128"));
    QVERIFY(!form.autoGrid);
    QCOMPARE(form.grid, std::string("64"));
    QVERIFY(form.traceBlocks);
    QVERIFY(ui::test::runAndWait(*m_window));
    const RunResult& again = m_window->results().last()->result;
    QCOMPARE(again.requestedLaunch, recorded.requestedLaunch);
    QCOMPARE(again.traceBlocks, recorded.traceBlocks);
    QCOMPARE(again.n, recorded.n);
  }

  // Seeds are uint64: one above 2^31 - 1 (the old spin box's end) stays in the form and reaches the run exactly.
  void aSeedBeyondIntRangeIsRunExactly() {
    for (std::uint64_t seed : {std::uint64_t(5000000000ull), std::uint64_t(18446744073709551615ull)}) {
      FormState f = m_window->desk().paramPanel()->form();
      f.seed = seed;
      m_window->desk().paramPanel()->setForm(f);
      QCOMPARE(m_window->desk().paramPanel()->form().seed, seed);
      QVERIFY(ui::test::runAndWait(*m_window));
      QCOMPARE(m_window->results().last()->result.seed, seed);
    }
  }

  void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestRunFileView)
#include "test_run_file_view.moc"
