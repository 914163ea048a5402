// Hardware counters without a GPU: the catalogue, the --metrics list, the arithmetic from hardware metrics to a
// counter (per kernel and per implementation), the messages, the request's trip over the worker's wire, the
// engine's check of counter ids, and loading CUPTI where a library is missing.
#include <gtest/gtest.h>

#include <set>

#include "launchlab/engine/counters.h"
#include "launchlab/engine/engine.h"
#include "launchlab/kernels.h"
#include "launchlab/profiler/cupti_profiler.h"
#include "launchlab/worker/wire.h"

using namespace launchlab;

namespace {

constexpr const char* kLdSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kLdRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kDuration = "gpu__time_duration.sum";

TEST(Counters, CatalogueHasEveryLessonsCounterWithMeaningAndUnit) {
  std::set<std::string> ids;
  for (const auto& c : counterCatalogue()) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate " << c.id;
    EXPECT_FALSE(c.meaning.empty()) << c.id;
    EXPECT_EQ(c.meaning.find('\n'), std::string::npos) << c.id << ": a meaning is one line";
    EXPECT_FALSE(c.unit.empty()) << c.id;
    EXPECT_FALSE(c.numerator.empty()) << c.id;
    EXPECT_EQ(c.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_"), std::string::npos) << c.id;
  }
  for (const char* id :
       {"sectors_per_request", "store_sectors_per_request", "global_load_efficiency", "l1_hit_rate", "l2_hit_rate",
        "dram_bytes_read", "dram_bytes_written", "dram_bytes", "bank_conflicts", "bank_conflicts_ld",
        "bank_conflicts_st", "shared_wavefronts_per_request", "achieved_occupancy", "theoretical_occupancy",
        "warp_execution_efficiency", "eligible_warps_per_cycle", "instructions", "bandwidth_pct_of_memcpy"})
    EXPECT_NE(findCounter(id), nullptr) << id;
  for (const auto& id : defaultCounters()) EXPECT_NE(findCounter(id), nullptr) << id;
  EXPECT_EQ(findCounter("sectors"), nullptr);
}

TEST(Counters, HardwareMetricsAreListedOnceWithTheirWeights) {
  const auto m = hardwareMetricsFor({"sectors_per_request", "dram_bytes", "dram_bytes_read", "achieved_occupancy"});
  EXPECT_EQ(m, (std::vector<std::string>{kLdSectors, kLdRequests, "dram__bytes_read.sum", "dram__bytes_write.sum",
                                         "sm__warps_active.avg.pct_of_peak_sustained_active", kDuration}));
}

TEST(Counters, ListParsesAllDuplicatesAndRefusesUnknownByName) {
  EXPECT_EQ(parseCounterList("all").ids.size(), counterCatalogue().size());
  const CounterList two = parseCounterList("bank_conflicts,sectors_per_request,bank_conflicts");
  EXPECT_TRUE(two.error.ok());
  EXPECT_EQ(two.ids, (std::vector<std::string>{"bank_conflicts", "sectors_per_request"}));
  for (const char* bad : {"sectors_per_request,bogus", "", "sectors_per_request,", "ALL"}) {
    const CounterList l = parseCounterList(bad);
    EXPECT_EQ(l.error.kind, CounterErrorKind::UnknownMetric) << bad;
    EXPECT_TRUE(l.ids.empty()) << bad;
  }
  const std::string msg = counterErrorMessage(parseCounterList("sectors_per_request,bogus").error);
  EXPECT_NE(msg.find("'bogus'"), std::string::npos) << msg;
  for (const auto& c : counterCatalogue()) EXPECT_NE(msg.find(c.id), std::string::npos) << c.id;
  EXPECT_EQ(msg.find('\n'), std::string::npos);
  for (const auto& c : counterCatalogue()) EXPECT_NE(counterListHelp().find(c.id + " ("), std::string::npos);
}

TEST(Counters, MessagesAreOneLineAndSayTheFix) {
  const std::string perm = counterErrorMessage({CounterErrorKind::NotPermitted, "cuptiRangeProfilerEnable"});
  EXPECT_NE(perm.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << perm;
  EXPECT_NE(perm.find("root"), std::string::npos) << perm;
  const std::string lib = counterErrorMessage({CounterErrorKind::LibraryMissing, "libnvperf_host.so"});
  EXPECT_NE(lib.find("libnvperf_host.so"), std::string::npos) << lib;
  const std::string gpu = counterErrorMessage({CounterErrorKind::NoDevice, "no CUDA driver"});
  EXPECT_NE(gpu.find("no CUDA driver"), std::string::npos) << gpu;
  for (const auto& m : {perm, lib, gpu}) EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  for (auto k : {CounterErrorKind::None, CounterErrorKind::NoDevice, CounterErrorKind::LibraryMissing,
                 CounterErrorKind::NotPermitted, CounterErrorKind::UnknownMetric, CounterErrorKind::Unsupported,
                 CounterErrorKind::Failed})
    EXPECT_EQ(parseCounterErrorKind(counterErrorKindName(k)), k);
  EXPECT_FALSE(parseCounterErrorKind("nope").has_value());
}

RawRange range(const std::string& kernel, std::map<std::string, double> m) { return {kernel, std::move(m)}; }

TEST(Counters, ImplementationValuesCombineKernelsAsTheCatalogueSays) {
  RawCounters raw;
  raw.passes = 3;
  raw.profileMs = 12.5;
  // Two launches of a coalesced copy (4 sectors per request) and one strided (32): the implementation's value is
  // all its sectors over all its requests, not the mean of the kernels' ratios.
  const std::string occ = "sm__warps_active.avg.pct_of_peak_sustained_active";
  raw.ranges = {range("copy", {{kLdSectors, 400}, {kLdRequests, 100}, {occ, 50}, {kDuration, 1000}}),
                range("copy", {{kLdSectors, 400}, {kLdRequests, 100}, {occ, 50}, {kDuration, 1000}}),
                range("strided", {{kLdSectors, 3200}, {kLdRequests, 100}, {occ, 80}, {kDuration, 8000}})};
  const ImplCounters c = deriveCounters({"sectors_per_request", "achieved_occupancy"}, raw, 0);
  ASSERT_TRUE(c.error.ok());
  EXPECT_EQ(c.passes, 3);
  EXPECT_DOUBLE_EQ(c.profileMs, 12.5);
  ASSERT_EQ(c.kernels.size(), 2u);
  EXPECT_EQ(c.kernels[0].kernel, "copy");
  EXPECT_EQ(c.kernels[0].launches, 2);
  EXPECT_DOUBLE_EQ(c.kernels[0].values.at("sectors_per_request"), 4.0);
  EXPECT_DOUBLE_EQ(c.kernels[1].values.at("sectors_per_request"), 32.0);
  EXPECT_DOUBLE_EQ(c.values.at("sectors_per_request"), 4000.0 / 300.0);
  // Occupancy is a per-launch percentage: averaged over launches and kernels with their durations as weights.
  EXPECT_DOUBLE_EQ(c.kernels[0].values.at("achieved_occupancy"), 50.0);
  EXPECT_DOUBLE_EQ(c.kernels[1].values.at("achieved_occupancy"), 80.0);
  EXPECT_DOUBLE_EQ(c.values.at("achieved_occupancy"), (50.0 * 2000 + 80.0 * 8000) / 10000);
}

TEST(Counters, BandwidthNeedsTheMemcpyCeilingAndMissingMetricsAreNamed) {
  RawCounters raw;
  raw.ranges = {range("k", {{"dram__bytes_read.sum", 3e6}, {"dram__bytes_write.sum", 1e6}, {kDuration, 2000}})};
  raw.unsupportedMetrics = {{kLdSectors, "unknown metric"}};
  const ImplCounters c = deriveCounters({"bandwidth_pct_of_memcpy", "dram_bytes", "sectors_per_request"}, raw, 4000);
  // 4e6 bytes in 2000 ns = 2000 GB/s, half of a 4000 GB/s ceiling.
  EXPECT_DOUBLE_EQ(c.values.at("bandwidth_pct_of_memcpy"), 50.0);
  EXPECT_DOUBLE_EQ(c.values.at("dram_bytes"), 4e6);
  EXPECT_EQ(c.values.count("sectors_per_request"), 0u);
  EXPECT_NE(c.unavailable.at("sectors_per_request").find(kLdSectors), std::string::npos);
  const ImplCounters noCeiling = deriveCounters({"bandwidth_pct_of_memcpy"}, raw, 0);
  EXPECT_EQ(noCeiling.values.count("bandwidth_pct_of_memcpy"), 0u);
  EXPECT_NE(noCeiling.unavailable.at("bandwidth_pct_of_memcpy").find("cudaMemcpy"), std::string::npos);
}

TEST(Counters, AFailedProfileKeepsItsErrorAndNoValues) {
  RawCounters raw;
  raw.error = {CounterErrorKind::NotPermitted, "cuptiRangeProfilerEnable"};
  raw.ranges = {range("k", {{"dram__bytes_read.sum", 1}})};
  const ImplCounters c = deriveCounters({"dram_bytes_read"}, raw, 0);
  EXPECT_EQ(c.error, raw.error);
  EXPECT_TRUE(c.values.empty());
  EXPECT_TRUE(c.kernels.empty());
}

TEST(Counters, FormatsValuesForTables) {
  EXPECT_EQ(formatCounter(*findCounter("sectors_per_request"), 4), "4.00");
  EXPECT_EQ(formatCounter(*findCounter("bank_conflicts"), 16.4e6), "16.4 M");
  EXPECT_EQ(formatCounter(*findCounter("dram_bytes_read"), 950), "950");
  EXPECT_EQ(formatCounter(*findCounter("achieved_occupancy"), 81.25), "81.2");
}

TEST(Counters, RequestCarriesItsCountersOverTheWire) {
  RunRequest r;
  r.workload = "coalescing";
  r.counters = {"sectors_per_request", "dram_bytes"};
  EXPECT_EQ(wire::decodeRequest(wire::encodeRequest(r)).counters, r.counters);
  EXPECT_TRUE(wire::decodeRequest(wire::encodeRequest(RunRequest{})).counters.empty());
}

TEST(Counters, EngineRefusesAnUnknownCounterBeforeRunning) {
  Registry registry;
  kernels::registerAllWorkloads(registry);
  Engine engine(registry, makeUnavailableGpuRuntime("no CUDA device in this test"));
  RunRequest r;
  r.workload = "coalescing";
  r.counters = {"sectors_per_request", "bogus"};
  const auto problems = engine.validate(r);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].field, "metrics");
  EXPECT_NE(problems[0].message.find("'bogus'"), std::string::npos);
  r.counters = {"sectors_per_request"};
  EXPECT_TRUE(engine.validate(r).empty());
}

