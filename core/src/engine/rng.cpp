#include "launchlab/engine/rng.h"

#include <cmath>
#include <numbers>

namespace launchlab {

namespace {
template <typename T, typename Gen>
void fillWith(HostArray& a, Gen gen) {
  auto v = a.view<T>();
  const std::size_t n = v.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(gen(i));
}

template <typename Gen>
void fillAny(HostArray& a, Gen gen) {
  visitDType(a.dtype(), [&](auto t) {
    using T = decltype(t);
    if constexpr (std::is_floating_point_v<T>)
      fillWith<T>(a, gen);
    else
      fillWith<T>(a, [&](std::size_t i) { return std::floor(gen(i)); });
  });
}
}  // namespace

void fillUniform(HostArray& a, double lo, double hi, std::uint64_t seed, std::uint64_t stream) {
  const double w = hi - lo;
  fillAny(a, [=](std::size_t i) {
    double x = lo + w * toUnit(counterBits(seed, stream, i));
    return x < hi ? x : lo;  // guard against rounding up to hi
  });
}

void fillNormal(HostArray& a, double mean, double sigma, std::uint64_t seed, std::uint64_t stream) {
  fillAny(a, [=](std::size_t i) {
    // Box-Muller from two independent counter draws; u1 in (0, 1].
    const double u1 = 1.0 - toUnit(counterBits(seed, stream, 2 * std::uint64_t(i)));
    const double u2 = toUnit(counterBits(seed, stream, 2 * std::uint64_t(i) + 1));
    return mean + sigma * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  });
}

void fillArange(HostArray& a, double start, double step) {
  fillAny(a, [=](std::size_t i) { return start + step * double(i); });
}

void fillConstant(HostArray& a, double value) {
  fillAny(a, [=](std::size_t) { return value; });
}

}  // namespace launchlab
