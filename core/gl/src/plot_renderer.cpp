#include "launchlab/gl/plot_renderer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gl_api.h"
#include "launchlab/plot/plot_geometry.h"
#include "plot_shaders.h"

namespace launchlab::gl {

namespace {
constexpr std::size_t kPrograms = static_cast<std::size_t>(shaders::Program::Count);

struct Buffer {
  GLuint id = 0;
  std::size_t bytes = 0;
};

std::string glErrorText(const char* what, GLenum e) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s: OpenGL error 0x%04x", what, static_cast<unsigned>(e));
  return buf;
}
/// Drains the GL error queue; the first error, if any, as a failed status.
Status checkGl(const char* what) {
  GLenum first = GL_NO_ERROR;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError())
    if (first == GL_NO_ERROR) first = e;
  return first == GL_NO_ERROR ? Status{} : Status::fail(glErrorText(what, first));
}

/// Scale and offset taking [a, b] to [-1, 1], computed in double (x relative to `shift`).
std::array<float, 2> axisMap(double a, double b, double shift) {
  const double s = 2.0 / (b - a);
  return {static_cast<float>(s), static_cast<float>(-1.0 - (a - shift) * s)};
}
}  // namespace

struct PlotRenderer::Impl {
  std::array<GLuint, kPrograms> programs{};
  GLuint vao = 0;
  GLuint fbo = 0, colorRb = 0;           // what is drawn into (multisampled when samples > 1)
  GLuint resolveFbo = 0, resolveRb = 0;  // single-sampled copy for readback when multisampled
  int samples = 0;
  Buffer waveform, histogram, image, points;
  GLuint imageTex = 0, lutTex = 0;
  int texCols = 0, texRows = 0;

  GLuint program(shaders::Program p) const { return programs[static_cast<std::size_t>(p)]; }
  GLint loc(shaders::Program p, const char* name) const { return glGetUniformLocation(program(p), name); }

  /// The buffer with at least `bytes` bytes. Growing makes a NEW buffer name (an interop registration of the old
  /// one must be dropped first, see gl_interop.h); capacity grows in powers of two.
  GLuint ensure(Buffer& b, std::size_t bytes) {
    if (b.id != 0 && b.bytes >= bytes) return b.id;
    std::size_t cap = 256;
    while (cap < bytes) cap *= 2;
    if (b.id != 0) glDeleteBuffers(1, &b.id);
    glGenBuffers(1, &b.id);
    glBindBuffer(GL_ARRAY_BUFFER, b.id);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(cap), nullptr, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (glGetError() != GL_NO_ERROR) {
      glDeleteBuffers(1, &b.id);
      b = {};
      return 0;
    }
    b.bytes = cap;
    return b.id;
  }
  Buffer* byName(GLuint id) {
    for (Buffer* b : {&waveform, &histogram, &image, &points})
      if (b->id == id && id != 0) return b;
    return nullptr;
  }

