#include "launchlab/launch_config.h"

#include <sstream>
#include <vector>

#include "launchlab/parse.h"

namespace launchlab {

std::string formatDim3(const Dim3& d) {
  std::string s = std::to_string(d.x);
  if (d.y != 1 || d.z != 1) s += "x" + std::to_string(d.y);
  if (d.z != 1) s += "x" + std::to_string(d.z);
  return s;
}

std::optional<Dim3> parseDim3(const std::string& text, std::string* error) {
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
  if (parts.size() > 3) {
    if (error) *error = "'" + text + "' has more than 3 dimensions";
    return std::nullopt;
  }
  std::uint32_t v[3] = {1, 1, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    auto n = parseInteger(parts[i]);
    if (!n || *n < 1 || *n > 0xFFFFFFFFll) {
      if (error) *error = "'" + text + "' is not a positive launch dimension (examples: 256, 16x16, 4224)";
      return std::nullopt;
    }
    v[i] = static_cast<std::uint32_t>(*n);
  }
  return Dim3{v[0], v[1], v[2]};
}

int LaunchRequest::dims() const {
  auto d = [](const std::optional<Dim3>& x) { return x && (x->y > 1 || x->z > 1) ? 2 : 1; };
  return std::max(d(block), d(grid));
}

namespace {
std::string on(const DeviceLimits& l) { return " (the limit of " + l.deviceName + ")"; }

std::string checkBlock(const Dim3& b, const DeviceLimits& l) {
  if (b.count() > std::uint64_t(l.maxThreadsPerBlock))
    return std::to_string(b.count()) + " threads per block > " + std::to_string(l.maxThreadsPerBlock) + on(l);
  if (b.x > l.maxBlockDim.x) return "block.x = " + std::to_string(b.x) + " > " + std::to_string(l.maxBlockDim.x) + on(l);
  if (b.y > l.maxBlockDim.y) return "block.y = " + std::to_string(b.y) + " > " + std::to_string(l.maxBlockDim.y) + on(l);
  if (b.z > l.maxBlockDim.z) return "block.z = " + std::to_string(b.z) + " > " + std::to_string(l.maxBlockDim.z) + on(l);
  return {};
}
std::string checkGrid(const Dim3& g, const DeviceLimits& l) {
  if (g.x > l.maxGridDim.x) return "grid.x = " + std::to_string(g.x) + " > " + std::to_string(l.maxGridDim.x) + on(l);
  if (g.y > l.maxGridDim.y) return "grid.y = " + std::to_string(g.y) + " > " + std::to_string(l.maxGridDim.y) + on(l);
  if (g.z > l.maxGridDim.z) return "grid.z = " + std::to_string(g.z) + " > " + std::to_string(l.maxGridDim.z) + on(l);
  return {};
}
}  // namespace

std::string validateLaunch(const LaunchConfig& cfg, const DeviceLimits& l) {
  if (cfg.block.count() == 0 || cfg.grid.count() == 0) return "launch dimensions must be at least 1";
  if (auto e = checkBlock(cfg.block, l); !e.empty()) return e;
  if (auto e = checkGrid(cfg.grid, l); !e.empty()) return e;
  if (cfg.dynamicSmemBytes > l.sharedMemPerBlockOptin)
    return std::to_string(cfg.dynamicSmemBytes) + " bytes of shared memory per block > " +
           std::to_string(l.sharedMemPerBlockOptin) + on(l);
  return {};
}

std::string validateLaunchRequest(const LaunchRequest& req, const DeviceLimits& l) {
  if (req.block)
    if (auto e = checkBlock(*req.block, l); !e.empty()) return e;
  if (req.grid)
    if (auto e = checkGrid(*req.grid, l); !e.empty()) return e;
  return {};
}

}  // namespace launchlab
