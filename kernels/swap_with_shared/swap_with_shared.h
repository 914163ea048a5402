#pragma once
// swap_with_shared (file 001, "Memoria compartida"): the course's first shared-memory kernel. Each segment of
// `segment` elements is reversed through a shared array: every thread copies one element in, __syncthreads(), and
// reads back the element another thread wrote. Without the barrier that read is a race (the demonstration).
#include <cstdint>

#include "launchlab/engine/workload.h"

namespace launchlab::kernels::swap_with_shared {

/// Index within its segment of the element that lands at position k of a segment of `len` elements.
constexpr std::uint64_t mirrored(std::uint64_t k, std::uint64_t len) { return len - 1 - k; }

void cudaShared(ImplContext& ctx);
void cudaSharedNoSync(ImplContext& ctx);

}  // namespace launchlab::kernels::swap_with_shared
