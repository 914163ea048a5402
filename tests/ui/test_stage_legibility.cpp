// The stage on a projector (offscreen, a virtual screen of LAUNCHLAB_TEST_SCREEN, 1280x720 unless set): Page Down
// walks every course experiment in presentation mode, loading and running each at a preview size; at each, the stage
// plot covers at least 55 % of the window, no text is smaller than the presentation style's minimum, no tick label of
// the stage's axes overlaps another, nothing is cut by the window or the plot's edge. In the normal window at
// 1280x720 the output plot keeps at least 40 % of the height.
#include <qcustomplot.h>

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QSignalSpy>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <cmath>

#include "app/gui_wiring.h"
#include "launchlab/course/course.h"
#include "models/backend.h"
#include "models/settings.h"
#include "plots/charts.h"
#include "plots/export.h"
#include "plots/outputs_pane.h"
#include "plots/view_style.h"
#include "test_stage_gpu_like.h"
#include "window/banner.h"
#include "window/main_window.h"
#include "window/param_panel.h"
#include "window/stage.h"
#include "window/stage_controller.h"
#include "window/stage_prompt.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {
QSize screenSize() {
  const QByteArray s = qgetenv("LAUNCHLAB_TEST_SCREEN");
  const QList<QByteArray> wh = (s.isEmpty() ? QByteArray("1280x720") : s).split('x');
  return QSize(wh.value(0).toInt(), wh.value(1).toInt());
}

/// The size a font was asked for (the style's sizes; the rasterizer rounds to whole pixels).
double pointsOf(const QFont& f) { return f.pointSizeF() > 0 ? f.pointSizeF() : f.pixelSize() * 72.0 / 96.0; }

/// The text a widget shows, when it shows any.
QString shownText(const QWidget* w) {
  if (auto* l = qobject_cast<const QLabel*>(w)) return l->text();
  if (auto* b = qobject_cast<const QAbstractButton*>(w)) return b->text();
  if (auto* c = qobject_cast<const QComboBox*>(w)) return c->currentText();
  if (auto* e = qobject_cast<const QLineEdit*>(w)) return e->text();
  if (auto* t = qobject_cast<const QTabBar*>(w)) return t->count() ? t->tabText(0) : QString();
  return {};
}

/// Tick labels of one axis as drawn: their extent along the axis, in widget pixels.
struct Span {
  double lo, hi;
  QString text;
};
QList<Span> tickSpans(const QCPAxis* a) {
  QList<Span> out;
  const QFontMetrics fm(a->tickLabelFont());
  const auto ticks = a->tickVector();
  const auto labels = a->tickVectorLabels();
  const bool horizontal = a->orientation() == Qt::Horizontal;
  for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
    if (labels[i].isEmpty() || !a->range().contains(ticks[i])) continue;
    const QRect r = fm.boundingRect(QRect(), Qt::TextDontClip, labels[i]);
    const double c = a->coordToPixel(ticks[i]), half = (horizontal ? r.width() : r.height()) / 2.0;
    out.push_back({c - half, c + half, labels[i]});
  }
  std::sort(out.begin(), out.end(), [](const Span& x, const Span& y) { return x.lo < y.lo; });
  return out;
}

QList<QCPAxis*> axesOf(QCustomPlot* plot) {
  QList<QCPAxis*> out;
  for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
    if (auto* r = qobject_cast<QCPAxisRect*>(e))
      for (QCPAxis* a : r->axes())
        if (a->visible() && a->tickLabels()) out << a;
    if (auto* s = qobject_cast<QCPColorScale*>(e); s && s->visible() && s->axis()->tickLabels()) out << s->axis();
  }
  return out;
}
}  // namespace

class TestStageLegibility : public QObject {
  Q_OBJECT
  std::shared_ptr<test::GpuLikeBackend> m_backend;  // the engine's runs; a GPU machine's where a test says so
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_dir;
  std::vector<std::string> m_course;  // the experiments this build runs, in order
  ViewStyle m_style;
  std::vector<std::pair<double, QString>> m_keyToStageMs;  // ms, experiment

  /// What takes the window's height besides the stage, for a failure's message: each visible header part's height.
  QString heightsAboveTheStage() const {
    QStringList parts;
    const auto add = [&](const char* name, const QWidget* w) {
      if (w && w->isVisible()) parts << QString("%1 %2").arg(name).arg(w->height());
    };
    StageHeader* h = m_window->desk().stageHeader();
    add("title", h->titleLabel());
    add("headline", h->headlineLabel());
    add("caption", h->lessonLabel());
    add("prompt", m_window->desk().stagePrompt());
    add("reveal", m_window->desk().stagePrompt()->revealLabel());
    add("banner", m_window->desk().errorBanner());
    add("hints", m_window->desk().keyHintsLabel());
    return parts.join(", ");
  }

