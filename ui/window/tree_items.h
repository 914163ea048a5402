#pragma once
/// Two-level trees of the workload browser (groups, then items carrying an id in kTreeIdRole): the Workloads tab and
/// the Course tab share the filter, the count and the lookup.
#include <QString>
#include <QTreeWidget>
#include <functional>

namespace launchlab::ui {

inline constexpr int kTreeIdRole = Qt::UserRole + 1;

/// Hides every item whose text `haystack(id)` does not contain `needle` (case-insensitive; a group whose title
/// matches shows all of its items; an empty needle shows everything) and every group left empty. Returns the
/// visible item count.
int filterTree(QTreeWidget& tree, const QString& needle, const std::function<QString(const QString& id)>& haystack);
/// Items (not groups) not hidden.
int visibleItemCount(const QTreeWidget& tree);
/// The item whose id is `id`, or nullptr.
QTreeWidgetItem* findTreeItem(const QTreeWidget& tree, const QString& id);
/// The current item's id (empty for none or for a group).
QString currentTreeId(const QTreeWidget& tree);

}  // namespace launchlab::ui
