#pragma once
/// Presentation mode and the stage in the window: one plot fills the window, the rest folds into the stage header;
/// F4 brings the desk (form, bottom tabs) back, F6 puts another plot on the stage, Page Down / Page Up (and the
/// arrows on the stage) walk the course, loading and running each experiment at a size that answers in about a
/// second; P, R, L and Esc drive the question (stage_controller.h). Holds the course's position (course_state.h),
/// which plot is on the stage, the style and what presentation mode put away, to give it back.
#include <QFont>
#include <QObject>
#include <QPalette>
#include <QPointer>
#include <functional>
#include <memory>
#include <string>

#include "models/course_state.h"
#include "plots/view_style.h"

class QAction;
class QMainWindow;
class QWidget;

namespace launchlab::ui {

class AppSettings;
class Desk;
class PredictionStore;
class ResultsPresenter;
class StageController;

class StageWiring : public QObject {
  Q_OBJECT
 public:
  /// What the stage asks of the window.
  struct Hooks {
    std::function<void()> run;                           ///< the form as it is (Ctrl+R)
    std::function<void()> runPreview;                    ///< the form at the stage's preview size (startFirstRun)
    std::function<bool(const QString&)> openExperiment;  ///< loads a course experiment's form
  };
  /// `predictionsFile`: where the student's predictions are kept ("" the default, "-" in memory only); `askBind`:
  /// the address the class poll listens on ("": the room's network).
  StageWiring(QMainWindow& window, Desk& desk, const Registry& registry, AppSettings& settings,
              ResultsPresenter& results, const QString& predictionsFile, const QString& askBind, Hooks hooks);
  ~StageWiring() override;

  /// The stage's actions and keys; `present` is F5's, `panel` F4's (the toolbar's), `toolbar` where My
  /// predictions goes.
  void addActions(QAction* present, QAction* panel, QWidget* toolbar);

  bool presentation() const { return m_style.presentation; }
  const ViewStyle& style() const { return m_style; }
  /// Presentation mode with the desk folded: one plot, the stage, fills the window under the stage header.
  bool onStage() const;
  /// The plot on the stage (presentation mode), or the one that would be: an output view's plot or the timing chart.
  QWidget* stageWidget() const;
  /// The stage's plot by name: an output array's, "input:NAME", or "timing" (stage.h).
  std::string stageView() const { return m_stageView; }
  /// The stage's state: the question, its answer, the reveal (presentation mode and the course at the desk).
  StageController* controller() const { return m_stage; }
  PredictionStore& predictions() const { return *m_predictions; }
  CourseState& course() { return m_course; }
  const CourseState& course() const { return m_course; }

  void setPresentationMode(bool on);
  /// launchlab --ask: the class poll for the question on screen; `present`: presentation mode first.
  void askAtStart(bool present);
  /// F4: on the stage the desk comes back (form and bottom tabs); at the desk the panel folds.
  void togglePanel(bool on);
  /// Shows and hides the panes for the mode: the desk (normal window), the stage, or the stage with the desk open.
  void layoutStage();
  /// The view that teaches `w` (the open experiment's declared one first) goes on the stage and in front.
  void chooseStageView(const Workload& w);
  /// The header for the experiment or workload on show and the run on screen.
  void updateStageHeader();
  /// Live mode takes the stage: the live plot, no timing pane beside it (blank while frames run).
  void stageForLive(bool on);
  /// The shown run is a quick one: `note` ("preview at N = …"); "" when it is the form's own size.
  void setPreviewNote(const QString& note) { m_previewNote = note; }
  /// A device that answered while on stage: its banner waits for the desk.
  void holdDeviceBanner();
  /// Copies the stage's plot as projected, with its caption; false, with the reason in the error banner.
  bool copyStagePlot();
  /// "My predictions": the summary, with a CSV export.
  void showMyPredictions();
  /// At a desk, the timing chart's height fits its rows (Desk::fitResultsSplit).
  void fitResultsSplit();

  /// Another experiment opens: the amber lesson banner spoke of the run of the one before, so it goes (the next
  /// run's banner comes with that run).
  void dropLessonBanner();

 protected:
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  void buildCourseActions();
  void buildQuestionKeys(QWidget* toolbar);
  void followOutputTab(int i);
  void runForStage();
  void nextStageView();
  void stepCourse(int step);
  void arrangeForPresentation(bool on);
  /// On the stage the headline states the lesson's count: the amber lesson banner folds away (back at the desk).
  void foldLessonBanner();

  QMainWindow& m_window;
  Desk& m_desk;
  const Registry& m_registry;
  AppSettings& m_settings;
  ResultsPresenter& m_results;
  Hooks m_hooks;
  CourseState m_course;
  StageController* m_stage = nullptr;
  std::unique_ptr<PredictionStore> m_predictions;
  ViewStyle m_style;
  QFont m_baseFont;
  QPalette m_basePalette;
  Qt::WindowStates m_statesBeforePresentation;
  bool m_deviceBannerBeforePresentation = false;
  std::string m_stageView;
  bool m_liveOnStage = false;
  /// The results splitter, watched for height changes (eventFilter); held as a QObject: its events still come while
  /// its QWidget parts are being destroyed, when it is no longer a QSplitter.
  QPointer<QObject> m_resultsSplit;
  bool m_lessonFolded = false;  ///< the amber lesson banner, hidden on the stage where the headline carries it
  QString m_previewNote;        ///< "preview at N = … of the experiment's …" while the shown run is a quick one
  QAction* m_presentAct = nullptr;
  QAction* m_panelAct = nullptr;
  QAction *m_nextAct = nullptr, *m_prevAct = nullptr, *m_nextArrowAct = nullptr, *m_prevArrowAct = nullptr;
  QAction *m_stageAct = nullptr, *m_copyStageAct = nullptr;
  /// The stage's keys: P predict, R run, L look for, Esc skip the question.
  QAction *m_predictAct = nullptr, *m_stageRunAct = nullptr, *m_lookForAct = nullptr, *m_skipAct = nullptr;
};

}  // namespace launchlab::ui
