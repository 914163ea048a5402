// "my-kernel": a student's kernel (launchlab/course/exercise.h) compiled with NVRTC (or Numba: numba_kernel.cu), loaded
// with the CUDA runtime's library API (cudaLibraryLoadData, cudaLibraryGetKernel) and launched through the standard
// pipeline (gpu_pipeline.cuh): the same inputs, launch resolution, H2D / kernel / D2H events as the built-in variants.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/gpu_pipeline.cuh"
#include "common/user_kernel.h"
#include "common/user_kernel_launch.cuh"
#include "launchlab/course/nvrtc.h"
#include "launchlab/engine/registry.h"
#include "launchlab/kernels.h"
#include "launchlab/numba/numba.h"
#include "launchlab/ptx/ptx_counters.h"

namespace launchlab::kernels {

namespace {

// monte_carlo_pi's exercise counts hits; the estimate is 4 hits / n.
__global__ void piFromHitsKernel(const unsigned long long* hits, std::uint64_t n, double* pi) {
  *pi = 4.0 * double(*hits) / double(n);
}

/// The access probes' counter buffer (launchlab/ptx/ptx_counters.h): zeroed, its address written to the instrumented
/// module's kCountersSymbol before the kernel phase, read back after it.
class ProbeBuffer {
 public:
  ProbeBuffer(const UserLibrary& lib, int records) : m_buf(std::size_t(records) * ptx::kRecordBytes) {
    if (records == 0) return;
    LAUNCHLAB_CUDA_CHECK(cudaMemset(m_buf.get(), 0, m_buf.bytes()));
    void* address = m_buf.get();
    LAUNCHLAB_CUDA_CHECK(
        cudaMemcpy(lib.global(std::string(ptx::kCountersSymbol)), &address, sizeof address, cudaMemcpyHostToDevice));
  }
  std::vector<std::uint64_t> read() const {
    std::vector<std::uint64_t> records(m_buf.bytes() / sizeof(std::uint64_t));
    if (!records.empty())
      LAUNCHLAB_CUDA_CHECK(cudaMemcpy(records.data(), m_buf.get(), m_buf.bytes(), cudaMemcpyDeviceToHost));
    return records;
  }

