#include "launchlab/files/files.h"

#include <filesystem>
#include <stdexcept>

#include "launchlab/files/npy.h"

namespace launchlab::files {

namespace {
/// bins + 1 evenly spaced edges over the histogram's range.
HostArray binEdges(const ArraySpec& spec, const RunResult& r, std::size_t bins) {
  const auto [lo, hi] = histogramRange(spec, r.params, bins);
  HostArray edges(spec.name + "_bin_edges", DType::F64, {bins + 1});
  auto v = edges.view<double>();
  for (std::size_t i = 0; i <= bins; ++i) v[i] = lo + (hi - lo) * double(i) / double(bins);
  return edges;
}

const ArraySpec* histogramSpec(const WorkloadInfo* w, const std::string& name) {
  if (!w) return nullptr;
  for (const auto& s : w->outputs)
    if (s.name == name && s.plot == PlotKind::Histogram) return &s;
  return nullptr;
}
}  // namespace

int saveRunArrays(const RunResult& r, const std::string& dir, const WorkloadInfo* workload) {
  namespace fs = std::filesystem;
  std::error_code ec;
  int count = 0;
  fs::create_directories(fs::path(dir) / "inputs", ec);
  if (ec) throw std::runtime_error("cannot create " + dir + "/inputs: " + ec.message());
  for (const auto& a : r.inputs) {
    npy::save((fs::path(dir) / "inputs" / (a.name() + ".npy")).string(), a);
    ++count;
  }
  for (const auto& impl : r.impls) {
    if (impl.outputs.empty()) continue;
    fs::create_directories(fs::path(dir) / impl.implId, ec);
    if (ec) throw std::runtime_error("cannot create " + dir + "/" + impl.implId + ": " + ec.message());
    for (const auto& a : impl.outputs) {
      npy::save((fs::path(dir) / impl.implId / (a.name() + ".npy")).string(), a);
      ++count;
      if (const ArraySpec* spec = histogramSpec(workload, a.name()); spec && a.size() > 0) {
        const HostArray edges = binEdges(*spec, r, a.size());
        npy::save((fs::path(dir) / impl.implId / (edges.name() + ".npy")).string(), edges);
        ++count;
      }
    }
  }
  return count;
}

}  // namespace launchlab::files
