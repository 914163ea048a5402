#include "launchlab/explorer/sweep.h"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <utility>

#include "launchlab/explorer/occupancy.h"
#include "launchlab/files/csv.h"
#include "launchlab/files/parse.h"

namespace launchlab {

namespace {

constexpr std::size_t kMaxAxisValues = 100000;  // one axis' values
/// The largest magnitude of a range's terms: far above any size, block or seed a sweep can use, and small enough
/// that start, stop, step and their differences never overflow a long long.
constexpr long long kMaxTerm = 1ll << 62;

bool fail(std::string* error, std::string message) {
  if (error) *error = std::move(message);
  return false;
}

/// A whole number, or "sm*k" / "sm": k times the SM count (smCount 0: unknown, an error).
std::optional<long long> termValue(const std::string& term, int smCount, std::string* error) {
  if (term.rfind("sm", 0) != 0) {
    const auto v = parseInteger(term);
    if (v && (*v > kMaxTerm || *v < -kMaxTerm)) {
      fail(error, "'" + term + "' is too large (at most 2^62 in magnitude)");
      return std::nullopt;
    }
    return v;
  }
  const std::string k = term.size() == 2 ? "1" : term.rfind("sm*", 0) == 0 ? term.substr(3) : "";
  const auto v = parseInteger(k);
  if (!v || *v < 1) {
    fail(error, "'" + term + "' must look like sm*K with K a whole number >= 1 (K times the SM count)");
    return std::nullopt;
  }
  if (smCount <= 0) {
    fail(error, "'" + term + "' needs the SM count, and no GPU or profile gives it");
    return std::nullopt;
  }
  if (*v > kMaxTerm / smCount) {
    fail(error, "'" + term + "' is too large (at most 2^62 in magnitude)");
    return std::nullopt;
  }
  return *v * smCount;
}

/// "start:stop:step" with whole numbers or sm*k terms, stop included.
std::optional<std::vector<std::string>> rangeValues(std::string_view text, int smCount, std::string* error) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : text) {
    if (c == ':')
      parts.push_back(std::exchange(cur, {}));
    else
      cur += c;
  }
  parts.push_back(cur);
  const std::string quoted = "'" + std::string(text) + "'";
  long long v3[3] = {0, 0, 0};
  bool whole = parts.size() == 3;
  for (std::size_t k = 0; whole && k < 3; ++k) {
    std::string termError;
    const auto x = termValue(parts[k], smCount, &termError);
    if (!termError.empty()) return fail(error, termError), std::nullopt;
    whole = x.has_value();
    v3[k] = x.value_or(0);
  }
  const long long start = v3[0], stop = v3[1], step = v3[2];
  if (!whole) {
    fail(error, "range " + quoted + " must look like START:STOP:STEP with whole numbers (e.g. 32:1024:32)");
    return std::nullopt;
  }
  if (step <= 0 || stop < start) {
    fail(error, "range " + quoted + " needs STEP > 0 and STOP >= START");
    return std::nullopt;
  }
  // |start|, |stop| <= 2^62 (termValue): their difference fits in unsigned 64 bits, and the values are counted,
  // never stepped past stop (which overflowed near the end of the range).
  const std::uint64_t span = std::uint64_t(stop) - std::uint64_t(start);
  const std::uint64_t count = span / std::uint64_t(step) + 1;
  if (count > kMaxAxisValues) {
    fail(error, "range " + quoted + " is too large: it has more than " + std::to_string(kMaxAxisValues) + " values");
    return std::nullopt;
  }
  std::vector<std::string> v;
  v.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i)
    v.push_back(std::to_string(static_cast<long long>(std::uint64_t(start) + i * std::uint64_t(step))));
  return v;
}

std::vector<std::string> selectedIds(const RunRequest& req, const RunResult& r) {
  std::vector<std::string> ids;
  const bool all = std::find(req.impls.begin(), req.impls.end(), "all") != req.impls.end();
  if (!all) return req.impls;
  for (const auto& i : r.impls) ids.push_back(i.implId);
  return ids;
}

}  // namespace

std::optional<std::vector<std::string>> axisValues(std::string_view text, std::string* error, int smCount) {
  if (text.find(':') != std::string_view::npos) return rangeValues(text, smCount, error);
  auto v = splitList(text);
  if (v.empty()) {
    fail(error, "no values given");
    return std::nullopt;
  }
  for (auto& x : v) {
    if (x.rfind("sm", 0) != 0) continue;
    const auto n = termValue(x, smCount, error);
    if (!n) return std::nullopt;
    x = std::to_string(*n);
  }
  return v;
}

