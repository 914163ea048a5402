// 2-D workloads through the command line: a (rows, cols) .npy in, 2-D .npy out in C order, and 2-D launches
// (--block XxY, --grid auto) reported with how auto chose them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_helpers.h"
#include "launchlab/engine/rng.h"
#include "launchlab/files/npy.h"

using namespace launchlab::test;

TEST(CliMatrix, TwoDimensionalNpyRoundTripsThroughTranspose) {
  launchlab::HostArray a("a", launchlab::DType::F32, {31, 33});
  launchlab::fillUniform(a, -5, 5, 3, 0);
  const auto in = scratch() / "a_31x33.npy";
  launchlab::npy::save(in.string(), a);
  const auto dir = scratch() / "transposed";
  Out r = cli("run transpose --n 31 --param cols=33 --impl cpu-parallel --reps 1 --input a=" + in.string() +
              " --save-outputs " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const auto loaded = launchlab::npy::load((dir / "inputs" / "a.npy").string());
  EXPECT_EQ(loaded.shape(), a.shape());
  EXPECT_TRUE(std::equal(loaded.view<float>().begin(), loaded.view<float>().end(), a.view<float>().begin()));
  for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
    const auto t = launchlab::npy::load((dir / impl / "t.npy").string());
    ASSERT_EQ(t.shape(), (std::vector<std::size_t>{33, 31})) << impl;
    const auto tv = t.view<float>();
    const auto av = a.view<float>();
    for (std::size_t y = 0; y < 31; ++y)
      for (std::size_t x = 0; x < 33; ++x) ASSERT_EQ(tv[x * 31 + y], av[y * 33 + x]) << impl;
  }
}

TEST(CliMatrix, MatmulTakesAAndBAsNpyWithKAndColsAndWritesC) {
  // A (2 x 3) = [1 2 3; 4 5 6], B (3 x 2) = [7 8; 9 10; 11 12]: C = [58 64; 139 154], exact in float32.
  launchlab::HostArray a("A", launchlab::DType::F32, {2, 3}), b("B", launchlab::DType::F32, {3, 2});
  for (std::size_t i = 0; i < 6; ++i) {
    a.view<float>()[i] = float(i + 1);
    b.view<float>()[i] = float(i + 7);
  }
  const auto inA = scratch() / "A_2x3.npy", inB = scratch() / "B_3x2.npy";
  launchlab::npy::save(inA.string(), a);
  launchlab::npy::save(inB.string(), b);
  const auto dir = scratch() / "matmul_out";
  Out r = cli("run matmul --n 2 --param k=3 --param cols=2 --impl cpu-parallel --reps 1 --input A=" + inA.string() +
              " --input B=" + inB.string() + " --save-outputs " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("GFLOP/s"), std::string::npos) << r.out;
  for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
    const auto c = launchlab::npy::load((dir / impl / "C.npy").string());
    ASSERT_EQ(c.shape(), (std::vector<std::size_t>{2, 2})) << impl;
    EXPECT_EQ(std::vector<float>(c.view<float>().begin(), c.view<float>().end()),
              (std::vector<float>{58, 64, 139, 154}))
        << impl;
  }
  // Without k the file's 3 columns do not match the square default.
  Out bad = cli("run matmul --n 2 --param cols=2 --impl cpu-serial --reps 1 --input A=" + inA.string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("expected (2, 2)"), std::string::npos) << bad.err;
}

TEST(CliMatrix, ANonSquareFileWithoutColsNamesTheExpectedShape) {
  launchlab::HostArray a("a", launchlab::DType::F32, {31, 33});
  const auto in = scratch() / "a_31x33_again.npy";
  launchlab::npy::save(in.string(), a);
  Out r = cli("run transpose --n 31 --impl cpu-serial --reps 1 --input a=" + in.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("expected (31, 31)"), std::string::npos) << r.err;
}

TEST(CliMatrix, TwoDimensionalBlockIsParsedAndCheckedAgainstTheLimits) {
  Out ok =
      cli("run matrix_add_2d --n 33 --param cols=31 --block 16x16 --grid auto --impl cpu-serial --reps 1 --json -");
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(nlohmann::json::parse(ok.out)["workload"], "matrix_add_2d");
  Out bad = cli("run matrix_add_2d --n 33 --block 64x32 --impl cpu-serial");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("2048 threads per block > 1024"), std::string::npos) << bad.err;
  Out badGrid = cli("run transpose --n 33 --grid 2x70000 --impl cpu-serial");
  EXPECT_EQ(badGrid.code, 2);
  EXPECT_NE(badGrid.err.find("70000 blocks > 65535, the grid limit in y"), std::string::npos) << badGrid.err;
}

// A relative error is meaningless where the reference is near zero: at 1024^3 Eigen's float sums differ from the
// double reference by 0.3 relative on some tiny element while passing matmul's tolerance (relative to sum |a||b|).
// The table then shows the absolute error instead of "pass (max rel 3.0e-01)", which reads like a bug.
TEST(CliMatrix, APassingRowShowsTheAbsoluteErrorWhereTheRelativeOneIsMeaningless) {
  Out r = cli("run matmul --n 1024 --impl cpu-eigen --reps 1 --warmup 0");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  std::istringstream lines(r.out);
  std::string line;
  bool eigen = false;
  while (std::getline(lines, line)) {
    if (line.rfind("cpu-eigen ", 0) != 0) continue;
    eigen = true;
    EXPECT_NE(line.find("pass (max abs "), std::string::npos) << line;
  }
  EXPECT_TRUE(eigen) << r.out;
}
