// compute-sanitizer's report read into findings at source lines (launchlab/course/sanitizer.h), over hand-written
// reports in the format of the Compute Sanitizer user guide (memcheck's and racecheck's examples).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "launchlab/course/sanitizer.h"

namespace launchlab {
namespace {

/// The report's one finding (a failure when it has another number of them).
SanitizerFinding only(const std::string& report, const char* tool) {
  const auto f = parseSanitizerReport(report, tool);
  EXPECT_EQ(f.size(), 1u) << report;
  return f.empty() ? SanitizerFinding{} : f.front();
}

TEST(Sanitizer, MemcheckInvalidWriteAtItsLine) {
  const std::string report =
      "========= COMPUTE-SANITIZER\n"
      "========= Invalid __global__ write of size 4 bytes\n"
      "=========     at vector_add(const float *, const float *, float *, unsigned long long)+0x70 in /tmp/my.cu:12\n"
      "=========     by thread (255,0,0) in block (255,0,0)\n"
      "=========     Address 0x7f0a2c400000 is out of bounds\n"
      "=========     and is 1 bytes after the nearest allocation at 0x7f0a2c300000 of size 262144 bytes\n"
      "=========\n"
      "cpu-serial  ok\n"
      "========= ERROR SUMMARY: 1 error\n";
  EXPECT_EQ(only(report, "memcheck"),
            (SanitizerFinding{"memcheck", "/tmp/my.cu", 12,
                              "Invalid __global__ write of size 4 bytes by thread (255,0,0) in block (255,0,0); "
                              "Address 0x7f0a2c400000 is out of bounds"}));
}

TEST(Sanitizer, OlderLocationFormAndDuplicatesFolded) {
  // CUDA 11's "at 0x70 in FILE:LINE:KERNEL"; the same access from two threads with the same text is one finding.
  const std::string one =
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at 0x00000070 in my.cu:7:kern(int*)\n";
  EXPECT_EQ(only(one + one, "memcheck"),
            (SanitizerFinding{"memcheck", "my.cu", 7, "Invalid __global__ read of size 4 bytes"}));
}

TEST(Sanitizer, ThreadsOfOneAccessFoldIntoOneFinding) {
  // A missing bounds check: every thread past n writes out of bounds at line 7 (each report names its thread and
  // address), one thread reads out of bounds at line 9. Two findings, the first saying how many threads.
  auto write = [](const char* thread, const char* address) {
    return std::string(
               "========= Invalid __global__ write of size 4 bytes\n"
               "=========     at k(float *, int)+0x70 in my.cu:7\n"
               "=========     by thread ") +
           thread + "\n=========     Address " + address + " is out of bounds\n=========\n";
  };
  const std::string report = write("(0,0,0) in block (4,0,0)", "0x7f0a2c400000") +
                             write("(1,0,0) in block (4,0,0)", "0x7f0a2c400004") +
                             "========= Invalid __global__ read of size 4 bytes\n"
                             "=========     at k(float *, int)+0x90 in my.cu:9\n"
                             "=========     by thread (5,0,0) in block (4,0,0)\n=========\n" +
                             write("(2,0,0) in block (4,0,0)", "0x7f0a2c400008");
  const auto f = parseSanitizerReport(report, "memcheck");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0], (SanitizerFinding{"memcheck", "my.cu", 7,
                                    "Invalid __global__ write of size 4 bytes by thread (0,0,0) in block (4,0,0) and 2 "
                                    "more threads; Address 0x7f0a2c400000 is out of bounds"}));
  EXPECT_EQ(f[1], (SanitizerFinding{"memcheck", "my.cu", 9,
                                    "Invalid __global__ read of size 4 bytes by thread (5,0,0) in block (4,0,0)"}));
  // Two threads: "1 more thread".
  const auto two = parseSanitizerReport(
      write("(0,0,0) in block (0,0,0)", "0x10") + write("(9,0,0) in block (0,0,0)", "0x14"), "memcheck");
  ASSERT_EQ(two.size(), 1u);
  EXPECT_NE(two[0].text.find("in block (0,0,0) and 1 more thread; Address 0x10"), std::string::npos) << two[0].text;
}

