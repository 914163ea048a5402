#pragma once
/// Comparison of an implementation's output with the reference.
#include "launchlab/engine/array.h"
#include "launchlab/engine/result.h"

namespace launchlab {

/// Element i matches when |got - ref| <= atol + rtol * |ref| (NaN never matches unless both are NaN).
/// Integer arrays with atol = rtol = 0 compare exactly.
struct Tolerance {
  double atol = 0;
  double rtol = 0;
  static Tolerance exact() { return {0, 0}; }
};

/// Compares two arrays of the same shape. A shape or dtype mismatch is reported as a failure with a note.
Verification compareArrays(const HostArray& ref, const HostArray& got, const Tolerance& tol);
/// Merges per-output verifications of one implementation (worst of each figure).
Verification mergeVerifications(const std::vector<Verification>& parts);

}  // namespace launchlab
