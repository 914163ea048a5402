// `launchlab-cli ceilings`: the device's memory and compute roofs (measured), or a profile's datasheet figures.
#include "cli_ceilings.h"

#include "cli_table.h"

namespace launchlab::cli {

std::variant<CeilingsReport, RequestProblem> ceilingsFor(Engine& engine, const CeilingsOptions& o) {
  if (!o.gpuProfile.empty()) {
    const ArchProfile* p = findArchProfile(o.gpuProfile);
    if (!p)
      return RequestProblem{"gpu-profile",
                            "unknown profile '" + o.gpuProfile + "' (known: " + archProfileNames() + ")"};
    return CeilingsReport{theoreticalCeilings(*p), ""};
  }
  const DeviceStatus device = engine.deviceStatus();
  if (!device.available)
    return CeilingsReport{theoreticalCeilings(defaultArchProfile()),
                          "no GPU here (" + device.reason + "): the datasheet of the default profile " +
                              defaultArchProfile().arch + " (give --gpu-profile for another)"};
  Ceilings c = measureCeilings(engine.gpu(), o.reps);
  return CeilingsReport{c, c.valid() ? "" : c.problem};
}

std::string renderCeilings(const CeilingsReport& r) {
  const Ceilings& c = r.ceilings;
  const bool measured = c.source != Ceilings::Source::Theoretical;
  std::string s = "Roofline ceilings: " + c.label() + "\n";
  s += "  memory roof  " + num(c.copyGBs, "%10.1f") + " GB/s     " +
       (measured ? "cudaMemcpy device to device, read + write" : "datasheet DRAM bandwidth") + "\n";
  s += "  compute roof " + num(c.fp32Gflops, "%10.1f") + " GFLOP/s  " +
       (measured ? "FP32 FMA kernel (an FMA counts 2)" : "datasheet FP32 peak") + "\n";
  s += "  ridge point  " + num(ridgePoint(c), "%10.2f") +
       " FLOP/byte: below it a kernel is memory-bound, above it compute-bound\n";
  if (!r.note.empty()) s += "  note: " + r.note + "\n";
  return s;
}

}  // namespace launchlab::cli
