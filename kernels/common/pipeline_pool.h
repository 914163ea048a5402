#pragma once
/// The standard pipeline's CUDA resources kept between runs (host code, no CUDA types: the runtime uses it).
///
/// A sweep runs one setup many times over. Allocating the device buffers, a stream, five events and the launch gate's
/// mapped host flag for every run, and freeing them after (cudaFree synchronizes the device), was most of the
/// harness's cost per sweep point. runPipeline therefore leases them from a pool that keeps the last run's set —
/// one set per process, so at most one run's buffers are held — and hands it to the next run on the same device
/// (buffers reused when their sizes match, reallocated otherwise). Thread-safe.
#include <cstddef>

namespace launchlab::gpu {

/// Device memory the pool holds for the next run (it reuses or frees it first): counted as free by the runtime's
/// memoryInfo so a run is never refused for memory the pool would give back.
std::size_t pooledDeviceBytes();
/// Frees the pooled set (on its device). After a device reset the handles are already gone: `deviceWasReset`
/// forgets them without calling CUDA.
void dropPooledResources(bool deviceWasReset);

}  // namespace launchlab::gpu
