#include "window/workload_browser.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <map>

#include "launchlab/course/chapters.h"
#include "launchlab/course/course.h"
#include "launchlab/course/lesson.h"
#include "window/course_list.h"
#include "window/tooltips.h"
#include "window/tree_items.h"

namespace launchlab::ui {

namespace {
/// Rows as tall as their wrapped title at the column's current width (a tree's own size hint ignores it).
class WrappingDelegate final : public QStyledItemDelegate {
 public:
  WrappingDelegate(QTreeView* tree) : QStyledItemDelegate(tree), m_tree(tree) {}
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    int depth = 0;
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) ++depth;
    const int width = m_tree->viewport()->width() - m_tree->indentation() * (depth + 1) - 12;
    if (width <= 0) return s;
    QFont f = option.font;
    if (const QVariant v = index.data(Qt::FontRole); v.isValid()) f = v.value<QFont>();
    const QRect text = QFontMetrics(f).boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap,
                                                    index.data(Qt::DisplayRole).toString());
    s.setHeight(std::max(s.height(), text.height() + 6));
    return s;
  }

 private:
  QTreeView* m_tree;
};

/// Full titles: rows wrap at the column's width (no eliding; the tooltip has the whole title as well).
void wrapRows(QTreeWidget* tree) {
  tree->setHeaderHidden(true);
  tree->setUniformRowHeights(false);
  tree->setWordWrap(true);
  tree->setTextElideMode(Qt::ElideNone);
  tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  tree->header()->setStretchLastSection(true);
  tree->setItemDelegate(new WrappingDelegate(tree));
  // A tree computes row heights once: lay the rows out again when the column's width changes.
  QObject::connect(tree->header(), &QHeaderView::sectionResized, tree, [tree] { tree->doItemsLayout(); });
}

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
}  // namespace

WorkloadBrowser::WorkloadBrowser(const Registry& registry, QWidget* parent) : QWidget(parent), m_registry(registry) {
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  m_search = new QLineEdit(this);
  m_search->setPlaceholderText("Search workloads and course experiments (e.g. reduce, histogram, TP 3)");
  m_search->setClearButtonEnabled(true);
  m_search->setToolTip("Filters the workloads and the course's experiments by name, chapter and lesson text");
  m_tree = new QTreeWidget(this);
  m_tree->setRootIsDecorated(true);
  wrapRows(m_tree);
  m_course = new CourseList(m_registry, this);
  wrapRows(m_course);
  m_tabs = new QTabWidget(this);
  m_tabs->setDocumentMode(true);
  m_tabs->addTab(m_tree, "Workloads");
  m_tabs->addTab(m_course, "Course");
  m_tabs->setTabToolTip(1, wrapTip("Every experiment of the course's notebooks, in order, with the seed's size, dtype "
                                   "and launch: pick one to load it, then Run"));
  m_lesson = new QTextBrowser(this);
  m_lesson->setOpenExternalLinks(true);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(m_tabs);
  split->addWidget(m_lesson);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  split->setChildrenCollapsible(false);
  lay->addWidget(m_search);
  lay->addWidget(split, 1);

  fillTree();

  connect(m_search, &QLineEdit::textChanged, this, [this](const QString& t) { setFilter(t); });
  connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    if (!item) return;
    const QString id = item->data(0, kTreeIdRole).toString();
    if (id.isEmpty()) return;
    showLesson(id);
    emit workloadSelected(id);
  });
  connect(m_course, &CourseList::experimentSelected, this, [this](const QString& id) {
    if (const CourseExperiment* e = findCourseExperiment(id.toStdString()))
      m_lesson->setHtml(CourseList::lessonHtml(*e, m_registry));
    emit courseExperimentSelected(id);
  });
  // The lesson pane follows the tab on top: the current workload's lesson, or the current experiment's.
  connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
    if (courseTabShown()) {
      if (const CourseExperiment* e = findCourseExperiment(m_course->current().toStdString()))
        m_lesson->setHtml(CourseList::lessonHtml(*e, m_registry));
    } else if (!current().isEmpty()) {
      showLesson(current());
    }
  });
}

