#include "dialogs/export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "models/chart_data.h"

namespace launchlab::ui {

namespace {
QString slug(const QString& s) {
  QString out;
  for (QChar c : s.toLower()) out += c.isLetterOrNumber() && c.unicode() < 128 ? c : QChar('_');
  while (out.contains("__")) out.replace("__", "_");
  out = out.left(48);
  while (out.endsWith('_')) out.chop(1);
  while (out.startsWith('_')) out.remove(0, 1);
  return out.isEmpty() ? "plot" : out;
}
}  // namespace

ExportDialog::ExportDialog(QWidget* parent) : QDialog(parent), m_folder(QDir::homePath()) {
  setWindowTitle("Export");
  setModal(false);
  auto* lay = new QVBoxLayout(this);
  lay->addWidget(buildPlotBox());
  lay->addWidget(buildDataBox());
  m_status = new QLabel;
  m_status->setWordWrap(true);
  // Room for three lines, whatever the message: the buttons under it never move.
  m_status->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  m_status->setFixedHeight(3 * m_status->fontMetrics().lineSpacing() + 4);
  // A long path (one unbreakable word) must not widen the dialog either: the tooltip has the whole message.
  m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  lay->addWidget(m_status);
  auto* close = new QPushButton("Close");
  connect(close, &QPushButton::clicked, this, &QDialog::hide);
  auto* closeRow = new QHBoxLayout;
  closeRow->addStretch();
  closeRow->addWidget(close);
  lay->addLayout(closeRow);
  // A name the user typed or browsed to is kept through new runs; picking another plot suggests a name again.
  connect(m_path, &QLineEdit::textEdited, this, [this] { m_pathChosen = true; });
  connect(m_target, &QComboBox::currentIndexChanged, this, [this] {
    m_pathChosen = false;
    suggestPath();
  });
  connect(m_format, &QComboBox::currentIndexChanged, this, [this] { matchSuffixToFormat(); });
}

/// Which plot, format, size, DPI, caption and file; Browse and Export.
QGroupBox* ExportDialog::buildPlotBox() {
  auto* plotBox = new QGroupBox("Plot");
  auto* form = new QFormLayout(plotBox);
  m_target = new QComboBox;
  m_format = new QComboBox;
  m_format->addItem("PNG (raster)", int(ImageFormat::Png));
  m_format->addItem("PDF (vector)", int(ImageFormat::Pdf));
  if (svgAvailable())
    m_format->addItem("SVG (vector)", int(ImageFormat::Svg));
  else
    m_format->setToolTip("SVG needs Qt's SVG module, which this build was made without");
  m_dpi = new QSpinBox;
  m_dpi->setRange(36, 1200);
  m_dpi->setValue(192);
  m_dpi->setToolTip("PNG pixels = size x DPI / 96. PDF and SVG are vector: DPI does not change them.");
  m_caption = new QCheckBox("Stamp a caption: workload, parameters, launch, GPU, date");
  m_caption->setChecked(true);
  m_projected = new QCheckBox("As projected: the presentation style (large fonts, thick lines), as on the stage");
  m_projected->setToolTip("The plot drawn as presentation mode shows it, for slides; the window keeps its own style");
  auto* exportBtn = new QPushButton("Export plot");
  exportBtn->setDefault(true);
  form->addRow("Plot", m_target);
  form->addRow("Format", m_format);
  form->addRow("Size", sizeRow());
  form->addRow("DPI", m_dpi);
  form->addRow(m_caption);
  form->addRow(m_projected);
  form->addRow("File", pathRow());
  form->addRow(exportBtn);
  connect(exportBtn, &QPushButton::clicked, this, [this] { exportPlotNow(); });
  return plotBox;
}

QHBoxLayout* ExportDialog::sizeRow() {
  m_width = new QSpinBox;
  m_width->setRange(50, 20000);
  m_width->setValue(1200);
  m_height = new QSpinBox;
  m_height->setRange(50, 20000);
  m_height->setValue(700);
  auto* size = new QHBoxLayout;
  size->addWidget(m_width);
  size->addWidget(new QLabel("x"));
  size->addWidget(m_height);
  size->addWidget(new QLabel("(1/96 inch units)"));
  size->addStretch();
  return size;
}

QHBoxLayout* ExportDialog::pathRow() {
  m_path = new QLineEdit;
  auto* browseBtn = new QPushButton("Browse\xE2\x80\xA6");
  auto* row = new QHBoxLayout;
  row->addWidget(m_path, 1);
  row->addWidget(browseBtn);
  connect(browseBtn, &QPushButton::clicked, this, [this] {
    const auto fmt = ImageFormat(m_format->currentData().toInt());
    const QString p = browse("Export plot", m_path->text(), QString("*.%1").arg(formatSuffix(fmt)));
    if (p.isEmpty()) return;
    m_path->setText(p);
    m_pathChosen = true;
  });
  return row;
}

/// The run's data: results as CSV or JSON, arrays as .npy, the sweep as CSV.
QGroupBox* ExportDialog::buildDataBox() {
  auto* dataBox = new QGroupBox("Data of the last run");
  auto* dl = new QHBoxLayout(dataBox);
  const QStringList labels = {"Results as CSV\xE2\x80\xA6", "Results as JSON\xE2\x80\xA6", "Arrays as .npy\xE2\x80\xA6",
                              "Sweep as CSV\xE2\x80\xA6"};
  for (int i = 0; i < labels.size(); ++i) {
    auto* b = new QPushButton(labels[i]);
    connect(b, &QPushButton::clicked, this, [this, i] { exportData(i); });
    m_dataButtons << b;
    dl->addWidget(b);
  }
  m_dataButtons[2]->setToolTip("Inputs and every implementation's outputs, loadable with numpy.load()");
  return dataBox;
}

void ExportDialog::setTargets(const QList<Target>& targets, int current) {
  m_targets = targets;
  QSignalBlocker b(m_target);
  m_target->clear();
  for (const auto& t : targets) m_target->addItem(t.name);
  m_target->setCurrentIndex(std::clamp(current, 0, int(targets.size()) - 1));
  suggestPath();
}

void ExportDialog::setRun(std::shared_ptr<const RunOutcome> outcome, std::vector<SweepPoint> sweep) {
  m_outcome = std::move(outcome);
  m_sweep = std::move(sweep);
  for (int i = 0; i < 3; ++i) m_dataButtons[i]->setEnabled(m_outcome != nullptr);
  m_dataButtons[3]->setEnabled(!m_sweep.empty());
  suggestPath();
}

void ExportDialog::setFolder(const QString& folder) {
  m_folder = folder;
  suggestPath();
}

void ExportDialog::suggestPath() {
  if (m_pathChosen) return matchSuffixToFormat();
  const auto fmt = ImageFormat(m_format->currentData().toInt());
  const QString workload = m_outcome ? QString::fromStdString(m_outcome->result.workload) : QString("launchlab");
  const QString name = slug(workload) + "_" + slug(m_target->currentText()) + "." + formatSuffix(fmt);
  m_path->setText(QDir(m_folder).filePath(name));
}

/// The file typed so far, with the extension of the format chosen (the name and folder are kept).
void ExportDialog::matchSuffixToFormat() {
  const QString path = m_path->text().trimmed();
  if (path.isEmpty()) {
    m_pathChosen = false;
    return suggestPath();
  }
  const QFileInfo fi(path);
  const QString suffix = formatSuffix(ImageFormat(m_format->currentData().toInt()));
  const QString base = formatForPath(path) ? fi.completeBaseName() : fi.fileName();
  m_path->setText(path.left(path.size() - fi.fileName().size()) + base + "." + suffix);
}

QString ExportDialog::status() const { return m_status->text(); }

void ExportDialog::report(const ExportResult& r) {
  m_status->setText((r.ok ? "\xE2\x9C\x93 " : "\xE2\x9C\x97 ") + r.message);
  m_status->setStyleSheet(r.ok ? "color: #1b5e20;" : "color: #c62828;");
  m_status->setToolTip(r.message);
  emit exported(r.ok, r.message);
}

QString ExportDialog::browse(const QString& title, const QString& suggested, const QString& filter) {
  const QString p = QFileDialog::getSaveFileName(this, title, suggested, filter);
  if (!p.isEmpty()) m_folder = QFileInfo(p).absolutePath();
  return p;
}

ExportResult ExportDialog::exportPlotNow() {
  const int i = m_target->currentIndex();
  if (i < 0 || i >= m_targets.size() || !m_targets[i].plot) {
    ExportResult r{false, "nothing to export yet: run a workload first"};
    report(r);
    return r;
  }
  ExportOptions o;
  o.format = ImageFormat(m_format->currentData().toInt());
  o.width = m_width->value();
  o.height = m_height->value();
  o.dpi = m_dpi->value();
  o.asProjected = m_projected->isChecked();
  if (m_caption->isChecked() && m_outcome)
    o.caption = QString::fromStdString(captionText(m_outcome->result, m_targets[i].plot->exportTitle().toStdString()));
  QString path = m_path->text().trimmed();
  if (auto f = formatForPath(path); !f || *f != o.format) path += "." + formatSuffix(o.format);
  const ExportResult r = exportPlot(*m_targets[i].plot, path, o);
  if (r.ok) m_folder = QFileInfo(path).absolutePath();
  report(r);
  return r;
}

void ExportDialog::exportData(int kind) {
  if (!m_outcome && kind != 3) return;
  const QString base =
      QDir(m_folder).filePath(m_outcome ? slug(QString::fromStdString(m_outcome->result.workload)) : "sweep");
  QString p;
  switch (kind) {
    case 0:
      p = browse("Results as CSV", base + "_results.csv", "*.csv");
      if (!p.isEmpty()) report(exportRunCsv(m_outcome->result, p));
      break;
    case 1:
      p = browse("Results as JSON", base + "_results.json", "*.json");
      if (!p.isEmpty()) report(exportRunJson(m_outcome->result, p));
      break;
    case 2:
      p = QFileDialog::getExistingDirectory(this, "Folder for the .npy arrays", m_folder);
      if (!p.isEmpty())
        report(exportRunNpy(m_outcome->result,
                            QDir(p).filePath(slug(QString::fromStdString(m_outcome->result.workload)) + "_arrays"),
                            m_outcome->workload));
      break;
    case 3:
      p = browse("Sweep as CSV", base + "_sweep.csv", "*.csv");
      if (!p.isEmpty()) report(exportBytes(p, QByteArray::fromStdString(sweepCsv({"block"}, m_sweep))));
      break;
  }
}

}  // namespace launchlab::ui