  /// The stage rules at one experiment; `where` names it in failures.
  void checkLegible(const QString& where) {
    QWidget* stage = m_window->stage().stageWidget();
    QVERIFY2(stage && stage->isVisible(), qPrintable(where));
    const double share = double(stage->width()) * stage->height() / (double(m_window->width()) * m_window->height());
    QVERIFY2(share >= 0.55, qPrintable(QString("%1: the stage (%2) covers %3 % of the window (%4x%5 of %6x%7); %8")
                                           .arg(where, QString::fromStdString(m_window->stage().stageView()))
                                           .arg(share * 100, 0, 'f', 1)
                                           .arg(stage->width())
                                           .arg(stage->height())
                                           .arg(m_window->width())
                                           .arg(m_window->height())
                                           .arg(heightsAboveTheStage())));
    const double least = m_style.minimumPointSize();
    const QRect window = m_window->rect();
    for (QWidget* w : m_window->findChildren<QWidget*>()) {
      if (!w->isVisible() || shownText(w).isEmpty() || w->window() != m_window.get()) continue;
      QVERIFY2(pointsOf(w->font()) >= least - 0.01, qPrintable(QString("%1: \"%2\" in %3 pt (least %4)")
                                                                   .arg(where, shownText(w).left(40))
                                                                   .arg(pointsOf(w->font()))
                                                                   .arg(least)));
      QVERIFY2(window.contains(QRect(w->mapTo(m_window.get(), QPoint(0, 0)), w->size())),
               qPrintable(QString("%1: \"%2\" is cut by the window's edge").arg(where, shownText(w).left(40))));
    }
    checkHeader(where);
    if (auto* plot = qobject_cast<QCustomPlot*>(stage))
      checkPlot(*plot, where + " [" + QString::fromStdString(m_window->stage().stageView()) + "]");
  }

  void checkHeader(const QString& where) {
    StageHeader* h = m_window->desk().stageHeader();
    QVERIFY2(h->isVisible(), qPrintable(where));
    // The title is cut only with an ellipsis, and what is drawn fits its label; the lesson line wraps, whole.
    QLabel* title = h->titleLabel();
    QTextDocument doc;
    doc.setHtml(title->text());
    QVERIFY2(
        QFontMetrics(h->titleFont()).horizontalAdvance(doc.toPlainText()) <= title->width(),
        qPrintable(QString("%1: title \"%2\" wider than its %3 px").arg(where, doc.toPlainText()).arg(title->width())));
    // Read from the back of the room: every stage text >= 20 px at 720p, the headline >= 32 px, growing with it.
    const int height = screenSize().height();
    for (QLabel* l : {h->titleLabel(), h->lessonLabel(), m_window->desk().stagePrompt()->questionLabel(),
                      m_window->desk().stagePrompt()->revealLabel(), m_window->desk().keyHintsLabel()})
      if (l->isVisible())
        QVERIFY2(
            QFontInfo(l->font()).pixelSize() >= 20 * height / 720,
            qPrintable(
                QString("%1: \"%2\" in %3 px").arg(where, l->text().left(40)).arg(QFontInfo(l->font()).pixelSize())));
    QLabel* headline = h->headlineLabel();
    if (headline->isVisible()) {
      QVERIFY2(QFontInfo(headline->font()).pixelSize() >= 32 * height / 720, qPrintable(where));
      QVERIFY2(headline->heightForWidth(headline->width()) <= headline->height() + 1,
               qPrintable(QString("%1: the headline \"%2\" is cut").arg(where, headline->text())));
    }
    QVERIFY2(m_window->desk().keyHintsLabel()->isVisible(), qPrintable(where));
    QLabel* lesson = h->lessonLabel();
    if (lesson->isVisible())
      QVERIFY2(lesson->heightForWidth(lesson->width()) <= lesson->height() + 1,
               qPrintable(QString("%1: the lesson line needs %2 px, has %3")
                              .arg(where)
                              .arg(lesson->heightForWidth(lesson->width()))
                              .arg(lesson->height())));
  }

