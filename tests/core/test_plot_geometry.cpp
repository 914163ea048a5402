// The CPU builders of the GPU plot views' buffers (launchlab/plot/plot_geometry.h) on hand-checked cases: M4 order and
// ties, non-finite samples and gap columns, exact column starts in 128 bits, every dtype, histogram bars, image
// texels, point striding; and the M4 property (each column's vertices span the raw column's min..max).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "launchlab/plot/plot_geometry.h"

using namespace launchlab;
using namespace launchlab::geom;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<Vertex2> m4(const std::vector<float>& v, std::uint32_t columns, std::uint64_t begin = 0,
                        std::uint64_t end = ~0ull) {
  if (end == ~0ull) end = v.size();
  std::vector<Vertex2> out(4 * std::size_t{columns});
  out.resize(m4Vertices(v.data(), DType::F32, begin, end, columns, out.data()));
  return out;
}

void expectVertices(const std::vector<Vertex2>& got, const std::vector<Vertex2>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].x, want[i].x) << "vertex " << i;
    if (std::isnan(want[i].y))
      EXPECT_TRUE(std::isnan(got[i].y)) << "vertex " << i;
    else
      EXPECT_EQ(got[i].y, want[i].y) << "vertex " << i;
  }
}
}  // namespace

TEST(PlotGeometry, ColumnsAndStarts) {
  EXPECT_EQ(m4Columns(10, 4), 4u);
  EXPECT_EQ(m4Columns(3, 4), 3u);  // each column holds at least one element
  EXPECT_EQ(m4Columns(0, 4), 0u);
  EXPECT_EQ(m4Columns(10, 0), 0u);
  // 10 elements from 100 in 4 columns: floor(c * 10 / 4) = 0, 2, 5, 7, 10.
  EXPECT_EQ(m4ColumnStart(100, 10, 4, 0), 100u);
  EXPECT_EQ(m4ColumnStart(100, 10, 4, 1), 102u);
  EXPECT_EQ(m4ColumnStart(100, 10, 4, 2), 105u);
  EXPECT_EQ(m4ColumnStart(100, 10, 4, 3), 107u);
  EXPECT_EQ(m4ColumnStart(100, 10, 4, 4), 110u);
}

TEST(PlotGeometry, ColumnStartsAreExactAtLargeSizes) {
  // 2^27 - 1 elements in 3840 columns: c * n exceeds 2^32 but not 2^64; 3839 * 134217727 / 3840 = 134182774.47
  const std::uint64_t n27 = (1ull << 27) - 1;
  EXPECT_EQ(m4ColumnStart(0, n27, 3840, 3839), 134182774u);
  EXPECT_EQ(m4ColumnStart(0, n27, 3840, 3840), n27);
  // 2^40 + 3 elements: c * n > 2^64 for c near 2^32, so 64-bit math would overflow.
  const std::uint64_t n40 = (1ull << 40) + 3;
  const std::uint32_t cols = 4000000000u;
  // floor(3999999999 * (2^40 + 3) / 4e9) = 2^40 - 274.877906944 + 2.99999999925 -> 1099511627776 - 272 = 1099511627504
  EXPECT_EQ(m4ColumnStart(0, n40, cols, cols - 1), 1099511627504ull);
  EXPECT_EQ(m4ColumnStart(7, n40, cols, cols), n40 + 7);
  EXPECT_EQ(m4ColumnStart(0, n40, 3, 1), 366503875926ull);  // 1099511627779 / 3 = 366503875926.33
}

TEST(PlotGeometry, M4OrderMinBeforeOrAfterMax) {
  // Column 0 = {5, 1, 9, 4}: first 5, min 1 (index 1) before max 9 (index 2), last 4.
  // Column 1 = {3, 8, 0, 6}: max 8 (index 5) before min 0 (index 6).
  const std::vector<float> v = {5, 1, 9, 4, 3, 8, 0, 6};
  expectVertices(m4(v, 2), {{0, 5}, {1, 1}, {2, 9}, {3, 4}, {4, 3}, {5, 8}, {6, 0}, {7, 6}});
}

