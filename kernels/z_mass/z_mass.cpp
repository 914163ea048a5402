#include "z_mass/z_mass.h"

#include <cfloat>
#include <cmath>
#include <string>

#include "common/impl_helpers.h"
#include "histogram/histogram_cpu.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/verify.h"

namespace launchlab::kernels {

namespace z_mass {

void recordMetrics(ImplContext& ctx, Phase timed) {
  recordMuonRate(ctx, timed);
  recordZFit(ctx, ctx.outputs[0].view<float>().data(), ctx.setup.n, ctx.setup.params.number("resolution"));
}

namespace {

/// How far an implementation's float32 mass may be from the reference's: the GPU's coshf and cosf are within 2 ulp,
/// glibc's within 1, so X = cosh(deta) - cos(dphi) may differ by a few ulp of cosh(deta) + 1; that moves m by
/// sqrt(2 pt1 pt2 (X + dX)) - m, which grows as X -> 0 (a nearly collinear pair); plus the product's and the square
/// root's roundings.
constexpr double kUlps = 8;
double massTolerance(const Events& ev, const Pair& p) {
  const double c = std::cosh(double(ev.eta[p.i] - ev.eta[p.j])), s = std::cos(double(ev.phi[p.i] - ev.phi[p.j]));
  const double scale = 2.0 * double(ev.pt[p.i]) * double(ev.pt[p.j]), x = std::max(0.0, c - s);
  const double dx = kUlps * FLT_EPSILON * (c + 1), m = std::sqrt(scale * x);
  return std::sqrt(scale * (x + dx)) - m + kUlps * FLT_EPSILON * m;
}

Verification compareMasses(const Events& ev, const HostArray& ref, const HostArray& got) {
  const auto r = ref.view<float>(), g = got.view<float>();
  Verification v;
  v.compared = r.size();
  for (std::uint64_t e = 0; e < r.size(); ++e) {
    const bool nan = std::isnan(r[e]) || std::isnan(g[e]);
    bool ok = nan ? std::isnan(r[e]) && std::isnan(g[e]) : r[e] == g[e];
    if (!ok && !nan && r[e] >= 0 && g[e] >= 0) {
      const double d = std::abs(double(g[e]) - double(r[e]));
      ok = d <= massTolerance(ev, firstOppositePair(ev, e));
      v.maxAbsError = std::max(v.maxAbsError, d);
      if (r[e] > 0) v.maxRelError = std::max(v.maxRelError, d / double(r[e]));
    }
    if (ok) continue;
    if (v.firstMismatches.size() < 16) v.firstMismatches.push_back(e);
    ++v.mismatches;
  }
  v.outcome = v.mismatches ? Verification::Outcome::Fail : Verification::Outcome::Pass;
  v.note =
      "mass: -1 exactly where the reference has no pair, else within the float32 error of cosh - cos (a few "
      "ulp, more for nearly collinear pairs)";
  return v;
}

/// mass_hist must count the implementation's own masses exactly (a mass within its tolerance of a bin edge may sit
/// in the next bin from the reference's); the note says how many counts moved.
Verification compareHistogram(const HostArray& gotMass, const HostArray& refHist, const HostArray& gotHist) {
  const auto h = gotHist.view<std::uint32_t>(), rh = refHist.view<std::uint32_t>();
  std::vector<std::uint32_t> own(h.size());
  histogram::fillSerial(gotMass.view<float>().data(), gotMass.size(), massRule(int(h.size())), own.data());
  Verification v;
  v.compared = h.size();
  std::uint64_t moved = 0;
  for (std::size_t b = 0; b < h.size(); ++b) {
    moved += h[b] > rh[b] ? h[b] - rh[b] : 0;
    if (h[b] == own[b]) continue;
    if (v.firstMismatches.size() < 16) v.firstMismatches.push_back(b);
    ++v.mismatches;
  }
  v.outcome = v.mismatches ? Verification::Outcome::Fail : Verification::Outcome::Pass;
  v.note = "mass_hist: exactly the counts of its own masses (" + std::to_string(moved) +
           " counts in other bins than the reference's)";
  return v;
}

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  const Events ev = eventsOf(ctx.inputs);
  float* mass = ctx.outputs[0].view<float>().data();
  std::uint32_t* hist = ctx.outputs[1].view<std::uint32_t>().data();
  const MassRule rule = massRule();
  runCpuTimed(ctx, [&] {
    computeMasses<Parallel>(ev, mass);
    histogram::fill<Parallel>(mass, ev.count, rule, hist);
  });
  recordMetrics(ctx, Phase::Cpu);
}

bool anyColumnFile(const RunSetup& s) { return !s.inputFileShapes.empty(); }

class ZMass final : public BasicWorkload {
 public:
  ZMass() {
    auto& i = m_info;
    i.id = "z_mass";
    i.title = "Z mass from jagged muon data: a thread per event";
    i.chapter = kChapterAtlasPython;
    i.dtypes = {DType::F32};
    i.defaultDType = DType::F32;
    i.defaultN = 1000000;
    i.maxN = std::uint64_t(1) << 30;
    i.sizeLabel = "events (N)";
    i.params = {{.name = "resolution",
                 .label = "Mass resolution",
                 .help = "Relative resolution of the generated masses (a Gaussian smearing; ~1 % like CMS at the Z), "
                         "also the Gaussian of the Z fit.",
                 .kind = ParamSpec::Kind::Real,
                 .defaultValue = 0.01,
                 .minValue = 0,
                 .maxValue = 0.2}};
    i.inputs = {{.name = "offsets",
                 .title = "Offsets: event e holds muons offsets[e] .. offsets[e+1]-1",
                 .yLabel = "offset",
                 .dtype = DType::I64},
                {.name = "pt", .title = "Muon pt (GeV)", .yLabel = "pt (GeV)"},
                {.name = "eta", .title = "Muon pseudorapidity", .yLabel = "eta"},
                {.name = "phi", .title = "Muon azimuth (rad)", .yLabel = "phi"},
                {.name = "charge", .title = "Muon charge", .yLabel = "charge", .dtype = DType::I32}};
    i.outputs = {{.name = "mass",
                  .title = "Dimuon mass per event (-1: no opposite-charge pair)",
                  .xLabel = "event",
                  .yLabel = "mass (GeV)"},
                 {.name = "mass_hist",
                  .title = "Dimuon mass spectrum",
                  .plot = PlotKind::Histogram,
                  .xLabel = "dimuon mass (GeV)",
                  .yLabel = "events per GeV",
                  .dtype = DType::U32,
                  .xMin = 0.0,
                  .xMax = kHistMaxGeV,
                  .logY = true}};

    addReference("CPU serial", "One core, event by event, then the histogram: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP)",
           "Events shared out over all cores; the histogram with one private copy per thread.", runCpu<true>);
    addGpu("cuda-per-event", "CUDA a thread per event (the tutorial)",
           "One thread per event (default (N + 1023) / 1024 blocks of 1024) writes the mass; a second kernel "
           "histograms the masses with global atomics.",
           LAUNCHLAB_CUDA_ENTRY(z_mass::cudaPerEvent));
    addGpu("cuda-fused", "CUDA fused select-compute-histogram",
           "One grid-stride kernel: each thread finds its events' pairs, writes the masses and counts them in its "
           "block's histogram in shared memory; each block adds its 120 bins to the global histogram once.",
           LAUNCHLAB_CUDA_ENTRY(z_mass::cudaFused));
  }

