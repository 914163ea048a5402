#pragma once
// The renderer's GLSL programs (OpenGL 3.3 core) and their compilation.
#include <string>

#include "gl_api.h"
#include "launchlab/gl/status.h"

namespace launchlab::gl::shaders {

enum class Program { Waveform, Histogram, Image, Points, Count };
/// Compiles and links one program; the error names the program and carries the driver's log.
Expected<GLuint> build(Program p);

}  // namespace launchlab::gl::shaders