bool WorkloadBrowser::courseTabShown() const { return m_tabs->currentWidget() == m_course; }

bool WorkloadBrowser::showCourseExperiment(const QString& id) {
  const CourseExperiment* e = findCourseExperiment(id.toStdString());
  if (!e || !m_course->select(id)) return false;
  {
    QSignalBlocker block(m_tabs);
    m_tabs->setCurrentWidget(m_course);
  }
  m_lesson->setHtml(CourseList::lessonHtml(*e, m_registry));
  return true;
}

/// Chapters in course order (launchlab::chapterIndex; unknown chapters after them, "Other" last), workloads in
/// registry order within a chapter.
void WorkloadBrowser::fillTree() {
  std::map<std::pair<std::size_t, std::string>, std::vector<const Workload*>> byChapter;
  for (const auto& w : m_registry.all()) {
    const std::string& c = w->info().chapter;
    byChapter[{c.empty() ? chapters().size() + 1 : chapterIndex(c), c.empty() ? "Other" : c}].push_back(w.get());
  }
  for (const auto& [key, workloads] : byChapter) {
    auto* top = new QTreeWidgetItem(m_tree, {QString::fromStdString(key.second)});
    top->setFlags(Qt::ItemIsEnabled);
    top->setToolTip(0, wrapTip(top->text(0)));
    QFont f = top->font(0);
    f.setBold(true);
    top->setFont(0, f);
    for (const Workload* w : workloads) {
      const auto& info = w->info();
      auto* item = new QTreeWidgetItem(top, {QString::fromStdString(info.title)});
      item->setData(0, kTreeIdRole, QString::fromStdString(info.id));
      item->setToolTip(
          0, wrapTip(QString::fromStdString(info.title + " (" + info.id + ")\n" + lessonOf(info.id).lookFor)));
    }
  }
  m_tree->expandAll();
}

void WorkloadBrowser::select(const QString& id) {
  if (QTreeWidgetItem* item = findTreeItem(*m_tree, id)) {
    QSignalBlocker block(m_tree);
    m_tree->setCurrentItem(item);
    if (!courseTabShown()) showLesson(id);
  }
}

QString WorkloadBrowser::current() const { return currentTreeId(*m_tree); }

int WorkloadBrowser::setFilter(const QString& text) {
  const QString needle = text.trimmed();
  filterTree(*m_tree, needle, [this](const QString& id) {
    const auto& info = m_registry.find(id.toStdString())->info();
    const Lesson& lesson = lessonOf(info.id);
    return QString::fromStdString(info.id + " " + info.title + " " + lesson.lookFor + " " + lesson.seedNote);
  });
  m_course->setFilter(needle);
  return visibleCount();
}

int WorkloadBrowser::visibleCount() const { return visibleItemCount(*m_tree); }

QString WorkloadBrowser::lessonHtml(const Workload& w) {
  const auto& i = w.info();
  const Lesson& lesson = lessonOf(i.id);  // kernels/<id>/lesson.md
  QString h = "<h3 style='margin:0'>" + esc(i.title) + "</h3><p style='color:#555;margin-top:2px'>" + esc(i.chapter) +
              " &middot; <code>" + esc(i.id) + "</code></p><p>" + esc(lesson.lookFor) + "</p>";
  if (!lesson.seedNote.empty()) h += "<p><b>In the course:</b> " + esc(lesson.seedNote) + "</p>";
  h += "<p><b>Implementations</b></p><ul style='margin-left:-20px'>";
  for (const auto& impl : w.impls()) {
    h += "<li><b>" + esc(impl.title) + "</b>" +
         (impl.demonstration ? " <i>(deliberately wrong: a demonstration)</i>" : "") + ": " + esc(impl.description) +
         "</li>";
  }
  h += "</ul>";
  return h;
}

void WorkloadBrowser::showLesson(const QString& id) {
  if (const Workload* w = m_registry.find(id.toStdString())) m_lesson->setHtml(lessonHtml(*w));
}

}  // namespace launchlab::ui
