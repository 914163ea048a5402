// ParamPanel's form: showing a FormState in the widgets, reading them back, and marking each field's problem
// (param_panel.cpp builds the widgets).
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

#include "launchlab/engine/counters.h"
#include "launchlab/files/parse.h"
#include "models/backend.h"
#include "window/param_panel.h"

namespace launchlab::ui {

namespace {

QString bytesText(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  return QString::number(b, 'g', 3) + " " + units[u];
}

/// Size for slider position p (quarter octaves): exact powers of two on whole octaves, else two significant
/// digits (so the field shows "20M", not "19951584").
std::uint64_t sizeForPosition(int p) {
  if (p % 4 == 0) return std::uint64_t(1) << (p / 4);
  const double v = std::pow(2.0, p / 4.0);
  const double mag = std::pow(10.0, std::floor(std::log10(v)) - 1);
  return std::uint64_t(std::llround(std::round(v / mag) * mag));
}

}  // namespace

void ParamPanel::setForm(const FormState& f) {
  const Workload* w = m_backend.registry().find(f.workload);
  if (!w) return;
  if (w != m_workload) rebuild(*w);
  showDeviceState();
  load(f);
  collect();
}

void ParamPanel::load(const FormState& f) {
  m_loading = true;
  m_sizeEdit->setText(QString::fromStdString(f.size));
  m_dtype->setCurrentText(QString::fromStdString(f.dtype));
  for (const auto& p : m_workload->info().params) {
    auto it = f.params.find(p.name);
    const QString text = QString::fromStdString(it != f.params.end() ? it->second : defaultParamText(p));
    QWidget* e = m_editors.value(QString::fromStdString("param:" + p.name));
    if (auto* le = qobject_cast<QLineEdit*>(e))
      le->setText(text);
    else if (auto* cb = qobject_cast<QComboBox*>(e))
      cb->setCurrentText(text);
  }
  m_autoBlock->setChecked(f.autoBlock);
  m_blockEdit->setText(QString::fromStdString(f.block));
  m_autoGrid->setChecked(f.autoGrid);
  m_gridEdit->setText(QString::fromStdString(f.grid));
  for (auto it = m_implBoxes.begin(); it != m_implBoxes.end(); ++it) {
    const bool on = it.key().toStdString() == kCpuSerial ||
                    std::find(f.impls.begin(), f.impls.end(), it.key().toStdString()) != f.impls.end();
    it.value()->setChecked(on);
  }
  m_myKernelBox->setChecked(std::find(f.impls.begin(), f.impls.end(), kMyKernel) != f.impls.end());
  m_reps->setValue(f.reps);
  m_warmup->setValue(f.warmup);
  m_seed->setText(QString::number(f.seed));
  m_traceBlocks->setChecked(f.traceBlocks);
  m_counters->setChecked(!f.counters.empty());
  // A lesson's own list, kept while its box is toggled off and on; another workload starts from the default.
  if (!f.counters.empty() || f.workload != m_form.workload) m_counterIds = f.counters;
  m_loading = false;
}

void ParamPanel::sliderToSize(int pos) {
  m_sizeEdit->setText(QString::fromStdString(sizeText(sizeForPosition(pos))));
  collect();
}

void ParamPanel::syncSlider() {
  if (auto n = parseSize(m_sizeEdit->text().toStdString())) {
    QSignalBlocker b(m_sizeSlider);
    m_sizeSlider->setValue(int(std::lround(std::log2(double(*n)) * 4)));
  }
  if (m_blockSlider) {
    if (auto b = parseDim3(m_blockEdit->text().toStdString())) {
      QSignalBlocker bl(m_blockSlider);
      m_blockSlider->setValue(int(std::min<std::uint64_t>(b->x, std::uint64_t(m_blockSlider->maximum()))));
    }
  }
}

void ParamPanel::collect() {
  if (m_loading || !m_workload) return;
  FormState f;
  f.workload = m_workload->info().id;
  f.size = m_sizeEdit->text().trimmed().toStdString();
  f.dtype = m_dtype->currentText().toStdString();
  for (const auto& p : m_workload->info().params) {
    QWidget* e = m_editors.value(QString::fromStdString("param:" + p.name));
    if (auto* le = qobject_cast<QLineEdit*>(e))
      f.params[p.name] = le->text().trimmed().toStdString();
    else if (auto* cb = qobject_cast<QComboBox*>(e))
      f.params[p.name] = cb->currentText().toStdString();
  }
  f.autoBlock = m_autoBlock->isChecked();
  f.block = m_blockEdit->text().trimmed().toStdString();
  f.autoGrid = m_autoGrid->isChecked();
  f.grid = m_gridEdit->text().trimmed().toStdString();
  for (const auto& impl : m_workload->impls())
    if (auto* cb = m_implBoxes.value(QString::fromStdString(impl.id)); cb && cb->isChecked())
      f.impls.push_back(impl.id);
  if (offersMyKernel() && m_myKernelBox->isChecked()) f.impls.emplace_back(kMyKernel);
  f.reps = m_reps->value();
  f.warmup = m_warmup->value();
  f.seed = parseUnsigned(m_seed->text().toStdString()).value_or(m_form.seed);  // empty while typing: kept
  f.traceBlocks = m_traceBlocks->isChecked();
  if (m_counters->isChecked()) f.counters = m_counterIds.empty() ? defaultCounters() : m_counterIds;
  m_form = f;
  m_check = checkForm(m_form, m_backend, offersMyKernel() ? &*m_userKernel : nullptr);
  syncSlider();
  mark();
  emit changed();
}

bool ParamPanel::offersMyKernel() const {
  if (!m_userKernel || !m_workload) return false;
  const Exercise* ex = findExercise(m_userKernel->exercise);
  return ex && ex->workload == m_workload->info().id;
}

void ParamPanel::setUserKernel(std::optional<UserKernel> k) {
  m_userKernel = std::move(k);
  if (!m_myKernelBox) return;
  m_myKernelBox->setVisible(offersMyKernel());
  collect();
}

QString ParamPanel::fieldMessage(const QString& field) const {
  auto* l = m_messages.value(field);
  return l && l->isVisible() ? l->text() : QString();
}

void ParamPanel::mark() {
  m_blockEdit->setEnabled(!m_form.autoBlock);
  if (m_blockSlider) m_blockSlider->setEnabled(!m_form.autoBlock);
  if (m_blockShape) m_blockShape->setEnabled(!m_form.autoBlock);
  m_gridEdit->setEnabled(!m_form.autoGrid);
  for (auto it = m_messages.begin(); it != m_messages.end(); ++it) {
    const std::string key = it.key().toStdString();
    QString text;
    bool error = false;
    if (auto e = m_check.errors.find(key); e != m_check.errors.end()) {
      text = QString::fromStdString(e->second);
      error = true;
    } else if (auto w = m_check.warnings.find(key); w != m_check.warnings.end()) {
      text = QString::fromStdString(w->second);
    }
    it.value()->setText((error ? "\xE2\x9C\x97 " : "\xE2\x84\xB9 ") + text);
    it.value()->setStyleSheet(error ? "color: #c62828;" : "color: #8a5a00;");
    it.value()->setVisible(!text.isEmpty());
    if (QWidget* ed = m_editors.value(it.key())) {
      ed->setProperty("invalid", error);
      ed->style()->unpolish(ed);
      ed->style()->polish(ed);
      ed->setToolTip(ed->toolTip().section("\n\xE2\x9C\x97 ", 0, 0) +
                     (error ? "\n\xE2\x9C\x97 " + text.mid(2) : QString()));
    }
  }
  // What the size means in memory.
  if (auto n = parseSize(m_form.size); n && m_check.errors.count("size") == 0) {
    double bytes = double(*n);
    if (auto t = parseDType(m_form.dtype)) bytes *= double(dtypeSize(*t));
    m_sizeInfo->setText(QString("= %1 %2, %3 per array")
                            .arg(QLocale(QLocale::English).toString(qulonglong(*n)))
                            .arg(QString::fromStdString(m_workload->info().sizeLabel))
                            .arg(bytesText(bytes)));
  } else {
    m_sizeInfo->clear();
  }
}

}  // namespace launchlab::ui
