#include "results_tables.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QTime>

#include "chart_data.h"

namespace launchlab::ui {

namespace {

QTableWidgetItem* cell(const QString& text, bool number = false) {
  auto* i = new QTableWidgetItem(text);
  i->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  if (number) i->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return i;
}

QString num(double v, int prec = 4) { return v == 0 ? QString("0") : QString::number(v, 'g', prec); }

QString ms(const ImplResult& r, Phase p) {
  auto it = r.phases.find(p);
  return it == r.phases.end() ? QString() : QString::number(it->second.medianMs, 'g', 4);
}

void setup(QTableWidget* t, const QStringList& headers) {
  t->setColumnCount(int(headers.size()));
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->setVisible(false);
  t->setAlternatingRowColors(true);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->horizontalHeader()->setStretchLastSection(true);
  t->setWordWrap(false);
}

}  // namespace

VerificationTable::VerificationTable(QWidget* parent) : QTableWidget(parent) {
  setup(this, {"Implementation", "Verification", "Max abs error", "Max rel error", "Mismatches", "First mismatching indices",
               "Note"});
  setToolTip("Every implementation's outputs compared element by element with cpu-serial (the reference)");
}

void VerificationTable::setResult(const RunResult& r) {
  setRowCount(0);
  for (const auto& i : r.impls) {
    const int row = rowCount();
    insertRow(row);
    const auto& v = i.verification;
    QString outcome = QString::fromStdString(std::string(outcomeName(v.outcome)));
    QColor bg;
    if (i.status != Status::Ok) {
      outcome = QString::fromStdString(std::string(statusName(i.status)));
      bg = QColor(235, 235, 235);
    } else if (v.outcome == Verification::Outcome::Fail) {
      bg = QColor(253, 205, 205);
    } else if (v.outcome == Verification::Outcome::Demonstration) {
      bg = QColor(255, 232, 180);
    } else if (v.outcome == Verification::Outcome::Pass) {
      bg = QColor(212, 240, 212);
    }
    QString first;
    for (auto idx : v.firstMismatches) first += (first.isEmpty() ? "" : ", ") + QString::number(idx);
    const QString note = QString::fromStdString(i.status == Status::Ok ? v.note : i.reason);
    QList<QTableWidgetItem*> items = {
        cell(QString::fromStdString(i.title)), cell(outcome), cell(i.status == Status::Ok ? num(v.maxAbsError, 3) : "", true),
        cell(i.status == Status::Ok ? num(v.maxRelError, 3) : "", true),
        cell(v.compared ? QString("%1 of %2").arg(v.mismatches).arg(v.compared) : QString(), true), cell(first), cell(note)};
    for (int c = 0; c < items.size(); ++c) {
      if (bg.isValid()) {
        items[c]->setBackground(bg);
        items[c]->setForeground(QColor(0, 0, 0));
      }
      items[c]->setToolTip(note);
      setItem(row, c, items[c]);
    }
  }
  resizeColumnsToContents();
}

ResultsTable::ResultsTable(QWidget* parent) : QTableWidget(parent) {
  setup(this, {"Implementation", "Status", "H2D ms", "Kernel ms", "D2H ms", "CPU ms", "Total ms (median)", "Min ms", "Max ms",
               "GB/s", "GFLOP/s", "Speedup (total)", "Speedup (compute)", "Launch", "Note"});
  setSelectionMode(QAbstractItemView::ExtendedSelection);
  setToolTip("Ctrl+C copies the selected rows (or everything) as tab-separated text");
}

void ResultsTable::setResult(const RunResult& r) {
  setRowCount(0);
  for (const auto& i : r.impls) {
    const int row = rowCount();
    insertRow(row);
    const bool ok = i.status == Status::Ok;
    auto total = i.phases.find(Phase::Total);
    QString launch;
    if (i.launch) launch = QString::fromStdString(formatDim3(i.launch->grid) + " x " + formatDim3(i.launch->block));
    QString note = QString::fromStdString(ok ? i.launchNote : i.reason);
    for (const auto& [k, v] : i.metrics) note += QString("%1%2 = %3").arg(note.isEmpty() ? "" : "; ", QString::fromStdString(k)).arg(v, 0, 'g', 6);
    const QStringList cols = {QString::fromStdString(i.title),
                              QString::fromStdString(std::string(statusName(i.status))),
                              ms(i, Phase::H2D),
                              ms(i, Phase::Kernel),
                              ms(i, Phase::D2H),
                              ms(i, Phase::Cpu),
                              total != i.phases.end() ? QString::number(total->second.medianMs, 'g', 4) : QString(),
                              total != i.phases.end() ? QString::number(total->second.minMs, 'g', 4) : QString(),
                              total != i.phases.end() ? QString::number(total->second.maxMs, 'g', 4) : QString(),
                              ok ? num(i.bandwidthGBs) : QString(),
                              ok && i.gflops > 0 ? num(i.gflops) : QString(),
                              ok && i.speedupTotal > 0 ? QString::fromStdString(speedupText(i.speedupTotal)) : QString(),
                              ok && i.speedupCompute > 0 ? QString::fromStdString(speedupText(i.speedupCompute)) : QString(),
                              launch,
                              note};
    for (int c = 0; c < cols.size(); ++c) {
      auto* it = cell(cols[c], c >= 2 && c <= 12);
      if (c == cols.size() - 1) it->setToolTip(note);
      setItem(row, c, it);
    }
  }
  resizeColumnsToContents();
}

QString ResultsTable::toTsv(bool selectionOnly) const {
  QStringList lines;
  QStringList header;
  for (int c = 0; c < columnCount(); ++c) header << horizontalHeaderItem(c)->text();
  lines << header.join('\t');
  for (int r = 0; r < rowCount(); ++r) {
    if (selectionOnly && !selectionModel()->isRowSelected(r, QModelIndex())) continue;
    QStringList row;
    for (int c = 0; c < columnCount(); ++c) row << (item(r, c) ? item(r, c)->text().replace('\t', ' ') : QString());
    lines << row.join('\t');
  }
  return lines.join('\n') + '\n';
}

void ResultsTable::copyToClipboard() {
  const bool sel = selectionModel() && selectionModel()->hasSelection();
  QApplication::clipboard()->setText(toTsv(sel));
}

void ResultsTable::keyPressEvent(QKeyEvent* e) {
  if (e->matches(QKeySequence::Copy)) {
    copyToClipboard();
    return;
  }
  QTableWidget::keyPressEvent(e);
}

LogView::LogView(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setMaximumBlockCount(5000);
  QFont f("monospace");
  f.setStyleHint(QFont::Monospace);
  setFont(f);
}

void LogView::append(const QString& line) {
  appendPlainText(QTime::currentTime().toString("HH:mm:ss.zzz") + "  " + line);
}

}  // namespace launchlab::ui
