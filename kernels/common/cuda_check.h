#pragma once
/// CUDA error checking and RAII handles (host code; usable from .cpp compiled with the CUDA include path
/// and from .cu). Errors become launchlab::GpuError (or OutOfMemory) exceptions carrying the CUDA error
/// name and file:line; the engine turns them into failed results.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "launchlab/engine/errors.h"

namespace launchlab::gpu {

/// "cudaErrorIllegalAddress (an illegal memory access was encountered)".
std::string errorText(cudaError_t e);
[[noreturn]] void throwCuda(cudaError_t e, const char* what, const char* file, int line);
/// True for errors that leave the context unusable until cudaDeviceReset.
bool isStickyError(cudaError_t e);
/// Human-readable byte count ("1.50 GiB").
std::string formatBytes(double bytes);

#define LAUNCHLAB_CUDA_CHECK(call)                                                                             \
  do {                                                                                                         \
    cudaError_t launchlab_err_ = (call);                                                                       \
    if (launchlab_err_ != cudaSuccess) ::launchlab::gpu::throwCuda(launchlab_err_, #call, __FILE__, __LINE__); \
  } while (0)
/// After a kernel launch: reports launch-configuration errors (invalid config, too many resources).
#define LAUNCHLAB_CUDA_CHECK_LAUNCH() LAUNCHLAB_CUDA_CHECK(cudaGetLastError())

/// Owned CUDA memory, move-only. `Kind` provides allocate(bytes) -> void* (throwing) and release(void*).
template <typename Kind>
class OwnedMemory {
 public:
  OwnedMemory() = default;
  explicit OwnedMemory(std::size_t bytes) : m_ptr(bytes ? Kind::allocate(bytes) : nullptr), m_bytes(bytes) {}
  ~OwnedMemory() {
    if (m_ptr) Kind::release(m_ptr);
  }
  OwnedMemory(OwnedMemory&& o) noexcept
      : m_ptr(std::exchange(o.m_ptr, nullptr)), m_bytes(std::exchange(o.m_bytes, 0)) {}
  OwnedMemory& operator=(OwnedMemory&& o) noexcept {
    std::swap(m_ptr, o.m_ptr);
    std::swap(m_bytes, o.m_bytes);
    return *this;
  }
  OwnedMemory(const OwnedMemory&) = delete;
  OwnedMemory& operator=(const OwnedMemory&) = delete;
  void* get() const { return m_ptr; }
  template <typename T>
  T* as() const {
    return static_cast<T*>(m_ptr);
  }
  std::size_t bytes() const { return m_bytes; }

 private:
  void* m_ptr = nullptr;
  std::size_t m_bytes = 0;
};

/// cudaMalloc / cudaFree. Allocation failure throws OutOfMemory saying how much was asked and is free.
struct DeviceMemoryKind {
  static void* allocate(std::size_t bytes);
  static void release(void* p);  ///< errors ignored: after a sticky error the context is reset anyway
};
/// cudaMallocHost / cudaFreeHost: page-locked host memory, for transfers that overlap with compute.
struct PinnedMemoryKind {
  static void* allocate(std::size_t bytes);
  static void release(void* p);
};
using DeviceBuffer = OwnedMemory<DeviceMemoryKind>;
using PinnedBuffer = OwnedMemory<PinnedMemoryKind>;

class Event {
 public:
  Event();
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return m_event; }
  void record(cudaStream_t s);
  /// Milliseconds between `start` and this event (both must have completed).
  float elapsedSince(const Event& start) const;

 private:
  cudaEvent_t m_event = nullptr;
};

class Stream {
 public:
  /// Non-blocking by default: no implicit synchronisation with the legacy default stream. cudaStreamDefault gives
  /// a blocking stream (what Numba's cuda.stream() makes), which waits for and is waited for by the synchronous
  /// calls of the legacy default stream (cudaMemcpy).
  explicit Stream(unsigned flags = cudaStreamNonBlocking);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return m_stream; }
  void sync();

 private:
  cudaStream_t m_stream = nullptr;
};

/// NVTX range for the lifetime of the object (visible in Nsight Systems).
class NvtxRange {
 public:
  explicit NvtxRange(const char* name);
  ~NvtxRange();
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace launchlab::gpu