  void deleteFramebuffer() {
    const GLuint fbos[] = {fbo, resolveFbo};
    const GLuint rbs[] = {colorRb, resolveRb};
    glDeleteFramebuffers(2, fbos);
    glDeleteRenderbuffers(2, rbs);
    fbo = resolveFbo = colorRb = resolveRb = 0;
  }
  static Status makeTarget(GLuint& fb, GLuint& rb, int w, int h, int samples) {
    glGenFramebuffers(1, &fb);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    if (samples > 1)
      glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, w, h);
    else
      glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    if (Status s = checkGl("framebuffer storage"); !s.ok()) return s;
    const GLenum st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (st != GL_FRAMEBUFFER_COMPLETE) return Status::fail(glErrorText("framebuffer incomplete", st));
    return {};
  }

  /// Viewport and scissor on the plot rect (top-left origin -> GL's bottom-left), program bound, mapping set.
  Status begin(int fbHeight, const PlotRect& r, shaders::Program p) {
    if (fbo == 0) return Status::fail("no framebuffer: call resize() first");
    if (r.width <= 0 || r.height <= 0) return Status::fail("empty plot rectangle");
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glViewport(r.x, fbHeight - r.y - r.height, r.width, r.height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(r.x, fbHeight - r.y - r.height, r.width, r.height);
    glUseProgram(program(p));
    glBindVertexArray(vao);
    return {};
  }
  Status setMapping(shaders::Program p, const DataRange& d, double xShift) {
    double y0 = d.y0, y1 = d.y1;
    if (d.logY) {
      if (!(d.y0 > 0 && d.y1 > 0)) return Status::fail("a log axis needs a positive y range");
      y0 = std::log10(d.y0);
      y1 = std::log10(d.y1);
    }
    if (!(d.x1 != d.x0) || !(y1 != y0) || !std::isfinite(d.x1 - d.x0) || !std::isfinite(y1 - y0))
      return Status::fail("empty or non-finite data range");
    const auto x = axisMap(d.x0, d.x1, xShift);
    const auto y = axisMap(y0, y1, 0.0);
    glUniform4f(loc(p, "uMap"), x[0], x[1], y[0], y[1]);
    glUniform1i(loc(p, "uLogY"), d.logY ? 1 : 0);
    return {};
  }
  static void setColor(GLint l, Rgba c) { glUniform4f(l, c.r, c.g, c.b, c.a); }
  Status end(const char* what) {
    glDisableVertexAttribArray(0);
    glDisableVertexAttribArray(1);
    glVertexAttribDivisor(0, 0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glDisable(GL_SCISSOR_TEST);
    return checkGl(what);
  }
};

Expected<std::unique_ptr<PlotRenderer>> PlotRenderer::create() {
  std::unique_ptr<PlotRenderer> r(new PlotRenderer());
  r->m = std::make_unique<Impl>();
  for (std::size_t i = 0; i < kPrograms; ++i) {
    Expected<GLuint> p = shaders::build(static_cast<shaders::Program>(i));
    if (!p.ok()) return Status::fail(p.error());
    r->m->programs[i] = *p;
  }
  glGenVertexArrays(1, &r->m->vao);
  glGenTextures(1, &r->m->imageTex);
  glGenTextures(1, &r->m->lutTex);
  for (GLuint t : {r->m->imageTex, r->m->lutTex}) {
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  }
  glBindTexture(GL_TEXTURE_2D, r->m->lutTex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  if (Status s = checkGl("renderer set-up"); !s.ok()) return s;
  return r;
}

PlotRenderer::~PlotRenderer() {
  if (!m) return;
  m->deleteFramebuffer();
  for (GLuint p : m->programs) glDeleteProgram(p);
  for (Buffer* b : {&m->waveform, &m->histogram, &m->image, &m->points}) glDeleteBuffers(1, &b->id);
  const GLuint tex[] = {m->imageTex, m->lutTex};
  glDeleteTextures(2, tex);
  glDeleteVertexArrays(1, &m->vao);
}

Status PlotRenderer::resize(int width, int height, int samples) {
  if (width < 1 || height < 1 || width > kMaxFramebufferSide || height > kMaxFramebufferSide)
    return Status::fail("framebuffer size " + std::to_string(width) + "x" + std::to_string(height) + " is outside 1.." +
                        std::to_string(kMaxFramebufferSide));
  if (m->fbo != 0 && width == m_width && height == m_height && samples == m->samples) return {};  // kept as is
  GLint maxRb = 0, maxVp[2] = {0, 0}, maxSamples = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxRb);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, maxVp);
  glGetIntegerv(GL_MAX_SAMPLES, &maxSamples);
  const int limit = std::min<int>(maxRb, std::min(maxVp[0], maxVp[1]));
  if (width > limit || height > limit)
    return Status::fail("framebuffer size " + std::to_string(width) + "x" + std::to_string(height) +
                        " exceeds this device's limit " + std::to_string(limit));
  if (samples > maxSamples) return Status::fail("multisampling " + std::to_string(samples) + "x is not supported");
  checkGl("before resize");  // a stale error must not be blamed on the allocation
  m->deleteFramebuffer();
  m_width = m_height = 0;
  Status s = Impl::makeTarget(m->fbo, m->colorRb, width, height, samples);
  if (s.ok() && samples > 1) s = Impl::makeTarget(m->resolveFbo, m->resolveRb, width, height, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (!s.ok()) {
    m->deleteFramebuffer();
    return s;
  }
  m->samples = samples;
  m_width = width;
  m_height = height;
  return {};
}

void PlotRenderer::clear(Rgba c) {
  if (m->fbo == 0) return;
  glBindFramebuffer(GL_FRAMEBUFFER, m->fbo);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(c.r, c.g, c.b, c.a);
  glClear(GL_COLOR_BUFFER_BIT);
}

unsigned PlotRenderer::waveformBuffer(std::size_t n) { return m->ensure(m->waveform, n * sizeof(geom::Vertex2)); }
unsigned PlotRenderer::histogramBuffer(std::size_t n) { return m->ensure(m->histogram, n * sizeof(float)); }
unsigned PlotRenderer::imageBuffer(int cols, int rows) {
  if (cols < 1 || rows < 1) return 0;
  return m->ensure(m->image, std::size_t(cols) * std::size_t(rows) * sizeof(float));
}
unsigned PlotRenderer::pointBuffer(std::size_t n) { return m->ensure(m->points, n * sizeof(geom::PointVertex)); }

Status PlotRenderer::upload(unsigned buffer, const void* bytes, std::size_t size) {
  const Buffer* b = m->byName(buffer);
  if (!b) return Status::fail("upload: " + std::to_string(buffer) + " is not one of the renderer's buffers");
  if (size > b->bytes)
    return Status::fail("upload: " + std::to_string(size) + " bytes into a buffer of " + std::to_string(b->bytes));
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(size), bytes);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return checkGl("glBufferSubData");
}

