#include "launchlab/verify.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace launchlab {

namespace {
template <typename T>
void compareTyped(const HostArray& ref, const HostArray& got, const Tolerance& tol, Verification& v) {
  auto r = ref.view<T>();
  auto g = got.view<T>();
  const std::size_t n = r.size();
  double maxAbs = 0, maxRel = 0;
  std::uint64_t bad = 0;
  // Parallel reduction over chunks; the first-mismatch list is gathered serially afterwards.
#pragma omp parallel for reduction(max : maxAbs, maxRel) reduction(+ : bad) schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const double a = static_cast<double>(r[i]);
    const double b = static_cast<double>(g[i]);
    if (std::isnan(a) || std::isnan(b)) {
      if (!(std::isnan(a) && std::isnan(b))) {
        ++bad;
        maxAbs = INFINITY;
        maxRel = INFINITY;
      }
      continue;
    }
    const double d = std::fabs(a - b);
    const double rel = a != 0 ? d / std::fabs(a) : (d == 0 ? 0 : INFINITY);
    maxAbs = std::max(maxAbs, d);
    maxRel = std::max(maxRel, rel);
    if (!(d <= tol.atol + tol.rtol * std::fabs(a))) ++bad;
  }
  v.maxAbsError = maxAbs;
  v.maxRelError = maxRel;
  v.mismatches = bad;
  v.compared = n;
  if (bad) {
    for (std::size_t i = 0; i < n && v.firstMismatches.size() < 16; ++i) {
      const double a = static_cast<double>(r[i]);
      const double b = static_cast<double>(g[i]);
      const bool nanBad = (std::isnan(a) || std::isnan(b)) && !(std::isnan(a) && std::isnan(b));
      const bool numBad = !std::isnan(a) && !std::isnan(b) && !(std::fabs(a - b) <= tol.atol + tol.rtol * std::fabs(a));
      if (nanBad || numBad) v.firstMismatches.push_back(i);
    }
  }
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
  if (tol.atol == 0 && tol.rtol == 0) o << "exact";
  else o << "|d| <= " << tol.atol << " + " << tol.rtol << "|ref|";
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

}  // namespace launchlab
