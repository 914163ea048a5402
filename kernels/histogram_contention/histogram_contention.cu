// histogram_contention: (a) a private histogram per thread in global memory then a column sum, (b) histogram's
// global atomics, (c) histogram's shared-memory privatized kernel with one copy per block, and with copies per lane.
#include <algorithm>
#include <cstdint>
#include <string>

#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "histogram/histogram_kernels.cuh"
#include "histogram_contention/histogram_contention.h"
#include "launchlab/engine/errors.h"

namespace launchlab::kernels::histogram_contention {

namespace {

using Rule = histogram::BinRule<float>;

/// (a) Thread t counts its masses (grid-stride) into its own row priv[t * bins ...]: no two threads share a
/// counter, so plain increments suffice.
__global__ void privatePerThreadKernel(const float* __restrict__ x, std::uint64_t n, Rule rule,
                                       unsigned* __restrict__ priv) {
  const std::uint64_t t = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x);
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  unsigned* row = priv + t * std::uint64_t(rule.bins);
  for (std::uint64_t i = t; i < n; i += stride) {
    const int b = rule(x[i]);
    if (b >= 0) ++row[b];
  }
}

/// (a)'s column sum: thread (bin, chunk) adds rows [chunk * rowsPerChunk, ...) of its bin's column (neighbouring
/// threads read neighbouring bins of a row: coalesced), then one atomic per bin and chunk.
__global__ void columnSumKernel(const unsigned* __restrict__ priv, std::uint64_t rows, int bins,
                                std::uint64_t rowsPerChunk, unsigned* __restrict__ counts) {
  const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= unsigned(bins)) return;
  const std::uint64_t begin = std::uint64_t(blockIdx.y) * rowsPerChunk;
  const std::uint64_t end = begin + rowsPerChunk < rows ? begin + rowsPerChunk : rows;
  unsigned sum = 0;
  for (std::uint64_t r = begin; r < end; ++r) sum += priv[r * std::uint64_t(bins) + b];
  if (sum) atomicAdd(counts + b, sum);
}

constexpr unsigned kSumBlock = 128;
constexpr unsigned kMaxChunks = 65535;  // gridDim.y

/// (c) and its per-lane twin: histogram's privatized kernel with 2^copiesLog2 copies per block.
void runShared(ImplContext& ctx, unsigned copiesLog2) {
  const std::uint64_t n = ctx.setup.n;
  const Rule rule = ruleOf(ctx.setup);
  const std::size_t smem = (std::size_t(rule.bins) << copiesLog2) * sizeof(unsigned);
  const std::uint64_t vectors = ceilDiv(n, gpu::kVec16Width<float>);
  const auto cfg =
      gpu::resolveLaunch1D(ctx, histogram::sharedPrivatizedKernel<float>, vectors, gpu::GridPolicy::Occupancy, smem);
  ctx.launchNote += "; " + std::to_string(1u << copiesLog2) + " cop" + (copiesLog2 ? "ies" : "y") + " of " +
                    std::to_string(rule.bins) + " bins = " + std::to_string(smem) + " B of shared memory per block";
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    unsigned* counts = d.output<unsigned>(0);
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(counts, 0, rule.bins * sizeof(unsigned), s));
    histogram::sharedPrivatizedKernel<float>
        <<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), smem, s>>>(d.input<float>(0), n, rule, copiesLog2, counts);
  });
}

