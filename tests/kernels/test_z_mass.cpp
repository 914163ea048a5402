// z_mass: hand-checked jagged events (through .npy files, as real data comes), the checks of malformed files, the
// generated sample's spectrum and the Z fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <numeric>

#include "cpu_impl_checks.h"
#include "launchlab/config.h"
#include "launchlab/course/chapters.h"
#include "launchlab/files/npy.h"
#include "metadata_checks.h"
#include "z_mass/z_mass.h"

using namespace launchlab;
namespace zm = launchlab::kernels::z_mass;

namespace {

/// Jagged columns by hand.
struct Columns {
  std::vector<std::int64_t> offsets;
  std::vector<float> pt, eta, phi;
  std::vector<std::int32_t> charge;
};

/// Six events: three with a known mass, then three without an opposite-charge pair.
Columns handSample() {
  const float pi = std::numbers::pi_v<float>;
  Columns c;
  c.offsets = {0, 2, 5, 7, 9, 10, 10};
  // Event 0: back to back (dphi = pi, deta = 0), pt 45 each: m = sqrt(2 * 45 * 45 * 2) = 90.
  c.pt = {45, 45};
  c.eta = {0, 0};
  c.phi = {0, pi};
  c.charge = {1, -1};
  // Event 1: (0, 1) are both +1; the first opposite pair is (0, 2): deta = ln 2 (cosh = 1.25), dphi = pi / 2,
  // pt 4 and 10: m = sqrt(2 * 4 * 10 * 1.25) = 10. Muon 1 (pt 20) would give other masses.
  c.pt.insert(c.pt.end(), {4, 20, 10});
  c.eta.insert(c.eta.end(), {0, 1, std::numbers::ln2_v<float>});
  c.phi.insert(c.phi.end(), {0, 2, pi / 2});
  c.charge.insert(c.charge.end(), {1, 1, -1});
  // Event 2: deta = 2, dphi = 0, pt 5 each: m = sqrt(2 * 25 * (cosh 2 - 1)) = 10 sinh(1) = 11.7520119.
  c.pt.insert(c.pt.end(), {5, 5});
  c.eta.insert(c.eta.end(), {1, -1});
  c.phi.insert(c.phi.end(), {0.5f, 0.5f});
  c.charge.insert(c.charge.end(), {-1, 1});
  // Event 3: two muons of the same charge; event 4: one muon; event 5: none.
  c.pt.insert(c.pt.end(), {30, 30, 7});
  c.eta.insert(c.eta.end(), {0, 0.1f, 0});
  c.phi.insert(c.phi.end(), {0, 3, 1});
  c.charge.insert(c.charge.end(), {-1, -1, 1});
  return c;
}

template <typename T>
HostArray arrayOf(const char* name, DType t, const std::vector<T>& v) {
  HostArray a(name, t, {v.size()});
  std::copy(v.begin(), v.end(), a.view<T>().begin());
  return a;
}

/// The columns as .npy files in a fresh folder, and a request that reads them (n from the offsets).
class ZMassFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() /
            ("llzmass_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }
  RunRequest write(const Columns& c) {
    RunRequest req;
    req.workload = "z_mass";
    req.warmup = 0;
    req.reps = 1;
    req.keepOutputs = true;
    const HostArray arrays[] = {arrayOf("offsets", DType::I64, c.offsets), arrayOf("pt", DType::F32, c.pt),
                                arrayOf("eta", DType::F32, c.eta), arrayOf("phi", DType::F32, c.phi),
                                arrayOf("charge", DType::I32, c.charge)};
    for (const auto& a : arrays) {
      const std::string path = (m_dir / (a.name() + ".npy")).string();
      npy::save(path, a);
      req.inputFiles[a.name()] = path;
    }
    for (const auto& s : test::workload("z_mass").impls())
      if (!s.isGpu()) req.impls.push_back(s.id);
    return req;
  }
  std::filesystem::path m_dir;
};

}  // namespace

TEST(ZMass, Metadata) {
  test::expectMetadata("z_mass", std::string(kChapterAtlasPython), 2);
  const auto& info = test::workload("z_mass").info();
  EXPECT_EQ(info.defaultN, 1000000u);
  ASSERT_EQ(info.outputs.size(), 2u);
  EXPECT_EQ(info.outputs[1].plot, PlotKind::Histogram);
  EXPECT_TRUE(info.outputs[1].logY);  // the resonances span decades
  EXPECT_EQ(*info.outputs[1].xMax, 120.0);
  EXPECT_EQ(info.inputs[0].dtypeFor(DType::F32), DType::I64);
  EXPECT_EQ(info.inputs[4].dtypeFor(DType::F32), DType::I32);
}

