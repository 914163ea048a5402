#include "slurm_watch.h"

#include <sstream>

#include "launchlab/worker/slurm.h"
#include "launchlab/worker/subprocess.h"

namespace launchlab {

namespace {

/// squeue and scancel answer in milliseconds on a healthy cluster; a controller that does not answer must not hold
/// the front end.
constexpr double kToolLimitS = 10;

class SlurmQueueWatch final : public QueueWatch {
 public:
  explicit SlurmQueueWatch(std::string name) : m_name(std::move(name)) {}

  std::string waiting(const std::string& stderrText) override {
    const Captured q =
        captureCommand({"squeue", "--noheader", "--name=" + m_name, "--format=%i|%T|%r|%N"}, kToolLimitS);
    std::istringstream lines(q.status == 0 ? q.output : std::string());
    for (std::string line; std::getline(lines, line);)
      if (const auto s = parseSqueueLine(line)) return waitingLine(*s);
    // squeue does not answer (or the job is not listed yet): srun's own word that the job waits.
    if (const std::string id = queuedJobId(stderrText);
        !id.empty() && stderrText.find("has been allocated") == std::string::npos)
      return "waiting for a GPU: job " + id + " PENDING";
    return {};
  }

  std::string where() override {  // finished jobs stay listed for a while (MinJobAge): a lost one still has its node
    const Captured q = captureCommand(
        {"squeue", "--noheader", "--states=all", "--name=" + m_name, "--format=%i|%T|%r|%N"}, kToolLimitS);
    std::istringstream lines(q.status == 0 ? q.output : std::string());
    for (std::string line; std::getline(lines, line);)
      if (const auto s = parseSqueueLine(line); s && !s->node.empty()) return s->node;
    return {};
  }

  void release(const std::string&) override { captureCommand({"scancel", "--name=" + m_name}, kToolLimitS); }

 private:
  std::string m_name;
};

}  // namespace

std::shared_ptr<QueueWatch> makeSlurmQueueWatch(std::string jobName) {
  return std::make_shared<SlurmQueueWatch>(std::move(jobName));
}

}  // namespace launchlab
