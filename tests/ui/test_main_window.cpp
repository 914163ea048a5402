// The whole window on the real engine (offscreen): the first screen shows a real run, invalid input disables
// Run with the reason in place, workloads switch, Cancel works, presentation mode and export work.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "app/gui_wiring.h"
#include "dialogs/export_dialog.h"
#include "explorer/sweep_pane.h"
#include "fakes.h"
#include "models/backend.h"
#include "models/settings.h"
#include "plots/charts.h"
#include "plots/outputs_pane.h"
#include "plots/view_style.h"
#include "window/banner.h"
#include "window/main_window.h"
#include "window/param_panel.h"
#include "window/workload_browser.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

class TestMainWindow : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_dir;
  QElapsedTimer m_clock;

  bool runAndWait(int timeoutMs = 30000) { return test::runAndWait(*m_window, timeoutMs); }

 private slots:
  void initTestCase() {
    m_clock.start();
    MainWindowOptions o;
    o.presetFolder = m_dir.filePath("presets");
    o.startClock = &m_clock;
    m_window = std::make_unique<MainWindow>(app::makeEngineBackend(), AppSettings::ephemeral(), o);
    QSignalSpy first(m_window.get(), &MainWindow::firstPlotShown);
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(first.wait(30000));
    QVERIFY(first.at(0).at(0).toLongLong() > 0);
  }

  void firstScreenShowsARealRun() {
    auto o = m_window->results().last();
    QVERIFY(o);
    const QString expected = MainWindow::defaultWorkload(*app::builtInWorkloads());
    QCOMPARE(QString::fromStdString(o->result.workload), expected);
    QVERIFY(o->result.status == Status::Ok);
    QVERIFY(o->result.find("cpu-serial")->status == Status::Ok);
    QVERIFY(m_window->desk().outputsPane()->viewCount() >= 1);
    QVERIFY(m_window->desk().outputsPane()->view(0)->drawnPoints() > 0);
    QVERIFY(!m_window->desk().outputsPane()->view(0)->summary().isEmpty());
    QCOMPARE(m_window->desk().timingChart()->data().bars.size(), o->result.impls.size());
    QVERIFY(m_window->results().firstPlotMs() > 0);
    QVERIFY(m_window->desk().deviceBanner()->isVisible());
    QVERIFY(!m_window->desk().deviceBanner()->text().isEmpty());
  }

  void shortcuts() {
    QCOMPARE(m_window->runAction()->shortcut(), QKeySequence("Ctrl+R"));
    QCOMPARE(m_window->cancelAction()->shortcut(), QKeySequence(Qt::Key_Escape));
    QCOMPARE(m_window->presentationAction()->shortcut(), QKeySequence(Qt::Key_F5));
  }

  void invalidInputDisablesRunWithTheReasonInPlace() {
    ParamPanel* panel = m_window->desk().paramPanel();
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
    if (app::makeEngineBackend()->deviceStatus().available) QSKIP("a GPU is present");
    QVERIFY(!m_window->desk().sweepPane()->button()->isEnabled());
    QVERIFY(!m_window->desk().sweepPane()->button()->toolTip().isEmpty());
  }

  void otherWorkloadsRunAndPlot() {
    for (const char* id : {"gaussian_pdf", "hypot"}) {
      if (!app::builtInWorkloads()->find(id)) continue;
      m_window->selectWorkload(id);
      QCOMPARE(m_window->desk().paramPanel()->form().workload, std::string(id));
      FormState f = m_window->desk().paramPanel()->form();
      f.size = "100K";
      f.reps = 2;
      m_window->desk().paramPanel()->setForm(f);
      QVERIFY(runAndWait());
      QCOMPARE(m_window->results().last()->result.workload, std::string(id));
      for (int i = 0; i < m_window->desk().outputsPane()->viewCount(); ++i)
        QVERIFY(m_window->desk().outputsPane()->view(i)->drawnPoints() > 0);
    }
  }

  void cancelStopsARun() {
    m_window->selectWorkload("vector_add");
    FormState f = m_window->desk().paramPanel()->form();
    f.size = "16Mi";
    f.reps = 100000;  // far too long to finish if the cancel were lost
    f.impls = {"cpu-serial"};
    m_window->desk().paramPanel()->setForm(f);
    QSignalSpy cancelled(&m_window->controller(), &RunController::jobCancelled);
    QSignalSpy progress(&m_window->controller(), &RunController::progress);
    m_window->runAction()->trigger();
    QVERIFY(progress.wait(20000));
    QVERIFY(m_window->cancelAction()->isEnabled());
    m_window->cancelAction()->trigger();
    QVERIFY(cancelled.wait(60000));
    QVERIFY(!m_window->controller().busy());
    f.size = "64K";
    f.reps = 3;
    f.impls = {"cpu-serial", "cpu-parallel"};
    m_window->desk().paramPanel()->setForm(f);
  }

  void presentationModeScalesFontsAndComesBack() {
    const qreal before = QApplication::font().pointSizeF();
    m_window->presentationAction()->trigger();
    QVERIFY(m_window->stage().presentation());
    const double grow = presentationScale(m_window->screen()->geometry().height());
    QVERIFY(grow >= 1.25);
    QVERIFY(std::fabs(QApplication::font().pointSizeF() - before * grow) < 0.01 * before);
    m_window->presentationAction()->trigger();
    QVERIFY(!m_window->stage().presentation());
    QCOMPARE(QApplication::font().pointSizeF(), before);
  }

  void exportFromTheWindow() {
    QVERIFY(runAndWait());
    ExportDialog* d = m_window->results().exportDialog();
    d->setFolder(m_dir.path());
    m_window->results().openExport();
    const ExportResult r = d->exportPlotNow();
    QVERIFY2(r.ok, qPrintable(r.message));
    QVERIFY(d->status().contains("wrote"));
    const QStringList files = QDir(m_dir.path()).entryList({"*.png"}, QDir::Files);
    QCOMPARE(files.size(), 1);
    QVERIFY(files.first().startsWith("vector_add_"));
    d->hide();
  }

  void twoDimensionalImageWorkload() {
    auto reg = std::make_unique<Registry>();
    reg->add(std::make_unique<test::Fake2D>());
    auto backend = std::make_shared<EngineBackend>(std::move(reg), std::make_shared<test::H200LimitsRuntime>());
    MainWindowOptions o;
    o.presetFolder = m_dir.filePath("presets2");
    MainWindow w(backend, AppSettings::ephemeral(), o);
    QSignalSpy shown(&w, &MainWindow::runDisplayed);
    w.show();
    QVERIFY(shown.wait(10000));
    ParamPanel* panel = w.desk().paramPanel();
    QVERIFY(panel->editor("block-shape"));  // 2D: a shape list, no 1D slider
    QVERIFY(!panel->editor("block-slider"));
    auto* limits = qobject_cast<QLabel*>(panel->editor("launch-limits"));  // the per-dimension limits, named
    QVERIFY(limits && limits->text().contains(QString("grid x \u2264 2147483647, y \u2264 65535")));
    QVERIFY(limits->text().contains("NVIDIA H200"));
    FormState f = panel->form();
    f.autoBlock = false;
    f.block = "32x33";
    panel->setForm(f);
    QVERIFY(panel->fieldMessage("block").contains("1056 threads per block > 1024"));
    f.block = "16x16";
    f.autoGrid = false;
    f.grid = "4x3";
    panel->setForm(f);
    QVERIFY(w.runAction()->isEnabled());
    f.size = "1000";  // not a multiple of the width: the workload's own rule, marked on the parameters
    panel->setForm(f);
    QVERIFY(panel->fieldMessage("params").contains("multiple of the width"));
    f.size = "3072";
    panel->setForm(f);
    QVERIFY(w.runAction()->isEnabled());
    // Outputs: an image (48 x 64) and a histogram over [lo, hi); the input image has its own tab.
    QCOMPARE(w.desk().outputsPane()->viewCount(), 3);
    QVERIFY(w.desk().outputsPane()->view(0)->summary().contains("48 x 64"));
    QCOMPARE(w.desk().outputsPane()->view(0)->drawnPoints(), 48 * 64);
    QCOMPARE(w.desk().outputsPane()->view(1)->drawnPoints(), 16);
    QVERIFY(w.desk().outputsPane()->view(2)->summary().contains("image"));
  }

  void restartKeepsTheSavedSizeAsTyped() {
    const QString id = MainWindow::defaultWorkload(*app::builtInWorkloads());
    auto restarted = [&](const std::string& size) {
      auto settings = AppSettings::ephemeral();
      FormState f = defaultForm(*app::builtInWorkloads()->find(id.toStdString()));
      f.size = size;
      settings->setLastWorkload(id);
      settings->setLastForm(f);
      MainWindowOptions o;
      o.presetFolder = m_dir.filePath("presets");
      return std::make_unique<MainWindow>(app::makeEngineBackend(), std::move(settings), o);
    };
    // A valid but slow size: the first run is quick, the form keeps the user's size for the next run.
    auto w = restarted("2^20");
    QSignalSpy shown(w.get(), &MainWindow::runDisplayed);
    w->show();
    QVERIFY(shown.wait(30000));
    QVERIFY(w->results().last()->result.n < (1u << 20));
    QCOMPARE(w->desk().paramPanel()->form().size, std::string("2^20"));
    // An invalid size stays as typed and is marked invalid in place; nothing runs.
    w = restarted("2^33");
    w->show();
    QTest::qWait(300);
    QCOMPARE(w->desk().paramPanel()->form().size, std::string("2^33"));
    QVERIFY(!w->desk().paramPanel()->fieldMessage("size").isEmpty());
    QVERIFY(!w->runAction()->isEnabled());
    QVERIFY(!w->results().last());
  }

  void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
