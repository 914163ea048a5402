// `launchlab-cli occupancy`: options -> the shared request parser and rules (via a block-axis sweep plan) -> the
// occupancy report of core, with the CUDA API's figures when a GPU runs the launches.
#include "cli_occupancy.h"

#include <sstream>

#include "cli_table.h"
#include "launchlab/explorer/sweep.h"
#include "launchlab/kernel_resources_data.h"

namespace launchlab::cli {

namespace {

struct Profile {
  ArchProfile profile;
  bool theoretical = true;
  std::string note;
};

std::variant<Profile, RequestProblem> chooseProfile(const DeviceStatus& device, const std::string& name) {
  if (!name.empty()) {
    const ArchProfile* p = findArchProfile(name);
    if (!p) return RequestProblem{"gpu-profile", "unknown profile '" + name + "' (known: " + archProfileNames() + ")"};
    return Profile{*p, true, ""};
  }
  if (!device.available)
    return Profile{defaultArchProfile(), true, "no GPU here (" + device.reason + "): the default profile"};
  if (auto p = profileForDevice(device.info)) return Profile{*p, false, ""};
  return Profile{defaultArchProfile(), true,
                 device.info.name + " has no profile: the default one (give --gpu-profile)"};
}

/// Runs each block once and gathers the CUDA API's records and the launched grids.
std::vector<ApiOccupancy> measureApi(Engine& engine, const std::vector<SweepCell>& cells, const std::string& implId,
                                     std::vector<std::string>& notes) {
  std::vector<ApiOccupancy> all;
  for (const auto& cell : cells) {
    RunRequest req = *cell.request;
    req.reps = 1;
    req.warmup = 0;
    const RunResult r = engine.run(req);
    const ImplResult* i = r.find(implId);
    if (!i || i->status != Status::Ok) {
      notes.push_back("block " + cell.values.front() + ": the run gave no CUDA figures (" + (i ? i->reason : r.reason) +
                      ")");
      continue;
    }
    all.insert(all.end(), i->kernelOccupancy.begin(), i->kernelOccupancy.end());
  }
  return all;
}

std::string wavesText(const Waves& w) {
  if (w.perWave == 0) return "-";
  std::string s = std::to_string(w.full);
  if (w.lastBlocks) s += " + " + std::to_string(w.lastBlocks) + "/" + std::to_string(w.perWave);
  return s;
}

}  // namespace

std::variant<OccupancyReport, RequestProblem> occupancyFor(Engine& engine, const OccupancyOptions& o) {
  const DeviceStatus device = engine.deviceStatus();
  if (o.text.impls.find(',') != std::string::npos || o.text.impls == "all")
    return RequestProblem{"impl", "give one CUDA implementation (see 'launchlab-cli list')"};
  SweepPlan plan;
  plan.base = o.text;
  plan.base.block = "auto";
  std::string err;
  const auto blocks = axisValues(o.text.block, &err, smCountForSweeps(device));
  if (!blocks) return RequestProblem{"block", err};
  plan.axes = {{"block", *blocks}};
  if (o.text.grid != "auto") {  // one grid, "sm*k" allowed
    const auto grid = axisValues(o.text.grid, &err, smCountForSweeps(device));
    if (!grid || grid->size() != 1) return RequestProblem{"grid", grid ? "give one grid" : err};
    plan.base.grid = grid->front();
  }
  std::vector<RequestProblem> problems;
  const auto cells = expandSweep(
      plan, [&](const RunRequest& r) { return engine.validate(r); }, problems);
  if (!problems.empty()) return problems.front();
  std::vector<Dim3> dims;
  for (const auto& c : cells) {
    if (!c.request || !c.block) return RequestProblem{"block", c.values.front() + ": " + c.skipReason};
    dims.push_back(*c.block);
  }
  const RunRequest& first = *cells.front().request;
  const Workload& w = *engine.registry().find(first.workload);
  const ImplSpec* impl = nullptr;
  for (const auto& s : w.impls())
    if (s.id == first.impls.front()) impl = &s;
  if (!impl || !impl->isGpu())
    return RequestProblem{"impl", first.impls.front() + " is not a CUDA implementation: occupancy is about kernels"};
  auto chosen = chooseProfile(device, o.gpuProfile);
  if (auto* p = std::get_if<RequestProblem>(&chosen)) return *p;
  const Profile& prof = std::get<Profile>(chosen);
  std::string jsonError;
  const auto records = kernelRecordsFromJson(kernels::kernelResourcesJson(), &jsonError);
  if (!records) throw std::runtime_error("the built-in kernel resource usage does not read: " + jsonError);
  const GridChoice grid{first.launch.grid, first.n.value_or(w.info().defaultN)};
  OccupancyReport rep = occupancyReport(w.info(), *impl, *records, prof.profile, prof.theoretical, dims, grid,
                                        first.dtype.value_or(w.info().defaultDType));
  if (!prof.note.empty()) rep.notes.insert(rep.notes.begin(), prof.note);
  rep.notes.push_back("kernel resource usage: " + std::string(kernels::kernelResourcesJsonOrigin()));
  if (!prof.theoretical) attachApiOccupancy(rep, measureApi(engine, cells, impl->id, rep.notes));
  return rep;
}

std::string renderOccupancy(const OccupancyReport& r) {
  std::ostringstream o;
  o << r.workload << " / " << r.implId << ": " << r.label << ", " << r.profile.smCount << " SMs\n";
  for (const auto& n : r.notes) o << "  note: " << n << "\n";
  const bool api = !r.theoretical;
  o << pad("kernel", 44) << pad("block", 8) << pad("regs", 5, true) << pad("smem B", 7, true) << pad("blk/SM", 7, true)
    << pad("occup.", 7, true) << pad("limiter", 22) << pad("grid", 9, true) << pad("waves", 14)
    << (api ? "CUDA API blk/SM" : "") << "\n";
  for (const auto& row : r.rows) {
    const Occupancy& x = row.occupancy;
    std::string limiters;
    for (Limiter l : x.limiters) limiters += (limiters.empty() ? "" : " + ") + limiterName(l);
    o << pad(row.kernel.displayName(), 44) << pad(formatDim3(row.block), 8)
      << pad(std::to_string(row.kernel.resources.registersPerThread), 5, true)
      << pad(std::to_string(row.kernel.resources.staticSharedBytes), 7, true)
      << pad(std::to_string(x.blocksPerSm), 7, true) << pad(num(100 * x.occupancy, "%.0f%%"), 7, true)
      << pad(limiters, 22) << pad(std::to_string(row.gridBlocks), 9, true) << pad(wavesText(row.waves), 14);
    if (row.api)
      o << row.api->blocksPerSm << (row.api->blocksPerSm == x.blocksPerSm ? " (agrees)" : " (DIFFERS)");
    else if (api)
      o << "-";
    o << "\n";
    for (const auto& h : row.hints) o << "    hint: " << h << "\n";
  }
  return o.str();
}

}  // namespace launchlab::cli
