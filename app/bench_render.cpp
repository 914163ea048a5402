// launchlab-cli bench-render: what one frame of a GPU plot view costs, phase by phase, by the interop path and by
// the host path in the same run (docs/PERFORMANCE.md, "GPU-rendered plots").
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include "cli_render.h"
#include "launchlab/files/atomic_file.h"

#if LAUNCHLAB_HAVE_GL
#include "launchlab/gl/egl_context.h"
#include "render/render_view.h"
#endif

namespace launchlab::cli {

#if !LAUNCHLAB_HAVE_GL
int cmdBenchRender(Engine&, const std::string&, bool) {
  std::cerr << "launchlab-cli: bench-render: this build has no OpenGL renderer\n";
  return 1;
}
#else
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kFrameW = 1920, kFrameH = 1080, kWarmup = 3;

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

/// Per-frame phases (ms); host path: `feed` is CPU M4 + glBufferSubData, interop: map + kernel + unmap.
struct Phases {
  std::vector<double> map, kernel, unmap, feed, draw, readback;
  nlohmann::json summary() const {
    auto m = [](const std::vector<double>& v) {
      return v.empty() ? nlohmann::json(nullptr) : nlohmann::json(median(v));
    };
    return {{"map_ms", m(map)},
            {"kernel_ms", m(kernel)},
            {"unmap_ms", m(unmap)},
            {"feed_ms", m(feed)},
            {"draw_ms", m(draw)},
            {"readback_ms", m(readback)},
            {"frame_ms", median(feed) + median(draw)}};
  }
};

struct Bench {
  gl::PlotRenderer& r;
  render::ViewFeeder feeder;
  int reps;

