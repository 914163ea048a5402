#include "launchlab/engine/workload.h"

#include <stdexcept>

#include "launchlab/files/parse.h"

namespace launchlab {

std::string_view plotKindName(PlotKind k) {
  switch (k) {
    case PlotKind::Waveform:
      return "waveform";
    case PlotKind::Scatter:
      return "scatter";
    case PlotKind::Histogram:
      return "histogram";
    case PlotKind::Image:
      return "image";
    case PlotKind::Scalar:
      return "scalar";
    case PlotKind::Series:
      return "series";
    case PlotKind::Points:
      return "points";
    case PlotKind::Timeline:
      return "timeline";
  }
  return "?";
}

std::string_view implKindName(ImplKind k) {
  switch (k) {
    case ImplKind::CpuSerial:
      return kCpuSerial;
    case ImplKind::CpuParallel:
      return "cpu-parallel";
    case ImplKind::Cuda:
      return "cuda";
    case ImplKind::CudaLibrary:
      return "cuda-library";
  }
  return "?";
}

void ImplContext::checkpoint(int rep) {
  if (cancel && cancel->cancelled()) throw Cancelled();
  if (progress) {
    progressState.rep = rep;
    progressState.reps = reps;
    progress(progressState);
  }
}

void ImplContext::poisonHostOutputs() {
  for (auto& o : outputs) o.poison();
  hostPoisonPending = false;
}

const HostArray& ImplContext::input(const std::string& name) const {
  for (const auto& a : inputs)
    if (a.name() == name) return a;
  throw std::logic_error("no input named '" + name + "'");
}

HostArray& ImplContext::output(const std::string& name) {
  for (auto& a : outputs)
    if (a.name() == name) return a;
  throw std::logic_error("no output named '" + name + "'");
}

std::vector<std::vector<std::size_t>> Workload::inputShapes(const RunSetup& setup) const {
  return std::vector<std::vector<std::size_t>>(info().inputs.size(), {static_cast<std::size_t>(setup.n)});
}

Tolerance Workload::tolerance(const RunSetup& setup, std::size_t) const {
  switch (setup.dtype) {
    case DType::F32:
      return {1e-6, 1e-5};
    case DType::F64:
      return {1e-13, 1e-12};
    default:
      return Tolerance::exact();
  }
}

Verification Workload::verify(const RunSetup& setup, const std::vector<HostArray>& reference,
                              const std::vector<HostArray>& got, const ImplSpec&) const {
  std::vector<Verification> parts;
  for (std::size_t i = 0; i < reference.size() && i < got.size(); ++i)
    parts.push_back(compareArrays(reference[i], got[i], tolerance(setup, i)));
  return mergeVerifications(parts);
}

std::vector<std::vector<std::size_t>> Workload::outputShapes(const RunSetup& setup) const {
  return std::vector<std::vector<std::size_t>>(info().outputs.size(), {static_cast<std::size_t>(setup.n)});
}

namespace {
double arrayBytes(const std::vector<ArraySpec>& specs, const std::vector<std::vector<std::size_t>>& shapes,
                  DType runDType) {
  double b = 0;
  for (std::size_t i = 0; i < specs.size() && i < shapes.size(); ++i) {
    double n = 1;
    for (auto d : shapes[i]) n *= double(d);
    b += n * double(dtypeSize(specs[i].dtypeFor(runDType)));
  }
  return b;
}
}  // namespace

double Workload::hostBytes(const RunSetup& setup) const {
  return arrayBytes(info().inputs, inputShapes(setup), setup.dtype) +
         arrayBytes(info().outputs, outputShapes(setup), setup.dtype);
}

const ImplSpec* Workload::findImpl(std::string_view id) const {
  for (const auto& i : impls())
    if (i.id == id) return &i;
  return nullptr;
}

std::pair<double, double> histogramRange(const ArraySpec& spec, const std::map<std::string, std::string>& params,
                                         std::size_t bins) {
  auto get = [&](const std::string& name) -> std::optional<double> {
    if (name.empty()) return std::nullopt;
    auto it = params.find(name);
    return it == params.end() ? std::nullopt : parseDouble(it->second);
  };
  auto lo = get(spec.xMinParam), hi = get(spec.xMaxParam);
  if (lo && hi && *hi > *lo) return {*lo, *hi};
  if (spec.xMin && spec.xMax && *spec.xMax > *spec.xMin) return {*spec.xMin, *spec.xMax};
  return {0.0, double(bins)};
}

ArraySpec resolvedForParams(ArraySpec spec, const std::map<std::string, std::string>& params) {
  const auto it = params.find(spec.referenceParam);
  if (spec.referenceParam.empty() || it == params.end()) return spec;
  for (const auto& c : spec.referenceChoices)
    if (c.choice == it->second) {
      spec.referenceValue = c.value;
      if (c.samplingBox > 0) spec.samplingBox = c.samplingBox;
    }
  return spec;
}

}  // namespace launchlab
