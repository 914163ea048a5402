#pragma once
/// Sharing a device allocation between processes with CUDA IPC: the worker exports its output buffer as a 64-byte
/// handle (sent as 128 hex characters), the window opens it in its own CUDA context and reads it straight into
/// its mapped GL buffers. No CUDA types here; errors come back as values. A CPU-only build has these functions
/// too: they return "no CUDA in this build".
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace launchlab::ipc {

/// The bytes of a cudaIpcMemHandle_t.
struct IpcHandle {
  static constexpr std::size_t kBytes = 64;
  std::array<std::uint8_t, kBytes> bytes{};
  /// 128 lower-case hex characters.
  std::string hex() const;
  /// nullopt unless exactly 128 hex characters.
  static std::optional<IpcHandle> fromHex(std::string_view text);
};

struct Exported {
  IpcHandle handle;
  std::string error;  ///< empty on success
  bool ok() const { return error.empty(); }
};
/// The handle of the allocation `devicePtr` starts (a pointer cudaMalloc returned; the opened mapping gives that
/// allocation's base). The allocation must outlive every process that opened it.
Exported exportDeviceBuffer(const void* devicePtr);

/// A peer process's allocation mapped into this process (cudaIpcOpenMemHandle with lazy peer access) on the
/// current device; closed on destruction. Move-only.
class OpenedBuffer {
 public:
  /// Opens `handle`; on failure get() is nullptr and error() says why.
  static OpenedBuffer open(const IpcHandle& handle);
  OpenedBuffer() = default;
  ~OpenedBuffer();
  OpenedBuffer(OpenedBuffer&& o) noexcept;
  OpenedBuffer& operator=(OpenedBuffer&& o) noexcept;
  OpenedBuffer(const OpenedBuffer&) = delete;
  OpenedBuffer& operator=(const OpenedBuffer&) = delete;
  void* get() const { return m_ptr; }
  const std::string& error() const { return m_error; }
  bool ok() const { return m_ptr != nullptr; }

 private:
  void* m_ptr = nullptr;
  std::string m_error;
};

}  // namespace launchlab::ipc
