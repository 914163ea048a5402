#include "monte_carlo_pi/monte_carlo_pi.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "common/impl_helpers.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace monte_carlo_pi {

Shape parseShape(const std::string& name) {
  if (name == "circle") return Shape::Circle;
  if (name == "ring") return Shape::Ring;
  if (name == "under-curve") return Shape::Curve;
  throw std::invalid_argument("unknown shape '" + name + "'");
}

ShapeInfo shapeInfo(Shape s) {
  constexpr double pi = std::numbers::pi;
  switch (s) {
    case Shape::Circle:
      return {pi / 4, 4.0};
    case Shape::Ring:
      return {3 * pi / 16, 16.0 / 3.0};
    case Shape::Curve:
      return {pi / 4, 4.0};
  }
  return {pi / 4, 4.0};
}

double standardError(const ShapeInfo& s, double m) { return s.piFactor * std::sqrt(s.fraction * (1 - s.fraction) / m); }

void binEstimates(const double* est, std::uint64_t kept, std::uint64_t n, std::uint64_t iters, const ShapeInfo& s,
                  std::uint32_t* counts) {
  std::fill(counts, counts + kZBins, 0u);
  for (std::uint64_t c = 0; c < kept; ++c)
    if (const int b = zBin(est[c], double(chunkLength(n, iters, c)), s.fraction, s.piFactor); b >= 0) ++counts[b];
}

}  // namespace monte_carlo_pi

namespace {

using namespace monte_carlo_pi;

// xoroshiro128+ (Blackman & Vigna), the generator family of the seed's xoroshiro128p states; each chunk seeds its
// own state from (seed, chunk) through SplitMix64, so results do not depend on the thread count.
struct Xoroshiro128Plus {
  std::uint64_t s0, s1;
  Xoroshiro128Plus(std::uint64_t seed, std::uint64_t chunk)
      : s0(counterBits(seed, 0x9E3779B9u, 2 * chunk)), s1(counterBits(seed, 0x9E3779B9u, 2 * chunk + 1) | 1u) {}
  std::uint64_t next() {
    const std::uint64_t a = s0;
    std::uint64_t b = s1;
    const std::uint64_t r = a + b;
    b ^= a;
    s0 = std::rotl(a, 24) ^ b ^ (b << 16);
    s1 = std::rotl(b, 37);
    return r;
  }
};

template <Shape S>
std::uint32_t countChunk(std::uint64_t seed, std::uint64_t chunk, std::uint64_t m) {
  Xoroshiro128Plus g(seed, chunk);
  std::uint32_t hits = 0;
  for (std::uint64_t i = 0; i < m; ++i) {
    const std::uint64_t r = g.next();  // one point per draw: the high and the low 32 bits
    hits += inside<S>(unitFloat(std::uint32_t(r >> 32)), unitFloat(std::uint32_t(r))) ? 1u : 0u;
  }
  return hits;
}

/// Where the per-chunk estimates go: est[c] = piFactor * hits / samples for c < kept.
struct Estimates {
  double* est;
  std::uint64_t kept;
  double piFactor;
};

template <Shape S, bool Parallel>
void countAll(std::uint64_t seed, std::uint64_t n, std::uint64_t iters, std::vector<unsigned long long>& seg,
              const Estimates& e) {
  const std::uint64_t chunks = chunkCount(n, iters);
  std::fill(seg.begin(), seg.end(), 0ull);
  auto chunkHits = [&](std::uint64_t c) {
    const std::uint64_t len = chunkLength(n, iters, c);
    const std::uint32_t hits = countChunk<S>(seed, c, len);
    if (c < e.kept) e.est[c] = e.piFactor * double(hits) / double(len);
    return hits;
  };
  if constexpr (Parallel) {
#pragma omp parallel
    {
      std::vector<unsigned long long> mine(seg.size(), 0ull);
#pragma omp for schedule(dynamic, 16) nowait
      for (std::uint64_t c = 0; c < chunks; ++c) mine[segmentOf(c)] += chunkHits(c);
#pragma omp critical(launchlab_monte_carlo_merge)
      for (std::size_t s = 0; s < seg.size(); ++s) seg[s] += mine[s];
    }
  } else {
    for (std::uint64_t c = 0; c < chunks; ++c) seg[segmentOf(c)] += chunkHits(c);
  }
}

// The point cloud: the first points of the first chunks, from the same streams as the count.
template <Shape S>
void drawPoints(std::uint64_t seed, std::uint64_t n, std::uint64_t iters, double* cloud) {
  const PointLayout p = pointLayout(n, iters);
  for (std::uint64_t c = 0; c < p.chunks; ++c) {
    Xoroshiro128Plus g(seed, c);
    for (std::uint64_t i = 0; i < pointsOfChunk(n, iters, p.perChunk, c); ++i) {
      const std::uint64_t r = g.next();
      storePoint<S>(cloud, p.count, c * p.perChunk + i, unitFloat(std::uint32_t(r >> 32)), unitFloat(std::uint32_t(r)));
    }
  }
}

template <Shape S, bool Parallel>
void countAndDraw(const RunSetup& s, std::uint64_t iters, std::vector<unsigned long long>& seg, const Estimates& e,
                  double* cloud) {
  countAll<S, Parallel>(s.seed, s.n, iters, seg, e);
  drawPoints<S>(s.seed, s.n, iters, cloud);
}

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  const auto& s = ctx.setup;
  const std::uint64_t iters = std::uint64_t(s.params.integer("iters"));
  const Shape shape = parseShape(s.params.choice("shape"));
  std::vector<unsigned long long> seg(segmentCount(chunkCount(s.n, iters)));
  const Estimates e{ctx.outputs[2].view<double>().data(), keptEstimates(chunkCount(s.n, iters)),
                    shapeInfo(shape).piFactor};
  double* cloud = ctx.outputs[3].view<double>().data();
  runCpuTimed(ctx, [&] {
    switch (shape) {
      case Shape::Circle:
        countAndDraw<Shape::Circle, Parallel>(s, iters, seg, e, cloud);
        break;
      case Shape::Ring:
        countAndDraw<Shape::Ring, Parallel>(s, iters, seg, e, cloud);
        break;
      case Shape::Curve:
        countAndDraw<Shape::Curve, Parallel>(s, iters, seg, e, cloud);
        break;
    }
  });
  writeOutputs([&](unsigned j) { return seg[j]; }, unsigned(seg.size()), s.n, iters, shapeInfo(shape).piFactor,
               s.params.choice("convergence") == "independent", ctx.outputs[0].view<double>().data(),
               ctx.outputs[1].view<double>().data());
  binEstimates(e.est, e.kept, s.n, iters, shapeInfo(shape), ctx.outputs[4].view<std::uint32_t>().data());
  const double ms = summarize(ctx.samples[Phase::Cpu]).medianMs;
  if (ms > 0) ctx.metrics["gsamples_per_s"] = double(s.n) / (ms * 1e-3) / 1e9;
}

