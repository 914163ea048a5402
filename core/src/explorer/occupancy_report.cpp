// An implementation's occupancy report: its kernels' recorded resources x block sizes, waves, hints, JSON.
#include "launchlab/explorer/occupancy_report.h"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "launchlab/files/json_value.h"

namespace launchlab {

namespace {

using nlohmann::ordered_json;

int archNumber(const std::string& arch) { return std::atoi(arch.c_str() + (arch.rfind("sm_", 0) == 0 ? 3 : 0)); }

/// The recorded architecture closest to `want` from below (its code runs there), else the lowest above it.
std::string nearestArch(const std::vector<std::string>& recorded, const std::string& want) {
  std::string below, above;
  for (const auto& a : recorded) {
    if (a == want) return a;
    if (archNumber(a) < archNumber(want) && (below.empty() || archNumber(a) > archNumber(below))) below = a;
    if (archNumber(a) > archNumber(want) && (above.empty() || archNumber(a) < archNumber(above))) above = a;
  }
  return below.empty() ? above : below;
}

ordered_json resourcesJson(const KernelResources& r) {
  ordered_json j = {{"registers", r.registersPerThread},
                    {"static_shared_bytes", r.staticSharedBytes},
                    {"local_bytes", r.localBytesPerThread}};
  if (r.maxThreadsPerBlock > 0) j["max_threads_per_block"] = r.maxThreadsPerBlock;
  return j;
}

ordered_json rowJson(const OccupancyRow& r) {
  const Occupancy& o = r.occupancy;
  ordered_json limiters = ordered_json::array();
  for (Limiter l : o.limiters) limiters.push_back(limiterName(l));
  ordered_json j = {{"kernel", r.kernel.name},
                    {"symbol", r.kernel.symbol},
                    {"block", formatDim3(r.block)},
                    {"threads", o.threadsPerBlock},
                    {"resources", resourcesJson(r.kernel.resources)},
                    {"allocated_registers_per_block", o.registersPerBlock},
                    {"allocated_shared_per_block", o.sharedPerBlock},
                    {"blocks_per_sm", o.blocksPerSm},
                    {"active_warps", o.activeWarps},
                    {"max_warps", o.maxWarps},
                    {"occupancy", jsonNumber(o.occupancy)},
                    {"limiters", limiters},
                    {"why", o.why},
                    {"grid_blocks", r.gridBlocks},
                    {"waves",
                     {{"per_wave", r.waves.perWave},
                      {"full", r.waves.full},
                      {"last_blocks", r.waves.lastBlocks},
                      {"waves", jsonNumber(r.waves.waves)},
                      {"efficiency", jsonNumber(r.waves.efficiency)}}},
                    {"hints", r.hints}};
  if (r.api)
    j["cuda_api"] = {{"resources", resourcesJson(r.api->resources)},
                     {"blocks_per_sm", r.api->blocksPerSm},
                     {"dynamic_shared_bytes", r.api->dynamicSharedBytes},
                     {"agrees", r.api->blocksPerSm == o.blocksPerSm}};
  return j;
}

/// Blocks per SM, waves and hints of a row's kernel, block and grid.
void evaluate(const ArchProfile& p, OccupancyRow& r, std::size_t dynamicShared) {
  r.occupancy = computeOccupancy(p, r.kernel.resources, int(r.block.count()), dynamicShared);
  r.waves = wavesOf(r.gridBlocks, r.occupancy.blocksPerSm, p.smCount);
  r.hints = launchHints(p, r.occupancy, r.gridBlocks);
}

}  // namespace

OccupancyReport occupancyReport(const WorkloadInfo& w, const ImplSpec& impl, const std::vector<KernelRecord>& records,
                                const ArchProfile& profile, bool theoretical, const std::vector<Dim3>& blocks,
                                const GridChoice& grid, std::optional<DType> dtype) {
  OccupancyReport rep;
  rep.workload = w.id;
  rep.implId = impl.id;
  rep.profile = profile;
  rep.theoretical = theoretical;
  rep.label = theoretical ? "theoretical (profile " + profile.arch + ", GPU " + profile.gpuName + ")"
                          : profile.gpuName + " (" + profile.arch + ")";
  rep.resourcesArch = nearestArch(recordedArchs(records), profile.arch);
  if (rep.resourcesArch.empty()) {
    rep.notes.push_back("no kernel resource usage was recorded by this build");
    return rep;
  }
  if (rep.resourcesArch != profile.arch)
    rep.notes.push_back("no resource usage recorded for " + profile.arch + ": " + rep.resourcesArch +
                        "'s is used (registers may differ)");
  const auto kernels = selectKernels(records, rep.resourcesArch, w.id, impl.kernels, dtype);
  if (kernels.empty()) {
    rep.notes.push_back(impl.id + " launches no recorded CUDA kernel");
    return rep;
  }
  if (impl.kernels.empty())
    rep.notes.push_back(impl.id + " does not name its kernels: every kernel of workload " + w.id + " is shown");
  if (!grid.grid) rep.notes.push_back("grid: ceil(N / threads per block) blocks, N = " + std::to_string(grid.n));
  for (const auto& k : kernels)
    for (const Dim3& b : blocks) {
      OccupancyRow r;
      r.kernel = k;
      r.block = b;
      r.gridBlocks = grid.grid ? grid.grid->count() : ceilDiv(grid.n, std::max<std::uint64_t>(b.count(), 1));
      evaluate(profile, r, 0);
      rep.rows.push_back(std::move(r));
    }
  return rep;
}

void attachApiOccupancy(OccupancyReport& report, const std::vector<ApiOccupancy>& api) {
  for (auto& r : report.rows)
    for (const auto& a : api) {
      if (a.symbol != r.kernel.symbol || std::uint64_t(a.threadsPerBlock) != r.block.count()) continue;
      r.api = a;
      if (a.gridBlocks) r.gridBlocks = a.gridBlocks;  // the grid the run launched
      // More than 48 KiB launched only because the implementation opted in (cudaFuncSetAttribute).
      r.kernel.resources.sharedOptIn =
          r.kernel.resources.staticSharedBytes + a.dynamicSharedBytes > report.profile.sharedPerBlock;
      evaluate(report.profile, r, a.dynamicSharedBytes);  // and its dynamic shared memory count in the theory too
    }
}

std::string occupancyReportJson(const OccupancyReport& rep) {
  ordered_json root = jsonDocument("launchlab.occupancy");
  const ArchProfile& p = rep.profile;
  root["workload"] = rep.workload;
  root["impl"] = rep.implId;
  root["label"] = rep.label;
  root["theoretical"] = rep.theoretical;
  root["profile"] = {{"arch", p.arch},
                     {"gpu", p.gpuName},
                     {"sm_count", p.smCount},
                     {"max_threads_per_sm", p.maxThreadsPerSm},
                     {"max_blocks_per_sm", p.maxBlocksPerSm},
                     {"registers_per_sm", p.registersPerSm},
                     {"shared_per_sm", p.sharedPerSm},
                     {"shared_alloc_unit", p.sharedAllocUnit},
                     {"reserved_shared_per_block", p.reservedSharedPerBlock}};
  root["resources_arch"] = rep.resourcesArch;
  root["notes"] = rep.notes;
  ordered_json rows = ordered_json::array();
  for (const auto& r : rep.rows) rows.push_back(rowJson(r));
  root["rows"] = std::move(rows);
  return dumpJson(root, 1);
}

}  // namespace launchlab
