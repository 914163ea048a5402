#pragma once
/// The stage: in presentation mode one plot, the one the lesson is about, fills the window; the rest folds into a
/// slim header (where the experiment is in the course, its title, the launch and the headline timing, and what to
/// look for). This file owns which plot teaches each workload, where an experiment is in the course, and the header.
#include <QWidget>
#include <string>

#include "launchlab/registry.h"
#include "launchlab/result.h"

class QLabel;

namespace launchlab::ui {

/// The name teachingView gives the timing chart (pure speed lessons: the output is not the point).
inline constexpr const char* kStageTiming = "timing";

/// The plot that teaches `info`'s lesson: an output array's name, kFirstCallView (lesson_data.h: go_fast's first
/// call), or kStageTiming. Declared per workload where its
/// first picture is not the lesson (coalescing's sector map, z_mass's spectrum, Monte Carlo's point cloud); else the
/// first image, point cloud, histogram, timeline, series or scalar; else (waveforms only) the timing chart.
std::string teachingView(const WorkloadInfo& info);

/// Where a course experiment is among those this build can run (0-based index; -1 when not there).
struct CoursePosition {
  int index = -1;
  int count = 0;
};
CoursePosition coursePosition(const Registry& registry, const std::string& id);
/// The experiment `step` places from `id` among those this build can run, wrapping neither end ("" past the
/// ends); from an id not in the course, the first (step > 0) or the last.
std::string courseNeighbour(const Registry& registry, const std::string& id, int step);

/// "preview at N = 1,048,576 of the experiment's 10,485,760: Run (Ctrl+R) for the full size".
QString previewNote(std::uint64_t n, std::uint64_t full);

/// "fastest: CUDA grid-stride 1.20 ms, 41.3x vs CPU serial" for the implementations that ran; "" when none did.
QString headlineTiming(const RunResult& r);

/// The stage's header: one line with the experiment ("7 / 45 — title") and the headline timing, and under it the
/// launch, what to look for and the preview note. A long title is cut with an ellipsis (the tooltip keeps it).
class StageHeader : public QWidget {
  Q_OBJECT
 public:
  explicit StageHeader(QWidget* parent = nullptr);
  void setTitle(const QString& title);
  /// The headline timing, right of the title.
  void setRun(const QString& text);
  /// The run's size and launch, what to look for and, when set, a note about the run (a preview size): wrapped,
  /// never cut.
  void setLesson(const QString& launch, const QString& lookFor, const QString& note);
  QLabel* titleLabel() const { return m_title; }
  QLabel* runLabel() const { return m_run; }
  QLabel* lessonLabel() const { return m_lesson; }
  /// The title's font as drawn (bold).
  QFont titleFont() const;
  /// The title as set, before any cut.
  QString fullTitle() const { return m_fullTitle; }

 protected:
  void resizeEvent(QResizeEvent* e) override;

 private:
  void elideTitle();
  QString m_fullTitle, m_fullRun;
  QLabel* m_title = nullptr;
  QLabel* m_run = nullptr;
  QLabel* m_lesson = nullptr;
};

}  // namespace launchlab::ui
