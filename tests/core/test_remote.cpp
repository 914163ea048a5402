// The --remote host string and the ssh command built from it: no way to smuggle an ssh option or a shell word in.
#include <gtest/gtest.h>

#include "launchlab/worker/remote.h"

using namespace launchlab;

TEST(RemoteTarget, ReadsUserHostAndPort) {
  RemoteTarget t;
  ASSERT_EQ(parseRemoteTarget("student@lab-gpu.example.edu:2222", t), "");
  EXPECT_EQ(t.user, "student");
  EXPECT_EQ(t.host, "lab-gpu.example.edu");
  EXPECT_EQ(t.port, 2222);
  ASSERT_EQ(parseRemoteTarget("lab-gpu", t), "");
  EXPECT_EQ(t.destination(), "lab-gpu");
  EXPECT_EQ(t.port, 0);
  ASSERT_EQ(parseRemoteTarget("[::1]:22", t), "");
  EXPECT_EQ(t.host, "::1");
  EXPECT_EQ(t.port, 22);
}

TEST(RemoteTarget, RefusesWhatSshWouldReadAsSomethingElse) {
  for (const char* bad :
       {"", "-oProxyCommand=x", "a b", "host;rm", "user@-host", "-u@host", "host:", "host:0", "host:65536", "host:2x",
        "@host", "a@b@c", "[::1", "$(id)", "host\n", "host:22:33", "::1", "user@", "fe80::1:22"}) {
    RemoteTarget t;
    t.host = "kept";
    const std::string why = parseRemoteTarget(bad, t);
    EXPECT_NE(why, "") << bad;
    EXPECT_EQ(why.find('\n'), std::string::npos) << bad;
    EXPECT_EQ(t.host, "kept") << bad;  // untouched on error
  }
  // The message names what is wrong.
  RemoteTarget t;
  EXPECT_NE(parseRemoteTarget("a@b@c", t).find("more than one '@'"), std::string::npos);
  EXPECT_NE(parseRemoteTarget("user@", t).find("no host after '@'"), std::string::npos);
  EXPECT_NE(parseRemoteTarget("host:22:33", t).find("more than one ':'"), std::string::npos);
  EXPECT_NE(parseRemoteTarget("::1", t).find("brackets"), std::string::npos);
  EXPECT_NE(checkRemoteCli("launchlab-cli; reboot"), "");
  EXPECT_NE(checkRemoteCli("-x"), "");
  EXPECT_EQ(checkRemoteCli("~/opt/launchlab/bin/launchlab-cli"), "");
}

TEST(RemoteTarget, BuildsTheSshCommand) {
  RemoteTarget t;
  ASSERT_EQ(parseRemoteTarget("me@gpu:2200", t), "");
  const WorkerCommand c = remoteWorkerCommand(t, "ssh -i key");
  const std::vector<std::string> want{"ssh",
                                      "-i",
                                      "key",
                                      "-T",
                                      "-o",
                                      "BatchMode=yes",
                                      "-o",
                                      "ConnectTimeout=10",
                                      "-o",
                                      "ServerAliveInterval=5",
                                      "-p",
                                      "2200",
                                      "--",
                                      "me@gpu",
                                      "launchlab-cli",
                                      "worker"};
  EXPECT_EQ(c.argv, want);
  EXPECT_TRUE(c.captureStderr);
  EXPECT_EQ(c.remoteHost, "gpu");
  EXPECT_EQ(remoteWorkerCommand(t, "").argv.front(), "ssh");
}
