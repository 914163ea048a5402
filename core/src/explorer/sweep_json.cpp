// The JSON form of a sweep (schema "launchlab.sweep", docs/JSON_SCHEMA.md).
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "launchlab/engine/errors.h"
#include "launchlab/explorer/crossover.h"
#include "launchlab/explorer/sweep.h"
#include "launchlab/files/bounded_file.h"
#include "launchlab/files/json_value.h"

namespace launchlab {

namespace {
using nlohmann::ordered_json;
constexpr const char* kSweepSchema = "launchlab.sweep";

ordered_json pointJson(const SweepPlan& plan, const SweepPoint& p) {
  ordered_json at = ordered_json::object();
  for (std::size_t a = 0; a < plan.axes.size() && a < p.values.size(); ++a) at[plan.axes[a].field] = p.values[a];
  ordered_json j = {
      {"at", at}, {"impl", p.implId}, {"gpu", p.gpu}, {"threads", p.threads}, {"status", statusName(p.status)}};
  if (!p.reason.empty()) j["reason"] = p.reason;
  if (!p.node.empty()) j["node"] = p.node;  // a sweep over Slurm nodes: who measured the point
  if (!p.deviceName.empty()) j["device"] = p.deviceName;
  if (p.status != Status::Ok) return j;
  j["compute_ms"] = {{"median", jsonNumber(p.kernelMs)}, {"min", jsonNumber(p.minMs)}, {"max", jsonNumber(p.maxMs)}};
  j["total_median_ms"] = jsonNumber(p.totalMs);
  j["bandwidth_gbs"] = jsonNumber(p.bandwidthGBs);
  if (p.launched) j["launched"] = {{"grid", formatDim3(p.launched->grid)}, {"block", formatDim3(p.launched->block)}};
  j["verification"] = outcomeName(p.outcome);
  if (p.cellWallMs > 0) j["cell_wall_ms"] = jsonNumber(p.cellWallMs);
  if (!p.counters.empty() || !p.countersError.empty()) {
    ordered_json values = ordered_json::object();
    for (const auto& [id, v] : p.counters) values[id] = jsonNumber(v);
    ordered_json c = {{"values", values}};
    if (!p.counterSource.empty()) c["source"] = p.counterSource;
    if (!p.countersError.empty()) c["error"] = p.countersError;
    j["counters"] = std::move(c);
  }
  return j;
}

ordered_json crossoverJson(const Crossover& c) {
  ordered_json rows = ordered_json::array();
  for (const auto& r : c.rows)
    rows.push_back({{"n", r.n},
                    {"best_cpu", r.bestCpu},
                    {"best_cpu_ms", jsonNumber(r.bestCpuMs)},
                    {"gpu_kernel_ms", jsonNumber(r.gpuKernelMs)},
                    {"gpu_total_ms", jsonNumber(r.gpuTotalMs)}});
  auto from = [](const std::optional<std::uint64_t>& n) { return n ? ordered_json(*n) : ordered_json(nullptr); };
  return {{"gpu_impl", c.gpuImpl},
          {"group", c.group},
          {"kernel_only_from_n", from(c.kernelOnlyFrom)},
          {"with_copies_from_n", from(c.withCopiesFrom)},
          {"rows", rows}};
}
template <class E>
E namedValue(const ordered_json& j, std::string_view (*name)(E), std::initializer_list<E> all) {
  const auto& s = j.get_ref<const std::string&>();
  for (E e : all)
    if (name(e) == s) return e;
  throw BadInput("unknown value '" + s + "'");
}

double numberOr0(const ordered_json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? 0.0 : it->get<double>();
}

Dim3 dim3From(const ordered_json& j) {
  std::string err;
  const auto d = parseDim3(j.get<std::string>(), &err);
  if (!d) throw BadInput(err);
  return *d;
}

/// The axes of a document with their values' positions (axisPositions), looked up once per point.
struct IndexedAxes {
  const std::vector<SweepAxis>& axes;
  const std::vector<std::unordered_map<std::string, std::size_t>>& positions;
};

SweepPoint pointFrom(const ordered_json& j, const IndexedAxes& index) {
  SweepPoint p;
  const ordered_json& at = j.at("at");
  for (std::size_t k = 0; k < index.axes.size(); ++k) {
    const SweepAxis& a = index.axes[k];
    p.values.push_back(at.at(a.field).get<std::string>());
    if (!index.positions[k].contains(p.values.back()))
      throw BadInput(a.field + " '" + p.values.back() + "' is not one of the axis' values");
  }
  p.implId = j.at("impl").get<std::string>();
  p.gpu = j.value("gpu", j.contains("launched"));  // files from before "gpu": GPU points carry "launched"
  wholeNumberAt(j, "threads", p.threads);
  p.status = namedValue(j.at("status"), statusName, {Status::Ok, Status::Skipped, Status::Failed});
  p.reason = j.value("reason", std::string());
  p.node = j.value("node", std::string());
  p.deviceName = j.value("device", std::string());
  if (const auto l = j.find("launched"); l != j.end())
    p.launched = LaunchConfig{dim3From(l->at("grid")), dim3From(l->at("block")), 0};
  if (const auto b = at.find("block"); b != at.end())
    p.block = dim3From(*b);
  else if (p.launched)
    p.block = p.launched->block;
  else
    p.block = Dim3{std::uint32_t(std::min<std::uint64_t>(p.threads, 1u << 30)), 1, 1};
  if (p.status != Status::Ok) return p;
  const ordered_json& c = j.at("compute_ms");
  p.kernelMs = numberOr0(c, "median");
  p.minMs = numberOr0(c, "min");
  p.maxMs = numberOr0(c, "max");
  p.totalMs = numberOr0(j, "total_median_ms");
  p.bandwidthGBs = numberOr0(j, "bandwidth_gbs");
  p.cellWallMs = numberOr0(j, "cell_wall_ms");
  if (const auto counters = j.find("counters"); counters != j.end()) {
    for (const auto& [id, v] : counters->at("values").items()) p.counters[id] = v.is_null() ? NAN : v.get<double>();
    p.counterSource = counters->value("source", std::string());
    p.countersError = counters->value("error", std::string());
  }
  using O = Verification::Outcome;
  if (const auto v = j.find("verification"); v != j.end())
    p.outcome = namedValue(*v, outcomeName, {O::Pass, O::Fail, O::Reference, O::Demonstration, O::NotChecked});
  return p;
}

std::vector<SweepAxis> axesFrom(const ordered_json& list) {
  std::vector<SweepAxis> axes;
  std::size_t cells = 1;
  for (const auto& a : list) {
    axes.push_back({a.at("field").get<std::string>(), a.at("values").get<std::vector<std::string>>()});
    cells *= std::max<std::size_t>(1, axes.back().values.size());
    if (axes.size() > 8 || cells > kMaxSweepPoints) throw BadInput("too many axes or combinations");
  }
  if (axes.empty()) throw BadInput("no axes");
  return axes;
}

const std::string kBadDocument = std::string("bad ") + kSweepSchema + " document";

/// What one point, and the rest of the document, may hold: far above what sweepJson writes (a point has about 30
/// values in 6 containers; the rest is the axes' values and the device), and small enough that the parser's tree
/// stays small (nlohmann also scans a container's members whenever a container inside it ends: many containers in
/// one would cost quadratic time).
constexpr std::size_t kMaxPointValues = 1024, kMaxPointContainers = 32;
constexpr std::size_t kMaxRestValues = kMaxSweepPoints + (1 << 16), kMaxRestContainers = 4096;

/// The document's keys that are read; any other (the crossover summary, derived from the points) is skipped unbuilt.
bool readKey(const std::string& key) {
  for (const char* k : {"schema", "schema_version", "workload", "axes", "device", "timestamp", "copy_gbs", "points"})
    if (key == k) return true;
  return false;
}

/// The parser's callback: reads each point as soon as the parser has built it and drops it from the tree, so the
/// tree holds the rest of the document alone (a file of 160000 points never becomes a tree of hundreds of MiB
/// beside its points, and freeing the tree needs no large allocation). The axes must come before the points, as
/// sweepJson writes them (a document with sorted keys has them so too).
class PointReader {
 public:
  using Event = ordered_json::parse_event_t;
  std::optional<std::vector<SweepAxis>> axes;
  std::vector<SweepPoint> points;

