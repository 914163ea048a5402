#pragma once
/// The stage's words for a course experiment: its one header line, the question it asks before the run and, once
/// it has run, the headline: the measure that answers the question, with its label ("sectors per request: 4.00
/// coalesced → 32.00 strided", "lost increments: 4095 of 4096", "overlap 91 %"). Pure; no Qt.
#include <span>
#include <string>

#include "launchlab/course/course.h"
#include "launchlab/course/prediction.h"

namespace launchlab {

struct StageText {
  std::string title;     ///< the experiment's headerTitle(): one line, never cut
  std::string question;  ///< its first prediction's question; "" when it asks none
  /// The first prediction's measure with its label, or "<label>: <why there is none>" ("sectors per request: needs
  /// a GPU"); "" before a run or when the experiment asks nothing.
  std::string headline;
};

/// The header of `e` for its run (every sweep point's, or the one run's; empty before the run).
StageText stageText(const CourseExperiment& e, std::span<const RunPoint> run);

/// The headline of prediction `p` for a measured value: the value's headline with `p.label` in place of the
/// measure's own label, or the label and the reason when there is no value.
std::string headlineOf(const Prediction& p, const MeasureValue& v);

}  // namespace launchlab
