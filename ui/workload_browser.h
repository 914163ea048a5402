#pragma once
/// The workload browser: workloads grouped by course chapter, a search field, and the lesson text.
#include <QWidget>

#include "launchlab/registry.h"

class QLineEdit;
class QTreeWidget;
class QTextBrowser;
class QTreeWidgetItem;

namespace launchlab::ui {

class WorkloadBrowser : public QWidget {
  Q_OBJECT
 public:
  WorkloadBrowser(const Registry& registry, QWidget* parent = nullptr);
  void select(const QString& id);
  QString current() const;
  /// Filters by id, title, chapter and lesson text (case-insensitive); returns the visible workload count.
  int setFilter(const QString& text);
  int visibleCount() const;
  /// The lesson panel (title, chapter, lesson, the course's launch, implementations, parameters).
  static QString lessonHtml(const Workload& w);

 signals:
  void workloadSelected(const QString& id);

 private:
  void fillTree();
  void showLesson(const QString& id);
  const Registry& m_registry;
  QLineEdit* m_search;
  QTreeWidget* m_tree;
  QTextBrowser* m_lesson;
};

}  // namespace launchlab::ui
