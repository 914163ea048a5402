// The window on a small screen (a 1280x720 projector, offscreen): it opens inside the available geometry, the
// parameter panel fits its width for every workload, the browser follows the course, tooltips wrap, the error
// banner takes its own line, presentation mode gives the plots the room, export keeps a typed name.
#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QToolTip>
#include <QTreeWidget>

#include "app/gui_wiring.h"
#include "dialogs/export_dialog.h"
#include "launchlab/course/chapters.h"
#include "launchlab/kernels.h"
#include "models/backend.h"
#include "models/presets.h"
#include "models/settings.h"
#include "plots/charts.h"
#include "plots/outputs_pane.h"
#include "plots/results_tables.h"
#include "window/banner.h"
#include "window/course_list.h"
#include "window/main_window.h"
#include "window/param_panel.h"
#include "window/tooltips.h"
#include "window/window_fit.h"
#include "window/workload_browser.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {
constexpr QSize kScreen{1280, 720};

QRect rectIn(const QWidget* w, const QWidget* ancestor) { return QRect(w->mapTo(ancestor, QPoint(0, 0)), w->size()); }

QScrollArea* scrollOf(QWidget* panel) {
  for (QWidget* p = panel->parentWidget(); p; p = p->parentWidget())
    if (auto* s = qobject_cast<QScrollArea*>(p)) return s;
  return nullptr;
}

/// The visible widgets of `panel` that Tab stops at, in focus-chain order.
QList<QWidget*> tabStops(QWidget* panel) {
  QList<QWidget*> out;
  QWidget* first = panel->nextInFocusChain();
  for (QWidget* w = first; w; w = w->nextInFocusChain()) {
    if (panel->isAncestorOf(w) && w->isVisibleTo(panel) && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus))
      out << w;
    if (w->nextInFocusChain() == first || out.size() > 200) break;
  }
  return out;
}

QCustomPlot* plotOf(QWidget* w) { return qobject_cast<QCustomPlot*>(w); }
}  // namespace

