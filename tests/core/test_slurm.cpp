// Slurm's side of the worker (launchlab/worker/slurm.h) without a cluster: squeue's and srun's words, the checks of the
// options, the srun command line, the job read from the environment, and where sweep points were measured.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "launchlab/explorer/sweep.h"
#include "launchlab/files/json.h"
#include "launchlab/files/json_value.h"
#include "launchlab/worker/slurm.h"

using namespace launchlab;

TEST(Slurm, ReadsSqueueLines) {
  const auto s = parseSqueueLine("4711|PENDING|Resources|");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->jobId, "4711");
  EXPECT_EQ(s->state, "PENDING");
  EXPECT_EQ(s->reason, "Resources");
  EXPECT_EQ(s->node, "");
  EXPECT_EQ(waitingLine(*s), "waiting for a GPU: job 4711 PENDING (Resources)");
  const auto running = parseSqueueLine("12|RUNNING|None|gpu03");
  ASSERT_TRUE(running);
  EXPECT_EQ(running->node, "gpu03");
  EXPECT_EQ(waitingLine(*running), "");  // it does not wait
  EXPECT_FALSE(parseSqueueLine("squeue: error: Invalid user"));
  EXPECT_FALSE(parseSqueueLine("|PENDING|x|"));
}

TEST(Slurm, ReadsTheQueuedJobFromSrun) {
  EXPECT_EQ(queuedJobId("srun: job 4711 queued and waiting for resources\n"), "4711");
  EXPECT_EQ(queuedJobId("srun: error: Unable to allocate resources"), "");
}

TEST(Slurm, ChecksTheOptions) {
  SlurmTarget t;
  t.partition = "gpu,debug";
  t.time = "0:30:00";
  t.extraArgs = "--gres=gpu:1  --qos=class -A cuda101";
  EXPECT_NE(checkSlurmTarget(t).find("'cuda101' is not an srun option"), std::string::npos);
  t.extraArgs = "--gres=gpu:1 --qos=class";
  EXPECT_EQ(checkSlurmTarget(t), "");
  t.time = "1-00:00:00";
  EXPECT_EQ(checkSlurmTarget(t), "");
  t.time = "soon";
  EXPECT_EQ(checkSlurmTarget(t).rfind("--time: 'soon'", 0), 0u);
  t.time = "";
  t.partition = "--all";
  EXPECT_EQ(checkSlurmTarget(t).rfind("--partition: '--all'", 0), 0u);
  t.partition = "gpu;rm";
  EXPECT_NE(checkSlurmTarget(t), "");
}

TEST(Slurm, BuildsTheSrunCommand) {
  SlurmTarget t;
  t.partition = "gpu";
  t.time = "10";
  t.extraArgs = "--gres=gpu:1";
  t.cli = "/opt/launchlab/bin/launchlab-cli";
  t.jobName = "launchlab-test";
  const WorkerCommand c = slurmWorkerCommand(t);
  const std::vector<std::string> want = {"srun",
                                         "--job-name=launchlab-test",
                                         "--nodes=1",
                                         "--ntasks=1",
                                         "--unbuffered",
                                         "--partition=gpu",
                                         "--time=10",
                                         "--gres=gpu:1",
                                         "/opt/launchlab/bin/launchlab-cli",
                                         "worker"};
  EXPECT_EQ(c.argv, want);
  EXPECT_TRUE(c.captureStderr);
  EXPECT_TRUE(c.queue);
  // Two workers of one process never share a job name (squeue and scancel find the job by it).
  t.jobName.clear();
  EXPECT_NE(slurmWorkerCommand(t).argv[1], slurmWorkerCommand(t).argv[1]);
}

TEST(Slurm, PlacementFromTheEnvironment) {
  std::map<std::string, std::string> env = {{"SLURM_JOB_ID", "4711"},
                                            {"SLURM_STEP_ID", "0"},
                                            {"SLURMD_NODENAME", "n3"},
                                            {"SLURM_JOB_GPUS", "2"},
                                            {"CUDA_VISIBLE_DEVICES", "0"}};
  auto get = [&](const char* n) { return env.count(n) ? env[n].c_str() : static_cast<const char*>(nullptr); };
  SlurmPlacement p = slurmPlacementFrom(get);
  EXPECT_EQ(p.jobId, "4711");
  EXPECT_EQ(p.node, "n3");
  EXPECT_EQ(p.gpus, "2");  // Slurm's index of the GPU, not CUDA's renumbered one
  env.erase("SLURM_JOB_ID");
  EXPECT_FALSE(slurmPlacementFrom(get).inJob());
  EXPECT_EQ(slurmPlacementFrom(get).gpus, "");  // CUDA_VISIBLE_DEVICES alone is not a job's
}

TEST(Slurm, PlacementTravelsInTheJson) {
  RunResult r;
  r.workload = "vector_add";
  r.timestamp = "2026-11-27T06:00:00Z";
  r.slurm = {"4711", "0", "n3", "1"};
  const RunResult back = nlohmann::ordered_json::parse(json::runResult(r)).get<RunResult>();
  EXPECT_EQ(back.slurm, r.slurm);
  r.slurm = {};
  EXPECT_EQ(json::runResult(r).find("\"slurm\""), std::string::npos);  // outside a job: no key at all
}

TEST(Slurm, SweepPointsSayWhereAndNeverMixGpus) {
  RunResult a, b;
  a.slurm.node = "n1";
  a.device.available = true;
  a.device.info.name = "NVIDIA H100";
  b.slurm.node = "n2";
  b.device.available = true;
  b.device.info.name = "NVIDIA A100";
  std::vector<SweepPoint> points = {sweepPointFrom(a, "cuda", {}), sweepPointFrom(b, "cuda", {}),
                                    sweepPointFrom(a, "cuda", {})};
  EXPECT_EQ(points[1].node, "n2");
  const auto groups = pointsByDevice(points);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].first, "NVIDIA H100");
  EXPECT_EQ(groups[0].second.size(), 2u);
  EXPECT_EQ(groups[1].second.size(), 1u);
  points[0].values = points[1].values = points[2].values = {"1000"};
  const std::string csv = sweepCsv({"n"}, points);
  EXPECT_NE(csv.find(",node,device\n"), std::string::npos);
  EXPECT_NE(csv.find(",n2,NVIDIA A100\n"), std::string::npos);
}
