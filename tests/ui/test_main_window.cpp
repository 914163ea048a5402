// The whole window on the real engine (offscreen): the first screen shows a real run, invalid input disables
// Run with the reason in place, workloads switch, Cancel works, presentation mode and export work.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "ui/backend.h"
#include "ui/banner.h"
#include "ui/charts.h"
#include "ui/export_dialog.h"
#include "ui/main_window.h"
#include "ui/param_panel.h"
#include "ui/settings.h"
#include "ui/workload_browser.h"

using namespace launchlab;
using namespace launchlab::ui;

class TestMainWindow : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_dir;
  QElapsedTimer m_clock;

  bool runAndWait(int timeoutMs = 30000) {
    QSignalSpy shown(m_window.get(), &MainWindow::runDisplayed);
    m_window->runAction()->trigger();
    return shown.wait(timeoutMs);
  }

 private slots:
  void initTestCase() {
    m_clock.start();
    MainWindowOptions o;
    o.presetFolder = m_dir.filePath("presets");
    o.startClock = &m_clock;
    m_window = std::make_unique<MainWindow>(std::make_shared<EngineBackend>(), AppSettings::ephemeral(), o);
    QSignalSpy first(m_window.get(), &MainWindow::firstPlotShown);
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(first.wait(30000));
    QVERIFY(first.at(0).at(0).toLongLong() > 0);
  }

  void firstScreenShowsARealRun() {
    auto o = m_window->lastOutcome();
    QVERIFY(o);
    const QString expected = MainWindow::defaultWorkload(EngineBackend().registry());
    QCOMPARE(QString::fromStdString(o->result.workload), expected);
    QVERIFY(o->result.status == Status::Ok);
    QVERIFY(o->result.find("cpu-serial")->status == Status::Ok);
    QVERIFY(m_window->outputViewCount() >= 1);
    QVERIFY(m_window->outputView(0)->drawnPoints() > 0);
    QVERIFY(!m_window->outputView(0)->summary().isEmpty());
    QCOMPARE(m_window->timingChart()->data().bars.size(), o->result.impls.size());
    QVERIFY(m_window->firstPlotMs() > 0);
    QVERIFY(m_window->deviceBanner()->isVisible());
    QVERIFY(!m_window->deviceBanner()->text().isEmpty());
  }

  void shortcuts() {
    QCOMPARE(m_window->runAction()->shortcut(), QKeySequence("Ctrl+R"));
    QCOMPARE(m_window->cancelAction()->shortcut(), QKeySequence(Qt::Key_Escape));
    QCOMPARE(m_window->presentationAction()->shortcut(), QKeySequence(Qt::Key_F5));
  }

  void invalidInputDisablesRunWithTheReasonInPlace() {
    ParamPanel* panel = m_window->paramPanel();
    FormState f = panel->form();
    f.autoBlock = false;
    f.block = "1025";
    panel->setForm(f);
    QVERIFY(!m_window->runAction()->isEnabled());
    QVERIFY(panel->fieldMessage("block").contains("1025"));
    QVERIFY(panel->editor("block")->property("invalid").toBool());
    QVERIFY(m_window->runAction()->toolTip().contains("1025"));
    // Typing a valid value re-enables Run.
    auto* edit = qobject_cast<QLineEdit*>(panel->editor("block"));
    QVERIFY(edit);
    edit->selectAll();
    QTest::keyClicks(edit, "256");
    QVERIFY(m_window->runAction()->isEnabled());
    QVERIFY(panel->fieldMessage("block").isEmpty());
    f = panel->form();
    f.autoBlock = true;
    f.size = "12 apples";
    panel->setForm(f);
    QVERIFY(!m_window->runAction()->isEnabled());
    QVERIFY(panel->fieldMessage("size").contains("malformed"));
    f.size = "64K";
    panel->setForm(f);
    QVERIFY(m_window->runAction()->isEnabled());
  }

  void sweepNeedsAGpu() {
    if (EngineBackend().deviceStatus().available) QSKIP("a GPU is present");
    QVERIFY(!m_window->sweepButton()->isEnabled());
    QVERIFY(!m_window->sweepButton()->toolTip().isEmpty());
  }

  void otherWorkloadsRunAndPlot() {
    for (const char* id : {"gaussian_pdf", "hypot"}) {
      if (!EngineBackend().registry().find(id)) continue;
      m_window->selectWorkload(id);
      QCOMPARE(m_window->paramPanel()->form().workload, std::string(id));
      FormState f = m_window->paramPanel()->form();
      f.size = "100K";
      f.reps = 2;
      m_window->paramPanel()->setForm(f);
      QVERIFY(runAndWait());
      QCOMPARE(m_window->lastOutcome()->result.workload, std::string(id));
      for (int i = 0; i < m_window->outputViewCount(); ++i) QVERIFY(m_window->outputView(i)->drawnPoints() > 0);
    }
  }

  void cancelStopsARun() {
    m_window->selectWorkload("vector_add");
    FormState f = m_window->paramPanel()->form();
    f.size = "16Mi";
    f.reps = 200;
    f.impls = {"cpu-serial"};
    m_window->paramPanel()->setForm(f);
    QSignalSpy cancelled(&m_window->controller(), &RunController::jobCancelled);
    QSignalSpy progress(&m_window->controller(), &RunController::progress);
    m_window->runAction()->trigger();
    QVERIFY(progress.wait(20000));
    QVERIFY(m_window->cancelAction()->isEnabled());
    QElapsedTimer t;
    t.start();
    m_window->cancelAction()->trigger();
    QVERIFY(cancelled.wait(5000));
    QVERIFY2(t.elapsed() < 2000, qPrintable(QString("%1 ms").arg(t.elapsed())));
    QVERIFY(!m_window->controller().busy());
    f.size = "64K";
    f.reps = 3;
    f.impls = {"cpu-serial", "cpu-parallel"};
    m_window->paramPanel()->setForm(f);
  }

  void presentationModeScalesFontsAndComesBack() {
    const qreal before = QApplication::font().pointSizeF();
    m_window->presentationAction()->trigger();
    QVERIFY(m_window->presentationMode());
    QVERIFY(QApplication::font().pointSizeF() > before * 1.4);
    m_window->presentationAction()->trigger();
    QVERIFY(!m_window->presentationMode());
    QCOMPARE(QApplication::font().pointSizeF(), before);
  }

  void exportFromTheWindow() {
    QVERIFY(runAndWait());
    ExportDialog* d = m_window->exportDialog();
    d->setFolder(m_dir.path());
    m_window->openExport();
    const ExportResult r = d->exportPlotNow();
    QVERIFY2(r.ok, qPrintable(r.message));
    QVERIFY(d->status().contains("wrote"));
    const QStringList files = QDir(m_dir.path()).entryList({"*.png"}, QDir::Files);
    QCOMPARE(files.size(), 1);
    QVERIFY(files.first().startsWith("vector_add_"));
    d->hide();
  }

  void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
