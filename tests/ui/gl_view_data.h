#pragma once
// The GL view tests' shared data: one hand-made implementation with a waveform, a histogram, an image and points,
// and the view data that shows each of them (tests/ui/test_gl_views.cpp, tests/ui/test_gl_canary.cpp).
#include <cmath>
#include <memory>

#include "plots/output_view.h"
#include "runs/controller.h"

namespace launchlab::ui::test {

constexpr std::size_t kRows = 32, kCols = 48;

/// One implementation ("cpu-serial") with a waveform, a histogram, an image and points, hand-made.
inline std::shared_ptr<RunOutcome> outcome() {
  auto o = std::make_shared<RunOutcome>();
  RunResult& r = o->result;
  r.workload = "gl";
  ImplResult i;
  i.implId = i.title = "cpu-serial";
  HostArray wave("wave", DType::F32, {1000});
  for (std::size_t k = 0; k < 1000; ++k) wave.view<float>()[k] = float(std::sin(double(k) / 50.0));
  HostArray hist("hist", DType::U32, {64});
  for (std::size_t b = 0; b < 64; ++b) hist.view<std::uint32_t>()[b] = std::uint32_t(10 + b);
  HostArray img("img", DType::F32, {kRows, kCols});
  for (std::size_t k = 0; k < kRows * kCols; ++k)
    img.view<float>()[k] = float(k);  // top-left lowest, bottom-right highest
  HostArray pts("pts", DType::F32, {3, 400});
  for (std::size_t j = 0; j < 400; ++j) {
    const float x = float(j % 20) / 20.0f, y = float(j / 20) / 20.0f;
    pts.view<float>()[j] = x;
    pts.view<float>()[400 + j] = y;
    pts.view<float>()[800 + j] = x * x + y * y <= 1 ? 1.0f : 0.0f;
  }
  i.outputs = {wave, hist, img, pts};
  r.impls.push_back(std::move(i));
  WorkloadInfo info;
  info.outputs = {{.name = "img", .title = "img", .plot = PlotKind::Image}};
  o->prepared = prepareRun(r, info);
  return o;
}

/// What a view of `kind` shows of `o`.
inline ViewData dataFor(PlotKind kind, const std::shared_ptr<RunOutcome>& o) {
  ViewData d;
  d.outcome = o;
  d.source = "cpu-serial";
  switch (kind) {
    case PlotKind::Waveform:
      d.spec = {.name = "wave", .title = "wave", .plot = kind};
      break;
    case PlotKind::Histogram:
      d.spec = {.name = "hist", .title = "hist", .plot = kind, .dtype = DType::U32, .xMin = 0.0, .xMax = 64.0};
      break;
    case PlotKind::Image:
      d.spec = {.name = "img", .title = "img", .plot = kind};
      break;
    default:
      d.spec = {.name = "pts", .title = "pts", .plot = PlotKind::Points};
      break;
  }
  return d;
}

}  // namespace launchlab::ui::test
