#pragma once
// The class poll's question and answers, without a network: what kind of answer a question takes, how a submitted
// body becomes an answer (or a reason it is refused), one answer per device token (a re-submit replaces it, at most
// one every kMinSubmitGapMs), and the summary the stage reveals (histogram, median, share within 2x or right).
// QtCore only, so the rules are tested without a socket or a window.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace launchlab::ui::poll {

struct Question {
  QString text;
  enum class Kind { Number, Choice } kind = Kind::Number;
  QString unit;             // "×", "ms", "" …
  bool logScale = false;    // ratios: log bins, and "within 2×" means a factor
  double min = 0, max = 1;  // a number answer outside [min, max] is refused
  QStringList choices;      // Kind::Choice: the answer is an index into this
};

/// An answer, or why a body is not one. A number for Number questions, the choice's index for Choice ones.
struct ParsedAnswer {
  QByteArray token;
  double value = 0;
  QString error;  // empty when the answer is valid
};

/// The body a poll page posts: {"t": "<32 hex digits>", "a": <number>}. Anything else, a value out of the question's
/// range, a choice index that does not exist or a token of another shape is refused with a reason.
ParsedAnswer parseAnswer(const Question& q, const QByteArray& body);

inline constexpr qint64 kMinSubmitGapMs = 500;  // one device may change its answer twice a second at most
inline constexpr int kMaxDevices = 2000;        // more devices than any room holds: memory stays bounded

class Tally {
 public:
  enum class Outcome { Accepted, Replaced, TooSoon, Full, Closed };
  Outcome submit(const QByteArray& token, double value, qint64 nowMs);
  int count() const { return static_cast<int>(answers_.size()); }
  std::vector<double> values() const;
  /// After the reveal the answers are final: every submit is refused as Closed.
  void close() { closed_ = true; }
  bool closed() const { return closed_; }
  /// One row per answer: question, anonymous token, answer, measured value (a choice question: the choice's name),
  /// time (ms since the poll began).
  QString csv(const Question& q, std::optional<double> measured) const;

 private:
  struct Entry {
    double value;
    qint64 atMs;
  };
  std::map<QByteArray, Entry> answers_;
  bool closed_ = false;
};

/// What the stage reveals after the run: the class's answers binned (log bins for log-scale numbers, one bin per
/// choice), the median (or the most chosen), and the share of answers `close` calls close to the measured value
/// (the course's own scoring rule: within 2x, or right; the poll does not define it).
struct Summary {
  struct Bin {
    double lo = 0, hi = 0;  // Choice: lo == hi == the index
    int count = 0;
  };
  std::vector<Bin> bins;
  int answers = 0;
  std::optional<double> median;
  std::optional<double> shareClose;  // 0..1; empty without answers or without `close`
};
Summary summarize(const Question& q, const std::vector<double>& values, const std::function<bool(double)>& close = {});

}  // namespace launchlab::ui::poll
