// launchlab-cli instrument: the memory accesses of a built-in kernel (its PTX compiled in) or a student's kernel
// (NVRTC), per source line, and whether the access probes count them. No GPU needed. The lesson kernels' instrumented
// PTX assembles with ptxas: CI assembles the three small modules; LAUNCHLAB_PTX_ALL_ARCHS=1 assembles all nine
// (transpose's or histogram's take ~10 s of ptxas each).
#include "cli_helpers.h"
#include "launchlab/course/nvrtc.h"

namespace launchlab::test {
namespace {

bool builtWithCuda() { return LAUNCHLAB_TEST_HAVE_CUDA; }

TEST(CliInstrument, ABuiltInKernelListsItsAccessesPerSourceLine) {
  const Out r = cli("instrument transpose --impl cuda-tile-padded");
  if (!builtWithCuda()) {
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("a build without CUDA"), std::string::npos) << r.err;
    return;
  }
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("kernel transpose::tileKernel"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("transpose.cu:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("shared 4 B store"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("global 4 B load"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" 0 not counted"), std::string::npos) << r.out;
}

TEST(CliInstrument, TheLessonKernelsInstrumentAndAssemble) {
  if (!builtWithCuda()) GTEST_SKIP() << "a build without CUDA embeds no PTX";
  const fs::path ptxas = LAUNCHLAB_PTXAS_PATH;
  const char* all = std::getenv("LAUNCHLAB_PTX_ALL_ARCHS");
  const bool everything = all && std::string(all) == "1";
  const std::vector<std::pair<std::string, std::string>> lessons = {{"coalescing", "cuda-strided"},
                                                                    {"swap_with_shared", "cuda-shared"},
                                                                    {"matrix_add_2d", "cuda-uncoalesced"},
                                                                    {"row_col_sums", "cuda-thread-per-line"},
                                                                    {"transpose", "cuda-naive"},
                                                                    {"matmul", "cuda-tiled-16"},
                                                                    {"vector_add", "cuda-one-per-thread"},
                                                                    {"reduce_sum", "cuda-tree-sequential"},
                                                                    {"histogram", "cuda-shared-privatized"}};
  for (std::size_t i = 0; i < (everything ? lessons.size() : 3); ++i) {
    const auto& [workload, impl] = lessons[i];
    SCOPED_TRACE(workload);
    const auto out = scratch() / (workload + ".ptx");
    const Out r = cli("instrument " + workload + " --impl " + impl + " --ptx-out '" + out.string() + "'");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(" counted"), std::string::npos) << r.out;
    if (!fs::exists(ptxas)) continue;
    const std::string arch = r.out.substr(r.out.rfind("PTX for ") + 8, 5);
    // Appended rather than "literal" + std::string: GCC 12 warns falsely inside libstdc++ on that form (bug 105329).
    std::string cmd = "'";
    cmd.append(ptxas.string()).append("' -arch=").append(arch).append(" -o /dev/null '").append(out.string()) += "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
}

TEST(CliInstrument, AStudentsKernelIsCompiledWithNvrtcAndListed) {
  if (const std::string why = nvrtcUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
  const Out r = cli("instrument transpose --kernel-file '" + std::string(LAUNCHLAB_KERNELS_DIR) +
                    "/transpose/exercise_solution.cu' --gpu-profile sm_75");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "kernel tile_transpose\n"
            "  exercise_solution.cu:8  global 4 B load       counted\n"
            "  exercise_solution.cu:8  shared 4 B store      counted\n"
            "  exercise_solution.cu:13 global 4 B store      counted\n"
            "  exercise_solution.cu:13 shared 4 B load       counted\n"
            "4 memory accesses, 4 counted, 0 not counted (PTX for sm_75)\n");
}

TEST(CliInstrument, BadInputIsOneLineAndExitTwo) {
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"instrument nope --impl x", "unknown workload nope"},
           {"instrument transpose", "give --impl ID or --kernel-file FILE"},
           {"instrument transpose --impl cpu-serial", "cpu-serial is not a CUDA implementation"},
           {"instrument transpose --impl cuda-nope", "transpose has no implementation cuda-nope"},
           {"instrument square --impl cuda-one-per-thread", "no PTX of square's kernels is compiled in"}}) {
    const Out r = cli(args);
    if (!builtWithCuda() && args.find("square") != std::string::npos) continue;
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace launchlab::test
