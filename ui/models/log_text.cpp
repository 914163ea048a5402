#include "models/log_text.h"

#include <QLocale>
#include <QStringList>
#include <algorithm>

#include "launchlab/engine/expected_outcome.h"
#include "models/text.h"

namespace launchlab::ui {

namespace {
QString seconds(double s) { return QString::number(s, 'f', 2); }
constexpr auto kSharingLead = "GPU shared: ";
}  // namespace

// ---- Banners ----

QString deviceBannerText(const DeviceStatus& d, const std::string& remoteHost) {
  const QString host = q(remoteHost).toHtmlEscaped();
  if (!d.available)
    return "<b>CUDA implementations are off on " + (host.isEmpty() ? QString("this machine") : host + " (over SSH)") +
           ":</b> " + q(d.reason).toHtmlEscaped() + ". CPU implementations run; CUDA rows say why they were skipped.";
  const auto& i = d.info;
  const QString which =
      d.devices.size() > 1 ? QString("device %1 of %2, ").arg(i.index).arg(d.devices.size()) : QString();
  // A remote GPU's arrays come back over the connection: the plots are drawn from those host copies.
  const QString where = host.isEmpty() ? QString() : " on <b>" + host + "</b> (over SSH)";
  const QString tail = host.isEmpty() ? QString() : " Plots are drawn from host copies of its arrays.";
  return QString("GPU: <b>%1</b>" + where + " (" + which +
                 "compute capability %2.%3, %4 SMs, %5 GiB, driver %6.%7) runs the CUDA implementations." + tail)
      .arg(q(i.name).toHtmlEscaped())
      .arg(i.ccMajor)
      .arg(i.ccMinor)
      .arg(i.multiprocessors)
      .arg(double(i.totalGlobalMem) / double(1ull << 30), 0, 'f', 1)
      .arg(i.driverVersion / 1000)
      .arg((i.driverVersion % 1000) / 10);
}

QString runProblemsText(const RunResult& r) {
  if (r.status != Status::Ok) return "The run failed: " + q(r.reason).toHtmlEscaped();
  QStringList bad;
  for (const auto& i : r.impls) {
    if (i.status == Status::Failed)
      bad << q(i.title) + ": " + q(i.reason);
    else if (i.status == Status::Ok && i.verification.outcome == Verification::Outcome::Fail)
      bad << q(i.title) + QString(": %1 mismatches against cpu-serial").arg(i.verification.mismatches);
  }
  return bad.join("<br>").toHtmlEscaped().replace("&lt;br&gt;", "<br>");
}

QString runLessonsText(const RunResult& r) {
  if (r.status != Status::Ok) return {};
  // One sentence per lesson: implementations that showed the same outcome are named together, once.
  std::vector<std::pair<QString, QStringList>> lessons;  // sentence, the implementations that showed it
  for (const auto& i : r.impls) {
    const Verification& v = i.verification;
    if (!i.showsLesson()) continue;
    const QString count = QString("%1 of %2 values differ from the reference")
                              .arg(QLocale(QLocale::English).toString(qulonglong(v.mismatches)),
                                   QLocale(QLocale::English).toString(qulonglong(v.compared)));
    // A declared expected outcome's note is the whole sentence, with its count; an undeclared one gets the count.
    const QString sentence = declaredLesson(i) ? q(lessonSentence(i))
                                               : (v.note.empty() ? count : q(v.note) + " (" + count + ")") +
                                                     " \xE2\x80\x94 the outcome this demonstration shows";
    auto it = std::find_if(lessons.begin(), lessons.end(), [&](const auto& l) { return l.first == sentence; });
    if (it == lessons.end()) it = lessons.insert(lessons.end(), {sentence, {}});
    it->second << "<b>" + q(i.title).toHtmlEscaped() + "</b>";
  }
  QStringList lines;
  for (const auto& [sentence, names] : lessons) {
    QString who =
        names.size() == 1 ? names.front() : names.mid(0, names.size() - 1).join(", ") + " and " + names.back();
    lines << who + ": " + sentence.toHtmlEscaped();
  }
  return lines.join("<br>");
}

QString runSharingText(const RunResult& r) {
  if (!r.sharing.shared) return {};
  return (kSharingLead + q(r.sharing.note) +
          ". These times include its share of the GPU: run again when the GPU is free to compare them.")
      .toHtmlEscaped();
}

bool isRunWarningText(const QString& bannerText) { return bannerText.contains(kSharingLead); }

QString cannotRunText(const FormCheck& c) { return "Cannot run: " + q(c.firstError()).toHtmlEscaped(); }

QString presetWorkloadMissingText(const QString& preset, const std::string& workload) {
  return "Preset " + preset.toHtmlEscaped() + " is for workload " + q(workload).toHtmlEscaped() +
         ", which this build does not have";
}

// ---- Log lines ----

QString runStartLine(quint64 id, const RunRequest& req, const std::string& dtype) {
  return QString("job %1: run %2, n = %3 %4, block %5, grid %6, %7 implementation(s), %8 reps")
      .arg(id)
      .arg(q(req.workload))
      .arg(req.n ? *req.n : 0)
      .arg(q(dtype))
      .arg(req.launch.block ? q(formatDim3(*req.launch.block)) : QString("auto"))
      .arg(req.launch.grid ? q(formatDim3(*req.launch.grid)) : QString("auto"))
      .arg(req.impls.size())
      .arg(req.reps);
}

QString implResultLine(const ImplResult& i) {
  QString line = QString("  %1: %2").arg(q(i.implId), q(std::string(statusName(i.status))));
  if (i.status != Status::Ok) return line + ": " + q(i.reason);
  line += QString(", total %1").arg(q(durationText(i.totalMedianMs())));
  if (i.bandwidthGBs > 0) line += QString(", %1 GB/s").arg(i.bandwidthGBs, 0, 'g', 4);
  line += ", " + q(std::string(outcomeName(i.verification.outcome)));
  if (!i.launchNote.empty()) line += " (" + q(i.launchNote) + ")";
  return line;
}

QStringList programOutputLines(const std::string& output) {
  constexpr int kMaxLines = 200;
  QStringList text = q(output).split('\n');
  while (!text.isEmpty() && text.back().trimmed().isEmpty()) text.pop_back();
  if (text.isEmpty()) return {};
  QStringList lines{"  the program printed:"};
  for (int k = 0; k < text.size() && k < kMaxLines; ++k) lines << "  | " + text[k];
  if (text.size() > kMaxLines) lines << QString("  | ... (%1 more lines)").arg(text.size() - kMaxLines);
  return lines;
}

QString jobFinishedLine(quint64 id, const RunResult& r, double wallSeconds, double computeSeconds, qint64 shownMs) {
  return QString("job %1 %2 in %3 s (compute thread %4 s); shown in %5 ms")
      .arg(id)
      .arg(r.status == Status::Ok ? "finished" : "failed")
      .arg(seconds(wallSeconds))
      .arg(seconds(computeSeconds))
      .arg(shownMs);
}

QString firstRunNote(std::uint64_t quickSize, const std::string& formSize) {
  return QString("first run at N = %1 so that it takes under a second; your size %2 stays in the form for the next run")
      .arg(q(sizeText(quickSize)), q(formSize));
}

QString coldStartLine(qint64 ms) { return QString("cold start to first plot: %1 ms").arg(ms); }

QString staleDroppedLine(quint64 id) { return QString("dropped the result of superseded job %1").arg(id); }

QString sweepStartLine(quint64 id, const QString& implId, std::size_t blocks, std::size_t grids) {
  if (grids > 0)
    return QString("job %1: block \u00D7 grid sweep of %2 over %3 block sizes \u00D7 %4 grids")
        .arg(id)
        .arg(implId)
        .arg(blocks)
        .arg(grids);
  return QString("job %1: block-size sweep of %2 over %3 block sizes").arg(id).arg(implId).arg(blocks);
}

QString nSweepStartLine(quint64 id, const QString& gpuImpl, std::size_t cpuImpls, const std::vector<std::string>& ns) {
  return QString("job %1: N sweep of %2 against %3 CPU implementation%4 over %5 sizes (%6 \u2026 %7)")
      .arg(id)
      .arg(gpuImpl)
      .arg(cpuImpls)
      .arg(cpuImpls == 1 ? "" : "s")
      .arg(ns.size())
      .arg(ns.empty() ? QString() : q(ns.front()), ns.empty() ? QString() : q(ns.back()));
}

QString sweepPointLine(int index, int count, const SweepPoint& p, bool nAxis) {
  QString line =
      nAxis && !p.values.empty()
          ? QString("sweep %1/%2: N = %3, %4: ").arg(index + 1).arg(count).arg(q(p.values.front()), q(p.implId))
          : QString("sweep %1/%2: block %3: ").arg(index + 1).arg(count).arg(q(formatDim3(p.block)));
  if (p.status == Status::Ok)
    return line + QString("%1 ms, %2 GB/s").arg(p.kernelMs, 0, 'g', 4).arg(p.bandwidthGBs, 0, 'g', 4);
  return line + q(std::string(statusName(p.status))) + ": " + q(p.reason);
}

QString sweepFinishedLine(bool cancelled, double secs) {
  return QString("sweep %1 in %2 s").arg(cancelled ? "cancelled" : "finished").arg(seconds(secs));
}

// ---- Status bar, notes and tooltips ----

QString runStatusText(const RunResult& r, double wallSeconds) {
  return r.status == Status::Ok ? QString("Done in %1 s").arg(seconds(wallSeconds)) : "Failed: " + q(r.reason);
}

QString sweepNotesText(const std::vector<SweepPoint>& points) {
  QStringList notes;
  for (const auto& pt : points)
    if (pt.status != Status::Ok) notes << QString("%1: %2").arg(pt.threads).arg(q(pt.reason));
  if (notes.isEmpty()) return {};
  return "Points without a measurement: " + notes.mid(0, 3).join("; ") +
         (notes.size() > 3 ? QString(" (+%1 more, see the log)").arg(notes.size() - 3) : QString());
}

QString runActionTip(const FormCheck& c) {
  return c.ok() ? QString("Run the selected implementations (Ctrl+R)")
                : "Fix the marked fields first: " + q(c.firstError());
}

QString sweepButtonTip() {
  return "Runs the selected CUDA variant at 32, 64, \xE2\x80\xA6, 1024 threads per block (whole warps) "
         "and plots time and GB/s against block size.";
}

QString sweepBlockedReason(const DeviceStatus& d, bool hasSweepableImpl, bool formOk, bool busy) {
  if (!d.available) return "No GPU here: " + q(d.reason);
  if (!hasSweepableImpl) return "This workload has no CUDA implementation that takes a block size";
  if (!formOk) return "Fix the marked parameters first";
  if (busy) return "A job is running";
  return {};
}

}  // namespace launchlab::ui
