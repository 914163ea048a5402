#include "workload_browser.h"

#include <QCollator>
#include <QHeaderView>
#include <QLineEdit>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>

namespace launchlab::ui {

namespace {
constexpr int kIdRole = Qt::UserRole + 1;
QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
}  // namespace

WorkloadBrowser::WorkloadBrowser(const Registry& registry, QWidget* parent) : QWidget(parent), m_registry(registry) {
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  m_search = new QLineEdit(this);
  m_search->setPlaceholderText("Search workloads (e.g. reduce, histogram, TP 3)");
  m_search->setClearButtonEnabled(true);
  m_search->setToolTip("Filters by name, chapter and lesson text");
  m_tree = new QTreeWidget(this);
  m_tree->setHeaderHidden(true);
  m_tree->setRootIsDecorated(true);
  m_tree->setUniformRowHeights(true);
  m_lesson = new QTextBrowser(this);
  m_lesson->setOpenExternalLinks(true);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(m_tree);
  split->addWidget(m_lesson);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  split->setChildrenCollapsible(false);
  lay->addWidget(m_search);
  lay->addWidget(split, 1);

  // Chapters in natural order ("TP 3.2" before "TP 3.10").
  QCollator coll;
  coll.setNumericMode(true);
  std::map<QString, std::vector<const Workload*>> byChapter;
  for (const auto& w : registry.all())
    byChapter[QString::fromStdString(w->info().chapter.empty() ? "Other" : w->info().chapter)].push_back(w.get());
  QStringList chapters;
  for (const auto& [c, v] : byChapter) chapters << c;
  std::sort(chapters.begin(), chapters.end(), [&](const QString& a, const QString& b) { return coll.compare(a, b) < 0; });
  for (const auto& c : chapters) {
    auto* top = new QTreeWidgetItem(m_tree, {c});
    top->setFlags(Qt::ItemIsEnabled);
    QFont f = top->font(0);
    f.setBold(true);
    top->setFont(0, f);
    for (const Workload* w : byChapter[c]) {
      auto* item = new QTreeWidgetItem(top, {QString::fromStdString(w->info().title)});
      item->setData(0, kIdRole, QString::fromStdString(w->info().id));
      item->setToolTip(0, QString::fromStdString(w->info().id + ": " + w->info().lesson));
    }
  }
  m_tree->expandAll();

  connect(m_search, &QLineEdit::textChanged, this, [this](const QString& t) { setFilter(t); });
  connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    if (!item) return;
    const QString id = item->data(0, kIdRole).toString();
    if (id.isEmpty()) return;
    showLesson(id);
    emit workloadSelected(id);
  });
}

void WorkloadBrowser::select(const QString& id) {
  for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
    auto* top = m_tree->topLevelItem(i);
    for (int j = 0; j < top->childCount(); ++j)
      if (top->child(j)->data(0, kIdRole).toString() == id) {
        QSignalBlocker block(m_tree);
        m_tree->setCurrentItem(top->child(j));
        showLesson(id);
        return;
      }
  }
}

QString WorkloadBrowser::current() const {
  auto* item = m_tree->currentItem();
  return item ? item->data(0, kIdRole).toString() : QString();
}

int WorkloadBrowser::setFilter(const QString& text) {
  const QString needle = text.trimmed();
  for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
    auto* top = m_tree->topLevelItem(i);
    const bool chapterHit = top->text(0).contains(needle, Qt::CaseInsensitive);
    int shown = 0;
    for (int j = 0; j < top->childCount(); ++j) {
      auto* item = top->child(j);
      const Workload* w = m_registry.find(item->data(0, kIdRole).toString().toStdString());
      const auto& info = w->info();
      const QString hay = QString::fromStdString(info.id + " " + info.title + " " + info.lesson + " " + info.seedNote);
      const bool hit = needle.isEmpty() || chapterHit || hay.contains(needle, Qt::CaseInsensitive);
      item->setHidden(!hit);
      shown += hit ? 1 : 0;
    }
    top->setHidden(shown == 0);
  }
  return visibleCount();
}

int WorkloadBrowser::visibleCount() const {
  int n = 0;
  for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
    for (int j = 0; j < m_tree->topLevelItem(i)->childCount(); ++j) n += m_tree->topLevelItem(i)->child(j)->isHidden() ? 0 : 1;
  return n;
}

QString WorkloadBrowser::lessonHtml(const Workload& w) {
  const auto& i = w.info();
  QString h = "<h3 style='margin:0'>" + esc(i.title) + "</h3><p style='color:#555;margin-top:2px'>" + esc(i.chapter) +
              " &middot; <code>" + esc(i.id) + "</code></p><p>" + esc(i.lesson) + "</p>";
  if (!i.seedNote.empty()) h += "<p><b>In the course:</b> " + esc(i.seedNote) + "</p>";
  h += "<p><b>Implementations</b></p><ul style='margin-left:-20px'>";
  for (const auto& impl : w.impls()) {
    h += "<li><b>" + esc(impl.title) + "</b>" + (impl.demonstration ? " <i>(deliberately wrong: a demonstration)</i>" : "") +
         ": " + esc(impl.description) + "</li>";
  }
  h += "</ul>";
  return h;
}

void WorkloadBrowser::showLesson(const QString& id) {
  if (const Workload* w = m_registry.find(id.toStdString())) m_lesson->setHtml(lessonHtml(*w));
}

}  // namespace launchlab::ui
