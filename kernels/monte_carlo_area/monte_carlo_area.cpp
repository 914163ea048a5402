#include "monte_carlo_area/monte_carlo_area.h"

#include <numbers>
#include <numeric>
#include <stdexcept>

#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/verify.h"

namespace launchlab::kernels {

namespace monte_carlo_area {

Shape parseShape(const std::string& name) {
  if (name == "circle") return Shape::Circle;
  if (name == "mandelbrot") return Shape::Mandelbrot;
  throw std::invalid_argument("unknown shape '" + name + "'");
}

std::vector<std::uint64_t> runTrials(std::uint64_t n, bool series) {
  std::vector<std::uint64_t> trials;
  for (std::uint64_t decade = 1; series && decade * kThreads < n; decade *= 10)
    for (std::uint64_t m : {1, 2, 5})
      if (m * decade * kThreads < n) trials.push_back(m * decade * kThreads);
  trials.push_back(n);
  return trials;
}

std::uint64_t pointCount(std::uint64_t n) { return std::min({n, kThreads, kMaxPoints}); }

void recordTrialRate(ImplContext& ctx, Phase timed, const std::vector<std::uint64_t>& trials) {
  const double ms = summarize(ctx.samples[timed]).medianMs;
  const double all =
      std::accumulate(trials.begin(), trials.end(), 0.0, [](double a, std::uint64_t t) { return a + double(t); });
  if (ms > 0) ctx.metrics["trials_per_s"] = all / (ms * 1e-3);
}

}  // namespace monte_carlo_area

namespace {

using namespace monte_carlo_area;

bool seriesOn(const RunSetup& s) { return s.params.choice("convergence") == "independent"; }

/// Every run's hits: the 2^20 threads of each run one after the other (serial) or shared over the cores.
template <Shape S, typename R, bool Parallel>
void countRuns(const RunSetup& s, const std::vector<std::uint64_t>& trials, std::int32_t cap, double* cloud,
               std::vector<std::uint64_t>& hits) {
  const std::uint64_t count = pointCount(s.n);
  for (unsigned r = 0; r < trials.size(); ++r) {
    double* runCloud = r + 1 == trials.size() ? cloud : nullptr;
    const std::uint64_t active = std::min(trials[r], kThreads);
    std::uint64_t total = 0;
    if constexpr (Parallel) {
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : total)
      for (std::uint64_t t = 0; t < active; ++t)
        total += threadHits<S, R>(s.seed, r, trials[r], t, cap, runCloud, count);
    } else {
      for (std::uint64_t t = 0; t < active; ++t)
        total += threadHits<S, R>(s.seed, r, trials[r], t, cap, runCloud, count);
    }
    hits[r] = total;
  }
}

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  const auto& s = ctx.setup;
  const Shape shape = parseShape(s.params.choice("shape"));
  const auto cap = std::int32_t(s.params.integer("cap"));
  const std::vector<std::uint64_t> trials = runTrials(s.n, seriesOn(s));
  std::vector<std::uint64_t> hits(trials.size());
  double* cloud = ctx.outputs[2].view<double>().data();
  visitDTypeAmong<float, double>(s.dtype, [&](auto tag) {
    using R = decltype(tag);
    runCpuTimed(ctx, [&] {
      if (shape == Shape::Circle)
        countRuns<Shape::Circle, R, Parallel>(s, trials, cap, cloud, hits);
      else
        countRuns<Shape::Mandelbrot, R, Parallel>(s, trials, cap, cloud, hits);
    });
  });
  writeEstimates([&](unsigned r) { return hits[r]; }, trials.data(), unsigned(trials.size()), boxArea(shape),
                 ctx.outputs[0].view<double>().data(), ctx.outputs[1].view<double>().data());
  recordTrialRate(ctx, Phase::Cpu, trials);
}

