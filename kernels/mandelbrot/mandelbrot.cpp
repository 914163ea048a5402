#include "mandelbrot/mandelbrot.h"

#include <numeric>
#include <string>

#include "common/cpu_loops.h"
#include "common/matrix_workload.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/verify.h"

namespace launchlab::kernels {

namespace mandelbrot {

View viewOf(const RunSetup& s) {
  return {s.params.number("x_min"), s.params.number("y_min"), s.params.number("step"),
          std::int32_t(s.params.integer("cap")), s.params.choice("output") == "escape-count"};
}

/// A round of Floyd's test: three steps z <- z^2 + c (x*x, y*y, their difference, + cx; 2*x, *y, + cy: 7 each) and
/// two escape tests (x*x + y*y: 3 each). An orbit's last round may stop after one or two steps, so the run's FLOP
/// count (rounds x 27) is an upper bound, by at most 17 per pixel.
constexpr double kFlopsPerRound = 3 * 7 + 2 * 3;

// Also the run's FLOP count: the rounds x kFlopsPerRound.
void recordRoundRate(ImplContext& ctx, Phase timed) {
  const auto r = ctx.outputs[1].view<std::int32_t>();
  const double rounds = std::accumulate(r.begin(), r.end(), 0.0);
  const double ms = summarize(ctx.samples[timed]).medianMs;
  if (ms > 0) ctx.metrics["grounds_per_s"] = rounds / (ms * 1e-3) / 1e9;
  ctx.flops = kFlopsPerRound * rounds;
}

std::uint64_t scatterMultiplier(std::uint64_t pixels) {
  std::uint64_t m = 7919;  // a prime; the next candidates until one shares no factor with the pixel count
  while (pixels > 1 && std::gcd(m % pixels, pixels) != 1) m += 2;
  return pixels > 1 ? m % pixels : 1;
}

}  // namespace mandelbrot

namespace {

using namespace mandelbrot;

/// Rows shared out dynamically over the cores when Parallel (rows inside the set cost up to the cap, rows far
/// outside a few rounds).
template <bool Parallel>
void runCpu(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) {
    using R = decltype(tag);
    const MatrixShape m = matrixShape(ctx.setup);
    const View v = viewOf(ctx.setup);
    std::int32_t* iters = ctx.outputs[0].view<std::int32_t>().data();
    std::int32_t* work = ctx.outputs[1].view<std::int32_t>().data();
    auto row = [&](std::size_t j) {
      const R cy = coordinate<R>(v.yMin, j, v.step);
      for (std::size_t i = 0; i < m.cols; ++i) {
        const Pixel p = classify<R>(coordinate<R>(v.xMin, i, v.step), cy, v.capRounds);
        iters[j * m.cols + i] = shown(p, v.escapeCount);
        work[j * m.cols + i] = p.rounds;
      }
    };
    runCpuTimed(ctx, [&] {
      if constexpr (Parallel) {
#pragma omp parallel for schedule(dynamic, 1)
        for (std::size_t j = 0; j < m.rows; ++j) row(j);
      } else {
        for (std::size_t j = 0; j < m.rows; ++j) row(j);
      }
    });
    recordRoundRate(ctx, Phase::Cpu);
  });
}

