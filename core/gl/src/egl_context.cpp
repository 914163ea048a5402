#include "launchlab/gl/egl_context.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "gl_api.h"

namespace launchlab::gl {
namespace {

bool hasExtension(const char* list, std::string_view name) {
  if (!list) return false;
  std::string_view s(list);
  for (std::size_t pos = 0; (pos = s.find(name, pos)) != std::string_view::npos; pos += name.size()) {
    const bool startOk = pos == 0 || s[pos - 1] == ' ';
    const bool endOk = pos + name.size() == s.size() || s[pos + name.size()] == ' ';
    if (startOk && endOk) return true;
  }
  return false;
}

std::string eglErrorText(const char* what) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s failed (EGL error 0x%04x)", what, static_cast<unsigned>(eglGetError()));
  return buf;
}

/// The display to use and what it is.
struct Choice {
  EGLDisplay display = EGL_NO_DISPLAY;
  std::string platform;
  bool onCuda = false;
};

/// Device platform: the CUDA device's EGL device when wanted, else a software (Mesa) device.
Choice chooseDevice(const ContextOptions& o) {
  auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto queryAttrib = reinterpret_cast<PFNEGLQUERYDEVICEATTRIBEXTPROC>(eglGetProcAddress("eglQueryDeviceAttribEXT"));
  auto queryString = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(eglGetProcAddress("eglQueryDeviceStringEXT"));
  EGLint count = 0;
  if (!queryDevices || !queryAttrib || !queryString || !queryDevices(0, nullptr, &count) || count <= 0) return {};
  std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(count));
  if (!queryDevices(count, devices.data(), &count)) return {};
  int cudaIndex = -1, softwareIndex = -1;
  for (int i = 0; i < count; ++i) {
    const char* ext = queryString(devices[i], EGL_EXTENSIONS);
    EGLAttrib cuda = -1;
    if (o.cudaOrdinal >= 0 && hasExtension(ext, "EGL_NV_device_cuda") &&
        queryAttrib(devices[i], EGL_CUDA_DEVICE_NV, &cuda) && cuda == o.cudaOrdinal && cudaIndex < 0)
      cudaIndex = i;
    if (hasExtension(ext, "EGL_MESA_device_software") && softwareIndex < 0) softwareIndex = i;
  }
  const int pick = cudaIndex >= 0 ? cudaIndex : (o.allowSoftware ? softwareIndex : -1);
  if (pick < 0) return {};
  Choice c;
  c.display = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[pick], nullptr);
  c.platform = "EGL device " + std::to_string(pick) + " of " + std::to_string(count);
  c.onCuda = pick == cudaIndex;
  return c;
}

/// In order: the device platform, Mesa's surfaceless platform, the default display.
std::vector<Choice> candidates(const ContextOptions& o) {
  std::vector<Choice> out;
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (hasExtension(client, "EGL_EXT_device_enumeration") || hasExtension(client, "EGL_EXT_device_base")) {
    Choice c = chooseDevice(o);
    if (c.display != EGL_NO_DISPLAY) out.push_back(c);
  }
  if (!o.allowSoftware) return out;
  if (hasExtension(client, "EGL_MESA_platform_surfaceless")) {
    EGLDisplay d = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (d != EGL_NO_DISPLAY) out.push_back({d, "EGL surfaceless (Mesa)", false});
  }
  EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (d != EGL_NO_DISPLAY) out.push_back({d, "EGL default display", false});
  return out;
}

std::string shortRenderer(const std::string& vendor, const std::string& renderer) {
  // "llvmpipe (LLVM 15.0.6, 256 bits)" -> "llvmpipe"; "NVIDIA H100 80GB HBM3/PCIe/SSE2" -> "NVIDIA H100 80GB HBM3"
  std::string r = renderer.substr(0, std::min(renderer.find(" ("), renderer.find('/')));
  if (vendor.find("Mesa") != std::string::npos && r.find("Mesa") == std::string::npos) r = "Mesa " + r;
  return r;
}

}  // namespace

