#include "plots/line_counters_view.h"

#include <qcustomplot.h>

#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "launchlab/course/exercise.h"

namespace launchlab::ui {

namespace {

const QStringList kColumns = {"Line",           "Access",       "Warp requests", "Sectors / request",
                              "Bank conflicts", "Active lanes", "What it means"};
const QStringList kColumnTips = {
    "The source line (click a row to go to it)",
    "load, store, atomic or reduction",
    "How many times a warp executed the access",
    "32-byte sectors of global memory one warp's request touches, and the fewest its lanes' bytes could fit in",
    "Extra shared-memory cycles beyond the ideal, summed over the requests (lanes of a warp on the same bank)",
    "Lanes of the warp taking part in the access, on average",
    "The line in words"};

QTableWidgetItem* cell(const QString& text, bool number) {
  auto* it = new QTableWidgetItem(text);
  it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  if (number) it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return it;
}

QString lanesText(const LineCounterRow& r) {
  return r.activeLanesPct ? QString::number(*r.activeLanesPct, 'f', 0) + " %" : QString("\u2014");
}

}  // namespace

LineCountersView::LineCountersView(QWidget* parent) : QWidget(parent) {
  setObjectName("lineCounters");
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 2, 0, 0);
  lay->setSpacing(2);
  m_heading = new QLabel;
  m_heading->setWordWrap(true);
  m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_rows = new QTableWidget(0, int(kColumns.size()));
  m_rows->setObjectName("lineCountersTable");
  m_rows->setHorizontalHeaderLabels(kColumns);
  for (int c = 0; c < kColumns.size(); ++c) m_rows->horizontalHeaderItem(c)->setToolTip(kColumnTips[c]);
  m_rows->verticalHeader()->setVisible(false);
  m_rows->horizontalHeader()->setStretchLastSection(true);
  m_rows->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_rows->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_rows->setWordWrap(false);
  m_foot = new QLabel;
  m_foot->setWordWrap(true);
  m_foot->setTextInteractionFlags(Qt::TextSelectableByMouse);
  lay->addWidget(m_heading);
  lay->addWidget(m_rows, 1);
  lay->addWidget(m_foot);
  connect(m_rows, &QTableWidget::cellClicked, this, [this](int row, int) {
    if (row >= 0 && row < int(m_table.rows.size())) emit lineActivated(m_table.rows[std::size_t(row)].line);
  });
}

QString LineCountersView::headingText() const { return m_heading->text(); }
QString LineCountersView::footText() const { return m_foot->isHidden() ? QString() : m_foot->text(); }

void LineCountersView::showMessage(const QString& text) {
  m_table = {};
  m_rows->setRowCount(0);
  m_rows->setVisible(false);
  m_heading->setText(text);
  m_foot->setVisible(false);
}

void LineCountersView::setTable(const LineCountersTable& t) {
  m_table = t;
  const QString by = t.source.isEmpty() ? QString() : " \u2014 " + t.source;
  if (!t.missing.isEmpty()) {
    showMessage("<b>Per source line</b>" + by.toHtmlEscaped() + "<br>" + t.missing.toHtmlEscaped());
    m_table = t;
    return;
  }
  m_heading->setText("<b>Per source line: " + t.impl.toHtmlEscaped() + "</b>" + by.toHtmlEscaped());
  m_rows->setVisible(true);
  m_rows->setRowCount(int(t.rows.size()));
  const QColor worst(255, 213, 128);  // the lesson banners' amber: the line to look at
  for (int i = 0; i < int(t.rows.size()); ++i) {
    const LineCounterRow& r = t.rows[std::size_t(i)];
    const QStringList texts = {QString::number(r.line),
                               r.kind,
                               QString::number(r.requests, 'f', 0),
                               sectorsCellText(r),
                               conflictsCellText(r),
                               lanesText(r),
                               meaningText(r)};
    for (int c = 0; c < texts.size(); ++c) {
      auto* it = cell(texts[c], c != 1 && c != 6);
      it->setToolTip(r.text);
      if (i == t.worst) {
        it->setBackground(worst);
        QFont f = it->font();
        f.setBold(true);
        it->setFont(f);
      }
      m_rows->setItem(i, c, it);
    }
  }
  m_rows->resizeColumnsToContents();
  m_rows->resizeRowsToContents();
  if (t.worst >= 0) m_rows->scrollToItem(m_rows->item(t.worst, 0));
  m_foot->setText(worstLineText(t));
  m_foot->setVisible(!m_foot->text().isEmpty());
}

