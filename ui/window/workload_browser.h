#pragma once
/// The workload browser: two tabs, "Workloads" (grouped by course chapter) and "Course" (every seed experiment in the
/// notebooks' order, CourseList), one search field for both, and the lesson text of what is selected.
#include <QWidget>

#include "launchlab/engine/registry.h"

class QLineEdit;
class QTreeWidget;
class QTextBrowser;
class QTreeWidgetItem;
class QTabWidget;

namespace launchlab::ui {

class CourseList;

class WorkloadBrowser : public QWidget {
  Q_OBJECT
 public:
  WorkloadBrowser(const Registry& registry, QWidget* parent = nullptr);
  /// Makes workload `id` current in the Workloads tab without emitting workloadSelected; its lesson is shown when
  /// that tab is the one on top.
  void select(const QString& id);
  QString current() const;
  /// Filters both tabs: workloads by id, title, chapter and lesson text; experiments as CourseList::setFilter
  /// (case-insensitive). Returns the visible workload count.
  int setFilter(const QString& text);
  int visibleCount() const;
  /// The Course tab (its list of experiments), and showing it with experiment `id` current (no signal).
  CourseList* courseList() const { return m_course; }
  QTreeWidget* workloadTree() const { return m_tree; }
  bool showCourseExperiment(const QString& id);
  bool courseTabShown() const;
  /// The lesson panel (title, chapter, lesson, the course's launch, implementations, parameters).
  static QString lessonHtml(const Workload& w);

 signals:
  void workloadSelected(const QString& id);
  /// An experiment of the Course tab was picked: the window loads its preset.
  void courseExperimentSelected(const QString& id);

 private:
  void fillTree();
  void showLesson(const QString& id);
  const Registry& m_registry;
  QLineEdit* m_search;
  QTreeWidget* m_tree;
  CourseList* m_course;
  QTabWidget* m_tabs;
  QTextBrowser* m_lesson;
};

}  // namespace launchlab::ui