std::unordered_map<std::string, std::size_t> axisPositions(const std::vector<std::string>& values) {
  std::unordered_map<std::string, std::size_t> at;
  at.reserve(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) at.emplace(values[i], i);
  return at;
}

int smCountForSweeps(const DeviceStatus& device) {
  if (device.available && device.info.multiprocessors > 0) return device.info.multiprocessors;
  return defaultArchProfile().smCount;
}

std::vector<Dim3> sweepBlocks(int launchDims, int maxThreads, int step) {
  std::vector<Dim3> v;
  for (int t = step; t <= maxThreads; t += step) {
    if (launchDims >= 2 && t % 32 == 0)
      v.push_back(Dim3{32u, std::uint32_t(t / 32), 1u});
    else
      v.push_back(Dim3{std::uint32_t(t), 1u, 1u});
  }
  return v;
}

std::vector<SweepCell> expandSweep(const SweepPlan& plan, const RequestValidator& validate,
                                   std::vector<RequestProblem>& planProblems) {
  std::size_t count = 1;
  for (const auto& a : plan.axes) {
    RequestText probe;
    if (!setRequestField(probe, a.field, ""))
      planProblems.push_back({a.field, "cannot sweep '" + a.field + "'"});
    else if (a.values.empty())
      planProblems.push_back({a.field, "the axis '" + a.field + "' has no values"});
    count = std::min(count * std::max<std::size_t>(1, a.values.size()), kMaxSweepCells + 1);  // no overflow
  }
  if (!planProblems.empty()) return {};
  if (count > kMaxSweepCells) {
    planProblems.push_back({plan.axes.front().field, "more than " + std::to_string(kMaxSweepCells) +
                                                         " combinations: at most " + std::to_string(kMaxSweepCells) +
                                                         " per sweep"});
    return {};
  }
  std::vector<SweepCell> cells(count);
  for (std::size_t c = 0; c < count; ++c) {
    SweepCell& cell = cells[c];
    RequestText text = plan.base;
    std::size_t rest = c;
    cell.values.resize(plan.axes.size());
    for (std::size_t a = plan.axes.size(); a-- > 0;) {
      const auto& axis = plan.axes[a];
      cell.values[a] = axis.values[rest % axis.values.size()];
      rest /= axis.values.size();
      setRequestField(text, axis.field, cell.values[a]);
    }
    ParsedRequest parsed = parseRequest(text);
    std::vector<RequestProblem> problems = parsed.problems;
    if (problems.empty()) problems = validate(parsed.request);
    for (const auto& p : problems) {
      const bool axisField = std::any_of(plan.axes.begin(), plan.axes.end(), [&](const SweepAxis& a) {
        return a.field == p.field || (p.field == "params" && a.field.rfind("param:", 0) == 0);
      });
      if (!axisField) {
        planProblems.push_back(p);
        return {};
      }
    }
    cell.block = parsed.request.launch.block;
    if (problems.empty())
      cell.request = std::move(parsed.request);
    else
      cell.skipReason = problems.front().message;
  }
  return cells;
}

SweepPoint sweepPointFrom(const RunResult& r, const std::string& implId, const Dim3& block) {
  SweepPoint p;
  p.implId = implId;
  p.block = block;
  p.threads = block.count();
  p.node = r.slurm.node;
  if (r.device.available) p.deviceName = r.device.info.name;
  const ImplResult* i = r.find(implId);
  if (!i) {
    p.status = r.status == Status::Ok ? Status::Failed : r.status;
    p.reason = r.reason.empty() ? implId + " did not run" : r.reason;
    return p;
  }
  p.status = i->status;
  p.reason = i->reason;
  p.gpu = i->gpu;
  p.launched = i->launch;
  p.outcome = i->verification.outcome;
  if (i->status != Status::Ok) return p;
  const Phase compute = i->phases.count(Phase::Kernel) ? Phase::Kernel : Phase::Cpu;
  if (auto it = i->phases.find(compute); it != i->phases.end()) {
    p.kernelMs = it->second.medianMs;
    p.minMs = it->second.minMs;
    p.maxMs = it->second.maxMs;
  }
  p.totalMs = i->totalMedianMs();
  p.bandwidthGBs = i->bandwidthGBs;
  if (i->counters) {
    p.counterSource = i->counters->source;
    if (i->counters->error.ok())
      p.counters = i->counters->values;
    else
      p.countersError = counterErrorMessage(i->counters->error);
  }
  return p;
}

