#pragma once
/// Cooperative cancellation, checked between repetitions and sweep points.
#include <atomic>
#include <functional>
#include <stdexcept>
#include <string>

namespace launchlab {

class CancelToken {
 public:
  void cancel() { m_flag.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return m_flag.load(std::memory_order_relaxed); }
  void reset() { m_flag.store(false, std::memory_order_relaxed); }

 private:
  std::atomic<bool> m_flag{false};
};

struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

/// Progress report: which implementation (index of count) and which repetition (of total).
struct Progress {
  std::string implId;
  int implIndex = 0, implCount = 0;
  int rep = 0, reps = 0;  ///< warm-ups count as negative reps
  /// Set (and the rest unset) while the run's worker waits in a queue before it starts: the line to show ("waiting
  /// for a GPU: job 4711 PENDING (Resources)"; worker.h's QueueWatch).
  std::string waiting;
};
using ProgressFn = std::function<void(const Progress&)>;

}  // namespace launchlab
