#pragma once
/// Presentation mode's stage and the course's predict-then-reveal flow, with an address of its own: which experiment
/// is on show and where it is in the course, its header line and headline (core's stageText), the question before
/// the run and its answer, the reveal after it (measured answer, the prediction, how far off, why), the "Look for"
/// caption (L), and the student's kept predictions. The window owns the widgets' places and the runs; it forwards the
/// stage's keys (P, R, L, Esc) here and runs what runRequested asks for.
#include <QObject>
#include <QString>
#include <optional>

#include "launchlab/course/prediction.h"
#include "launchlab/engine/result.h"

class QAction;
class QLabel;

namespace launchlab {
struct CourseExperiment;
}

namespace launchlab::ui {

class StageHeader;
class StagePrompt;
class PredictionStore;
class StagePoll;

/// The reveal as rich text: the measured answer (its headline), the prediction and how far off (or that there was
/// none), and the explanation. Every string escaped.
QString revealHtml(const Prediction& p, const MeasureValue& measured, const std::optional<Guess>& guess);
/// A prediction as the stage prints it: the number in the answer's unit, or the choice.
QString guessText(const Prediction& p, const Guess& g);

class StageController : public QObject {
  Q_OBJECT
 public:
  /// `store` may be null (nothing kept). The widgets belong to the window.
  StageController(StageHeader* header, StagePrompt* prompt, QLabel* keyHints, PredictionStore* store,
                  QObject* parent = nullptr);

  /// The experiment on show (nullptr: a workload picked by hand, titled `title`); `position` "7 / 60". The question
  /// and its answer start afresh only when the experiment changes. `shownRun` is the run on screen when it opens
  /// (another experiment's): it is never revealed as this one's answer.
  void setExperiment(const CourseExperiment* e, const QString& position, const QString& title,
                     const RunResult* shownRun);
  /// The run on screen (nullptr: none of this experiment yet), its size and launch, and notes (counters, preview).
  /// A new run of the experiment reveals the answer and keeps the prediction.
  void showRun(const RunResult* r, const QString& launch, const QString& note);
  /// Presentation mode (large type scaled to `height`, the key hints) or the desk.
  void setPresentation(bool on, int height);

  const CourseExperiment* experiment() const { return m_experiment; }
  /// The first prediction of the experiment on show, if it asks one.
  const Prediction* prediction() const;
  /// A question waits for its answer: on the stage the run waits for Enter, Esc or R.
  bool holdsRun() const;
  bool revealed() const { return m_revealed; }
  std::optional<Guess> guess() const { return m_guess; }
  bool lookForShown() const { return m_lookFor; }
  QString headline() const { return m_headline; }

  /// P: the answer field takes the keyboard (or the first choice).
  void predict();
  /// Enter (or a choice): keeps the prediction and asks for the run; a refused answer says why and waits.
  void submit(const QString& text);
  /// Esc: no prediction; the run goes ahead.
  void skip();
  /// R: the run, with or without a prediction.
  void run();
  /// L: the "Look for" caption on or off.
  void toggleLookFor();

  /// Ask the class: `poll` is the stage's poll widget (null in a build without Qt HTTP Server and libqrencode),
  /// `bind` the address it listens on ("": the room's network). The poll belongs to the stage: another experiment,
  /// leaving presentation mode or the window's end stops its server; the run's reveal reveals the class's answers.
  void attachPoll(StagePoll* poll, const QString& bind);
  StagePoll* poll() const { return m_poll; }
  /// The class poll's server is running (until Page Down, presentation mode's end or the window's).
  bool polling() const;
  /// A, and Ctrl+Shift+A (the class's answers as CSV): the window adds them and enables A where P and R are.
  QAction* askAction() const { return m_askAct; }
  QAction* exportAnswersAction() const { return m_exportAnswersAct; }
  /// A: serves the question on the stage to the class; the URL, or "" with the reason on the prompt's error line.
  QString askTheClass();
  /// launchlab --ask: the poll at once, "poll: URL" on stdout and each new count after it ("poll: 3 answers"), so a
  /// script sees what the stage shows; false after one line on stderr.
  bool askFromCommandLine();
  /// Ctrl+Shift+A: the class's answers to a CSV file the instructor picks.
  void exportClassAnswers();

 signals:
  void runRequested();

 private:
  void refresh();
  void reveal(const RunResult& r);
  void stopPoll();

  StageHeader* m_header;
  StagePrompt* m_prompt;
  QLabel* m_keyHints;
  PredictionStore* m_store;
  const CourseExperiment* m_experiment = nullptr;
  QString m_id, m_position, m_title, m_launch, m_note, m_headline;
  const RunResult* m_openedWith = nullptr;  // the run on screen when the experiment opened
  const RunResult* m_revealedRun = nullptr;
  std::optional<Guess> m_guess;
  bool m_answered = false, m_revealed = false, m_lookFor = false, m_presentation = false;
  bool m_hasRun = false;
  int m_height = 720;
  StagePoll* m_poll = nullptr;
  QString m_pollBind, m_pollError;
  QAction* m_askAct = nullptr;
  QAction* m_exportAnswersAct = nullptr;
};

}  // namespace launchlab::ui
