// The GPU plot-geometry builders (kernels/render/plot_geometry_gpu.h) give the CPU builders' bytes (memcmp) on
// random data with NaN, infinities, signed zeros and ties, for every dtype, odd sizes, sub-ranges and many column
// counts (few long columns split over blocks included, up to 2^27 samples); and CUDA IPC: a child process opens the
// parent's buffer and decimates it on the GPU (kernels/render/cuda_ipc.h).
#include <gtest/gtest.h>

#if LAUNCHLAB_HAVE_CUDA_TESTS
#include <cuda_runtime_api.h>
#include <spawn.h>
#include <sys/wait.h>

#include <bit>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "common/cuda_check.h"
#include "launchlab/plot/plot_geometry.h"
#include "render/cuda_ipc.h"
#include "render/plot_geometry_gpu.h"

extern char** environ;

using namespace launchlab;
using launchlab::gpu::DeviceBuffer;

namespace {

constexpr DType kAllTypes[] = {DType::F32, DType::F64, DType::I32, DType::U32, DType::U8, DType::I64, DType::I16};

/// A signalling NaN with a payload (the CPU's conversions keep payloads, CUDA's do not: both must write 0x7fc00000).
template <typename T>
T nanWithPayload() {
  if constexpr (sizeof(T) == 4)
    return std::bit_cast<T>(0xffa12345u);
  else
    return std::bit_cast<T>(0x7ff0000000012345ull);
}

/// Floats: quarter steps in [-25, 25] (many exact ties), NaN (one with a payload), +-inf and -0 sprinkled in.
/// Integers: half full-range, half in [0, 50) (ties).
template <typename T>
std::vector<T> randomValues(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    const std::uint64_t r = rng();
    if constexpr (std::is_floating_point_v<T>) {
      switch (r % 64) {
        case 0:
          x = std::numeric_limits<T>::quiet_NaN();
          break;
        case 1:
          x = std::numeric_limits<T>::infinity();
          break;
        case 2:
          x = -std::numeric_limits<T>::infinity();
          break;
        case 3:
          x = nanWithPayload<T>();
          break;
        case 4:
          x = T(-0.0);
          break;
        default:
          x = T(static_cast<int>((r >> 8) % 201) - 100) * T(0.25);
      }
    } else {
      x = (r & 1) ? static_cast<T>(r >> 11) : static_cast<T>((r >> 11) % 50);
    }
  }
  return v;
}

