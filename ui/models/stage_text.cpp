#include "models/stage_text.h"

#include <QStringList>
#include <span>

#include "launchlab/course/course_headline.h"
#include "launchlab/engine/workload.h"
#include "models/chart_data.h"
#include "models/counters_text.h"
#include "models/text.h"

namespace launchlab::ui {

namespace {}  // namespace

QString positionText(const CoursePosition& p) {
  return p.index < 0 ? QString() : QString("%1 / %2").arg(p.index + 1).arg(p.count);
}

QString stageTitleLine(const QString& position, const QString& title) {
  return position.isEmpty() ? title : position + " \u2014 " + title;
}

StageRunText stageRunText(const RunResult* shown, const std::string& workload, bool preview) {
  StageRunText t;
  t.current = shown && !workload.empty() && shown->workload == workload;
  if (!t.current) return t;
  t.launch = QString("n = %1 %2, %3").arg(countText(shown->n), q(shown->dtype), q(launchText(*shown)));
  // A preview is said on the header line (its size is there): the caption's lines are the plot's height.
  if (preview) t.launch += kStageSeparator + "preview (Ctrl+R: full size)";
  t.note = countersLine(*shown);  // the lesson's counter stays on stage, where the tables are folded away
  return t;
}

QString headlineTiming(const RunResult& r) {
  const ImplResult* best = nullptr;
  for (const auto& i : r.impls)
    if (i.status == Status::Ok && i.totalMedianMs() > 0 && (!best || i.totalMedianMs() < best->totalMedianMs()))
      best = &i;
  if (!best) return {};
  QString s = "fastest: " + q(best->title) + " " + q(durationText(best->totalMedianMs()));
  if (best->speedupTotal > 0 && best->implId != kCpuSerial)
    s += ", " + q(speedupText(best->speedupTotal)) + " vs CPU serial";
  return s;
}

QString stageHeadline(const CourseExperiment* e, const RunResult& r) {
  if (!e) return headlineTiming(r);
  const RunPoint one{{}, &r};
  return q(stageText(*e, std::span<const RunPoint>(&one, 1)).headline);
}

QString stageCaption(const QString& lookFor, const QString& note) {
  QStringList parts;
  for (const QString& p : {lookFor.isEmpty() ? QString() : "Look for: " + lookFor, note})
    if (!p.isEmpty()) parts << p;
  return parts.join(kStageSeparator);
}

QString previewNote(std::uint64_t n, std::uint64_t full) {
  return QString("preview at N = %1 of the experiment's %2: Run (Ctrl+R) for the full size")
      .arg(countText(n), countText(full));
}

}  // namespace launchlab::ui
