// CUDA–OpenGL interop (gl_interop.h). The GL declarations cuda_gl_interop.h wants come from the core-profile header.
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#define __gl_h_  // cuda_gl_interop.h includes <GL/gl.h> unless a GL header was seen
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <utility>

#include "render/gl_interop.h"

namespace launchlab::render {
namespace {

std::string cudaText(const char* what, cudaError_t e) {
  return std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
}
cudaStream_t asStream(void* s) { return static_cast<cudaStream_t>(s); }
float elapsed(void* a, void* b) {
  float ms = 0;
  cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(a), static_cast<cudaEvent_t>(b));
  return ms;
}

}  // namespace

InteropSupport interopSupport(int cudaOrdinal) {
  int count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
    cudaGetLastError();
    return {false, e != cudaSuccess ? cudaText("no CUDA device", e) : "no CUDA device"};
  }
  unsigned found = 0;
  int devices[8] = {};
  const cudaError_t e = cudaGLGetDevices(&found, devices, 8, cudaGLDeviceListAll);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return {false, "the GL context runs on no CUDA device (" + std::string(cudaGetErrorName(e)) + ")"};
  }
  for (unsigned i = 0; i < found; ++i)
    if (devices[i] == cudaOrdinal)
      return {true, "CUDA device " + std::to_string(cudaOrdinal) + " drives the GL context"};
  return {false, "the GL context runs on another CUDA device than " + std::to_string(cudaOrdinal)};
}

GlBufferInterop::~GlBufferInterop() {
  detach();
  for (void*& ev : m_events)
    if (ev) cudaEventDestroy(static_cast<cudaEvent_t>(std::exchange(ev, nullptr)));
}

GlBufferInterop::GlBufferInterop(GlBufferInterop&& o) noexcept { *this = std::move(o); }
GlBufferInterop& GlBufferInterop::operator=(GlBufferInterop&& o) noexcept {
  std::swap(m_resource, o.m_resource);
  std::swap(m_mapped, o.m_mapped);
  std::swap(m_events, o.m_events);
  std::swap(m_buffer, o.m_buffer);
  std::swap(m_bytes, o.m_bytes);
  return *this;
}

std::string GlBufferInterop::attach(unsigned glBuffer, std::size_t bytes) {
  detach();
  cudaGraphicsResource_t r = nullptr;
  if (cudaError_t e = cudaGraphicsGLRegisterBuffer(&r, glBuffer, cudaGraphicsRegisterFlagsWriteDiscard);
      e != cudaSuccess) {
    cudaGetLastError();
    return cudaText("cudaGraphicsGLRegisterBuffer", e);
  }
  m_resource = r;
  m_buffer = glBuffer;
  m_bytes = bytes;
  return {};
}

void GlBufferInterop::detach() {
  if (!m_resource) return;
  cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(m_resource));
  m_resource = nullptr;
  m_buffer = 0;
  m_bytes = 0;
}

std::string GlBufferInterop::map(void* stream, InteropTimes* times) {
  if (!m_resource) return "map: no GL buffer attached";
  if (times && !m_events[0])
    for (void*& ev : m_events) {
      cudaEvent_t e = nullptr;
      cudaEventCreate(&e);
      ev = e;
    }
  if (times) cudaEventRecord(static_cast<cudaEvent_t>(m_events[0]), asStream(stream));
  auto r = static_cast<cudaGraphicsResource_t>(m_resource);
  if (cudaError_t e = cudaGraphicsMapResources(1, &r, asStream(stream)); e != cudaSuccess)
    return cudaText("cudaGraphicsMapResources", e);
  std::size_t size = 0;
  if (cudaError_t e = cudaGraphicsResourceGetMappedPointer(&m_mapped, &size, r); e != cudaSuccess) {
    cudaGraphicsUnmapResources(1, &r, asStream(stream));
    return cudaText("cudaGraphicsResourceGetMappedPointer", e);
  }
  if (size < m_bytes) {
    cudaGraphicsUnmapResources(1, &r, asStream(stream));
    return "map: the GL buffer has " + std::to_string(size) + " bytes, fewer than " + std::to_string(m_bytes);
  }
  if (times) cudaEventRecord(static_cast<cudaEvent_t>(m_events[1]), asStream(stream));
  return {};
}

std::string GlBufferInterop::unmap(void* stream, InteropTimes* times, bool kernelOk) {
  if (times) cudaEventRecord(static_cast<cudaEvent_t>(m_events[2]), asStream(stream));
  auto r = static_cast<cudaGraphicsResource_t>(m_resource);
  const cudaError_t e = cudaGraphicsUnmapResources(1, &r, asStream(stream));
  m_mapped = nullptr;
  if (e != cudaSuccess) return cudaText("cudaGraphicsUnmapResources", e);
  if (times) {
    cudaEventRecord(static_cast<cudaEvent_t>(m_events[3]), asStream(stream));
    cudaEventSynchronize(static_cast<cudaEvent_t>(m_events[3]));
    if (kernelOk) {
      times->mapMs = elapsed(m_events[0], m_events[1]);
      times->kernelMs = elapsed(m_events[1], m_events[2]);
      times->unmapMs = elapsed(m_events[2], m_events[3]);
    }
  }
  return {};
}

DeviceCopy::DeviceCopy(const void* source, std::size_t bytes) {
  if (cudaError_t e = cudaMalloc(&m_ptr, bytes ? bytes : 1); e != cudaSuccess) {
    cudaGetLastError();
    m_ptr = nullptr;
    m_error = cudaText("cudaMalloc", e);
    return;
  }
  // cudaMemcpyDefault: unified addressing tells host from device memory (and another device's, peer to peer).
  // A device-to-device cudaMemcpy returns before it is done: wait, so the source may go (or be reused) at once.
  cudaError_t e = cudaMemcpy(m_ptr, source, bytes, cudaMemcpyDefault);
  if (e == cudaSuccess) e = cudaStreamSynchronize(nullptr);
  if (e != cudaSuccess) {
    cudaGetLastError();
    m_error = cudaText("cudaMemcpy", e);
  }
}

std::string useDevice(int ordinal) {
  if (const cudaError_t e = cudaSetDevice(ordinal); e != cudaSuccess) {
    cudaGetLastError();
    return cudaText("cudaSetDevice", e);
  }
  return {};
}

DeviceCopy::~DeviceCopy() {
  if (m_ptr) cudaFree(m_ptr);
}

std::string copyToHost(void* host, const void* device, std::size_t bytes) {
  if (const cudaError_t e = cudaMemcpy(host, device, bytes, cudaMemcpyDefault); e != cudaSuccess) {
    cudaGetLastError();
    return cudaText("cudaMemcpy", e);
  }
  return {};
}

std::string synchronize(void* stream) {
  const cudaError_t e = stream ? cudaStreamSynchronize(asStream(stream)) : cudaDeviceSynchronize();
  return e == cudaSuccess ? std::string() : cudaText("synchronize", e);
}

}  // namespace launchlab::render
