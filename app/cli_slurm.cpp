#include "cli_slurm.h"

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli_kernel.h"
#include "launchlab/engine/gpu_sharing.h"
#include "launchlab/explorer/crossover.h"
#include "launchlab/worker/worker.h"

namespace launchlab::cli {

namespace {

CancelToken* g_signalled = nullptr;

extern "C" void cancelOnSignal(int) {
  if (g_signalled) g_signalled->cancel();
}

/// Ctrl+C and SIGTERM cancel the token while this lives (a queued job is then given up, not left in the queue).
class CancelOnSignals {
 public:
  CancelOnSignals() {
    g_signalled = &m_token;
    m_int = std::signal(SIGINT, cancelOnSignal);
    m_term = std::signal(SIGTERM, cancelOnSignal);
  }
  ~CancelOnSignals() {
    std::signal(SIGINT, m_int);
    std::signal(SIGTERM, m_term);
    g_signalled = nullptr;
  }
  CancelOnSignals(const CancelOnSignals&) = delete;
  CancelOnSignals& operator=(const CancelOnSignals&) = delete;
  const CancelToken* token() const { return &m_token; }

 private:
  CancelToken m_token;
  void (*m_int)(int) = SIG_DFL;
  void (*m_term)(int) = SIG_DFL;
};

std::mutex g_stderr;

void say(const std::string& line) {
  std::lock_guard<std::mutex> lock(g_stderr);
  std::cerr << "launchlab-cli: " << line << "\n" << std::flush;
}

std::unique_ptr<IsolatedRunner> slurmRunner(const SlurmOptions& o, const std::string& label) {
  auto runner = std::make_unique<IsolatedRunner>(slurmWorkerCommand(o.target));
  runner->setWaitingFn([label](const std::string& line) {
    if (!line.empty()) say(label + line);
  });
  return runner;
}

void setFromEnv(std::string& field, const char* name) {
  if (const char* v = std::getenv(name); field.empty() && v) field = v;
}

/// A failed run whose worker is gone (its step or node ended) rather than a run that failed on its own; a worker
/// that lost its CUDA context to the run's own fault also exits, but that is the point's result.
bool workerLost(const RunResult& r, const IsolatedRunner& runner) {
  return r.status == Status::Failed && runner.workerPid() <= 0 && !r.cudaFault();
}

}  // namespace

void addSlurmOptions(CLI::App* cmd, SlurmOptions& o, bool withNodes) {
  cmd->add_flag("--slurm", o.enabled,
                "Run in a Slurm job step (srun … launchlab-cli worker) on a cluster's node; the queue's state is shown "
                "while the job waits, Ctrl+C cancels it");
  cmd->add_option("--partition", o.target.partition,
                  "With --slurm: the partition (default $LAUNCHLAB_SLURM_PARTITION)");
  cmd->add_option("--time", o.target.time,
                  "With --slurm: the job's time limit, e.g. 10 or 0:30:00 ($LAUNCHLAB_SLURM_TIME)");
  cmd->add_option("--slurm-args", o.target.extraArgs,
                  "With --slurm: more srun options, e.g. \"--gres=gpu:1 --qos=class\" ($LAUNCHLAB_SLURM_ARGS)");
  cmd->add_option("--slurm-cli", o.target.cli,
                  "With --slurm: launchlab-cli's path on the nodes (default: this program's; $LAUNCHLAB_SLURM_CLI)");
  if (withNodes)
    cmd->add_option("--nodes", o.nodes, "With --slurm: split the points over K job steps at once")->default_val(1);
}

void resolveSlurmOptions(SlurmOptions& o) {
  if (!o.enabled) {
    if (o.nodes != 1) throw SlurmInputError("--nodes: needs --slurm");
    return;
  }
  setFromEnv(o.target.partition, "LAUNCHLAB_SLURM_PARTITION");
  setFromEnv(o.target.time, "LAUNCHLAB_SLURM_TIME");
  setFromEnv(o.target.extraArgs, "LAUNCHLAB_SLURM_ARGS");
  if (o.target.cli.empty() || o.target.cli == "launchlab-cli") {
    o.target.cli.clear();
    setFromEnv(o.target.cli, "LAUNCHLAB_SLURM_CLI");
    if (o.target.cli.empty()) o.target.cli = selfExe();
  }
  if (o.nodes < 1 || o.nodes > 64) throw SlurmInputError("--nodes: must be between 1 and 64");
  if (const std::string why = checkSlurmTarget(o.target); !why.empty()) throw SlurmInputError(why);
  if (const std::string why = slurmPartitionProblem(o.target.partition); !why.empty())
    throw SlurmInputError(why.rfind("--partition", 0) == 0 ? why : "--slurm: " + why);
}

RunResult runThroughSlurm(const RunRequest& req, const SlurmOptions& o) {
  auto runner = slurmRunner(o, "");
  CancelOnSignals signals;
  RunResult r = runner->run(req, signals.token());
  std::cerr << runner->takeProgramOutput() << std::flush;
  if (r.slurm.inJob())
    say("ran in Slurm job " + r.slurm.jobId + " on " + r.slurm.node +
        (r.slurm.gpus.empty() ? "" : " (GPUs " + r.slurm.gpus + ")"));
  return r;
}

std::vector<RunResult> runCellsThroughSlurm(const std::vector<SweepCell>& cells, const SlurmOptions& o) {
  std::vector<RunResult> results(cells.size());
  std::vector<std::size_t> todo;
  for (std::size_t c = 0; c < cells.size(); ++c)
    if (cells[c].request) todo.push_back(c);
  std::vector<char> lost(cells.size(), 0);  // the cells of a step that ended under them (threads write their own)
  CancelOnSignals signals;
  auto runShare = [&](const std::vector<std::size_t>& share, const std::string& label) {
    auto runner = slurmRunner(o, label);
    std::string node, job;  // where this share's points were measured (a lost step's result cannot say)
    std::size_t done = 0;
    for (std::size_t k = 0; k < share.size() && !signals.token()->cancelled(); ++k) {
      RunRequest req = *cells[share[k]].request;
      req.compareOnDevice = true;  // as runSweep does: the reference is the same for every cell
      RunResult& r = results[share[k]];
      r = runner->run(req, signals.token());
      if (!workerLost(r, *runner)) {
        node = r.slurm.node, job = r.slurm.jobId;
        if (++done == share.size()) say(label + std::to_string(done) + " cells in Slurm job " + job + " on " + node);
        continue;
      }
      if (node.empty() && runner->command().queue) node = runner->command().queue->where();
      r.slurm.node = node;
      for (std::size_t rest = k; rest < share.size(); ++rest) lost[share[rest]] = true;
      r.reason = "lost with its job step" + (node.empty() ? std::string() : " on node " + node) + ": " + r.reason;
      say(label + r.reason);
      for (std::size_t rest = k + 1; rest < share.size(); ++rest) results[share[rest]] = r;
      return;
    }
  };
  const std::size_t k = std::min<std::size_t>(std::size_t(o.nodes), std::max<std::size_t>(todo.size(), 1));
  std::vector<std::thread> steps;
  for (std::size_t s = 0; s < k; ++s) {
    const std::size_t begin = todo.size() * s / k, end = todo.size() * (s + 1) / k;
    std::vector<std::size_t> share(todo.begin() + long(begin), todo.begin() + long(end));
    steps.emplace_back(runShare, share, "step " + std::to_string(s + 1) + "/" + std::to_string(k) + ": ");
  }
  for (auto& t : steps) t.join();
  std::vector<std::size_t> missing;
  for (std::size_t c : todo)
    if (lost[c]) missing.push_back(c);
  if (!missing.empty() && !signals.token()->cancelled()) {
    say("running the " + std::to_string(missing.size()) + " lost points again on a fresh job step");
    runShare(missing, "re-run: ");
  }
  return results;
}

std::string gpuUsersNow(Engine& engine) {
  const DeviceStatus st = engine.deviceStatus();
  GpuMonitor* monitor = engine.gpuMonitor();
  if (!monitor) return "GPU users: not checked";
  return gpuUsersLine(monitor->sample(st.available ? st.info.pciBusId : ""), unsigned(::getpid()));
}

RunFn sweepRunner(Engine& engine, const std::vector<SweepCell>& cells, const SlurmOptions& o) {
  if (!o.enabled)
    return [&engine](const RunRequest& r, const CancelToken* c, const ProgressFn& p) { return engine.run(r, c, p); };
  auto measured = std::make_shared<std::vector<RunResult>>(runCellsThroughSlurm(cells, o));
  auto next = std::make_shared<std::size_t>(0);
  return [&cells, measured, next](const RunRequest&, const CancelToken*, const ProgressFn&) {
    while (!cells[*next].request) ++*next;
    return (*measured)[(*next)++];
  };
}

void printCrossoversPerDevice(const std::vector<std::string>& fields, const std::vector<SweepPoint>& points) {
  const auto groups = pointsByDevice(points);
  if (groups.size() > 1)
    std::cout << "measured on " << groups.size() << " GPU models: crossovers are found per GPU, never across them\n";
  for (const auto& [device, group] : groups) {
    const auto found = crossovers(fields, group);
    if (groups.size() > 1 && !found.empty()) std::cout << (device.empty() ? "no GPU" : device) << ":\n";
    for (const auto& c : found) std::cout << (groups.size() > 1 ? "  " : "") << crossoverLine(c) << "\n";
  }
}

}  // namespace launchlab::cli
