#include "plot_shaders.h"

#include <vector>

namespace launchlab::gl::shaders {
namespace {

// Shared by the vertex shaders: uMap = (x scale, x offset, y scale, y offset) to normalised device coordinates;
// y is log10'd first when uLogY. A value is drawable when finite (tested on its bits: no compiler can fold it
// away) and, on a log axis, positive.
constexpr const char* kMapping = R"(#version 330 core
uniform vec4 uMap;
uniform int uLogY;
bool finite(float v) { return (floatBitsToUint(v) & 0x7f800000u) != 0x7f800000u; }
bool drawable(float y) { return finite(y) && (uLogY == 0 || y > 0.0); }
float mapY(float y) { return (uLogY != 0 ? log2(y) * 0.30102999566398120 : y) * uMap.z + uMap.w; }
)";

constexpr const char* kWaveformVs = R"(
layout(location = 0) in vec2 aPos;
out float vValid;
void main() {
  bool ok = drawable(aPos.y);
  vValid = ok ? 1.0 : 0.0;
  gl_Position = vec4(aPos.x * uMap.x + uMap.y, ok ? mapY(aPos.y) : 0.0, 0.0, 1.0);
}
)";
// A segment touching a gap vertex interpolates vValid below 1: all of it is discarded.
constexpr const char* kWaveformFs = R"(#version 330 core
in float vValid;
uniform vec4 uColor;
out vec4 fragColor;
void main() {
  if (vValid < 0.9999) discard;
  fragColor = uColor;
}
)";

// One quad per bar (instanced): corner from gl_VertexID (triangle strip), height from the per-instance attribute.
constexpr const char* kHistogramVs = R"(
layout(location = 0) in float aHeight;
uniform float uBase;
void main() {
  vec2 c = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  bool ok = drawable(aHeight) && drawable(uBase);
  float x = float(gl_InstanceID) + c.x;
  float y = ok ? mapY(c.y > 0.5 ? aHeight : uBase) : 0.0;
  gl_Position = vec4(x * uMap.x + uMap.y, ok ? y : 0.0, 0.0, 1.0);
}
)";
constexpr const char* kFlatFs = R"(#version 330 core
uniform vec4 uColor;
out vec4 fragColor;
void main() { fragColor = uColor; }
)";

// The image: a quad over the whole viewport; each fragment fetches its texel (nearest) and its LUT entry.
constexpr const char* kImageVs = R"(#version 330 core
out vec2 vUv;
void main() {
  vec2 c = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  vUv = c;
  gl_Position = vec4(c * 2.0 - 1.0, 0.0, 1.0);
}
)";
constexpr const char* kImageFs = R"(#version 330 core
in vec2 vUv;
uniform sampler2D uData;
uniform sampler2D uLut;
uniform vec2 uRange;   // lo, hi
uniform vec4 uNanColor;
uniform int uRowZeroAtTop;
out vec4 fragColor;
void main() {
  ivec2 size = textureSize(uData, 0);
  ivec2 t = clamp(ivec2(floor(vUv * vec2(size))), ivec2(0), size - 1);
  if (uRowZeroAtTop != 0) t.y = size.y - 1 - t.y;
  float v = texelFetch(uData, t, 0).r;
  if ((floatBitsToUint(v) & 0x7f800000u) == 0x7f800000u) { fragColor = uNanColor; return; }
  float f = uRange.y > uRange.x ? clamp((v - uRange.x) / (uRange.y - uRange.x), 0.0, 1.0) : 0.5;
  fragColor = texelFetch(uLut, ivec2(int(floor(f * 255.0 + 0.5)), 0), 0);
}
)";

constexpr const char* kPointsVs = R"(
layout(location = 0) in vec2 aPos;
layout(location = 1) in float aInside;
uniform float uSize;
flat out float vInside;
void main() {
  bool ok = finite(aPos.x) && drawable(aPos.y);
  vInside = aInside;
  gl_PointSize = uSize;
  gl_Position = ok ? vec4(aPos.x * uMap.x + uMap.y, mapY(aPos.y), 0.0, 1.0) : vec4(2.0, 2.0, 2.0, 1.0);
}
)";
constexpr const char* kPointsFs = R"(#version 330 core
flat in float vInside;
uniform vec4 uColor;
uniform vec4 uColor2;
out vec4 fragColor;
void main() { fragColor = vInside > 0.5 ? uColor : uColor2; }
)";

Expected<GLuint> compile(GLenum type, const std::string& source, const char* name) {
  GLuint s = glCreateShader(type);
  const char* src = source.c_str();
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (ok) return s;
  std::vector<char> log(4096);
  glGetShaderInfoLog(s, GLsizei(log.size()), nullptr, log.data());
  glDeleteShader(s);
  return Expected<GLuint>::fail(std::string(name) + " shader: " + log.data());
}

}  // namespace

Expected<GLuint> build(Program p) {
  static const char* const kNames[] = {"waveform", "histogram", "image", "points"};
  const std::string mapping = kMapping;
  const std::string vs[] = {mapping + kWaveformVs, mapping + kHistogramVs, kImageVs, mapping + kPointsVs};
  const char* const fs[] = {kWaveformFs, kFlatFs, kImageFs, kPointsFs};
  const auto i = static_cast<std::size_t>(p);
  Expected<GLuint> v = compile(GL_VERTEX_SHADER, vs[i], kNames[i]);
  if (!v.ok()) return v;
  Expected<GLuint> f = compile(GL_FRAGMENT_SHADER, fs[i], kNames[i]);
  if (!f.ok()) {
    glDeleteShader(*v);
    return f;
  }
  GLuint prog = glCreateProgram();
  glAttachShader(prog, *v);
  glAttachShader(prog, *f);
  glLinkProgram(prog);
  glDeleteShader(*v);
  glDeleteShader(*f);
  GLint ok = 0;
  glGetProgramiv(prog, GL_LINK_STATUS, &ok);
  if (ok) return prog;
  std::vector<char> log(4096);
  glGetProgramInfoLog(prog, GLsizei(log.size()), nullptr, log.data());
  glDeleteProgram(prog);
  return Expected<GLuint>::fail(std::string(kNames[i]) + " program: " + log.data());
}

}  // namespace launchlab::gl::shaders
