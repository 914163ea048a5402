#pragma once
// z_mass (the ATLAS training's "Compute the Z mass in CUDA", a heading and a schedule line of seed file 004): the
// dimuon invariant mass of each event of a jagged (CSR) array of muons. Event e holds muons offsets[e] ..
// offsets[e+1]-1 of the columns pt, eta, phi (float32) and charge (int32); its mass is that of its first
// opposite-charge pair i < j,
//   m = sqrt(2 pt_i pt_j (cosh(eta_i - eta_j) - cos(phi_i - phi_j)))   (float32, the tutorial's formula)
// and -1 when it has none. The masses are histogrammed in 120 bins of 1 GeV on [0, 120).
#include <math.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/index_math.h"
#include "histogram/histogram.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::z_mass {

/// The mass histogram: 120 bins of 1 GeV on [0, 120) (histogram's bin rule: -1, the events without a pair, and
/// masses of 120 GeV or more are not counted).
constexpr int kHistBins = 120;
constexpr double kHistMaxGeV = 120.0;
using MassRule = histogram::BinRule<float>;
inline MassRule massRule(int bins = kHistBins) { return MassRule::make(0.0, kHistMaxGeV, bins); }

/// Muons one event may hold in a loaded file: the pair search is quadratic in them (a real event has a few).
constexpr std::int64_t kMaxMuonsPerEvent = 1024;

/// The input columns, in the workload's order: offsets (int64, n + 1), pt, eta, phi (float32), charge (int32).
enum Column { kOffsets = 0, kPt, kEta, kPhi, kCharge, kColumns };
inline const char* const kColumnNames[kColumns] = {"offsets", "pt", "eta", "phi", "charge"};

/// A jagged array of events (host or device pointers).
struct Events {
  const std::int64_t* offsets = nullptr;
  const float* pt = nullptr;
  const float* eta = nullptr;
  const float* phi = nullptr;
  const std::int32_t* charge = nullptr;
  std::uint64_t count = 0;  ///< events (offsets has count + 1 entries)
};
/// The run's inputs as Events (host memory).
Events eventsOf(const std::vector<HostArray>& inputs);

/// Charges of opposite signs (0 is neither).
LAUNCHLAB_HD bool opposite(std::int32_t a, std::int32_t b) { return (a > 0 && b < 0) || (a < 0 && b > 0); }

/// The tutorial's formula in float32, evaluated in the same order on the CPU and the GPU (no FMA can form:
/// every product is followed by a product or the square root).
LAUNCHLAB_HD float pairMass(float pt1, float eta1, float phi1, float pt2, float eta2, float phi2) {
  return sqrtf(2.0f * pt1 * pt2 * (coshf(eta1 - eta2) - cosf(phi1 - phi2)));
}

/// The first opposite-charge pair (i < j, muon indices into the columns) of event e; i = j = -1 when none.
struct Pair {
  std::int64_t i = -1, j = -1;
};
LAUNCHLAB_HD Pair firstOppositePair(const Events& ev, std::uint64_t e) {
  const std::int64_t begin = ev.offsets[e], end = ev.offsets[e + 1];
  for (std::int64_t i = begin; i < end; ++i)
    for (std::int64_t j = i + 1; j < end; ++j)
      if (opposite(ev.charge[i], ev.charge[j])) return {i, j};
  return {};
}

/// Event e's mass, or -1 when it has no opposite-charge pair.
LAUNCHLAB_HD float eventMass(const Events& ev, std::uint64_t e) {
  const Pair p = firstOppositePair(ev, e);
  if (p.i < 0) return -1.0f;
  return pairMass(ev.pt[p.i], ev.eta[p.i], ev.phi[p.i], ev.pt[p.j], ev.eta[p.j], ev.phi[p.j]);
}

// ---- Host side (z_mass_events.cpp): the generated sample, the checks of loaded files, the CPU masses. ----

/// The generator's settings: the relative mass resolution (Gaussian smearing of every generated mass).
struct SampleSpec {
  std::uint64_t events = 0;
  std::uint64_t seed = 0;
  double resolution = 0.01;
};
/// The generated Z: a Breit-Wigner of these mass and width (GeV), as the issue gives them.
constexpr double kZMassGeV = 91.19;
constexpr double kZWidthGeV = 2.50;

/// Muons of the generated sample (the sum of its multiplicities), without generating it.
std::uint64_t generatedMuons(const SampleSpec& s);
/// The generated sample as the five input columns (Column order, the given arrays' shapes: offsets n + 1, the
/// others generatedMuons). 1 to 6 muons per event, mostly 2; the first two form the pair whose mass is drawn from a
/// falling continuum or one of omega, phi, J/psi, psi(2S), Upsilon(1S, 2S, 3S) and the Z, smeared by the resolution;
/// |eta| < 2.4, pt >= 3 GeV (docs/workloads/atlas.md).
void generateSample(const SampleSpec& s, std::vector<HostArray>& columns);
/// Why these columns are not a usable jagged array ("" when they are): offsets[0] = 0, non-decreasing, the last
/// one the muon count, every column as long, at most kMaxMuonsPerEvent muons per event.
std::string checkEvents(const std::vector<HostArray>& columns);
/// mass[e] for every event, on one core or all of them.
template <bool Parallel>
void computeMasses(const Events& ev, float* mass);
/// The masses of the generated sample (all cores), as a float32 array named `name` (histogram_contention's input).
HostArray generatedMasses(const SampleSpec& s, const std::string& name);

/// Fills the metrics z_mass_gev, z_mass_err, z_width_gev, z_width_err from the masses (z_mass_fit.cpp) and says
/// how the fit went (or why it did not run) in the launch note.
void recordZFit(ImplContext& ctx, const float* mass, std::uint64_t n, double resolution);
/// The metric muons_per_s: the muons over the median of the timed phase (Cpu or Kernel).
void recordMuonRate(ImplContext& ctx, Phase timed);
/// What every implementation records after its repetitions: muons_per_s over `timed`, then the Z fit of its masses.
void recordMetrics(ImplContext& ctx, Phase timed);

void cudaPerEvent(ImplContext& ctx);
void cudaFused(ImplContext& ctx);

}  // namespace launchlab::kernels::z_mass