  std::vector<std::vector<std::size_t>> inputShapes(const RunSetup& s) const override {
    std::size_t muons = 0;
    bool fromFile = false;
    for (int c = kPt; c < kColumns && !fromFile; ++c)
      if (auto it = s.inputFileShapes.find(kColumnNames[c]); it != s.inputFileShapes.end()) {
        muons = it->second.empty() ? 1 : it->second[0];
        fromFile = true;
      }
    if (!fromFile) muons = generatedMuons(sampleOf(s));
    return {{std::size_t(s.n) + 1}, {muons}, {muons}, {muons}, {muons}};
  }
  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    return {{std::size_t(s.n)}, {std::size_t(kHistBins)}};
  }
  std::string validate(const RunSetup& s) const override {
    if (anyColumnFile(s) && s.inputFileShapes.size() != kColumns)
      return "give all five columns of the jagged array as files (--input offsets=… pt=… eta=… phi=… charge=…), "
             "or none for the generated sample";
    return {};
  }
  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    if (anyColumnFile(s)) return makeArrays(m_info.inputs, Shapes(kColumns, {0}), s.dtype);  // replaced by the files
    auto v = allocateInputs(s);
    generateSample(sampleOf(s), v);
    return v;
  }
  std::string checkInputs(const RunSetup&, const std::vector<HostArray>& inputs) const override {
    return checkEvents(inputs);
  }
  Verification verifyWithInputs(const RunSetup&, const std::vector<HostArray>& inputs,
                                const std::vector<HostArray>& ref, const std::vector<HostArray>& got,
                                const ImplSpec&) const override {
    return mergeVerifications(
        {compareMasses(eventsOf(inputs), ref[0], got[0]), compareHistogram(got[0], ref[1], got[1])});
  }

 private:
  static SampleSpec sampleOf(const RunSetup& s) { return {s.n, s.seed, s.params.number("resolution")}; }
};

}  // namespace

}  // namespace z_mass

void register_z_mass(Registry& r) { r.add(std::make_unique<z_mass::ZMass>()); }

}  // namespace launchlab::kernels
