// Outputs that stay on the GPU: a sweep's comparison with the reference on the device (identical bytes pass without
// reading them on the host; a difference falls back to the workload's verification), and outputs exported from the
// worker process by CUDA IPC and read in this one (what the window's interop path draws from).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstring>

#include "common/gpu_pipeline.cuh"
#include "gpu_env.h"
#include "launchlab/worker/worker.h"
#include "render/cuda_ipc.h"

using namespace launchlab;

namespace {

RunRequest request(const std::string& workload, std::uint64_t n, const std::string& gpuImpl) {
  RunRequest r;
  r.workload = workload;
  r.n = n;
  r.impls = {"cpu-serial", gpuImpl};
  r.reps = 2;
  r.warmup = 1;
  return r;
}

const ImplResult& implOf(const RunResult& r, const std::string& id) {
  const ImplResult* i = r.find(id);
  if (!i) throw std::runtime_error("no result for " + id + ": " + r.reason);
  return *i;
}

}  // namespace

TEST(DeviceOutputs, SweepComparesOnTheDeviceAndFallsBackOnADifference) {
  Engine& engine = *test::gpuEnv().engine;
  RunRequest exact = request("vector_add", (1u << 20) + 5, "cuda-grid-stride");
  exact.compareOnDevice = true;
  const RunResult exactRun = engine.run(exact);
  const ImplResult& same = implOf(exactRun, "cuda-grid-stride");
  ASSERT_EQ(same.status, Status::Ok) << same.reason;
  EXPECT_EQ(same.verification.outcome, Verification::Outcome::Pass);
  EXPECT_EQ(same.verification.note, "identical to cpu-serial's outputs, bit for bit (compared on the GPU)");
  EXPECT_EQ(same.verification.compared, (1u << 20) + 5);

  // Rounding that differs in the last bits (expf on the GPU): the tolerance of the workload decides, on the host.
  RunRequest pdf = request("gaussian_pdf", (1u << 20) + 3, "cuda-kernel");
  pdf.compareOnDevice = true;
  const RunResult pr = engine.run(pdf);
  for (const auto& i : pr.impls)
    if (i.gpu && i.status == Status::Ok) {
      EXPECT_TRUE(i.verification.passed()) << i.implId << ": " << i.verification.note;
    }
}

// The comparison itself: one flipped byte anywhere (first 16-byte word, middle, the tail after the last whole word)
// is a difference; the same bytes are identical. The reference is uploaded once for its generation.
TEST(DeviceOutputs, OneDifferingByteAnywhereIsFound) {
  const std::size_t n = 16 * 1000 + 7;
  RunSetup setup;
  std::vector<HostArray> inputs, outputs, reference;
  outputs.emplace_back("y", DType::U8, std::vector<std::size_t>{n});
  reference.emplace_back("y", DType::U8, std::vector<std::size_t>{n});
  auto* ref = static_cast<unsigned char*>(reference[0].data());
  for (std::size_t i = 0; i < n; ++i) ref[i] = static_cast<unsigned char>(i * 7 + 3);
  for (const std::size_t flip : {n, std::size_t(5), std::size_t(16 * 500 + 3), n - 1}) {
    std::vector<unsigned char> written(ref, ref + n);
    if (flip < n) written[flip] ^= 0x10;
    ImplContext ctx(setup, inputs, outputs);
    ctx.reps = 1;
    ctx.warmup = 0;
    ctx.compareReference = &reference;
    ctx.referenceGeneration = (std::uint64_t(1) << 62) + 11;  // far from the engine's
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      ASSERT_EQ(cudaMemcpyAsync(d.out[0].get(), written.data(), n, cudaMemcpyHostToDevice, s), cudaSuccess);
    });
    ASSERT_TRUE(ctx.identicalToReference.has_value()) << "flip " << flip;
    EXPECT_EQ(*ctx.identicalToReference, flip == n) << "flip " << flip;
    EXPECT_FALSE(ctx.hostPoisonPending);
    EXPECT_EQ(std::memcmp(outputs[0].data(), written.data(), n), 0);  // the host copy is the device's
  }
}

