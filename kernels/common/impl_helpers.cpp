#include "common/impl_helpers.h"

namespace launchlab::kernels {

std::vector<HostArray> makeArrays(const std::vector<ArraySpec>& specs, DType dtype, std::vector<std::size_t> shape) {
  std::vector<HostArray> out;
  out.reserve(specs.size());
  for (const auto& s : specs) out.emplace_back(s.name, dtype, shape);
  return out;
}

}  // namespace launchlab::kernels
