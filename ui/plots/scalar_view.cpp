// Scalar: one value per implementation, drawn as its difference from the exact value (or the reference's).
#include <algorithm>
#include <cmath>
#include <optional>

#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {

/// One value per implementation: 3.14166 and 3.14159 look the same as bars from 0, so each bar is the value's
/// difference from the exact value (or from the reference implementation's), and the label gives both.
class ScalarView final : public QcpViewBase {
 public:
  explicit ScalarView(QWidget* parent) : QcpViewBase(parent) {
    m_bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_badBars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_lessonBars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_refLine = new QCPItemStraightLine(m_plot);
    m_refLine->setVisible(false);  // its default points draw a diagonal until there is an exact value
    m_useLegend = false;
    m_plot->setInteractions({});
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    m_title->setText(QString::fromStdString(d.spec.title.empty() ? d.spec.name : d.spec.title));
    removeLabels();
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    QVector<double> keys, vals, badKeys, badVals, lessonKeys, lessonVals;
    double lo = 0, hi = 0;
    ScalarValue first;
    const std::optional<double> refValue = referenceValue(d);
    int k = 0;
    const auto& impls = d.outcome->result.impls;
    for (auto it = impls.rbegin(); it != impls.rend(); ++it) {  // first implementation on top
      const HostArray* a = output(*it, d.spec.name);
      if (!a) continue;
      const ScalarValue s = scalarValue(*a, d.spec);
      const std::optional<double> ref = it->implId == kCpuSerial ? std::nullopt : refValue;
      const double diff = scalarDifference(s, ref);
      first = s;
      // Red for a failure, amber for an expected outcome (the race's lost increments are the lesson).
      const bool bad = it->verification.outcome == Verification::Outcome::Fail;
      const bool lesson = !bad && it->showsLesson();
      (bad ? badKeys : lesson ? lessonKeys : keys) << double(k);
      (bad ? badVals : lesson ? lessonVals : vals) << diff;
      ticker->addTick(k, QString::fromStdString(it->title.empty() ? it->implId : it->title));
      lo = std::min(lo, diff);
      hi = std::max(hi, diff);
      addValueLabel(k, QString::fromStdString(scalarLabel(s, ref)));
      ++k;
    }
    if (k == 0) return showMessage("no implementation produced " + QString::fromStdString(d.spec.name));
    m_plot->yAxis->setTicker(ticker);
    m_bars->setData(keys, vals);
    m_badBars->setData(badKeys, badVals);
    m_lessonBars->setData(lessonKeys, lessonVals);
    showZeroLine(first, refValue);
    m_lo = lo;
    m_hi = hi;
    m_k = k;
    // Each row's label is two lines (the value, its difference): rows get their room, the plot asks for it, so
    // five implementations at 720p never overprint each other.
    const int line = QFontMetrics(m_style.font(1.0, true)).lineSpacing();
    m_plot->setMinimumHeight(std::clamp(k * (2 * line + 8) + 3 * line, 160, 420));
    m_drawn = k;
    m_summary = QString("%1 implementations, drawn as their difference from the %2")
                    .arg(k)
                    .arg(first.hasReference ? "exact value" : "reference");
    resetZoom();
  }
  void resetZoom() override {
    // Differences are tiny next to the values: the axis spans them alone, zero in view, labels on the right.
    double span = std::max(std::fabs(m_hi), std::fabs(m_lo));
    if (!(span > 0)) span = 1e-12;
    m_plot->xAxis->setRange(-1.15 * span, span * 2.6);
    m_plot->yAxis->setRange(-0.6, m_k - 0.4);
    replotWhenVisible(*m_plot);
  }
  void setLogY(bool) override {}

 private:
  static const HostArray* output(const ImplResult& i, const std::string& name) {
    for (const auto& o : i.outputs)
      if (o.name() == name) return &o;
    return nullptr;
  }
  /// The reference implementation's value, when it produced one.
  static std::optional<double> referenceValue(const ViewData& d) {
    for (const auto& i : d.outcome->result.impls)
      if (i.implId == kCpuSerial)
        if (const HostArray* a = output(i, d.spec.name); a && a->size()) return a->at(0);
    return std::nullopt;
  }
  /// The value and its difference at the right edge of the plot, level with bar k: never clipped.
  void addValueLabel(int k, const QString& text) {
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
  /// Zero difference as a dashed line, and what the differences are from in the value axis' label.
  void showZeroLine(const ScalarValue& s, std::optional<double> refValue) {
    m_refLine->setVisible(true);
    m_refLine->point1->setCoords(0, 0);
    m_refLine->point2->setCoords(0, 1);
    const QString name = QString::fromStdString(m_data.spec.yLabel.empty() ? m_data.spec.name : m_data.spec.yLabel);
    m_plot->xAxis->setLabel(
        s.hasReference ? QString("%1 \u2212 exact (%2); dashed: no error").arg(name).arg(s.reference, 0, 'g', 10)
        : refValue     ? QString("%1 \u2212 reference (%2); dashed: equal").arg(name).arg(*refValue, 0, 'g', 10)
                       : name);
    m_plot->yAxis->setLabel({});
  }
  void removeLabels() {
    for (auto* t : m_labels) m_plot->removeItem(t);
    m_labels.clear();
  }
  void clearData() override {
    m_bars->data()->clear();
    m_badBars->data()->clear();
    m_lessonBars->data()->clear();
    m_refLine->setVisible(false);
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
    styleBars(m_lessonBars, m_style.lessonColor());
    m_refLine->setPen(QPen(toQColor(m_style.palette->foreground), m_style.lineWidth, Qt::DashLine));
  }
  QCPBars *m_bars = nullptr, *m_badBars = nullptr, *m_lessonBars = nullptr;
  QCPItemStraightLine* m_refLine = nullptr;
  std::vector<QCPItemText*> m_labels;
  double m_lo = 0, m_hi = 1;
  int m_k = 0;
};

}  // namespace

std::unique_ptr<OutputView> makeScalarView(QWidget* parent) { return std::make_unique<ScalarView>(parent); }

}  // namespace launchlab::ui
