#pragma once
/// The kernels' resource usage recorded by the build (launchlab/explorer/kernel_resources.h), compiled into the front
/// ends (library launchlab_kernel_resources): generated from the kernels library by cuobjdump in a CUDA build, the copy
/// committed in resources/kernel_resources.json otherwise.
#include <string_view>

namespace launchlab::kernels {

/// The JSON document (schema launchlab.kernel_resources).
std::string_view kernelResourcesJson();
/// Where it came from: "this build, by cuobjdump --dump-resource-usage" or "resources/kernel_resources.json".
std::string_view kernelResourcesJsonOrigin();

}  // namespace launchlab::kernels
