#pragma once
/// Deterministic, counter-based random inputs: element i of stream s under seed k is a pure function of
/// (k, s, i), so generation parallelises and gives the same array whatever the thread count.
#include <cstdint>

#include "launchlab/engine/array.h"

namespace launchlab {

/// SplitMix64 finaliser: a good 64-bit mixing function.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/// Uniform double in [0, 1) from 53 random bits.
constexpr double toUnit(std::uint64_t bits) { return double(bits >> 11) * 0x1.0p-53; }

/// counterBits in two steps, for loops that draw many elements of one stream: the stream's key once, then one
/// mix per element (constexpr, so CUDA kernels built with --expt-relaxed-constexpr draw the same bits as the CPU).
constexpr std::uint64_t streamKey(std::uint64_t seed, std::uint64_t stream) {
  return mix64(seed * 0x632BE59BD9B4E019ull + stream);
}
constexpr std::uint64_t keyedBits(std::uint64_t key, std::uint64_t i) {
  return mix64(key ^ (i * 0xD1342543DE82EF95ull));
}

/// The raw 64-bit value for element i of stream `stream`.
constexpr std::uint64_t counterBits(std::uint64_t seed, std::uint64_t stream, std::uint64_t i) {
  return keyedBits(streamKey(seed, stream), i);
}

/// Fills `a` (any numeric dtype) with values uniform in [lo, hi). Integer dtypes get floor() of the draw.
void fillUniform(HostArray& a, double lo, double hi, std::uint64_t seed, std::uint64_t stream);
/// Fills `a` with normal(mean, sigma) draws (Box-Muller on two counter draws).
void fillNormal(HostArray& a, double mean, double sigma, std::uint64_t seed, std::uint64_t stream);
/// Fills `a` with start, start+step, … (NumPy arange).
void fillArange(HostArray& a, double start, double step);
/// Fills `a` with a constant.
void fillConstant(HostArray& a, double value);

}  // namespace launchlab