  bool operator()(int depth, Event e, ordered_json& j) {
    if (depth == 0 && e == Event::array_start) throw BadInput(std::string("not a ") + kSweepSchema + " document");
    if (depth == 1 && e == Event::key) {
      m_key = j.get<std::string>();
      return m_read = readKey(m_key);
    }
    if (depth == 0 || !m_read) return true;  // the root, or what a skipped key holds: nothing of it is built
    const bool point = m_key == "points" && depth >= 2, pointItself = point && depth == 2;
    switch (e) {
      case Event::object_start:
      case Event::array_start:
        if (pointItself) m_pointValues = m_pointContainers = 0;
        count(point, true);
        return true;
      case Event::value:
        count(point, false);
        if (depth == 1 && m_key == "schema" && j != kSweepSchema)
          throw BadInput(std::string("not a ") + kSweepSchema + " document");
        return pointItself ? add(j) : true;
      case Event::array_end:
        if (depth == 1 && m_key == "axes") readAxes(j);
        return pointItself ? add(j) : true;
      case Event::object_end:
        return pointItself ? add(j) : true;
      default:
        return true;
    }
  }

 private:
  void count(bool point, bool container) {
    const bool over =
        point ? ++m_pointValues > kMaxPointValues || (container && ++m_pointContainers > kMaxPointContainers)
              : ++m_restValues > kMaxRestValues || (container && ++m_restContainers > kMaxRestContainers);
    if (!over) return;
    throw BadInput(kBadDocument + ": " +
                   (point ? "point " + std::to_string(points.size() + 1) + " holds more than a point does"
                          : std::string("more than the axes and the device hold, besides the points")));
  }
  void readAxes(const ordered_json& list) {
    if (axes) throw BadInput(kBadDocument + ": the axes are given twice");
    axes = rethrowAsBadInput(kBadDocument, [&] { return axesFrom(list); });
    for (const auto& a : *axes) m_positions.push_back(axisPositions(a.values));
  }
  /// Reads the point the parser has just built; false: the parser drops it.
  bool add(const ordered_json& j) {
    if (!axes) throw BadInput(kBadDocument + ": the points come before the axes");
    if (points.size() >= kMaxSweepPoints)
      throw BadInput(kBadDocument + ": points must be an array of at most " + std::to_string(kMaxSweepPoints));
    const IndexedAxes index{*axes, m_positions};
    points.push_back(rethrowAsBadInput(kBadDocument + ": point " + std::to_string(points.size() + 1),
                                       [&] { return pointFrom(j, index); }));
    return false;
  }