class Mandelbrot final : public MatrixWorkload {
 public:
  Mandelbrot() {
    auto& i = m_info;
    i.id = "mandelbrot";
    i.title = "Mandelbrot set: a pixel per thread, and what divergence costs";
    i.chapter = kChapterAtlasPython;
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 1000;
    i.maxN = 1u << 15;
    i.sizeLabel = "rows (N): pixels along y; the image is N x cols (cols = 0: N x N)";
    i.launchDims = 2;
    i.params = {colsParam(),
                {.name = "x_min",
                 .label = "x of column 0",
                 .help = "Real part of the left edge (tutorial: -2).",
                 .kind = ParamSpec::Kind::Real,
                 .defaultValue = -2,
                 .minValue = -4,
                 .maxValue = 4},
                {.name = "y_min",
                 .label = "y of row 0",
                 .help = "Imaginary part of the first row (tutorial: -1.5).",
                 .kind = ParamSpec::Kind::Real,
                 .defaultValue = -1.5,
                 .minValue = -4,
                 .maxValue = 4},
                {.name = "step",
                 .label = "Pixel size",
                 .help = "Distance between neighbouring pixels (tutorial: 0.003).",
                 .kind = ParamSpec::Kind::Real,
                 .defaultValue = 0.003,
                 .minValue = 1e-12,
                 .maxValue = 1,
                 .logScale = true},
                {.name = "cap",
                 .label = "Round cap",
                 .unit = "rounds",
                 .help = "Most rounds of Floyd's test per pixel (2 hare steps each); an orbit still undecided counts "
                         "as inside, so a low cap grows the set at its border.",
                 .kind = ParamSpec::Kind::Integer,
                 .defaultValue = 1000,
                 .minValue = 1,
                 .maxValue = 1000000,
                 .logScale = true},
                {.name = "output",
                 .label = "Colouring",
                 .help = "membership: 1 inside, 0 outside (the tutorial); escape-count: the hare's step at which "
                         "|z|^2 > 4, 0 inside.",
                 .kind = ParamSpec::Kind::Choice,
                 .choices = {"membership", "escape-count"}}};
    i.outputs = {{.name = "iters",
                  .title = "Mandelbrot set (membership or escape step)",
                  .plot = PlotKind::Image,
                  .xLabel = "column (x)",
                  .yLabel = "value",
                  .dtype = DType::I32},
                 {.name = "rounds",
                  .title = "Work per pixel: rounds of Floyd's test",
                  .plot = PlotKind::Image,
                  .xLabel = "column (x)",
                  .yLabel = "rounds",
                  .dtype = DType::I32}};

    addReference("CPU serial", "One core, pixel by pixel: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP, dynamic rows)",
           "All cores; rows handed out one at a time (schedule(dynamic)) because their costs differ.", runCpu<true>);
    addGpu("cuda-per-pixel", "CUDA a thread per pixel",
           "Thread (x, y) of a 2-D grid takes pixel (x, y): a warp covers neighbouring pixels (8 x 4 with the auto "
           "block 8 x 16; 32 of a row with 32 x 8), whose orbits are alike.",
           LAUNCHLAB_CUDA_ENTRY(mandelbrot::cudaPerPixel));
    addGpu("cuda-scattered", "CUDA scattered pixels (divergence)",
           "The same work, but thread t takes pixel (t * m) mod N (m coprime with N): a warp's 32 pixels lie all "
           "over the image, so almost every warp holds a member and runs to the cap.",
           LAUNCHLAB_CUDA_ENTRY(mandelbrot::cudaScattered));
    addGpu("cuda-fma", "CUDA a thread per pixel, fused multiply-adds",
           "cuda-per-pixel with z^2 + c and |z|^2 written as fused multiply-adds (one rounding each): the same 27 "
           "operations a round in fewer instructions, at the price of orbits that differ from the CPU's in the last "
           "bits (border pixels may change sides: counted by the verification).",
           LAUNCHLAB_CUDA_ENTRY(mandelbrot::cudaFma));
    addGpu("cuda-array-passes", "CUDA array-oriented: one masked pass per round (as NumPy/CuPy)",
           "The array program's way: the orbits live in whole-image arrays and every round of Floyd's test is one "
           "kernel over all pixels, the decided ones masked out, for cap rounds (the seed's point: the problem can't "
           "be fully vectorized, so the array version does the longest orbit's work everywhere). Same verdicts as "
           "cuda-per-pixel, bit for bit.",
           LAUNCHLAB_CUDA_ENTRY(mandelbrot::cudaArrayPasses))
        .runByDefault = false;  // run by the atlas-mandelbrot preset
  }

  std::vector<HostArray> makeInputs(const RunSetup&) const override { return {}; }
  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    const MatrixShape m = shapeOf(s);
    return {{m.rows, m.cols}, {m.rows, m.cols}};
  }
  std::string validate(const RunSetup& s) const override {
    const MatrixShape m = shapeOf(s);
    if (m.cols > (std::uint64_t(1) << 15)) return "at most 32768 columns";
    return {};
  }
  double bytesMoved(const RunSetup& s) const override { return 8.0 * double(shapeOf(s).elements()); }

  /// The exact variants compute the CPU's orbit bit for bit (mandelbrot.h rounds every operation once), so their
  /// outputs should be equal; a few differing pixels (a library or compiler that still rounds differently) are
  /// accepted up to 0.1 % per output and counted, never hidden. cuda-fma rounds each multiply-add once: its orbits
  /// differ in the last bits, so pixels on the border may change sides (up to 0.5 % of 'iters', counted) and the
  /// round at which Floyd's test sees a cycle differs inside the set ('rounds' is its own work, not compared).
  Verification verify(const RunSetup& s, const std::vector<HostArray>& ref, const std::vector<HostArray>& got,
                      const ImplSpec& impl) const override {
    const bool fma = impl.id == "cuda-fma";
    const std::uint64_t pixels = shapeOf(s).elements(), bound = pixels / (fma ? 200 : 1000);
    const std::size_t compared = fma ? 1 : ref.size();
    std::vector<Verification> parts;
    bool within = true;
    for (std::size_t k = 0; k < compared; ++k) {
      parts.push_back(compareArrays(ref[k], got[k], Tolerance::exact()));
      within = within && parts.back().compared == pixels && parts.back().mismatches <= bound;
    }
    Verification v = mergeVerifications(parts);
    v.outcome = within ? Verification::Outcome::Pass : Verification::Outcome::Fail;
    v.note = fma ? std::to_string(v.mismatches) + " of " + std::to_string(pixels) +
                       " pixels of 'iters' differ (FMA rounding moves border pixels; accepted: up to 0.5 %); 'rounds' "
                       "not compared (cycles are found at other rounds)"
                 : std::to_string(v.mismatches) + " values differ over both outputs of " + std::to_string(pixels) +
                       " pixels (accepted: up to 0.1 % per output, border pixels where rounding decides)";
    return v;
  }
};

}  // namespace

void register_mandelbrot(Registry& r) { r.add(std::make_unique<Mandelbrot>()); }

}  // namespace launchlab::kernels
