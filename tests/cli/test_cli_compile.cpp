// launchlab-cli compile (and run --kernel-file's checks): every starting file and reference solution compiles; bad
// kernel files give exit 2 and one clear line. NVRTC needs no GPU; without libnvrtc the tests skip, saying so.
#include "cli_helpers.h"
#include "launchlab/course/exercise.h"
#include "launchlab/course/nvrtc.h"

namespace launchlab::test {
namespace {

#define SKIP_WITHOUT_NVRTC() \
  if (const std::string why = nvrtcUnavailableReason(); !why.empty()) GTEST_SKIP() << why;

fs::path writeKernel(const std::string& name, const std::string& text) {
  const fs::path p = scratch() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string compileArgs(const Exercise& ex, const fs::path& file) {
  return "compile " + ex.workload + " --exercise " + ex.id + " --kernel-file '" + file.string() + "'";
}

TEST(CliCompile, EveryStartingFileAndSolutionCompiles) {
  SKIP_WITHOUT_NVRTC();
  for (const auto& ex : exercises()) {
    for (const bool solution : {false, true}) {
      const fs::path file = fs::path(kKernels) / exerciseFile(ex, solution);
      SCOPED_TRACE(file.string());
      ASSERT_TRUE(fs::exists(file));
      const Out r = cli(compileArgs(ex, file) + " --gpu-profile sm_80");
      EXPECT_EQ(r.code, 0) << r.out << r.err;
      EXPECT_NE(r.out.find("compiled " + file.string() + " for sm_80: " + kernelDeclaration(ex, ex.kernelName)),
                std::string::npos)
          << r.out;
      // The starting file states its contract.
      if (!solution) {
        EXPECT_NE(slurp(file).find(kernelDeclaration(ex, ex.kernelName)), std::string::npos);
      }
      // The programs carry the same text (compiled in): the window's editor shows what the folder holds.
      EXPECT_EQ(slurp(file), exerciseText(ex, solution));
    }
  }
}

TEST(CliCompile, SyntaxErrorPrintsFileLineColumn) {
  SKIP_WITHOUT_NVRTC();
  const auto f =
      writeKernel("syntax.cu",
                  "__global__ void vector_add(const float* x, const float* y, float* out, unsigned long long n) {\n"
                  "  unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x\n"
                  "  if (i < n) out[i] = x[i] + y[i];\n"
                  "}\n");
  const Out r = cli("compile vector_add --kernel-file '" + f.string() + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(f.string() + ":3:3: error: expected a \";\""), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "launchlab-cli: " + f.string() + " does not compile for sm_90 (1 error)\n");
}

TEST(CliCompile, WrongSignatureAndMissingKernel) {
  SKIP_WITHOUT_NVRTC();
  const auto wrong =
      writeKernel("wrong.cu", "__global__ void vector_add(const float* x, const float* y, float* out, int n) {}\n");
  Out r = cli("compile vector_add --kernel-file '" + wrong.string() + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, wrong.string() +
                       ":1:1: error: wrong kernel signature: the exercise expects __global__ void "
                       "vector_add(const float* x, const float* y, float* out, unsigned long long n)\n");
  const auto other = writeKernel(
      "other.cu", "__global__ void add(const float* x, const float* y, float* out, unsigned long long n) {}\n");
  r = cli("compile vector_add --kernel-file '" + other.string() + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("error: no kernel named 'vector_add'"), std::string::npos) << r.out;
  // --kernel-name picks the student's name (and extern "C" is fine).
  const auto named = writeKernel(
      "named.cu",
      "extern \"C\" __global__ void add(const float* x, const float* y, float* out, unsigned long long n) {}\n");
  r = cli("compile vector_add --kernel-name add --kernel-file '" + named.string() + "'");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(add, "), std::string::npos) << r.out;
}

// A 2-D exercise's sizes are unsigned long long rows, cols: int sizes (or the 1-D n alone) are the wrong signature.
TEST(CliCompile, WrongSignatureOfA2DExercise) {
  SKIP_WITHOUT_NVRTC();
  const std::string want =
      "error: wrong kernel signature: the exercise expects __global__ void tile_transpose(const "
      "float* a, float* transposed, unsigned long long rows, unsigned long long cols)\n";
  for (const std::string sizes : {"int rows, int cols", "unsigned long long n"}) {
    const auto f =
        writeKernel("t2d.cu", "__global__ void tile_transpose(const float* a, float* transposed, " + sizes + ") {}\n");
    const Out r = cli("compile transpose --kernel-file '" + f.string() + "'");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, f.string() + ":1:1: " + want);
  }
}

TEST(CliCompile, HostHeaderIsOneClearError) {
  SKIP_WITHOUT_NVRTC();
  for (const std::string header : {"vector", "iostream"}) {
    const auto f = writeKernel("host_" + header + ".cu", "#include <" + header +
                                                             ">\n__global__ void vector_add(const float* x, "
                                                             "const float* y, float* out, unsigned long long n) {}\n");
    const Out r = cli("compile vector_add --kernel-file '" + f.string() + "'");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find(f.string() + ":1:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("could not open source file \"" + header + "\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("host headers"), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(CliCompile, EmptyGarbageAndMissingFilesAreRefusedUpFront) {
  // These never reach NVRTC: they work without it.
  const auto empty = writeKernel("empty.cu", "\n  \n");
  expectBadInput("compile vector_add --kernel-file '" + empty.string() + "'",
                 "--kernel-file: the kernel file is empty");
  std::string garbage(1 << 20, '\0');
  for (std::size_t i = 0; i < garbage.size(); ++i) garbage[i] = char((i * 2654435761u) >> 13);
  const auto big = writeKernel("garbage.cu", garbage);
  expectBadInput("compile vector_add --kernel-file '" + big.string() + "'",
                 "--kernel-file: the kernel file has 1048576 bytes; the limit is 256 KiB");
  const auto binary = writeKernel("binary.cu", std::string("__global__ void k() {}\0\x01", 24));
  expectBadInput("compile vector_add --kernel-file '" + binary.string() + "'", "the kernel file is not text");
  expectBadInput("compile vector_add --kernel-file /nonexistent/k.cu",
                 "--kernel-file: /nonexistent/k.cu: no such file");
  expectBadInput("compile mandelbrot --kernel-file '" + empty.string() + "'", "the kernel file is empty");
  const auto ok = writeKernel("ok.cu", "__global__ void k() {}\n");
  expectBadInput("compile mandelbrot --kernel-file '" + ok.string() + "'", "mandelbrot has no exercise");
  expectBadInput("compile vector_add --exercise nope --kernel-file '" + ok.string() + "'", "unknown exercise 'nope'");
  expectBadInput("compile vector_add --gpu-profile sm_1 --kernel-file '" + ok.string() + "'",
                 "--gpu-profile: unknown profile");
}

TEST(CliCompile, MissingNvrtcIsOneMessage) {
  SKIP_WITHOUT_NVRTC();  // a build without nvrtc.h says "built without NVRTC" instead
  const auto f = writeKernel("ok2.cu", "__global__ void k() {}\n");
  ::setenv("LAUNCHLAB_NVRTC_LIBRARY", "/nonexistent/libnvrtc.so", 1);
  const Out r = cli("compile vector_add --kernel-file '" + f.string() + "'");
  ::unsetenv("LAUNCHLAB_NVRTC_LIBRARY");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "launchlab-cli: NVRTC not found: install the CUDA toolkit's runtime compiler\n");
}

TEST(CliCompile, RunRefusesAKernelThatDoesNotCompile) {
  SKIP_WITHOUT_NVRTC();
  const auto wrong = writeKernel("wrong_run.cu", "__global__ void vector_add(float* out) {}\n");
  const Out r = cli("run vector_add --n 1000 --kernel-file '" + wrong.string() + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("wrong kernel signature"), std::string::npos) << r.out;
  expectBadInput("run vector_add --dtype f64 --kernel-file '" + wrong.string() + "'",
                 "--dtype: the kernel of exercise vector_add is written for f32: use --dtype f32");
}

}  // namespace
}  // namespace launchlab::test
