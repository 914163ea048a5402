// launchlab-cli render: one output of a run drawn by the GL renderer (core/gl) through EGL into a PNG, by the
// interop path on a CUDA machine, else (--allow-software) by the host path on Mesa.
#include "cli_render.h"

#include <CLI/CLI.hpp>
#include <charconv>
#include <iostream>
#include <vector>

#if LAUNCHLAB_HAVE_GL
#include "launchlab/gl/egl_context.h"
#include "launchlab/gl/png_writer.h"
#include "render/render_view.h"
#endif

namespace launchlab::cli {
namespace {

/// "1920x1080" -> {1920, 1080}, each 1..16384.
std::pair<int, int> parseSize(const std::string& s) {
  const auto x = s.find('x');
  int w = 0, h = 0;
  const char* end = s.data() + s.size();
  const bool ok = x != std::string::npos && std::from_chars(s.data(), s.data() + x, w).ptr == s.data() + x &&
                  std::from_chars(s.data() + x + 1, end, h).ptr == end;
  if (!ok || w < 1 || h < 1 || w > 16384 || h > 16384)
    throw RenderInputError("--size: '" + s + "' must be WIDTHxHEIGHT, each 1 to 16384 (e.g. 1920x1080)");
  return {w, h};
}

/// "BEGIN:END" -> element indices, BEGIN < END.
std::pair<std::uint64_t, std::uint64_t> parseRange(const std::string& s) {
  const auto c = s.find(':');
  std::uint64_t b = 0, e = 0;
  const char* end = s.data() + s.size();
  const bool ok = c != std::string::npos && std::from_chars(s.data(), s.data() + c, b).ptr == s.data() + c &&
                  std::from_chars(s.data() + c + 1, end, e).ptr == end;
  if (!ok || b >= e) throw RenderInputError("--range: '" + s + "' must be BEGIN:END element indices with BEGIN < END");
  return {b, e};
}

const ArraySpec& outputSpec(const Engine& engine, const std::string& workload, const std::string& name) {
  const Workload* w = engine.registry().find(workload);
  if (!w) throw RenderInputError("unknown workload '" + workload + "'");
  std::string known;
  for (const ArraySpec& a : w->info().outputs) {
    if (a.name == name) return a;
    known += (known.empty() ? "" : ", ") + a.name;
  }
  throw RenderInputError("--output: " + workload + " has no output '" + name + "' (its outputs: " + known + ")");
}

#if LAUNCHLAB_HAVE_GL
/// The implementation whose output is drawn: the one asked for, else the first GPU one that ran, else the first.
const ImplResult* pickImpl(const RunResult& r, const std::string& output) {
  const ImplResult* best = nullptr;
  for (const ImplResult& i : r.impls) {
    const bool has = i.status == Status::Ok && std::any_of(i.outputs.begin(), i.outputs.end(),
                                                           [&](const HostArray& a) { return a.name() == output; });
    if (has && (!best || (i.gpu && !best->gpu))) best = &i;
  }
  return best;
}

int fail(const std::string& why) {
  std::cerr << "launchlab-cli: render: " << why << "\n";
  return 1;
}
#endif

}  // namespace

void addRenderOptions(CLI::App* cmd, RenderOptions& o) {
  cmd->add_option("--output", o.output,
                  "The output to draw (see 'list'): a waveform, histogram, image or points output")
      ->required();
  cmd->add_option("--png", o.png, "Write the picture to FILE.png")->required();
  cmd->add_option("--size", o.size, "Picture size WIDTHxHEIGHT")->default_str("1280x720");
  cmd->add_option("--range", o.range, "Waveforms: draw elements BEGIN:END only (zoom)");
  cmd->add_flag("--host-upload", o.hostUpload, "Feed GL from host memory even where CUDA–OpenGL interop works");
  cmd->add_flag("--allow-software", o.allowSoftware,
                "Without a GPU or EGL device, draw through Mesa (software GL, host path) instead of failing");
}

int cmdRender(Engine& engine, RunRequest req, const RenderOptions& o) {
  const auto [width, height] = parseSize(o.size);
  const ArraySpec& spec = outputSpec(engine, req.workload, o.output);
  if (!o.range.empty() && spec.plot != PlotKind::Waveform) throw RenderInputError("--range: only for waveform outputs");
  const auto range = o.range.empty() ? std::pair<std::uint64_t, std::uint64_t>{0, 0} : parseRange(o.range);
#if !LAUNCHLAB_HAVE_GL
  (void)width, (void)height, (void)range;
  std::cerr
      << "launchlab-cli: render: this build has no OpenGL renderer (EGL, OpenGL or libpng missing at build time)\n";
  return 1;
#else
  if (std::string why = render::unsupportedKind(spec.plot); !why.empty()) throw RenderInputError("--output: " + why);
  render::ViewWindow window;
  std::tie(window.begin, window.end) = range;
  const DeviceStatus dev = engine.deviceStatus();
  if (!dev.available && !o.allowSoftware)
    return fail("no CUDA GPU (" + dev.reason + "): nothing to render on (--allow-software draws through Mesa)");
  const int ordinal = req.device.value_or(dev.available ? dev.info.index : 0);
  auto ctx = gl::EglContext::create({.cudaOrdinal = dev.available ? ordinal : -1, .allowSoftware = true});
  if (!ctx.ok()) return fail("no OpenGL through EGL: " + ctx.error());
  const gl::ContextInfo& info = (*ctx)->info();
  if (!info.onCudaDevice && !o.allowSoftware)
    return fail(info.reason + ": no GPU-rendered path (--allow-software draws through it by host upload)");
  const render::InteropSupport interop =
      info.onCudaDevice ? render::interopSupport(ordinal) : render::InteropSupport{false, info.reason};
  const bool useInterop = interop.possible && !o.hostUpload;
  const std::string pathLine = useInterop ? "GPU-rendered: CUDA–OpenGL interop (" + dev.info.name + ")"
                               : o.hostUpload && interop.possible ? "host upload (--host-upload): " + info.reason
                                                                  : "host upload: " + interop.reason;
  auto renderer = gl::PlotRenderer::create();
  if (!renderer.ok()) return fail(renderer.error());
  if (gl::Status s = (*renderer)->resize(width, height); !s.ok()) return fail(s.error);

  req.keepOutputs = true;
  const RunResult run = engine.run(req);
  if (run.status == Status::Failed) return fail("the run failed: " + run.reason);
  const ImplResult* impl = pickImpl(run, o.output);
  if (!impl) return fail("no implementation produced '" + o.output + "'");
  const HostArray& out = *std::find_if(impl->outputs.begin(), impl->outputs.end(),
                                       [&](const HostArray& a) { return a.name() == o.output; });
  if (window.end > out.size())
    throw RenderInputError("--range: ends after the output's " + std::to_string(out.size()) + " elements");
  std::optional<render::DeviceCopy> onDevice;
  if (useInterop && !onDevice.emplace(out.data(), out.bytes()).error().empty()) return fail(onDevice->error());
  const render::ViewSource src{spec.plot, out.dtype(), out.shape(), out.data(), onDevice ? onDevice->data() : nullptr};
  render::ViewFeeder feeder;
  gl::PlotRenderer& r = **renderer;
  auto fed = feeder.feed(r, src, window, useInterop ? render::FeedPath::Interop : render::FeedPath::HostUpload,
                         std::uint32_t(width));
  if (!fed.ok()) return fail(fed.error());
  r.clear({1, 1, 1, 1});
  if (gl::Status s = render::ViewFeeder::draw(r, *fed, {0, 0, width, height}); !s.ok()) return fail(s.error);
  std::vector<std::uint8_t> rgba(std::size_t(width) * std::size_t(height) * 4);
  if (gl::Status s = r.readRgba(rgba); !s.ok()) return fail(s.error);
  if (gl::Status s = gl::writePng(o.png, rgba, width, height); !s.ok()) return fail(s.error);
  std::cout << "rendered " << req.workload << " " << o.output << " (" << impl->implId << ", " << out.size()
            << " elements) at " << width << "x" << height << " into " << o.png << ": " << pathLine << "\n";
  return 0;
#endif
}

}  // namespace launchlab::cli
