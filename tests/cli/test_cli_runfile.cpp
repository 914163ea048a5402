// Run files from the command line: `run --save-run F.llrun`, then `show F.llrun` prints the same table.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/cli_helpers.h"
#include "fake_devices.h"
#include "launchlab/io/run_file.h"

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
  EXPECT_NE(show.out.find("recorded on NVIDIA H200 (driver 13.0), 2026-11-23 09:15 UTC"), std::string::npos) << show.out;
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
