#include "launchlab/worker/slurm.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "launchlab/worker/remote.h"
#include "launchlab/worker/subprocess.h"
#include "slurm_watch.h"

namespace launchlab {

namespace {

bool allOf(const std::string& s, const std::string& extra) {
  return std::all_of(s.begin(), s.end(), [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || extra.find(c) != std::string::npos;
  });
}

/// A name unique to this process and host: squeue and scancel find the worker's job by it.
std::string uniqueJobName() {
  static std::atomic<int> counter{0};
  char host[64] = {};
  ::gethostname(host, sizeof host - 1);
  std::string h = host;
  h.erase(std::remove_if(h.begin(), h.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }),
          h.end());
  return "launchlab-" + h.substr(0, 20) + "-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

}  // namespace

std::string checkSlurmTarget(const SlurmTarget& t) {
  if (!t.partition.empty() && (t.partition.front() == '-' || !allOf(t.partition, "_-.,")))
    return "--partition: '" + t.partition + "' is not a partition name (letters, digits and _ - . ,)";
  const bool unlimited = t.time == "UNLIMITED" || t.time == "INFINITE" || t.time == "infinite";
  if (!t.time.empty() && !unlimited &&
      (!std::isdigit(static_cast<unsigned char>(t.time.front())) || !allOf(t.time, ":-")))
    return "--time: '" + t.time + "' is not a Slurm time limit (MM, MM:SS, HH:MM:SS, D-HH or D-HH:MM:SS)";
  for (const auto& w : splitWords(t.extraArgs))
    if (w.size() < 2 || w.front() != '-' || !allOf(w, "-_=:.,/+@%"))
      return "--slurm-args: '" + w +
             "' is not an srun option: give each as -x or --name=value (letters, digits and - _ = : . , / + @ %)";
  if (const std::string why = checkRemoteCli(t.cli); !why.empty()) return "the path of launchlab-cli: " + why;
  return {};
}

std::string slurmPartitionProblem(const std::string& partition) {
  const Captured all = captureCommand({"sinfo", "--noheader", "--format=%R"}, 20);
  if (all.status != 0) {
    std::string said = all.output;
    said.erase(std::remove(said.begin(), said.end(), '\n'), said.end());
    return "cannot reach Slurm (sinfo " +
           std::string(all.timedOut        ? "did not answer within 20 s"
                       : all.status == 127 ? "not found"
                                           : "failed") +
           (said.empty() ? "" : ": " + said) + ")";
  }
  if (partition.empty()) return {};
  const std::vector<std::string> names = splitWords(all.output);
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  for (const auto& wanted : splitWords(std::regex_replace(partition, std::regex(","), " ")))
    if (std::find(names.begin(), names.end(), wanted) == names.end())
      return "--partition: no partition '" + wanted + "' on this cluster (partitions: " + list + ")";
  return {};
}

WorkerCommand slurmWorkerCommand(const SlurmTarget& target) {
  WorkerCommand c;
  const std::string name = target.jobName.empty() ? uniqueJobName() : target.jobName;
  // --unbuffered: the frames pass as they are written, not held back for a newline they do not have.
  c.argv = {"srun", "--job-name=" + name, "--nodes=1", "--ntasks=1", "--unbuffered"};
  if (!target.partition.empty()) c.argv.push_back("--partition=" + target.partition);
  if (!target.time.empty()) c.argv.push_back("--time=" + target.time);
  for (const auto& w : splitWords(target.extraArgs)) c.argv.push_back(w);
  c.argv.insert(c.argv.end(), {target.cli, "worker"});
  c.name = "the GPU worker in the Slurm job named " + name;
  c.captureStderr = true;
  c.remoteHost = "a Slurm node" + (target.partition.empty() ? std::string() : " (partition " + target.partition + ")");
  c.queue = makeSlurmQueueWatch(name);
  return c;
}

std::optional<SlurmJobState> parseSqueueLine(const std::string& line) {
  std::istringstream in(line);
  SlurmJobState s;
  if (!std::getline(in, s.jobId, '|') || !std::getline(in, s.state, '|') || !std::getline(in, s.reason, '|'))
    return std::nullopt;
  std::getline(in, s.node);
  if (!s.node.empty() && s.node.back() == '\r') s.node.pop_back();
  if (s.jobId.empty() || !allOf(s.jobId, "_[]-") || s.state.empty()) return std::nullopt;
  return s;
}

std::string queuedJobId(const std::string& srunStderr) {
  static const std::regex queued(R"(srun: job ([0-9]+) queued and waiting for resources)");
  std::smatch m;
  return std::regex_search(srunStderr, m, queued) ? m[1].str() : std::string();
}

std::string waitingLine(const SlurmJobState& s) {
  if (s.state != "PENDING" && s.state != "CONFIGURING") return {};
  return "waiting for a GPU: job " + s.jobId + " " + s.state +
         (s.reason.empty() || s.reason == "None" ? "" : " (" + s.reason + ")");
}

SlurmPlacement slurmPlacementFrom(const std::function<const char*(const char*)>& env) {
  auto get = [&](const char* name) {
    const char* v = env(name);
    return std::string(v ? v : "");
  };
  SlurmPlacement p;
  p.jobId = get("SLURM_JOB_ID");
  if (p.jobId.empty()) return p;
  p.stepId = get("SLURM_STEP_ID");
  p.node = get("SLURMD_NODENAME");
  for (const char* name : {"SLURM_STEP_GPUS", "SLURM_JOB_GPUS", "CUDA_VISIBLE_DEVICES"})
    if (p.gpus = get(name); !p.gpus.empty()) break;
  return p;
}

SlurmPlacement slurmPlacementOfThisProcess() {
  return slurmPlacementFrom([](const char* name) { return static_cast<const char*>(std::getenv(name)); });
}

}  // namespace launchlab