bool insideShape(Shape s, float x, float y) {
  switch (s) {
    case Shape::Circle:
      return inside<Shape::Circle>(x, y);
    case Shape::Ring:
      return inside<Shape::Ring>(x, y);
    case Shape::Curve:
      return inside<Shape::Curve>(x, y);
  }
  return false;
}

// How far (x, y) is from the shape's boundary, in the test's own terms (x^2 + y^2 against 1 and 1/4, y (1 + x^2)
// against 1), in double.
double boundaryGap(Shape s, double x, double y) {
  const double r2 = x * x + y * y;
  switch (s) {
    case Shape::Circle:
      return std::fabs(r2 - 1);
    case Shape::Ring:
      return std::min(std::fabs(r2 - 1), std::fabs(r2 - 0.25));
    case Shape::Curve:
      return std::fabs(y * (1 + x * x) - 1);
  }
  return 0;
}

// The point cloud (other random streams than the reference's): every coordinate a float in [0, 1) and every
// inside flag the shape's test of that point, except within 1e-6 of the boundary, where the GPU's fused
// multiply-add may round the float test the other way.
void checkPoints(Shape shape, const HostArray& cloud, std::uint64_t flatBase, Verification& v) {
  const auto a = cloud.view<double>();
  const std::size_t count = a.size() / 3;
  for (std::size_t j = 0; j < count; ++j) {
    const double x = a[j], y = a[count + j];
    const bool coordsOk = x >= 0 && x < 1 && y >= 0 && y < 1 && double(float(x)) == x && double(float(y)) == y;
    ++v.compared;
    const double flag = a[2 * count + j];
    const bool flagOk = flag == (insideShape(shape, float(x), float(y)) ? 1.0 : 0.0) ||
                        ((flag == 0.0 || flag == 1.0) && boundaryGap(shape, x, y) < 1e-6);
    if (!coordsOk || !flagOk) {
      ++v.mismatches;
      if (v.firstMismatches.size() < 16) v.firstMismatches.push_back(flatBase + j);
    }
  }
}