  std::string m_key;  ///< the top-level key being read
  bool m_read = true;
  std::vector<std::unordered_map<std::string, std::size_t>> m_positions;
  std::size_t m_pointValues = 0, m_pointContainers = 0, m_restValues = 0, m_restContainers = 0;
};

SweepDocument documentFrom(const ordered_json& root, PointReader& read) {
  SweepDocument d;
  d.workload = root.at("workload").get<std::string>();
  d.axes = read.axes ? std::move(*read.axes) : axesFrom(root.at("axes"));
  d.device = root.at("device").get<DeviceStatus>();
  d.record.timestamp = root.value("timestamp", std::string());
  d.record.copyGBs = numberOr0(root, "copy_gbs");
  if (!root.at("points").is_array())
    throw BadInput("points must be an array of at most " + std::to_string(kMaxSweepPoints));
  d.points = std::move(read.points);
  return d;
}

}  // namespace

std::optional<SweepDocument> parseSweepJson(std::string_view text, std::string* error) {
  try {
    if (text.size() > kMaxSweepJsonBytes)
      throw BadInput("larger than " + std::to_string(kMaxSweepJsonBytes >> 20) + " MiB");
    PointReader read;
    ordered_json root;
    try {
      root = ordered_json::parse(
          text, [&read](int depth, PointReader::Event e, ordered_json& j) { return read(depth, e, j); });
    } catch (const ordered_json::parse_error& e) {
      throw BadInput(std::string("not JSON: ") + e.what());
    }
    const auto schema = root.is_object() ? root.find("schema") : root.end();
    if (schema == root.end() || !schema->is_string() || *schema != kSweepSchema)
      throw BadInput(std::string("not a ") + kSweepSchema + " document");
    return rethrowAsBadInput(kBadDocument, [&] { return documentFrom(root, read); });
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return std::nullopt;
  }
}

std::optional<SweepDocument> loadSweepFile(const std::string& path, std::string* error) {
  const files::FileBytes read = files::readBoundedFile(path, kMaxSweepJsonBytes);
  std::string why;
  std::optional<SweepDocument> d = read.ok() ? parseSweepJson(read.bytes, &why) : std::nullopt;
  if (!d && error) *error = read.ok() ? path + ": " + why : read.error;
  return d;
}

std::string sweepJson(const SweepPlan& plan, const std::vector<SweepPoint>& points, const DeviceStatus& device,
                      const SweepRecord& record) {
  ordered_json root = jsonDocument(kSweepSchema);
  root["workload"] = plan.base.workload;
  ordered_json axes = ordered_json::array();
  for (const auto& a : plan.axes) axes.push_back({{"field", a.field}, {"values", a.values}});
  root["axes"] = axes;
  root["device"] = device;
  if (!record.timestamp.empty()) root["timestamp"] = record.timestamp;
  if (record.copyGBs > 0) root["copy_gbs"] = jsonNumber(record.copyGBs);
  ordered_json pts = ordered_json::array();
  for (const auto& p : points) pts.push_back(pointJson(plan, p));
  root["points"] = pts;
  std::vector<std::string> fields;
  for (const auto& a : plan.axes) fields.push_back(a.field);
  if (const auto cs = crossovers(fields, points); !cs.empty()) {
    ordered_json cj = ordered_json::array();
    for (const auto& c : cs) cj.push_back(crossoverJson(c));
    root["crossover"] = cj;
  }
  return dumpJson(root, 2);
}

}  // namespace launchlab