Status PlotRenderer::readBuffer(unsigned buffer, void* out, std::size_t size) {
  const Buffer* b = m->byName(buffer);
  if (!b || size > b->bytes) return Status::fail("readBuffer: not one of the renderer's buffers, or too many bytes");
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(size), out);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return checkGl("glGetBufferSubData");
}

Status PlotRenderer::drawWaveform(const PlotRect& rect, const DataRange& range, std::uint64_t begin,
                                  std::size_t vertices, Rgba color, float lineWidth) {
  using shaders::Program;
  if (vertices * sizeof(geom::Vertex2) > m->waveform.bytes)
    return Status::fail("waveform: more vertices than the buffer holds");
  if (Status s = m->begin(m_height, rect, Program::Waveform); !s.ok()) return s;
  if (Status s = m->setMapping(Program::Waveform, range, static_cast<double>(begin)); !s.ok())
    return m->end("waveform"), s;
  Impl::setColor(m->loc(Program::Waveform, "uColor"), color);
  glBindBuffer(GL_ARRAY_BUFFER, m->waveform.id);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(geom::Vertex2), nullptr);
  GLfloat widths[2] = {1, 1};
  glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, widths);
  glLineWidth(std::clamp(lineWidth, widths[0], widths[1]));
  glDrawArrays(GL_LINE_STRIP, 0, static_cast<GLsizei>(vertices));
  glLineWidth(1);
  return m->end("waveform");
}

Status PlotRenderer::drawHistogram(const PlotRect& rect, const DataRange& range, std::size_t bars, Rgba color) {
  using shaders::Program;
  if (bars * sizeof(float) > m->histogram.bytes) return Status::fail("histogram: more bars than the buffer holds");
  if (Status s = m->begin(m_height, rect, Program::Histogram); !s.ok()) return s;
  if (Status s = m->setMapping(Program::Histogram, range, 0.0); !s.ok()) return m->end("histogram"), s;
  Impl::setColor(m->loc(Program::Histogram, "uColor"), color);
  glUniform1f(m->loc(Program::Histogram, "uBase"), static_cast<float>(range.y0));
  glBindBuffer(GL_ARRAY_BUFFER, m->histogram.id);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 1, GL_FLOAT, GL_FALSE, sizeof(float), nullptr);
  glVertexAttribDivisor(0, 1);
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(bars));
  return m->end("histogram");
}