TEST(DeviceOutputs, TheWorkerExportsItsOutputsAndThisProcessReadsThem) {
  IsolatedRunner runner({test::selfExe(), "--worker"});
  ASSERT_TRUE(runner.deviceStatus().available) << runner.deviceStatus().reason;
  RunRequest r = request("vector_add", (1u << 20) + 7, "cuda-grid-stride");
  r.exportDeviceOutputs = true;
  r.keepOutputs = true;
  const RunResult res = runner.run(r);
  const ImplResult& gpu = implOf(res, "cuda-grid-stride");
  ASSERT_EQ(gpu.status, Status::Ok) << gpu.reason;
  EXPECT_TRUE(implOf(res, "cpu-serial").deviceOutputs.empty());  // only GPU implementations export
  ASSERT_EQ(gpu.deviceOutputs.size(), gpu.outputs.size());
  const DeviceOutput& d = gpu.deviceOutputs.front();
  const HostArray& host = gpu.outputs.front();
  EXPECT_EQ(d.name, host.name());
  EXPECT_EQ(d.dtype, host.dtype());
  EXPECT_EQ(d.shape, host.shape());
  ASSERT_EQ(d.bytes, host.bytes());
  ASSERT_EQ(d.ipcHandle.size(), 128u);

  ASSERT_EQ(cudaSetDevice(d.device), cudaSuccess);
  const auto handle = ipc::IpcHandle::fromHex(d.ipcHandle);
  ASSERT_TRUE(handle.has_value());
  const ipc::OpenedBuffer opened = ipc::OpenedBuffer::open(*handle);
  ASSERT_TRUE(opened.ok()) << opened.error();
  const void* start = opened.at(d.offset, d.bytes);
  ASSERT_NE(start, nullptr) << "offset " << d.offset << ", " << d.bytes << " bytes, " << opened.size() << " mapped";
  std::vector<unsigned char> back(d.bytes);
  ASSERT_EQ(cudaMemcpy(back.data(), start, d.bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(std::memcmp(back.data(), host.data(), d.bytes), 0);  // the device buffer holds the run's output
}

// Small outputs share one block of device memory: each handle opens the whole block, and the offset says where the
// output starts (without it, both of mandelbrot's 36 KiB outputs read as the block's first bytes).
TEST(DeviceOutputs, SmallOutputsAreFoundAtTheirOffsets) {
  IsolatedRunner runner({test::selfExe(), "--worker"});
  ASSERT_TRUE(runner.deviceStatus().available) << runner.deviceStatus().reason;
  RunRequest r = request("mandelbrot", 96, "cuda-per-pixel");
  r.params = {{"output", "escape-count"}};
  r.exportDeviceOutputs = true;
  r.keepOutputs = true;
  const RunResult res = runner.run(r);
  const ImplResult& gpu = implOf(res, "cuda-per-pixel");
  ASSERT_EQ(gpu.status, Status::Ok) << gpu.reason;
  ASSERT_EQ(gpu.deviceOutputs.size(), 2u);  // iters and rounds
  for (std::size_t i = 0; i < 2; ++i) {
    const DeviceOutput& d = gpu.deviceOutputs[i];
    const HostArray& host = gpu.outputs[i];
    ASSERT_EQ(d.name, host.name());
    ASSERT_EQ(cudaSetDevice(d.device), cudaSuccess);
    const ipc::OpenedBuffer opened = ipc::OpenedBuffer::open(*ipc::IpcHandle::fromHex(d.ipcHandle));
    ASSERT_TRUE(opened.ok()) << opened.error();
    const void* start = opened.at(d.offset, d.bytes);
    ASSERT_NE(start, nullptr) << d.name << ": offset " << d.offset << ", " << opened.size() << " bytes mapped";
    std::vector<unsigned char> back(d.bytes);
    ASSERT_EQ(cudaMemcpy(back.data(), start, d.bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(std::memcmp(back.data(), host.data(), d.bytes), 0) << d.name << " at offset " << d.offset;
  }
}