std::vector<std::string> sweepCounterIds(const std::vector<SweepPoint>& points) {
  std::vector<std::string> ids;
  for (const auto& p : points)
    for (const auto& [id, value] : p.counters)
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  return ids;
}

std::vector<std::pair<std::string, std::vector<SweepPoint>>> pointsByDevice(const std::vector<SweepPoint>& points) {
  std::vector<std::pair<std::string, std::vector<SweepPoint>>> groups;
  for (const auto& p : points) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == p.deviceName; });
    if (it == groups.end()) it = groups.insert(groups.end(), {p.deviceName, {}});
    it->second.push_back(p);
  }
  return groups;
}

void SweepTable::begin(const SweepPlan& plan, std::size_t cells) {
  m_fields.clear();
  for (const auto& a : plan.axes) m_fields.push_back(a.field);
  m_points.clear();
  m_points.reserve(cells);
  m_cancelled = false;
}

void SweepTable::point(std::size_t, const SweepPoint& p, const RunResult&) { m_points.push_back(p); }

std::string sweepCsv(const std::vector<std::string>& axisFields, const std::vector<SweepPoint>& points) {
  // A sweep over Slurm nodes adds where each point was measured; a local one keeps its columns.
  const bool placed = std::any_of(points.begin(), points.end(), [](const SweepPoint& p) { return !p.node.empty(); });
  std::ostringstream o;
  o.precision(9);
  for (const auto& f : axisFields) o << csv::field(f) << ",";
  o << "impl,threads,status,reason,kernel_median_ms,kernel_min_ms,kernel_max_ms,total_ms,gb_per_s,launched_grid,"
       "launched_block,verification"
    << (placed ? ",node,device" : "");
  const std::vector<std::string> counterIds = sweepCounterIds(points);
  for (const auto& id : counterIds) o << "," << csv::field(id);
  o << (counterIds.empty() ? "\n" : ",counter_source\n");
  for (const auto& p : points) {
    for (const auto& v : p.values) o << csv::field(v) << ",";
    o << csv::field(p.implId) << "," << p.threads << "," << statusName(p.status) << "," << csv::field(p.reason) << ","
      << p.kernelMs << "," << p.minMs << "," << p.maxMs << "," << p.totalMs << "," << p.bandwidthGBs << ","
      << (p.launched ? formatDim3(p.launched->grid) : "") << "," << (p.launched ? formatDim3(p.launched->block) : "")
      << "," << outcomeName(p.outcome);
    if (placed) o << "," << csv::field(p.node) << "," << csv::field(p.deviceName);
    for (const auto& id : counterIds) {
      o << ",";
      if (const auto it = p.counters.find(id); it != p.counters.end()) o << it->second;
    }
    if (!counterIds.empty()) o << "," << csv::field(p.counterSource);
    o << "\n";
  }
  return o.str();
}

bool runSweep(const SweepPlan& plan, const std::vector<SweepCell>& cells, const RunFn& run,
              const std::vector<SweepSink*>& sinks, const CancelToken* cancel,
              const std::function<void(std::size_t, const Progress&)>& progress) {
  for (auto* s : sinks) s->begin(plan, cells.size());
  const std::vector<std::string> requested = splitList(plan.base.impls);
  bool cancelled = false;
  for (std::size_t c = 0; c < cells.size() && !cancelled; ++c) {
    const SweepCell& cell = cells[c];
    if (cancel && cancel->cancelled()) {
      cancelled = true;
      break;
    }
    RunResult result;
    double wallMs = 0;
    std::vector<std::string> ids = requested;
    if (cell.request) {
      ProgressFn inner;
      if (progress) inner = [&progress, c](const Progress& p) { progress(c, p); };
      const auto t0 = std::chrono::steady_clock::now();
      RunRequest req = *cell.request;
      req.compareOnDevice = true;  // the reference is the same for every cell: compared on the device
      result = run(req, cancel, inner);
      wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (cancel && cancel->cancelled()) {
        cancelled = true;
        break;
      }
      ids = selectedIds(*cell.request, result);
    } else {
      result.status = Status::Skipped;
      result.reason = cell.skipReason;
    }
    for (const auto& id : ids) {
      const ImplResult* impl = result.find(id);
      const Dim3 launched = impl && impl->launch ? impl->launch->block : Dim3{0, 1, 1};
      SweepPoint p = sweepPointFrom(result, id, cell.block.value_or(launched));
      p.values = cell.values;
      p.cellWallMs = wallMs;
      for (auto* s : sinks) s->point(c, p, result);
    }
  }
  for (auto* s : sinks) s->end(cancelled);
  return !cancelled;
}

}  // namespace launchlab
