#include <gtest/gtest.h>

#include "launchlab/engine/launch_config.h"
#include "launchlab/files/parse.h"

using namespace launchlab;

TEST(ParseSize, AcceptsCountsSuffixesAndPowers) {
  EXPECT_EQ(parseSize("1000"), 1000u);
  EXPECT_EQ(parseSize("1M"), 1000000u);
  EXPECT_EQ(parseSize("16Mi"), 16777216u);
  EXPECT_EQ(parseSize("2^24"), 16777216u);
  EXPECT_EQ(parseSize("4K"), 4000u);
  EXPECT_EQ(parseSize("4k"), 4000u);
  EXPECT_EQ(parseSize("1Gi"), 1073741824u);
  EXPECT_EQ(parseSize("1e6"), 1000000u);
  EXPECT_EQ(parseSize(" 31 "), 31u);
  EXPECT_EQ(parseSize("1.5M"), 1500000u);
}

// A power is computed in whole numbers: through a double, 3^39 came out as 4052555153018976256.
TEST(ParseSize, PowersAreExact) {
  EXPECT_EQ(parseSize("3^39"), 4052555153018976267u);
  EXPECT_EQ(parseSize("7^22"), 3909821048582988049u);
  EXPECT_EQ(parseSize("1^99999999999"), 1u);
  EXPECT_EQ(parseSize("10^18"), 1000000000000000000u);
  EXPECT_FALSE(parseSize("3^40"));  // 1.2e19: beyond the sizes a run takes
  EXPECT_FALSE(parseSize("2^64"));
}

TEST(ParseSize, RejectsWithAReason) {
  for (const char* bad : {"", "0", "-5", "abc", "12abc", "1.5", "2^", "^3", "1Q", "0.2K", "1e30", "2^70"}) {
    std::string err;
    EXPECT_FALSE(parseSize(bad, &err).has_value()) << bad;
    EXPECT_FALSE(err.empty()) << bad;
  }
}

TEST(ParseSize, FormatsCompactly) {
  EXPECT_EQ(formatSize(16777216), "16Mi (2^24)");
  EXPECT_EQ(formatSize(1000000), "1M");
  EXPECT_EQ(formatSize(1000003), "1000003");
  EXPECT_EQ(formatSize(4000), "4K");
}

TEST(ParseNumbers, StrictWholeString) {
  EXPECT_EQ(parseDouble("2.5"), 2.5);
  EXPECT_FALSE(parseDouble("2.5x"));
  EXPECT_FALSE(parseDouble("nan"));
  EXPECT_EQ(parseInteger("-7"), -7);
  EXPECT_FALSE(parseInteger("7.0"));
}

TEST(ParseDim3, OneTwoAndThreeDimensions) {
  EXPECT_EQ(parseDim3("256"), (Dim3{256, 1, 1}));
  EXPECT_EQ(parseDim3("16x16"), (Dim3{16, 16, 1}));
  EXPECT_EQ(parseDim3("8x8x4"), (Dim3{8, 8, 4}));
  std::string err;
  EXPECT_FALSE(parseDim3("0", &err));
  EXPECT_FALSE(err.empty());
  EXPECT_FALSE(parseDim3("16x", &err));
  EXPECT_FALSE(parseDim3("1x2x3x4", &err));
  EXPECT_FALSE(parseDim3("-3", &err));
  EXPECT_EQ(formatDim3(Dim3{16, 16, 1}), "16x16");
  EXPECT_EQ(formatDim3(Dim3{30, 1, 1}), "30");
}
