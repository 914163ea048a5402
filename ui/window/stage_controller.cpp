#include "window/stage_controller.h"

#include <QAction>
#include <QDateTime>
#include <QFileDialog>
#include <QFontInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <algorithm>
#include <cstdio>
#include <span>

#include "launchlab/course/course.h"
#include "launchlab/course/course_headline.h"
#include "models/text.h"
#include "plots/export.h"
#include "window/prediction_store.h"
#include "window/stage.h"
#include "window/stage_prompt.h"
#if LAUNCHLAB_HAVE_POLL
#include "window/stage_poll.h"
#endif

namespace launchlab::ui {

namespace {
QString esc(const std::string& s) { return q(s).toHtmlEscaped(); }

/// The prediction and how far off, one line: "You predicted 4× — 3.1× too low"; "" without a prediction.
QString predictedLine(const Prediction& p, const MeasureValue& measured, const std::optional<Guess>& guess) {
  if (!guess) return {};
  const GuessScore s = scoreGuess(p, measured, *guess);
  QString line = "You predicted <b>" + guessText(p, *guess).toHtmlEscaped() + "</b>";
  if (s.comparable) line += " \u2014 " + esc(s.text);
  return line;
}
}  // namespace

QString guessText(const Prediction& p, const Guess& g) {
  return p.answer.isChoice() ? q(g.choice) : q(formatMeasure(g.number, p.answer.unit));
}

QString revealHtml(const Prediction& p, const MeasureValue& measured, const std::optional<Guess>& guess) {
  const QString predicted = predictedLine(p, measured, guess);
  return "Measured: <b>" + esc(headlineOf(p, measured)) + "</b> \u00B7 " +
         (predicted.isEmpty() ? QString("no prediction") : predicted) + "<br>" + esc(p.explain);
}

StageController::StageController(StageHeader* header, StagePrompt* prompt, QLabel* keyHints, PredictionStore* store,
                                 QObject* parent)
    : QObject(parent), m_header(header), m_prompt(prompt), m_keyHints(keyHints), m_store(store) {
  connect(m_prompt, &StagePrompt::submitted, this, &StageController::submit);
  connect(m_prompt, &StagePrompt::skipped, this, &StageController::skip);
  m_askAct = new QAction("Ask the class", this);
  m_askAct->setShortcut(QKeySequence(Qt::Key_A));
  m_askAct->setToolTip(
      "Presentation: serve the question to the room's phones and laptops (a QR code, its address) (A)");
  connect(m_askAct, &QAction::triggered, this, &StageController::askTheClass);
  m_exportAnswersAct = new QAction("Export the class's answers\u2026", this);
  m_exportAnswersAct->setShortcut(QKeySequence("Ctrl+Shift+A"));
  m_exportAnswersAct->setToolTip("The class poll's answers as CSV: question, anonymous token, answer, measured, time");
  connect(m_exportAnswersAct, &QAction::triggered, this, &StageController::exportClassAnswers);
  for (QAction* a : {m_askAct, m_exportAnswersAct}) {
    a->setShortcutContext(Qt::WindowShortcut);
    a->setEnabled(false);
  }
}

const Prediction* StageController::prediction() const {
  return m_experiment && !m_experiment->predictions.empty() ? &m_experiment->predictions.front() : nullptr;
}

bool StageController::holdsRun() const { return prediction() && !m_answered && !m_revealed; }

void StageController::setExperiment(const CourseExperiment* e, const QString& position, const QString& title,
                                    const RunResult* shownRun) {
  const QString id = e ? q(e->id) : QString();
  m_position = position;
  m_title = title;
  if (id != m_id || e != m_experiment) {
    m_id = id;
    m_experiment = e;
    m_openedWith = shownRun;
    m_revealedRun = nullptr;
    m_guess.reset();
    m_answered = m_revealed = m_lookFor = m_hasRun = false;
    m_headline.clear();
    m_launch.clear();
    m_note.clear();
    m_prompt->ask(prediction());
    stopPoll();  // Page Down closes the poll: its question has left the stage
  }
  refresh();
}

void StageController::showRun(const RunResult* r, const QString& launch, const QString& note) {
  if (r && r == m_openedWith) r = nullptr;  // the last experiment's run, still on screen
  m_hasRun = r != nullptr;
  m_launch = r ? launch : QString();
  m_note = r ? note : QString();
  if (!r) {
    m_headline.clear();
  } else if (m_experiment) {
    if (r != m_revealedRun) reveal(*r);
  } else {
    m_headline = stageHeadline(nullptr, *r);  // a workload outside the course asks nothing: its speed is the headline
  }
  refresh();
}

void StageController::reveal(const RunResult& r) {
  m_revealedRun = &r;
  m_headline = stageHeadline(m_experiment, r);
  m_revealed = m_answered = true;
  const Prediction* p = prediction();
  if (!p) return;
  const RunPoint one{{}, &r};
  const MeasureValue v = measure(p->measure, std::span<const RunPoint>(&one, 1));
  m_prompt->setAnswered(true);
  m_prompt->setReveal(m_presentation ? predictedLine(*p, v, m_guess) : revealHtml(*p, v, m_guess));
#if LAUNCHLAB_HAVE_POLL
  if (m_poll) m_poll->reveal(v);
#endif
  if (!m_guess || !m_store) return;
  const GuessScore s = scoreGuess(*p, v, *m_guess);
  PredictionRecord rec{m_id,
                       q(m_experiment->chapter),
                       q(p->question),
                       guessText(*p, *m_guess),
                       v.ok() ? q(v.choice.empty() ? formatMeasure(v.number, v.unit) : v.choice) : QString(),
                       q(s.text),
                       s.comparable,
                       s.close,
                       QDateTime::currentDateTimeUtc().toString(Qt::ISODate)};
  if (const QString why = m_store->record(rec); !why.isEmpty()) m_prompt->setError("not kept: " + why);
}

void StageController::refresh() {
  m_header->setTitle(stageTitleLine(m_position, m_title));
  m_header->setRun(m_launch);
  m_header->setHeadline(m_headline);
  const Prediction* p = prediction();
  // The caption: what to look for (L), and after the reveal on the stage the why in its place, so that the plot
  // keeps its room; the prompt keeps one line.
  const bool why = m_presentation && m_revealed && !m_lookFor && p && !p->explain.empty();
  const QString lookFor = m_experiment && !why ? q(m_experiment->lookFor) : QString();
  // On the stage the caption keeps to two lines, so that the plot keeps its room; L shows the whole of it.
  m_header->setLesson(lookFor, why ? q(p->explain) + (m_note.isEmpty() ? QString() : kStageSeparator + m_note) : m_note,
                      m_lookFor || m_revealed, m_presentation && !m_lookFor ? 2 : 0);
  // Once revealed, the question gives way to the answer that answers it (the headline; at the desk, the reveal).
  m_prompt->questionLabel()->setVisible(!m_revealed);
  m_prompt->setInputVisible(!m_revealed && !(m_presentation && m_answered));
  // Revealed with nothing more to say (no prediction, on the stage): the prompt gives its line to the plot.
  m_prompt->setVisible(p && (!m_revealed || !m_prompt->revealLabel()->text().isEmpty()));
  if (m_keyHints) m_keyHints->setVisible(m_presentation);
  m_exportAnswersAct->setEnabled(polling());
#if LAUNCHLAB_HAVE_POLL
  if (polling()) m_poll->setAddressShown(holdsRun());
#endif
}

void StageController::setPresentation(bool on, int height) {
  m_presentation = on;
  m_height = height;
  if (!on) stopPoll();  // the poll is the stage's
  if (on) {
    // Read from the back of a room: at 720 px, a 24 px header line, a 36 px headline, 30 px questions, 20 px text.
    const int line = std::max(22, height / 30), body = std::max(20, height * 20 / 720);
    m_header->setTextSizes(line, std::max(32, height / 20));
    m_prompt->setTextSizes(std::max(26, height / 24), body);
    if (m_keyHints) {
      QFont f = m_keyHints->font();
      f.setPixelSize(std::max(20, height / 36));
      m_keyHints->setFont(f);
    }
  } else {
    const int px = QFontInfo(m_prompt->font()).pixelSize();
    m_prompt->setTextSizes(px * 5 / 4, px);
  }
  refresh();
}

void StageController::predict() {
  if (!holdsRun()) return;
  if (!m_prompt->choiceButtons().isEmpty())
    m_prompt->choiceButtons().front()->setFocus();
  else
    m_prompt->answerField()->setFocus();
}

void StageController::submit(const QString& text) {
  const Prediction* p = prediction();
  if (!p || m_answered) return;
  std::string why;
  auto g = parseGuess(*p, text.toStdString(), &why);
  if (!g) return m_prompt->setError(q(why));
  m_guess = std::move(g);
  m_prompt->setError({});
  m_prompt->answerField()->clearFocus();  // the stage's keys are the window's again
  m_answered = true;
  m_prompt->setAnswered(true);
  refresh();
  emit runRequested();
}

void StageController::skip() {
  if (!holdsRun()) return;
  m_answered = true;
  m_prompt->answerField()->clearFocus();
  m_prompt->setAnswered(true);
  refresh();
  emit runRequested();
}

void StageController::run() {
  m_answered = true;
  m_prompt->setAnswered(true);
  refresh();
  emit runRequested();
}

void StageController::toggleLookFor() {
  m_lookFor = !m_lookFor;
  refresh();
}

}  // namespace launchlab::ui

