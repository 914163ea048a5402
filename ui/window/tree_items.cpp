#include "window/tree_items.h"

namespace launchlab::ui {

int filterTree(QTreeWidget& tree, const QString& needle, const std::function<QString(const QString& id)>& haystack) {
  for (int i = 0; i < tree.topLevelItemCount(); ++i) {
    QTreeWidgetItem* top = tree.topLevelItem(i);
    const bool groupHit = top->text(0).contains(needle, Qt::CaseInsensitive);
    int shown = 0;
    for (int j = 0; j < top->childCount(); ++j) {
      QTreeWidgetItem* item = top->child(j);
      const bool hit = needle.isEmpty() || groupHit ||
                       haystack(item->data(0, kTreeIdRole).toString()).contains(needle, Qt::CaseInsensitive);
      item->setHidden(!hit);
      shown += hit ? 1 : 0;
    }
    top->setHidden(shown == 0);
  }
  return visibleItemCount(tree);
}

int visibleItemCount(const QTreeWidget& tree) {
  int n = 0;
  for (int i = 0; i < tree.topLevelItemCount(); ++i)
    for (int j = 0; j < tree.topLevelItem(i)->childCount(); ++j)
      n += tree.topLevelItem(i)->child(j)->isHidden() ? 0 : 1;
  return n;
}

QTreeWidgetItem* findTreeItem(const QTreeWidget& tree, const QString& id) {
  for (int i = 0; i < tree.topLevelItemCount(); ++i)
    for (int j = 0; j < tree.topLevelItem(i)->childCount(); ++j)
      if (QTreeWidgetItem* item = tree.topLevelItem(i)->child(j); item->data(0, kTreeIdRole).toString() == id)
        return item;
  return nullptr;
}

QString currentTreeId(const QTreeWidget& tree) {
  const QTreeWidgetItem* item = tree.currentItem();
  return item ? item->data(0, kTreeIdRole).toString() : QString();
}

}  // namespace launchlab::ui
