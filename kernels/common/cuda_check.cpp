#include "common/cuda_check.h"

#include <nvtx3/nvToolsExt.h>

#include <cstdio>

namespace launchlab::gpu {

std::string errorText(cudaError_t e) { return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")"; }

std::string formatBytes(double bytes) {
  char buf[64];
  if (bytes >= double(1ull << 30))
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / double(1ull << 30));
  else if (bytes >= double(1ull << 20))
    std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / double(1ull << 20));
  else
    std::snprintf(buf, sizeof buf, "%.0f bytes", bytes);
  return buf;
}

void throwCuda(cudaError_t e, const char* what, const char* file, int line) {
  std::string msg = errorText(e) + " in " + what + " at " + file + ":" + std::to_string(line);
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // clear the non-sticky allocation error
    throw OutOfMemory(msg);
  }
  throw GpuError(msg);
}

bool isStickyError(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

void* DeviceMemoryKind::allocate(std::size_t bytes) {
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, bytes);
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t freeB = 0, totalB = 0;
    cudaMemGetInfo(&freeB, &totalB);
    throw OutOfMemory("not enough device memory: asked for " + formatBytes(double(bytes)) + ", " +
                      formatBytes(double(freeB)) + " free of " + formatBytes(double(totalB)));
  }
  if (e != cudaSuccess) throwCuda(e, "cudaMalloc", __FILE__, __LINE__);
  return p;
}

void DeviceMemoryKind::release(void* p) { cudaFree(p); }

void* PinnedMemoryKind::allocate(std::size_t bytes) {
  void* p = nullptr;
  cudaError_t e = cudaMallocHost(&p, bytes);
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw OutOfMemory("not enough page-locked host memory: asked for " + formatBytes(double(bytes)));
  }
  if (e != cudaSuccess) throwCuda(e, "cudaMallocHost", __FILE__, __LINE__);
  return p;
}

void PinnedMemoryKind::release(void* p) { cudaFreeHost(p); }

Event::Event() { LAUNCHLAB_CUDA_CHECK(cudaEventCreate(&m_event)); }
Event::~Event() {
  if (m_event) cudaEventDestroy(m_event);
}
void Event::record(cudaStream_t s) { LAUNCHLAB_CUDA_CHECK(cudaEventRecord(m_event, s)); }
float Event::elapsedSince(const Event& start) const {
  float ms = 0;
  LAUNCHLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.m_event, m_event));
  return ms;
}

Stream::Stream(unsigned flags) { LAUNCHLAB_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, flags)); }
Stream::~Stream() {
  if (m_stream) cudaStreamDestroy(m_stream);
}
void Stream::sync() { LAUNCHLAB_CUDA_CHECK(cudaStreamSynchronize(m_stream)); }

NvtxRange::NvtxRange(const char* name) { nvtxRangePushA(name); }
NvtxRange::~NvtxRange() { nvtxRangePop(); }

}  // namespace launchlab::gpu
