#pragma once
// histogram (TP 3.2 exercise cuda_histogram; ATLAS project 1): counts of x in `bins` equal bins over [xmin, xmax).
#include <cstdint>

#include "common/index_math.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::histogram {

constexpr int kMaxBins = 65536;

/// The one bin rule every implementation uses, in the data's precision T, with the same operations as CUB's
/// DeviceHistogram::HistogramEven (so that all counts agree exactly, the library's included):
///   valid  = xmin <= x < xmax          (NaN and everything outside are dropped)
///   scale  = T(bins) / (xmax - xmin)   (computed once, on the host, in T)
///   bin    = int((x - xmin) * scale)   (truncation; x - xmin >= 0 here)
/// x - xmin and (x - xmin) * scale can round up to `bins` for x within a rounding of xmax (e.g. 4 - 2^-22 on
/// [-4, 4)): such a sample is dropped too. CUB does not check for it: with up to 256 bins its shared-memory
/// histogram has a spare slot that is never output (the same count); above 256 bins it would add it to the next
/// block's bin 0, a case that needs a sample within ~1e-7 relative of xmax. The seed's cpu_histogram divides by
/// bin_width in float64 instead and truncates towards zero, which puts x in (xmin - bin_width, xmin) into bin 0; see
/// docs/workloads/part_b.md.
template <typename T>
struct BinRule {
  T lo, hi, scale;
  int bins;
  static BinRule make(double xmin, double xmax, int nbins) {
    const T l = T(xmin), h = T(xmax);
    return {l, h, T(T(nbins) / T(h - l)), nbins};
  }
  /// The bin of x, or -1 when x is not counted.
  LAUNCHLAB_HD int operator()(T x) const {
    if (!(x >= lo && x < hi)) return -1;
    const int b = static_cast<int>((x - lo) * scale);
    return b < bins ? b : -1;
  }
};

void cudaGlobalAtomics(ImplContext& ctx);
void cudaSharedPrivatized(ImplContext& ctx);
void cudaCub(ImplContext& ctx);

}  // namespace launchlab::kernels::histogram