TEST(Sanitizer, ApiErrorHasNoLine) {
  const SanitizerFinding f = only(
      "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" on CUDA API "
      "call to cudaDeviceSynchronize.\n=========     Saved host backtrace up to driver entry point at error\n"
      "=========         Host Frame: [0x2ebf] in libcuda.so.1\n",
      "memcheck");
  EXPECT_EQ(f.line, 0);
  EXPECT_EQ(f.file, "");
  EXPECT_EQ(formatFinding(f).rfind("(no source line): memcheck: Program hit cudaErrorLaunchFailure", 0), 0u);
}

TEST(Sanitizer, OneApiErrorOverSeveralCallsIsOneFinding) {
  // After a fault every later call fails the same way: one finding naming the calls; another error stays apart.
  auto hit = [](const char* error, const char* call) {
    return std::string("========= Program hit ") + error + " on CUDA API call to " + call +
           ".\n=========     Saved host backtrace up to driver entry point at error\n";
  };
  const char* launch = "cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\"";
  const auto f = parseSanitizerReport(
      hit(launch, "cudaMemcpyAsync") + hit(launch, "cudaFreeHost") +
          hit("cudaErrorInvalidValue (error 1) due to \"invalid argument\"", "cudaMemset") + hit(launch, "cudaFree"),
      "memcheck");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0],
            (SanitizerFinding{"memcheck", "", 0,
                              "Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" "
                              "on CUDA API calls to cudaMemcpyAsync, cudaFreeHost, cudaFree"}));
  EXPECT_EQ(f[1].text,
            "Program hit cudaErrorInvalidValue (error 1) due to \"invalid argument\" on CUDA API call to "
            "cudaMemset.");
}

TEST(Sanitizer, RacecheckAnalysisReportBothLines) {
  const std::string report =
      "========= COMPUTE-SANITIZER\n"
      "========= Error: Race reported between Write access at reduce_sum(const double *, unsigned long long, double "
      "*)+0x350 in /home/s/my.cu:13\n"
      "=========     and Read access at reduce_sum(const double *, unsigned long long, double *)+0x3b0 in "
      "/home/s/my.cu:21 [4 hazards]\n"
      "=========\n"
      "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
  EXPECT_EQ(only(report, "racecheck"),
            (SanitizerFinding{"racecheck", "/home/s/my.cu", 13,
                              "race: Write access (line 13) and Read access (line 21) [4 hazards]"}));
}

TEST(Sanitizer, RacecheckSeveralAccessesAndOlderForm) {
  // Several "and" lines; cuda-memcheck's "WARN:" with "at 0xOFF in FILE:LINE:KERNEL".
  const auto f = parseSanitizerReport(
      "========= Error: Race reported between Write access at blockReduce(int *, int *)+0xf0 in race.cu:12\n"
      "=========     and Read access at blockReduce(int *, int *)+0xd0 in race.cu:12 [32 hazards]\n"
      "=========     and Write access at blockReduce(int *, int *)+0xf0 in race.cu:12 [4 hazards]\n"
      "=========\n"
      "========= WARN: Race reported between Read access at 0x00000170 in ./race.cu:4:test(int*, int*)\n"
      "=========     and Write access at 0x00000148 in ./race.cu:3:test(int*, int*) [4 hazards]\n",
      "racecheck");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].line, 12);
  EXPECT_EQ(f[0].text,
            "race: Write access (line 12) and Read access (line 12) [32 hazards] and Write access (line 12) "
            "[4 hazards]");
  EXPECT_EQ(f[1].file, "./race.cu");
  EXPECT_EQ(f[1].line, 4);
  EXPECT_EQ(f[1].text, "race: Read access (line 4) and Write access (line 3) [4 hazards]");
}