namespace launchlab::ui {

bool StageController::polling() const {
#if LAUNCHLAB_HAVE_POLL
  return m_poll && m_poll->running();
#else
  return false;
#endif
}

void StageController::attachPoll(StagePoll* poll, const QString& bind) {
  m_poll = poll;
  m_pollBind = bind;
  if (m_keyHints) m_keyHints->setText(stageKeyHints(poll != nullptr));
#if LAUNCHLAB_HAVE_POLL
  if (m_poll) connect(m_poll, &StagePoll::countChanged, this, [this] { refresh(); });
#endif
}

void StageController::stopPoll() {
#if LAUNCHLAB_HAVE_POLL
  if (m_poll) m_poll->stop();
#endif
}

QString StageController::askTheClass() {
#if LAUNCHLAB_HAVE_POLL
  if (polling() && m_poll->revealed()) {  // A again: the class's answers fold away (the plot's room) or come back
    m_poll->setVisible(m_poll->isHidden());
    return m_poll->url();
  }
#endif
  const Prediction* p = prediction();
  QString why;
  if (!m_poll)
    why = "this build has no class poll (it needs Qt HTTP Server and libqrencode)";
  else if (!m_presentation)
    why = "the class poll is presentation mode's (F5)";
  else if (!p)
    why = "this experiment asks no question";
  else if (!holdsRun())
    why = "the question is answered: Page Down asks the next one";
#if LAUNCHLAB_HAVE_POLL
  if (why.isEmpty()) {
    // The stage names the exact address it listens on; "" listens on the room's network, never before A.
    const QHostAddress address = m_pollBind.isEmpty() ? poll::defaultPollAddress() : QHostAddress(m_pollBind);
    if (address.isNull()) why = "\u201C" + m_pollBind + "\u201D is not an IP address";
    m_poll->setStageHeight(m_height);
    if (const auto url = address.isNull() ? std::nullopt : m_poll->start(*p, address, &why)) {
      m_prompt->setError({});
      refresh();
      return *url;
    }
  }
#endif
  m_pollError = why;
  m_prompt->setError("Cannot ask the class: " + why);
  return {};
}

bool StageController::askFromCommandLine() {
  const QString url = askTheClass();
  if (url.isEmpty()) {
    std::fprintf(stderr, "launchlab: --ask: %s\n", qPrintable(m_pollError));
    return false;
  }
  std::printf("poll: %s\n", qPrintable(url));
  std::fflush(stdout);
#if LAUNCHLAB_HAVE_POLL
  connect(m_poll, &StagePoll::countChanged, this, [](int n) {
    std::printf("poll: %d answer%s\n", n, n == 1 ? "" : "s");
    std::fflush(stdout);
  });
#endif
  return true;
}

void StageController::exportClassAnswers() {
#if LAUNCHLAB_HAVE_POLL
  if (!polling()) return;
  QWidget* window = m_prompt->window();
  const QString path =
      QFileDialog::getSaveFileName(window, "Export the class's answers", "class-answers.csv", "CSV (*.csv)");
  if (path.isEmpty()) return;
  const ExportResult r = exportBytes(path, m_poll->csv().toUtf8());
  m_prompt->setError(r.ok ? QString() : "could not export: " + r.message);
#endif
}

}  // namespace launchlab::ui
