#pragma once
// groupby_sum (ATLAS training, seed file 004): cuDF's df.groupby("jetid").sum() on the seed's DataFrame (jetid =
// cumsum(Poisson(0.1)), px, py, pz ~ N(0, 10), E ~ N(20, 10)), and Awkward's per-list sum, which is the same
// segmented reduction: sorted keys cut the rows into segments (one per distinct key), exactly as a jagged array's
// offsets cut its content into lists. Once the segment starts are known (offsets = starts, plus n at the end),
// group g's sums are the sums of list g.
//
// Keys must be sorted (non-decreasing), as cumsum makes them; a jetid loaded with --input that decreases somewhere
// is rejected with the row where it does (a hash group-by is another lesson). Output row g holds the g-th distinct
// key in increasing order (cuDF's .sort_index()), and only keys that occur: cumsum skips values where Poisson gave 2
// or more (the seed's output goes 0, 1, 4, 5, ...), and those keys have no row, as in cuDF.
#include <cstdint>
#include <span>

#include "common/index_math.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::groupby_sum {

constexpr std::size_t kColumns = 4;  ///< px, py, pz, E: sums is groups x 4, row-major
constexpr double kPoissonMean = 0.1;
/// The atomics variants index a dense table by key - key[0]: keys spanning more than this many values per row (and
/// 1024 more) are too sparse for it, and those variants refuse them.
constexpr std::uint64_t kDenseSpanPerRow = 4;

/// Throws std::invalid_argument naming the first row whose key is smaller than the row before.
void requireSorted(std::span<const std::int64_t> keys);
/// Distinct keys of sorted keys (runs of equal consecutive values).
std::uint64_t countGroups(std::span<const std::int64_t> keys);
/// key[n-1] - key[0] + 1 (sorted keys): the dense table's rows; throws std::invalid_argument when it exceeds
/// kDenseSpanPerRow * n + 1024.
std::uint64_t denseSpan(std::span<const std::int64_t> keys);

/// starts[g] = the first row of group g for g < groups, starts[groups] = n: the offsets of the segments.
template <bool Parallel>
void findStarts(std::span<const std::int64_t> keys, std::span<std::uint64_t> starts);
/// Awkward's ak.sum(array, axis=1) (the seed's sum_in_cuda): out[j * outStride] = x[offsets[j]] + ... +
/// x[offsets[j+1] - 1], added in order, 0 for an empty list; lists = offsets.size() - 1.
template <bool Parallel, typename T>
void sumLists(std::span<const std::uint64_t> offsets, const T* x, T* out, std::size_t outStride);

/// One Poisson(mean) draw from a uniform u in [0, 1) by inversion (the smallest k with CDF(k) > u).
std::int64_t poissonDraw(double u, double mean);

/// The metric rows_per_s: rows per second of the median `timed` phase (Phase::Cpu or Phase::Kernel).
void recordRowRate(ImplContext& ctx, Phase timed);

void cudaAtomics(ImplContext& ctx);
void cudaAtomicsWarpRuns(ImplContext& ctx);
void cudaThreadPerSegment(ImplContext& ctx);
void cudaWarpPerSegment(ImplContext& ctx);
void cudaCub(ImplContext& ctx);

}  // namespace launchlab::kernels::groupby_sum
