// z_mass's events on the host: the generated sample, the checks of loaded files, and the masses on the CPU (also
// histogram_contention's input).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "common/cpu_loops.h"
#include "launchlab/engine/rng.h"
#include "z_mass/z_mass.h"

namespace launchlab::kernels::z_mass {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kEtaMax = 2.4 * 0.9999;  // |eta| < 2.4, with room for the float32 rounding
constexpr double kPtMin = 3.0;            // GeV
constexpr double kDEtaCap = 2.0;          // the pair's |eta1 - eta2| at most (so both fit in |eta| < 2.4)

/// Muons per event: 1 to 6, mostly 2 (cumulative probabilities).
constexpr double kMultiplicityCdf[6] = {0.12, 0.82, 0.93, 0.975, 0.992, 1.0};
/// The share of pairs of opposite charge (the rest are same-sign: no pair unless a third muon gives one).
constexpr double kOppositeShare = 0.9;

/// A dimuon source: a Breit-Wigner (PDG masses and widths, GeV; the Z as the issue gives it) truncated to
/// [mass - halfRange, mass + halfRange], chosen with probability `share`; what the shares leave is the continuum.
struct Resonance {
  double mass, width, halfRange, share;
};
constexpr Resonance kResonances[] = {
    {0.78266, 0.00868, 0.15, 0.03},       // omega
    {1.019461, 0.004249, 0.08, 0.04},     // phi
    {3.0969, 0.0000926, 0.002, 0.20},     // J/psi
    {3.686097, 0.000294, 0.006, 0.025},   // psi(2S)
    {9.4603, 0.000054, 0.001, 0.06},      // Upsilon(1S)
    {10.02326, 0.000032, 0.001, 0.025},   // Upsilon(2S)
    {10.3552, 0.0000203, 0.001, 0.015},   // Upsilon(3S)
    {kZMassGeV, kZWidthGeV, 30.0, 0.10},  // Z
};
/// The continuum: dN/dm ~ m^-(1 + kContinuumPower) on [kContinuumMin, kContinuumMax] GeV.
constexpr double kContinuumMin = 0.25, kContinuumMax = 150.0, kContinuumPower = 1.5;

/// Random streams (rng.h): one per quantity, indexed by event; the extra muons' by muon slot.
enum Stream : std::uint64_t {
  kSMultiplicity = 1000,
  kSSource,
  kSMass,
  kSSmear1,
  kSSmear2,
  kSProduct,
  kSRatio,
  kSSplit,
  kSEtaCentre,
  kSPhi,
  kSEtaSign,
  kSPhiSign,
  kSCharge,
  kSSameSign,
  kSExtra = 1100
};

struct Draws {
  std::uint64_t seed, event;
  double u(std::uint64_t stream) const { return toUnit(counterBits(seed, stream, event)); }
};

int multiplicity(std::uint64_t seed, std::uint64_t event) {
  const double u = Draws{seed, event}.u(kSMultiplicity);
  int k = 0;
  while (k < 5 && u >= kMultiplicityCdf[k]) ++k;
  return k + 1;
}

double breitWigner(const Resonance& r, double u) {
  const double g = r.width / 2;
  const double lo = std::atan(-r.halfRange / g), hi = std::atan(r.halfRange / g);
  return r.mass + g * std::tan(lo + u * (hi - lo));
}

double continuum(double u) {
  const double a = kContinuumPower, tail = std::pow(kContinuumMin / kContinuumMax, a);
  return kContinuumMin * std::pow(1 - u * (1 - tail), -1 / a);
}

/// The pair's true mass, then smeared by the resolution: a Gaussian of resolution x the resonance's mass (the same
/// over its peak, as the fit assumes), or of resolution x m in the continuum.
double pairMassDrawn(const Draws& d, double resolution) {
  double u = d.u(kSSource);
  const double gauss = std::sqrt(-2 * std::log(1 - d.u(kSSmear1))) * std::cos(2 * kPi * d.u(kSSmear2));
  for (const auto& r : kResonances) {
    if (u < r.share) return breitWigner(r, d.u(kSMass)) + resolution * r.mass * gauss;
    u -= r.share;
  }
  return continuum(d.u(kSMass)) * (1 + resolution * gauss);
}

double wrapPhi(double phi) { return phi >= kPi ? phi - 2 * kPi : (phi < -kPi ? phi + 2 * kPi : phi); }

/// Writes muons a and a + 1 with pt, eta, phi such that m = sqrt(2 pt1 pt2 (cosh deta - cos dphi)): with
/// X = m^2 / (2 pt1 pt2) = (cosh deta - 1) + (1 - cos dphi), the product pt1 pt2 is drawn large enough that X fits
/// deta <= kDEtaCap and dphi <= pi, then X is split between the two terms at random.
void writePair(const Draws& d, double m, std::int64_t a, const std::vector<float*>& col) {
  const double xMax = 1 + std::cosh(kDEtaCap);
  const double product = std::max(kPtMin * kPtMin, m * m / (2 * xMax)) * (1 - 0.5 * std::log(1 - d.u(kSProduct)));
  const double root = std::sqrt(product);
  const double ratio = std::pow(std::min(std::exp(0.5), root / (kPtMin * (1 + 1e-6))), 2 * d.u(kSRatio) - 1);
  const double x = m * m / (2 * product);
  const double lo = std::max(0.0, 1 - 2 / x), hi = std::min(1.0, (std::cosh(kDEtaCap) - 1) / x);
  const double f = lo + d.u(kSSplit) * (hi - lo);
  const double dEta = std::acosh(1 + f * x);
  const double dPhi = std::acos(std::clamp(1 - (1 - f) * x, -1.0, 1.0));
  const double centre = (2 * d.u(kSEtaCentre) - 1) * (kEtaMax - dEta / 2);
  const double etaSign = d.u(kSEtaSign) < 0.5 ? -1 : 1, phiSign = d.u(kSPhiSign) < 0.5 ? -1 : 1;
  const double phi1 = kPi * (2 * d.u(kSPhi) - 1);
  col[kPt][a] = float(root * ratio);
  col[kPt][a + 1] = float(root / ratio);
  col[kEta][a] = float(centre - etaSign * dEta / 2);
  col[kEta][a + 1] = float(centre + etaSign * dEta / 2);
  col[kPhi][a] = float(phi1);
  col[kPhi][a + 1] = float(wrapPhi(phi1 + phiSign * dPhi));
}

/// A soft muon of a falling pt spectrum (3 GeV + an exponential of mean 4 GeV), anywhere in |eta| < 2.4.
void writeExtra(const Draws& d, int slot, std::int64_t a, const std::vector<float*>& col, std::int32_t* charge) {
  const std::uint64_t s = kSExtra + 4 * std::uint64_t(slot);
  col[kPt][a] = float(kPtMin - 4 * std::log(1 - d.u(s)));
  col[kEta][a] = float(kEtaMax * (2 * d.u(s + 1) - 1));
  col[kPhi][a] = float(kPi * (2 * d.u(s + 2) - 1));
  charge[a] = d.u(s + 3) < 0.5 ? -1 : 1;
}

void writeEvent(const SampleSpec& s, std::uint64_t e, std::int64_t begin, int k, const std::vector<float*>& col,
                std::int32_t* charge) {
  const Draws d{s.seed, e};
  if (k >= 2) {
    writePair(d, pairMassDrawn(d, s.resolution), begin, col);
    charge[begin] = d.u(kSCharge) < 0.5 ? -1 : 1;
    charge[begin + 1] = d.u(kSSameSign) < kOppositeShare ? -charge[begin] : charge[begin];
  } else {
    writeExtra(d, 0, begin, col, charge);
  }
  for (int slot = 2; slot < k; ++slot) writeExtra(d, slot, begin + slot, col, charge);
}

std::string at(const char* column, std::uint64_t i) { return std::string(column) + "[" + std::to_string(i) + "]"; }

}  // namespace

