// `launchlab-cli ceilings` without a GPU: the datasheet of the default profile (sm_90's H100 SXM5), labelled
// theoretical with the reason; --gpu-profile picks another; --json writes launchlab.ceilings; bad input exits 2.
#include "cli_helpers.h"

using namespace launchlab::test;

TEST(CliCeilings, WithoutAGpuTheDatasheetIsShownAndLabelled) {
  if (gpuAvailable()) GTEST_SKIP() << "a GPU is present: the ceilings are measured (GPU check)";
  Out o = cli("ceilings");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("Roofline ceilings: theoretical: datasheet of NVIDIA H100 SXM5"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("3350.0 GB/s"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("67000.0 GFLOP/s"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("20.00 FLOP/byte"), std::string::npos) << o.out;  // 67000 / 3350
  EXPECT_NE(o.out.find("note: no GPU here"), std::string::npos) << o.out;
  Out j = cli("ceilings --gpu-profile sm_86 --json -");
  ASSERT_EQ(j.code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["schema"], "launchlab.ceilings");
  EXPECT_EQ(doc["source"], "theoretical");
  EXPECT_EQ(doc["gpu"], "NVIDIA GeForce RTX 3090");
  EXPECT_EQ(doc["copy_gbs"], 936.0);
  EXPECT_EQ(doc["fp32_gflops"], 35600.0);
  EXPECT_EQ(doc["label"], "theoretical: datasheet of NVIDIA GeForce RTX 3090");
  expectBadInput("ceilings --gpu-profile sm_70", "unknown profile 'sm_70'");
  expectBadInput("ceilings --reps 0", "--reps: must be between 1");
}
