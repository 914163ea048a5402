#pragma once
/// Launch configurations as plain data (no CUDA headers): what the user asked for, what was launched,
/// and validation against a device's limits.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace launchlab {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t(x) * y * z; }
  bool operator==(const Dim3&) const = default;
};
/// "256", "16x16", "16x16x4".
std::string formatDim3(const Dim3& d);
/// Parses "B", "BxBy" or "BxByxBz"; every component must be a positive integer.
std::optional<Dim3> parseDim3(const std::string& text, std::string* error = nullptr);
enum class LaunchPart { Block, Grid };
/// parseDim3 for a request's block or grid: a component beyond 32 bits is reported against the limit every CUDA
/// GPU shares ("99999999999 blocks > 2147483647, the grid limit in x on any CUDA GPU").
std::optional<Dim3> parseLaunchDim3(const std::string& text, LaunchPart part, std::string* error = nullptr);

/// A concrete launch: grid and block dimensions and dynamic shared memory.
struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  std::size_t dynamicSmemBytes = 0;
  std::uint64_t totalThreads() const { return grid.count() * block.count(); }
  bool operator==(const LaunchConfig&) const = default;
};

/// What the user asked for. Unset block means "auto", unset grid means "auto".
struct LaunchRequest {
  std::optional<Dim3> block;
  std::optional<Dim3> grid;
  bool autoBlock() const { return !block.has_value(); }
  bool autoGrid() const { return !grid.has_value(); }
  int dims() const;  ///< 2 when block or grid has a y > 1, else 1
  bool operator==(const LaunchRequest&) const = default;
};

/// The device limits launch validation needs.
struct DeviceLimits {
  std::string deviceName = "any CUDA GPU";
  int maxThreadsPerBlock = 1024;
  Dim3 maxBlockDim{1024, 1024, 64};
  Dim3 maxGridDim{2147483647u, 65535u, 65535u};
  std::size_t sharedMemPerBlock = 48 * 1024;       ///< without opt-in
  std::size_t sharedMemPerBlockOptin = 48 * 1024;  ///< with cudaFuncSetAttribute opt-in
  int warpSize = 32;
  /// Limits every CUDA GPU of compute capability >= 3.0 shares: used when no device is present.
  static DeviceLimits genericCuda() { return {}; }
  bool operator==(const DeviceLimits&) const = default;
};

/// Checks a launch against limits. Returns "" when valid, else one sentence naming the limit and the
/// device's value, e.g. "1025 threads per block > 1024 (the limit of NVIDIA H200)" or "3000000000 blocks >
/// 2147483647, the grid limit in x on NVIDIA H200".
std::string validateLaunch(const LaunchConfig& cfg, const DeviceLimits& limits);
/// Same for a request (only the parts the user fixed).
std::string validateLaunchRequest(const LaunchRequest& req, const DeviceLimits& limits);

/// ceil(a / b) for positive b.
constexpr std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

/// The automatic grid of a 2-D launch and how it was chosen.
struct AutoGrid2D {
  Dim3 grid;
  std::string note;  ///< e.g. "auto grid: ceil(1003 / 32) x ceil(1000 / 8) = 32x125 blocks"
};
/// Enough blocks to cover a cols x rows matrix when each block covers perBlock.x x perBlock.y elements (its threads,
/// or the tile it loops over); each axis is capped at the device's grid limit, and the note says so (2-D kernels
/// stride over the grid, so a capped grid still covers everything). perBlock components must be >= 1.
AutoGrid2D autoGrid2D(std::uint64_t cols, std::uint64_t rows, const Dim3& perBlock, const DeviceLimits& limits);

}  // namespace launchlab
