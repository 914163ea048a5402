// A CPU-only build: the interop API exists and says why it cannot work (gl_interop.h).
#include <utility>

#include "render/gl_interop.h"

namespace launchlab::render {
namespace {
constexpr const char* kNoCuda = "no CUDA in this build";
}

InteropSupport interopSupport(int) { return {false, kNoCuda}; }
GlBufferInterop::~GlBufferInterop() = default;
GlBufferInterop::GlBufferInterop(GlBufferInterop&& o) noexcept { *this = std::move(o); }
GlBufferInterop& GlBufferInterop::operator=(GlBufferInterop&&) noexcept { return *this; }
std::string GlBufferInterop::attach(unsigned, std::size_t) { return kNoCuda; }
void GlBufferInterop::detach() {}
std::string GlBufferInterop::map(void*, InteropTimes*) { return kNoCuda; }
std::string GlBufferInterop::unmap(void*, InteropTimes*, bool) { return kNoCuda; }
DeviceCopy::DeviceCopy(const void*, std::size_t) : m_error(kNoCuda) {}
DeviceCopy::~DeviceCopy() = default;
std::string useDevice(int) { return kNoCuda; }
std::string synchronize(void*) { return kNoCuda; }
std::string copyToHost(void*, const void*, std::size_t) { return kNoCuda; }

}  // namespace launchlab::render