TEST(PlotGeometry, M4TiesTakeTheLowestIndex) {
  // min 1 at indices 1 and 3, max 7 at 2 and 4: indices 1 and 2 win.
  const std::vector<float> v = {2, 1, 7, 1, 7, 3};
  expectVertices(m4(v, 1), {{0, 2}, {1, 1}, {2, 7}, {5, 3}});
  // A constant column: min = max = first index.
  expectVertices(m4({4, 4, 4}, 1), {{0, 4}, {0, 4}, {0, 4}, {2, 4}});
}

TEST(PlotGeometry, M4SkipsNaNAndInfinities) {
  // {NaN, inf, 3, -inf, 1, NaN}: finite are 3 (index 2) and 1 (index 4): first 3, max 3 before min 1, last 1.
  const std::vector<float> v = {kNaN, kInf, 3, -kInf, 1, kNaN};
  expectVertices(m4(v, 1), {{2, 3}, {2, 3}, {4, 1}, {4, 1}});
}

TEST(PlotGeometry, M4AllNaNColumnGivesGapVertices) {
  // 6 elements in 3 columns; column 1 = {NaN, inf}: four vertices at x = 2 with y = NaN.
  const std::vector<float> v = {1, 2, kNaN, kInf, 5, 6};
  expectVertices(
      m4(v, 3),
      {{0, 1}, {0, 1}, {1, 2}, {1, 2}, {2, kNaN}, {2, kNaN}, {2, kNaN}, {2, kNaN}, {4, 5}, {4, 5}, {5, 6}, {5, 6}});
}

TEST(PlotGeometry, M4FewerElementsThanColumnsAndOneElement) {
  // n = 3 < 8 columns: 3 columns of one element each.
  expectVertices(m4({7, -2, 4}, 8),
                 {{0, 7}, {0, 7}, {0, 7}, {0, 7}, {1, -2}, {1, -2}, {1, -2}, {1, -2}, {2, 4}, {2, 4}, {2, 4}, {2, 4}});
  expectVertices(m4({9}, 1000), {{0, 9}, {0, 9}, {0, 9}, {0, 9}});
  EXPECT_TRUE(m4({1, 2}, 4, 1, 1).empty());  // empty range
  EXPECT_TRUE(m4({1, 2}, 0).empty());
}

TEST(PlotGeometry, M4SubRangeXIsRelativeToBegin) {
  // [2, 8) of 0..9 scaled by 10 in 2 columns: {20, 30, 40} and {50, 60, 70}.
  std::vector<float> v;
  for (int i = 0; i < 10; ++i) v.push_back(10.0f * i);
  expectVertices(m4(v, 2, 2, 8), {{0, 20}, {0, 20}, {2, 40}, {2, 40}, {3, 50}, {3, 50}, {5, 70}, {5, 70}});
}

TEST(PlotGeometry, M4EveryDType) {
  // {3, 250, 0, 17} in 1 column: first 3, min 0 (index 2) after max 250 (index 1), last 17.
  const std::vector<Vertex2> want = {{0, 3}, {1, 250}, {2, 0}, {3, 17}};
  auto check = [&](const auto& values, DType dt) {
    std::vector<Vertex2> out(4);
    ASSERT_EQ(m4Vertices(values.data(), dt, 0, values.size(), 1, out.data()), 4u) << dtypeName(dt);
    expectVertices(out, want);
  };
  check(std::vector<float>{3, 250, 0, 17}, DType::F32);
  check(std::vector<double>{3, 250, 0, 17}, DType::F64);
  check(std::vector<std::int32_t>{3, 250, 0, 17}, DType::I32);
  check(std::vector<std::uint32_t>{3, 250, 0, 17}, DType::U32);
  check(std::vector<std::uint8_t>{3, 250, 0, 17}, DType::U8);
  check(std::vector<std::int64_t>{3, 250, 0, 17}, DType::I64);
  check(std::vector<std::int16_t>{3, 250, 0, 17}, DType::I16);
  // Integers compare as integers, not as floats: 2^24 + 1 > 2^24 although both convert to 16777216.0f.
  const std::vector<std::int64_t> big = {16777217, 16777216};
  std::vector<Vertex2> out(4);
  m4Vertices(big.data(), DType::I64, 0, 2, 1, out.data());
  EXPECT_EQ(out[1].x, 0.0f);  // the max (index 0) comes first, then the min (index 1)
  EXPECT_EQ(out[2].x, 1.0f);
  // f64 NaN is skipped too.
  const std::vector<double> d = {std::nan(""), -1.5};
  m4Vertices(d.data(), DType::F64, 0, 2, 1, out.data());
  expectVertices(out, {{1, -1.5f}, {1, -1.5f}, {1, -1.5f}, {1, -1.5f}});
}

