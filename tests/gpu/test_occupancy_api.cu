// Core's theoretical occupancy (occupancy.h, from the device's profile and cudaFuncGetAttributes' resources)
// against cudaOccupancyMaxActiveBlocksPerMultiprocessor, for kernels limited by each resource, every block size and
// several dynamic shared-memory sizes; and every kernel the course's implementations launch (GpuEnv runs) agrees.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

#include "gpu/gpu_env.h"
#include "launchlab/explorer/occupancy.h"

using namespace launchlab;

namespace {

__global__ void lightKernel(float* p) { p[threadIdx.x] += 1.0f; }

__global__ void staticSharedKernel(float* p) {
  __shared__ float s[10000];  // 40000 bytes: 5 blocks in 228 KiB
  s[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

// Many values live at once: a register-limited kernel.
__global__ void heavyKernel(float* p, int n) {
  float acc[48];
#pragma unroll
  for (int k = 0; k < 48; ++k) acc[k] = p[threadIdx.x * 48 + k];
  for (int it = 0; it < n; ++it)
#pragma unroll
    for (int k = 0; k < 48; ++k) acc[k] = acc[k] * acc[(k + 7) % 48] + 1.0f;
  float s = 0;
#pragma unroll
  for (int k = 0; k < 48; ++k) s += acc[k];
  p[threadIdx.x] = s;
}

struct Probe {
  const char* name;
  const void* fn;
};

void expectAgreement(const ArchProfile& profile, const Probe& k, std::size_t dynamicShared) {
  cudaFuncAttributes a{};
  ASSERT_EQ(cudaFuncGetAttributes(&a, k.fn), cudaSuccess);
  const KernelResources r{.registersPerThread = a.numRegs,
                          .staticSharedBytes = a.sharedSizeBytes,
                          .localBytesPerThread = a.localSizeBytes,
                          .maxThreadsPerBlock = a.maxThreadsPerBlock};
  int mismatches = 0;
  for (int threads = 1; threads <= 1024; ++threads) {
    int api = -1;
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api, k.fn, threads, dynamicShared), cudaSuccess);
    const Occupancy theory = computeOccupancy(profile, r, threads, dynamicShared);
    if (theory.blocksPerSm != api && ++mismatches <= 5)
      ADD_FAILURE() << k.name << " (" << a.numRegs << " regs, " << a.sharedSizeBytes << " B static, " << dynamicShared
                    << " B dynamic), " << threads << " threads: theory " << theory.blocksPerSm << " (" << theory.why
                    << "), CUDA API " << api;
  }
  // The kernel's max threads per block as the theory computes it from registers alone.
  EXPECT_EQ(maxThreadsPerBlockFor(profile, a.numRegs), a.maxThreadsPerBlock) << k.name;
}

}  // namespace

TEST(OccupancyApi, TheoryAgreesWithTheCudaApiForEveryBlockSize) {
  const DeviceStatus st = test::gpuEnv().engine->deviceStatus();
  const auto profile = profileForDevice(st.info);
  if (!profile) GTEST_SKIP() << st.info.name << ": no architecture profile";
  const Probe probes[] = {{"lightKernel", reinterpret_cast<const void*>(lightKernel)},
                          {"staticSharedKernel", reinterpret_cast<const void*>(staticSharedKernel)},
                          {"heavyKernel", reinterpret_cast<const void*>(heavyKernel)}};
  for (const auto& k : probes)
    for (std::size_t dyn : {std::size_t(0), std::size_t(1000), std::size_t(7000)}) expectAgreement(*profile, k, dyn);
}

// The course's kernels, as their runs record them (gpu::recordKernelOccupancy): the API's registers and blocks per
// SM against the theory from those registers and the run's shared memory.
TEST(OccupancyApi, TheCoursesKernelsAgreeWithTheTheory) {
  auto& env = test::gpuEnv();
  const auto profile = profileForDevice(env.engine->deviceStatus().info);
  if (!profile) GTEST_SKIP() << "no architecture profile";
  int checked = 0;
  for (const char* w : {"vector_add", "histogram", "reduce_sum", "matmul", "transpose", "matrix_add_2d", "hypot"}) {
    RunRequest req;
    req.workload = w;
    req.reps = 1;
    req.warmup = 0;
    for (const char* block : {"128", "256", "1024"}) {
      req.launch.block =
          std::string(w) == "matmul" || std::string(w) == "transpose" || std::string(w) == "matrix_add_2d"
              ? std::optional<Dim3>(Dim3{32, std::uint32_t(std::stoi(block) / 32), 1})
              : std::optional<Dim3>(Dim3{std::uint32_t(std::stoi(block)), 1, 1});
      const RunResult r = env.engine->run(req);
      for (const auto& i : r.impls)
        for (const auto& a : i.kernelOccupancy) {
          ++checked;
          const Occupancy t = computeOccupancy(*profile, a.resources, a.threadsPerBlock, a.dynamicSharedBytes);
          EXPECT_EQ(t.blocksPerSm, a.blocksPerSm)
              << w << "/" << i.implId << " " << a.symbol << " block " << a.threadsPerBlock << ": " << t.why;
        }
    }
  }
  EXPECT_GT(checked, 20);
}