class TestLayout : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_dir;

  bool runAndWait(int timeoutMs = 30000) { return test::runAndWait(*m_window, timeoutMs); }

 private slots:
  void initTestCase() {
    QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), kScreen);
    MainWindowOptions o;
    o.presetFolder = m_dir.filePath("presets");
    m_window = std::make_unique<MainWindow>(app::makeEngineBackend(), AppSettings::ephemeral(), o);
    QSignalSpy first(m_window.get(), &MainWindow::firstPlotShown);
    m_window->show();
    QVERIFY(first.wait(30000));
  }

  void opensInsideTheAvailableScreen() {
    const QRect avail = m_window->screen()->availableGeometry();
    QVERIFY2(avail.contains(m_window->frameGeometry()),
             qPrintable(QString("%1x%2").arg(m_window->width()).arg(m_window->height())));
    // The status bar and the bottom tabs are on screen.
    QVERIFY(m_window->rect().contains(rectIn(m_window->desk().timingChart()->widget(), m_window.get())));
  }

  void fitToScreenKeepsThePreferredSizeWhenItFits() {
    const QRect big(0, 0, 1920, 1080);
    QCOMPARE(fitToScreen(big, kPreferredWindowSize).size(), kPreferredWindowSize);
    QVERIFY(big.contains(fitToScreen(big, kPreferredWindowSize)));
    const QRect small(0, 0, 1024, 768);
    QVERIFY(small.contains(fitToScreen(small, kPreferredWindowSize)));
    const QRect second(1920, 0, 1280, 720);  // a second screen to the right
    QVERIFY(second.contains(fitToScreen(second, kPreferredWindowSize)));
  }

  void savedGeometryIsRestoredOnlyWhenItFits() {
    QWidget tooBig;
    tooBig.setGeometry(0, 0, 2500, 1600);
    QWidget a;
    QVERIFY(!placeOnScreen(a, tooBig.saveGeometry()));
    QVERIFY(a.screen()->availableGeometry().contains(a.geometry()));
    QWidget fits;
    fits.setGeometry(40, 50, 900, 600);
    QWidget b;
    QVERIFY(placeOnScreen(b, fits.saveGeometry()));
    QCOMPARE(b.geometry(), QRect(40, 50, 900, 600));
  }

  /// Every registered workload: no horizontal scrolling, every control and label inside the panel's viewport.
  void parameterPanelFitsItsWidthForEveryWorkload() {
    m_window->resize(kScreen);
    ParamPanel* panel = m_window->desk().paramPanel();
    QScrollArea* scroll = scrollOf(panel);
    QVERIFY(scroll);
    const auto registry = app::builtInWorkloads();
    for (const auto& w : registry->all()) {
      const QString id = QString::fromStdString(w->info().id);
      m_window->selectWorkload(id);
      QApplication::processEvents();
      QVERIFY2(!scroll->horizontalScrollBar()->isVisible(), qPrintable(id));
      const int room = scroll->viewport()->width();
      const int barRoom = scroll->width() - 2 * scroll->frameWidth() - scroll->verticalScrollBar()->sizeHint().width();
      QVERIFY2(panel->minimumSizeHint().width() <= barRoom, qPrintable(QString("%1: needs %2 px, %3 with a scroll bar")
                                                                           .arg(id)
                                                                           .arg(panel->minimumSizeHint().width())
                                                                           .arg(barRoom)));
      QVERIFY2(panel->width() <= room, qPrintable(QString("%1: %2 > %3").arg(id).arg(panel->width()).arg(room)));
      for (QWidget* c : panel->findChildren<QWidget*>()) {
        if (!c->isVisibleTo(panel) || c->width() == 0) continue;
        const QRect r = rectIn(c, scroll->viewport());
        QVERIFY2(r.left() >= 0 && r.right() < room,
                 qPrintable(QString("%1: %2 '%3' spans x %4..%5, viewport %6")
                                .arg(id, c->metaObject()->className(), c->objectName())
                                .arg(r.left())
                                .arg(r.right())
                                .arg(room)));
      }
    }
  }

  /// Tab goes down the panel in reading order: top to bottom, left to right within a row.
  void tabOrderFollowsTheVisualOrder() {
    for (const char* id : {"reduce_sum", "vector_add", "monte_carlo_pi", "row_normalize"}) {
      if (!app::builtInWorkloads()->find(id)) continue;
      m_window->selectWorkload(id);
      QApplication::processEvents();
      ParamPanel* panel = m_window->desk().paramPanel();
      const QList<QWidget*> stops = tabStops(panel);
      QVERIFY(stops.size() >= 6);
      for (int i = 1; i < stops.size(); ++i) {
        const QRect a = rectIn(stops[i - 1], panel), b = rectIn(stops[i], panel);
        const bool sameRow = std::abs(a.center().y() - b.center().y()) <= std::max(a.height(), b.height()) / 2;
        const bool next = sameRow ? b.left() > a.left() : b.center().y() > a.center().y();
        QVERIFY2(next, qPrintable(QString("%1: %2 at (%3,%4) then %5 at (%6,%7)")
                                      .arg(id, stops[i - 1]->metaObject()->className())
                                      .arg(a.left())
                                      .arg(a.top())
                                      .arg(stops[i]->metaObject()->className())
                                      .arg(b.left())
                                      .arg(b.top())));
      }
    }
  }

  void browserFollowsTheCourse() {
    QTreeWidget* tree = m_window->desk().browser()->workloadTree();
    QVERIFY(tree);
    QVERIFY(tree->topLevelItemCount() >= 2);
    std::size_t last = 0;
    const auto registry = app::builtInWorkloads();
    const auto& all = registry->all();
    auto registryPos = [&](const QString& id) {
      for (std::size_t i = 0; i < all.size(); ++i)
        if (QString::fromStdString(all[i]->info().id) == id) return i;
      return all.size();
    };
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
      const QString chapter = tree->topLevelItem(i)->text(0);
      const std::size_t idx = chapterIndex(chapter.toStdString());
      QVERIFY2(idx >= last, qPrintable(chapter));
      last = idx;
      std::size_t prev = 0;
      for (int j = 0; j < tree->topLevelItem(i)->childCount(); ++j) {
        const std::size_t pos = registryPos(tree->topLevelItem(i)->child(j)->data(0, Qt::UserRole + 1).toString());
        QVERIFY(pos < all.size() && (j == 0 || pos > prev));
        prev = pos;
      }
    }
    QCOMPARE(tree->topLevelItem(0)->text(0).toStdString(), std::string(chapters().front()));
  }

  /// Every title is shown whole: wrapped in its row (never elided), and in its tooltip.
  void browserShowsFullTitles() {
    QTreeWidget* tree = m_window->desk().browser()->workloadTree();
    m_window->desk().browser()->setFilter({});
    QApplication::processEvents();
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
      for (int j = 0; j < tree->topLevelItem(i)->childCount(); ++j) {
        QTreeWidgetItem* item = tree->topLevelItem(i)->child(j);
        QVERIFY(item->toolTip(0).contains(item->text(0).toHtmlEscaped()));
        const QRect cell = tree->visualItemRect(item);
        if (!cell.isValid()) continue;  // scrolled out of view
        const QRect text =
            tree->fontMetrics().boundingRect(QRect(0, 0, cell.width() - 10, 10000), Qt::TextWordWrap, item->text(0));
        QVERIFY2(text.height() <= cell.height(), qPrintable(item->text(0)));
      }
  }

  /// The Course tab too: "N. title" rows wrapped whole at the column's width, the title in the tooltip.
  void courseTabShowsFullTitles() {
    auto* tabs = m_window->desk().browser()->findChild<QTabWidget*>();
    QVERIFY(tabs);
    tabs->setCurrentWidget(m_window->desk().browser()->courseList());
    QApplication::processEvents();
    QTreeWidget* tree = m_window->desk().browser()->courseList();
    int checked = 0;
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
      for (int j = 0; j < tree->topLevelItem(i)->childCount(); ++j) {
        QTreeWidgetItem* item = tree->topLevelItem(i)->child(j);
        // "N. title" for an experiment, "Note: title" for a note
        const QString title =
            item->text(0).startsWith("Note: ") ? item->text(0).mid(6) : item->text(0).section(". ", 1);
        QVERIFY2(!title.isEmpty() && item->toolTip(0).contains(title.toHtmlEscaped()), qPrintable(item->text(0)));
        const QRect cell = tree->visualItemRect(item);
        if (!cell.isValid() || !tree->viewport()->rect().intersects(cell)) continue;  // scrolled out of view
        const QRect text =
            tree->fontMetrics().boundingRect(QRect(0, 0, cell.width() - 10, 10000), Qt::TextWordWrap, item->text(0));
        QVERIFY2(text.height() <= cell.height(), qPrintable(item->text(0)));
        ++checked;
      }
    QVERIFY(checked >= 3);
    tabs->setCurrentWidget(m_window->desk().browser()->workloadTree());
  }

  void tooltipsWrap() {
    const QString plain = "a < b & c\nline two";
    QCOMPARE(wrapTip(plain), QString("<qt>a &lt; b &amp; c<br>line two</qt>"));
    QCOMPARE(wrapTip("<qt>already rich</qt>"), QString("<qt>already rich</qt>"));
    // A long plain tooltip set anywhere in the window is shown wrapped, at a readable width.
    QWidget* edit = m_window->desk().paramPanel()->editor("block");
    QVERIFY(edit->toolTip().size() > 300);
    QVERIFY(!Qt::mightBeRichText(edit->toolTip()));
    QHelpEvent e(QEvent::ToolTip, QPoint(5, 5), edit->mapToGlobal(QPoint(5, 5)));
    QApplication::sendEvent(edit, &e);
    QVERIFY(QToolTip::isVisible());
    QVERIFY(QToolTip::text().startsWith("<qt>"));
    QWidget* tip = nullptr;
    for (QWidget* w : QApplication::topLevelWidgets())
      if (w->inherits("QTipLabel") && w->isVisible()) tip = w;
    QVERIFY(tip);
    QVERIFY2(tip->width() < 700, qPrintable(QString::number(tip->width())));
    QToolTip::hideText();
  }

  /// An error takes its own line above the panes: it never covers the form, the tabs or a plot's title.
  void errorBannerTakesItsOwnLine() {
    m_window->desk().errorBanner()->hide();
    QApplication::processEvents();
    m_window->desk().errorBanner()->showMessage(
        Banner::Level::Error,
        "Export failed: the folder /nowhere does not exist. " + QString("More words. ").repeated(12));
    QApplication::processEvents();
    auto* split = m_window->findChild<QSplitter*>("mainSplit");
    const QRect banner = rectIn(m_window->desk().errorBanner(), m_window.get());
    QVERIFY(m_window->desk().errorBanner()->isVisible());
    // Every wrapped line of the message has room at the banner's width.
    QVERIFY(m_window->desk().errorBanner()->hasHeightForWidth());
    QVERIFY2(banner.height() >= m_window->desk().errorBanner()->heightForWidth(banner.width()) - 1,
             qPrintable(QString("%1 px for %2")
                            .arg(banner.height())
                            .arg(m_window->desk().errorBanner()->heightForWidth(banner.width()))));
    QVERIFY(m_window->rect().contains(banner));
    QVERIFY2(!banner.intersects(rectIn(split, m_window.get())), "the banner covers the panes");
    // The timing chart's visible part (its scroll area's viewport: with little room its rows scroll) stays on screen.
    QWidget* timingViewport = m_window->desk().timingChart()->widget()->parentWidget();
    QVERIFY(timingViewport && timingViewport->height() > 0);
    QVERIFY(m_window->rect().contains(rectIn(timingViewport, m_window.get())));
    m_window->desk().errorBanner()->hide();
  }

  void exportKeepsTheTypedNameAndItsButtonsStill() {
    QVERIFY(runAndWait());
    ExportDialog* d = m_window->results().exportDialog();
    d->setFolder(m_dir.path());
    m_window->results().openExport();
    QApplication::processEvents();
    QLineEdit* path = d->pathField();
    path->clear();
    const QString typed = m_dir.filePath("my figure.v2.png");
    QTest::keyClicks(path, typed);
    const QList<QPushButton*> buttons = d->findChildren<QPushButton*>();
    QList<QPoint> at;
    for (auto* b : buttons) at << b->mapTo(d, QPoint(0, 0));
    d->formatBox()->setCurrentIndex(1);  // PDF
    QCOMPARE(path->text(), m_dir.filePath("my figure.v2.pdf"));
    d->setRun(m_window->results().last(), {});  // a new run keeps the typed name
    QCOMPARE(path->text(), m_dir.filePath("my figure.v2.pdf"));
    d->formatBox()->setCurrentIndex(0);
    QCOMPARE(path->text(), typed);
    // A long failure message does not push the buttons down.
    path->setText(m_dir.filePath("missing/folder/" + QString("very_long_name_").repeated(8) + ".png"));
    QVERIFY(!d->exportPlotNow().ok);
    QApplication::processEvents();
    for (int i = 0; i < buttons.size(); ++i) QCOMPARE(buttons[i]->mapTo(d, QPoint(0, 0)), at[i]);
    d->hide();
  }

  /// Presentation mode on the 1280x720 screen: the plots get most of the window, fonts and lines scale; leaving
  /// it restores the normal look.
  void presentationGivesThePlotsTheRoom() {
    m_window->selectWorkload("vector_add");
    QVERIFY(runAndWait());
    const ViewStyle normal = ViewStyle::normal();
    QCustomPlot* timing = plotOf(m_window->desk().timingChart()->widget());
    QVERIFY(timing);
    const qreal normalTick = timing->xAxis->tickLabelFont().pointSizeF();
    m_window->stage().setPresentationMode(true);
    QApplication::processEvents();
    QTest::qWait(50);
    QVERIFY(!m_window->desk().paramPanel()->isVisible());
    QVERIFY(!m_window->desk().browser()->isVisible());
    QVERIFY(!m_window->panelAction()->isChecked());
    // The stage (vector_add's lesson is its speed: the timing chart) takes the window.
    QWidget* out = m_window->stage().stageWidget();
    QCOMPARE(out, timing);
    QVERIFY2(out->height() >= m_window->height() * 55 / 100,
             qPrintable(QString("%1 of %2").arg(out->height()).arg(m_window->height())));
    QVERIFY2(out->width() >= m_window->width() * 80 / 100,
             qPrintable(QString("%1 of %2").arg(out->width()).arg(m_window->width())));
    QVERIFY(timing->xAxis->tickLabelFont().pointSizeF() >= normalTick * 1.6);  // x1.6 on a 720-pixel screen
    QVERIFY(timing->yAxis->tickLabelFont().pointSizeF() > normalTick);
    QCOMPARE(presentationScale(1080), 1.8);
    // Every row of the timing chart has room for its label: no overlap.
    const int rows = int(m_window->desk().timingChart()->data().bars.size());
    QVERIFY(rows >= 3);
    QVERIFY2(timing->axisRect()->height() / rows >= QFontMetrics(timing->yAxis->tickLabelFont()).lineSpacing(),
             qPrintable(QString("%1 px for %2 rows").arg(timing->axisRect()->height()).arg(rows)));
    // F4 brings the knobs back, inside the window.
    m_window->panelAction()->trigger();
    QApplication::processEvents();
    QVERIFY(m_window->desk().paramPanel()->isVisible());
    m_window->stage().setPresentationMode(false);
    QApplication::processEvents();
    QVERIFY(m_window->desk().paramPanel()->isVisible());
    QVERIFY(m_window->desk().browser()->isVisible());
    QCOMPARE(timing->xAxis->tickLabelFont().pointSizeF(), normalTick);
    // (A plot big enough for its axes: a tiny one is all margins and labels.)
    QCOMPARE(timing->toPixmap(200, 200).toImage().pixelColor(1, 1), toQColor(normal.palette->background));
  }

  /// Every implementation of vector_add ticked (nine rows in the timing chart), in presentation mode on the 1280x720
  /// screen: the output plot keeps its share of the window (a 128 x 128 matmul image was a 40-pixel band on the GPU
  /// screenshot) and the timing rows still do not overlap.
  void manyRowsLeaveThePlotsTheirRoom() {
    m_window->selectWorkload("vector_add");
    FormState f = m_window->desk().paramPanel()->form();
    f.impls.clear();
    Registry reg;
    kernels::registerAllWorkloads(reg);
    for (const auto& impl : reg.find("vector_add")->impls()) f.impls.push_back(impl.id);
    QVERIFY(f.impls.size() >= 8);
    f.size = "4096";
    m_window->desk().paramPanel()->setForm(f);
    m_window->stage().setPresentationMode(true);
    const auto leave = qScopeGuard([this] { m_window->stage().setPresentationMode(false); });
    QVERIFY(runAndWait());
    QApplication::processEvents();
    QTest::qWait(50);
    QWidget* out = m_window->desk().outputsPane()->view(0)->widget();
    QVERIFY2(out->height() >= m_window->height() * 35 / 100,
             qPrintable(QString("%1 of %2").arg(out->height()).arg(m_window->height())));
    QCustomPlot* timing = plotOf(m_window->desk().timingChart()->widget());
    const int rows = int(m_window->desk().timingChart()->data().bars.size());
    QVERIFY(rows >= 8);
    QVERIFY2(timing->axisRect()->height() / rows >= QFontMetrics(timing->yAxis->tickLabelFont()).lineSpacing(),
             qPrintable(QString("%1 px for %2 rows").arg(timing->axisRect()->height()).arg(rows)));
  }

  /// Leaving presentation mode gives every plot its normal colours back (a histogram stayed orange).
  void histogramColoursComeBackAfterPresentation() {
    m_window->selectWorkload("histogram");
    QVERIFY(runAndWait());
    auto* plot = plotOf(m_window->desk().outputsPane()->view(0)->widget());
    QVERIFY(plot);
    auto barColours = [&] {
      QList<QRgb> out;
      for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(plot->plottable(i));
            b && b->brush().style() != Qt::NoBrush && b->data()->size())
          out << b->brush().color().rgb();
      return out;
    };
    const QList<QRgb> before = barColours();
    QVERIFY(!before.isEmpty());
    m_window->stage().setPresentationMode(true);
    QApplication::processEvents();
    QVERIFY(barColours() != before);
    m_window->stage().setPresentationMode(false);
    QApplication::processEvents();
    QCOMPARE(barColours(), before);
  }

  /// Loading a preset of the workload on screen leaves no earlier result looking current.
  void presetMarksTheEarlierRunStale() {
    m_window->stage().setPresentationMode(false);
    m_window->selectWorkload("vector_add");
    QVERIFY(runAndWait());
    QVERIFY(m_window->desk().resultsTable()->rowCount() > 0);
    QVERIFY(!m_window->desk().timingChart()->data().bars.empty());
    Preset p;
    p.name = "tiny";
    p.form = m_window->desk().paramPanel()->form();
    p.form.size = "1000";
    m_window->applyPreset(p);
    QApplication::processEvents();
    QCOMPARE(m_window->desk().resultsTable()->rowCount(), 0);
    QVERIFY(m_window->desk().timingChart()->data().bars.empty());
    QVERIFY2(m_window->desk().timingChart()->titleText().contains("tiny"),
             qPrintable(m_window->desk().timingChart()->titleText()));
    QVERIFY(m_window->desk().outputsPane()->view(0)->summary().isEmpty());
  }

  /// The desk remembers what the student folded: a window opens with the panel as the last one left it, and closing
  /// saves the panel's state with the splitters.
  void deskRemembersWhatWasFolded() {
    auto settings = AppSettings::ephemeral();
    settings->setDesk({false, {}, {}});
    MainWindowOptions o;
    o.presetFolder = m_dir.filePath("presets-desk");
    o.firstRun = false;
    MainWindow w(app::makeEngineBackend(), std::move(settings), o);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!w.panelAction()->isChecked());
    QVERIFY(!w.desk().paramPanel()->isVisible());
    w.panelAction()->trigger();
    QVERIFY(w.desk().paramPanel()->isVisible());
    w.close();
    const auto saved = w.appSettings().desk();
    QVERIFY(saved);
    QVERIFY(saved->panelShown);
    QVERIFY(!saved->mainSplit.isEmpty() && !saved->resultsSplit.isEmpty());
  }

  /// A wide desk window (1920 x 1080) puts the timing chart beside the output plot, both at full height; narrowed
  /// again it is under it (the window can always narrow: side by side is wide only above both minimums).
  void aWideWindowSharesTheWidth() {
    m_window->selectWorkload("vector_add");
    QVERIFY(runAndWait());
    QWidget* timing = m_window->desk().timingChart()->widget();
    QWidget* out = m_window->desk().outputsPane()->view(0)->widget();
    const auto leave = qScopeGuard([this] {
      m_window->resize(kScreen);
      QApplication::processEvents();
    });
    m_window->resize(1920, 1080);
    QApplication::processEvents();
    QTest::qWait(50);
    const QRect t = rectIn(timing, m_window.get()), p = rectIn(out, m_window.get());
    QVERIFY2(t.left() >= p.right(),
             qPrintable(QString("timing at x %1, plot ends at %2").arg(t.left()).arg(p.right())));
    QVERIFY(p.height() >= m_window->height() * 55 / 100);
    m_window->resize(kScreen);
    QApplication::processEvents();
    QTest::qWait(50);
    QVERIFY(rectIn(timing, m_window.get()).top() >= rectIn(out, m_window.get()).bottom());
  }

  /// Side by side, a view wider than the last (the coalescing lesson's two sector maps) raises the two columns'
  /// minimum above a 1280 screen: the window still narrows to it, and stacks its results again.
  void aWideWindowNarrowsAfterAWiderViewOpens() {
    const auto leave = qScopeGuard([this] {
      m_window->resize(kScreen);
      QApplication::processEvents();
    });
    m_window->resize(1920, 1080);
    QApplication::processEvents();
    QVERIFY(m_window->openCourseExperiment("es-coalescing"));
    QVERIFY(runAndWait());
    OutputsPane* pane = m_window->desk().outputsPane();
    pane->setCurrentIndex(pane->indexOfView("sectors"));
    QApplication::processEvents();
    QCOMPARE(m_window->desk().resultsSplit()->orientation(), Qt::Horizontal);
    m_window->resize(kScreen);
    QApplication::processEvents();
    QTest::qWait(50);
    QCOMPARE(m_window->size(), kScreen);
    QCOMPARE(m_window->desk().resultsSplit()->orientation(), Qt::Vertical);
  }

  void cleanupTestCase() { m_window.reset(); }
};

int main(int argc, char** argv) {
  // A 1280x720 screen: the offscreen platform reads its screens from a JSON file.
  QTemporaryDir dir;
  const QString cfg = dir.filePath("screen.json");
  QFile f(cfg);
  if (!f.open(QIODevice::WriteOnly)) return 2;
  f.write(
      QString(
          R"({"screens": [{"name": "projector", "x": 0, "y": 0, "width": %1, "height": %2, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
          .arg(kScreen.width())
          .arg(kScreen.height())
          .toUtf8());
  f.close();
  qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + cfg).toUtf8());
  QApplication app(argc, argv);
  TestLayout t;
  return QTest::qExec(&t, argc, argv);
}

#include "test_layout.moc"