 private:
  gpu::DeviceBuffer m_buf;
};

/// What the library loads: the cubin, or, when the run is measured from the kernel's accesses, its instrumented PTX.
std::string moduleImage(const CompileResult& compiled, ptx::AccessProbeSession* probes, int& records) {
  records = 0;
  if (!probes) return compiled.cubin;
  const auto& inst = probes->instrument(compiled.ptx);
  if (!inst.ok()) throw std::runtime_error("the access probes cannot read its PTX: " + inst.error);
  records = inst.records;
  return inst.ptx;
}

/// One argument's bytes: a device pointer or a scalar (exercise.h's scalarArgument), by value (cudaLaunchKernel
/// takes their addresses).
union ArgValue {
  const void* ptr;
  ExerciseScalar scalar;
};

/// The kernel's arguments in the exercise's order.
std::vector<ArgValue> argumentsFor(const ImplContext& ctx, const Exercise& ex, const gpu::DeviceArrays& d, void* hits) {
  std::vector<ArgValue> args;
  for (const auto& a : ex.args) {
    ArgValue v{};
    switch (a.kind) {
      case ExerciseArg::Kind::Input:
        v.ptr = d.in.at(std::size_t(a.index)).get();
        break;
      case ExerciseArg::Kind::Output:
        v.ptr = d.out.at(std::size_t(a.index)).get();
        break;
      case ExerciseArg::Kind::Hits:
        v.ptr = hits;
        break;
      default:
        v.scalar = scalarArgument(a, ctx.setup);
        break;
    }
    args.push_back(v);
  }
  return args;
}

/// The launch: 1-D over n (auto grid ceil(n / block), or resident blocks for grid-stride exercises), or 2-D over
/// the exercise's cols x rows (auto grid ceil(cols / block.x) x ceil(rows / block.y)).
LaunchConfig resolveUserLaunch(ImplContext& ctx, const void* kernel, const Exercise& ex) {
  if (!ex.launch2D)
    return gpu::resolveLaunch1D(ctx, kernel, ctx.setup.n,
                                ex.gridStride ? gpu::GridPolicy::Occupancy : gpu::GridPolicy::CoverN);
  const auto [cols, rows] = launchExtent(ex, ctx.setup);
  gpu::Work2D work(cols, rows);
  work.autoBlock = ex.launch2D->autoBlock;
  work.autoBlockWhy = ex.launch2D->autoBlockWhy;
  const LaunchConfig cfg = gpu::resolveLaunch2D(ctx, work);
  gpu::recordKernelOccupancy(ctx, kernel, cfg);
  return cfg;
}

bool countsHits(const Exercise& ex) {
  for (const auto& a : ex.args)
    if (a.kind == ExerciseArg::Kind::Hits) return true;
  return false;
}

}  // namespace

void launchUserKernel(ImplContext& ctx, const Exercise& ex, const void* kernel, const UserKernelArgs& argsOf,
                      const std::vector<OutputFromInput>& loads) {
  for (const auto& l : loads)
    if (ctx.outputs.at(l.output).bytes() != ctx.inputs.at(l.input).bytes())
      throw std::runtime_error("the in-place array " + ctx.outputs[l.output].name() + " is not the size of " +
                               ctx.inputs[l.input].name());
  const LaunchConfig cfg = resolveUserLaunch(ctx, kernel, ex);
  const bool hits = countsHits(ex);
  gpu::DeviceBuffer hitCounter(hits ? sizeof(unsigned long long) : 0);
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    if (ex.zeroOutputs)
      for (auto& o : d.out) LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(o.get(), 0, o.bytes(), s));
    if (hits) LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(hitCounter.get(), 0, hitCounter.bytes(), s));
    for (const auto& l : loads)
      LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(d.out.at(l.output).get(), d.in.at(l.input).get(), d.out[l.output].bytes(),
                                           cudaMemcpyDeviceToDevice, s));
    std::vector<std::uint64_t> values = argsOf(d, hitCounter.get());
    std::vector<void*> args;
    for (auto& v : values) args.push_back(&v);
    LAUNCHLAB_CUDA_CHECK(cudaLaunchKernel(kernel, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), args.data(), 0, s));
    if (hits) piFromHitsKernel<<<1, 1, 0, s>>>(hitCounter.as<unsigned long long>(), ctx.setup.n, d.output<double>(0));
  });
}

void runUserKernel(ImplContext& ctx, const UserKernel& k, const Exercise& ex) {
  if (isPythonKernel(k)) return runNumbaKernel(ctx, k, ex);
  const auto started = std::chrono::steady_clock::now();
  ptx::AccessProbeSession* probes = ptx::accessProbesOf(ctx.kernelHook);
  const std::string arch = archFor(ctx.device->ccMajor, ctx.device->ccMinor);
  const CompileResult compiled = probes ? compileUserKernelToPtx(k, ex, arch) : compileUserKernel(k, ex, arch);
  if (!compiled.unavailable.empty()) throw Unavailable(compiled.unavailable);
  if (!compiled.ok) {
    std::string first;
    for (const auto& d : compiled.diagnostics)
      if (d.isError() && first.empty()) first = formatDiagnostic(d);
    throw std::runtime_error("does not compile: " + first);
  }
  int records = 0;
  const UserLibrary lib(moduleImage(compiled, probes, records));
  const ProbeBuffer probeBuffer(lib, records);
  const void* kernel = reinterpret_cast<const void*>(lib.kernel(compiled.loweredName));
  ctx.metrics["compile_ms"] =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  launchUserKernel(ctx, ex, kernel, [&](const gpu::DeviceArrays& d, void* hits) {
    std::vector<std::uint64_t> slots;
    for (const ArgValue& v : argumentsFor(ctx, ex, d, hits)) {
      std::uint64_t slot = 0;
      std::memcpy(&slot, &v, sizeof v);
      slots.push_back(slot);
    }
    return slots;
  });
  if (probes) probes->addRecords(probeBuffer.read());
  ctx.launchNote += "; " + compiled.arch + (probes ? " instrumented PTX of " : " cubin of ") + k.fileName + " (" +
                    compiled.loweredName + ")";
}

void registerUserKernelRunner(Registry& registry) { registry.setUserKernelRunner(runUserKernel); }

}  // namespace launchlab::kernels