TEST(Profiler, NamesTheMissingLibrary) {
  profiler::CuptiLibraryNames names;
  names.nvperfHost = "libnvperf_host_absent_for_a_test.so";
  EXPECT_EQ(profiler::loadCuptiLibraries(names),
            (CounterError{CounterErrorKind::LibraryMissing, "libnvperf_host_absent_for_a_test.so"}));
  // The C library stands in for the two libnvperf libraries (present everywhere), so the missing one is libcupti.
  names = {"libcupti_absent_for_a_test.so.13", "libc.so.6", "libc.so.6"};
  auto p = profiler::makeCuptiProfiler(names);
  const CounterError e = p->libraryProblem();
#if LAUNCHLAB_TEST_HAVE_CUDA
  EXPECT_EQ(e.kind, CounterErrorKind::LibraryMissing);
  EXPECT_NE(counterErrorMessage(e).find("libcupti_absent_for_a_test.so.13"), std::string::npos);
#else
  EXPECT_TRUE(e.ok());  // a build without CUDA never loads CUPTI: its profiles report NoDevice
#endif
}

TEST(Profiler, KernelNamesReadAsStudentsWroteThem) {
  EXPECT_EQ(profiler::kernelLabel("_ZN9launchlab7kernels10coalescing10copyKernelEPKfPfi"), "coalescing::copyKernel");
  EXPECT_EQ(profiler::kernelLabel("void launchlab::kernels::transpose::tiled<float, true>(float const*, float*, int)"),
            "transpose::tiled<float, true>");
  EXPECT_EQ(profiler::kernelLabel("cutlass_80_sgemm"), "cutlass_80_sgemm");
}

}  // namespace
