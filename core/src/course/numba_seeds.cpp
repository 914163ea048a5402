// The seed notebooks' own Numba kernels, copied unchanged into the lesson folders (kernels/<workload>/seed_*.py,
// compiled in): each names in its header the experiments that run it and the exercise whose contract it fits.
#include "embedded_course.h"
#include "launchlab/numba/numba.h"

namespace launchlab {

std::vector<SeedNumbaKernel> seedNumbaKernels() {
  std::vector<SeedNumbaKernel> out;
  for (const auto& f : embedded::courseFiles()) {
    const std::string_view path = f.path;
    const auto slash = path.find('/');
    if (slash == std::string_view::npos || path.substr(slash + 1).rfind("seed_", 0) != 0 || !path.ends_with(".py"))
      continue;
    SeedNumbaKernel k;
    k.path = "kernels/" + std::string(path);
    k.text = f.text();
    const auto exercise = pythonHeader(k.text, "exercise").words;
    k.exercise = exercise.empty() ? std::string() : exercise.front();
    k.experiments = pythonHeader(k.text, "experiments").words;
    out.push_back(std::move(k));
  }
  return out;
}

std::optional<SeedNumbaKernel> seedNumbaKernelFor(std::string_view experimentId) {
  for (auto& k : seedNumbaKernels())
    for (const auto& id : k.experiments)
      if (id == experimentId) return k;
  return std::nullopt;
}

}  // namespace launchlab
