// Run files from the command line: `run --save-run F.llrun`, then `show F.llrun` prints the same table.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/cli_helpers.h"
#include "fake_devices.h"
#include "launchlab/files/run_file.h"

using namespace launchlab;
using namespace launchlab::test;
namespace fs = std::filesystem;

TEST(CliRunFile, SaveRunThenShowPrintsTheSameTable) {
  const fs::path file = scratch() / "va.llrun";
  const Out run = cli("run vector_add --n 4096 --reps 2 --save-run '" + file.string() + "'");
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.err.find("saved the run to"), std::string::npos) << run.err;
  const Out show = cli("show '" + file.string() + "'");
  ASSERT_EQ(show.code, 0) << show.err;
  ASSERT_GE(show.out.size(), run.out.size());
  EXPECT_EQ(show.out.substr(show.out.size() - run.out.size()), run.out);  // the table `run` printed, unchanged
  EXPECT_EQ(show.out.rfind("recorded on ", 0), 0u) << show.out;

  const RunResult r = runfile::load(file.string());  // the arrays travelled too
  ASSERT_FALSE(r.inputs.empty());
  EXPECT_EQ(r.inputs[0].size(), 4096u);
  ASSERT_NE(r.find("cpu-serial"), nullptr);
  EXPECT_FALSE(r.find("cpu-serial")->outputs.empty());
}

TEST(CliRunFile, ShowNamesTheGpuThatMeasuredTheRunNotThisMachine) {
  const fs::path file = scratch() / "h200.llrun";
  ASSERT_EQ(cli("run vector_add --n 1000 --reps 1 --save-run '" + file.string() + "'").code, 0);
  markRecordedOnH200(file.string());
  const Out show = cli("show '" + file.string() + "'");
  ASSERT_EQ(show.code, 0) << show.err;
  EXPECT_NE(show.out.find("recorded on NVIDIA H200 (driver 13.0), 2026-11-23 09:15 UTC"), std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find("device: NVIDIA H200"), std::string::npos) << show.out;
}

TEST(CliRunFile, BadRunFilesAndPathsAreBadInput) {
  const fs::path junk = scratch() / "junk.llrun";
  std::ofstream(junk) << "not a zip at all";
  expectBadInput("show '" + junk.string() + "'", "not a LaunchLab run file");
  expectBadInput("show '" + (scratch() / "missing.llrun").string() + "'", "no such file");
  expectBadInput("run vector_add --n 1000 --save-run -", "--save-run");
  expectBadInput("run vector_add --n 1000 --save-run /nonexistent-folder/x.llrun", "--save-run");
}

TEST(CliRunFile, ABlockTraceTravelsInTheRunFileAndShowSummarizesIt) {
  const fs::path file = scratch() / "traced.llrun";
  // Without a GPU nothing is traced: --trace-blocks is accepted and the table has no block section.
  const Out run = cli("run vector_add --n 4096 --reps 1 --trace-blocks --save-run '" + file.string() + "'");
  ASSERT_EQ(run.code, 0) << run.err;
  if (!gpuAvailable()) {
    EXPECT_EQ(run.out.find("Blocks on SMs"), std::string::npos) << run.out;
  }
  // A GPU implementation with 4 blocks traced on 2 SMs (2 resident each: one wave), and one GPU row untraced.
  markRecordedOnH200(file.string());
  RunResult r = runfile::load(file.string());
  ImplResult traced = r.impls.front();
  traced.implId = "cuda-one-per-thread";
  traced.gpu = true;
  traced.kernelOccupancy = {{.gridBlocks = 4, .blocksPerSm = 2}};
  traced.blockTrace = {{0, 0, 0, 1000}, {1, 0, 0, 1000}, {2, 1, 0, 1000}, {3, 1, 0, 3000}};
  ImplResult untraced = traced;
  untraced.implId = "cuda-device-inputs";
  untraced.blockTrace.clear();
  // They replace the run's own rows of those ids (skipped without a GPU): a run file lists each id once.
  std::erase_if(r.impls, [&](const ImplResult& i) { return i.implId == traced.implId || i.implId == untraced.implId; });
  r.impls.push_back(traced);
  r.impls.push_back(untraced);
  runfile::save(file.string(), r);
  ASSERT_EQ(runfile::load(file.string()).impls.back().blockTrace.size(), 0u);
  ASSERT_EQ(runfile::load(file.string()).impls[r.impls.size() - 2].blockTrace, traced.blockTrace);

  const Out show = cli("show '" + file.string() + "'");
  ASSERT_EQ(show.code, 0) << show.err;
  const int sms = r.device.info.multiprocessors;
  for (const std::string& line :
       {std::string("  cuda-one-per-thread:\n"),
        "    blocks: 4 on 2 of " + std::to_string(sms) +
            " SMs, 2 to 2 per SM; up to 2 at once on one SM (occupancy: "
            "2 resident)\n",
        std::string("    time: 3.00 us from the first block's start to the last one's end; tail 2.00 us (67%) after "
                    "the first SM ran out of blocks\n"),
        std::string("  cuda-device-inputs: not traced (its kernels are not instrumented)\n")})
    EXPECT_NE(show.out.find(line), std::string::npos) << line << "\n" << show.out;
}