TEST(PlotGeometry, M4PropertyVerticesSpanEachColumnsRange) {
  std::mt19937 rng(7);
  std::normal_distribution<float> noise(0.0f, 3.0f);
  std::vector<float> v(100003);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i % 997 == 0) ? kNaN : noise(rng);
  for (std::uint32_t cols : {1u, 7u, 1280u, 3840u}) {
    const auto out = m4(v, cols, 11, v.size() - 5);
    ASSERT_EQ(out.size(), 4u * cols);
    const std::uint64_t n = v.size() - 16;
    for (std::uint32_t c = 0; c < cols; ++c) {
      float lo = kInf, hi = -kInf;
      for (std::uint64_t i = m4ColumnStart(11, n, cols, c); i < m4ColumnStart(11, n, cols, c + 1); ++i)
        if (std::isfinite(v[i])) lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
      float vlo = kInf, vhi = -kInf;
      for (int k = 0; k < 4; ++k) vlo = std::min(vlo, out[4 * c + k].y), vhi = std::max(vhi, out[4 * c + k].y);
      ASSERT_EQ(vlo, lo) << cols << " columns, column " << c;
      ASSERT_EQ(vhi, hi) << cols << " columns, column " << c;
      ASSERT_EQ(out[4 * c].x, static_cast<float>(m4ColumnStart(11, n, cols, c) - 11) +
                                  (std::isnan(v[m4ColumnStart(11, n, cols, c)]) ? 1.0f : 0.0f));
    }
  }
}