/// (a)'s launch: the user's, or one thread per mass (the tutorial project's) while its private histograms fit `budget`
/// bytes, else the auto grid shrunk to fit (each thread then takes several masses, grid-stride). A user's grid over the
/// budget is refused with the reason.
LaunchConfig privateLaunch(ImplContext& ctx, int bins, double budget, const std::string& budgetWhy) {
  const bool autoGrid = !ctx.launch.grid;
  LaunchConfig cfg = gpu::resolveLaunch1D(ctx, privatePerThreadKernel, ctx.setup.n, gpu::GridPolicy::CoverN);
  const std::uint64_t block = cfg.block.count();
  const double oneMass = privateBytes(cfg.grid.count() * block, bins);
  if (oneMass <= budget) return cfg;
  const std::string need = std::to_string(cfg.grid.count() * block) + " threads x " + std::to_string(bins) +
                           " bins x 4 B = " + std::to_string(oneMass / 1e9) + " GB of private histograms > " +
                           budgetWhy;
  if (!autoGrid) throw Unavailable(need + " (a smaller --grid makes each thread take several masses)");
  const std::uint64_t blocks = std::max<std::uint64_t>(1, std::uint64_t(budget / privateBytes(block, bins)));
  ctx.launch.grid = Dim3{std::uint32_t(blocks), 1, 1};
  cfg = gpu::resolveLaunch1D(ctx, privatePerThreadKernel, ctx.setup.n, gpu::GridPolicy::CoverN);
  ctx.launch.grid.reset();
  ctx.launchNote = "one thread per mass would need " + need + ": auto grid shrunk to " + std::to_string(blocks) +
                   " blocks (grid-stride)";
  return cfg;
}

}  // namespace

void cudaPrivatePerThread(ImplContext& ctx) {
  const std::uint64_t n = ctx.setup.n;
  const Rule rule = ruleOf(ctx.setup);
  const double limit = ctx.setup.params.number("private_limit_gib") * double(1ull << 30);
  std::size_t freeBytes = 0, totalBytes = 0;
  LAUNCHLAB_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  const double usable = 0.8 * double(freeBytes);
  const double budget = std::min(limit, usable);
  const std::string why =
      limit <= usable
          ? "the limit of " + std::to_string(limit / double(1ull << 30)) + " GiB (--param private_limit_gib)"
          : "80 % of the " + std::to_string(double(freeBytes) / 1e9) + " GB free on the device";
  const auto cfg = privateLaunch(ctx, rule.bins, budget, why);
  const std::uint64_t threads = cfg.grid.count() * cfg.block.count();
  const double bytes = privateBytes(threads, rule.bins);
  ctx.metrics["private_bytes"] = bytes;
  gpu::DeviceBuffer priv{std::size_t(bytes)};
  const std::uint64_t perChunk = std::max<std::uint64_t>(256, ceilDiv(threads, kMaxChunks));
  const dim3 sumGrid(unsigned(ceilDiv(std::uint64_t(rule.bins), kSumBlock)), unsigned(ceilDiv(threads, perChunk)));
  ctx.launchNote += "; " + std::to_string(threads) + " private histograms of " + std::to_string(rule.bins) +
                    " bins = " + std::to_string(bytes / 1e9) + " GB, summed by " +
                    std::to_string(sumGrid.x * sumGrid.y) + " blocks of " + std::to_string(kSumBlock);
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    unsigned* counts = d.output<unsigned>(0);
    unsigned* rows = priv.as<unsigned>();
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(rows, 0, std::size_t(bytes), s));
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(counts, 0, rule.bins * sizeof(unsigned), s));
    privatePerThreadKernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d.input<float>(0), n, rule, rows);
    columnSumKernel<<<sumGrid, kSumBlock, 0, s>>>(rows, threads, rule.bins, perChunk, counts);
  });
}

void cudaGlobalAtomics(ImplContext& ctx) {
  const std::uint64_t n = ctx.setup.n;
  const Rule rule = ruleOf(ctx.setup);
  const auto cfg = gpu::resolveLaunch1D(ctx, histogram::globalAtomicsKernel<float>, n, gpu::GridPolicy::Occupancy);
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    unsigned* counts = d.output<unsigned>(0);
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(counts, 0, rule.bins * sizeof(unsigned), s));
    histogram::globalAtomicsKernel<float>
        <<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d.input<float>(0), n, rule, counts);
  });
}

void cudaSharedAtomics(ImplContext& ctx) { runShared(ctx, 0); }

void cudaSharedPerLane(ImplContext& ctx) { runShared(ctx, histogram::privateCopiesLog2(ruleOf(ctx.setup).bins)); }

}  // namespace launchlab::kernels::histogram_contention