Events eventsOf(const std::vector<HostArray>& in) {
  return {in[kOffsets].view<std::int64_t>().data(),
          in[kPt].view<float>().data(),
          in[kEta].view<float>().data(),
          in[kPhi].view<float>().data(),
          in[kCharge].view<std::int32_t>().data(),
          in[kOffsets].size() - 1};
}

std::uint64_t generatedMuons(const SampleSpec& s) {
  std::uint64_t total = 0;
  const auto n = std::int64_t(s.events);
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (std::int64_t e = 0; e < n; ++e) total += std::uint64_t(multiplicity(s.seed, std::uint64_t(e)));
  return total;
}

void generateSample(const SampleSpec& s, std::vector<HostArray>& columns) {
  auto offsets = columns[kOffsets].view<std::int64_t>();
  offsets[0] = 0;
  for (std::uint64_t e = 0; e < s.events; ++e) offsets[e + 1] = offsets[e] + multiplicity(s.seed, e);
  const std::vector<float*> col = {nullptr, columns[kPt].view<float>().data(), columns[kEta].view<float>().data(),
                                   columns[kPhi].view<float>().data()};
  std::int32_t* charge = columns[kCharge].view<std::int32_t>().data();
  const auto n = std::int64_t(s.events);
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < n; ++e)
    writeEvent(s, std::uint64_t(e), offsets[e], int(offsets[e + 1] - offsets[e]), col, charge);
}