TEST(Sanitizer, RaceLocationOnTheNextLine) {
  EXPECT_EQ(only("========= Error: Race reported between Write access at\n"
                 "=========     race_condition(float *)+0xb0 in demo.cu:28\n"
                 "=========     and Read access at\n"
                 "=========     race_condition(float *)+0xc0 in demo.cu:30\n",
                 "racecheck"),
            (SanitizerFinding{"racecheck", "demo.cu", 28, "race: Write access (line 28) and Read access"}));
}

TEST(Sanitizer, RacecheckHazardReport) {
  EXPECT_EQ(only("========= ERROR: Potential WAW hazard detected at __shared__ 0x0 in block (0, 0, 0) :\n"
                 "=========     Write Thread (0, 0, 0) at 0x00000088 in raceWAW.cu:18:WAW(void)\n"
                 "=========     Write Thread (1, 0, 0) at 0x00000088 in raceWAW.cu:18:WAW(void)\n"
                 "=========     Current Value : 0, Incoming Value : 1\n",
                 "racecheck"),
            (SanitizerFinding{"racecheck", "raceWAW.cu", 18,
                              "Potential WAW hazard detected at __shared__ 0x0 in block (0, 0, 0)"}));
}

TEST(Sanitizer, CleanReportHasNoFinding) {
  EXPECT_TRUE(parseSanitizerReport("========= COMPUTE-SANITIZER\nmy-kernel  ok  1.2 ms\n========= ERROR SUMMARY: 0 "
                                   "errors\n",
                                   "memcheck")
                  .empty());
}

TEST(Sanitizer, FindingLineRoundTrip) {
  const SanitizerFinding a{"memcheck", "/tmp/a b.cu", 12, "Invalid __global__ write of size 4 bytes"};
  EXPECT_EQ(formatFinding(a), "/tmp/a b.cu:12: memcheck: Invalid __global__ write of size 4 bytes");
  EXPECT_EQ(parseFindingLine(formatFinding(a)), a);
  const SanitizerFinding noLine{"racecheck", "", 0, "Program hit cudaErrorLaunchFailure"};
  EXPECT_EQ(parseFindingLine(formatFinding(noLine)), noLine);
  EXPECT_FALSE(parseFindingLine("check my.cu (vector_add, n = 65536): memcheck clean, racecheck 1 finding"));
  EXPECT_FALSE(parseFindingLine("my.cu:3:5: error: expected a \";\""));
}

TEST(Sanitizer, SharedMemoryOutsideComments) {
  EXPECT_TRUE(usesSharedMemory("__global__ void k() { __shared__ float s[256]; }"));
  EXPECT_TRUE(usesSharedMemory("extern __shared__ double buf[];"));
  EXPECT_FALSE(usesSharedMemory("// use __shared__ memory here\n__global__ void k() {}"));
  EXPECT_FALSE(usesSharedMemory("/* __shared__ */ const char* s = \"__shared__\";"));
  EXPECT_FALSE(usesSharedMemory("__global__ void vector_add(const float* x) {}"));
}

TEST(Sanitizer, FindsTheExecutableInPathThenCudaHome) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("launchlab_san_" + std::to_string(::getpid()));
  fs::create_directories(root / "a");
  fs::create_directories(root / "cuda" / "bin");
  const auto exe = root / "cuda" / "bin" / "compute-sanitizer";
  std::ofstream(exe) << "#!/bin/sh\n";
  ::chmod(exe.c_str(), 0755);
  EXPECT_EQ(findComputeSanitizer((root / "a").string() + ":" + (root / "cuda" / "bin").string(), ""), exe.string());
  EXPECT_EQ(findComputeSanitizer((root / "a").string(), (root / "cuda").string()), exe.string());
  ::chmod(exe.c_str(), 0644);  // not executable: not found (unless the machine has one in /usr/local/cuda/bin)
  const std::string none = findComputeSanitizer((root / "a").string(), (root / "cuda").string());
  EXPECT_TRUE(none.empty() || none == "/usr/local/cuda/bin/compute-sanitizer") << none;
  fs::remove_all(root);
}

}  // namespace
}  // namespace launchlab
