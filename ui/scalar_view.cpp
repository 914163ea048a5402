// Scalar: one value per implementation, with the exact value and the error when known.
#include <algorithm>
#include <cmath>

#include "qcp_view_base.h"

namespace launchlab::ui {

namespace {

/// One value per implementation, as horizontal bars with the exact value as a line and the error as text.
class ScalarView final : public QcpViewBase {
 public:
  explicit ScalarView(QWidget* parent) : QcpViewBase(parent) {
    m_bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_badBars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_refLine = new QCPItemStraightLine(m_plot);
    m_plot->legend->setVisible(false);
    m_plot->setInteractions({});
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    m_title->setText(QString::fromStdString(d.spec.title.empty() ? d.spec.name : d.spec.title));
    removeLabels();
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    QVector<double> keys, vals, badKeys, badVals;
    double lo = 0, hi = 0;
    ScalarValue first;
    int k = 0;
    const auto& impls = d.outcome->result.impls;
    for (auto it = impls.rbegin(); it != impls.rend(); ++it) {  // first implementation on top
      const HostArray* a = nullptr;
      for (const auto& o : it->outputs)
        if (o.name() == d.spec.name) a = &o;
      if (!a) continue;
      const ScalarValue s = scalarValue(*a, d.spec);
      first = s;
      const bool bad = it->verification.outcome == Verification::Outcome::Fail ||
                       it->verification.outcome == Verification::Outcome::Demonstration;
      (bad ? badKeys : keys) << double(k);
      (bad ? badVals : vals) << s.value;
      ticker->addTick(k, QString::fromStdString(it->title.empty() ? it->implId : it->title));
      lo = std::min(lo, s.value);
      hi = std::max(hi, s.value);
      addValueLabel(k, s);
      ++k;
    }
    if (k == 0) return showMessage("no implementation produced " + QString::fromStdString(d.spec.name));
    m_plot->yAxis->setTicker(ticker);
    m_bars->setData(keys, vals);
    m_badBars->setData(badKeys, badVals);
    showExactValue(first, lo, hi);
    m_lo = lo;
    m_hi = hi;
    m_k = k;
    m_drawn = k;
    m_summary = QString("%1 implementations").arg(k);
    resetZoom();
  }
  void resetZoom() override {
    const double span = std::max(std::fabs(m_hi - m_lo), std::max(std::fabs(m_hi), std::fabs(m_lo)));
    // Bars over the left 55%: the labels stand on the right.
    m_plot->xAxis->setRange(std::min(0.0, m_lo - 0.05 * span), m_hi + 0.8 * (span > 0 ? span : 1));
    m_plot->yAxis->setRange(-0.6, m_k - 0.4);
    replotWhenVisible(*m_plot);
  }
  void setLogY(bool) override {}

 private:
  /// The value (and its error) at the right edge of the plot, level with bar k: never clipped, whatever the values.
  void addValueLabel(int k, const ScalarValue& s) {
    QString text = QString::number(s.value, 'g', 10);
    if (s.hasReference) text += QString("\nerror %1 (relative %2)").arg(s.absError, 0, 'g', 3).arg(s.relError, 0, 'g', 3);
    auto* label = new QCPItemText(m_plot);
    label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    label->position->setTypeY(QCPItemPosition::ptPlotCoords);
    label->position->setCoords(0.99, k);
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
    label->setTextAlignment(Qt::AlignRight);
    label->setPadding(QMargins(6, 2, 6, 2));
    label->setBrush(QBrush(QColor(255, 255, 255, 220)));
    label->setText(text);
    label->setFont(m_style.font(1.0, true));
    label->setColor(toQColor(m_style.palette->foreground));
    m_labels.push_back(label);
  }
  /// The exact value as a dashed line (widening [lo, hi] to hold it) and in the value axis' label.
  void showExactValue(const ScalarValue& s, double& lo, double& hi) {
    m_refLine->setVisible(s.hasReference);
    if (s.hasReference) {
      m_refLine->point1->setCoords(s.reference, 0);
      m_refLine->point2->setCoords(s.reference, 1);
      lo = std::min(lo, s.reference);
      hi = std::max(hi, s.reference);
    }
    m_plot->xAxis->setLabel(QString::fromStdString(m_data.spec.yLabel.empty() ? m_data.spec.name : m_data.spec.yLabel) +
                            (s.hasReference ? QString("   (line: exact value %1)").arg(s.reference, 0, 'g', 10) : QString()));
    m_plot->yAxis->setLabel({});
  }
  void removeLabels() {
    for (auto* t : m_labels) m_plot->removeItem(t);
    m_labels.clear();
  }
  void clearData() override {
    m_bars->data()->clear();
    m_badBars->data()->clear();
    removeLabels();
    m_drawn = 0;
  }
  static void styleBars(QCPBars* bars, QColor c) {
    c.setAlpha(170);
    bars->setBrush(c);
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.6);
  }
  void restyle() override {
    styleBars(m_bars, m_style.seriesColor(0));
    styleBars(m_badBars, m_style.mismatchColor());
    m_refLine->setPen(QPen(toQColor(m_style.palette->foreground), m_style.lineWidth, Qt::DashLine));
  }
  QCPBars *m_bars = nullptr, *m_badBars = nullptr;
  QCPItemStraightLine* m_refLine = nullptr;
  std::vector<QCPItemText*> m_labels;
  double m_lo = 0, m_hi = 1;
  int m_k = 0;
};

}  // namespace

std::unique_ptr<OutputView> makeScalarView(QWidget* parent) { return std::make_unique<ScalarView>(parent); }

}  // namespace launchlab::ui
