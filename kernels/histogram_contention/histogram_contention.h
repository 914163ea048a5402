#pragma once
// histogram_contention (the ATLAS training's Project 1, a schedule line of seed file 004): z_mass's masses histogrammed
// on [0, 120) GeV in `bins` bins (1200: bin = 10 m), by (a) a private histogram per thread then a sum of the columns,
// (b) one histogram in global memory with atomics, (c) a histogram per block in shared memory; fewer bins, more threads
// waiting on the same counter.
#include <cstdint>

#include "histogram/histogram.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::histogram_contention {

constexpr double kMaxGeV = 120.0;
constexpr int kMaxBins = 1200;
inline histogram::BinRule<float> ruleOf(const RunSetup& s) {
  return histogram::BinRule<float>::make(0.0, kMaxGeV, int(s.params.integer("bins")));
}
/// Bytes of variant (a)'s private histograms: a row of `bins` uint32 counters per thread.
inline double privateBytes(std::uint64_t threads, int bins) { return double(threads) * double(bins) * 4.0; }

void cudaPrivatePerThread(ImplContext& ctx);
void cudaGlobalAtomics(ImplContext& ctx);
void cudaSharedAtomics(ImplContext& ctx);
void cudaSharedPerLane(ImplContext& ctx);

}  // namespace launchlab::kernels::histogram_contention
