#pragma once
/// Two runs side by side (the window's history A/B): each implementation's median times and their ratio, and each
/// output both runs kept, compared element by element. Plus a run without its arrays, for keeping many runs.
#include <cstddef>
#include <string>
#include <vector>

#include "launchlab/engine/result.h"

namespace launchlab {

/// One implementation in runs A and B (missing from one: its status says so).
struct TimingComparison {
  std::string implId;
  std::string title;
  bool inA = false, inB = false;
  Status statusA = Status::Skipped, statusB = Status::Skipped;
  double computeA = 0, computeB = 0;  ///< kernel (or CPU loop) median, ms; 0 when not measured
  double totalA = 0, totalB = 0;      ///< total median, ms
  double ratio = 0;                   ///< totalB / totalA (0 when either was not measured): below 1, B is faster
};
/// The implementations of A in A's order, then those only B ran.
std::vector<TimingComparison> compareTimings(const RunResult& a, const RunResult& b);

/// One output of one implementation in both runs.
struct OutputComparison {
  std::string implId, output;
  bool compared = false;      ///< both kept it with the same dtype and shape
  double maxAbsDiff = 0;      ///< max |a - b| over the elements (NaN where exactly one is NaN)
  std::size_t differing = 0;  ///< elements that differ
  std::string note;           ///< "identical", "4 of 1000 elements differ, max |A - B| = 1e-06", or why not compared
};
/// Every output kept by A or B, per implementation both ran.
std::vector<OutputComparison> compareOutputs(const RunResult& a, const RunResult& b);

/// The bytes of the arrays a run keeps (inputs and outputs).
std::size_t keptArrayBytes(const RunResult& r);
/// The run without its arrays (everything its JSON form holds): timings, verification, launch, device, request.
RunResult withoutArrays(const RunResult& r);

}  // namespace launchlab
