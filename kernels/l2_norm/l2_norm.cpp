#include "l2_norm/l2_norm.h"

#include <algorithm>
#include <cmath>

#include "common/cpu_loops.h"
#include "common/row_workload.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

#if LAUNCHLAB_HAVE_EIGEN
#include <Eigen/Core>

#include "common/cpu_team.h"
#endif

namespace launchlab::kernels {

namespace {

using l2_norm::Acc;

template <typename T>
T rowNorm(const T* row, std::size_t d) {
  Acc acc = 0;
  for (std::size_t j = 0; j < d; ++j) acc += Acc(row[j]) * Acc(row[j]);
  return static_cast<T>(std::sqrt(acc));
}

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  RowWorkload::runCpuRows<Parallel>(
      ctx, [](const auto* x, auto* norm, std::size_t r, std::size_t d) { norm[r] = rowNorm(x, d); });
}

#if LAUNCHLAB_HAVE_EIGEN
// Eigen: the n x d matrix as a row-major map, each block of rows reduced by rowwise().norm() (vectorised by
// Eigen, accumulated in double like the reference); OpenMP spreads the row blocks over the cores.
void runEigen(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    using Rows = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const auto d = static_cast<Eigen::Index>(RowWorkload::rowLength(ctx.setup));
    const auto n = static_cast<Eigen::Index>(ctx.setup.n);
    const T* x = ctx.inputs[0].view<T>().data();
    T* out = ctx.outputs[0].view<T>().data();
    constexpr Eigen::Index kRowsPerBlock = 4096;
    runCpuTimed(ctx, [&] {
#pragma omp parallel for schedule(static) num_threads(cpuTeam(std::size_t(n) * std::size_t(d)))
      for (Eigen::Index first = 0; first < n; first += kRowsPerBlock) {
        const Eigen::Index rows = std::min(kRowsPerBlock, n - first);
        Eigen::Map<const Rows> block(x + first * d, rows, d);
        Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>> norms(out + first, rows);
        norms = block.template cast<double>().rowwise().norm().template cast<T>();
      }
    });
  });
}
#endif

class L2Norm final : public RowWorkload {
 public:
  L2Norm() {
    auto& i = m_info;
    i.id = "l2_norm";
    i.title = "L2 norm of each row (a generalized ufunc)";
    i.chapter = kChapterUfuncs;
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 10;
    i.maxN = std::uint64_t(1) << 28;
    i.sizeLabel = "rows (n); the matrix is n x d";
    i.params = {
        rowLengthParam(2, "Columns of the n x d matrix (the gufunc's core dimension i)."),
        {.name = "input",
         .label = "Input",
         .help = "unit-rows: random directions scaled to length 1 (the seed's points on the unit circle, every norm "
                 "1); uniform: every element uniform(-1, 1).",
         .kind = ParamSpec::Kind::Choice,
         .choices = {"unit-rows", "uniform"}},
    };
    i.inputs = {matrixSpec("x", "x (n x d)", "x")};
    i.outputs = {{.name = "norm", .title = "norm of each row", .xLabel = "row", .yLabel = "L2 norm"}};

    addReference("CPU serial", "One core, the gufunc's loop over each row: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP)", "All cores, rows split among them.", runCpu<true>);
#if LAUNCHLAB_HAVE_EIGEN
    addCpu("cpu-eigen", "CPU parallel (Eigen)",
           "The matrix as an Eigen row-major map: rowwise().norm() on blocks of rows (Eigen vectorises each row), "
           "blocks spread over the cores with OpenMP.",
           runEigen);
#else
    addCpu("cpu-eigen", "CPU parallel (Eigen)", "rowwise().norm() with Eigen.", {}).unavailableReason =
        "built without Eigen (install libeigen3-dev)";
#endif
    addGpu("cuda-thread-per-row", "CUDA one thread per row (the gufunc)",
           "What @guvectorize(target='cuda') generates: each thread loops over its own row.",
           LAUNCHLAB_CUDA_ENTRY(l2_norm::cudaThreadPerRow));
    addGpu("cuda-warp-per-row", "CUDA one warp per row (shuffles)",
           "32 lanes read a row together (coalesced) and add their partial sums with __shfl_down_sync.",
           LAUNCHLAB_CUDA_ENTRY(l2_norm::cudaWarpPerRow));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    if (s.params.choice("input") == "uniform") {
      fillUniform(v[0], -1, 1, s.seed, 0);
      return v;
    }
    // Unit rows: a normal draw per element (an isotropic direction), each row divided by its length.
    fillNormal(v[0], 0, 1, s.seed, 0);
    visitDTypeAmong<float, double>(s.dtype, [&](auto tag) {
      using T = decltype(tag);
      const std::size_t d = rowLength(s);
      T* x = v[0].view<T>().data();
      forEachRow<true>(s.n, [&](std::size_t r) {
        T* row = x + r * d;
        double len = 0;
        for (std::size_t j = 0; j < d; ++j) len += double(row[j]) * double(row[j]);
        len = std::sqrt(len);
        if (len > 0)
          for (std::size_t j = 0; j < d; ++j) row[j] = static_cast<T>(double(row[j]) / len);
      });
    });
    return v;
  }

  double flops(const RunSetup& s) const override { return 2.0 * double(s.n) * double(s.params.integer("d")); }
};

}  // namespace

void register_l2_norm(Registry& r) { r.add(std::make_unique<L2Norm>()); }

}  // namespace launchlab::kernels