class MonteCarloArea final : public BasicWorkload {
 public:
  MonteCarloArea() {
    auto& i = m_info;
    i.id = "monte_carlo_area";
    i.title = "Area by random sampling: pi from a circle, the Mandelbrot set's area";
    i.chapter = kChapterAtlasPython;
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = kThreads;
    i.maxN = 10000 * kThreads;
    i.sizeLabel = "trials (N; the tutorial's solution: m x 2^20)";
    i.params = {
        {.name = "shape",
         .label = "Shape",
         .help = "circle: pi from (-1, 1)^2 (box 4); mandelbrot: the set's area in (-2, 1) x (-1.5, 1.5) (box 9).",
         .kind = ParamSpec::Kind::Choice,
         .choices = {"circle", "mandelbrot"}},
        {.name = "cap",
         .label = "Round cap (mandelbrot)",
         .unit = "rounds",
         .help = "Most rounds of Floyd's test per point (2 hare steps each); an undecided orbit counts as inside, "
                 "so a low cap overestimates the area.",
         .kind = ParamSpec::Kind::Integer,
         .defaultValue = 10000,
         .minValue = 1,
         .maxValue = 1000000,
         .logScale = true},
        {.name = "convergence",
         .label = "Convergence series",
         .help = "independent: also runs m x 2^20 trials for m = 1, 2, 5, 10, ... below N on their own streams (the "
                 "scale-up plot of the tutorial's solution, not in the seeds; up to about 0.9 N more trials, all "
                 "counted in trials_per_s); none: N only.",
         .kind = ParamSpec::Kind::Choice,
         .choices = {"independent", "none"}}};
    const std::vector<ChoiceReference> refs = {{"circle", std::numbers::pi, 4}, {"mandelbrot", kMandelbrotArea, 9}};
    i.outputs = {{.name = "estimate",
                  .title = "Estimate (box x hits / N): pi, or the Mandelbrot set's area",
                  .plot = PlotKind::Scalar,
                  .yLabel = "estimate",
                  .referenceParam = "shape",
                  .referenceChoices = refs,
                  .dtype = DType::F64},
                 {.name = "series",
                  .title = "Independent runs of 1, 2, 5, ... x 2^20 trials, then N",
                  .plot = PlotKind::Series,
                  .xLabel = "trials",
                  .yLabel = "estimate",
                  .referenceParam = "shape",
                  .referenceChoices = refs,
                  .dtype = DType::F64},
                 {.name = "points",
                  .title = "The first trial of the first 20000 threads (hits: blue)",
                  .plot = PlotKind::Points,
                  .xLabel = "x",
                  .yLabel = "y",
                  .dtype = DType::F64}};

    addReference("CPU serial", "One core, the 2^20 threads' streams one after the other: the reference.",
                 runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP over the threads' streams)",
           "All cores share the 2^20 streams (dynamic: Mandelbrot trials differ in cost); the same hits as " +
               std::string(kCpuSerial) + ".",
           runCpu<true>);
    addGpu("cuda", "CUDA a stream per thread, block reduction of hits",
           "The linked solution's kernel: thread t loops over its trials, counts hits in a register; a block reduction "
           "and one "
           "atomicAdd per block and run; a launch per run.",
           LAUNCHLAB_CUDA_ENTRY(monte_carlo_area::cudaPerThread));
  }

  std::vector<HostArray> makeInputs(const RunSetup&) const override { return {}; }
  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    return {{1}, {2, runTrials(s.n, seriesOn(s)).size()}, {3, std::size_t(pointCount(s.n))}};
  }

  /// The same streams and once-rounded operations: the circle's counts (so estimates and points) are equal. The
  /// Mandelbrot test is too, but as in the mandelbrot workload a few points where rounding decides are accepted
  /// (0.1 % of the estimate and of the cloud's flags) and counted, never hidden.
  Verification verify(const RunSetup& s, const std::vector<HostArray>& ref, const std::vector<HostArray>& got,
                      const ImplSpec&) const override {
    const bool exact = parseShape(s.params.choice("shape")) == Shape::Circle;
    std::vector<Verification> parts;
    for (std::size_t k = 0; k < ref.size(); ++k)
      parts.push_back(compareArrays(ref[k], got[k], exact || k == 2 ? Tolerance::exact() : Tolerance{0, 1e-3}));
    Verification v = mergeVerifications(parts);
    const std::uint64_t bound = exact ? 0 : pointCount(s.n) / 1000;
    const bool ok = parts[0].mismatches == 0 && parts[1].mismatches == 0 && parts[2].mismatches <= bound &&
                    parts[0].passed() && parts[1].passed() && parts[2].compared == ref[2].size();
    v.outcome = ok ? Verification::Outcome::Pass : Verification::Outcome::Fail;
    v.note = exact ? "the same points and hits as the reference (exactly)"
                   : std::to_string(parts[2].mismatches) + " point values differ (accepted up to 0.1 % of the " +
                         "points) and estimates within 0.1 % (points where rounding decides Floyd's test)";
    return v;
  }

  // Trials are generated in registers, not read: bandwidth means nothing (throughput: trials_per_s).
  double bytesMoved(const RunSetup&) const override { return 0; }
};

}  // namespace

void register_monte_carlo_area(Registry& r) { r.add(std::make_unique<MonteCarloArea>()); }

}  // namespace launchlab::kernels
