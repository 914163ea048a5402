// The roofline's arithmetic (core/include/launchlab/explorer/roofline.h) on hand-computed cases, the profiles'
// datasheet ceilings and the ceilings' JSON and wire forms.
#include <gtest/gtest.h>

#include "launchlab/engine/errors.h"
#include "launchlab/explorer/roofline.h"
#include "launchlab/worker/wire.h"

using namespace launchlab;

namespace {
// A round device: 1000 GB/s and 10000 GFLOP/s, so the ridge is at 10 FLOP/byte.
Ceilings round() {
  Ceilings c;
  c.copyGBs = 1000;
  c.fp32Gflops = 10000;
  c.source = Ceilings::Source::Measured;
  c.gpuName = "NVIDIA H200";
  c.date = "2026-11-24T05:00:00Z";
  return c;
}
}  // namespace

TEST(Roofline, RidgeRoofAndBound) {
  const Ceilings c = round();
  EXPECT_DOUBLE_EQ(ridgePoint(c), 10.0);
  EXPECT_DOUBLE_EQ(roofAt(c, 0.125), 125.0);   // memory roof: 0.125 x 1000
  EXPECT_DOUBLE_EQ(roofAt(c, 10.0), 10000.0);  // the ridge: both roofs
  EXPECT_DOUBLE_EQ(roofAt(c, 64.0), 10000.0);  // compute roof
  EXPECT_EQ(boundAt(c, 0.125), Bound::Memory);
  EXPECT_EQ(boundAt(c, 9.99), Bound::Memory);
  EXPECT_EQ(boundAt(c, 10.0), Bound::Compute);
  EXPECT_EQ(boundAt(c, 64.0), Bound::Compute);
  EXPECT_EQ(boundName(Bound::Memory), "memory");
  EXPECT_DOUBLE_EQ(ridgePoint(Ceilings{}), 0.0);  // no ceilings: no ridge
}

TEST(Roofline, APointItsIntensityAndShareOfTheRoof) {
  const Ceilings c = round();
  // vector_add f32 at N = 2^20: 2^20 adds over 12 x 2^20 bytes (two reads, one write) in 0.0125 ms.
  const double n = 1048576;
  auto p = placeOnRoofline(c, n, 12 * n, 0.0125);
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->intensity, 1.0 / 12);           // 0.0833 FLOP/byte
  EXPECT_NEAR(p->gbs, 12 * n / 12.5e-6 / 1e9, 1e-9);  // 1006.6 GB/s
  EXPECT_NEAR(p->gflops, n / 12.5e-6 / 1e9, 1e-9);    // 83.886 GFLOP/s
  EXPECT_EQ(p->bound, Bound::Memory);
  // the roof at 1/12 FLOP/byte is 1000 / 12 = 83.333 GFLOP/s: 83.886 / 83.333 = 100.66 %
  EXPECT_NEAR(p->percentOfRoof, 100.0 * 83.88608 / 83.33333, 1e-3);
  // matmul 1024^3: 2 x 2^30 flops over 3 x 4 x 2^20 bytes (170.7 FLOP/byte) in 0.5 ms = 4295 GFLOP/s, 42.9 %.
  auto m = placeOnRoofline(c, 2.0 * 1073741824, 12.0 * n, 0.5);
  ASSERT_TRUE(m);
  EXPECT_NEAR(m->intensity, 170.6667, 1e-4);
  EXPECT_EQ(m->bound, Bound::Compute);
  EXPECT_NEAR(m->gflops, 4294.967296, 1e-6);
  EXPECT_NEAR(m->percentOfRoof, 42.94967296, 1e-8);
  // No FLOP count, no bytes, no time or no ceilings: not placed.
  EXPECT_FALSE(placeOnRoofline(c, 0, 12 * n, 1));
  EXPECT_FALSE(placeOnRoofline(c, n, 0, 1));
  EXPECT_FALSE(placeOnRoofline(c, n, n, 0));
  EXPECT_FALSE(placeOnRoofline(Ceilings{}, n, n, 1));
}

TEST(Roofline, ProfilesCarryTheirDatasheetCeilings) {
  const ArchProfile* h100 = findArchProfile("sm_90");
  ASSERT_TRUE(h100);
  const Ceilings c = theoreticalCeilings(*h100);
  EXPECT_EQ(c.source, Ceilings::Source::Theoretical);
  EXPECT_DOUBLE_EQ(c.copyGBs, 3350);
  EXPECT_DOUBLE_EQ(c.fp32Gflops, 67000);
  EXPECT_NEAR(ridgePoint(c), 20.0, 1e-12);  // 67000 / 3350
  EXPECT_EQ(c.label(), "theoretical: datasheet of NVIDIA H100 SXM5");
  const Ceilings t4 = theoreticalCeilings(*findArchProfile("75"));
  EXPECT_DOUBLE_EQ(t4.copyGBs, 320);
  EXPECT_DOUBLE_EQ(t4.fp32Gflops, 8100);
  EXPECT_NEAR(ridgePoint(t4), 25.3125, 1e-12);  // 8100 / 320
  for (const auto& p : archProfiles()) {
    EXPECT_TRUE(theoreticalCeilings(p).valid()) << p.arch;
    EXPECT_EQ(p.datasheetGpu, p.gpuName) << p.arch;
  }
  // A present device's profile keeps the datasheet's own GPU name (an H200 is sm_90, its datasheet the H100's).
  DeviceInfo h200;
  h200.name = "NVIDIA H200";
  h200.ccMajor = 9;
  EXPECT_EQ(profileForDevice(h200)->datasheetGpu, "NVIDIA H100 SXM5");
}

TEST(Roofline, LabelsSayWhereTheCeilingsComeFrom) {
  Ceilings c = round();
  EXPECT_EQ(c.label(), "measured on NVIDIA H200, 2026-11-24");
  c.source = Ceilings::Source::Recorded;
  EXPECT_EQ(c.label(), "recorded on NVIDIA H200, 2026-11-24");
}

TEST(Roofline, JsonAndWireRoundTrip) {
  const Ceilings c = round();
  auto back = parseCeilingsJson(ceilingsJson(c));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, c);
  EXPECT_NE(ceilingsJson(c).find("\"ridge_flop_per_byte\": 10.0"), std::string::npos) << ceilingsJson(c);
  EXPECT_EQ(wire::decodeCeilings(wire::encodeCeilings(c)), c);
  Ceilings none;
  none.problem = "no GPU: CPU-only build";
  EXPECT_EQ(wire::decodeCeilings(wire::encodeCeilings(none)), none);
  std::string why;
  EXPECT_FALSE(parseCeilingsJson("{\"schema\":\"launchlab.sweep\"}", &why));
  EXPECT_NE(why.find("not a launchlab.ceilings document"), std::string::npos) << why;
  EXPECT_FALSE(parseCeilingsJson(R"({"schema":"launchlab.ceilings","copy_gbs":1,"fp32_gflops":2,"source":"guessed",
                                     "gpu":"x","date":""})",
                                 &why));
  EXPECT_NE(why.find("unknown source"), std::string::npos) << why;
  EXPECT_THROW(wire::decodeCeilings("garbage"), BadInput);
}
