// launchlab-cli behaviour: exit codes (0 ok, 1 failed run/verification, 2 bad input with one line on stderr),
// JSON and .npy outputs.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_helpers.h"
#include "launchlab/files/npy.h"

using namespace launchlab::test;
namespace fs = std::filesystem;

TEST(Cli, ListAndInfo) {
  Out l = cli("list");
  EXPECT_EQ(l.code, 0);
  for (const char* w : {"vector_add", "gaussian_pdf", "hypot", "cuda-grid-stride"})
    EXPECT_NE(l.out.find(w), std::string::npos);
  Out lj = cli("list --json");
  ASSERT_EQ(lj.code, 0);
  auto j = nlohmann::json::parse(lj.out);
  EXPECT_EQ(j["schema"], "launchlab.workloads");
  Out i = cli("info");
  EXPECT_EQ(i.code, 0);
  EXPECT_NE(i.out.find("build: "), std::string::npos);
}

TEST(Cli, RunPrintsATableAndExitsZero) {
  Out r = cli("run hypot --n 10K --reps 2");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("cpu-serial"), std::string::npos);
  EXPECT_NE(r.out.find("cpu-parallel"), std::string::npos);
  EXPECT_NE(r.out.find("pass"), std::string::npos);
  EXPECT_NE(r.out.find("n=10K"), std::string::npos);
}

TEST(Cli, BadInputExitsTwoWithOneLine) {
  expectBadInput("run no_such_workload", "unknown workload 'no_such_workload'");
  expectBadInput("run vector_add --impl cuda-nope", "unknown implementation 'cuda-nope'");
  expectBadInput("run vector_add --dtype f16", "unknown dtype 'f16'");
  expectBadInput("run gaussian_pdf --dtype i32", "does not support dtype i32");
  expectBadInput("run vector_add --n 0", "--n");
  expectBadInput("run vector_add --n -5", "--n");
  expectBadInput("run vector_add --n 12abc", "malformed size '12abc'");
  expectBadInput("run vector_add --block 1025", "1025 threads per block > 1024");
  expectBadInput("run vector_add --block 0", "--block");
  expectBadInput("run vector_add --block 16x16", "1D launch");
  expectBadInput("run vector_add --grid 1x70000", "1D launch");
  expectBadInput("run vector_add --grid 3000000000", "3000000000 blocks > 2147483647, the grid limit in x");
  expectBadInput("run vector_add --grid 99999999999", "99999999999 blocks > 2147483647, the grid limit in x");
  expectBadInput("run vector_add --reps x", "reps");
  expectBadInput("run gaussian_pdf --param sigma=0", "sigma");
  expectBadInput("run gaussian_pdf --param colour=red", "unknown parameter 'colour'");
  expectBadInput("run gaussian_pdf --param sigma", "NAME=VALUE");
  expectBadInput("run vector_add --input x=" + data("missing.npy"), "no such file");
  expectBadInput("run vector_add --input x=" + data("not_npy.npy"), "not a NumPy .npy file");
  expectBadInput("run vector_add --input x=" + data("np_x_f32_2d.npy") + " --n 1000", "expected (1000,)");
  expectBadInput("run vector_add --input x=" + data("np_f32_big_endian.npy"), "big-endian");
  expectBadInput("run vector_add --input x=" + data("np_truncated.npy"), "truncated");
  expectBadInput("run vector_add --json /no/such/folder/out.json", "does not exist");
  expectBadInput("frobnicate", "launchlab-cli --help");
  expectBadInput("run vector_add --input x=a.npy --input x=b.npy", "--input x: given twice");
  expectBadInput("run vector_add --seed -1", "--seed: seed must be a whole number from 0 to 18446744073709551615");
  expectBadInput("run vector_add --seed 18446744073709551616", "--seed: seed must be a whole number from 0");
  expectBadInput("run vector_add --warmup 1.5", "--warmup: warmup must be a whole number");
  expectBadInput("run vector_add --n ''", "--n: empty value");
  expectBadInput("run vector_add --dtype ''", "--dtype: empty value");
  expectBadInput("run vector_add --json ''", "--json: empty value");
  expectBadInput("run vector_add --json /proc/out.json", "--json: folder /proc is not writable");
  expectBadInput("run vector_add --json /tmp", "--json: /tmp is a folder");
  expectBadInput("bench --reps 0", "--reps: must be between 1 and 100000");
  expectBadInput("bench --reps 1000000000", "--reps: must be between 1 and 100000");
  expectBadInput("bench --section memory,bogus", "--section: unknown section 'bogus' (known: host, foundation,");
}

