// Launch validation and launch index math. The "every index visited exactly once" tests simulate every thread
// of a launch on the host through the same index functions the kernels call (kernels/common/index_math.h).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "common/index_math.h"
#include "core/launch_checks.h"
#include "launchlab/engine/launch_config.h"

using namespace launchlab;

namespace {
using test::expectAllOnce;
using test::h200;

// Visit counts of a one-thread-per-element kernel with a bounds check.
std::vector<int> visitsOnePerThread(std::uint64_t n, std::uint32_t grid, std::uint32_t block) {
  std::vector<int> v(n, 0);
  for (std::uint32_t b = 0; b < grid; ++b)
    for (std::uint32_t t = 0; t < block; ++t) {
      auto i = idx::global1D(b, block, t);
      if (i < n) ++v[i];
    }
  return v;
}

std::vector<int> visitsGridStride(std::uint64_t n, std::uint32_t grid, std::uint32_t block) {
  std::vector<int> v(n, 0);
  const auto stride = idx::gridStride1D(grid, block);
  for (std::uint32_t b = 0; b < grid; ++b)
    for (std::uint32_t t = 0; t < block; ++t) {
      std::uint64_t count = 0;
      for (auto i = idx::global1D(b, block, t); i < n; i += stride) {
        ++v[i];
        ++count;
      }
      EXPECT_EQ(count, idx::gridStrideCount(idx::global1D(b, block, t), stride, n));
    }
  return v;
}

template <unsigned W, unsigned U>
std::vector<int> visitsVectorized(std::uint64_t n, std::uint32_t grid, std::uint32_t block) {
  std::vector<int> v(n, 0);
  const auto stride = idx::gridStride1D(grid, block);
  for (std::uint64_t tid = 0; tid < stride; ++tid)
    idx::vectorizedGridStride<W, U>(
        tid, stride, n,
        [&](std::uint64_t i) {
          for (unsigned u = 0; u < U; ++u)
            for (unsigned k = 0; k < W; ++k) ++v[(i + u * stride) * W + k];
        },
        [&](std::uint64_t i) {
          for (unsigned k = 0; k < W; ++k) ++v[i * W + k];
        },
        [&](std::uint64_t t) { ++v[t]; });
  return v;
}

struct Case {
  std::uint64_t n;
  std::uint32_t grid, block;
};
std::vector<Case> cases() {
  std::vector<Case> c = {{1, 1, 1},      {1, 1, 1024},    {31, 1, 32},       {32, 1, 32},          {33, 2, 32},
                         {1000, 4, 256}, {4096, 32, 128}, {100000, 30, 128}, {1000003, 3907, 256}, {5, 7, 3},
                         {17, 1, 1}};
  std::mt19937 rng(1234);
  for (int k = 0; k < 40; ++k) {
    std::uint32_t block = 1 + rng() % 1024;
    std::uint32_t grid = 1 + rng() % 300;
    std::uint64_t n = 1 + rng() % 200000;
    c.push_back({n, grid, block});
  }
  return c;
}
}  // namespace

TEST(LaunchValidation, NamesTheLimitAndTheDevice) {
  LaunchConfig c;
  c.block = Dim3{1025, 1, 1};
  EXPECT_EQ(validateLaunch(c, h200()), "1025 threads per block > 1024 (the limit of NVIDIA H200)");
  c.block = Dim3{32, 32, 2};
  EXPECT_NE(validateLaunch(c, h200()).find("2048 threads per block > 1024"), std::string::npos);
  c.block = Dim3{1, 1, 65};
  EXPECT_NE(validateLaunch(c, h200()).find("65 threads > 64, the block limit in z on NVIDIA H200"), std::string::npos);
  c.block = Dim3{256, 1, 1};
  c.grid = Dim3{1, 65536, 1};
  EXPECT_NE(validateLaunch(c, h200()).find("65536 blocks > 65535, the grid limit in y on NVIDIA H200"),
            std::string::npos);
  c.grid = Dim3{4224, 1, 1};
  EXPECT_EQ(validateLaunch(c, h200()), "");
  c.dynamicSmemBytes = 300 * 1024;
  EXPECT_NE(validateLaunch(c, h200()).find("shared memory per block"), std::string::npos);
}