  void checkPlot(QCustomPlot& plot, const QString& where) {
    plot.replot(QCustomPlot::rpImmediateRefresh);  // tick vectors as drawn at this size
    const double least = m_style.minimumPointSize() - 0.01;
    auto fontOk = [&](const QFont& f, const QString& what) {
      QVERIFY2(pointsOf(f) >= least,
               qPrintable(QString("%1: %2 in %3 pt (least %4)").arg(where, what).arg(pointsOf(f)).arg(least)));
    };
    for (QCPAxis* a : axesOf(&plot)) {
      fontOk(a->tickLabelFont(), "tick labels of " + a->label());
      if (!a->label().isEmpty()) fontOk(a->labelFont(), "axis label " + a->label());
      const QList<Span> spans = tickSpans(a);
      const double edge = a->orientation() == Qt::Horizontal ? plot.width() : plot.height();
      for (int i = 0; i < spans.size(); ++i) {
        QVERIFY2(
            spans[i].lo >= -0.5 && spans[i].hi <= edge + 0.5,
            qPrintable(
                QString("%1: tick label \"%2\" of %3 cut by the plot's edge").arg(where, spans[i].text, a->label())));
        if (i > 0)
          QVERIFY2(spans[i - 1].hi <= spans[i].lo,
                   qPrintable(QString("%1: tick labels \"%2\" and \"%3\" of %4 overlap")
                                  .arg(where, spans[i - 1].text, spans[i].text, a->label())));
      }
    }
    if (plot.legend->visible()) fontOk(plot.legend->font(), "legend");
    for (QCPLayoutElement* e : plot.plotLayout()->elements(true))
      if (auto* t = qobject_cast<QCPTextElement*>(e); t && t->visible() && !t->text().isEmpty()) {
        fontOk(t->font(), "title " + t->text());
        const int need = QFontMetrics(t->font()).boundingRect(QRect(), Qt::TextDontClip, t->text()).width();
        QVERIFY2(need <= plot.width(),
                 qPrintable(
                     QString("%1: title \"%2\" needs %3 px of %4").arg(where, t->text()).arg(need).arg(plot.width())));
      }
    for (int i = 0; i < plot.itemCount(); ++i)
      if (auto* t = qobject_cast<QCPItemText*>(plot.item(i)); t && t->visible() && !t->text().isEmpty())
        fontOk(t->font(), "text " + t->text());
  }

  /// Sends `key` to the window as a clicker would and waits for the run it starts to be on screen.
  /// A course experiment asks its question first: R runs it (or, with `answer`, P, the answer and Enter).
  /// The time from the key that starts the run (Page Down, or R / Enter after a question) to the run drawn on the
  /// stage is kept in m_keyToStageMs: printed, never asserted (a benchmark's figure, not a test's).
  bool pressAndWaitForRun(Qt::Key key, const QString& where = {}, bool answer = false) {
    QSignalSpy shown(m_window.get(), &MainWindow::runDisplayed);
    QElapsedTimer clock;
    clock.start();
    QTest::keyClick(m_window.get(), key);
    if (m_window->stage().controller()->holdsRun()) {
      settle();
      if (!where.isEmpty()) checkQuestion(where);
      if (answer) {
        answerTheQuestion();  // its last key starts the run
      } else {
        clock.restart();
        QTest::keyClick(m_window.get(), Qt::Key_R);
      }
      if (answer) clock.restart();
    }
    const bool ok = shown.wait(60000);
    if (ok) {
      QApplication::processEvents();  // the stage drawn
      // Where the time went: the job on the compute thread (the run, and the worker's outputs taken in), the GUI
      // thread putting it on screen, the rest waiting for the job to start or for the event loop.
      const auto last = m_window->results().last();
      m_keyToStageMs.emplace_back(double(clock.nsecsElapsed()) / 1e6, QString("%1: job %2 s, on screen in %3 ms")
                                                                          .arg(where)
                                                                          .arg(last ? last->seconds : 0.0, 0, 'f', 3)
                                                                          .arg(m_window->results().lastDisplayMs()));
    }
    return ok;
  }

  /// "stage walk: median 0.21 s, slowest 0.80 s (id) over 61 runs".
  void printKeyToStage() const {
    if (m_keyToStageMs.empty()) return;
    auto t = m_keyToStageMs;
    std::sort(t.begin(), t.end());
    qInfo("stage walk at %dx%d, key to run drawn: median %.3f s, slowest %.3f s (%s) over %d runs",
          screenSize().width(), screenSize().height(), t[t.size() / 2].first / 1e3, t.back().first / 1e3,
          qPrintable(t.back().second), int(t.size()));
    for (std::size_t i = t.size() - std::min<std::size_t>(3, t.size()); i + 1 < t.size(); ++i)
      qInfo("  also slow: %.3f s (%s)", t[i].first / 1e3, qPrintable(t[i].second));
  }

