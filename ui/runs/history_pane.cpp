#include "runs/history_pane.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "launchlab/explorer/run_compare.h"
#include "launchlab/files/command_line.h"
#include "models/text.h"

namespace launchlab::ui {

namespace {

QTableWidget* table(const QStringList& headers) {
  auto* t = new QTableWidget(0, int(headers.size()));
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->setVisible(false);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->horizontalHeader()->setStretchLastSection(true);
  t->setWordWrap(false);
  return t;
}

void setRow(QTableWidget* t, int row, const QStringList& cells) {
  for (int c = 0; c < cells.size(); ++c) t->setItem(row, c, new QTableWidgetItem(cells[c]));
}

QString ms(double v, Status s) {
  return s == Status::Ok && v > 0 ? QString::number(v, 'g', 4) : q(std::string(statusName(s)));
}

QString fastest(const RunResult& r) {
  const ImplResult* best = nullptr;
  for (const auto& i : r.impls)
    if (i.status == Status::Ok && i.totalMedianMs() > 0 && (!best || i.totalMedianMs() < best->totalMedianMs()))
      best = &i;
  return best ? QString("%1 %2 ms").arg(q(best->implId)).arg(best->totalMedianMs(), 0, 'g', 4)
              : QString("nothing measured");
}
}  // namespace

HistoryPane::HistoryPane(RunController& controller, QWidget* parent)
    : QWidget(parent),
      m_history([&controller](std::shared_ptr<const RunOutcome> o) { controller.disposeLater(std::move(o)); }) {
  auto* split = new QSplitter(Qt::Horizontal);
  auto* left = new QWidget;
  auto* ll = new QVBoxLayout(left);
  ll->setContentsMargins(0, 2, 0, 0);
  m_list = table({"Run", "Fastest (total)", "Arrays"});
  m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_list->setToolTip(
      "This session's runs (the last 50; arrays of older runs are dropped to save memory). "
      "Select two to compare them, one to copy its command line.");
  ll->addWidget(m_list, 1);
  auto* buttons = new QHBoxLayout;
  m_compare = new QPushButton("Compare A / B");
  m_compare->setToolTip("Select two runs: their times side by side with the ratio B / A, and their outputs compared");
  m_copy = new QPushButton("Copy as command");
  m_copy->setToolTip("Copies the launchlab-cli command line that reproduces the selected run");
  buttons->addWidget(m_compare);
  buttons->addWidget(m_copy);
  ll->addLayout(buttons);
  m_status = new QLabel;
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  ll->addWidget(m_status);
  auto* right = new QWidget;
  auto* rl = new QVBoxLayout(right);
  rl->setContentsMargins(0, 2, 0, 0);
  m_title = new QLabel("Select two runs and press Compare A / B");
  m_title->setWordWrap(true);
  m_title->setStyleSheet("font-weight: bold;");
  rl->addWidget(m_title);
  m_timings = table({"Implementation", "A total (ms)", "B total (ms)", "B / A", "A compute", "B compute"});
  rl->addWidget(m_timings, 3);
  m_outputs = table({"Implementation", "Output", "A vs B"});
  rl->addWidget(m_outputs, 2);
  split->addWidget(left);
  split->addWidget(right);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->addWidget(split);
  connect(&controller, &RunController::runFinished, this, &HistoryPane::add);
  connect(m_list, &QTableWidget::itemSelectionChanged, this, &HistoryPane::updateButtons);
  connect(m_compare, &QPushButton::clicked, this, [this] {
    const auto n = selectedNumbers();
    if (n.size() == 2) compare(n[0], n[1]);
  });
  connect(m_copy, &QPushButton::clicked, this, [this] {
    const auto n = selectedNumbers();
    if (n.size() == 1) copyCommand(n[0]);
  });
  updateButtons();
}

void HistoryPane::add(quint64, std::shared_ptr<const RunOutcome> outcome) {
  m_history.add(std::move(outcome));
  refreshList();
}

void HistoryPane::refreshList() {
  const auto selected = selectedNumbers();
  const auto& entries = m_history.entries();
  m_list->setRowCount(int(entries.size()));
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const HistoryEntry& e = entries[entries.size() - 1 - i];  // newest on top
    const std::size_t bytes = e.full ? keptArrayBytes(e.full->result) : 0;
    setRow(m_list, int(i),
           {e.summary(), fastest(e.result()),
            e.full ? QString("%1 MiB").arg(double(bytes) / (1 << 20), 0, 'f', 1) : QString("timings only")});
    m_list->item(int(i), 0)->setData(Qt::UserRole, e.number);
    m_list->item(int(i), 0)->setToolTip(q(runCommandLine(e.request)));
  }
  m_list->resizeColumnToContents(0);
  for (int r = 0; r < m_list->rowCount(); ++r)
    if (std::count(selected.begin(), selected.end(), m_list->item(r, 0)->data(Qt::UserRole).toULongLong()))
      m_list->selectRow(r);
  updateButtons();
}