TEST_F(ZMassFiles, HandCheckedEventsAndEventsWithoutAPair) {
  const RunResult r = test::cpuEngine().run(write(handSample()));
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  EXPECT_EQ(r.n, 6u);  // from the offsets: n + 1 entries
  test::expectCpuImplsPass(r);
  for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
    SCOPED_TRACE(impl);
    const auto m = test::output(r, impl, "mass").view<float>();
    EXPECT_FLOAT_EQ(m[0], 90.0f);
    EXPECT_NEAR(m[1], 10.0f, 1e-5);
    EXPECT_NEAR(m[2], 10.0 * std::sinh(1.0), 1e-5);
    EXPECT_EQ(m[3], -1.0f);
    EXPECT_EQ(m[4], -1.0f);
    EXPECT_EQ(m[5], -1.0f);
    const auto h = test::output(r, impl, "mass_hist").view<std::uint32_t>();
    EXPECT_EQ(h[90] + h[89], 1u);  // 90 within a rounding of the edge
    EXPECT_EQ(h[10] + h[9], 1u);
    EXPECT_EQ(h[11], 1u);
    EXPECT_EQ(std::accumulate(h.begin(), h.end(), 0u), 3u);  // the events without a pair are not counted
  }
}

TEST_F(ZMassFiles, MalformedFilesEndInAMessage) {
  auto runWith = [&](Columns c) { return test::cpuEngine().run(write(c)); };
  Columns c = handSample();
  c.offsets[0] = 1;
  EXPECT_EQ(runWith(c).reason, "input offsets: offsets[0] = 1, must be 0");
  c = handSample();
  c.offsets[3] = 4;  // below offsets[2] = 5
  EXPECT_EQ(runWith(c).reason, "input offsets: offsets[3] = 4 < offsets[2] = 5 (offsets never decrease)");
  c = handSample();
  c.offsets.back() = 9;
  c.offsets[5] = 9;
  EXPECT_EQ(runWith(c).reason,
            "input offsets: the last offset is 9 but the muon columns hold 10 muons (they must be equal)");
  c = handSample();
  c.offsets = {0, 1200, 1200};
  c.pt.assign(1200, 5);
  c.eta.assign(1200, 0);
  c.phi.assign(1200, 0);
  c.charge.assign(1200, 1);
  EXPECT_EQ(runWith(c).reason,
            "input offsets: event 0 holds 1200 muons, at most 1024 per event (the pair search is quadratic in them)");
  // Columns of different lengths and a missing column are refused before anything runs.
  c = handSample();
  c.eta.pop_back();
  RunRequest req = write(c);
  auto problems = test::cpuEngine().validate(req);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems.front().field, "input:eta");
  EXPECT_NE(problems.front().message.find("has shape (9,), expected (10,)"), std::string::npos)
      << problems.front().message;
  req = write(handSample());
  req.inputFiles.erase("charge");
  problems = test::cpuEngine().validate(req);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems.front().message.find("give all five columns"), std::string::npos) << problems.front().message;
}

TEST(ZMass, GeneratedSampleIsDeterministicAndWithinTheCuts) {
  const auto& w = test::workload("z_mass");
  const RunSetup s = test::setupFor("z_mass", 20000, DType::F32);
  const auto a = w.makeInputs(s), b = w.makeInputs(s);
  RunSetup other = s;
  other.seed = 43;
  const auto c = w.makeInputs(other);
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(zm::checkEvents(a), "");
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_TRUE(test::sameContents(a[k], b[k])) << a[k].name();
  EXPECT_FALSE(test::sameContents(a[1], c[1]));
  EXPECT_EQ(a[1].shape(), w.inputShapes(s)[1]);
  const auto off = a[0].view<std::int64_t>();
  int perCount[8] = {};
  for (std::size_t e = 0; e + 1 < off.size(); ++e) ++perCount[std::min<std::int64_t>(off[e + 1] - off[e], 7)];
  EXPECT_EQ(perCount[0] + perCount[7], 0);  // 1 to 6 muons
  EXPECT_GT(perCount[2], 20000 * 0.6);      // mostly 2
  EXPECT_GT(perCount[6], 0);
  for (float pt : a[1].view<float>()) ASSERT_GE(pt, 3.0f);
  for (float eta : a[2].view<float>()) ASSERT_LT(std::fabs(eta), 2.4f);
  for (float phi : a[3].view<float>()) ASSERT_LE(std::fabs(phi), std::numbers::pi_v<float>);
}

