#pragma once
/// A headless OpenGL context through EGL (no window system): desktop OpenGL 3.3+ core profile, surfaceless or on a
/// 1x1 pbuffer; everything is drawn into the renderer's framebuffer objects. No EGL or GL types in this header.
///
/// Which device: EGL's device platform (eglQueryDevicesEXT) is searched for the device whose EGL_CUDA_DEVICE_NV
/// equals the requested CUDA ordinal: a context there can share buffers with CUDA (interop). Otherwise a
/// software device (Mesa llvmpipe, EGL_MESA_device_software), then Mesa's surfaceless platform, then the default
/// display: GL works, buffers are fed from host memory. ContextInfo::reason says which, in one line.
///
/// Threads: an OpenGL context is current on at most one thread at a time. create() leaves it current on the
/// calling thread; a render thread that takes it over calls release() on the old thread, then makeCurrent() on its
/// own. Every GL call of the renderer using it must come from the thread where it is current.
#include <memory>
#include <string>

#include "launchlab/gl/status.h"

namespace launchlab::gl {

struct ContextOptions {
  /// The CUDA device whose EGL device is wanted (interop); -1: none (software or any device).
  int cudaOrdinal = 0;
  /// Look for a non-CUDA device (Mesa) when the CUDA one is not found. False: fail instead.
  bool allowSoftware = true;
};

struct ContextInfo {
  std::string vendor, renderer, version;  ///< GL_VENDOR, GL_RENDERER, GL_VERSION
  std::string platform;                   ///< "EGL device 2 of 3", "EGL surfaceless (Mesa)", "EGL default display"
  bool onCudaDevice = false;              ///< the EGL device is CUDA device `cudaOrdinal` (interop possible)
  int cudaOrdinal = -1;
  /// One line: "GL runs on NVIDIA H200 (EGL device of CUDA device 0)" /
  /// "GL runs on Mesa llvmpipe (no CUDA device behind it)".
  std::string reason;
};

class EglContext {
 public:
  static Expected<std::unique_ptr<EglContext>> create(const ContextOptions& options = {});
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  const ContextInfo& info() const { return m_info; }
  /// Makes the context current on the calling thread / releases it from the calling thread (when current there).
  /// The destructor releases it too; destroy it on the thread where it is current, or after release().
  Status makeCurrent();
  void release();
  /// Frees the calling thread's EGL state (eglReleaseThread). Call it last on a thread that used EGL and is about
  /// to end: libglvnd otherwise tears that state down in the thread's exit, which can race the process's own exit.
  static void releaseThread();

 private:
  EglContext() = default;
  friend struct EglContextBuilder;
  void* m_display = nullptr;
  void* m_context = nullptr;
  void* m_surface = nullptr;
  ContextInfo m_info;
};

}  // namespace launchlab::gl
