#include "launchlab/engine/result.h"

#include <algorithm>

namespace launchlab {

std::string_view statusName(Status s) {
  switch (s) {
    case Status::Ok:
      return "ok";
    case Status::Skipped:
      return "skipped";
    case Status::Failed:
      return "failed";
  }
  return "?";
}

std::string_view phaseName(Phase p) {
  switch (p) {
    case Phase::H2D:
      return "h2d";
    case Phase::Kernel:
      return "kernel";
    case Phase::D2H:
      return "d2h";
    case Phase::Cpu:
      return "cpu";
    case Phase::Total:
      return "total";
  }
  return "?";
}

std::string_view outcomeName(Verification::Outcome o) {
  switch (o) {
    case Verification::Outcome::Pass:
      return "pass";
    case Verification::Outcome::Fail:
      return "fail";
    case Verification::Outcome::Reference:
      return "reference";
    case Verification::Outcome::Demonstration:
      return "demonstration";
    case Verification::Outcome::NotChecked:
      return "not-checked";
  }
  return "?";
}

PhaseStats summarize(std::vector<double> s) {
  PhaseStats st;
  st.samples = static_cast<int>(s.size());
  if (s.empty()) return st;
  std::sort(s.begin(), s.end());
  st.minMs = s.front();
  st.maxMs = s.back();
  std::size_t m = s.size() / 2;
  st.medianMs = s.size() % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
  return st;
}

double ImplResult::computeMedianMs() const {
  auto it = phases.find(gpu ? Phase::Kernel : Phase::Cpu);
  return it == phases.end() ? 0 : it->second.medianMs;
}

double ImplResult::totalMedianMs() const {
  auto it = phases.find(Phase::Total);
  return it == phases.end() ? 0 : it->second.medianMs;
}

bool RunResult::cudaFault() const {
  return std::any_of(impls.begin(), impls.end(), [](const ImplResult& i) { return i.cudaFault; });
}

bool ImplResult::showsLesson() const {
  return status == Status::Ok && verification.outcome == Verification::Outcome::Demonstration &&
         (verification.mismatches > 0 || !demonstration);
}

bool RunResult::allPassed() const {
  if (status == Status::Failed) return false;
  for (const auto& i : impls)
    if (i.status == Status::Failed || !i.verification.passed()) return false;
  return true;
}

const ImplResult* RunResult::find(std::string_view id) const {
  for (const auto& i : impls)
    if (i.implId == id) return &i;
  return nullptr;
}

}  // namespace launchlab