TEST(ZMass, ResonancesAppearWhereTheyWereGenerated) {
  const RunResult r = test::runCpu("z_mass", 400000, DType::F32, {}, 11);
  test::expectCpuImplsPass(r);
  const auto m = test::output(r, "cpu-serial", "mass").view<float>();
  // Events within half a resolution (1 %) of a mass, over as wide a window k resolutions below or above it: a peak
  // stands well above one side at 3 resolutions (the other may be a neighbour: the Upsilons are 3 to 6 apart) and
  // above both at 1.5.
  auto count = [&](double centre, double half) {
    return double(std::count_if(m.begin(), m.end(), [&](float x) { return std::fabs(double(x) - centre) < half; }));
  };
  auto sides = [&](double mass, double k) {
    const double sigma = 0.01 * mass, c = count(mass, sigma / 2);
    return std::pair{c / std::max(1.0, count(mass - k * sigma, sigma / 2)),
                     c / std::max(1.0, count(mass + k * sigma, sigma / 2))};
  };
  for (double mass : {0.78266, 1.019461, 3.0969, 3.686097, 9.4603, 10.02326, 10.3552, 91.19}) {
    const auto far = sides(mass, 3), near = sides(mass, 1.5);
    EXPECT_GT(std::max(far.first, far.second), 3.0) << mass;
    EXPECT_GT(std::min(near.first, near.second), 1.3) << mass;
  }
  const auto flat = sides(6.0, 3);  // the continuum, where nothing was generated
  EXPECT_LT(std::max(flat.first, flat.second), 1.3);
  const auto h = test::output(r, "cpu-serial", "mass_hist").view<std::uint32_t>();
  EXPECT_GT(h[91], 10 * h[70]);  // the Z over the continuum, in 1 GeV bins
  EXPECT_GT(h[3], 5 * h[6]);     // J/psi and psi' (3-4 GeV)
  EXPECT_GT(h[9], 3 * h[7]);     // Upsilon(1S)
}

TEST(ZMass, FitRecoversTheGeneratedZ) {
  const RunResult r = test::runCpu("z_mass", 1000000, DType::F32, {}, 7);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  for (const auto& i : r.impls) {
    if (i.gpu) continue;
    SCOPED_TRACE(i.implId);
    EXPECT_GT(i.metrics.at("muons_per_s"), 0.0);
#if LAUNCHLAB_HAVE_EIGEN
    const double m = i.metrics.at("z_mass_gev"), dm = i.metrics.at("z_mass_err");
    const double g = i.metrics.at("z_width_gev"), dg = i.metrics.at("z_width_err");
    EXPECT_GT(dm, 0.005);  // about 2.5 GeV / sqrt(78000 Z) with the resolution
    EXPECT_LT(dm, 0.02);
    EXPECT_LE(std::fabs(m - zm::kZMassGeV), 2 * dm) << m << " +- " << dm;
    EXPECT_LE(std::fabs(g - zm::kZWidthGeV), 3 * dg) << g << " +- " << dg;
    EXPECT_NE(i.launchNote.find("Z fit on"), std::string::npos) << i.launchNote;
#else
    EXPECT_NE(i.launchNote.find("Z fit skipped"), std::string::npos) << i.launchNote;
#endif
  }
}

TEST(ZMass, VerificationToleratesUlpsAndCatchesWrongMasses) {
  const auto& w = test::workload("z_mass");
  const RunResult r = test::runCpu("z_mass", 5000, DType::F32, {}, 3);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  const RunSetup s = test::setupFor("z_mass", 5000, DType::F32, {}, 3);
  const auto inputs = w.makeInputs(s);
  const auto& ref = r.find("cpu-serial")->outputs;
  auto got = ref;
  auto m = got[0].view<float>();
  std::size_t e = 0;
  while (m[e] < 20) ++e;                                    // a pair of high mass (cosh - cos well conditioned)
  m[e] = std::nextafter(std::nextafter(m[e], 1e9f), 1e9f);  // 2 ulp: within the tolerance
  EXPECT_EQ(w.verifyWithInputs(s, inputs, ref, got, w.impls()[1]).outcome, Verification::Outcome::Pass);
  m[e] *= 1.001f;  // 0.1 %: far outside
  Verification v = w.verifyWithInputs(s, inputs, ref, got, w.impls()[1]);
  EXPECT_EQ(v.outcome, Verification::Outcome::Fail);
  EXPECT_EQ(v.firstMismatches.at(0), e);
  got = ref;
  got[0].view<float>()[0] = ref[0].view<float>()[0] < 0 ? 5.0f : -1.0f;  // a pair found where there is none, or lost
  EXPECT_EQ(w.verifyWithInputs(s, inputs, ref, got, w.impls()[1]).outcome, Verification::Outcome::Fail);
  got = ref;
  ++got[1].view<std::uint32_t>()[91];  // a histogram that does not count its own masses
  EXPECT_EQ(w.verifyWithInputs(s, inputs, ref, got, w.impls()[1]).outcome, Verification::Outcome::Fail);
}