template <typename T>
DeviceBuffer toDevice(const std::vector<T>& v) {
  DeviceBuffer d(std::max<std::size_t>(v.size() * sizeof(T), 1));
  LAUNCHLAB_CUDA_CHECK(cudaMemcpy(d.get(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

/// A device output buffer of `count` Out, filled with 0xff bytes so that whatever is not written shows.
template <typename Out>
DeviceBuffer outputBuffer(std::size_t count) {
  DeviceBuffer d(std::max<std::size_t>(count * sizeof(Out), 1));
  LAUNCHLAB_CUDA_CHECK(cudaMemset(d.get(), 0xff, d.bytes()));
  return d;
}

/// "" when the device's `count` Out equal `cpu` byte for byte, else where they first differ.
template <typename Out>
std::string compareWithCpu(const std::vector<Out>& cpu, const DeviceBuffer& dev) {
  std::vector<Out> got(cpu.size());
  LAUNCHLAB_CUDA_CHECK(cudaMemcpy(got.data(), dev.get(), cpu.size() * sizeof(Out), cudaMemcpyDeviceToHost));
  if (std::memcmp(got.data(), cpu.data(), cpu.size() * sizeof(Out)) == 0) return "";
  for (std::size_t i = 0; i < cpu.size(); ++i)
    if (std::memcmp(&got[i], &cpu[i], sizeof(Out)) != 0) {
      const auto* g = reinterpret_cast<const float*>(&got[i]);
      const auto* c = reinterpret_cast<const float*>(&cpu[i]);
      return "element " + std::to_string(i) + ": GPU (" + std::to_string(g[0]) + ", " + std::to_string(g[1]) +
             ") CPU (" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ")";
    }
  return "";
}

/// GPU M4 of [begin, end) of device data against the CPU's on the host copy: "" when the bytes are equal.
template <typename T>
std::string m4Difference(const std::vector<T>& host, const void* dev, std::uint64_t begin, std::uint64_t end,
                         std::uint32_t columns) {
  const std::size_t count = 4 * std::size_t{geom::m4Columns(end - begin, columns)};
  std::vector<geom::Vertex2> cpu(count);
  if (geom::m4Vertices(host.data(), dtypeOf<T>(), begin, end, columns, cpu.data()) != count) return "CPU count";
  DeviceBuffer out = outputBuffer<geom::Vertex2>(count);
  const auto built = geom::gpu::m4Vertices(dev, dtypeOf<T>(), begin, end, columns, out.as<geom::Vertex2>());
  if (!built.ok()) return built.error;
  if (built.count != count) return "GPU count " + std::to_string(built.count) + ", CPU " + std::to_string(count);
  return compareWithCpu(cpu, out);
}

template <typename T>
void expectM4Matches(const std::vector<T>& host, const std::vector<std::uint32_t>& columns) {
  const DeviceBuffer dev = toDevice(host);
  const std::uint64_t n = host.size();
  for (std::uint32_t c : columns) {
    EXPECT_EQ(m4Difference(host, dev.get(), 0, n, c), "") << dtypeName(dtypeOf<T>()) << " n " << n << " columns " << c;
    if (n >= 3)
      EXPECT_EQ(m4Difference(host, dev.get(), n / 3, n - n / 7, c), "")
          << dtypeName(dtypeOf<T>()) << " n " << n << " [n/3, n - n/7) columns " << c;
  }
}

}  // namespace

TEST(PlotGeometryGpu, M4MatchesTheCpuForEveryDTypeSizeAndRange) {
  const std::vector<std::uint32_t> columns = {1, 2, 3, 64, 1280, 3840, 5000};
  for (DType dt : kAllTypes)
    for (std::size_t n : {1u, 2u, 5u, 1023u, 100003u, (1u << 20) + 13u})
      visitDType(dt, [&](auto tag) { expectM4Matches(randomValues<decltype(tag)>(n, n * 7 + 1), columns); });
}

TEST(PlotGeometryGpu, M4SplitsFewLongColumnsOverBlocks) {
  // Few columns over many samples: each column is scanned by several blocks and combined in index order.
  const std::vector<std::uint32_t> columns = {1, 2, 7, 64, 130};
  expectM4Matches(randomValues<float>((1u << 24) + 3, 11), columns);
  expectM4Matches(randomValues<std::int64_t>((1u << 22) + 5, 12), columns);
  expectM4Matches(randomValues<std::uint8_t>((1u << 22) + 7, 13), columns);
  // One long constant run: every part ties, the lowest index must win.
  expectM4Matches(std::vector<float>(1u << 22, 2.5f), columns);
}

TEST(PlotGeometryGpu, M4GapColumnsAndCallerScratch) {
  // [1000, 5000) is NaN and infinities: with 7 columns over 10000, column 1 = [1428, 2857) has no finite sample.
  std::vector<float> v = randomValues<float>(10000, 5);
  for (std::size_t i = 1000; i < 5000; ++i)
    v[i] = (i % 2) ? std::numeric_limits<float>::quiet_NaN() : -std::numeric_limits<float>::infinity();
  expectM4Matches(v, {1, 7, 100, 10000});
  // Scratch given by the caller: too small is an error, enough gives the CPU's bytes.
  const std::vector<float> big = randomValues<float>(1u << 22, 6);
  const DeviceBuffer dev = toDevice(big);
  const std::size_t need = geom::gpu::m4ScratchBytes(big.size(), 3);
  ASSERT_GT(need, 0u);
  DeviceBuffer scratch(need), out = outputBuffer<geom::Vertex2>(12);
  const auto small = geom::gpu::m4Vertices(dev.get(), DType::F32, 0, big.size(), 3, out.as<geom::Vertex2>(), nullptr,
                                           scratch.get(), need - 1);
  EXPECT_FALSE(small.ok());
  const auto built = geom::gpu::m4Vertices(dev.get(), DType::F32, 0, big.size(), 3, out.as<geom::Vertex2>(), nullptr,
                                           scratch.get(), need);
  ASSERT_TRUE(built.ok()) << built.error;
  std::vector<geom::Vertex2> cpu(12);
  geom::m4Vertices(big.data(), DType::F32, 0, big.size(), 3, cpu.data());
  EXPECT_EQ(compareWithCpu(cpu, out), "");
}

TEST(PlotGeometryGpu, M4At2Pow27Samples) {
  const std::vector<float> v = randomValues<float>(1u << 27, 27);
  expectM4Matches(v, {64, 1280, 3840});
}

TEST(PlotGeometryGpu, HistogramTexelsAndPointsMatchTheCpu) {
  for (DType dt : kAllTypes)
    visitDType(dt, [&](auto tag) {
      using T = decltype(tag);
      for (std::uint64_t bins : {1u, 7u, 1000u, 4096u, 100001u}) {
        const std::vector<T> counts = randomValues<T>(bins, bins);
        const DeviceBuffer dev = toDevice(counts);
        for (std::uint32_t maxBars : {1u, 3u, 1000u, 4096u, 65536u}) {
          const std::uint64_t perBar = geom::histogramBinsPerBar(bins, maxBars);
          std::vector<float> cpu((bins + perBar - 1) / perBar);
          geom::histogramBarHeights(counts.data(), dt, bins, maxBars, cpu.data());
          DeviceBuffer out = outputBuffer<float>(cpu.size());
          const auto b = geom::gpu::histogramBarHeights(dev.get(), dt, bins, maxBars, out.as<float>());
          ASSERT_TRUE(b.ok()) << b.error;
          EXPECT_EQ(b.count, cpu.size());
          EXPECT_EQ(compareWithCpu(cpu, out), "") << dtypeName(dt) << " bins " << bins << " maxBars " << maxBars;
        }
      }
      const std::vector<T> image = randomValues<T>((1u << 20) + 3, 99);
      const DeviceBuffer devImage = toDevice(image);
      std::vector<float> texels(image.size());
      geom::imageTexels(image.data(), dt, image.size(), texels.data());
      DeviceBuffer outImage = outputBuffer<float>(image.size());
      ASSERT_TRUE(geom::gpu::imageTexels(devImage.get(), dt, image.size(), outImage.as<float>()).ok());
      EXPECT_EQ(compareWithCpu(texels, outImage), "") << dtypeName(dt) << " texels";
      for (std::uint64_t k : {1u, 5u, 1000u, 100003u})
        for (std::uint64_t maxPoints : {1u, 2u, 3u, 1000u, 1u << 20}) {
          const std::vector<T> points = randomValues<T>(3 * k, k + maxPoints);
          const DeviceBuffer devPoints = toDevice(points);
          std::vector<geom::PointVertex> cpu(std::min(k, maxPoints));
          geom::pointVertices(points.data(), dt, k, maxPoints, cpu.data());
          DeviceBuffer out = outputBuffer<geom::PointVertex>(cpu.size());
          ASSERT_TRUE(geom::gpu::pointVertices(devPoints.get(), dt, k, maxPoints, out.as<geom::PointVertex>()).ok());
          EXPECT_EQ(compareWithCpu(cpu, out), "") << dtypeName(dt) << " points k " << k << " max " << maxPoints;
        }
    });
}

// ---- CUDA IPC: the child side runs as `launchlab_gpu_tests --ipc-m4-child HANDLE N SEED OFFSET`
// (tests/gpu/gpu_main.cpp).
namespace {
constexpr std::uint32_t kIpcColumns[] = {7, 1280};
}

int runIpcM4Child(int argc, char** argv) {
  if (argc != 6) return 2;
  const auto handle = ipc::IpcHandle::fromHex(argv[2]);
  const std::uint64_t n = std::stoull(argv[3]), seed = std::stoull(argv[4]), offset = std::stoull(argv[5]);
  if (!handle) return 2;
  const ipc::OpenedBuffer opened = ipc::OpenedBuffer::open(*handle);
  if (!opened.ok()) {
    std::cerr << "child: " << opened.error() << "\n";
    return 3;
  }
  const void* start = opened.at(offset, n * sizeof(float));
  if (!start) {
    std::cerr << "child: the samples do not lie in the opened memory\n";
    return 3;
  }
  const std::vector<float> expected = randomValues<float>(n, seed);
  std::vector<float> seen(n);
  if (cudaMemcpy(seen.data(), start, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess ||
      std::memcmp(seen.data(), expected.data(), n * sizeof(float)) != 0) {
    std::cerr << "child: the opened buffer does not hold the parent's samples\n";
    return 4;
  }
  for (std::uint32_t c : kIpcColumns)
    if (const std::string diff = m4Difference(expected, start, 0, n, c); !diff.empty()) {
      std::cerr << "child: M4 into " << c << " columns differs from the CPU: " << diff << "\n";
      return 5;
    }
  return 0;
}

TEST(PlotGeometryGpu, IpcChildOpensTheParentsBufferAndDecimatesIt) {
  const std::uint64_t n = (1u << 20) + 5, seed = 2024;
  const DeviceBuffer dev = toDevice(randomValues<float>(n, seed));
  const ipc::Exported exported = ipc::exportDeviceBuffer(dev.get());
  ASSERT_TRUE(exported.ok()) << exported.error;
  const std::string hex = exported.handle.hex();
  ASSERT_EQ(ipc::IpcHandle::fromHex(hex)->bytes, exported.handle.bytes);
  std::string self = "/proc/self/exe", mode = "--ipc-m4-child", nText = std::to_string(n),
              seedText = std::to_string(seed);
  std::string hexArg = hex, offsetText = std::to_string(exported.offset);
  char* args[] = {self.data(), mode.data(), hexArg.data(), nText.data(), seedText.data(), offsetText.data(), nullptr};
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, args, environ), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "2 usage, 3 open failed, 4 wrong bytes, 5 M4 differs (the child's stderr says more)";
}

#endif  // LAUNCHLAB_HAVE_CUDA_TESTS