Status PlotRenderer::drawImage(const PlotRect& rect, int cols, int rows, const ImageStyle& style,
                               std::span<const std::uint8_t> lut, bool reupload) {
  using shaders::Program;
  if (lut.size() != 4 * 256) return Status::fail("image: the colour map must have 256 RGBA entries");
  if (cols < 1 || rows < 1 || std::size_t(cols) * std::size_t(rows) * sizeof(float) > m->image.bytes)
    return Status::fail("image: " + std::to_string(cols) + "x" + std::to_string(rows) +
                        " does not fit the image buffer");
  if (Status s = m->begin(m_height, rect, Program::Image); !s.ok()) return s;
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, m->lutTex);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 256, 1, GL_RGBA, GL_UNSIGNED_BYTE, lut.data());
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, m->imageTex);
  if (reupload || cols != m->texCols || rows != m->texRows) {
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m->image.id);  // texels come from the PBO: no host copy here
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    if (cols != m->texCols || rows != m->texRows)
      glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, nullptr);
    else
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, cols, rows, GL_RED, GL_FLOAT, nullptr);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    if (Status s = checkGl("image texture upload"); !s.ok()) return m->end("image"), s;
    m->texCols = cols;
    m->texRows = rows;
  }
  const GLuint p = m->program(Program::Image);
  glUniform1i(glGetUniformLocation(p, "uData"), 0);
  glUniform1i(glGetUniformLocation(p, "uLut"), 1);
  glUniform2f(glGetUniformLocation(p, "uRange"), float(style.lo), float(style.hi));
  glUniform1i(glGetUniformLocation(p, "uRowZeroAtTop"), style.rowZeroAtTop ? 1 : 0);
  Impl::setColor(glGetUniformLocation(p, "uNanColor"), style.nanColor);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  return m->end("image");
}

Status PlotRenderer::drawPoints(const PlotRect& rect, const DataRange& range, std::size_t points, Rgba inside,
                                Rgba outside, float size) {
  using shaders::Program;
  if (points * sizeof(geom::PointVertex) > m->points.bytes)
    return Status::fail("points: more points than the buffer holds");
  if (Status s = m->begin(m_height, rect, Program::Points); !s.ok()) return s;
  if (Status s = m->setMapping(Program::Points, range, 0.0); !s.ok()) return m->end("points"), s;
  Impl::setColor(m->loc(Program::Points, "uColor"), inside);
  Impl::setColor(m->loc(Program::Points, "uColor2"), outside);
  glUniform1f(m->loc(Program::Points, "uSize"), size);
  glBindBuffer(GL_ARRAY_BUFFER, m->points.id);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(geom::PointVertex), nullptr);
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, sizeof(geom::PointVertex),
                        reinterpret_cast<const void*>(offsetof(geom::PointVertex, inside)));
  glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(points));
  return m->end("points");
}

void PlotRenderer::finish() { glFinish(); }

Status PlotRenderer::readRgba(std::span<std::uint8_t> out) {
  const std::size_t row = std::size_t(m_width) * 4;
  if (m->fbo == 0) return Status::fail("no framebuffer: call resize() first");
  if (out.size() < row * std::size_t(m_height)) return Status::fail("readback buffer too small");
  GLuint src = m->fbo;
  if (m->samples > 1) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, m->fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m->resolveFbo);
    glBlitFramebuffer(0, 0, m_width, m_height, 0, 0, m_width, m_height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    src = m->resolveFbo;
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, src);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, m_width, m_height, GL_RGBA, GL_UNSIGNED_BYTE, out.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (Status s = checkGl("glReadPixels"); !s.ok()) return s;
  // GL's rows start at the bottom: flip in place so row 0 is the top.
  std::vector<std::uint8_t> tmp(row);
  for (int y = 0; y < m_height / 2; ++y) {
    std::uint8_t* a = out.data() + std::size_t(y) * row;
    std::uint8_t* b = out.data() + std::size_t(m_height - 1 - y) * row;
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
  return {};
}

}  // namespace launchlab::gl
