#include "window/stage.h"

#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QTextLayout>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

#include "plots/lesson_data.h"

namespace launchlab::ui {

namespace {
/// Workloads whose first picture is not the lesson: the view the course's "look for" lines describe.
const std::map<std::string, std::string>& declaredTeachingViews() {
  static const std::map<std::string, std::string> views = {
      {"coalescing", "sectors"},           {"transpose", "banks"},         {"z_mass", "mass_hist"},
      {"monte_carlo_pi", "points"},        {"monte_carlo_area", "points"}, {"streams_overlap", "timeline"},
      {"launch_coverage", "writer_block"}, {"atomic_counter", "counter"},  {"reduce_sum", "sum"},
      {"histogram_contention", "counts"}};
  return views;
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

StageHeader::StageHeader(QWidget* parent) : QWidget(parent) {
  setObjectName("stageHeader");
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(6, 2, 6, 2);
  lay->setSpacing(2);
  auto* top = new QHBoxLayout;
  top->setSpacing(16);
  m_title = new QLabel;
  m_title->setObjectName("stageTitle");
  m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // one line: cut, never widens the window
  m_title->setTextFormat(Qt::RichText);  // bold whatever font the window hands down (presentation mode)
  m_run = new QLabel;
  m_run->setObjectName("stageRun");
  m_run->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  top->addWidget(m_title, 1);
  top->addWidget(m_run);
  lay->addLayout(top);
  m_headline = new QLabel;
  m_headline->setObjectName("stageHeadline");
  m_headline->setWordWrap(true);  // never cut: a long headline takes a second line
  m_headline->setTextFormat(Qt::PlainText);
  m_headline->setVisible(false);
  lay->addWidget(m_headline);
  m_lesson = new QLabel;
  m_lesson->setObjectName("stageLesson");
  m_lesson->setWordWrap(true);
  m_lesson->setTextFormat(Qt::PlainText);
  m_lesson->setVisible(false);
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

void StageHeader::setHeadline(const QString& text) {
  m_headline->setText(text);
  m_headline->setVisible(!text.isEmpty());
}

void StageHeader::setLesson(const QString& lookFor, const QString& note, bool shown, int maxLines) {
  m_fullLesson = stageCaption(lookFor, note);
  m_lessonLines = maxLines;
  m_lesson->setToolTip(maxLines > 0 ? m_fullLesson : QString());
  cutLesson();
  m_lesson->setVisible(shown && !m_fullLesson.isEmpty());
}

void StageHeader::cutLesson() {
  const int width = m_lesson->contentsRect().width() > 0 ? m_lesson->contentsRect().width() : this->width() - 12;
  m_lesson->setText(m_lessonLines > 0 ? firstLines(m_fullLesson, m_lesson->font(), width, m_lessonLines)
                                      : m_fullLesson);
}

QString firstLines(const QString& text, const QFont& font, int width, int lines) {
  if (width <= 0 || lines <= 0) return text;
  QTextLayout layout(text, font);
  layout.beginLayout();
  int count = 0, lastStart = 0;
  for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
    line.setLineWidth(width);
    if (++count == lines) lastStart = line.textStart();
  }
  layout.endLayout();
  if (count <= lines) return text;
  // The last line kept is cut a little short of the width, so that the label, wrapping the joined text again with
  // its own rounding, never pushes the ellipsis onto a line of its own.
  const QFontMetrics fm(font);
  const int room = std::max(1, width - 2 * fm.averageCharWidth());
  return text.left(lastStart) + fm.elidedText(text.mid(lastStart).simplified(), Qt::ElideRight, room);
}

void StageHeader::setTextSizes(int linePx, int headlinePx) {
  for (QLabel* l : {m_title, m_run, m_lesson}) {
    QFont f = l->font();
    f.setPixelSize(linePx);
    l->setFont(f);
  }
  cutLesson();
  QFont f = m_headline->font();
  f.setPixelSize(headlinePx);
  f.setBold(true);
  m_headline->setFont(f);
  elideTitle();
}

void StageHeader::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  elideTitle();
  cutLesson();
}

QFont StageHeader::titleFont() const {
  QFont f = m_title->font();
  f.setBold(true);
  return f;
}

void StageHeader::elideTitle() {
  // The title keeps its whole line; the run's size gets what is left, and goes first when there is too little.
  const int room = std::max(80, contentsRect().width() - 16 - 12);
  const int title = std::min(room, QFontMetrics(titleFont()).horizontalAdvance(m_fullTitle) + 4);
  const int left = room - title;
  const int run = std::min(m_run->fontMetrics().horizontalAdvance(m_fullRun) + 2, left);
  const bool showRun = !m_fullRun.isEmpty() && run >= 120;
  m_run->setVisible(showRun);
  m_run->setFixedWidth(showRun ? run : 0);
  m_run->setText(showRun ? m_run->fontMetrics().elidedText(m_fullRun, Qt::ElideRight, run) : QString());
  const int width = showRun ? room - run : room;
  m_title->setText("<b>" + QFontMetrics(titleFont()).elidedText(m_fullTitle, Qt::ElideRight, width).toHtmlEscaped() +
                   "</b>");
}

QString stageKeyHints(bool canAsk) {
  QStringList keys{"PgDn next", "P predict"};
  if (canAsk) keys << "A ask the class";
  keys << "R run"
       << "L look for"
       << "F4 form"
       << "F5 leave";
  return keys.join(kStageSeparator);
}

}  // namespace launchlab::ui
