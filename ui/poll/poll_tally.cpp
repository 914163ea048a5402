#include "poll/poll_tally.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <algorithm>
#include <cmath>

namespace launchlab::ui::poll {
namespace {

bool isToken(const QByteArray& t) {
  if (t.size() != 32) return false;
  return std::all_of(t.begin(), t.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

QString csvField(QString s) {
  s.replace('"', "\"\"");
  return '"' + s + '"';
}

}  // namespace

ParsedAnswer parseAnswer(const Question& q, const QByteArray& body) {
  ParsedAnswer out;
  QJsonParseError err{};
  const QJsonDocument doc = QJsonDocument::fromJson(body, &err);
  if (err.error != QJsonParseError::NoError || !doc.isObject()) {
    out.error = "not an answer (a JSON object is expected)";
    return out;
  }
  const QJsonObject o = doc.object();
  out.token = o.value("t").toString().toLatin1();
  if (!isToken(out.token)) {
    out.error = "no device token";
    return out;
  }
  const QJsonValue a = o.value("a");
  if (!a.isDouble() || !std::isfinite(a.toDouble())) {
    out.error = "the answer is not a number";
    return out;
  }
  out.value = a.toDouble();
  if (q.kind == Question::Kind::Choice) {
    const double i = out.value;
    if (i != std::floor(i) || i < 0 || i >= q.choices.size()) out.error = "no such choice";
  } else if (out.value < q.min || out.value > q.max) {
    out.error = QString("the answer must be between %1 and %2").arg(q.min).arg(q.max);
  } else if (q.logScale && out.value <= 0) {
    out.error = "the answer must be above 0";
  }
  return out;
}

Tally::Outcome Tally::submit(const QByteArray& token, double value, qint64 nowMs) {
  if (closed_) return Outcome::Closed;
  const auto it = answers_.find(token);
  if (it == answers_.end()) {
    if (count() >= kMaxDevices) return Outcome::Full;
    answers_.emplace(token, Entry{value, nowMs});
    return Outcome::Accepted;
  }
  if (nowMs - it->second.atMs < kMinSubmitGapMs) return Outcome::TooSoon;
  it->second = Entry{value, nowMs};
  return Outcome::Replaced;
}

std::vector<double> Tally::values() const {
  std::vector<double> v;
  v.reserve(answers_.size());
  for (const auto& [token, e] : answers_) v.push_back(e.value);
  return v;
}

QString Tally::csv(const Question& q, std::optional<double> measured) const {
  QString out = "question,token,answer,measured,time_ms\n";
  const bool choice = q.kind == Question::Kind::Choice;
  const QString m = !measured ? QString()
                    : choice  ? csvField(q.choices.value(static_cast<int>(*measured)))
                              : QString::number(*measured, 'g', 10);
  for (const auto& [token, e] : answers_) {
    const QString answer = choice ? q.choices.value(static_cast<int>(e.value)) : QString::number(e.value, 'g', 10);
    out += csvField(q.text) + ',' + QString::fromLatin1(token) + ',' + csvField(answer) + ',' + m + ',' +
           QString::number(e.atMs) + '\n';
  }
  return out;
}

namespace {

// Number answers: 10 bins over the answers' own span (log-spaced for log-scale questions), so a class that agrees
// within a factor of 2 still shows its spread.
std::vector<Summary::Bin> numberBins(const Question& q, const std::vector<double>& v) {
  constexpr int kBins = 10;
  const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
  const bool lg = q.logScale && *mn > 0;
  double lo = lg ? std::log10(*mn) : *mn;
  double hi = lg ? std::log10(*mx) : *mx;
  if (hi - lo < 1e-12) {
    lo -= lg ? 0.1 : std::max(std::abs(lo) * 0.05, 0.5);
    hi += lg ? 0.1 : std::max(std::abs(hi) * 0.05, 0.5);
  }
  std::vector<Summary::Bin> bins(kBins);
  const double w = (hi - lo) / kBins;
  for (int i = 0; i < kBins; ++i) {
    const double a = lo + i * w, b = lo + (i + 1) * w;
    bins[static_cast<std::size_t>(i)] = {lg ? std::pow(10.0, a) : a, lg ? std::pow(10.0, b) : b, 0};
  }
  for (double x : v) {
    const double t = lg ? std::log10(x) : x;
    const int i = std::clamp(static_cast<int>((t - lo) / w), 0, kBins - 1);
    ++bins[static_cast<std::size_t>(i)].count;
  }
  return bins;
}

}  // namespace

Summary summarize(const Question& q, const std::vector<double>& values, const std::function<bool(double)>& close) {
  Summary s;
  s.answers = static_cast<int>(values.size());
  if (values.empty()) return s;
  if (q.kind == Question::Kind::Choice) {
    for (int i = 0; i < q.choices.size(); ++i) s.bins.push_back({double(i), double(i), 0});
    for (double x : values) ++s.bins[static_cast<std::size_t>(x)].count;
    const auto most = std::max_element(s.bins.begin(), s.bins.end(),
                                       [](const Summary::Bin& a, const Summary::Bin& b) { return a.count < b.count; });
    s.median = most->lo;
  } else {
    s.bins = numberBins(q, values);
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    s.median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  }
  if (close) {
    const auto k = std::count_if(values.begin(), values.end(), close);
    s.shareClose = double(k) / double(values.size());
  }
  return s;
}

}  // namespace launchlab::ui::poll
