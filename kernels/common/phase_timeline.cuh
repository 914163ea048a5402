#pragma once
/// Timing of GPU work made of several steps on one stream, copies and kernels interleaved (as when a program
/// copies every intermediate result back to the host): each step is bracketed by CUDA events and its time is
/// added to its phase (H2D, Kernel or D2H) for the repetition. For .cu files.
#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "common/cuda_check.h"
#include "launchlab/engine/workload.h"

namespace launchlab::gpu {

class PhaseTimeline {
 public:
  explicit PhaseTimeline(cudaStream_t stream) : m_stream(stream) {}

  /// Starts a repetition.
  void begin() {
    m_steps.clear();
    m_used = 0;
    mark();
  }
  /// Enqueues one step (`enqueue()` issues copies and/or kernels on the stream) and charges it to `phase`.
  template <typename F>
  void step(Phase phase, F&& enqueue) {
    enqueue();
    LAUNCHLAB_CUDA_CHECK_LAUNCH();
    mark();
    m_steps.push_back(phase);
  }
  /// Waits for the stream; when `record`, adds one sample per phase H2D, Kernel and D2H to ctx (0 for a phase
  /// without steps, so every repetition has all three and the total is their per-repetition sum).
  void end(ImplContext& ctx, bool record) {
    LAUNCHLAB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
    if (!record) return;
    std::array<double, 3> ms{0, 0, 0};
    for (std::size_t i = 0; i < m_steps.size(); ++i)
      ms[slot(m_steps[i])] += m_events[i + 1]->elapsedSince(*m_events[i]);
    ctx.samples[Phase::H2D].push_back(ms[0]);
    ctx.samples[Phase::Kernel].push_back(ms[1]);
    ctx.samples[Phase::D2H].push_back(ms[2]);
  }
  cudaStream_t stream() const { return m_stream; }

 private:
  static std::size_t slot(Phase p) { return p == Phase::H2D ? 0 : p == Phase::D2H ? 2 : 1; }
  void mark() {
    if (m_used == m_events.size()) m_events.push_back(std::make_unique<Event>());
    m_events[m_used++]->record(m_stream);
  }
  cudaStream_t m_stream;
  std::vector<std::unique_ptr<Event>> m_events;  // reused across repetitions
  std::size_t m_used = 0;
  std::vector<Phase> m_steps;
};

/// Asynchronous copies on `s` (pageable host memory makes them synchronous with the host, as in the course).
inline void copyToDevice(void* dst, const void* src, std::size_t bytes, cudaStream_t s) {
  if (bytes) LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s));
}
inline void copyToHost(void* dst, const void* src, std::size_t bytes, cudaStream_t s) {
  if (bytes) LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s));
}
/// Fills device memory with 0xFF bytes (NaN for floats) so unwritten elements fail verification.
inline void poison(void* dst, std::size_t bytes, cudaStream_t s) {
  if (bytes) LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(dst, 0xFF, bytes, s));
}

/// One step of a program that keeps its arrays on the host between GPU calls (a ufunc called on NumPy arrays):
/// copy the inputs up, run the kernel(s), copy the result back.
struct RoundTripStep {
  struct Copy {
    void* device;
    const void* host;
    std::size_t bytes = 0;  ///< 0: the `bytes` of runRoundTrips
  };
  std::vector<Copy> uploads;
  std::function<void(cudaStream_t)> kernels;
  void* hostResult;
  const void* deviceResult;
  std::size_t resultBytes = 0;  ///< 0: the `bytes` of runRoundTrips
};

/// Runs ctx.warmup + ctx.reps repetitions of `steps` on one stream, each step timed as H2D (its uploads), Kernel and
/// D2H (its result). Every repetition first poisons the device buffers in `poisoned` (`bytes` each, untimed). Copies
/// move their own byte count, or `bytes` where they give none.
inline void runRoundTrips(ImplContext& ctx, const std::vector<RoundTripStep>& steps, const std::vector<void*>& poisoned,
                          std::size_t bytes) {
  ctx.poisonHostOutputs();  // the steps' results need not cover every output
  Stream stream;
  const cudaStream_t s = stream.get();
  PhaseTimeline tl(s);
  for (int r = -ctx.warmup; r < ctx.reps; ++r) {
    ctx.checkpoint(r);
    for (void* p : poisoned) poison(p, bytes, s);
    tl.begin();
    for (const auto& st : steps) {
      tl.step(Phase::H2D, [&] {
        for (const auto& c : st.uploads) copyToDevice(c.device, c.host, c.bytes ? c.bytes : bytes, s);
      });
      tl.step(Phase::Kernel, [&] { st.kernels(s); });
      tl.step(Phase::D2H,
              [&] { copyToHost(st.hostResult, st.deviceResult, st.resultBytes ? st.resultBytes : bytes, s); });
    }
    tl.end(ctx, r >= 0);
  }
}

}  // namespace launchlab::gpu
