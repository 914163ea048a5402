#include "stage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

#include "chart_data.h"
#include "launchlab/course.h"
#include "lesson_data.h"

namespace launchlab::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

/// Workloads whose first picture is not the lesson: the view the course's "look for" lines describe.
const std::map<std::string, std::string>& declaredTeachingViews() {
  static const std::map<std::string, std::string> views = {
      {"coalescing", "sectors"},           {"transpose", "banks"},         {"z_mass", "mass_hist"},
      {"monte_carlo_pi", "points"},        {"monte_carlo_area", "points"}, {"streams_overlap", "timeline"},
      {"launch_coverage", "writer_block"}, {"atomic_counter", "counter"},  {"reduce_sum", "sum"},
      {"histogram_contention", "counts"}};
  return views;
}

std::vector<const CourseExperiment*> runnable(const Registry& registry) {
  std::vector<const CourseExperiment*> out;
  for (const auto& e : courseExperiments())
    if (registry.find(e.request.workload)) out.push_back(&e);
  return out;
}
}  // namespace

std::string teachingView(const WorkloadInfo& info) {
  if (timesFirstCall(info)) return kFirstCallView;  // its lesson is a metric, the first call's compile
  if (auto it = declaredTeachingViews().find(info.id); it != declaredTeachingViews().end())
    for (const auto& o : info.outputs)
      if (o.name == it->second) return o.name;
  for (PlotKind k :
       {PlotKind::Image, PlotKind::Points, PlotKind::Histogram, PlotKind::Timeline, PlotKind::Series, PlotKind::Scalar})
    for (const auto& o : info.outputs)
      if (o.plot == k) return o.name;
  return kStageTiming;
}

CoursePosition coursePosition(const Registry& registry, const std::string& id) {
  const auto list = runnable(registry);
  CoursePosition p;
  p.count = int(list.size());
  for (int i = 0; i < p.count; ++i)
    if (list[std::size_t(i)]->id == id) p.index = i;
  return p;
}

std::string courseNeighbour(const Registry& registry, const std::string& id, int step) {
  const auto list = runnable(registry);
  if (list.empty() || step == 0) return {};
  const CoursePosition p = coursePosition(registry, id);
  const int next = p.index < 0 ? (step > 0 ? 0 : int(list.size()) - 1) : p.index + step;
  if (next < 0 || next >= int(list.size())) return {};
  return list[std::size_t(next)]->id;
}

QString previewNote(std::uint64_t n, std::uint64_t full) {
  const QLocale en(QLocale::English);
  return QString("preview at N = %1 of the experiment's %2: Run (Ctrl+R) for the full size")
      .arg(en.toString(qulonglong(n)), en.toString(qulonglong(full)));
}

QString headlineTiming(const RunResult& r) {
  const ImplResult* best = nullptr;
  for (const auto& i : r.impls)
    if (i.status == Status::Ok && i.totalMedianMs() > 0 && (!best || i.totalMedianMs() < best->totalMedianMs()))
      best = &i;
  if (!best) return {};
  QString s = "fastest: " + q(best->title) + " " + q(durationText(best->totalMedianMs()));
  if (best->speedupTotal > 0 && best->implId != "cpu-serial")
    s += ", " + q(speedupText(best->speedupTotal)) + " vs CPU serial";
  return s;
}

StageHeader::StageHeader(QWidget* parent) : QWidget(parent) {
  setObjectName("stageHeader");
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(6, 2, 6, 2);
  lay->setSpacing(0);
  auto* top = new QHBoxLayout;
  top->setSpacing(16);
  m_title = new QLabel;
  m_title->setObjectName("stageTitle");
  m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // cut with an ellipsis, never widens
  m_title->setTextFormat(Qt::RichText);  // bold whatever font the window hands down (presentation mode)
  m_run = new QLabel;
  m_run->setObjectName("stageRun");
  m_run->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  top->addWidget(m_title, 1);
  top->addWidget(m_run);
  lay->addLayout(top);
  m_lesson = new QLabel;
  m_lesson->setObjectName("stageLesson");
  m_lesson->setWordWrap(true);
  m_lesson->setTextFormat(Qt::PlainText);
  lay->addWidget(m_lesson);
}

void StageHeader::setTitle(const QString& title) {
  m_fullTitle = title;
  m_title->setToolTip(title);
  elideTitle();
}

void StageHeader::setRun(const QString& text) {
  m_fullRun = text;
  m_run->setToolTip(text);
  elideTitle();
}

void StageHeader::setLesson(const QString& launch, const QString& lookFor, const QString& note) {
  QStringList parts;
  for (const QString& p : {launch, lookFor.isEmpty() ? QString() : "Look for: " + lookFor, note})
    if (!p.isEmpty()) parts << p;
  m_lesson->setText(parts.join("  \xC2\xB7  "));
  m_lesson->setVisible(!parts.isEmpty());
}

void StageHeader::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  elideTitle();
}

QFont StageHeader::titleFont() const {
  QFont f = m_title->font();
  f.setBold(true);
  return f;
}

void StageHeader::elideTitle() {
  // The timing keeps up to half the line, the title the rest; each is cut only when it must be.
  const int room = std::max(80, contentsRect().width() - 16 - 12);
  const int run = std::min(m_run->fontMetrics().horizontalAdvance(m_fullRun) + 2, room / 2);
  m_run->setFixedWidth(m_fullRun.isEmpty() ? 0 : run);
  m_run->setText(m_run->fontMetrics().elidedText(m_fullRun, Qt::ElideRight, run));
  const int title = m_fullRun.isEmpty() ? room : room - run;
  m_title->setText("<b>" + QFontMetrics(titleFont()).elidedText(m_fullTitle, Qt::ElideRight, title).toHtmlEscaped() +
                   "</b>");
}

}  // namespace launchlab::ui
