#pragma once
/// What the window says in its log, banners, status bar and tooltips, as plain functions of the data (no
/// widgets): one place for the wording, tested by comparing strings. Banner texts are rich text (HTML-escaped
/// where they quote names or reasons); log lines are plain text.
#include <QString>
#include <QStringList>
#include <cstdint>
#include <string>
#include <vector>

#include "launchlab/engine/device.h"
#include "launchlab/engine/result.h"
#include "launchlab/explorer/sweep.h"
#include "models/chart_data.h"
#include "models/form_state.h"

namespace launchlab::ui {

// ---- Banners ----

/// The device banner: the GPU that runs the CUDA implementations, or why they are off; on `remoteHost` (over SSH,
/// plots drawn from host copies) when that is not "".
QString deviceBannerText(const DeviceStatus& d, const std::string& remoteHost = {});
/// The error banner after a run: the run's failure, or each failed / mismatching implementation on a line of
/// its own; "" when nothing went wrong.
QString runProblemsText(const RunResult& r);
/// The lesson banner (amber, Banner::Level::Lesson) after a run whose demonstrations produced the outcome they exist
/// to show (a race lost increments, a grid too small left elements unwritten): one sentence per lesson, with its
/// count, naming in bold the implementations that showed it, each once; "" when none did. A real failure stays in
/// runProblemsText (red).
QString runLessonsText(const RunResult& r);
/// The sharing warning (amber) after a run measured while another process used the GPU (RunResult::sharing): what
/// was seen, and that the times include that process's share; "" for a run that had the GPU to itself.
QString runSharingText(const RunResult& r);
/// Whether a banner's text holds the sharing warning above: a run's, which the next run replaces or takes away (as
/// it does a banner at Banner::Level::Lesson).
bool isRunWarningText(const QString& bannerText);
/// "Cannot run: size: malformed size" (the form's first error).
QString cannotRunText(const FormCheck& c);
/// A preset names a workload this build lacks.
QString presetWorkloadMissingText(const QString& preset, const std::string& workload);

// ---- Log lines ----

/// "job 3: run vector_add, n = 65536 f32, block 256, grid auto, 2 implementation(s), 5 reps".
QString runStartLine(quint64 id, const RunRequest& req, const std::string& dtype);
/// "  cuda-grid-stride: ok, total 1.23 ms, 456 GB/s, pass (launch note)", or the reason it did not run.
QString implResultLine(const ImplResult& i);
/// "job 3 finished in 1.25 s (compute thread 1.20 s); shown in 12 ms".
QString jobFinishedLine(quint64 id, const RunResult& r, double wallSeconds, double computeSeconds, qint64 shownMs);
/// What a run's code printed in the worker (a kernel's printf), as log lines: a heading, then each line indented
/// with "| "; at most 200 lines, then how many more. None for no output.
QStringList programOutputLines(const std::string& output);
/// Why the first run is smaller than the size the form held.
QString firstRunNote(std::uint64_t quickSize, const std::string& formSize);
QString coldStartLine(qint64 ms);
QString staleDroppedLine(quint64 id);
/// "job 4: block-size sweep of cuda-grid-stride over 32 block sizes".
QString sweepStartLine(quint64 id, const QString& implId, std::size_t blocks, std::size_t grids = 0);
/// "job 4: N sweep of cuda-one-per-thread against 2 CPU implementations over 9 sizes (2^10 … 2^26)"
QString nSweepStartLine(quint64 id, const QString& gpuImpl, std::size_t cpuImpls, const std::vector<std::string>& ns);
/// "sweep 2/32: block 64: 0.123 ms, 456 GB/s", or the point's status and reason.
QString sweepPointLine(int index, int count, const SweepPoint& p, bool nAxis = false);
QString sweepFinishedLine(bool cancelled, double seconds);

// ---- Status bar, notes and tooltips ----

/// "Done in 1.25 s" or "Failed: reason".
QString runStatusText(const RunResult& r, double wallSeconds);
/// The points of a sweep that have no measurement, the first three with their reason; "" when all measured.
QString sweepNotesText(const std::vector<SweepPoint>& points);
/// The Run action's tooltip: what it does, or the first field to fix.
QString runActionTip(const FormCheck& c);
/// The sweep button's tooltip when it is enabled.
QString sweepButtonTip();
/// Why a sweep cannot start now ("" when it can), in the order a user would fix things.
QString sweepBlockedReason(const DeviceStatus& d, bool hasSweepableImpl, bool formOk, bool busy);

}  // namespace launchlab::ui