TEST(Cli, BenchRunsOnlyTheSectionsAsked) {
  // Without a GPU the host section is the one that measures something; the GPU ones say why they are skipped.
  Out r = cli("bench --quick --section host --json -");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"host_copy_gbs\""), std::string::npos);
  EXPECT_NE(r.out.find("\"sections\""), std::string::npos);
  EXPECT_EQ(r.out.find("\"gpu\""), std::string::npos);  // no GPU section asked, none reported
  Out m = cli("bench --quick --section memory --json -");
  EXPECT_EQ(m.out.find("\"host_copy_gbs\""), std::string::npos);
}

TEST(Cli, LaunchErrorsSuggestNo2DShapeForA1DWorkload) {
  Out r = cli("run vector_add --block abc");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("e.g. 256"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("16x16"), std::string::npos) << r.err;
}

TEST(Cli, ScalarOutputsArePrintedAndInTheJson) {
  Out r = cli("run monte_carlo_pi --n 100K --reps 1 --impl cpu-serial");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("cpu-serial: output pi = 3.1"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("output convergence"), std::string::npos) << r.out;  // a series, not a scalar
  Out j = cli("run reduce_sum --n 10K --reps 1 --impl cpu-serial --json -");
  ASSERT_EQ(j.code, 0) << j.err;
  const auto impl = nlohmann::json::parse(j.out)["implementations"][0];
  ASSERT_TRUE(impl.contains("scalars")) << impl.dump();
  EXPECT_TRUE(impl["scalars"]["sum"].is_number());
  EXPECT_EQ(impl["scalars"].size(), 1u);
}

TEST(Cli, JsonToStdoutIsValidAndComplete) {
  Out r = cli("run vector_add --n 1000 --dtype i32 --reps 2 --json -");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["workload"], "vector_add");
  EXPECT_EQ(j["dtype"], "i32");
  EXPECT_EQ(j["reps"], 2);
  EXPECT_GE(j["implementations"].size(), 2u);
  EXPECT_TRUE(j["all_passed"].get<bool>());
}

TEST(Cli, SaveOutputsWritesNpyThatLoadsBack) {
  const auto dir = scratch() / "saved";
  const auto js = scratch() / "run.json";
  Out r = cli("run vector_add --n 1000 --impl cpu-parallel --reps 1 --input x=" + data("np_x_f32_1000.npy") +
              " --save-outputs " + dir.string() + " --json " + js.string());
  ASSERT_EQ(r.code, 0) << r.err;
  auto x = launchlab::npy::load((dir / "inputs" / "x.npy").string());
  auto y = launchlab::npy::load((dir / "inputs" / "y.npy").string());
  auto out = launchlab::npy::load((dir / "cpu-parallel" / "out.npy").string());
  auto ref = launchlab::npy::load((dir / "cpu-serial" / "out.npy").string());
  ASSERT_EQ(out.size(), 1000u);
  for (std::size_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(x.view<float>()[i], float(i) * 0.25f - 7.0f);  // the loaded input, not a generated one
    ASSERT_EQ(out.view<float>()[i], x.view<float>()[i] + y.view<float>()[i]);
    ASSERT_EQ(ref.view<float>()[i], out.view<float>()[i]);
  }
  EXPECT_EQ(nlohmann::json::parse(slurp(js))["n"], 1000);
}

TEST(Cli, VerificationFailureExitsOne) {
  if (!gpuAvailable()) GTEST_SKIP() << "needs a GPU: a one-thread-per-element grid too small leaves elements unwritten";
  // The course's lesson: 2 blocks of 128 threads for 4096 elements leave 3840 elements unwritten.
  Out r = cli("run vector_add --n 4096 --impl cuda-one-per-thread --grid 2 --block 128 --reps 1");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("3840/4096 mismatches"), std::string::npos) << r.out;
}

TEST(Cli, GpuRowsWhenADeviceIsPresent) {
  Out r = cli("run vector_add --n 1000003 --reps 2");
  EXPECT_EQ(r.code, 0) << r.err;
  if (gpuAvailable()) {
    EXPECT_NE(r.out.find("cuda-vectorized"), std::string::npos);
    EXPECT_EQ(r.out.find("skipped"), std::string::npos) << r.out;
  } else {
    EXPECT_NE(r.out.find("skipped"), std::string::npos) << r.out;
  }
}

