#include "window/stage_poll.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "models/text.h"

namespace launchlab::ui {

namespace {

/// The measured value as a poll answer: the number, or the measured choice's index.
std::optional<double> measuredAnswer(const Prediction& p, const MeasureValue& v) {
  if (!v.ok()) return std::nullopt;
  if (!p.answer.isChoice()) return v.number;
  const auto it = std::find(p.answer.choices.begin(), p.answer.choices.end(), v.choice);
  if (it == p.answer.choices.end()) return std::nullopt;
  return double(it - p.answer.choices.begin());
}

/// A class's number as the stage prints it: three significant digits (a median of 8.48528 reads 8.49), in `unit`.
QString roundNumber(double v, const std::string& unit) {
  // Whole numbers stay whole ("2048 of 4096" measured is 2048 on the class's histogram too, not 2050).
  if (v == 0 || !std::isfinite(v) || v == std::floor(v)) return q(formatMeasure(v, unit));
  const double scale = std::pow(10.0, 2 - std::floor(std::log10(std::abs(v))));
  return q(formatMeasure(std::round(v * scale) / scale, unit));
}

void setPixelSize(QLabel* l, int px, bool bold) {
  QFont f = l->font();
  f.setPixelSize(px);
  f.setBold(bold);
  l->setFont(f);
}

QString answersText(int n) { return QString("%1 answer%2").arg(n).arg(n == 1 ? "" : "s"); }
}  // namespace

poll::Question pollQuestion(const Prediction& p) {
  poll::Question out;
  out.text = q(p.question);
  out.unit = q(p.answer.unit);
  if (p.answer.isChoice()) {
    out.kind = poll::Question::Kind::Choice;
    for (const auto& c : p.answer.choices) out.choices << q(c);
  } else {
    out.logScale = p.answer.logScale;
    out.min = p.answer.min;
    out.max = p.answer.max;
  }
  return out;
}

bool pollAnswerClose(const Prediction& p, const MeasureValue& measured, double answer) {
  Guess g;
  if (p.answer.isChoice()) {
    const auto i = std::size_t(answer);
    if (answer < 0 || i >= p.answer.choices.size()) return false;
    g.choice = p.answer.choices[i];
  } else {
    g.number = answer;
  }
  return scoreGuess(p, measured, g).close;
}

StagePoll::StagePoll(QWidget* parent) : QWidget(parent) {
  setObjectName("stagePoll");
  auto* lay = new QHBoxLayout(this);
  lay->setContentsMargins(6, 2, 6, 2);
  lay->setSpacing(24);
  m_qr = new QLabel;
  m_qr->setObjectName("pollQr");
  auto* text = new QVBoxLayout;
  // Every label is plain text: a question's or a choice's words are shown as written, never read as markup.
  m_url = new QLabel;
  m_url->setObjectName("pollUrl");
  m_url->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_count = new QLabel;
  m_count->setObjectName("pollCount");
  m_summary = new QLabel;
  m_summary->setObjectName("pollSummary");
  for (QLabel* l : {m_url, m_count, m_summary}) l->setTextFormat(Qt::PlainText);
  m_histogram = new PollHistogram;
  text->addStretch(1);
  text->addWidget(m_count);
  text->addWidget(m_url);
  text->addWidget(m_summary);
  text->addStretch(1);
  lay->addWidget(m_qr);
  lay->addLayout(text, 1);
  lay->addWidget(m_histogram, 2);
  connect(&m_host, &poll::PollHost::countChanged, this, [this](int n) {
    if (!m_revealed) m_count->setText(answersText(n));
    emit countChanged(n);
  });
  setVisible(false);
}

StagePoll::~StagePoll() { m_host.stop(); }

std::optional<QString> StagePoll::start(const Prediction& p, const QHostAddress& address, QString* error) {
  m_prediction = p;
  m_measured.reset();
  m_revealed = false;
  auto url = m_host.start(pollQuestion(p), address, 0, error);
  if (!url) return stop(), std::nullopt;
  showQr();
  m_qr->setVisible(true);
  m_url->setText("Answer at " + *url);
  m_url->setVisible(true);
  m_count->setText(answersText(0));
  m_summary->clear();
  m_summary->setVisible(false);
  m_histogram->setVisible(false);
  setVisible(true);
  return url;
}

void StagePoll::stop() {
  m_host.stop();
  setVisible(false);
}

void StagePoll::reveal(const MeasureValue& measured) {
  if (!m_host.running() || m_revealed) return;
  m_host.close();  // the answers are final: what is revealed is what the class said before the run
  m_revealed = true;
  m_measured = measuredAnswer(m_prediction, measured);
  const poll::Question question = pollQuestion(m_prediction);
  const poll::Summary s = summarize(
      question, m_host.values(), [&](double a) { return measured.ok() && pollAnswerClose(m_prediction, measured, a); });
  m_count->setText("The class: " + answersText(s.answers));
  setStageHeight(m_height);
  m_summary->setText(summaryText(s, question));
  m_summary->setVisible(!m_summary->text().isEmpty());
  m_url->setVisible(false);
  m_qr->setVisible(false);  // the answers, not the address, now
  m_histogram->setSummary(s, question, m_measured);
  m_histogram->setVisible(s.answers > 0);
}

QString StagePoll::summaryText(const poll::Summary& s, const poll::Question& question) const {
  QStringList parts;
  const bool choice = question.kind == poll::Question::Kind::Choice;
  if (s.median && choice) {
    // The most chosen; a tie names every choice in it.
    const int most = s.bins[std::size_t(*s.median)].count;
    QStringList top;
    for (const auto& b : s.bins)
      if (b.count == most) top << question.choices.value(int(b.lo));
    parts << (top.size() == 1 ? "most chose " + top.front() : "a tie: " + top.join(", "));
  } else if (s.median) {
    parts << "median " + roundNumber(*s.median, m_prediction.answer.unit);
  }
  if (s.shareClose && m_measured)
    parts << QString("%1 % %2").arg(std::lround(*s.shareClose * 100)).arg(choice ? "right" : "within 2\u00D7");
  return parts.join("  \u00B7  ");
}

QString StagePoll::csv() const { return m_host.csv(m_measured); }

void StagePoll::setAddressShown(bool on) {
  if (m_revealed) return;
  m_qr->setVisible(on);
  m_url->setVisible(on);
}

int StagePoll::qrSide() const { return m_height / 2; }

void StagePoll::showQr() {
  // Whole pixels per module: a scaled QR code with blurred or uneven modules reads badly from a phone.
  const QString url = m_host.url();
  const int modules = poll::qrImage(url, 1).width();
  if (modules <= 0) return m_qr->clear();
  m_qr->setPixmap(QPixmap::fromImage(poll::qrImage(url, std::max(2, qrSide() / modules))));
}

void StagePoll::setStageHeight(int height) {
  m_height = height;
  // The address is typed by whoever cannot scan: as large as the question. The count is the headline's size while
  // the class answers; at the reveal it gives its room to the histogram and the plot.
  setPixelSize(m_url, std::max(24, height / 24), false);
  setPixelSize(m_summary, std::max(20, height * 24 / 720), false);
  setPixelSize(m_count, m_revealed ? std::max(24, height / 24) : std::max(32, height / 18), true);
  QFont h = m_histogram->font();
  h.setPixelSize(std::max(20, height / 36));
  m_histogram->setFont(h);
  // A fifth of the height when the plot can spare it; the plot's own room comes first, down to a tenth.
  m_histogram->setHeights(std::max(60, height / 10), height / 5);
  if (m_host.running()) showQr();
}

PollHistogram::PollHistogram(QWidget* parent) : QWidget(parent) {
  setObjectName("pollHistogram");
  setMinimumWidth(240);
  setVisible(false);
}

void PollHistogram::setHeights(int least, int preferred) {
  m_preferredHeight = preferred;
  setMinimumHeight(least);
  updateGeometry();
}

QSize PollHistogram::sizeHint() const { return {400, m_preferredHeight}; }

void PollHistogram::setSummary(const poll::Summary& s, const poll::Question& q, std::optional<double> measured) {
  m_summary = s;
  m_question = q;
  m_measured = measured;
  update();
}

std::optional<double> PollHistogram::measuredX() const {
  const auto& bins = m_summary.bins;
  if (!m_measured || bins.empty()) return std::nullopt;
  const double w = double(width()) / double(bins.size());
  if (m_question.kind == poll::Question::Kind::Choice) return (*m_measured + 0.5) * w;
  const bool lg = m_question.logScale && bins.front().lo > 0 && *m_measured > 0;
  auto t = [&](double x) { return lg ? std::log10(x) : x; };
  const double lo = t(bins.front().lo), hi = t(bins.back().hi);
  const double f = hi > lo ? (t(*m_measured) - lo) / (hi - lo) : 0.5;
  return std::clamp(f, 0.0, 1.0) * width();
}

void PollHistogram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const auto& bins = m_summary.bins;
  if (bins.empty()) return;
  const QColor ink = palette().color(QPalette::WindowText);
  p.setPen(ink);
  const QFontMetrics fm = fontMetrics();
  const int label = fm.height() + 4, top = label;
  const int most = std::max(1, std::max_element(bins.begin(), bins.end(), [](const auto& a, const auto& b) {
                                 return a.count < b.count;
                               })->count);
  const double w = double(width()) / double(bins.size());
  const int base = height() - label;
  const bool choice = m_question.kind == poll::Question::Kind::Choice;
  auto tick = [&](std::size_t i) {
    return choice ? m_question.choices.value(int(i)) : roundNumber(bins[i].lo, "");  // the unit: in the summary
  };
  // Number bins are labelled at their left edge, every k-th one, so that no two labels overlap (the first, flush
  // with the axis' start, reaches half a label further than the others).
  int widest = 0;
  for (std::size_t i = 0; i < bins.size(); ++i) widest = std::max(widest, fm.horizontalAdvance(tick(i)));
  const std::size_t every = choice ? 1 : std::size_t(std::max(1.0, std::ceil((widest * 3 / 2 + 12) / w)));
  for (std::size_t i = 0; i < bins.size(); ++i) {
    const int h = int((base - top) * double(bins[i].count) / most);
    p.fillRect(QRectF(i * w + 2, base - h, w - 4, h), QColor(0xc1, 0x69, 0xc1));
    // The count inside its bar (the line above the bars is the measured value's): above it when the bar is short.
    if (bins[i].count) {
      const bool inside = h >= label;
      p.setPen(inside ? QColor(Qt::white) : ink);
      p.drawText(QRectF(i * w, inside ? base - h : base - h - label, w, label), Qt::AlignCenter,
                 QString::number(bins[i].count));
      p.setPen(ink);
    }
    if (i % every) continue;
    // A number bin is labelled at its left edge (the first flush with the axis' start).
    const double span = w * double(every);
    const QRectF at = choice ? QRectF(i * w, base, w, label) : QRectF(i ? i * w - span / 2 : 0, base, span, label);
    const int align = choice || i ? Qt::AlignCenter : int(Qt::AlignLeft | Qt::AlignVCenter);
    p.drawText(at, align, fm.elidedText(tick(i), Qt::ElideRight, int(at.width())));
  }
  p.drawLine(QPointF(0, base), QPointF(width(), base));
  if (const auto x = measuredX()) {
    const QColor measured(0x10, 0x70, 0x40);
    p.setPen(QPen(measured, 4));
    p.drawLine(QPointF(*x, top), QPointF(*x, base));
    const QString text =
        choice ? QString("measured") : "measured " + roundNumber(*m_measured, m_question.unit.toStdString());
    const double tw = fm.horizontalAdvance(text) + 8;
    const double left = std::clamp(*x - tw / 2, 0.0, std::max(0.0, width() - tw));
    p.drawText(QRectF(left, 0, tw, label), Qt::AlignCenter, text);
  }
}

}  // namespace launchlab::ui