TEST(LaunchValidation, ValuesBeyond32BitsNameTheLimit) {
  std::string err;
  EXPECT_FALSE(parseLaunchDim3("99999999999", LaunchPart::Grid, &err));
  EXPECT_EQ(err, "99999999999 blocks > 2147483647, the grid limit in x on any CUDA GPU");
  EXPECT_FALSE(parseLaunchDim3("1x99999999999", LaunchPart::Grid, &err));
  EXPECT_EQ(err, "99999999999 blocks > 65535, the grid limit in y on any CUDA GPU");
  EXPECT_FALSE(parseLaunchDim3("5000000000", LaunchPart::Block, &err));
  EXPECT_EQ(err, "5000000000 threads > 1024, the block limit in x on any CUDA GPU");
  EXPECT_FALSE(parseDim3("5000000000", &err));
  EXPECT_NE(err.find("too large"), std::string::npos) << err;
  EXPECT_EQ(parseLaunchDim3("4224", LaunchPart::Grid), (Dim3{4224, 1, 1}));
}

TEST(LaunchValidation, ParseErrorsSuggestNo2DShape) {
  std::string err;
  for (const char* bad : {"abc", "0", "-3", "16xq"}) {
    EXPECT_FALSE(parseLaunchDim3(bad, LaunchPart::Block, &err));
    EXPECT_EQ(err.find("16x16"), std::string::npos) << err;
    EXPECT_NE(err.find("e.g. 256"), std::string::npos) << err;
  }
}

TEST(LaunchValidation, RequestChecksOnlyFixedParts) {
  LaunchRequest r;
  EXPECT_EQ(validateLaunchRequest(r, h200()), "");
  EXPECT_EQ(r.dims(), 1);
  r.block = Dim3{16, 16, 1};
  EXPECT_EQ(r.dims(), 2);
  EXPECT_EQ(validateLaunchRequest(r, h200()), "");
  r.block = Dim3{2048, 1, 1};
  EXPECT_NE(validateLaunchRequest(r, DeviceLimits::genericCuda()).find("any CUDA GPU"), std::string::npos);
}

TEST(LaunchMath, CeilDivCoversN) {
  for (std::uint64_t n : {1ull, 31ull, 32ull, 33ull, 1000003ull, 1ull << 27})
    for (std::uint64_t b : {1ull, 32ull, 33ull, 256ull, 1024ull}) {
      EXPECT_GE(ceilDiv(n, b) * b, n);
      EXPECT_LT((ceilDiv(n, b) - 1) * b, n);
    }
}

TEST(LaunchMath, OnePerThreadWithCoveringGridVisitsEveryIndexOnce) {
  for (const auto& c : cases()) {
    const auto grid = static_cast<std::uint32_t>(ceilDiv(c.n, c.block));
    expectAllOnce(visitsOnePerThread(c.n, grid, c.block),
                  "one-per-thread n=" + std::to_string(c.n) + " block=" + std::to_string(c.block));
  }
}

TEST(LaunchMath, OnePerThreadWithShortGridMissesTheTail) {
  auto v = visitsOnePerThread(4096, 16, 128);  // the course's exercise: fewer blocks than needed
  for (std::size_t i = 0; i < 2048; ++i) EXPECT_EQ(v[i], 1);
  for (std::size_t i = 2048; i < 4096; ++i) EXPECT_EQ(v[i], 0);
}

TEST(LaunchMath, GridStrideVisitsEveryIndexOnceWithAnyGrid) {
  for (const auto& c : cases())
    expectAllOnce(visitsGridStride(c.n, c.grid, c.block), "grid-stride n=" + std::to_string(c.n) +
                                                              " grid=" + std::to_string(c.grid) +
                                                              " block=" + std::to_string(c.block));
}

TEST(LaunchMath, VectorizedPartitionVisitsEveryIndexOnce) {
  for (const auto& c : cases()) {
    const std::string what =
        "n=" + std::to_string(c.n) + " grid=" + std::to_string(c.grid) + " block=" + std::to_string(c.block);
    expectAllOnce(visitsVectorized<4, 4>(c.n, c.grid, c.block), "float4 x4 " + what);
    expectAllOnce(visitsVectorized<2, 4>(c.n, c.grid, c.block), "double2 x4 " + what);
  }
}
