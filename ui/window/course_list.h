#pragma once
/// The browser's "Course" tab: every experiment of the seed notebooks (launchlab::courseExperiments()) in the
/// notebooks' order, grouped by notebook, numbered as `launchlab-cli course` numbers them. Picking one asks the window
/// to load its preset (the seed's size, dtype, inputs and launch); the lesson pane shows where it is in the seed,
/// what to look for and what differs.
#include <QTreeWidget>

#include "launchlab/course/course.h"
#include "launchlab/engine/registry.h"

namespace launchlab::ui {

class CourseList : public QTreeWidget {
  Q_OBJECT
 public:
  explicit CourseList(const Registry& registry, QWidget* parent = nullptr);
  /// Filters by id, title, notebook, section, what to look for and the workload (case-insensitive); returns the
  /// visible experiment count.
  int setFilter(const QString& text);
  int visibleCount() const;
  /// Makes `id` the current item without emitting experimentSelected; false when it is not listed.
  bool select(const QString& id);
  QString current() const;
  /// The lesson pane for one experiment: title, seed file, notebook, section and line, what runs (workload, size,
  /// dtype, launch), what to look for, what differs from the seed; then the workload's own lesson.
  static QString lessonHtml(const CourseExperiment& e, const Registry& registry);

 signals:
  void experimentSelected(const QString& id);

 private:
  void fill();
  const Registry& m_registry;
};

}  // namespace launchlab::ui
