#include "plots/results_tables.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QScrollBar>
#include <QTime>
#include <algorithm>

#include "launchlab/engine/counters.h"
#include "models/chart_data.h"
#include "models/counters_text.h"

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
  setup(this, {"Implementation", "Verification", "Max abs error", "Max rel error", "Mismatches",
               "First mismatching indices", "Note"});
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
        cell(QString::fromStdString(i.title)),
        cell(outcome),
        cell(i.status == Status::Ok ? num(v.maxAbsError, 3) : "", true),
        cell(i.status == Status::Ok ? num(v.maxRelError, 3) : "", true),
        cell(v.compared ? QString("%1 of %2").arg(v.mismatches).arg(v.compared) : QString(), true),
        cell(first),
        cell(note)};
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

namespace {
const QStringList kResultColumns = {"Implementation",    "Status", "H2D ms", "Kernel ms", "D2H ms",  "CPU ms",
                                    "Total ms (median)", "Min ms", "Max ms", "GB/s",      "GFLOP/s", "Speedup (total)",
                                    "Speedup (compute)", "Launch", "Note"};
}  // namespace

ResultsTable::ResultsTable(QWidget* parent) : QTableWidget(parent) {
  setup(this, kResultColumns);
  setSelectionMode(QAbstractItemView::ExtendedSelection);
  setSelectionBehavior(QAbstractItemView::SelectItems);
  setToolTip(
      "Copy table (or Ctrl+C) copies the selected cells, or the whole table when none are, as tab-separated text");
}

void ResultsTable::setResult(const RunResult& r) {
  setRowCount(0);
  setColumnCount(int(kResultColumns.size()));
  addCounterColumns(r);
  for (const auto& i : r.impls) {
    const int row = rowCount();
    insertRow(row);
    const bool ok = i.status == Status::Ok;
    auto total = i.phases.find(Phase::Total);
    QString launch;
    if (i.launch) launch = QString::fromStdString(formatDim3(i.launch->grid) + " x " + formatDim3(i.launch->block));
    QString note = QString::fromStdString(ok ? i.launchNote : i.reason);
    for (const auto& [k, v] : i.metrics)
      note += QString("%1%2 = %3").arg(note.isEmpty() ? "" : "; ", QString::fromStdString(k)).arg(v, 0, 'g', 6);
    const QStringList cols = {
        QString::fromStdString(i.title),
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
    fillCounterCells(row, i);
  }
  resizeColumnsToContents();
}

void ResultsTable::addCounterColumns(const RunResult& r) {
  m_counterIds = counterColumns(r);
  const int base = int(kResultColumns.size());
  setColumnCount(base + int(m_counterIds.size()));
  for (std::size_t k = 0; k < m_counterIds.size(); ++k) {
    auto* h = new QTableWidgetItem(counterHeaderText(r, m_counterIds[k]));
    const QString source = runCounterSourceTip(r);
    h->setToolTip(counterHeaderTip(m_counterIds[k]) + (source.isEmpty() ? "" : "\nMeasured: " + source));
    if (k == 0) {  // the lesson's counter
      QFont f = h->font();
      f.setBold(true);
      h->setFont(f);
      h->setToolTip("The lesson's counter. " + h->toolTip());
    }
    setHorizontalHeaderItem(base + int(k), h);
  }
}

void ResultsTable::fillCounterCells(int row, const ImplResult& impl) {
  const int base = int(kResultColumns.size());
  for (std::size_t k = 0; k < m_counterIds.size(); ++k) {
    const CounterCell c = counterCell(impl, m_counterIds[k]);
    auto* it = cell(c.text, true);
    it->setToolTip(c.tip);
    if (k == 0 && !c.text.isEmpty()) {
      QFont f = it->font();
      f.setBold(true);
      it->setFont(f);
      it->setBackground(QColor(255, 236, 179));  // the amber of the lesson banners, light
    }
    setItem(row, base + int(k), it);
  }
}

QString ResultsTable::toTsv(bool selectionOnly) const {
  QList<int> rows, cols;
  for (int r = 0; r < rowCount(); ++r) rows << r;
  for (int c = 0; c < columnCount(); ++c) cols << c;
  if (selectionOnly) {
    const auto indexes = selectionModel()->selectedIndexes();
    auto used = [&](auto key) {
      QList<int> v;
      for (const auto& i : indexes)
        if (!v.contains(key(i))) v << key(i);
      std::sort(v.begin(), v.end());
      return v;
    };
    rows = used([](const QModelIndex& i) { return i.row(); });
    cols = used([](const QModelIndex& i) { return i.column(); });
  }
  auto text = [this, selectionOnly](int r, int c) {
    const QTableWidgetItem* it = item(r, c);
    return it && (!selectionOnly || it->isSelected()) ? it->text().replace('\t', ' ') : QString();
  };
  QStringList lines, header;
  for (int c : cols) header << horizontalHeaderItem(c)->text();
  lines << header.join('\t');
  for (int r : rows) {
    QStringList row;
    for (int c : cols) row << text(r, c);
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
  verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

}  // namespace launchlab::ui