TEST(Cli, SweepMeasuresEveryCombinationAndSkipsInvalidOnesWithTheReason) {
  const auto csv = scratch() / "sweep.csv";
  Out r =
      cli("sweep vector_add --impl cpu-parallel --n 1000,2000 --block 64,2048 --reps 1 --csv '" + csv.string() + "'");
  EXPECT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("2048 threads per block > 1024"), std::string::npos) << r.out;
  const std::string text = slurp(csv);
  EXPECT_EQ(text.rfind("n,block,impl,threads,status,", 0), 0u) << text;
  EXPECT_NE(text.find("\n1000,64,cpu-parallel,64,ok,"), std::string::npos) << text;
  EXPECT_NE(text.find("\n2000,2048,cpu-parallel,2048,skipped,"), std::string::npos) << text;
  Out j = cli("sweep vector_add --impl cpu-parallel --n 1000:3000:1000 --reps 1 --json -");
  ASSERT_EQ(j.code, 0) << j.err;
  auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["schema"], "launchlab.sweep");
  EXPECT_EQ(doc["axes"][0]["field"], "n");
  ASSERT_EQ(doc["points"].size(), 3u);
  EXPECT_EQ(doc["points"][2]["at"]["n"], "3000");
  EXPECT_EQ(doc["points"][2]["verification"], "pass");
}

TEST(Cli, SweepBadInputExitsTwo) {
  expectBadInput("sweep vector_add --impl cpu-parallel --n 1000", "give a list or a range");
  expectBadInput("sweep vector_add --impl cpu-parallel --block 64:32:1", "--block: range '64:32:1'");
  expectBadInput("sweep vector_add --impl cuda-nope --block 32,64", "--impl: unknown implementation 'cuda-nope'");
}

// Without a GPU: the default profile, labelled theoretical; an implementation's own kernels; waves and hints.
TEST(Cli, OccupancyWithoutAGpuIsTheoreticalAndBadInputExitsTwo) {
  if (cli("info").out.find("device: none") == std::string::npos) GTEST_SKIP() << "a GPU is present";
  Out o = cli("occupancy vector_add --impl cuda-one-per-thread --block 48,256 --n 1M --dtype f32");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("theoretical (profile sm_90, GPU NVIDIA H100 SXM5)"), std::string::npos);
  EXPECT_NE(o.out.find("vector_add::addOnePerThreadKernel<float>"), std::string::npos);
  EXPECT_EQ(o.out.find("addGridStrideKernel"), std::string::npos);  // the implementation names its kernel
  EXPECT_NE(o.out.find("hint: block of 48 threads is not a multiple of the warp size"), std::string::npos);
  Out p = cli("occupancy vector_add --impl cuda-grid-stride --block 256 --grid sm*1 --gpu-profile sm_86 --json -");
  ASSERT_EQ(p.code, 0) << p.err;
  const auto j = nlohmann::json::parse(p.out);
  EXPECT_EQ(j["schema"], "launchlab.occupancy");
  EXPECT_EQ(j["label"], "theoretical (profile sm_86, GPU NVIDIA GeForce RTX 3090)");
  ASSERT_EQ(j["rows"].size(), 1u);
  EXPECT_EQ(j["rows"][0]["grid_blocks"], 132);  // sm*1 without a GPU: the default profile's 132 SMs
  EXPECT_EQ(j["rows"][0]["blocks_per_sm"], 6);  // 8 warps per block, 48 warp slots on sm_86
  // --json FILE writes that file (a merge once made it create a folder of that name and then refuse it).
  const auto file = scratch() / "occupancy.json";
  std::filesystem::remove_all(file);
  Out f = cli("occupancy vector_add --impl cuda-grid-stride --block 256 --json " + file.string());
  ASSERT_EQ(f.code, 0) << f.err;
  ASSERT_TRUE(std::filesystem::is_regular_file(file));
  std::ifstream in(file);
  EXPECT_EQ(nlohmann::json::parse(in)["schema"], "launchlab.occupancy");
  expectBadInput("occupancy vector_add --impl cuda-grid-stride --gpu-profile sm_70", "unknown profile 'sm_70'");
  expectBadInput("occupancy vector_add --impl cpu-serial --block 32", "not a CUDA implementation");
  expectBadInput("occupancy vector_add --impl cuda-grid-stride --block 2000", "2000 threads per block > 1024");
  expectBadInput("occupancy vector_add --impl cuda-grid-stride --block 32:16:1", "STOP >= START");
  expectBadInput("occupancy vector_add --impl all", "give one CUDA implementation");
}

TEST(Cli, SweepTakesMultiplesOfTheSmCount) {
  Out s = cli("sweep vector_add --impl cpu-serial --n 1000 --grid sm*1,sm*2 --reps 1 --warmup 0 --csv -");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.out.find("\n132,"), std::string::npos);
  EXPECT_NE(s.out.find("\n264,"), std::string::npos);
  expectBadInput("sweep vector_add --grid sm*x", "must look like sm*K");
}
