// Counters measured from the kernel's accesses as a counter profiler (ptx_counters.h's AccessProfiler) and the
// choice between it and CUPTI (profiler/fallback_profiler.h), without a GPU: records in, the catalogue's counters out.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "launchlab/profiler/fallback_profiler.h"
#include "launchlab/ptx/ptx_counters.h"

namespace launchlab {
namespace {

constexpr std::string_view kKernel = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 k_param_0)
{
	.reg .f32 	%f<2>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [k_param_0];
	.loc	1 4 3
	ld.global.f32 	%f1, [%rd1];
	.loc	1 5 3
	st.global.f32 	[%rd1+4], %f1;
	ret;
}
	.file	1 "k.cu"
)";

/// A hardware profiler that is missing or refused, as a test asks.
class FakeHardware : public CounterProfiler {
 public:
  CounterError library, run;
  CounterError libraryProblem() override { return library; }
  void prepare(const std::vector<std::string>&) override {}
  void beforeKernels() override {}
  void afterKernels() override {}
  RawCounters finish() override {
    RawCounters r;
    r.error = run;
    return r;
  }
};

TEST(AccessProfiler, RecordsBecomeTheCataloguesCounters) {
  ptx::AccessProfiler p;
  const std::vector<std::string> ids = {"sectors_per_request", "store_sectors_per_request", "dram_bytes"};
  p.prepare(hardwareMetricsFor(ids));
  ASSERT_NE(ptx::accessProbesOf(&p), nullptr);
  const auto& inst = p.instrument(kKernel);
  ASSERT_EQ(inst.records, 2);
  std::vector<std::uint64_t> rec(2 * ptx::kRecordFields, 0);
  rec[ptx::kExecutions] = rec[ptx::kGlobalRequests] = 8, rec[ptx::kSectors] = 256, rec[ptx::kLanes] = 256;
  rec[8 + ptx::kExecutions] = rec[8 + ptx::kGlobalRequests] = 8, rec[8 + ptx::kSectors] = 32;
  rec[8 + ptx::kLanes] = 256;
  p.addRecords(rec);
  const auto c = deriveCounters(ids, p.finish(), 0);
  ASSERT_TRUE(c.error.ok()) << counterErrorMessage(c.error);
  EXPECT_DOUBLE_EQ(c.values.at("sectors_per_request"), 32.0);
  EXPECT_DOUBLE_EQ(c.values.at("store_sectors_per_request"), 4.0);
  EXPECT_EQ(c.values.count("dram_bytes"), 0u);
  EXPECT_NE(c.unavailable.at("dram_bytes").find(ptx::kAccessSource), std::string::npos);
  ASSERT_EQ(p.lines().size(), 1u);
  ASSERT_EQ(p.lines()[0].size(), 2u);
  EXPECT_EQ(p.lines()[0][0].rfind("line 4: each warp's load touches 32.0 sectors", 0), 0u) << p.lines()[0][0];
}

TEST(AccessProfiler, EachLineCarriesItsGlobalRequestsAndItsIdeal) {
  ptx::AccessProfiler p;
  p.prepare(hardwareMetricsFor({"sectors_per_request"}));
  ASSERT_EQ(p.instrument(kKernel).records, 2);
  std::vector<std::uint64_t> rec(2 * ptx::kRecordFields, 0);
  rec[ptx::kExecutions] = rec[ptx::kGlobalRequests] = 8, rec[ptx::kSectors] = 256, rec[ptx::kLanes] = 256;
  p.addRecords(rec);
  const RawCounters raw = p.finish();
  ASSERT_FALSE(raw.lines.empty());
  const CounterLine& l = raw.lines.front();
  EXPECT_EQ(l.line, 4);
  EXPECT_DOUBLE_EQ(l.values.at("global_requests"), 8.0);
  EXPECT_DOUBLE_EQ(l.values.at("sectors_per_request"), 32.0);
  EXPECT_DOUBLE_EQ(l.values.at("ideal_sectors_per_request"), 4.0);
}

TEST(AccessProfiler, ACompiledInKernelIsNotMeasuredAndSaysWhy) {
  ptx::AccessProfiler p;
  p.prepare({});
  const auto raw = p.finish();
  EXPECT_EQ(raw.error.kind, CounterErrorKind::Unsupported);
  EXPECT_NE(raw.error.detail.find("instrument"), std::string::npos);
}

constexpr std::string_view kTwoKernels = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry _Z4loadPf(.param .u64 p)
{
	.reg .f32 	%f<2>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [p];
	.loc	1 4 3
	ld.global.f32 	%f1, [%rd1];
	ret;
}
.visible .entry _Z5storePf(.param .u64 p)
{
	.reg .f32 	%f<2>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [p];
	.loc	1 9 3
	st.global.f32 	[%rd1], %f1;
	ret;
}
	.file	1 "k.cu"
)";

/// What a built-in implementation's launches leave in the session: its records, and whether it was unloaded.
class FakeModule : public ptx::ProbeModule {
 public:
  FakeModule(std::vector<std::uint64_t> records, bool& unloaded)
      : m_records(std::move(records)), m_unloaded(unloaded) {}
  ~FakeModule() override { m_unloaded = true; }
  std::vector<std::uint64_t> records() override { return m_records; }

 private:
  std::vector<std::uint64_t> m_records;
  bool& m_unloaded;
};

