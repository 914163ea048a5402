// launchlab-cli check: bad input is exit 2 with one line; without compute-sanitizer (or a GPU) one line saying
// which, exit 1. The check itself runs on the GPU machine (docs/EXERCISES.md, "Check").
#include "cli_helpers.h"

namespace launchlab::test {
namespace {

const std::string kSolution = std::string(LAUNCHLAB_KERNELS_DIR) + "/vector_add/exercise_solution.cu";

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

TEST(CliCheck, WithoutSanitizerOneLineExit1) {
  const Out s = [] {
    ::setenv("LAUNCHLAB_COMPUTE_SANITIZER", "/nonexistent/compute-sanitizer", 1);
    Out o = cli("check vector_add --kernel-file '" + kSolution + "'");
    ::unsetenv("LAUNCHLAB_COMPUTE_SANITIZER");
    return o;
  }();
  EXPECT_EQ(s.code, 1) << s.err;
  EXPECT_EQ(lines(s.err), 1) << s.err;
  EXPECT_NE(s.err.find("launchlab-cli: check: compute-sanitizer not found at /nonexistent/compute-sanitizer"),
            std::string::npos)
      << s.err;
  EXPECT_EQ(s.out, "");
  if (!gpuAvailable()) {
    EXPECT_NE(s.err.find("; no GPU: "), std::string::npos) << s.err;
  }
}

TEST(CliCheck, BadInputExit2) {
  const fs::path bin = scratch() / "binary.cu";
  std::ofstream(bin, std::ios::binary) << std::string(
      "\x7f"
      "ELF\0\0\0\x01\x02",
      9);
  for (const std::string& args :
       {"check vector_add --kernel-file '" + bin.string() + "'",
        std::string("check vector_add --kernel-file /nonexistent.cu"),
        "check no_such_workload --kernel-file '" + kSolution + "'", std::string("check vector_add"),
        "check vector_add --time-limit 0 --kernel-file '" + kSolution + "'",
        "check vector_add --time-limit 4000 --kernel-file '" + kSolution + "'",
        "check monte_carlo_pi --param iters=0 --kernel-file '" + kSolution + "'",
        "check monte_carlo_pi --param shape=bogus --kernel-file '" + kSolution + "'"}) {
    SCOPED_TRACE(args);
    const Out r = cli(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
  }
}

}  // namespace
}  // namespace launchlab::test