  /// The question has the stage: large, whole, inside the window, the plots folded away until the run.
  void checkQuestion(const QString& where) {
    StagePrompt* prompt = m_window->desk().stagePrompt();
    QLabel* question = prompt->questionLabel();
    QVERIFY2(prompt->isVisible() && question->isVisible(), qPrintable(where + ": no question"));
    QVERIFY2(QFontInfo(question->font()).pixelSize() >= 24 * screenSize().height() / 720, qPrintable(where));
    QVERIFY2(question->heightForWidth(question->width()) <= question->height() + 1,
             qPrintable(where + ": the question is cut"));
    QVERIFY2(m_window->rect().contains(QRect(prompt->mapTo(m_window.get(), QPoint(0, 0)), prompt->size())),
             qPrintable(where + ": the question is cut by the window"));
    QVERIFY2(!m_window->stage().stageWidget()->isVisible(), qPrintable(where + ": the plot shows before the run"));
    checkHeader(where + " (question)");
  }

  /// P, then a number in the answer's range (or the first choice), then Enter.
  void answerTheQuestion() {
    const Prediction* p = m_window->stage().controller()->prediction();
    QTest::keyClick(m_window.get(), Qt::Key_P);
    QVERIFY2(QApplication::focusWidget() && QApplication::focusWidget()->parentWidget() &&
                 QApplication::focusWidget()->isVisible(),
             "P did not put the keyboard in the answer");
    StagePrompt* prompt = m_window->desk().stagePrompt();
    if (p->answer.isChoice()) {
      QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
    } else {
      const double v =
          p->answer.logScale ? std::sqrt(p->answer.min * p->answer.max) : (p->answer.min + p->answer.max) / 2;
      prompt->answerField()->setText(QString::number(v, 'g', 6));
      QTest::keyClick(prompt->answerField(), Qt::Key_Return);
    }
    const auto* error = prompt->findChild<QLabel*>("stageAnswerError");
    QVERIFY2(!m_window->stage().controller()->holdsRun(), qPrintable("the answer was refused: " + error->text()));
  }

  void settle() {
    for (int i = 0; i < 3; ++i) {
      QApplication::processEvents();
      QTest::qWait(10);
    }
  }

