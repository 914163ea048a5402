// How many OpenMP threads CPU runs beside a window use (launchlab/engine/cpu_threads.h): the window keeps cores to draw
// with on machines that have them, and a thread's limit is what the engine's runs from that thread report.
#include <gtest/gtest.h>
#include <omp.h>

#include <string>
#include <thread>

#include "launchlab/engine/cpu_threads.h"
#include "launchlab/engine/engine.h"

using namespace launchlab;

TEST(CpuThreads, TheWindowKeepsTwoCoresOfEightOrMoreOneOfFourAndNoneBelow) {
  EXPECT_EQ(cpuThreadsLeavingCores(16), 14);
  EXPECT_EQ(cpuThreadsLeavingCores(8), 6);
  EXPECT_EQ(cpuThreadsLeavingCores(7), 6);
  EXPECT_EQ(cpuThreadsLeavingCores(4), 3);
  EXPECT_EQ(cpuThreadsLeavingCores(3), 3);
  EXPECT_EQ(cpuThreadsLeavingCores(1), 1);
  EXPECT_EQ(cpuThreadsLeavingCores(0), 1);
}

TEST(CpuThreads, AThreadsLimitIsWhatItsRunsReport) {
  // A thread of its own, as the window's compute thread: the limit is per thread and does not leak into this one.
  std::string host;
  int teamSeen = 0;
  std::thread t([&] {
    useCpuThreadsOnThisThread(1);
    host = hostDescription();
#pragma omp parallel
#pragma omp single
    teamSeen = omp_get_num_threads();
  });
  t.join();
  EXPECT_NE(host.find("(1 OpenMP threads)"), std::string::npos) << host;
  EXPECT_EQ(teamSeen, 1);
  const int before = omp_get_max_threads();
  useCpuThreadsOnThisThread(0);  // 0 leaves it as it is
  EXPECT_EQ(omp_get_max_threads(), before);
}