  /// One view fed and drawn `reps` times after kWarmup (window moved by `step` elements per frame: pan).
  gl::Expected<Phases> frames(const render::ViewSource& src, render::ViewWindow w, render::FeedPath path,
                              std::int64_t step = 0) {
    Phases p;
    std::vector<std::uint8_t> rgba(std::size_t(kFrameW) * kFrameH * 4);
    for (int i = 0; i < kWarmup + reps; ++i) {
      render::InteropTimes t;
      r.finish();
      const auto t0 = Clock::now();
      auto fed = feeder.feed(r, src, w, path, kFrameW, &t);
      if (!fed.ok()) return gl::Status::fail(fed.error());
      r.finish();  // the host path's glBufferSubData has landed
      const double feedMs = msSince(t0);
      const auto t1 = Clock::now();
      r.clear({1, 1, 1, 1});
      if (gl::Status s = render::ViewFeeder::draw(r, *fed, {0, 0, kFrameW, kFrameH}); !s.ok()) return s;
      r.finish();
      const double drawMs = msSince(t1);
      const auto t2 = Clock::now();
      if (gl::Status s = r.readRgba(rgba); !s.ok()) return s;
      const double readMs = msSince(t2);
      w.begin += std::uint64_t(step);
      w.end += std::uint64_t(step);
      if (i < kWarmup) continue;
      if (path == render::FeedPath::Interop) {
        p.map.push_back(t.mapMs);
        p.kernel.push_back(t.kernelMs);
        p.unmap.push_back(t.unmapMs);
        p.feed.push_back(t.mapMs + t.kernelMs + t.unmapMs);
      } else {
        p.feed.push_back(feedMs);
      }
      p.draw.push_back(drawMs);
      p.readback.push_back(readMs);
    }
    return p;
  }
};

/// Both paths on one view; the JSON row and a printed line.
gl::Status compare(Bench& b, const std::string& name, const render::ViewSource& src, const render::ViewWindow& w,
                   std::int64_t step, nlohmann::json& rows) {
  auto gpu = b.frames(src, w, render::FeedPath::Interop, step);
  auto host = b.frames(src, w, render::FeedPath::HostUpload, step);
  if (!gpu.ok() || !host.ok()) return gl::Status::fail(!gpu.ok() ? gpu.error() : host.error());
  nlohmann::json row{{"view", name}, {"interop", gpu->summary()}, {"host", host->summary()}};
  const double gi = row["interop"]["frame_ms"], hi = row["host"]["frame_ms"];
  row["host_over_interop"] = gi > 0 ? hi / gi : 0.0;
  std::printf(
      "%-34s interop %8.3f ms (map %.3f kernel %.3f unmap %.3f draw %.3f)  host %8.3f ms  ratio %6.1fx  "
      "readback %.2f ms\n",
      name.c_str(), gi, double(row["interop"]["map_ms"]), double(row["interop"]["kernel_ms"]),
      double(row["interop"]["unmap_ms"]), double(row["interop"]["draw_ms"]), hi, double(row["host_over_interop"]),
      double(row["interop"]["readback_ms"]));
  rows.push_back(row);
  return {};
}

/// A whole view (histogram, image, points) of host data, uploaded once to the device for the interop path.
struct ViewData {
  std::string name;
  PlotKind kind;
  DType dt;
  std::vector<std::size_t> shape;
  const void* host;
  std::size_t bytes;
};

gl::Status compareView(Bench& b, const ViewData& v, nlohmann::json& rows) {
  render::DeviceCopy onDevice(v.host, v.bytes);
  if (!onDevice.error().empty()) return gl::Status::fail(onDevice.error());
  render::ViewWindow w;
  if (v.kind == PlotKind::Image) w.valueRange = {{-1.0, 1.0}};     // the colour range
  if (v.kind == PlotKind::Points) w.valueRange = {{-0.05, 1.05}};  // the unit square and a margin
  return compare(b, v.name, {v.kind, v.dt, v.shape, v.host, onDevice.data()}, w, 0, rows);
}

/// What map + unmap alone cost (an empty fill), on a buffer GL has not touched since the last frame and on one GL
/// drew from just before (glFinish'd): where the interop frame's fixed cost comes from. Host wall time, median.
gl::Status mapCost(int reps, nlohmann::json& out) {
  auto own = gl::PlotRenderer::create();
  if (!own.ok()) return gl::Status::fail(own.error());
  gl::PlotRenderer& r = **own;
  if (gl::Status s = r.resize(64, 64); !s.ok()) return s;
  const std::size_t n = 4096;
  render::GlBufferInterop ib;
  if (std::string e = ib.attach(r.waveformBuffer(n), n * 8); !e.empty()) return gl::Status::fail(e);
  auto noop = [](void*) { return geom::gpu::Built{}; };
  nlohmann::json row;
  for (const bool drawBetween : {false, true}) {
    std::vector<double> host, eventMap;
    for (int i = 0; i < kWarmup + reps; ++i) {
      if (drawBetween) {
        (void)r.drawWaveform({0, 0, 64, 64}, {0, 1, 0, 1}, 0, n, {0, 0, 0, 1});
        r.finish();
      }
      render::InteropTimes t;
      const auto t0 = Clock::now();
      const geom::gpu::Built b = ib.frame(noop, nullptr, &t);
      const double ms = msSince(t0);
      if (!b.ok()) return gl::Status::fail(b.error);
      if (i < kWarmup) continue;
      host.push_back(ms);
      eventMap.push_back(t.mapMs);
    }
    row[drawBetween ? "after_gl_draw" : "idle"] = {{"map_unmap_host_ms", median(host)},
                                                   {"map_event_ms", median(eventMap)}};
  }
  std::printf(
      "map + unmap alone: %.3f ms (buffer idle), %.3f ms (GL drew from it just before); event-timed map "
      "%.3f / %.3f ms\n",
      double(row["idle"]["map_unmap_host_ms"]), double(row["after_gl_draw"]["map_unmap_host_ms"]),
      double(row["idle"]["map_event_ms"]), double(row["after_gl_draw"]["map_event_ms"]));
  out = row;
  return {};
}

/// Waveforms: a noisy sine of n f32 samples, drawn whole, zoomed to a 16th, and panned by a 64th per frame.
gl::Status benchWaveforms(Bench& b, bool quick, nlohmann::json& rows) {
  const int maxLog = quick ? 22 : 27;
  std::vector<float> data(std::size_t(1) << maxLog);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = float(std::sin(double(i) * 1e-5) + 0.2 * std::sin(double(i) * 0.37));
  for (int lg = 16; lg <= maxLog; ++lg) {  // from below every crossover (gl_path.h) to the largest views
    const std::uint64_t n = std::uint64_t(1) << lg;
    render::DeviceCopy onDevice(data.data(), n * sizeof(float));
    if (!onDevice.error().empty()) return gl::Status::fail(onDevice.error());
    const render::ViewSource src{PlotKind::Waveform, DType::F32, {std::size_t(n)}, data.data(), onDevice.data()};
    render::ViewWindow full;
    full.valueRange = {{-1.3, 1.3}};
    render::ViewWindow zoom = full;
    zoom.begin = n / 2 - n / 32;
    zoom.end = n / 2 + n / 32;
    const std::string tag = "waveform 2^" + std::to_string(lg);
    for (auto [name, w, step] :
         {std::tuple{tag + " full", full, std::int64_t(0)}, std::tuple{tag + " zoom 1/16", zoom, std::int64_t(0)},
          std::tuple{tag + " pan", zoom, std::int64_t(n / 1024)}})
      if (gl::Status s = compare(b, name, src, w, step, rows); !s.ok()) return gl::Status::fail(name + ": " + s.error);
  }
  return {};
}

/// The other views at several sizes around their crossovers (gl_path.h): each size is a row of both paths.
gl::Status benchOtherViews(Bench& b, nlohmann::json& rows) {
  std::vector<std::uint32_t> counts(std::size_t(1) << 18);
  for (std::size_t i = 0; i < counts.size(); ++i)
    counts[i] = std::uint32_t(1000 * std::exp(-std::pow((double(i) - 32768) / 8000, 2)));
  for (int lg : {10, 12, 14, 16, 18}) {
    const std::size_t bins = std::size_t(1) << lg;
    const ViewData v{"histogram 2^" + std::to_string(lg) + " bins",
                     PlotKind::Histogram,
                     DType::U32,
                     {bins},
                     counts.data(),
                     bins * 4};
    if (gl::Status s = compareView(b, v, rows); !s.ok()) return gl::Status::fail(v.name + ": " + s.error);
  }
  for (std::size_t side : {64, 128, 256, 512, 1024, 2048}) {
    std::vector<float> image(side * side);
    for (std::size_t i = 0; i < image.size(); ++i)
      image[i] = float(std::sin(double(i % side) * 0.01) * std::cos(double(i / side) * 0.013));
    const std::string name = "image " + std::to_string(side) + "x" + std::to_string(side);
    const ViewData v{name, PlotKind::Image, DType::F32, {side, side}, image.data(), image.size() * 4};
    if (gl::Status s = compareView(b, v, rows); !s.ok()) return gl::Status::fail(v.name + ": " + s.error);
  }
  for (int lg : {10, 12, 14, 16, 18, 20}) {
    const std::size_t k = std::size_t(1) << lg;
    std::vector<float> points(3 * k);
    for (std::size_t i = 0; i < k; ++i) {
      const float x = float((i * 2654435761u) % 1000003) / 1000003.f, y = float((i * 40503u + 7) % 999983) / 999983.f;
      points[i] = x;
      points[k + i] = y;
      points[2 * k + i] = x * x + y * y <= 1 ? 1.f : 0.f;
    }
    const ViewData v{
        "points 2^" + std::to_string(lg), PlotKind::Points, DType::F32, {3, k}, points.data(), points.size() * 4};
    if (gl::Status s = compareView(b, v, rows); !s.ok()) return gl::Status::fail(v.name + ": " + s.error);
  }
  return {};
}

}  // namespace

