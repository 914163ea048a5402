#pragma once
/// The roofline: a kernel's achieved GFLOP/s against its arithmetic intensity (FLOP per byte moved),
/// under two ceilings: the memory roof (bandwidth x intensity) and the compute roof (FP32 peak). The ceilings are
/// measured on the device (cudaMemcpy device-to-device bandwidth and an FMA kernel's throughput), read back from a
/// recording, or, without a GPU, taken from the datasheet of an architecture profile's named GPU (theoretical).
/// Pure functions apart from measureCeilings, which asks a GpuRuntime.
#include <optional>
#include <string>
#include <string_view>

#include "launchlab/engine/device.h"
#include "launchlab/explorer/occupancy.h"

namespace launchlab {

struct Ceilings {
  enum class Source { Measured, Recorded, Theoretical };
  double copyGBs = 0;     ///< the memory roof: GB/s counting read + write (as ImplResult::bandwidthGBs does)
  double fp32Gflops = 0;  ///< the compute roof: FP32 GFLOP/s, an FMA counted as 2
  Source source = Source::Theoretical;
  std::string gpuName;  ///< the device measured, or the datasheet's GPU
  std::string date;     ///< ISO 8601 UTC of the measurement ("" for a datasheet)
  std::string problem;  ///< why there are none (no GPU, the worker failed); "" when valid
  bool valid() const { return copyGBs > 0 && fp32Gflops > 0; }
  /// "measured on NVIDIA H200, 2026-11-24", "recorded on NVIDIA H200, 2026-11-24" or
  /// "theoretical: datasheet of NVIDIA H100 SXM5".
  std::string label() const;
  bool operator==(const Ceilings&) const = default;
};
std::string_view ceilingsSourceName(Ceilings::Source s);  ///< "measured", "recorded", "theoretical"

/// The arithmetic intensity where the two roofs meet (FLOP/byte): fp32Gflops / copyGBs; 0 for invalid ceilings.
double ridgePoint(const Ceilings& c);
/// The attainable GFLOP/s at intensity `ai`: min(fp32Gflops, ai x copyGBs).
double roofAt(const Ceilings& c, double ai);

enum class Bound { Memory, Compute };
std::string_view boundName(Bound b);  ///< "memory", "compute"
/// Memory below the ridge point, compute at or above it.
Bound boundAt(const Ceilings& c, double ai);

/// One run of an implementation placed on the roofline.
struct RooflinePoint {
  double intensity = 0;  ///< FLOP / byte
  double gflops = 0;     ///< achieved
  double gbs = 0;        ///< achieved (bytes / time)
  Bound bound = Bound::Memory;
  double percentOfRoof = 0;  ///< 100 x gflops / roofAt(intensity)
};
/// The point of `flops` and `bytes` done in `ms`; nullopt when there is no FLOP count, no bytes, no time or the
/// ceilings are invalid.
std::optional<RooflinePoint> placeOnRoofline(const Ceilings& c, double flops, double bytes, double ms);

/// The datasheet ceilings of a profile's GPU (DRAM bandwidth, FP32 peak), labelled theoretical; invalid when the
/// profile has none.
Ceilings theoreticalCeilings(const ArchProfile& p);
/// Measures both ceilings on the runtime's selected device (copy over min(1 GiB, free / 4) bytes, median of `reps`);
/// invalid ceilings with the reason in `problem` when there is no GPU or the measurement gave nothing.
Ceilings measureCeilings(GpuRuntime& gpu, int reps = 10);

/// {"schema":"launchlab.ceilings", copy_gbs, fp32_gflops, source, gpu, date, ridge_flop_per_byte, label}.
std::string ceilingsJson(const Ceilings& c);
/// Reads ceilingsJson's output (other keys ignored); nullopt and one line in `error` for anything else.
std::optional<Ceilings> parseCeilingsJson(std::string_view text, std::string* error = nullptr);

}  // namespace launchlab
