#pragma once
/// Ask the class (presentation mode, A): the current question served to the room's phones and laptops by the poll
/// room's PollHost, its QR code with the exact address, and the live count ("23 answers", never the distribution
/// before the reveal); after the run, the class's histogram with the measured value drawn on it, the median and the
/// share within 2× (core's scoreGuess(...).close, the rule a student's own prediction is scored by). Built only
/// where the poll room is (LAUNCHLAB_HAVE_POLL).
#include <QHostAddress>
#include <QWidget>
#include <optional>

#include "launchlab/course/prediction.h"
#include "poll/poll_server.h"

class QLabel;

namespace launchlab::ui {

/// The poll's question for a course prediction: a number (unit, scale, range) or a choice.
poll::Question pollQuestion(const Prediction& p);
/// Whether one poll answer (a number, or a choice's index) is close to the measured value, as scoreGuess says.
bool pollAnswerClose(const Prediction& p, const MeasureValue& measured, double answer);

class PollHistogram;

class StagePoll : public QWidget {
  Q_OBJECT
 public:
  explicit StagePoll(QWidget* parent = nullptr);
  ~StagePoll() override;
  /// Starts the poll for `p` on `address` (any free port); the URL, or nullopt with `error` set.
  std::optional<QString> start(const Prediction& p, const QHostAddress& address, QString* error);
  /// Stops the server and hides the poll.
  void stop();
  bool running() const { return m_host.running(); }
  QString url() const { return m_host.url(); }
  int count() const { return m_host.count(); }
  /// After the run: the class's answers against the measured value. The poll closes (a student's page says so; the
  /// server runs on until stop(), so the answers can still be exported).
  void reveal(const MeasureValue& measured);
  bool revealed() const { return m_revealed; }
  /// The class's answers as CSV (question, anonymous token, answer, measured value, time).
  QString csv() const;
  /// The stage's sizes for a window `height` px tall: the count as large as the headline, the QR code a side of
  /// about half the height (whole pixels per module), the histogram a fifth of it where the plot can spare that.
  void setStageHeight(int height);
  /// The QR code and the address while the question waits; from R on, the plot needs their room (the count stays,
  /// and a late answer still counts until the reveal).
  void setAddressShown(bool on);
  int qrSide() const;

 signals:
  void countChanged(int count);

 public:
  QLabel* countLabel() const { return m_count; }
  QLabel* urlLabel() const { return m_url; }
  QLabel* summaryLabel() const { return m_summary; }
  PollHistogram* histogram() const { return m_histogram; }

 private:
  poll::PollHost m_host;
  Prediction m_prediction;
  std::optional<double> m_measured;
  bool m_revealed = false;
  QLabel* m_qr = nullptr;
  QLabel* m_url = nullptr;
  QLabel* m_count = nullptr;
  QLabel* m_summary = nullptr;
  PollHistogram* m_histogram = nullptr;
  int m_height = 720;
  void showQr();
  QString summaryText(const poll::Summary& s, const poll::Question& question) const;
};

/// The class's answers as bars (one per bin or choice), the measured value as a line (or its choice's bar outlined).
class PollHistogram : public QWidget {
  Q_OBJECT
 public:
  explicit PollHistogram(QWidget* parent = nullptr);
  void setSummary(const poll::Summary& s, const poll::Question& q, std::optional<double> measured);
  const poll::Summary& summary() const { return m_summary; }
  /// The measured value's x in the widget (nullopt when there is none).
  std::optional<double> measuredX() const;
  /// At least `least` px tall, `preferred` when the stage can spare it.
  void setHeights(int least, int preferred);
  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  poll::Summary m_summary;
  poll::Question m_question;
  std::optional<double> m_measured;
  int m_preferredHeight = 144;
};

}  // namespace launchlab::ui
