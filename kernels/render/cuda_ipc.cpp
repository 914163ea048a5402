// CUDA IPC export and open (render/cuda_ipc.h). The hex form is CUDA-free; the rest needs the CUDA runtime.
#include "render/cuda_ipc.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "launchlab/config.h"

#if LAUNCHLAB_HAVE_CUDA
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include "common/cuda_check.h"
#endif

namespace launchlab::ipc {

namespace {
constexpr char kDigits[] = "0123456789abcdef";

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

[[maybe_unused]] constexpr const char* kNoCuda = "no CUDA in this build";
}  // namespace

std::string IpcHandle::hex() const {
  std::string s;
  s.reserve(2 * kBytes);
  for (std::uint8_t b : bytes) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

std::optional<IpcHandle> IpcHandle::fromHex(std::string_view text) {
  if (text.size() != 2 * kBytes) return std::nullopt;
  IpcHandle h;
  for (std::size_t i = 0; i < kBytes; ++i) {
    const int hi = hexValue(text[2 * i]), lo = hexValue(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    h.bytes[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return h;
}

OpenedBuffer::OpenedBuffer(OpenedBuffer&& o) noexcept
    : m_ptr(std::exchange(o.m_ptr, nullptr)), m_size(std::exchange(o.m_size, 0)), m_error(std::move(o.m_error)) {}

OpenedBuffer& OpenedBuffer::operator=(OpenedBuffer&& o) noexcept {
  std::swap(m_ptr, o.m_ptr);
  std::swap(m_size, o.m_size);
  std::swap(m_error, o.m_error);
  return *this;
}

const void* OpenedBuffer::at(std::uint64_t offset, std::uint64_t bytes) const {
  if (!m_ptr || offset > m_size || bytes > m_size - offset) return nullptr;
  return static_cast<const unsigned char*>(m_ptr) + offset;
}

#if LAUNCHLAB_HAVE_CUDA
static_assert(sizeof(cudaIpcMemHandle_t) == IpcHandle::kBytes, "cudaIpcMemHandle_t is 64 bytes");

namespace {
/// The block of device memory `p` lies in (cuMemGetAddressRange, reached through the runtime: no libcuda link).
/// "" or why not.
std::string addressRange(const void* p, std::uint64_t& base, std::size_t& size) {
  static const auto fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    const cudaError_t e =
        cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &f, 12000, cudaEnableDefault, &found);
    if (e != cudaSuccess) cudaGetLastError();
    return e == cudaSuccess && found == cudaDriverEntryPointSuccess
               ? reinterpret_cast<PFN_cuMemGetAddressRange_v3020>(f)
               : nullptr;
  }();
  if (!fn) return "the driver has no cuMemGetAddressRange";
  CUdeviceptr b = 0;
  if (const CUresult e = fn(&b, &size, reinterpret_cast<CUdeviceptr>(p)); e != CUDA_SUCCESS)
    return "cuMemGetAddressRange: error " + std::to_string(int(e));
  base = std::uint64_t(b);
  return {};
}
}  // namespace

Exported exportDeviceBuffer(const void* devicePtr) {
  Exported r;
  cudaIpcMemHandle_t h{};
  if (const cudaError_t e = cudaIpcGetMemHandle(&h, const_cast<void*>(devicePtr)); e != cudaSuccess) {
    r.error = "cudaIpcGetMemHandle: " + gpu::errorText(e);
    return r;
  }
  std::memcpy(r.handle.bytes.data(), &h, IpcHandle::kBytes);
  std::uint64_t base = 0;
  std::size_t size = 0;
  if (std::string e = addressRange(devicePtr, base, size); !e.empty())
    r.error = e;
  else
    r.offset = reinterpret_cast<std::uintptr_t>(devicePtr) - base;
  return r;
}

OpenedBuffer OpenedBuffer::open(const IpcHandle& handle) {
  OpenedBuffer b;
  cudaIpcMemHandle_t h{};
  std::memcpy(&h, handle.bytes.data(), IpcHandle::kBytes);
  if (const cudaError_t e = cudaIpcOpenMemHandle(&b.m_ptr, h, cudaIpcMemLazyEnablePeerAccess); e != cudaSuccess) {
    b.m_ptr = nullptr;
    b.m_error = "cudaIpcOpenMemHandle: " + gpu::errorText(e);
    return b;
  }
  std::uint64_t base = 0;
  if (std::string e = addressRange(b.m_ptr, base, b.m_size); !e.empty())
    b.m_size = 0;
  else
    b.m_size -= std::size_t(reinterpret_cast<std::uintptr_t>(b.m_ptr) - base);
  return b;
}

OpenedBuffer::~OpenedBuffer() {
  if (m_ptr) cudaIpcCloseMemHandle(m_ptr);
}
#else
Exported exportDeviceBuffer(const void*) {
  Exported r;
  r.error = kNoCuda;
  return r;
}

OpenedBuffer OpenedBuffer::open(const IpcHandle&) {
  OpenedBuffer b;
  b.m_error = kNoCuda;
  return b;
}

OpenedBuffer::~OpenedBuffer() = default;
#endif

}  // namespace launchlab::ipc
