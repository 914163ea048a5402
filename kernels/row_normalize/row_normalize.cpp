#include "row_normalize/row_normalize.h"

#include <algorithm>
#include <cmath>

#include "common/row_workload.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

using row_normalize::Acc;

template <typename T>
void normalizeRow(const T* x, T* y, std::size_t d) {
  Acc sum = 0;
  for (std::size_t j = 0; j < d; ++j) sum += Acc(x[j]);
  const Acc mean = sum / Acc(d);
  for (std::size_t j = 0; j < d; ++j) y[j] = static_cast<T>(Acc(x[j]) / mean);
}

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  RowWorkload::runCpuRows<Parallel>(
      ctx, [](const auto* x, auto* y, std::size_t r, std::size_t d) { normalizeRow(x, y + r * d, d); });
}

class RowNormalize final : public RowWorkload {
 public:
  RowNormalize() {
    auto& i = m_info;
    i.id = "row_normalize";
    i.title = "Normalise each row by its mean (array ops rewritten as loops)";
    i.chapter = kChapterPorting;
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 32;
    i.maxN = std::uint64_t(1) << 28;
    i.sizeLabel = "rows (n); the matrix is n x d";
    i.params = {
        rowLengthParam(3, "Columns of the n x d matrix."),
        {.name = "input",
         .label = "Input",
         .help = "arange: x = arange(n * d).reshape(n, d) (the seed); uniform: every element uniform(0.5, 1.5).",
         .kind = ParamSpec::Kind::Choice,
         .choices = {"arange", "uniform"}},
    };
    i.inputs = {matrixSpec("x", "x (n x d)", "x")};
    i.outputs = {matrixSpec("y", "x[i, :] / mean(x[i, :])", "x / row mean")};

    addReference("CPU serial", "One core, the two loops per row: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP)", "All cores, rows split among them.", runCpu<true>);
    addGpu("cuda-thread-per-row", "CUDA one thread per row (the rewrite)",
           "The exercise's answer: i = cuda.grid(1) picks a row, one loop sums it, one loop divides it.",
           LAUNCHLAB_CUDA_ENTRY(row_normalize::cudaThreadPerRow));
    addGpu("cuda-thread-per-row-in-place", "CUDA one thread per row, in place",
           "As the seed: the kernel overwrites the matrix it reads (x[i, j] = x[i, j] / mean). Here x is first "
           "copied device-to-device into the output buffer (inside the kernel phase), so the input stays for "
           "verification; the result is the same.",
           LAUNCHLAB_CUDA_ENTRY(row_normalize::cudaThreadPerRowInPlace));
    addGpu("cuda-array-passes", "CUDA array operations (two passes, as CuPy)",
           "Session 3's exercise 2: x / x.mean(axis=1, keepdims=True) as CuPy runs it, a row-mean reduction kernel "
           "into a temporary, then a broadcast division kernel over every element.",
           LAUNCHLAB_CUDA_ENTRY(row_normalize::cudaArrayPasses))
        .runByDefault = false;  // run by the s3-normalize-array-ops preset
    addGpu("cuda-warp-per-row", "CUDA one warp per row (shuffles)",
           "The 32 lanes of a warp read the row together, add up with __shfl_down_sync, share the mean and divide "
           "their elements.",
           LAUNCHLAB_CUDA_ENTRY(row_normalize::cudaWarpPerRow));
    addGpu("cuda-block-per-row", "CUDA one block per row (shared-memory reduction)",
           "All threads of a block share a row: warp shuffles, then the warps' sums combined in shared memory.",
           LAUNCHLAB_CUDA_ENTRY(row_normalize::cudaBlockPerRow));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    if (s.params.choice("input") == "uniform")
      fillUniform(v[0], 0.5, 1.5, s.seed, 0);
    else
      fillArange(v[0], 0, 1);
    return v;
  }

  // The output is the normalised matrix: n x d like the input.
  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override { return inputShapes(s); }
};

}  // namespace

void register_row_normalize(Registry& r) { r.add(std::make_unique<RowNormalize>()); }

}  // namespace launchlab::kernels