std::vector<quint64> HistoryPane::selectedNumbers() const {
  std::vector<quint64> out;
  for (const QModelIndex& i : m_list->selectionModel()->selectedRows())
    out.push_back(m_list->item(i.row(), 0)->data(Qt::UserRole).toULongLong());
  std::sort(out.begin(), out.end());  // A: the older run
  return out;
}

void HistoryPane::updateButtons() {
  const std::size_t n = selectedNumbers().size();
  m_compare->setEnabled(n == 2);
  m_copy->setEnabled(n == 1);
}

bool HistoryPane::compare(quint64 a, quint64 b) {
  const HistoryEntry* ea = m_history.find(a);
  const HistoryEntry* eb = m_history.find(b);
  if (!ea || !eb) return false;
  m_title->setText("A = " + ea->summary() + "\nB = " + eb->summary());
  fillTimings(ea->result(), eb->result());
  fillOutputs(ea->result(), eb->result());
  emit logLine(QString("history: compared run #%1 (A) with run #%2 (B)").arg(a).arg(b));
  return true;
}

void HistoryPane::fillTimings(const RunResult& a, const RunResult& b) {
  const auto rows = compareTimings(a, b);
  m_timings->setRowCount(int(rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const TimingComparison& t = rows[i];
    const QString ratio = t.ratio > 0 ? QString("%1\xC3\x97 (%2)")
                                            .arg(t.ratio, 0, 'f', 2)
                                            .arg(t.ratio < 1   ? "B faster"
                                                 : t.ratio > 1 ? "B slower"
                                                               : "same")
                                      : QString("\xE2\x80\x94");
    setRow(m_timings, int(i),
           {q(t.title), t.inA ? ms(t.totalA, t.statusA) : "not run", t.inB ? ms(t.totalB, t.statusB) : "not run", ratio,
            t.inA ? ms(t.computeA, t.statusA) : "", t.inB ? ms(t.computeB, t.statusB) : ""});
  }
  m_timings->resizeColumnsToContents();
}

void HistoryPane::fillOutputs(const RunResult& a, const RunResult& b) {
  const auto rows = compareOutputs(a, b);
  m_outputs->setRowCount(std::max(1, int(rows.size())));
  if (rows.empty()) setRow(m_outputs, 0, {"", "", "no implementation kept outputs in both runs"});
  for (std::size_t i = 0; i < rows.size(); ++i)
    setRow(m_outputs, int(i), {q(rows[i].implId), q(rows[i].output), q(rows[i].note)});
  m_outputs->resizeColumnsToContents();
}

QString HistoryPane::copyCommand(quint64 number) {
  const HistoryEntry* e = m_history.find(number);
  if (!e) return {};
  const QString line = q(runCommandLine(e->request));
  QApplication::clipboard()->setText(line);
  m_status->setText("Copied: " + line);
  emit logLine("history: copied the command of run #" + QString::number(number) + ": " + line);
  return line;
}

QString HistoryPane::comparisonTitle() const { return m_title->text(); }
QString HistoryPane::statusText() const { return m_status->text(); }

}  // namespace launchlab::ui