int cmdBenchRender(Engine& engine, const std::string& json, bool quick) {
  auto fail = [](const std::string& why) {
    std::cerr << "launchlab-cli: bench-render: " << why << "\n";
    return 1;
  };
  const DeviceStatus dev = engine.deviceStatus();
  if (!dev.available) return fail("no CUDA GPU (" + dev.reason + ")");
  auto ctx = gl::EglContext::create({.cudaOrdinal = dev.info.index, .allowSoftware = false});
  if (!ctx.ok()) return fail("no OpenGL on the GPU through EGL: " + ctx.error());
  if (const render::InteropSupport s = render::interopSupport(dev.info.index); !s.possible)
    return fail("no CUDA–OpenGL interop: " + s.reason);
  auto renderer = gl::PlotRenderer::create();
  if (!renderer.ok()) return fail(renderer.error());
  if (gl::Status s = (*renderer)->resize(kFrameW, kFrameH); !s.ok()) return fail(s.error);
  Bench b{**renderer, {}, quick ? 5 : 20};
  nlohmann::json rows = nlohmann::json::array();
  std::printf("bench-render on %s, %dx%d frames, median of %d after %d warm-up (%s)\n", (*ctx)->info().renderer.c_str(),
              kFrameW, kFrameH, b.reps, kWarmup, (*ctx)->info().reason.c_str());
  if (gl::Status s = benchWaveforms(b, quick, rows); !s.ok()) return fail(s.error);
  nlohmann::json mapOnly;
  if (gl::Status s = mapCost(b.reps, mapOnly); !s.ok()) return fail("map cost: " + s.error);
  if (gl::Status s = benchOtherViews(b, rows); !s.ok()) return fail(s.error);
  for (auto& row : rows) row["interop_fps"] = 1000.0 / std::max(1e-6, double(row["interop"]["frame_ms"]));
  if (!json.empty()) {
    const nlohmann::json doc{{"schema", "launchlab.bench_render"},
                             {"device", (*ctx)->info().renderer},
                             {"frame", {kFrameW, kFrameH}},
                             {"reps", b.reps},
                             {"rows", rows},
                             {"map_unmap_alone", mapOnly}};
    if (json == "-")
      std::cout << doc.dump(2) << "\n";
    else
      files::writeAtomic(json, doc.dump(2) + "\n");
  }
  return 0;
}
#endif

}  // namespace launchlab::cli
