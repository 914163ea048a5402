// First call: go_fast's lesson (Numba compiles at the first call). Two bars in milliseconds on one linear axis: the
// first call (the NVRTC compile, then the load and the cold call) and the median later call, each labelled with its
// time, and the ratio under the title. Without a measured first call it says what is missing rather than drawing a
// CPU's first repetition (its thread team starting) as a compile.
#include "models/text.h"
#include "plots/lesson_data.h"
#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {

class FirstCallView final : public QcpViewBase {
 public:
  explicit FirstCallView(QWidget* parent) : QcpViewBase(parent) {
    m_plot->plotLayout()->insertRow(1);
    m_ratio = new QCPTextElement(m_plot, "", QFont());
    m_plot->plotLayout()->addElement(1, 0, m_ratio);
    m_compile = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_rest = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_later = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_rest->moveAbove(m_compile);
    m_compile->setName("NVRTC compile");
    m_rest->setName("load + first (cold) call");
    m_later->setName("a later call (median)");
    auto ticks = QSharedPointer<QCPAxisTickerText>::create();
    ticks->addTick(1, "first call");
    ticks->addTick(0, "later call\n(median)");
    m_plot->yAxis->setTicker(ticks);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->setInteractions({});
    restyle();
  }
  void setData(const ViewData& d) override {
    const FirstCallBars b = firstCallBars(d.outcome->result);
    ViewData timed = d;  // the title names the implementation timed, whichever one the Show list holds
    timed.source = b.implId;
    begin(timed);
    showAxes(b.missing.empty());  // no empty bars and ticks behind a sentence: nothing was measured
    if (!b.missing.empty()) return showMessage(wrapped(q(b.missing)));
    m_plot->xAxis->setLabel("milliseconds (one linear axis)");
    m_plot->yAxis->setLabel({});
    m_bars = b;
    const double rest = std::max(0.0, b.firstMs - b.compileMs);
    m_compile->setData({1.0}, {std::min(b.compileMs, b.firstMs)});
    m_rest->setData({1.0}, {b.compileMs > 0 ? rest : b.firstMs});
    m_later->setData({0.0}, {b.laterMs});
    m_compile->setVisible(b.compileMs > 0);
    showInLegend(m_compile, b.compileMs > 0);
    m_ratio->setText(QString("the first call takes %1 a later call: %2 against %3")
                         .arg(q(timesText(b.ratio)), q(msText(b.firstMs)), q(msText(b.laterMs))));
    addLabels();
    m_drawn = 2;
    m_summary = QString("first call %1 (compile %2), later call %3: %4")
                    .arg(q(msText(b.firstMs)), q(msText(b.compileMs)), q(msText(b.laterMs)), q(timesText(b.ratio)));
    resetZoom();
  }
  void resetZoom() override {
    // Room right of the longer bar for its label; the later call's is placed at its bar whatever its length.
    m_plot->xAxis->setRange(0, std::max(1e-6, std::max(m_bars.firstMs, m_bars.laterMs)) * 1.45);
    m_plot->yAxis->setRange(-0.6, 1.6);
    replotWhenVisible(*m_plot);
  }
  void setLogY(bool) override {}  // one linear axis: the contrast is the lesson

 private:
  void showAxes(bool on) {
    m_plot->xAxis->setVisible(on);
    m_plot->yAxis->setVisible(on);
    m_plot->xAxis->grid()->setVisible(on);
  }
  static QString wrapped(const QString& text) {
    // The message is one centred item: long sentences broken at about 70 characters.
    QStringList lines, words = text.split(' ');
    QString line;
    for (const QString& w : words) {
      if (!line.isEmpty() && line.size() + w.size() > 70) {
        lines << line;
        line.clear();
      }
      line += (line.isEmpty() ? "" : " ") + w;
    }
    if (!line.isEmpty()) lines << line;
    return lines.join('\n');
  }
  void addLabels() {
    for (auto* l : m_labels) m_plot->removeItem(l);
    m_labels.clear();
    const auto label = [&](double key, double x, const QString& text) {
      auto* t = new QCPItemText(m_plot);
      t->position->setAxes(m_plot->xAxis, m_plot->yAxis);
      t->position->setCoords(x, key);
      t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
      t->setPadding(QMargins(8, 0, 0, 0));
      t->setText(text);
      t->setFont(m_style.font(1.1, true));
      t->setColor(toQColor(m_style.palette->foreground));
      m_labels.push_back(t);
    };
    const QString compile =
        m_bars.compileMs > 0 ? QString("\n(compile %1)").arg(q(msText(m_bars.compileMs))) : QString();
    label(1, m_bars.firstMs, q(msText(m_bars.firstMs)) + compile);
    label(0, m_bars.laterMs, q(msText(m_bars.laterMs)));
  }
  QString readout(double, double y) const override {
    if (m_message->visible()) return {};
    return y > 0.5 ? "first call " + q(msText(m_bars.firstMs)) : "later call " + q(msText(m_bars.laterMs));
  }
  void clearData() override {
    for (auto* b : {m_compile, m_rest, m_later}) b->data()->clear();
    for (auto* l : m_labels) m_plot->removeItem(l);
    m_labels.clear();
    m_ratio->setText({});
    m_bars = {};
    m_drawn = 0;
  }
  void restyle() override {
    const QPen edge(toQColor(m_style.palette->background), m_style.presentation ? 1.5 : 0.8);
    for (auto* b : {m_compile, m_rest, m_later}) {
      b->setWidth(0.6);
      b->setPen(edge);
    }
    m_compile->setBrush(m_style.lessonColor());
    m_rest->setBrush(m_style.phaseColor(int(Phase::Kernel)).lighter(150));
    m_later->setBrush(m_style.phaseColor(int(Phase::Kernel)));
    m_ratio->setFont(m_style.font(1.25, true));
    m_ratio->setTextColor(toQColor(m_style.palette->foreground));
    m_plot->yAxis->setTickLabelFont(m_style.font(1.1));
    for (auto* l : m_labels) l->setFont(m_style.font(1.1, true));
  }
  QCPTextElement* m_ratio = nullptr;
  QCPBars *m_compile = nullptr, *m_rest = nullptr, *m_later = nullptr;
  std::vector<QCPItemText*> m_labels;
  FirstCallBars m_bars;
};

}  // namespace

std::unique_ptr<OutputView> makeFirstCallView(QWidget* parent) { return std::make_unique<FirstCallView>(parent); }

}  // namespace launchlab::ui
