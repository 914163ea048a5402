#pragma once
/// The stage: in presentation mode one plot, the one the lesson is about, fills the window; the rest folds into a
/// slim header (where the experiment is in the course, its title, the launch and the headline timing, and what to
/// look for). This file owns which plot teaches each workload and the header widget; what the header says is
/// stage_text.h's.
#include <QWidget>
#include <string>

#include "launchlab/engine/registry.h"
#include "launchlab/engine/result.h"
#include "models/stage_text.h"

class QLabel;

namespace launchlab::ui {

/// The name teachingView gives the timing chart (pure speed lessons: the output is not the point).
inline constexpr const char* kStageTiming = "timing";

/// The plot that teaches `info`'s lesson: an output array's name, kFirstCallView (lesson_data.h: go_fast's first
/// call), or kStageTiming. Declared per workload where its
/// first picture is not the lesson (coalescing's sector map, z_mass's spectrum, Monte Carlo's point cloud); else the
/// first image, point cloud, histogram, timeline, series or scalar; else (waveforms only) the timing chart.
std::string teachingView(const WorkloadInfo& info);

/// `text` as wrapped in `font` at `width` px, cut after `lines` lines with an ellipsis; the whole when it fits.
QString firstLines(const QString& text, const QFont& font, int width, int lines);

/// The stage's header: one line with where the experiment is and its short title ("7 / 45 — title"), never cut, and
/// the run's size on the right; under it the headline (the measure that answers the experiment's question, in large
/// type); under that the caption (what to look for, the lesson's counters, a preview note), shown with L and after
/// the reveal. Only a title longer than the line (a workload outside the course) is cut, with an ellipsis.
class StageHeader : public QWidget {
  Q_OBJECT
 public:
  explicit StageHeader(QWidget* parent = nullptr);
  void setTitle(const QString& title);
  /// The run's size and launch, right of the title (cut first when the line is short).
  void setRun(const QString& text);
  /// The headline; "" hides it.
  void setHeadline(const QString& text);
  /// The caption: what to look for and notes about the run, wrapped; shown when `shown` and not empty. With
  /// `maxLines` > 0 it ends with an ellipsis after that many lines (the stage keeps its plot; the whole caption is
  /// the tooltip, and L shows it); 0: all of it.
  void setLesson(const QString& lookFor, const QString& note, bool shown, int maxLines = 0);
  /// The caption as set, before any cut.
  QString fullLesson() const { return m_fullLesson; }
  /// Type sizes: the title line and caption, the headline.
  void setTextSizes(int linePx, int headlinePx);
  QLabel* titleLabel() const { return m_title; }
  QLabel* headlineLabel() const { return m_headline; }
  QLabel* lessonLabel() const { return m_lesson; }
  /// The title's font as drawn (bold).
  QFont titleFont() const;
  /// The title as set, before any cut.
  QString fullTitle() const { return m_fullTitle; }

 protected:
  void resizeEvent(QResizeEvent* e) override;

 private:
  void elideTitle();
  void cutLesson();
  QString m_fullTitle, m_fullRun, m_fullLesson;
  int m_lessonLines = 0;
  QLabel* m_title = nullptr;
  QLabel* m_run = nullptr;
  QLabel* m_headline = nullptr;
  QLabel* m_lesson = nullptr;
};

/// The slim line that replaces the toolbar and status bar on the stage: the keys that drive it.
QString stageKeyHints(bool canAsk);

}  // namespace launchlab::ui
