#pragma once
// reduce_sum (Session 3, @cuda.reduce sum_reduce; ATLAS tree reduction): the sum of n values, from naive atomics
// through Harris's shared-memory trees to a one-pass warp-shuffle kernel and CUB.
#include <cstdint>
#include <span>

#include "launchlab/workload.h"

namespace launchlab::kernels::reduce_sum {

/// Compensated (Neumaier) sum in float64: error about one rounding of the result, whatever n (the reference).
double neumaierSum(std::span<const float> x);
double neumaierSum(std::span<const double> x);
/// int32 sum with wrapping (two's complement, modulo 2^32) semantics, the same on every implementation.
std::int32_t wrappingSum(std::span<const std::int32_t> x);

/// Absolute tolerance of a float sum of n terms with unit roundoff u and condition sum|x| (see reduce_sum.cpp).
double sumTolerance(double unitRoundoff, std::uint64_t n, double sumAbs);

void cudaAtomics(ImplContext& ctx);
void cudaNaiveRace(ImplContext& ctx);
void cudaTreeGlobalHalving(ImplContext& ctx);
void cudaTreeInterleaved(ImplContext& ctx);
void cudaTreeSequential(ImplContext& ctx);
void cudaWarpShuffle(ImplContext& ctx);
void cudaCub(ImplContext& ctx);

}  // namespace launchlab::kernels::reduce_sum