std::string checkEvents(const std::vector<HostArray>& columns) {
  const auto offsets = columns[kOffsets].view<std::int64_t>();
  if (offsets.empty()) return "input offsets: empty (it holds n + 1 entries, the first 0)";
  const std::uint64_t muons = columns[kPt].size();
  for (int c = kEta; c < kColumns; ++c)
    if (columns[c].size() != muons)
      return std::string("input ") + kColumnNames[c] + ": " + std::to_string(columns[c].size()) +
             " muons, but pt holds " + std::to_string(muons) + " (every muon column is as long)";
  if (offsets[0] != 0) return "input offsets: " + at("offsets", 0) + " = " + std::to_string(offsets[0]) + ", must be 0";
  for (std::size_t e = 0; e + 1 < offsets.size(); ++e) {
    const std::int64_t count = offsets[e + 1] - offsets[e];
    if (count < 0)
      return "input offsets: " + at("offsets", e + 1) + " = " + std::to_string(offsets[e + 1]) + " < " +
             at("offsets", e) + " = " + std::to_string(offsets[e]) + " (offsets never decrease)";
    if (count > kMaxMuonsPerEvent)
      return "input offsets: event " + std::to_string(e) + " holds " + std::to_string(count) + " muons, at most " +
             std::to_string(kMaxMuonsPerEvent) + " per event (the pair search is quadratic in them)";
  }
  if (std::uint64_t(offsets.back()) != muons)
    return "input offsets: the last offset is " + std::to_string(offsets.back()) + " but the muon columns hold " +
           std::to_string(muons) + " muons (they must be equal)";
  return {};
}

template <bool Parallel>
void computeMasses(const Events& ev, float* mass) {
  forEachRow<Parallel>(ev.count, [&](std::size_t e) { mass[e] = eventMass(ev, e); });
}
template void computeMasses<false>(const Events&, float*);
template void computeMasses<true>(const Events&, float*);

HostArray generatedMasses(const SampleSpec& s, const std::string& name) {
  const std::size_t muons = generatedMuons(s);
  std::vector<HostArray> columns;
  columns.emplace_back(kColumnNames[kOffsets], DType::I64, std::vector<std::size_t>{std::size_t(s.events) + 1});
  for (int c = kPt; c <= kPhi; ++c) columns.emplace_back(kColumnNames[c], DType::F32, std::vector<std::size_t>{muons});
  columns.emplace_back(kColumnNames[kCharge], DType::I32, std::vector<std::size_t>{muons});
  generateSample(s, columns);
  HostArray mass(name, DType::F32, std::vector<std::size_t>{std::size_t(s.events)});
  computeMasses<true>(eventsOf(columns), mass.view<float>().data());
  return mass;
}

void recordMuonRate(ImplContext& ctx, Phase timed) {
  const auto offsets = ctx.inputs[kOffsets].view<std::int64_t>();
  const double ms = summarize(ctx.samples[timed]).medianMs;
  if (ms > 0) ctx.metrics["muons_per_s"] = double(offsets.back()) / (ms * 1e-3);
}

}  // namespace launchlab::kernels::z_mass
