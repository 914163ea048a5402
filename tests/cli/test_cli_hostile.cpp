// A hostile-input attack, repeated: what a careless or hostile user got past the CLI and the worker is
// now bad input (one line on stderr, exit 2, before anything runs), and nothing outside the output a user named is
// touched.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "cli/cli_helpers.h"
#include "launchlab/engine/array.h"
#include "launchlab/files/npy.h"

using namespace launchlab::test;

TEST(CliHostile, UnusableOutputPathsAreBadInputBeforeAnythingRuns) {
  const fs::path dir = scratch() / "hostile_out";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // --save-outputs was checked only after the run, and a failure to create its folder exited 1.
  expectBadInput("run vector_add --n 64 --save-outputs /proc/outputs",
                 "--save-outputs: cannot create folder /proc/outputs");
  std::ofstream(dir / "a_file") << "x";
  expectBadInput("run vector_add --n 64 --save-outputs " + (dir / "a_file").string(),
                 "--save-outputs: cannot create folder");
  expectBadInput("run vector_add --n 64 --save-outputs " + (dir / "a_file" / "sub").string(),
                 "--save-outputs: cannot create folder");
  // A device or a pipe as --json was replaced by a regular file (the temporary file renamed over it).
  const fs::path fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expectBadInput("run vector_add --n 64 --json " + fifo.string(), "is not a regular file");
  expectBadInput("sweep vector_add --n 64 --block 32,64 --csv " + fifo.string(), "is not a regular file");
  EXPECT_TRUE(fs::is_fifo(fifo));
  // An input that exists but is no file was reported as "no such file".
  expectBadInput("run vector_add --input x=" + fifo.string(), "not a regular file");
  expectBadInput("run vector_add --input x=" + dir.string(), "not a regular file");
  fs::remove_all(dir);
}

TEST(CliHostile, RunawayCountsAreBadInput) {
  expectBadInput("run vector_add --warmup 1000000000", "--warmup: warmup must be between 0 and 100000");
  expectBadInput("run vector_add --reps 0", "--reps: reps must be between 1 and 100000");
  expectBadInput("sweep vector_add --block 32,64 --reps 1000000000", "--reps: reps must be between 1 and 100000");
  expectBadInput("sweep vector_add --block 1:1000000000:1", "has more than 100000 values");
  expectBadInput("sweep vector_add --n 1:1000000000000:1", "has more than 100000 values");
  // Near the end of the 64-bit range the range used to overflow into an endless loop.
  expectBadInput("sweep vector_add --impl cpu-serial --n 9223372036854775000:9223372036854775807:1000", "is too large");
  expectBadInput("sweep vector_add --impl cpu-serial --grid sm*1:sm*99999999999999999:sm*1", "is too large");
  expectBadInput("bench --reps -1", "--reps: must be between 1 and 100000");
}

TEST(CliHostile, SymbolicLinkOutputsAreWrittenThroughAndKept) {
  const fs::path dir = scratch() / "hostile_link";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_symlink("real.json", dir / "link.json");
  const Out r =
      cli("run vector_add --n 64 --reps 1 --warmup 0 --impl cpu-serial --json " + (dir / "link.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));  // the link stays a link
  EXPECT_NE(slurp(dir / "real.json").find("\"launchlab.run\""), std::string::npos);
  fs::remove_all(dir);
}

// An output that names an input, or another output, destroyed it (the input .npy replaced by JSON, exit 0).
TEST(CliHostile, AnOutputThatNamesAnInputOrAnotherOutputIsRefused) {
  const fs::path dir = scratch() / "hostile_clash";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path x = dir / "x.npy";
  fs::copy_file(data("np_x_f32_1000.npy"), x);
  const std::string before = slurp(x);
  const std::string run = "run vector_add --impl cpu-serial --reps 1 --warmup 0 --input x=" + x.string();
  expectBadInput(run + " --json " + x.string(), "--json: " + x.string() + " is also the input x");
  expectBadInput(run + " --save-run " + (dir / "." / "x.npy").string(), "is also the input x");
  fs::create_symlink("x.npy", dir / "link.npy");
  expectBadInput(run + " --json " + (dir / "link.npy").string(), "is also the input x");
  EXPECT_EQ(slurp(x), before);
  const fs::path same = dir / "same";
  expectBadInput("run vector_add --n 64 --reps 1 --json " + same.string() + " --save-run " + same.string(),
                 "--save-run: " + same.string() + " is also --json");
  expectBadInput("sweep vector_add --n 64 --block 32,64 --json " + same.string() + " --csv " + same.string(),
                 "is also --json");
  EXPECT_FALSE(fs::exists(same));
  fs::remove_all(dir);
}

// --json was written before --save-run: when the run file could not be written, the two disagreed. Now both are
// written or neither (here the run file goes over a file-size limit, which kills the writer midway).
TEST(CliHostile, JsonAndRunFileAreWrittenTogetherOrNotAtAll) {
  const fs::path dir = scratch() / "hostile_pair";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path json = dir / "result.json", run = dir / "run.llrun";
  std::ofstream(json) << "old json\n";
  std::ofstream(run) << "old run\n";
  const std::string cmd = "ulimit -f 256; '" + cliPath() + "' run vector_add --n 1Mi --impl cpu-serial --reps 1 " +
                          "--warmup 0 --json '" + json.string() + "' --save-run '" + run.string() + "' >/dev/null 2>&1";
  const int st = std::system(cmd.c_str());
  EXPECT_NE(st, 0);  // the run file (12 MiB of arrays) cannot be written under 256 KiB
  EXPECT_EQ(slurp(json), "old json\n");
  EXPECT_EQ(slurp(run), "old run\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);  // no temporary left
  fs::remove_all(dir);
}

// A repeated --param silently took the last value (a repeated --input is refused).
TEST(CliHostile, ARepeatedParamIsBadInput) {
  expectBadInput("run gaussian_pdf --param sigma=1 --param sigma=2", "--param sigma: given twice");
}

// 0 was refused with "between 0 and 3600 seconds", which reads as if 0 were allowed.
TEST(CliHostile, TheKernelTimeLimitSaysZeroIsNotAllowed) {
  const std::string file = (scratch() / "limit.cu").string();
  std::ofstream(file) << "__global__ void k() {}\n";
  for (const char* v : {"0", "-1", "3601"})
    expectBadInput("run vector_add --kernel-file " + file + " --kernel-time-limit " + v,
                   "--kernel-time-limit: more than 0 and at most 3600 seconds");
}

TEST(CliHostile, ASizeOrDtypeTakenFromAnInputFileIsBlamedOnThatFile) {
  const fs::path dir = scratch() / "hostile_npy";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string empty = (dir / "empty.npy").string(), wide = (dir / "wide.npy").string();
  launchlab::npy::save(empty, launchlab::HostArray("x", launchlab::DType::F32, {0}));
  launchlab::npy::save(wide, launchlab::HostArray("x", launchlab::DType::I64, {16}));
  // The user gave neither --n nor --dtype: the messages named them all the same.
  expectBadInput("run gaussian_pdf --impl cpu-serial --input x=" + empty,
                 "--input x: n = 0 (from the file's shape) is outside");
  expectBadInput("run gaussian_pdf --impl cpu-serial --input x=" + wide,
                 "--input x: gaussian_pdf does not support dtype i64 (the file's dtype)");
  // Given on the command line, they are still the options' problems.
  expectBadInput("run gaussian_pdf --impl cpu-serial --n 0", "--n: size '0' must be at least 1");
  fs::remove_all(dir);
}
