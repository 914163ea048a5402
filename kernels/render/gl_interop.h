#pragma once
/// CUDA–OpenGL interop for the GPU plot views: a GL buffer of the renderer (core/gl's PlotRenderer) registered
/// with CUDA once, then per frame map -> a GPU twin of the geometry builders (plot_geometry_gpu.h) writes straight
/// into it -> unmap, and GL draws it. No CUDA or GL types here. Every call needs the renderer's GL context current
/// on the calling thread (EglContext) and that context on the CUDA device in use (interopSupport says whether).
/// A CPU-only build has all of this too: each call says "no CUDA in this build".
#include <cstddef>
#include <cstdint>
#include <string>

#include "launchlab/engine/dtype.h"
#include "render/plot_geometry_gpu.h"

namespace launchlab::render {

/// Whether the current GL context can share buffers with CUDA device `cudaOrdinal` (cudaGLGetDevices), and why
/// not: "no CUDA in this build", "no CUDA device", "the GL context runs on no CUDA device (Mesa llvmpipe?)", ...
struct InteropSupport {
  bool possible = false;
  std::string reason;  ///< one line, also when possible ("CUDA device 0 drives the GL context")
};
InteropSupport interopSupport(int cudaOrdinal);

/// Per frame timings in milliseconds (CUDA events on the stream), filled when asked for.
struct InteropTimes {
  double mapMs = 0, kernelMs = 0, unmapMs = 0;
};

/// One GL buffer registered with CUDA (write-discard: each frame rewrites what is drawn). Move-only; unregisters on
/// destruction or detach(). Growing a renderer buffer makes a new GL name: detach() BEFORE asking the renderer for
/// the bigger buffer, then attach() the new name (ensure() does both in that order).
class GlBufferInterop {
 public:
  GlBufferInterop() = default;
  ~GlBufferInterop();
  GlBufferInterop(GlBufferInterop&& o) noexcept;
  GlBufferInterop& operator=(GlBufferInterop&& o) noexcept;
  GlBufferInterop(const GlBufferInterop&) = delete;
  GlBufferInterop& operator=(const GlBufferInterop&) = delete;

  /// Registers GL buffer `glBuffer` (`bytes` usable bytes); "" on success, else why.
  std::string attach(unsigned glBuffer, std::size_t bytes);
  void detach();
  /// Registered with at least `bytes`? Else detach, grow = the renderer's buffer call (returns the GL name), attach.
  template <class Grow>
  std::string ensure(std::size_t bytes, Grow&& grow) {
    if (m_resource && m_bytes >= bytes) return {};
    detach();
    const unsigned name = grow();
    return name == 0 ? std::string("could not allocate the GL buffer") : attach(name, bytes);
  }
  unsigned buffer() const { return m_buffer; }
  std::size_t bytes() const { return m_bytes; }

  /// map -> fill(device pointer, mapped bytes) -> unmap on `stream` (a cudaStream_t as void*; nullptr: default).
  /// fill returns a geom::gpu::Built; the count it reports comes back. With `times`, each phase is timed.
  template <class Fill>
  geom::gpu::Built frame(Fill&& fill, void* stream = nullptr, InteropTimes* times = nullptr) {
    geom::gpu::Built b;
    if (std::string e = map(stream, times); !e.empty()) return {0, e};
    b = fill(m_mapped);
    if (std::string e = unmap(stream, times, b.ok()); !e.empty() && b.ok()) b = {0, e};
    return b;
  }

 private:
  std::string map(void* stream, InteropTimes* times);
  std::string unmap(void* stream, InteropTimes* times, bool kernelOk);
  void* m_resource = nullptr;  // cudaGraphicsResource_t
  void* m_mapped = nullptr;
  void* m_events[4] = {};  // cudaEvent_t: before map, after map, after kernel, after unmap
  unsigned m_buffer = 0;
  std::size_t m_bytes = 0;
};

/// An array copied into a new allocation on the current device (cudaMalloc + cudaMemcpy, waited for), freed on
/// destruction. `source` is host memory (the engine's host outputs) or device memory of any context this process
/// can address (another process's buffer opened with CUDA IPC: a device-to-device copy).
class DeviceCopy {
 public:
  DeviceCopy(const void* source, std::size_t bytes);
  ~DeviceCopy();
  DeviceCopy(const DeviceCopy&) = delete;
  DeviceCopy& operator=(const DeviceCopy&) = delete;
  const void* data() const { return m_ptr; }
  void* data() { return m_ptr; }
  const std::string& error() const { return m_error; }

 private:
  void* m_ptr = nullptr;
  std::string m_error;
};

/// Makes CUDA device `ordinal` current on the calling thread; "" or why not.
std::string useDevice(int ordinal);

/// Copies `bytes` of device memory (any context this process can address) into host memory, waited for; "" or why.
std::string copyToHost(void* host, const void* device, std::size_t bytes);

/// Waits for the stream (nullptr: the device) and says what went wrong, if anything.
std::string synchronize(void* stream = nullptr);

}  // namespace launchlab::render
