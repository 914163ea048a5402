#pragma once
/// The PTX of the memory lessons' built-in CUDA kernels, compiled in at build time (nvcc -ptx -lineinfo for the
/// build's oldest architecture, kernels/CMakeLists.txt), so the access probes (launchlab/ptx/ptx_instrument.h) can
/// instrument them like a student's kernel. A CPU-only build holds none.
#include <string>
#include <string_view>
#include <vector>

namespace launchlab::kernels {

/// The PTX of every CUDA kernel in kernels/<workload>/<workload>.cu; empty when it was not compiled in.
std::string_view lessonPtx(std::string_view workload);
/// The workloads whose PTX is compiled in.
std::vector<std::string> lessonPtxWorkloads();
/// The virtual architecture it was compiled for ("compute_90"; empty without CUDA).
std::string_view lessonPtxArch();

}  // namespace launchlab::kernels
