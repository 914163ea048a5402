#include <gtest/gtest.h>

#include "launchlab/parse.h"

using namespace launchlab;

TEST(ParseSize, SuffixesAndPowers) {
  EXPECT_EQ(parseSize("1000"), 1000u);
  EXPECT_EQ(parseSize("1M"), 1000000u);
  EXPECT_EQ(parseSize("16Mi"), 16777216u);
  EXPECT_EQ(parseSize("2^24"), 16777216u);
  EXPECT_EQ(parseSize("4K"), 4000u);
  EXPECT_EQ(parseSize("1Gi"), 1073741824u);
  EXPECT_EQ(parseSize("1e6"), 1000000u);
}
