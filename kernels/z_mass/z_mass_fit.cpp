// The Z peak's fit (every z_mass implementation calls it on its own masses, after the timed repetitions): a
// Breit-Wigner convolved with the Gaussian resolution, plus a linear background, fitted by least squares
// (Levenberg-Marquardt with Eigen) to the masses in 70-110 GeV.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "launchlab/config.h"
#include "z_mass/z_mass.h"

#if LAUNCHLAB_HAVE_EIGEN
#include <Eigen/Dense>
#endif

namespace launchlab::kernels::z_mass {

namespace {

constexpr double kFitLo = 70.0, kFitHi = 110.0, kFitBinGeV = 0.25;
constexpr int kFitBins = int((kFitHi - kFitLo) / kFitBinGeV);
constexpr std::uint64_t kMinEntries = 200;

std::string fixed(double v, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

#if LAUNCHLAB_HAVE_EIGEN

using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;
enum Par { kHeight, kMass, kWidth, kBg0, kBg1, kPars };

/// Counts per fit bin at mass m: height x (Breit-Wigner of peak 1 convolved with a Gaussian of sigma = resolution x
/// mass, by the trapezoid rule over +-5 sigma) + bg0 + bg1 (m - 90).
struct Model {
  double resolution;
  double operator()(const Vec& p, double m) const {
    const double g2 = p[kWidth] * p[kWidth] / 4, sigma = resolution * p[kMass];
    double peak = 0;
    if (sigma <= 0) {
      peak = g2 / ((m - p[kMass]) * (m - p[kMass]) + g2);
    } else {
      double norm = 0;
      for (int k = -20; k <= 20; ++k) {
        const double z = 0.25 * k, w = std::exp(-z * z / 2), d = m - p[kMass] - sigma * z;
        peak += w * g2 / (d * d + g2);
        norm += w;
      }
      peak /= norm;
    }
    return p[kHeight] * peak + p[kBg0] + p[kBg1] * (m - 90.0);
  }
};

struct Data {
  std::vector<double> centre, counts, weight;  // weight: 1 / variance (at least 1)
};

double chi2(const Model& f, const Data& d, const Vec& p) {
  double s = 0;
  for (std::size_t i = 0; i < d.centre.size(); ++i) {
    const double r = d.counts[i] - f(p, d.centre[i]);
    s += r * r * d.weight[i];
  }
  return s;
}

/// The Jacobian of the model over the bins, by central differences.
Mat jacobian(const Model& f, const Data& d, const Vec& p) {
  Mat j(d.centre.size(), kPars);
  for (int k = 0; k < kPars; ++k) {
    const double h = 1e-6 * std::max(1.0, std::abs(p[k]));
    Vec up = p, down = p;
    up[k] += h;
    down[k] -= h;
    for (std::size_t i = 0; i < d.centre.size(); ++i)
      j(Eigen::Index(i), k) = (f(up, d.centre[i]) - f(down, d.centre[i])) / (2 * h);
  }
  return j;
}

/// J^T W J (the curvature of chi2 / 2) at p.
Mat curvature(const Mat& j, const Data& d) {
  const Vec w = Eigen::Map<const Vec>(d.weight.data(), Eigen::Index(d.weight.size()));
  return j.transpose() * w.asDiagonal() * j;
}

/// Levenberg-Marquardt from p; returns false when it does not converge.
bool minimize(const Model& f, const Data& d, Vec& p) {
  double lambda = 1e-3, current = chi2(f, d, p);
  for (int it = 0; it < 500; ++it) {
    const Mat j = jacobian(f, d, p);
    Vec r(Eigen::Index(d.centre.size()));
    for (std::size_t i = 0; i < d.centre.size(); ++i)
      r[Eigen::Index(i)] = (d.counts[i] - f(p, d.centre[i])) * d.weight[i];
    const Mat a = curvature(j, d);
    const Vec g = j.transpose() * r;
    Mat damped = a;
    damped.diagonal() += lambda * a.diagonal();
    const Vec step = damped.ldlt().solve(g);
    const Vec next = p + step;
    const double trial = chi2(f, d, next);
    if (std::isfinite(trial) && trial <= current) {
      const bool done = current - trial < 1e-10 * (1 + current);
      p = next;
      current = trial;
      lambda = std::max(lambda / 10, 1e-12);
      if (done) return true;
    } else {
      lambda *= 10;
      if (lambda > 1e12) return true;  // no step lowers chi2: a minimum within rounding
    }
  }
  return false;
}

struct Fit {
  std::string failure;  // "" when the fit converged
  Vec p, err;
  double chi2 = 0;
  int ndf = 0;
  std::uint64_t entries = 0;
};

Fit fitPeak(const float* mass, std::uint64_t n, double resolution) {
  Fit fit;
  std::vector<double> counts(kFitBins, 0.0);
  for (std::uint64_t e = 0; e < n; ++e) {
    const double m = mass[e];
    if (m >= kFitLo && m < kFitHi) {
      ++counts[std::min<std::size_t>(std::size_t((m - kFitLo) / kFitBinGeV), kFitBins - 1)];
      ++fit.entries;
    }
  }
  if (fit.entries < kMinEntries) {
    fit.failure = std::to_string(fit.entries) + " masses in 70-110 GeV, too few to fit (at least " +
                  std::to_string(kMinEntries) + ")";
    return fit;
  }
  Data d;
  std::size_t top = 0;
  for (int i = 0; i < kFitBins; ++i) {
    d.centre.push_back(kFitLo + (i + 0.5) * kFitBinGeV);
    d.counts.push_back(counts[std::size_t(i)]);
    d.weight.push_back(1.0 / std::max(1.0, counts[std::size_t(i)]));
    if (counts[std::size_t(i)] > counts[top]) top = std::size_t(i);
  }
  const double edge = (counts.front() + counts.back()) / 2;
  fit.p = Vec(kPars);
  fit.p << counts[top] - edge, d.centre[top], kZWidthGeV, edge, 0.0;
  const Model model{resolution};
  // Neyman's chi2 (variance = the count) first, then again with the first fit's prediction as the variance
  // (Pearson's): weighting by the data alone pulls the peak towards the bins that fluctuated down.
  bool converged = minimize(model, d, fit.p);
  for (std::size_t i = 0; i < d.centre.size() && converged; ++i)
    d.weight[i] = 1.0 / std::max(1.0, model(fit.p, d.centre[i]));
  if (!converged || !minimize(model, d, fit.p)) {
    fit.failure = "the fit did not converge";
    return fit;
  }
  fit.p[kWidth] = std::abs(fit.p[kWidth]);
  const Mat cov = curvature(jacobian(model, d, fit.p), d).inverse();
  fit.err = cov.diagonal().cwiseMax(0.0).cwiseSqrt();
  fit.chi2 = chi2(model, d, fit.p);
  fit.ndf = kFitBins - kPars;
  if (!(fit.p[kMass] > kFitLo && fit.p[kMass] < kFitHi) || !fit.err.allFinite())
    fit.failure = "the fit left the 70-110 GeV window or has no finite errors";
  return fit;
}

#endif

}  // namespace

void recordZFit(ImplContext& ctx, const float* mass, std::uint64_t n, double resolution) {
  std::string note;
#if LAUNCHLAB_HAVE_EIGEN
  const Fit fit = fitPeak(mass, n, resolution);
  if (!fit.failure.empty()) {
    note = "Z fit not done: " + fit.failure;
  } else {
    ctx.metrics["z_mass_gev"] = fit.p[kMass];
    ctx.metrics["z_mass_err"] = fit.err[kMass];
    ctx.metrics["z_width_gev"] = fit.p[kWidth];
    ctx.metrics["z_width_err"] = fit.err[kWidth];
    note = "Z fit on " + std::to_string(fit.entries) +
           " masses in 70-110 GeV (bins of 0.25 GeV): M = " + fixed(fit.p[kMass], 3) + " +- " +
           fixed(fit.err[kMass], 3) + " GeV, Gamma = " + fixed(fit.p[kWidth], 3) + " +- " + fixed(fit.err[kWidth], 3) +
           " GeV (Breit-Wigner x Gaussian of " + fixed(100 * resolution, 2) +
           " % + linear background, chi2/ndf = " + fixed(fit.chi2, 1) + "/" + std::to_string(fit.ndf) + ")";
  }
#else
  (void)mass, (void)n, (void)resolution;
  note = "Z fit skipped: this build has no Eigen (libeigen3-dev), which the least-squares fit uses";
#endif
  ctx.launchNote = ctx.launchNote.empty() || ctx.launchNote == "as requested" ? note : ctx.launchNote + "; " + note;
}

}  // namespace launchlab::kernels::z_mass
