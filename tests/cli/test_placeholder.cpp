#include <gtest/gtest.h>

#include "launchlab/kernels.h"

TEST(Registry, HasTheFirstWorkloads) {
  launchlab::Registry r;
  launchlab::kernels::registerAllWorkloads(r);
  EXPECT_NE(r.find("vector_add"), nullptr);
}