class MonteCarloPi final : public BasicWorkload {
 public:
  MonteCarloPi() {
    auto& i = m_info;
    i.id = "monte_carlo_pi";
    i.title = "Monte Carlo pi: area by random sampling";
    i.chapter = kChapterRandom;
    i.dtypes = {DType::F32};
    i.defaultDType = DType::F32;
    i.defaultN = 24ull * 64 * 10000;
    i.maxN = std::uint64_t(1) << 38;
    i.sizeLabel = "samples";
    i.params = {
        {.name = "iters",
         .label = "Samples per thread",
         .unit = "samples",
         .help = "Consecutive samples one thread draws from one random stream (the seed's iterations = 10000); a "
                 "grid with fewer threads than n / iters gives threads several such chunks.",
         .kind = ParamSpec::Kind::Integer,
         .defaultValue = 10000,
         .minValue = 1,
         .maxValue = 1e8,
         .logScale = true},
        {.name = "shape",
         .label = "Shape",
         .help = "circle: x^2 + y^2 <= 1 (area pi/4, the seed's test); ring: 1/4 <= x^2 + y^2 <= 1 (3 pi/16); "
                 "under-curve: y <= 1 / (1 + x^2) (pi/4). Each estimate is turned into pi.",
         .kind = ParamSpec::Kind::Choice,
         .choices = {"circle", "ring", "under-curve"}},
        {.name = "convergence",
         .label = "Convergence",
         .help = "independent: the estimate of each disjoint block of 1, 1, 2, 4, ... chunks on its own, like separate "
                 "runs of growing size; cumulative: the estimate after the first 1, 2, 4, ... chunks of this run.",
         .kind = ParamSpec::Kind::Choice,
         .choices = {"independent", "cumulative"}},
    };
    i.outputs = {
        {.name = "pi",
         .title = "Estimate of pi",
         .plot = PlotKind::Scalar,
         .xLabel = "",
         .yLabel = "pi",
         .referenceValue = std::numbers::pi,
         .dtype = DType::F64},
        {.name = "convergence",
         .title = "Estimate against samples (independent blocks, or the first 1, 2, 4, ... chunks)",
         .plot = PlotKind::Series,
         .xLabel = "samples",
         .yLabel = "estimate of pi",
         .dtype = DType::F64},
        {.name = "per_thread",
         .title = "The seed's out[tid]: each thread's (chunk's) estimate, first 4096",
         .plot = PlotKind::Waveform,
         .xLabel = "thread (chunk)",
         .yLabel = "estimate of pi",
         .dtype = DType::F64},
        {.name = "points",
         .title = "The first 64 points of the first 64 chunks (inside: blue)",
         .plot = PlotKind::Points,
         .xLabel = "x",
         .yLabel = "y",
         .dtype = DType::F64},
        {.name = "per_thread_hist",
         .title = "Histogram of out[tid]: (estimate - pi) / standard error of one thread",
         .plot = PlotKind::Histogram,
         .xLabel = "(estimate - pi) / standard error of one thread",
         .yLabel = "threads",
         .dtype = DType::U32,
         .xMin = -kZRange,
         .xMax = kZRange},
    };

    addReference("CPU serial (xoroshiro128+)",
                 "One core, one xoroshiro128+ stream per chunk of samples: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP, same streams)",
           "All cores share the chunks; same streams, so the same counts as " + std::string(kCpuSerial) + ".",
           runCpu<true>);
    addGpu("cuda-philox", "CUDA cuRAND Philox, counts in registers",
           "curand_init(seed, chunk, 0) per chunk, curand4 gives 4 x 32 bits = 2 points per call, integer-to-float "
           "by bits, hits counted in a register, one block reduction and one atomic per block.",
           LAUNCHLAB_CUDA_ENTRY(monte_carlo_pi::cudaPhilox));
    addGpu("cuda-shared-seed", "CUDA with the same random stream in every thread",
           "The seeding mistake: every chunk calls curand_init(seed, 0, 0), so all threads draw the same points and "
           "the estimate keeps the error of a single chunk.",
           LAUNCHLAB_CUDA_ENTRY(monte_carlo_pi::cudaSharedSeed))
        .demonstration = true;
    nameKernels("monte_carlo_pi", {{"cuda-philox", {"piKernel", "pointsKernel", "binEstimatesKernel"}},
                                   {"cuda-shared-seed", {"piKernel", "pointsKernel", "binEstimatesKernel"}}});
  }