TEST(AccessProfiler, BuiltInKernelsAreMeasuredOnePerKernelLaunchedFromTheRunsModule) {
  ptx::AccessProfiler p;
  const std::vector<std::string> ids = {"sectors_per_request", "store_sectors_per_request"};
  for (int run = 0; run < 2; ++run) {  // a sweep: the same module, instrumented once, records fresh each run
    p.prepare(hardwareMetricsFor(ids));
    const auto& inst = p.instrument(kTwoKernels);
    ASSERT_EQ(inst.records, 2);
    std::vector<std::uint64_t> rec(2 * ptx::kRecordFields, 0);
    rec[ptx::kExecutions] = rec[ptx::kGlobalRequests] = 8, rec[ptx::kSectors] = 32, rec[ptx::kLanes] = 256;
    bool unloaded = false;
    p.keepRunModule(std::make_unique<FakeModule>(rec, unloaded));
    ASSERT_NE(p.runModule(), nullptr);
    p.launched("_Z4loadPf");
    p.launched("_Z4loadPf");
    const RawCounters raw = p.finish();
    EXPECT_TRUE(unloaded);
    EXPECT_EQ(p.runModule(), nullptr);
    EXPECT_EQ(raw.source, ptx::kAccessSource);
    ASSERT_EQ(raw.ranges.size(), 1u);
    EXPECT_EQ(raw.ranges[0].kernel, "load");
    const auto c = deriveCounters(ids, raw, 0);
    ASSERT_TRUE(c.error.ok()) << counterErrorMessage(c.error);
    EXPECT_DOUBLE_EQ(c.values.at("sectors_per_request"), 4.0);   // run 2 does not add run 1's records
    EXPECT_EQ(c.values.count("store_sectors_per_request"), 0u);  // the store's kernel did not run
    EXPECT_EQ(c.source, ptx::kAccessSource);
    ASSERT_EQ(p.lines().back().size(), 1u);  // only the lines of the kernels launched
    EXPECT_EQ(p.lines().back()[0].rfind("line 4:", 0), 0u) << p.lines().back()[0];
  }
}

TEST(FallbackProfiler, UsesTheAccessesWhereCountersAreForAdministratorsOrMissingOrAsked) {
  auto hw = std::make_shared<FakeHardware>();
  using profiler::CounterSource;
  profiler::FallbackProfiler allowed(hw, CounterSource::Auto, false);
  EXPECT_TRUE(allowed.libraryProblem().ok());
  EXPECT_EQ(ptx::accessProbesOf(&allowed), nullptr);
  EXPECT_EQ(allowed.sourceNote(), ptx::kHardwareSource);

  profiler::FallbackProfiler restricted(hw, CounterSource::Auto, true);
  EXPECT_NE(ptx::accessProbesOf(&restricted), nullptr);
  EXPECT_NE(restricted.sourceNote().find("only administrators"), std::string::npos);
  restricted.prepare({});
  const RawCounters measured = restricted.finish();  // every result says where its figures come from, and why
  EXPECT_EQ(measured.source, ptx::kAccessSource);
  EXPECT_NE(measured.sourceReason.find("only administrators"), std::string::npos);
  allowed.prepare({});
  EXPECT_EQ(allowed.finish().source, ptx::kHardwareSource);

  profiler::FallbackProfiler forcedHardware(hw, CounterSource::Hardware, true);
  EXPECT_EQ(ptx::accessProbesOf(&forcedHardware), nullptr);
  EXPECT_TRUE(profiler::FallbackProfiler(hw, CounterSource::Accesses, false).probing());

  hw->library = {CounterErrorKind::LibraryMissing, "libcupti.so.13"};
  profiler::FallbackProfiler missing(hw, CounterSource::Auto, false);
  EXPECT_TRUE(missing.libraryProblem().ok());
  EXPECT_TRUE(missing.probing());
  profiler::FallbackProfiler missingAsked(hw, CounterSource::Hardware, false);
  EXPECT_EQ(missingAsked.libraryProblem().kind, CounterErrorKind::LibraryMissing);

  hw->library = {};
  hw->run = {CounterErrorKind::NotPermitted, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"};
  profiler::FallbackProfiler refused(hw, CounterSource::Auto, false);
  refused.prepare({});
  EXPECT_EQ(refused.finish().error.kind, CounterErrorKind::NotPermitted);
  EXPECT_TRUE(refused.probing());  // the next implementation is measured from its accesses
}

TEST(FallbackProfiler, ReadsTheDriversProfilingSetting) {
  const auto file = std::filesystem::temp_directory_path() / ("launchlab_params_" + std::to_string(::getpid()));
  std::ofstream(file) << "ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: 1\nRmLogonRC: 1\n";
  EXPECT_EQ(profiler::profilingRestrictedToAdmins(file.string()), ::geteuid() != 0);
  std::ofstream(file) << "RmProfilingAdminOnly: 0\n";
  EXPECT_FALSE(profiler::profilingRestrictedToAdmins(file.string()));
  std::filesystem::remove(file);
  EXPECT_FALSE(profiler::profilingRestrictedToAdmins(file.string()));
  EXPECT_EQ(profiler::parseCounterSource("accesses"), profiler::CounterSource::Accesses);
  EXPECT_EQ(profiler::parseCounterSource("nope"), std::nullopt);
}

}  // namespace
}  // namespace launchlab
