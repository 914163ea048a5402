#include "plots/lesson_data.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "launchlab/ptx/ptx_counters.h"
#include "models/counters_text.h"

namespace launchlab::ui {

namespace {

constexpr const char* kFirstCall = "first_call_ms";
constexpr const char* kLaterCall = "later_call_ms";
constexpr const char* kCompile = "compile_ms";

const ImplResult* findImpl(const RunResult& r, const std::string& id) {
  for (const auto& i : r.impls)
    if (i.implId == id) return &i;
  return nullptr;
}

}  // namespace

bool timesFirstCall(const WorkloadInfo& info) {
  // go_fast's NVRTC variant compiles at the start of its run, as Numba compiles at the first call.
  return info.id == "go_fast";
}

FirstCallBars firstCallBars(const RunResult& r) {
  FirstCallBars b;
  for (const auto& i : r.impls) {
    const auto first = i.metrics.find(kFirstCall), later = i.metrics.find(kLaterCall);
    if (i.status != Status::Ok || first == i.metrics.end() || later == i.metrics.end()) continue;
    b.implId = i.implId;
    b.impl = i.title.empty() ? i.implId : i.title;
    b.firstMs = first->second;
    b.laterMs = later->second;
    if (auto c = i.metrics.find(kCompile); c != i.metrics.end()) b.compileMs = c->second;
    b.ratio = b.laterMs > 0 ? b.firstMs / b.laterMs : 0;
    return b;
  }
  const std::string cpu =
      " A CPU variant is compiled ahead of time: its first repetition is its thread team "
      "starting, not a compile, so it is not drawn as one.";
  for (const auto& i : r.impls)
    if (i.gpu) {
      const std::string title = i.title.empty() ? i.implId : i.title;
      b.implId = i.implId;
      b.impl = title;
      b.missing = i.status == Status::Ok
                      ? title + " ran without timing its first call (a run file from an older LaunchLab)." + cpu
                      : "The first call is a GPU compile: " + title + " did not run here (" + i.reason + ")." + cpu;
      return b;
    }
  b.missing =
      "The first call is timed by the CUDA implementation compiled at run time (NVRTC), which this run did "
      "not include: tick it and run on a GPU." +
      cpu;
  return b;
}

std::string msText(double ms) {
  char buf[48];
  const int digits = ms > 0 ? std::max(0, 2 - int(std::floor(std::log10(ms)))) : 0;
  std::snprintf(buf, sizeof buf, "%.*f ms", digits, ms);
  return buf;
}

std::string timesText(double ratio) {
  char buf[48];
  std::snprintf(buf, sizeof buf, ratio >= 10 ? "%.0f\xC3\x97" : "%.1f\xC3\x97", ratio);
  return buf;
}

bool isSectorPicture(const WorkloadInfo& info, const ArraySpec& spec) {
  return info.id == "coalescing" && spec.name == "sectors";
}

std::vector<SectorPanel> sectorPanels(const HostArray& sectors, const RunResult& r) {
  if (sectors.shape().size() != 2 || sectors.dtype() != DType::I32) return {};
  const std::size_t lanes = sectors.shape()[0], width = sectors.shape()[1];
  const auto v = sectors.view<std::int32_t>();
  // The between column: -1 in every lane.
  std::size_t between = width;
  for (std::size_t c = 0; c < width && between == width; ++c) {
    bool all = lanes > 0;
    for (std::size_t l = 0; l < lanes && all; ++l) all = v[l * width + c] == -1;
    if (all) between = c;
  }
  if (between == width || between == 0 || between + 1 == width) return {};
  std::vector<SectorPanel> out;
  const std::pair<const char*, std::size_t> sides[] = {{"cuda-coalesced", 0}, {"cuda-strided", between + 1}};
  for (const auto& [id, first] : sides) {
    SectorPanel p;
    p.implId = id;
    p.lanes = lanes;
    p.cols = first == 0 ? between : width - first;
    p.cells.resize(p.lanes * p.cols);
    std::size_t used = 0;
    for (std::size_t c = 0; c < p.cols; ++c) {
      bool any = false;
      for (std::size_t l = 0; l < lanes; ++l) {
        const std::int32_t x = v[l * width + first + c];
        p.cells[l * p.cols + c] = x;
        any = any || x > 0;
      }
      used += any;
    }
    p.sectorsPerRequest = double(used);
    const ImplResult* impl = findImpl(r, id);
    p.title = impl && !impl->title.empty() ? impl->title : id;
    if (impl && impl->counters)
      if (auto m = impl->counters->values.find("sectors_per_request"); m != impl->counters->values.end()) {
        p.sectorsPerRequest = m->second;
        p.measured = true;
        p.source = impl->counters->source;
      }
    out.push_back(std::move(p));
  }
  return out;
}

std::string sectorsPerRequestText(const SectorPanel& p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f sectors / request", p.sectorsPerRequest);
  return buf;
}

std::string sectorsSourceText(const SectorPanel& p) {
  if (!p.measured) return "counted from warp 0's map";
  const std::string label = counterSourceLabel(p.source).toStdString();
  if (p.source == ptx::kHardwareSource) return "measured by the " + label;
  return label.empty() ? "measured by the counters" : "measured " + label;
}

}  // namespace launchlab::ui
