#include "window/course_list.h"

#include "launchlab/course/lesson.h"
#include "models/text.h"
#include "window/tooltips.h"
#include "window/tree_items.h"

namespace launchlab::ui {

namespace {
QString esc(std::string_view s) { return q(s).toHtmlEscaped(); }

/// "grid × block 128 × 64" as the seed writes a launch (kernel[grid, block]); "auto" where the preset leaves it.
QString launchText(const RequestText& t) {
  return QString("grid \u00D7 block %1 \u00D7 %2").arg(q(t.grid), q(t.block));
}

QString paramsText(const RequestText& t) {
  QStringList parts;
  for (const auto& [k, v] : t.params) parts << q(k) + " = " + q(v);
  return parts.join(", ");
}

/// Everything the filter searches, in one string.
QString haystack(const CourseExperiment& e) {
  return q(e.id + " " + e.title + " " + e.seed.notebook + " " + e.seed.section + " " + e.lookFor + " " +
           e.request.workload) +
         " " + q(e.chapter);
}
}  // namespace

CourseList::CourseList(const Registry& registry, QWidget* parent) : QTreeWidget(parent), m_registry(registry) {
  setHeaderHidden(true);
  setRootIsDecorated(true);
  setAccessibleName("Course experiments");
  fill();
  connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    if (!item) return;
    const QString id = item->data(0, kTreeIdRole).toString();
    if (!id.isEmpty()) emit experimentSelected(id);
  });
}

/// One top-level item per chapter, in the course's order, as `launchlab-cli course` prints them; an experiment
/// whose workload this build lacks is listed, greyed, with the reason in its tooltip. The course's notes (seed
/// experiments a compiled program cannot run) sit at their places as items that load nothing, their text in the
/// tooltip.
void CourseList::fill() {
  QTreeWidgetItem* top = nullptr;
  std::string_view chapter;
  int number = 0;
  auto under = [&](const std::string& c) {
    if (!top || c != chapter) {
      chapter = c;
      top = new QTreeWidgetItem(this, {q(chapter)});
      top->setFlags(Qt::ItemIsEnabled);
      QFont f = top->font(0);
      f.setBold(true);
      top->setFont(0, f);
    }
    return top;
  };
  for (const auto& entry : courseInOrder()) {
    if (const CourseNote* n = entry.note) {
      auto* item = new QTreeWidgetItem(under(n->chapter), {"Note: " + q(n->title)});
      item->setFlags(Qt::ItemIsEnabled);
      item->setForeground(0, QColor(0x66, 0x66, 0x66));
      item->setToolTip(0, wrapTip(q(n->title) + " (" + q(n->id) + ")\n" + q(n->seed.notebook) + ": " +
                                  q(n->seed.section) + "\nNothing to run: " + q(n->text)));
      continue;
    }
    const CourseExperiment& e = *entry.experiment;
    ++number;
    auto* item = new QTreeWidgetItem(under(e.chapter), {QString("%1. %2").arg(number).arg(q(e.title))});
    item->setData(0, kTreeIdRole, q(e.id));
    QString tip = q(e.title) + " (" + q(e.id) + ")\n" + q(e.seed.notebook) + ": " + q(e.seed.section) + "\n" +
                  "Look for: " + q(e.lookFor);
    if (!m_registry.find(e.request.workload)) {
      item->setFlags(Qt::NoItemFlags);
      tip += "\nNot in this build: workload '" + q(e.request.workload) + "' is missing.";
    }
    item->setToolTip(0, wrapTip(tip));
  }
  expandAll();
}

int CourseList::setFilter(const QString& text) {
  return filterTree(*this, text.trimmed(), [](const QString& id) {
    const CourseExperiment* e = findCourseExperiment(id.toStdString());
    return e ? haystack(*e) : QString();
  });
}

int CourseList::visibleCount() const { return visibleItemCount(*this); }

bool CourseList::select(const QString& id) {
  QTreeWidgetItem* item = findTreeItem(*this, id);
  if (!item) return false;
  QSignalBlocker block(this);
  setCurrentItem(item);
  return true;
}

QString CourseList::current() const { return currentTreeId(*this); }

QString CourseList::lessonHtml(const CourseExperiment& e, const Registry& registry) {
  const RequestText& t = e.request;
  const Workload* w = registry.find(t.workload);
  QString h = "<h3 style='margin:0'>" + esc(e.title) + "</h3><p style='color:#555;margin-top:2px'>" + esc(e.chapter) +
              " &middot; <code>" + esc(e.id) + "</code></p>";
  h += "<p><b>In the course:</b> " + esc(e.seed.notebook) + ", " + esc(e.seed.section) + " (<code>" + esc(e.seed.file) +
       "</code>, line " + QString::number(e.seed.line) + ")</p>";
  h += "<p><b>Runs:</b> " + (w ? esc(w->info().title) + " " : QString()) + "<code>" + esc(t.workload) +
       "</code>, n = " + esc(t.n) + ", " + esc(t.dtype) + ", " + launchText(t).toHtmlEscaped();
  if (!t.params.empty()) h += ", " + paramsText(t).toHtmlEscaped();
  h += "</p><p><b>Look for:</b> " + esc(e.lookFor) + "</p>";
  h += "<p><b>Differs from the seed:</b> " + (e.differs.empty() ? QString("nothing") : esc(e.differs)) + "</p>";
  if (!w)
    h += "<p><b>Not in this build:</b> the workload is missing.</p>";
  else
    h += "<hr><p>" + esc(lessonOf(t.workload).lookFor) + "</p>";
  return h;
}

}  // namespace launchlab::ui
