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
  /// Where `devicePtr` lies in the memory the handle opens: the driver carves small cudaMalloc allocations out of
  /// one larger block, the handle stands for that whole block, and opening it gives the block's start.
  std::uint64_t offset = 0;
  std::string error;  ///< empty on success
  bool ok() const { return error.empty(); }
};
/// The handle of the memory `devicePtr` (a pointer cudaMalloc returned) lives in, and its offset there. The
/// allocation must outlive every process that opened it.
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
  /// The bytes mapped from get() on (the whole block the handle stands for; 0 when the driver did not say).
  std::size_t size() const { return m_size; }
  /// get() + offset when [offset, offset + bytes) lies in the mapping, else nullptr.
  const void* at(std::uint64_t offset, std::uint64_t bytes) const;
  const std::string& error() const { return m_error; }
  bool ok() const { return m_ptr != nullptr; }

 private:
  void* m_ptr = nullptr;
  std::size_t m_size = 0;
  std::string m_error;
};

}  // namespace launchlab::ipc
