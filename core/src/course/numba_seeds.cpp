// The seed notebooks' own Numba kernels, copied unchanged into the lesson folders (kernels/<workload>/seed_*.py,
// compiled in): each names in its header the experiments that run it and the exercise whose contract it fits.
#include <sstream>

#include "embedded_course.h"
#include "launchlab/numba/numba.h"

namespace launchlab {

namespace {

/// The words after "# key:" in the file's leading comment lines.
std::vector<std::string> headerWords(std::string_view text, const std::string& key) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  const std::string prefix = "# " + key + ":";
  for (std::string line; std::getline(in, line) && line.rfind('#', 0) == 0;)
    if (line.rfind(prefix, 0) == 0) {
      std::istringstream w(line.substr(prefix.size()));
      for (std::string word; w >> word;) words.push_back(word);
    }
  return words;
}

}  // namespace

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
    const auto exercise = headerWords(k.text, "exercise");
    k.exercise = exercise.empty() ? std::string() : exercise.front();
    k.experiments = headerWords(k.text, "experiments");
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
