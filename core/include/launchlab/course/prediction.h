#pragma once
/// Predict, run, explain: what a course experiment asks before its run (a question with the kind of answer), the
/// named measure that answers it from the run's results (never a number written in the course file), how far off a
/// prediction was, and the stage's header line and headline. Plain data and pure functions: no Qt, no CUDA; the
/// window, the command line and a class poll share them. Format: docs/COURSE_FORMAT.md ("predict").
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/engine/result.h"

namespace launchlab {

/// The kind of answer a question takes: a number (with its unit, scale and sane range) or one of a few choices.
struct AnswerKind {
  std::vector<std::string> choices;  ///< non-empty: a choice question (the measure's possible values)
  std::string unit;                  ///< number: "×", "ms", "%", "" for a count
  bool logScale = false;             ///< number: a ratio or a time, compared by factor
  double min = 0, max = 0;           ///< number: the range a prediction may take (min < max; min > 0 on a log scale)
  bool isChoice() const { return !choices.empty(); }
  bool operator==(const AnswerKind&) const = default;
};

/// A measure of the vocabulary (measureNames()) and its arguments; which arguments each takes is in
/// docs/COURSE_FORMAT.md and checked when the course file is read.
struct MeasureSpec {
  std::string name;                ///< "kernel_ratio", "counter", "fastest", …
  std::string of, over, vs;        ///< implementation ids: the one measured, the one it is divided by or set beside
  std::vector<std::string> among;  ///< fastest: the candidates (empty: every implementation that ran)
  std::string time;                ///< "kernel" or "total" ("": the measure's default)
  std::string counter;             ///< counter, counter_ratio: a counter id (launchlab/engine/counters.h)
  std::string metric;              ///< metric, metric_ratio: a metric the implementation reports; scalar: the output
  std::string outOf;               ///< metric: the whole it is part of ("n", or another metric's name)
  std::map<std::string, std::string> at, overAt;  ///< point_ratio: the sweep points (field -> value) compared
  bool operator==(const MeasureSpec&) const = default;
};

struct Prediction {
  std::string question;  ///< one line, asked before the run
  AnswerKind answer;
  MeasureSpec measure;
  std::string label;    ///< the headline's label ("lost increments"); "": the measure's own
  std::string explain;  ///< two or three sentences: why, in the measurement's terms
  bool operator==(const Prediction&) const = default;
};

/// The predictions as a course file's "predict" (an object for one, a list for more), as JSON text.
std::string predictionsJson(const std::vector<Prediction>& predictions);

/// The first implementation id the predictions name (of, over, vs, among, a fastest's choices) that is not one of
/// `implIds` (the workload's), as "predict[1].of: unknown implementation 'cuda-x' (the workload has a, b)"; "" when
/// every one is known. The course file checks ids against a request that names its implementations; this checks a
/// request of "all" against the workload once it is known.
std::string unknownImplementation(const std::vector<Prediction>& predictions, const std::vector<std::string>& implIds);

/// The measure names, in the order docs/COURSE_FORMAT.md lists them.
std::vector<std::string> measureNames();
/// Whether the measure answers with one of a few values (fastest: an implementation id; verified: "yes"/"no").
bool measureIsChoice(std::string_view name);

/// One run of an experiment: its sweep point's field values (empty for a single run) and its result.
struct RunPoint {
  std::map<std::string, std::string> at;
  const RunResult* result = nullptr;
};

/// A measure's value from a run, or why there is none.
struct MeasureValue {
  std::string label;      ///< what is measured: "sectors per request", "kernel time strided / coalesced"
  double number = 0;      ///< number measures
  std::string choice;     ///< choice measures: the measured value (an implementation id, "yes"/"no")
  std::string unit;       ///< as the answer's unit
  std::string headline;   ///< the measure with its label: "sectors per request: 4.00 coalesced → 32.00 strided"
  std::string reason;     ///< set when there is no value: "needs a GPU", "cuda-race did not run", …
  bool needsGpu = false;  ///< no value because a GPU implementation was skipped (no device here)
  bool ok() const { return reason.empty(); }
};

/// Computes the measure from the run (for a sweep, every point's run). Never throws.
MeasureValue measure(const MeasureSpec& spec, std::span<const RunPoint> run);
inline MeasureValue measure(const MeasureSpec& spec, const RunResult& r) {
  const RunPoint one{{}, &r};
  return measure(spec, std::span<const RunPoint>(&one, 1));
}

/// A prediction as given: a number, or one of the choices.
struct Guess {
  double number = 0;
  std::string choice;
};
/// Reads a prediction for `p` from text ("4", "4.5x", "1e3", "91 %", a choice): nullopt and one line in `error` when
/// it is not a number in the answer's range or not one of its choices.
std::optional<Guess> parseGuess(const Prediction& p, std::string_view text, std::string* error = nullptr);

/// How far off a prediction was.
struct GuessScore {
  bool comparable = false;  ///< false when the measure has no value
  bool close = false;       ///< within 2× (log scale), within a tenth of the range (linear), the right choice
  double factor = 1;        ///< number: measured / guess (> 1: the guess was too low)
  std::string text;         ///< "3.1× too low", "within 2×: 1.4× too high", "right", "wrong: it is CUDA strided"
};
GuessScore scoreGuess(const Prediction& p, const MeasureValue& measured, const Guess& guess);

/// A number as the stage prints it in `unit` ("4.8×", "0.057 ms", "91 %", "4095").
std::string formatMeasure(double value, std::string_view unit);

}  // namespace launchlab