struct EglContextBuilder {
  /// Initialises `c.display`, makes a GL 3.3 core context current on it; fills ctx on success.
  static Status open(const Choice& c, EglContext& ctx) {
    EGLint major = 0, minor = 0;
    if (!eglInitialize(c.display, &major, &minor)) return Status::fail(eglErrorText("eglInitialize"));
    ctx.m_display = c.display;
    if (!eglBindAPI(EGL_OPENGL_API)) return Status::fail(eglErrorText("eglBindAPI(OpenGL)"));
    const EGLint cfgAttribs[] = {EGL_SURFACE_TYPE,
                                 EGL_PBUFFER_BIT,
                                 EGL_RENDERABLE_TYPE,
                                 EGL_OPENGL_BIT,
                                 EGL_RED_SIZE,
                                 8,
                                 EGL_GREEN_SIZE,
                                 8,
                                 EGL_BLUE_SIZE,
                                 8,
                                 EGL_NONE};
    EGLConfig config = nullptr;
    EGLint n = 0;
    const bool haveConfig = eglChooseConfig(c.display, cfgAttribs, &config, 1, &n) && n == 1;
    const char* ext = eglQueryString(c.display, EGL_EXTENSIONS);
    const bool surfaceless = hasExtension(ext, "EGL_KHR_surfaceless_context");
    if (!haveConfig && !(surfaceless && hasExtension(ext, "EGL_KHR_no_config_context")))
      return Status::fail("no EGL config for desktop OpenGL on " + c.platform);
    const EGLint ctxAttribs[] = {
        EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    ctx.m_context = eglCreateContext(c.display, haveConfig ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctxAttribs);
    if (ctx.m_context == EGL_NO_CONTEXT) return Status::fail(eglErrorText("eglCreateContext(OpenGL 3.3 core)"));
    if (!surfaceless) {
      const EGLint pb[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
      ctx.m_surface = eglCreatePbufferSurface(c.display, config, pb);
      if (ctx.m_surface == EGL_NO_SURFACE) return Status::fail(eglErrorText("eglCreatePbufferSurface"));
    }
    return ctx.makeCurrent();
  }

  static void describe(const Choice& c, const ContextOptions& o, ContextInfo& info) {
    auto str = [](GLenum e) {
      const auto* s = reinterpret_cast<const char*>(glGetString(e));
      return std::string(s ? s : "?");
    };
    info.vendor = str(GL_VENDOR);
    info.renderer = str(GL_RENDERER);
    info.version = str(GL_VERSION);
    info.platform = c.platform;
    info.onCudaDevice = c.onCuda;
    info.cudaOrdinal = c.onCuda ? o.cudaOrdinal : -1;
    const std::string who = shortRenderer(info.vendor, info.renderer);
    info.reason = c.onCuda ? "GL runs on " + who + " (EGL device of CUDA device " + std::to_string(o.cudaOrdinal) + ")"
                           : "GL runs on " + who + " (no CUDA device behind it)";
  }
};

Expected<std::unique_ptr<EglContext>> EglContext::create(const ContextOptions& options) {
  const std::vector<Choice> choices = candidates(options);
  if (choices.empty())
    return Status::fail(options.allowSoftware
                            ? "no EGL display (no EGL device, no surfaceless platform)"
                            : "no EGL device belongs to CUDA device " + std::to_string(options.cudaOrdinal));
  std::string errors;
  for (const Choice& c : choices) {
    std::unique_ptr<EglContext> ctx(new EglContext());
    const Status s = EglContextBuilder::open(c, *ctx);
    if (s.ok()) {
      EglContextBuilder::describe(c, options, ctx->m_info);
      return ctx;
    }
    errors += (errors.empty() ? "" : "; ") + c.platform + ": " + s.error;
  }
  return Status::fail("no OpenGL 3.3 context through EGL (" + errors + ")");
}

EglContext::~EglContext() {
  if (m_display == nullptr) return;
  // Release it only where it is current: another context current on this thread stays so.
  if (m_context && eglGetCurrentContext() == m_context)
    eglMakeCurrent(m_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (m_surface) eglDestroySurface(m_display, m_surface);
  if (m_context) eglDestroyContext(m_display, m_context);
  // The display is not terminated: EGL displays are per process and shared by every context on them.
}

Status EglContext::makeCurrent() {
  if (!eglBindAPI(EGL_OPENGL_API) || !eglMakeCurrent(m_display, m_surface, m_surface, m_context))
    return Status::fail(eglErrorText("eglMakeCurrent"));
  return {};
}

void EglContext::releaseThread() { eglReleaseThread(); }

void EglContext::release() {
  if (eglGetCurrentContext() == m_context) eglMakeCurrent(m_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

}  // namespace launchlab::gl
