// launchlab-cli profile and run --counters without a GPU: the help documents --metrics, an unknown counter is
// refused by name before the GPU is asked, and a machine without a GPU is told so in one line.
#include "cli/cli_helpers.h"

using namespace launchlab::test;

namespace {

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

TEST(CliProfile, HelpDocumentsMetrics) {
  const Out r = cli("profile --help");
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char* word : {"--metrics", "sectors_per_request", "bank_conflicts", "dram_bytes_read", "all", "--json"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  EXPECT_NE(cli("run --help").out.find("--counters"), std::string::npos);
}

TEST(CliProfile, UnknownMetricIsBadInputNamingItAndTheValidOnes) {
  for (const std::string cmd : {"profile coalescing --metrics sectors_per_request,bogus_metric",
                                "run coalescing --counters --metrics bogus_metric"}) {
    const Out r = cli(cmd);
    EXPECT_EQ(r.code, 2) << cmd << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("'bogus_metric'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("sectors_per_request"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("bank_conflicts"), std::string::npos) << r.err;
  }
}

TEST(CliProfile, SweepTakesCountersAndRefusesBadOnesBeforeRunning) {
  EXPECT_NE(cli("sweep --help").out.find("--counters"), std::string::npos);
  for (const std::string cmd : {"sweep coalescing --param stride=1:4:1 --counters=accesses --metrics bogus_metric",
                                "sweep coalescing --param stride=1:4:1 --metrics sectors_per_request,bogus_metric"}) {
    const Out r = cli(cmd);
    EXPECT_EQ(r.code, 2) << cmd << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("--metrics"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("'bogus_metric'"), std::string::npos) << r.err;
  }
  const Out bad = cli("sweep coalescing --param stride=1:4:1 --counters=everything");
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--counters: auto, hardware or accesses"), std::string::npos) << bad.err;
}

TEST(CliProfile, SweepWithCountersWithoutAGpuStillSweepsTheCpu) {
  if (gpuAvailable()) GTEST_SKIP() << "this machine has a GPU";
  const Out r =
      cli("sweep coalescing --impl cpu-serial --n 4096 --param stride=1,2 --reps 1 --counters=accesses "
          "--metrics sectors_per_request --csv -");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("param:stride,impl,threads"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("counter_source"), std::string::npos) << "CPU points have no counters";
}

TEST(CliProfile, BadRunOptionsAreStillBadInput) {
  const Out r = cli("profile coalescing --metrics sectors_per_request --n 0");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--n"), std::string::npos) << r.err;
}

TEST(CliProfile, WithoutAGpuSaysSoInOneLine) {
  if (gpuAvailable()) GTEST_SKIP() << "this machine has a GPU (the GPU suite profiles)";
  const Out r = cli("profile coalescing --metrics sectors_per_request");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_LE(lines(r.out) + lines(r.err), 3) << r.out << r.err;
  EXPECT_NE(r.err.find("GPU"), std::string::npos) << r.err;
}

TEST(CliProfile, RunWithCountersWithoutAGpuStillRunsTheCpu) {
  if (gpuAvailable()) GTEST_SKIP() << "this machine has a GPU";
  const auto json = scratch() / "counters_run.json";
  const Out r = cli("run vector_add --n 4096 --impl cpu-serial --reps 1 --counters --json '" + json.string() + "'");
  EXPECT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(j["schema"], "launchlab.run");
  for (const auto& i : j["implementations"]) EXPECT_FALSE(i.contains("counters")) << "CPU implementations have none";
}

}  // namespace