TEST(PlotGeometry, HistogramBars) {
  EXPECT_EQ(histogramBinsPerBar(10, 20), 1u);
  EXPECT_EQ(histogramBinsPerBar(10, 10), 1u);
  EXPECT_EQ(histogramBinsPerBar(10, 4), 3u);  // ceil(10 / 4)
  const std::vector<std::uint32_t> counts = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<float> out(10, -1.0f);
  // bins < maxBars and bins == maxBars: one bin per bar.
  ASSERT_EQ(histogramBarHeights(counts.data(), DType::U32, 10, 20, out.data()), 10u);
  EXPECT_EQ(out, (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  ASSERT_EQ(histogramBarHeights(counts.data(), DType::U32, 10, 10, out.data()), 10u);
  EXPECT_EQ(out[9], 10.0f);
  // bins > maxBars: 3 bins per bar, 4 bars; the last one holds the single bin 10.
  std::fill(out.begin(), out.end(), -1.0f);
  ASSERT_EQ(histogramBarHeights(counts.data(), DType::U32, 10, 4, out.data()), 4u);
  EXPECT_EQ(out, (std::vector<float>{6, 15, 24, 10, -1, -1, -1, -1, -1, -1}));
  // 10 bins into 3 bars: 4 per bar: 1+2+3+4, 5+6+7+8, 9+10.
  ASSERT_EQ(histogramBarHeights(counts.data(), DType::U32, 10, 3, out.data()), 3u);
  EXPECT_EQ(out[0], 10.0f);
  EXPECT_EQ(out[1], 26.0f);
  EXPECT_EQ(out[2], 19.0f);
  // i64 counts beyond float precision are summed in double: 2^40 + 1 + 1 = 1099511627778 -> float 1099511627776.
  const std::vector<std::int64_t> big = {1099511627777, 1};
  ASSERT_EQ(histogramBarHeights(big.data(), DType::I64, 2, 1, out.data()), 1u);
  EXPECT_EQ(out[0], static_cast<float>(1099511627778.0));
  EXPECT_EQ(histogramBarHeights(counts.data(), DType::U32, 0, 4, out.data()), 0u);
  EXPECT_EQ(histogramBarHeights(counts.data(), DType::U32, 10, 0, out.data()), 0u);
}

TEST(PlotGeometry, ImageTexelsOfIntsAndNaN) {
  const std::vector<std::int16_t> ints = {-32768, 0, 7, 32767};
  std::vector<float> out(4);
  ASSERT_EQ(imageTexels(ints.data(), DType::I16, 4, out.data()), 4u);
  EXPECT_EQ(out, (std::vector<float>{-32768, 0, 7, 32767}));
  const std::vector<std::uint8_t> bytes = {0, 255};
  ASSERT_EQ(imageTexels(bytes.data(), DType::U8, 2, out.data()), 2u);
  EXPECT_EQ(out[1], 255.0f);
  const std::vector<double> d = {std::nan(""), -std::numeric_limits<double>::infinity(), 0.1, 1e300};
  ASSERT_EQ(imageTexels(d.data(), DType::F64, 4, out.data()), 4u);
  EXPECT_TRUE(std::isnan(out[0]));  // kept: the shader colours them
  EXPECT_EQ(out[1], -kInf);
  EXPECT_EQ(out[2], 0.1f);
  EXPECT_EQ(out[3], kInf);  // beyond float's range
  // Every NaN is written as the one quiet NaN 0x7fc00000, whatever its sign or payload (the GPU writes the same).
  const std::vector<double> nans = {std::bit_cast<double>(0x7ff0000000012345ull), -std::nan("")};
  ASSERT_EQ(imageTexels(nans.data(), DType::F64, 2, out.data()), 2u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(out[0]), 0x7fc00000u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(out[1]), 0x7fc00000u);
}

void expectPoint(const PointVertex& p, float x, float y, float inside) {
  EXPECT_EQ(p.x, x);
  EXPECT_EQ(p.y, y);
  EXPECT_EQ(p.inside, inside);
}

TEST(PlotGeometry, PointStriding) {
  // 3 x 5: x = 0..4, y = 10..14, inside = 1,0,1,0,1.
  const std::vector<float> p = {0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 1, 0, 1, 0, 1};
  std::vector<PointVertex> out(5);
  // k = 5 < maxPoints: every point.
  ASSERT_EQ(pointVertices(p.data(), DType::F32, 5, 100, out.data()), 5u);
  expectPoint(out[3], 3, 13, 0);
  // k = 5 > maxPoints = 2: columns floor(0 * 5 / 2) = 0 and floor(1 * 5 / 2) = 2.
  ASSERT_EQ(pointVertices(p.data(), DType::F32, 5, 2, out.data()), 2u);
  expectPoint(out[0], 0, 10, 1);
  expectPoint(out[1], 2, 12, 1);
  // maxPoints = 3: columns 0, 1 (5/3 = 1.67), 3 (10/3 = 3.33).
  ASSERT_EQ(pointVertices(p.data(), DType::F32, 5, 3, out.data()), 3u);
  expectPoint(out[1], 1, 11, 0);
  expectPoint(out[2], 3, 13, 0);
  const std::vector<std::uint8_t> u = {9, 8, 0};  // k = 1
  ASSERT_EQ(pointVertices(u.data(), DType::U8, 1, 0, out.data()), 0u);
  ASSERT_EQ(pointVertices(u.data(), DType::U8, 1, 4, out.data()), 1u);
  expectPoint(out[0], 9, 8, 0);
}
