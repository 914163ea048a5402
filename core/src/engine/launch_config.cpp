#include "launchlab/engine/launch_config.h"

#include <vector>

#include "launchlab/files/parse.h"

namespace launchlab {

std::string formatDim3(const Dim3& d) {
  std::string s = std::to_string(d.x);
  if (d.y != 1 || d.z != 1) s += "x" + std::to_string(d.y);
  if (d.z != 1) s += "x" + std::to_string(d.z);
  return s;
}

namespace {
std::string on(const DeviceLimits& l) { return " (the limit of " + l.deviceName + ")"; }

/// "99999999999 blocks > 2147483647, the grid limit in x on any CUDA GPU"; "" when within the limit.
std::string axisProblem(LaunchPart part, char axis, std::uint64_t value, std::uint32_t limit, const DeviceLimits& l) {
  if (value <= limit) return {};
  const bool grid = part == LaunchPart::Grid;
  return std::to_string(value) + (grid ? " blocks > " : " threads > ") + std::to_string(limit) + ", the " +
         (grid ? "grid" : "block") + " limit in " + axis + " on " + l.deviceName;
}

std::string checkAxes(LaunchPart part, const Dim3& d, const Dim3& limit, const DeviceLimits& l) {
  if (auto e = axisProblem(part, 'x', d.x, limit.x, l); !e.empty()) return e;
  if (auto e = axisProblem(part, 'y', d.y, limit.y, l); !e.empty()) return e;
  return axisProblem(part, 'z', d.z, limit.z, l);
}

std::string checkBlock(const Dim3& b, const DeviceLimits& l) {
  if (b.count() > std::uint64_t(l.maxThreadsPerBlock))
    return std::to_string(b.count()) + " threads per block > " + std::to_string(l.maxThreadsPerBlock) + on(l);
  return checkAxes(LaunchPart::Block, b, l.maxBlockDim, l);
}

std::string checkGrid(const Dim3& g, const DeviceLimits& l) { return checkAxes(LaunchPart::Grid, g, l.maxGridDim, l); }

std::vector<std::string> splitDims(const std::string& text) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : text) {
    if (c == 'x' || c == 'X' || c == ',') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

/// The components as typed (any size a long long holds), or nullopt with the error set. The example is 1-D on
/// purpose: "256" is right for every workload, "16x16" only for 2-D ones.
std::optional<std::vector<std::uint64_t>> parseComponents(const std::string& text, std::string* error) {
  const auto parts = splitDims(text);
  if (parts.size() > 3) {
    if (error) *error = "'" + text + "' has more than 3 dimensions";
    return std::nullopt;
  }
  std::vector<std::uint64_t> v;
  for (const auto& part : parts) {
    auto n = parseInteger(part);
    if (!n || *n < 1) {
      if (error) *error = "'" + text + "' is not a launch size: give whole numbers >= 1 (e.g. 256)";
      return std::nullopt;
    }
    v.push_back(static_cast<std::uint64_t>(*n));
  }
  return v;
}

std::optional<Dim3> toDim3(const std::vector<std::uint64_t>& v) {
  std::uint32_t d[3] = {1, 1, 1};
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] > 0xFFFFFFFFull) return std::nullopt;
    d[i] = static_cast<std::uint32_t>(v[i]);
  }
  return Dim3{d[0], d[1], d[2]};
}
}  // namespace

std::optional<Dim3> parseDim3(const std::string& text, std::string* error) {
  auto v = parseComponents(text, error);
  if (!v) return std::nullopt;
  auto d = toDim3(*v);
  if (!d && error) *error = "'" + text + "' is too large: a launch dimension is at most 4294967295";
  return d;
}

std::optional<Dim3> parseLaunchDim3(const std::string& text, LaunchPart part, std::string* error) {
  auto v = parseComponents(text, error);
  if (!v) return std::nullopt;
  if (auto d = toDim3(*v)) return d;
  // Beyond 32 bits is beyond every device's limit: the limit all CUDA GPUs share names the problem.
  const auto l = DeviceLimits::genericCuda();
  const Dim3 limit = part == LaunchPart::Grid ? l.maxGridDim : l.maxBlockDim;
  const std::uint32_t limits[3] = {limit.x, limit.y, limit.z};
  for (std::size_t i = 0; i < v->size(); ++i)
    if (auto e = axisProblem(part, "xyz"[i], (*v)[i], limits[i], l); !e.empty()) {
      if (error) *error = e;
      break;
    }
  return std::nullopt;
}

int LaunchRequest::dims() const {
  auto d = [](const std::optional<Dim3>& x) { return x && (x->y > 1 || x->z > 1) ? 2 : 1; };
  return std::max(d(block), d(grid));
}

std::string validateLaunch(const LaunchConfig& cfg, const DeviceLimits& l) {
  if (cfg.block.count() == 0 || cfg.grid.count() == 0) return "launch dimensions must be at least 1";
  if (auto e = checkBlock(cfg.block, l); !e.empty()) return e;
  if (auto e = checkGrid(cfg.grid, l); !e.empty()) return e;
  if (cfg.dynamicSmemBytes > l.sharedMemPerBlockOptin)
    return std::to_string(cfg.dynamicSmemBytes) + " bytes of shared memory per block > " +
           std::to_string(l.sharedMemPerBlockOptin) + on(l);
  return {};
}

AutoGrid2D autoGrid2D(std::uint64_t cols, std::uint64_t rows, const Dim3& perBlock, const DeviceLimits& l) {
  const std::uint64_t want[2] = {ceilDiv(cols ? cols : 1, perBlock.x), ceilDiv(rows ? rows : 1, perBlock.y)};
  const std::uint32_t limit[2] = {l.maxGridDim.x, l.maxGridDim.y};
  std::uint32_t got[2];
  std::string capped;
  for (int a = 0; a < 2; ++a) {
    got[a] = static_cast<std::uint32_t>(want[a] < limit[a] ? want[a] : limit[a]);
    if (want[a] > limit[a])
      capped += std::string("; ") + "xy"[a] + " capped at " + std::to_string(limit[a]) + " (the limit of " +
                l.deviceName + "): each block strides over " + std::to_string(ceilDiv(want[a], limit[a])) +
                " tiles in " + "xy"[a];
  }
  AutoGrid2D r;
  r.grid = Dim3{got[0], got[1], 1};
  r.note = "auto grid: ceil(" + std::to_string(cols) + " / " + std::to_string(perBlock.x) + ") x ceil(" +
           std::to_string(rows) + " / " + std::to_string(perBlock.y) + ") = " + std::to_string(got[0]) + "x" +
           std::to_string(got[1]) + " blocks" + capped;
  return r;
}

std::string validateLaunchRequest(const LaunchRequest& req, const DeviceLimits& l) {
  if (req.block)
    if (auto e = checkBlock(*req.block, l); !e.empty()) return e;
  if (req.grid)
    if (auto e = checkGrid(*req.grid, l); !e.empty()) return e;
  return {};
}

}  // namespace launchlab