 private slots:
  void initTestCase() {
    QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), screenSize());
    for (const auto& e : courseExperiments()) m_course.push_back(e.id);
    MainWindowOptions o;
    o.presetFolder = m_dir.filePath("presets");
    o.firstRun = false;
    o.quickRunSeconds = 0.02;
    o.predictionsFile =
        "-";  // kept in memory: the test answers questions  // previews: the layout, not the data's size, is under test
    m_backend = std::make_shared<test::GpuLikeBackend>(app::makeEngineBackend());
    std::erase_if(m_course, [&](const std::string& id) {
      return !m_backend->registry().find(findCourseExperiment(id)->request.workload);
    });
    QVERIFY(m_course.size() >= 40);
    m_window = std::make_unique<MainWindow>(m_backend, AppSettings::ephemeral(), o);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->stage().setPresentationMode(true);
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    m_style = ViewStyle::presentationStyle(screenSize().height());
    settle();
    QVERIFY(m_window->stage().onStage());
  }

  /// Page Down from a workload picked by hand starts the course at its first experiment, then walks every one in
  /// order without leaving presentation mode; the header counts them and keeps the look-for line; each stage is
  /// legible. Past the last, Page Down stays there.
  void pageDownWalksEveryExperimentLegibly() {
    const int count = int(m_course.size());
    for (int i = 0; i < count; ++i) {
      const QString id = QString::fromStdString(m_course[std::size_t(i)]);
      QVERIFY2(pressAndWaitForRun(Qt::Key_PageDown, id, i % 4 == 0), qPrintable(id + ": no run after Page Down"));
      settle();
      QCOMPARE(m_window->currentCourseExperiment(), id);
      QVERIFY(m_window->stage().presentation() && m_window->stage().onStage());
      const auto* e = findCourseExperiment(id.toStdString());
      QVERIFY(m_window->desk().stageHeader()->fullTitle().startsWith(
          QString("%1 / %2 \xE2\x80\x94 ").arg(i + 1).arg(count)));
      // After the reveal the caption says why; L puts what to look for in its place, and back.
      QVERIFY(m_window->desk().stageHeader()->lessonLabel()->isVisible());
      // ... in two lines at most, so that the plot keeps its room (the whole caption is its tooltip, and L's).
      const QLabel* caption = m_window->desk().stageHeader()->lessonLabel();
      if (!e->predictions.empty())
        QVERIFY2(m_window->desk().stageHeader()->fullLesson().contains(
                     QString::fromStdString(e->predictions.front().explain)),
                 qPrintable(id));
      QVERIFY2(caption->heightForWidth(caption->width()) <= 2 * QFontMetrics(caption->font()).lineSpacing() + 4,
               qPrintable(id + ": the caption takes more than two lines: " + caption->text()));
      QVERIFY(m_window->stage().controller()->revealed());
      // The headline carries the lesson's count: the amber banner (rows a GPU adds) folds away on the stage.
      if (!m_window->desk().stageHeader()->headlineLabel()->text().isEmpty())
        QVERIFY2(!m_window->desk().errorBanner()->isVisible() ||
                     m_window->desk().errorBanner()->level() != Banner::Level::Lesson,
                 qPrintable(id + ": the lesson banner takes the stage's room"));
      if (i % 4 == 0)  // answered: the prediction and how far off; skipped: nothing more than the headline
        QVERIFY2(m_window->desk().stagePrompt()->revealLabel()->text().startsWith("You predicted"),
                 qPrintable(id + ": " + m_window->desk().stagePrompt()->revealLabel()->text()));
      else
        QVERIFY2(!m_window->desk().stagePrompt()->revealLabel()->isVisible(), qPrintable(id));
      // The experiment opens on the view it declares (its "stage"), e.g. the streams timeline, the access map.
      if (!e->stage.view.empty()) QCOMPARE(m_window->stage().stageView(), e->stage.view);
      checkLegible(id);
      if (QTest::currentTestFailed()) return;
    }
    QTest::keyClick(m_window.get(), Qt::Key_PageDown);
    settle();
    QCOMPARE(m_window->currentCourseExperiment(), QString::fromStdString(m_course.back()));
    printKeyToStage();
  }

  /// Page Up and the left arrow go back, the right arrow forward; each loads and runs.
  void pageUpAndArrowsStep() {
    const QString last = QString::fromStdString(m_course.back()),
                  before = QString::fromStdString(m_course[m_course.size() - 2]);
    QVERIFY(pressAndWaitForRun(Qt::Key_PageUp));
    QCOMPARE(m_window->currentCourseExperiment(), before);
    QVERIFY(pressAndWaitForRun(Qt::Key_Right));
    QCOMPARE(m_window->currentCourseExperiment(), last);
    QVERIFY(pressAndWaitForRun(Qt::Key_Left));
    QCOMPARE(m_window->currentCourseExperiment(), before);
  }

  /// F4 unfolds the desk (form and bottom tabs) and folds it again; F6 puts the next plot on the stage.
  void f4AndF6() {
    QTest::keyClick(m_window.get(), Qt::Key_F4);
    settle();
    QVERIFY(!m_window->stage().onStage());
    QVERIFY(m_window->desk().paramPanel()->isVisible());
    QVERIFY(m_window->desk().timingChart()->widget()->isVisible());
    QTest::keyClick(m_window.get(), Qt::Key_F4);
    settle();
    QVERIFY(m_window->stage().onStage());
    QVERIFY(!m_window->desk().paramPanel()->isVisible());
    const std::string before = m_window->stage().stageView();
    QTest::keyClick(m_window.get(), Qt::Key_F6);
    settle();
    QVERIFY(m_window->stage().stageView() != before);
    QVERIFY(m_window->stage().stageWidget()->isVisible());
    checkLegible("after F6");
  }

  /// Ctrl+Shift+C puts the stage's plot on the clipboard as an image as projected (the export's size), on the stage
  /// and at the desk alike; the window's views keep their own style.
  void ctrlShiftCCopiesTheStagePlot() {
    QGuiApplication::clipboard()->clear();
    QVERIFY(QGuiApplication::clipboard()->image().isNull());
    QTest::keyClick(m_window.get(), Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
    settle();
    const QImage copied = QGuiApplication::clipboard()->image();
    QVERIFY(!copied.isNull());
    QCOMPARE(copied.size(), rasterSize(ExportOptions{}));
    // Something is drawn: not a blank page.
    int dark = 0;
    for (int y = 0; y < copied.height(); y += 8)
      for (int x = 0; x < copied.width(); x += 8) dark += copied.pixelColor(x, y).lightness() < 128;
    QVERIFY(dark > 50);
    // At the desk: the same projected copy, the window's plot keeps the normal style.
    m_window->stage().setPresentationMode(false);
    settle();
    QGuiApplication::clipboard()->clear();
    auto* plot = qobject_cast<QCustomPlot*>(m_window->stage().stageWidget());
    const QFont before = plot ? plot->xAxis->labelFont() : QFont();
    QTest::keyClick(m_window.get(), Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
    settle();
    QCOMPARE(QGuiApplication::clipboard()->image().size(), rasterSize(ExportOptions{}));
    if (plot) QCOMPARE(plot->xAxis->labelFont(), before);
    m_window->stage().setPresentationMode(true);
    settle();
    QVERIFY(m_window->stage().onStage());
  }

  /// The normal window at 1280x720: for every experiment (run at a preview size, so the timing chart has its rows),
  /// the output plot keeps at least 40 % of the window's height, with all a GPU machine stacks above and beside it
  /// (test_stage_gpu_like.h): the CUDA rows, the banner of a GPU shared with another process, the reveal.
  void normalWindowKeepsTheOutputPlotTall() {
    if (screenSize() != QSize(1280, 720)) QSKIP("the normal window's rule is for 1280x720");
    m_backend->gpuLike = true;
    m_window->stage().setPresentationMode(false);
    settle();
    for (const auto& id : m_course) {
      const QString where = QString::fromStdString(id);
      QVERIFY(m_window->openCourseExperiment(where));
      QSignalSpy shown(m_window.get(), &MainWindow::runDisplayed);
      m_window->startFirstRun();
      QVERIFY2(shown.wait(60000), qPrintable(where));
      settle();
      OutputsPane* pane = m_window->desk().outputsPane();
      QWidget* plot = pane->view(std::max(0, pane->currentIndex()))->widget();
      QVERIFY2(plot->height() >= m_window->height() * 40 / 100,
               qPrintable(QString("%1: the output plot is %2 px of %3 (outputs pane %4; %5)")
                              .arg(where)
                              .arg(plot->height())
                              .arg(m_window->height())
                              .arg(pane->height())
                              .arg(heightsAboveTheStage())));
    }
  }

  /// A row that appears above the results after the run (here a three-line banner, on the H200 the reveal and the
  /// GPU's banner) shrinks them without resizing the window: the split is fitted again, the plot keeps its share.
  void aRowAppearingAfterTheRunKeepsThePlotTall() {
    if (screenSize() != QSize(1280, 720)) QSKIP("the normal window's rule is for 1280x720");
    m_backend->gpuLike = true;
    m_window->stage().setPresentationMode(false);
    settle();
    QVERIFY(m_window->openCourseExperiment("s3-compute-pi"));
    QSignalSpy shown(m_window.get(), &MainWindow::runDisplayed);
    m_window->startFirstRun();
    QVERIFY(shown.wait(60000));
    settle();
    OutputsPane* pane = m_window->desk().outputsPane();
    QWidget* plot = pane->view(std::max(0, pane->currentIndex()))->widget();
    const int before = plot->height();
    m_window->desk().errorBanner()->showMessage(Banner::Level::Error,
                                                "first line of a long message\nsecond line\nthird line\nfourth line");
    settle();
    QVERIFY2(plot->height() >= m_window->height() * 40 / 100,
             qPrintable(QString("the output plot is %1 px of %2 after the banner (%3 before; %4)")
                            .arg(plot->height())
                            .arg(m_window->height())
                            .arg(before)
                            .arg(heightsAboveTheStage())));
    m_window->desk().errorBanner()->hide();
  }

  void cleanupTestCase() { m_window.reset(); }
};

int main(int argc, char** argv) {
  // The offscreen platform reads its screen from a JSON file.
  QTemporaryDir dir;
  const QString cfg = dir.filePath("screen.json");
  QFile f(cfg);
  if (!f.open(QIODevice::WriteOnly)) return 2;
  const QSize s = screenSize();
  f.write(
      QString(
          R"({"screens": [{"name": "projector", "x": 0, "y": 0, "width": %1, "height": %2, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
          .arg(s.width())
          .arg(s.height())
          .toUtf8());
  f.close();
  qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + cfg).toUtf8());
  QApplication app(argc, argv);
  TestStageLegibility t;
  return QTest::qExec(&t, argc, argv);
}

#include "test_stage_legibility.moc"
