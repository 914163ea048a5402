#pragma once
/// A run's GPU outputs taken straight from the worker's device memory (docs/evidence/architecture-history.md, device
/// imports): the worker exports each output of a GPU run as a CUDA IPC handle (RunRequest::exportDeviceOutputs,
/// ImplResult::deviceOutputs); on the window's compute thread, right after the run and before the worker can start
/// another one (RunController::setDeviceImport), each is opened in this process's CUDA context, copied device to
/// device into a buffer the window owns, and closed. The GL views' interop frame source then builds every frame from
/// that copy: the bytes drawn never pass through host memory, and the worker may reuse its buffers at once. The
/// host copies still cross the pipe (tables, verification, exports, CPU rows). Built with interop (CUDA and
/// launchlab_render); elsewhere importing says why not.
#include <QString>
#include <cstddef>
#include <memory>
#include <vector>

#include "launchlab/engine/result.h"

namespace launchlab::ui {

class DeviceImports {
 public:
  /// The window's device copy of `array` (an output of the outcome these imports belong to), or nullptr.
  const void* find(const HostArray* array) const;
  std::size_t count() const { return m_entries.size(); }
  /// One line for the log: "2 GPU outputs taken from the worker's device memory (CUDA IPC) in 0.41 ms", or why
  /// some or all were not (they are then uploaded from the host copy as before).
  const QString& note() const { return m_note; }

  struct Entry {
    const HostArray* array = nullptr;
    std::shared_ptr<const void> device;  ///< the copy; freed when the last holder lets go
  };
  DeviceImports(std::vector<Entry> entries, QString note) : m_entries(std::move(entries)), m_note(std::move(note)) {}

 private:
  std::vector<Entry> m_entries;
  QString m_note;
};

/// Takes every exported output of `r`'s GPU implementations into CUDA device `cudaOrdinal` of this process (see
/// above). nullptr when `r` exported nothing; otherwise the imports, with a note saying what failed, if anything.
/// Compute thread (it waits for the copies).
std::shared_ptr<const DeviceImports> importDeviceOutputs(const RunResult& r, int cudaOrdinal);

}  // namespace launchlab::ui
