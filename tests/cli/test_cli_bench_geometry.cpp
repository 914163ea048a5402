// `launchlab-cli bench-geometry` without a GPU: exit 1 with one line saying why, nothing on stdout; bad --reps exits 2.
// With a GPU it prints the M4 timings (run by the lead on the GPU machine: scripts/gpu/device_check.sh).
#include "cli_helpers.h"

using namespace launchlab::test;

TEST(CliBenchGeometry, WithoutAGpuOneLineAndExitOne) {
  if (gpuAvailable()) GTEST_SKIP() << "a GPU is present: the bench runs (GPU check)";
  const Out o = cli("bench-geometry --json -");
  EXPECT_EQ(o.code, 1);
  EXPECT_EQ(o.out, "");
  EXPECT_NE(o.err.find("bench-geometry needs a CUDA device"), std::string::npos) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  expectBadInput("bench-geometry --reps 0", "--reps");
}
