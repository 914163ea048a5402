#pragma once
// streams_overlap (Numba session 3, "Data movement with streams, and timing with events"): the seed's
// increment_kernel (g[i] += v) on pinned int32, timed as event -> H2D -> kernel -> D2H -> event while the host
// counts its cudaEventQuery polls; the seed's own version (synchronous copy back), a truly asynchronous one,
// pageable synchronous copies, and k streams over chunks whose copies and kernels overlap. Every copy and kernel is
// bracketed by CUDA events and exported as a timeline (launchlab/explorer/timeline.h).
#include <cstdint>
#include <vector>

#include "common/index_math.h"
#include "launchlab/engine/workload.h"
#include "launchlab/explorer/timeline.h"

namespace launchlab::kernels::streams_overlap {

/// The seed's nthreads: the automatic block.
inline constexpr std::uint32_t kSeedThreads = 512;

/// g + v with int32 wrap-around (as the GPU's add does; computed unsigned, so no signed-overflow UB on the host).
LAUNCHLAB_HD std::int32_t increment(std::int32_t g, std::int32_t v) {
  return std::int32_t(std::uint32_t(g) + std::uint32_t(v));
}

/// What one timed repetition of a sequence measured.
struct SequenceSample {
  double eventMs = 0;               ///< stop event - start event
  double cpuApiMs = 0;              ///< host time from before the start event's record to after the stop event's
  double polls = 0;                 ///< cudaEventQuery(stop) calls that answered "not ready"
  std::vector<TimelineSpan> spans;  ///< every copy and kernel, ms after the start event
};

/// Records the medians of the repetitions' event time, API time and poll count, the overlap of the last
/// repetition's timeline (and its per-engine busy times) in ctx.metrics, and writes that timeline into the output
/// `timeline`. Host code, shared by the CUDA variants.
void finishSequences(ImplContext& ctx, const std::vector<SequenceSample>& reps);

/// How many chunks of the array the run's parameters give (each at least one element).
std::uint64_t chunkCount(std::uint64_t n, std::uint64_t chunks);

void cudaSeed(ImplContext& ctx);
void cudaAsync(ImplContext& ctx);
void cudaPageableSync(ImplContext& ctx);
void cudaStreams(ImplContext& ctx);

}  // namespace launchlab::kernels::streams_overlap
