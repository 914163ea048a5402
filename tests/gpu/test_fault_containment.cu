// A sticky device error (illegal address) inside one implementation becomes a failed result naming the CUDA
// error, the device is reset, and the next run on the same engine works.
#include <gtest/gtest.h>
#include <unistd.h>

#include "common/gpu_pipeline.cuh"
#include "common/impl_helpers.h"
#include "gpu_env.h"
#include "launchlab/engine/engine.h"
#include "launchlab/kernels.h"
#include "launchlab/worker/worker.h"

using namespace launchlab;

namespace {

__global__ void wildWriteKernel(float* p) {
  // Far outside any allocation: the MMU raises cudaErrorIllegalAddress.
  p[threadIdx.x + (std::size_t(1) << 40)] = 1.0f;
}

class FaultWorkload final : public kernels::BasicWorkload {
 public:
  FaultWorkload() {
    m_info.id = "test_fault";
    m_info.title = "fault injection (tests only)";
    m_info.dtypes = {DType::F32};
    m_info.defaultN = 1024;
    m_info.inputs = {{"x"}};
    m_info.outputs = {{"y"}};
    addReference("cpu", "copy", [](ImplContext& ctx) {
      kernels::runCpuTimed(ctx, [&] {
        auto x = ctx.inputs[0].view<float>();
        auto y = ctx.outputs[0].view<float>();
        for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i];
      });
    });
    addGpu("cuda-wild-write", "illegal address", "writes far outside its buffer", [](ImplContext& ctx) {
      gpu::runPipeline(
          ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) { wildWriteKernel<<<1, 32, 0, s>>>(d.output<float>(0)); });
    });
  }
  std::vector<HostArray> makeInputs(const RunSetup& s) const override { return allocateInputs(s); }
};

}  // namespace

void addFaultWorkload(Registry& reg) { reg.add(std::make_unique<FaultWorkload>()); }

int serveTestWorker() {
  Registry reg;
  kernels::registerAllWorkloads(reg);
  addFaultWorkload(reg);
  Engine engine(reg, kernels::makeDefaultGpuRuntime());
  return serveWorker(engine, 0, 1);
}

namespace {
using test::selfExe;
RunRequest goodRequest() {
  RunRequest good;
  good.workload = "vector_add";
  good.n = 1000003;
  good.impls = {"cuda-vectorized", "cuda-grid-stride"};
  return good;
}
void expectGood(const RunResult& g) {
  ASSERT_EQ(g.status, Status::Ok) << g.reason;
  for (const auto& impl : g.impls) {
    EXPECT_EQ(impl.status, Status::Ok) << impl.implId << ": " << impl.reason;
    EXPECT_TRUE(impl.verification.passed()) << impl.implId;
  }
}
RunRequest faultRequest() {
  RunRequest bad;
  bad.workload = "test_fault";
  bad.impls = {"cuda-wild-write"};
  bad.warmup = 0;
  bad.reps = 1;
  return bad;
}
}  // namespace

// In one process: the fault becomes a failed result naming the error, the context is marked lost, and later GPU
// implementations in that process are skipped with the reason instead of failing obscurely.
TEST(FaultContainment, InProcessFaultIsAResultAndLaterGpuWorkIsSkippedWithTheReason) {
  Registry reg;
  kernels::registerAllWorkloads(reg);
  addFaultWorkload(reg);
  Engine engine(reg, kernels::makeDefaultGpuRuntime());
  RunResult r = engine.run(faultRequest());
  const ImplResult* i = r.find("cuda-wild-write");
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(i->status, Status::Failed);
  EXPECT_NE(i->reason.find("cudaErrorIllegalAddress"), std::string::npos) << i->reason;
  EXPECT_NE(i->reason.find("device reset"), std::string::npos) << i->reason;
  EXPECT_TRUE(engine.gpu().contextLost());
  RunResult after = engine.run(goodRequest());
  for (const auto& impl : after.impls)
    if (impl.gpu) {
      EXPECT_EQ(impl.status, Status::Skipped);
      EXPECT_NE(impl.reason.find("context of this process was lost"), std::string::npos) << impl.reason;
    }
}

// Through the worker process (what the GUI uses): the fault is contained in the worker, and the next run works
// on a fresh worker with a fresh context.
TEST(FaultContainment, WorkerIsolatesTheFaultAndTheNextRunWorks) {
  IsolatedRunner runner({selfExe(), "--worker"});
  ASSERT_TRUE(runner.deviceStatus().available) << runner.deviceStatus().reason;
  expectGood(runner.run(goodRequest()));
  RunResult r = runner.run(faultRequest());
  const ImplResult* i = r.find("cuda-wild-write");
  ASSERT_NE(i, nullptr) << r.reason;
  EXPECT_EQ(i->status, Status::Failed);
  EXPECT_NE(i->reason.find("cudaErrorIllegalAddress"), std::string::npos) << i->reason;
  RunResult g = runner.run(goodRequest());
  expectGood(g);
  EXPECT_EQ(runner.workersStarted(), 2);
}

TEST(DeviceLimits, InvalidBlockIsAResultNotALaunchFailure) {
  Registry reg;
  kernels::registerAllWorkloads(reg);
  Engine engine(reg, kernels::makeDefaultGpuRuntime());
  RunRequest req;
  req.workload = "vector_add";
  req.launch.block = Dim3{1025, 1, 1};
  auto problems = engine.validate(req);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems.front().message.find("1025 threads per block > 1024"), std::string::npos)
      << problems.front().message;
  EXPECT_NE(problems.front().message.find(engine.deviceStatus().info.name), std::string::npos);
  RunResult r = engine.run(req);
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_NE(r.reason.find("1024"), std::string::npos);
}
