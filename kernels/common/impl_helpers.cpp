#include "common/impl_helpers.h"

#include <algorithm>
#include <stdexcept>

namespace launchlab::kernels {

std::vector<HostArray> makeArrays(const std::vector<ArraySpec>& specs, const Shapes& shapes, DType runDType) {
  if (shapes.size() != specs.size())
    throw std::logic_error(std::to_string(shapes.size()) + " shapes for " + std::to_string(specs.size()) + " arrays");
  std::vector<HostArray> out;
  out.reserve(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i)
    out.emplace_back(specs[i].name, specs[i].dtypeFor(runDType), shapes[i]);
  return out;
}

std::vector<HostArray> BasicWorkload::makeOutputs(const RunSetup& s) const {
  return makeArrays(m_info.outputs, outputShapes(s), s.dtype);
}

std::vector<HostArray> BasicWorkload::allocateInputs(const RunSetup& s) const {
  return makeArrays(m_info.inputs, inputShapes(s), s.dtype);
}

ImplSpec& BasicWorkload::addReference(std::string title, std::string description, ImplFn fn) {
  return addImpl(std::string(kCpuSerial), std::move(title), std::move(description), ImplKind::CpuSerial, std::move(fn));
}

ImplSpec& BasicWorkload::addCpu(std::string id, std::string title, std::string description, ImplFn fn) {
  if (id == kCpuSerial) throw std::logic_error(m_info.id + ": register the reference with addReference");
  return addImpl(std::move(id), std::move(title), std::move(description), ImplKind::CpuParallel, std::move(fn));
}

ImplSpec& BasicWorkload::addGpu(std::string id, std::string title, std::string description, ImplFn fn, ImplKind kind,
                                bool usesLaunchConfig) {
  ImplSpec& s = addImpl(std::move(id), std::move(title), std::move(description), kind, std::move(fn));
  s.usesLaunchConfig = usesLaunchConfig;
  if (!s.run) s.unavailableReason = "this build has no CUDA (configured with LAUNCHLAB_CUDA=OFF or without nvcc)";
  return s;
}

ImplSpec& BasicWorkload::addImpl(std::string id, std::string title, std::string description, ImplKind kind, ImplFn fn) {
  ImplSpec s;
  s.id = std::move(id);
  s.title = std::move(title);
  s.description = std::move(description);
  s.kind = kind;
  s.run = std::move(fn);
  m_impls.push_back(std::move(s));
  return m_impls.back();
}

void BasicWorkload::nameKernels(const std::string& ns, const std::vector<KernelsOfImpl>& kernels) {
  for (const auto& entry : kernels) {  // not a structured binding: clang 14 (the fuzz build) cannot capture one
    const std::string& implId = entry.first;
    auto it = std::find_if(m_impls.begin(), m_impls.end(), [&](const ImplSpec& s) { return s.id == implId; });
    if (it == m_impls.end()) throw std::logic_error(m_info.id + ": nameKernels names no implementation " + implId);
    for (const auto& f : entry.second) it->kernels.push_back(ns + "::" + f);
  }
}

}  // namespace launchlab::kernels
