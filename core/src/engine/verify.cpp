#include "launchlab/engine/verify.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "launchlab/engine/workload.h"

namespace launchlab {

namespace {
/// Whether `got` matches the reference value `ref`: equal (an infinity equals only itself), both NaN, or both finite
/// and within |got - ref| <= atol + rtol |ref|.
bool elementMatches(double ref, double got, const Tolerance& tol) {
  if (ref == got || (std::isnan(ref) && std::isnan(got))) return true;
  if (!std::isfinite(ref) || !std::isfinite(got)) return false;
  return std::fabs(got - ref) <= tol.atol + tol.rtol * std::fabs(ref);
}

template <typename T>
void compareTyped(const HostArray& ref, const HostArray& got, const Tolerance& tol, Verification& v) {
  auto r = ref.view<T>();
  auto g = got.view<T>();
  const std::size_t n = r.size();
  double maxAbs = 0, maxRel = 0;
  std::uint64_t bad = 0;
  // Parallel reduction over chunks; the first-mismatch list is gathered serially afterwards. A chunk equal to the
  // reference bit for bit (most of an exact result) contributes nothing and is skipped after one memcmp: a sweep
  // verifies every point, and this loop was most of a large point's harness time.
  constexpr std::size_t kChunk = 4096;
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
#pragma omp parallel for reduction(max : maxAbs, maxRel) reduction(+ : bad) schedule(static)
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t begin = c * kChunk, end = std::min(n, begin + kChunk);
    if (std::memcmp(&r[begin], &g[begin], (end - begin) * sizeof(T)) == 0) continue;
    for (std::size_t i = begin; i < end; ++i) {
      const double a = static_cast<double>(r[i]);
      const double b = static_cast<double>(g[i]);
      if (a == b || (std::isnan(a) && std::isnan(b))) continue;
      const bool finite = std::isfinite(a) && std::isfinite(b);
      const double d = finite ? std::fabs(a - b) : INFINITY;
      maxAbs = std::max(maxAbs, d);
      maxRel = std::max(maxRel, finite && a != 0 ? d / std::fabs(a) : INFINITY);
      if (!elementMatches(a, b, tol)) ++bad;
    }
  }
  v.maxAbsError = maxAbs;
  v.maxRelError = maxRel;
  v.mismatches = bad;
  v.compared = n;
  for (std::size_t i = 0; bad && i < n && v.firstMismatches.size() < kMaxFirstMismatches; ++i)
    if (!elementMatches(static_cast<double>(r[i]), static_cast<double>(g[i]), tol)) v.firstMismatches.push_back(i);
}
}  // namespace

Verification compareArrays(const HostArray& ref, const HostArray& got, const Tolerance& tol) {
  Verification v;
  if (ref.dtype() != got.dtype() || ref.shape() != got.shape()) {
    v.outcome = Verification::Outcome::Fail;
    v.note = "output '" + got.name() + "' has a different dtype or shape from the reference";
    v.mismatches = std::max(ref.size(), got.size());
    return v;
  }
  visitDType(ref.dtype(), [&](auto t) { compareTyped<decltype(t)>(ref, got, tol, v); });
  v.outcome = v.mismatches ? Verification::Outcome::Fail : Verification::Outcome::Pass;
  std::ostringstream o;
  if (tol.atol == 0 && tol.rtol == 0)
    o << "exact";
  else
    o << "|d| <= " << tol.atol << " + " << tol.rtol << "|ref|";
  v.note = o.str();
  return v;
}

Verification mergeVerifications(const std::vector<Verification>& parts) {
  Verification m;
  m.outcome = Verification::Outcome::Pass;
  for (const auto& p : parts) {
    m.maxAbsError = std::max(m.maxAbsError, p.maxAbsError);
    m.maxRelError = std::max(m.maxRelError, p.maxRelError);
    m.mismatches += p.mismatches;
    m.compared += p.compared;
    if (m.firstMismatches.empty()) m.firstMismatches = p.firstMismatches;
    if (p.outcome == Verification::Outcome::Fail) m.outcome = Verification::Outcome::Fail;
    if (!p.note.empty() && m.note.find(p.note) == std::string::npos) m.note += (m.note.empty() ? "" : "; ") + p.note;
  }
  return m;
}

void declareExpectedOutcome(Verification& v, bool happened, const std::string& lesson) {
  if (!happened) return;
  v.outcome = Verification::Outcome::Demonstration;
  v.note = std::string(kExpectedOutcome) + lesson;
}

void settleDemonstration(Verification& v, const ImplSpec& spec) {
  if (!spec.demonstration) return;
  if (!spec.expectedOutcome.empty() && v.outcome == Verification::Outcome::Fail) return;
  v.outcome = Verification::Outcome::Demonstration;
  if (v.note.empty()) v.note = spec.description;
}

}  // namespace launchlab