void LineCountersView::showKernelOf(const RunResult& r, const QString& file) {
  const ImplResult* mine = r.find(std::string(kMyKernel));
  if (!mine || !mine->counters) return setVisible(false);  // no counters asked of the student's kernel
  setTable(lineCounters(r, std::string(kMyKernel), file));
  m_wantsRoom = m_wantsRoom || isHidden();
  setVisible(true);
  if (isVisible()) QTimer::singleShot(0, this, [this] { takeRoomInSplitter(); });
}

void LineCountersView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  // Shown in a tab that was behind another: the splitter has its sizes once laid out.
  QTimer::singleShot(0, this, [this] { takeRoomInSplitter(); });
}

void LineCountersView::takeRoomInSplitter() {
  // Shown in a splitter (under the editor), the table takes a third of its height the first time, so that the
  // costliest row is in sight; the others share the rest as they had it.
  auto* split = qobject_cast<QSplitter*>(parentWidget());
  QList<int> sizes = split ? split->sizes() : QList<int>();
  const int me = split ? split->indexOf(this) : -1;
  int total = 0, others = 0;
  for (int i = 0; i < sizes.size(); ++i) {
    total += sizes[i];
    if (i != me) others += sizes[i];
  }
  if (m_wantsRoom && isVisible() && me >= 0 && total > 0) {
    m_wantsRoom = false;
    const int mine = total / 3;
    for (int i = 0; i < sizes.size(); ++i)
      sizes[i] = i == me ? mine : others > 0 ? int(double(sizes[i]) * (total - mine) / others) : 0;
    split->setSizes(sizes);
  }
  if (m_table.worst >= 0) m_rows->scrollToItem(m_rows->item(m_table.worst, 0));
}

namespace {

/// The per-line table as a tab of the outputs pane.
class LineCountersOutputView final : public OutputView {
 public:
  explicit LineCountersOutputView(QWidget* parent) : m_view(new LineCountersView(parent)) {}
  ~LineCountersOutputView() override { delete m_view.data(); }
  QWidget* widget() override { return m_view; }
  void setData(const ViewData& d) override {
    const RunResult& r = d.outcome->result;
    std::string id = d.source;
    const std::vector<std::string> with = implsWithLines(r);
    if (std::find(with.begin(), with.end(), id) == with.end() && !with.empty()) id = with.front();
    m_view->setTable(lineCounters(r, id));
    m_summary = m_view->footText();
  }
  void showMessage(const QString& text) override {
    m_view->showMessage(text);
    m_summary.clear();
  }
  void setViewStyle(const ViewStyle& s) override { m_view->setFont(s.font()); }
  void resetZoom() override {}
  void setLogY(bool) override {}
  QString summary() const override { return m_summary; }
  int drawnPoints() const override { return int(m_view->table().rows.size()); }
  void render(QCPPainter& painter, const QSize& size) override {
    const QSize own = m_view->size();
    if (own.isEmpty()) return;
    painter.save();
    painter.scale(double(size.width()) / own.width(), double(size.height()) / own.height());
    m_view->render(&painter);
    painter.restore();
  }
  QString exportTitle() const override { return "Per source line: " + m_view->table().impl; }

 private:
  QPointer<LineCountersView> m_view;
  QString m_summary;
};

}  // namespace

std::unique_ptr<OutputView> makeLineCountersOutputView(QWidget* parent) {
  return std::make_unique<LineCountersOutputView>(parent);
}

}  // namespace launchlab::ui
