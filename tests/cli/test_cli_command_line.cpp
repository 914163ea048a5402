// "Copy as command" round trip: the line runCommandLine writes, given to the real launchlab-cli through a shell with
// --dry-run, is parsed and validated by the CLI's own parser and printed back unchanged; and sweep --json files carry
// when they were measured and read back.
#include "cli_helpers.h"
#include "launchlab/explorer/sweep.h"
#include "launchlab/files/command_line.h"

using namespace launchlab;
using namespace launchlab::test;

namespace {
/// The line with its program replaced by the built CLI, run through sh, with --dry-run.
Out dryRun(const std::string& line) {
  const std::string prefix = "launchlab-cli ";
  EXPECT_EQ(line.rfind(prefix, 0), 0u);
  return cli(line.substr(prefix.size()) + " --dry-run");
}
}  // namespace

TEST(CliCommandLine, TheCopiedCommandParsesBackToTheSameRequest) {
  RunRequest r;
  r.workload = "vector_add";
  r.n = 5000;
  r.dtype = DType::F64;
  r.launch.block = Dim3{128, 1, 1};
  r.launch.grid = Dim3{40, 1, 1};
  r.impls = {"cpu-parallel", "cuda-grid-stride"};
  r.reps = 3;
  r.warmup = 0;
  r.seed = 11;
  const std::string line = runCommandLine(r);
  const Out o = dryRun(line);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, line + "\n");
  // Defaults written out: the line of a bare request is a fixed point too.
  RunRequest bare;
  bare.workload = "vector_add";
  EXPECT_EQ(dryRun(runCommandLine(bare)).out, "launchlab-cli run vector_add --reps 5 --warmup 1 --seed 42\n");
}

TEST(CliCommandLine, ParametersWithShellCharactersSurviveTheShell) {
  RunRequest r;
  r.workload = "mandelbrot";
  r.params = {{"cap", "64"}};
  r.impls = {"cpu-serial"};
  const Out o = dryRun(runCommandLine(r));
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, runCommandLine(r) + "\n");
  // A bad value is the parser's one-line bad input, not a shell accident.
  r.params = {{"cap", "6 4; echo pwned"}};
  const Out bad = dryRun(runCommandLine(r));
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.out.find("pwned"), std::string::npos);
}

TEST(CliCommandLine, SweepJsonSaysWhenItWasMeasuredAndReadsBack) {
  const auto f = scratch() / "sweep_cells.json";
  const Out o =
      cli("sweep vector_add --n 4096 --reps 1 --warmup 0 --impl cpu-serial --block 64,128 --grid 8,16 --json '" +
          f.string() + "'");
  ASSERT_EQ(o.code, 0) << o.err;
  std::string err;
  const auto d = loadSweepFile(f.string(), &err);
  ASSERT_TRUE(d) << err;
  EXPECT_EQ(d->axes.size(), 2u);
  EXPECT_EQ(d->points.size(), 4u);
  EXPECT_EQ(d->record.timestamp.size(), 20u);  // 2026-11-24T01:02:03Z
  if (gpuAvailable())
    EXPECT_GT(d->record.copyGBs, 0);  // the cudaMemcpy ceiling, measured with the sweep
  else
    EXPECT_EQ(d->record.copyGBs, 0);
}
