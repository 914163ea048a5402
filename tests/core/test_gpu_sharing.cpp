// The flagging rule of gpu_sharing.h on made-up samples (no GPU needed), and NVML's absence reported as one reason.
#include <gtest/gtest.h>

#include <cstdlib>

#include "launchlab/engine/gpu_sharing.h"

using namespace launchlab;

namespace {
constexpr unsigned kSelf = 100, kParent = 50;

GpuSample sample(std::vector<GpuProcess> procs, int util = 0) {
  GpuSample s;
  s.ok = true;
  s.processes = std::move(procs);
  s.gpuUtilPercent = util;
  s.smClockMHz = 1980;
  s.memClockMHz = 2619;
  return s;
}
}  // namespace

TEST(GpuSharing, AloneIsNotFlagged) {
  // This process and the window that started it (the parent) hold contexts: neither is "another user".
  const GpuSharing g =
      sharingRule(sample({{kParent, 300u << 20, "launchlab"}}),
                  sample({{kSelf, 500u << 20, "launchlab-cli"}, {kParent, 0, "launchlab"}}, 95), kSelf, kParent);
  EXPECT_TRUE(g.checked);
  EXPECT_FALSE(g.shared) << g.note;
  EXPECT_EQ(g.note, "");
}

TEST(GpuSharing, AnotherProcessBeforeOrAfterIsFlagged) {
  const GpuProcess other{4242, 3ull << 30, "python3"};
  for (const auto& [before, after] : {std::pair{sample({other}), sample({})}, std::pair{sample({}), sample({other})}}) {
    const GpuSharing g = sharingRule(before, after, kSelf, kParent);
    EXPECT_TRUE(g.shared);
    EXPECT_EQ(g.note, "another process used the GPU: pid 4242 (python3, 3.0 GiB)");
  }
  // Seen both before and after: named once.
  const GpuSharing twice = sharingRule(sample({other}), sample({other, {kSelf, 0, ""}}), kSelf, kParent);
  EXPECT_EQ(twice.note, "another process used the GPU: pid 4242 (python3, 3.0 GiB)");
}

TEST(GpuSharing, ABusyGpuWithNoVisibleProcessIsFlagged) {
  // A process of another container is not listed, but its work shows in the utilisation before ours started.
  const GpuSharing busy = sharingRule(sample({}, kBusyBeforePercent), sample({}, 100), kSelf, kParent);
  EXPECT_TRUE(busy.shared);
  EXPECT_NE(busy.note.find("10% busy before the run"), std::string::npos) << busy.note;
  // Our own work makes the GPU busy afterwards: that alone is no other user.
  EXPECT_FALSE(sharingRule(sample({}, kBusyBeforePercent - 1), sample({}, 100), kSelf, kParent).shared);
}

TEST(GpuSharing, UnknownWhenNvmlIsMissing) {
  GpuSample none;
  none.problem = "NVML not available: libnvidia-ml.so.1: cannot open shared object file";
  const GpuSharing g = sharingRule(none, none, kSelf, kParent);
  EXPECT_TRUE(g.checked);
  EXPECT_FALSE(g.shared);
  EXPECT_EQ(g.note, none.problem);
  EXPECT_EQ(gpuUsersLine(none, kSelf), "GPU users: unknown (" + none.problem + ")");
}

TEST(GpuSharing, UsersLine) {
  EXPECT_EQ(gpuUsersLine(sample({{kSelf, 0, "me"}}, 3), kSelf),
            "GPU users: none; 3% busy, SM clock 1980 MHz, memory clock 2619 MHz");
  EXPECT_EQ(gpuUsersLine(sample({{7, 0, ""}}, 50), kSelf),
            "GPU users: pid 7; 50% busy, SM clock 1980 MHz, memory clock 2619 MHz");
}

TEST(GpuSharing, NvmlThatCannotBeOpenedSaysWhy) {
  ::setenv("LAUNCHLAB_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  const GpuSample s = makeNvmlMonitor()->sample("");
  ::unsetenv("LAUNCHLAB_NVML_LIBRARY");
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(s.problem.rfind("NVML not available: /nonexistent/libnvidia-ml.so.1: cannot open shared object file", 0),
            0u)
      << s.problem;
}