  std::vector<HostArray> makeInputs(const RunSetup&) const override { return {}; }

  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    const std::uint64_t iters = std::uint64_t(s.params.integer("iters")), chunks = chunkCount(s.n, iters);
    return {{1},
            {2, segmentCount(chunks)},
            {keptEstimates(chunks)},
            {3, pointLayout(s.n, iters).count},
            {std::size_t(kZBins)}};
  }

  // CPU and GPU draw different random numbers: each estimate is checked against pi itself, within 6 binomial
  // standard errors of its sample count (false alarm ~2e-9 per value), plus 4e-6 for the 2^-23 coordinate
  // lattice. The series' sample counts must equal the reference's exactly.
  Verification verify(const RunSetup& s, const std::vector<HostArray>& ref, const std::vector<HostArray>& got,
                      const ImplSpec& impl) const override {
    Verification v;
    bool shapesOk = got.size() == ref.size();
    for (std::size_t i = 0; shapesOk && i < got.size(); ++i)
      shapesOk = got[i].shape() == ref[i].shape() && got[i].dtype() == ref[i].dtype();
    if (!shapesOk) {
      v.outcome = Verification::Outcome::Fail;
      v.note = "outputs have the wrong shape";
      return v;
    }
    const Shape shape = parseShape(s.params.choice("shape"));
    const ShapeInfo info = shapeInfo(shape);
    constexpr double kSigmas = 6, kLattice = 4e-6;
    // Reported error: the final estimate's (early points of the series are far off by nature).
    auto check = [&](std::uint64_t flat, double estimate, double samples) {
      const double err = std::fabs(estimate - std::numbers::pi);
      if (flat == 0) v.maxAbsError = std::isnan(err) ? INFINITY : err;
      ++v.compared;
      if (!(err <= kSigmas * standardError(info, samples) + kLattice)) {
        ++v.mismatches;
        if (v.firstMismatches.size() < 16) v.firstMismatches.push_back(flat);
      }
    };
    check(0, got[0].view<double>()[0], double(s.n));
    const auto r = ref[1].view<double>();
    const auto g = got[1].view<double>();
    const std::size_t k = r.size() / 2;
    for (std::size_t j = 0; j < k; ++j) {
      ++v.compared;
      if (g[j] != r[j]) {
        ++v.mismatches;
        if (v.firstMismatches.size() < 16) v.firstMismatches.push_back(1 + j);
      }
      check(1 + k + j, g[k + j], r[j]);
    }
    // out[tid]: each chunk's estimate from its own samples.
    const std::uint64_t iters = std::uint64_t(s.params.integer("iters"));
    const auto est = got[2].view<double>();
    for (std::size_t c = 0; c < est.size(); ++c) check(1 + 2 * k + c, est[c], double(chunkLength(s.n, iters, c)));
    checkPoints(shape, got[3], 1 + 2 * k + est.size(), v);
    // The histogram of out[tid] is the implementation's own estimates binned (exactly).
    std::vector<std::uint32_t> bins(kZBins);
    binEstimates(est.data(), est.size(), s.n, iters, info, bins.data());
    const auto hist = got[4].view<std::uint32_t>();
    for (std::size_t b = 0; b < bins.size(); ++b) {
      ++v.compared;
      if (hist[b] != bins[b]) {
        ++v.mismatches;
        if (v.firstMismatches.size() < 16) v.firstMismatches.push_back(1 + 2 * k + est.size() + got[3].size() + b);
      }
    }
    v.maxRelError = v.maxAbsError / std::numbers::pi;
    v.outcome = v.mismatches ? Verification::Outcome::Fail : Verification::Outcome::Pass;
    std::ostringstream o;
    o << "|estimate - pi| <= 6 standard errors + 4e-6 (6 sigma = " << kSigmas * standardError(info, double(s.n))
      << " at n samples, also for each chunk's estimate out[tid]); different random streams than the CPU; the "
      << "point cloud's coordinates in [0, 1) and its inside flags the shape's test";
    if (impl.demonstration) o << "; every thread drew the same points, so the error is that of one chunk";
    v.note = o.str();
    return v;
  }

  // The samples are generated in registers, not read: bandwidth means nothing (throughput: gsamples_per_s).
  double bytesMoved(const RunSetup&) const override { return 0; }
};

}  // namespace

void register_monte_carlo_pi(Registry& r) { r.add(std::make_unique<MonteCarloPi>()); }

}  // namespace launchlab::kernels
