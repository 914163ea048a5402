#pragma once
/// What the stage's header says, as pure functions of the course position, the experiment and the run on screen:
/// the title line, the run's line, the headline and the caption. The header widget (stage.h) and the stage's
/// controller only place these strings; a change of wording is this file and its test.
#include <QString>
#include <cstdint>
#include <string>

#include "launchlab/course/course.h"
#include "launchlab/engine/result.h"
#include "models/course_state.h"

namespace launchlab::ui {

/// The separator between the parts of one header line.
inline const QString kStageSeparator = QStringLiteral("  \u00B7  ");

/// "7 / 60" for the 7th of 60 experiments; "" outside the course.
QString positionText(const CoursePosition& p);
/// The title line: "7 / 60 — Coalescing" in the course, the title alone outside it.
QString stageTitleLine(const QString& position, const QString& title);

/// The run's part of the header: its size and launch (right of the title), and a note (the lesson's counters).
struct StageRunText {
  bool current = false;  ///< the run on screen is of the workload on show: the texts below are its
  QString launch;        ///< "n = 1,048,576 float32, grid 4096 x block 256"; "  ·  preview …" for a quick run
  QString note;          ///< the lesson's counters line
};
/// The header's run texts for `shown` (nullptr: none) when it is a run of `workload`; `preview`: a quick run
/// (a smaller N than the form's), said on the line where the size is.
StageRunText stageRunText(const RunResult* shown, const std::string& workload, bool preview);

/// "fastest: CUDA grid-stride 1.20 ms, 41.3x vs CPU serial" for the implementations that ran; "" when none did.
QString headlineTiming(const RunResult& r);
/// The headline for run `r`: the measure that answers experiment `e`'s question (core's stageText), or for a
/// workload outside the course (`e` null) the fastest implementation.
QString stageHeadline(const CourseExperiment* e, const RunResult& r);
/// The caption under the headline: "Look for: …" and the note, joined; "" when both are empty.
QString stageCaption(const QString& lookFor, const QString& note);

/// "preview at N = 1,048,576 of the experiment's 10,485,760: Run (Ctrl+R) for the full size".
QString previewNote(std::uint64_t n, std::uint64_t full);

}  // namespace launchlab::ui
