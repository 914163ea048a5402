#include "matmul/matmul.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "common/cpu_loops.h"
#include "common/matrix_workload.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/verify.h"

#if LAUNCHLAB_HAVE_EIGEN
#include <Eigen/Core>
#endif

namespace launchlab::kernels {

namespace matmul {

double sumAbsProductBound(const float* a, const float* b, const MatmulShape& s) {
  double rowL1 = 0, rowL2sq = 0, maxA = 0;
#pragma omp parallel for reduction(max : rowL1, rowL2sq, maxA) schedule(static)
  for (std::size_t i = 0; i < s.m; ++i) {
    double l1 = 0, l2 = 0, mx = 0;
    for (std::size_t l = 0; l < s.k; ++l) {
      const double x = std::fabs(double(a[i * s.k + l]));
      l1 += x;
      l2 += x * x;
      mx = std::max(mx, x);
    }
    rowL1 = std::max(rowL1, l1);
    rowL2sq = std::max(rowL2sq, l2);
    maxA = std::max(maxA, mx);
  }
  std::vector<double> colL1(s.n, 0.0), colL2sq(s.n, 0.0);
  double maxB = 0;
  for (std::size_t l = 0; l < s.k; ++l)
    for (std::size_t j = 0; j < s.n; ++j) {
      const double x = std::fabs(double(b[l * s.n + j]));
      colL1[j] += x;
      colL2sq[j] += x * x;
      maxB = std::max(maxB, x);
    }
  const double colL1Max = *std::max_element(colL1.begin(), colL1.end());
  const double colL2Max = std::sqrt(*std::max_element(colL2sq.begin(), colL2sq.end()));
  return std::min({rowL1 * maxB, maxA * colL1Max, std::sqrt(rowL2sq) * colL2Max});
}

SummationOrder matmulOrder(std::string_view implId) {
  // Products of float32 values are exact in float64, so the CPU loops round only their additions (and the result).
  if (implId == kCpuSerial || implId == "cpu-parallel") return SummationOrder::sequential(DType::F64);
  SummationOrder o = implId == "cuda-naive" || implId == "cuda-tiled-16" || implId == "cuda-register-tiled"
                         ? SummationOrder::sequential(DType::F32)
                         : SummationOrder::anyOrder(DType::F32);
  o.productTerms = true;  // FMAs round less often; the bound still holds
  return o;
}

double matmulTolerance(const SummationOrder& order, std::size_t k, double sumAbsBound, bool tf32) {
  const double sums = summationErrorBound(order, k, sumAbsBound, DType::F32) +
                      summationErrorBound(matmulOrder(kCpuSerial), k, sumAbsBound, DType::F32);
  return tf32 ? sums + kTf32ProductError * sumAbsBound : sums;
}

}  // namespace matmul

namespace {

using namespace matmul;

/// The CPU loop's blocks: kBandRows rows of C (one band per OpenMP iteration) x kBlockCols columns, accumulated in
/// double over kBlockDepth-deep slices of k, so a kBlockDepth x kBlockCols slice of B (256 KiB) is reused by the
/// band's rows from cache. The sum over l runs in order 0, 1, …, k - 1 for every element, whatever the blocking.
constexpr std::size_t kBandRows = 32, kBlockCols = 512, kBlockDepth = 128;

void multiplyBand(const float* a, const float* b, float* c, const MatmulShape& s, std::size_t band,
                  std::vector<double>& acc) {
  const std::size_t i0 = band * kBandRows, i1 = std::min(s.m, i0 + kBandRows);
  for (std::size_t j0 = 0; j0 < s.n; j0 += kBlockCols) {
    const std::size_t w = std::min(kBlockCols, s.n - j0);
    std::fill(acc.begin(), acc.end(), 0.0);
    for (std::size_t l0 = 0; l0 < s.k; l0 += kBlockDepth)
      for (std::size_t i = i0; i < i1; ++i) {
        double* row = acc.data() + (i - i0) * kBlockCols;
        for (std::size_t l = l0; l < std::min(s.k, l0 + kBlockDepth); ++l) {
          const double x = a[i * s.k + l];
          const float* bRow = b + l * s.n + j0;
          for (std::size_t j = 0; j < w; ++j) row[j] += x * double(bRow[j]);
        }
      }
    for (std::size_t i = i0; i < i1; ++i)
      for (std::size_t j = 0; j < w; ++j) c[i * s.n + j0 + j] = float(acc[(i - i0) * kBlockCols + j]);
  }
}

/// C = A B in blocks, accumulated in double: on one core (the reference) or bands of rows over all cores.
template <bool Parallel>
void runCpu(ImplContext& ctx) {
  const MatmulShape s = matmulShape(ctx.setup);
  const float* a = ctx.inputs[0].view<float>().data();
  const float* b = ctx.inputs[1].view<float>().data();
  float* c = ctx.outputs[0].view<float>().data();
  const std::size_t bands = (s.m + kBandRows - 1) / kBandRows;
  runCpuTimed(ctx, [&] {
    forEachRow<Parallel>(bands, [&](std::size_t band) {
      thread_local std::vector<double> acc;
      acc.resize(kBandRows * kBlockCols);
      multiplyBand(a, b, c, s, band, acc);
    });
  });
}

#if LAUNCHLAB_HAVE_EIGEN
// Eigen: A, B and C as row-major maps, C.noalias() = A * B: Eigen's cache-blocked GEMM with its SIMD micro-kernels,
// parallelised by Eigen itself over the OpenMP threads (the library is compiled with -fopenmp).
void runEigen(ImplContext& ctx) {
  using Rows = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const MatmulShape s = matmulShape(ctx.setup);
  const auto m = Eigen::Index(s.m), k = Eigen::Index(s.k), n = Eigen::Index(s.n);
  Eigen::Map<const Rows> a(ctx.inputs[0].view<float>().data(), m, k);
  Eigen::Map<const Rows> b(ctx.inputs[1].view<float>().data(), k, n);
  Eigen::Map<Rows> c(ctx.outputs[0].view<float>().data(), m, n);
  runCpuTimed(ctx, [&] { c.noalias() = a * b; });
}
#endif

class Matmul final : public MatrixWorkload {
 public:
  Matmul() {
    auto& i = m_info;
    i.id = "matmul";
    i.title = "Matrix multiply C = A B: naive, 16 x 16 shared tiles, register tiles, cuBLAS";
    i.chapter = kChapterMemory;
    configureMatrix(i, 1024, "random: A and B uniform in [-1, 1); arange: A = 0, 1, 2, … and B likewise, C order");
    i.dtypes = {DType::F32};
    i.sizeLabel = "m, the rows of A and C (N); A is m x k, B is k x cols (k, cols = 0: m)";
    i.params.front().label = "Columns n of B and C (0: m)";
    i.params.front().help = "n, the columns of B (k x n) and C (m x n); 0 makes n = m.";
    i.params.insert(i.params.begin(), {.name = "k",
                                       .label = "Inner dimension k (0: m)",
                                       .unit = "elements",
                                       .help = "The columns of A (m x k) and rows of B (k x n); 0 makes k = m.",
                                       .kind = ParamSpec::Kind::Integer,
                                       .defaultValue = 0,
                                       .minValue = 0,
                                       .maxValue = double(kMaxSide),
                                       .logScale = true});
    i.inputs = {imageSpec("A", "A (m x k)", "A"), imageSpec("B", "B (k x n)", "B")};
    i.outputs = {imageSpec("C", "C = A B (m x n)", "C")};
    addImpls();
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillPattern(v, s, -1, 1);
    return v;
  }

  std::string validate(const RunSetup& s) const override {
    const MatmulShape d = matmulShape(s);
    const std::pair<const char*, std::pair<std::size_t, std::size_t>> mats[] = {
        {"A", {d.m, d.k}}, {"B", {d.k, d.n}}, {"C", {d.m, d.n}}};
    for (const auto& [name, rc] : mats)
      if (rc.second > kMaxElements / rc.first)
        return std::string(name) + " is " + std::to_string(rc.first) + " x " + std::to_string(rc.second) +
               " elements, more than 2^32: use a smaller m, k or cols";
    return {};
  }

  std::vector<std::vector<std::size_t>> inputShapes(const RunSetup& s) const override {
    const MatmulShape d = matmulShape(s);
    return {{d.m, d.k}, {d.k, d.n}};
  }
  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    const MatmulShape d = matmulShape(s);
    return {{d.m, d.n}};
  }

  Verification verifyWithInputs(const RunSetup& s, const std::vector<HostArray>& inputs,
                                const std::vector<HostArray>& ref, const std::vector<HostArray>& got,
                                const ImplSpec& impl) const override {
    const MatmulShape d = matmulShape(s);
    const double bound = sumAbsProductBound(inputs[0].view<float>().data(), inputs[1].view<float>().data(), d);
    const bool tf32 = impl.id == "cublas-tf32";
    const SummationOrder order = matmulOrder(impl.id);
    const double atol = matmulTolerance(order, d.k, bound, tf32);
    Verification v = compareArrays(ref[0], got[0], Tolerance{atol, 0});
    std::ostringstream o;
    o << "|C - float64-accumulated reference| <= gamma_d S + the reference's"
      << (tf32 ? " + 2^-10 S (TF32 inputs)" : "") << " = " << atol << ", " << order.describe()
      << ", d = " << summationDepth(order, d.k) << ", S = " << bound << " >= max sum_l |a_il| |b_lj| (k = " << d.k
      << ")";
    v.note = o.str();
    return v;
  }

  double flops(const RunSetup& s) const override { return matmulShape(s).flops(); }

 private:
  void addImpls();
};

void Matmul::addImpls() {
  addReference("CPU serial (blocked, float64 accumulators)",
               "One core, 32-row x 512-column blocks of C accumulated in double over 128-deep slices of k: the "
               "reference.",
               runCpu<false>);
  addCpu("cpu-parallel", "CPU parallel (OpenMP, blocked)",
         "All cores, each on bands of 32 rows with the reference's blocked loop (the same sums, in the same order).",
         runCpu<true>);
#if LAUNCHLAB_HAVE_EIGEN
  addCpu("cpu-eigen", "CPU parallel (Eigen GEMM)",
         "C.noalias() = A * B on row-major maps: Eigen's cache-blocked SIMD GEMM, multithreaded by Eigen (OpenMP).",
         runEigen);
#else
  addCpu("cpu-eigen", "CPU parallel (Eigen GEMM)", "C.noalias() = A * B with Eigen.", {}).unavailableReason =
      "built without Eigen (install libeigen3-dev)";
#endif
  addGpu("cuda-naive", "CUDA naive (one thread per element of C)",
         "Thread (x, y) loops over k reading row y of A and column x of B from global memory: 2 loads per FMA.",
         LAUNCHLAB_CUDA_ENTRY(matmul::cudaNaive));
  addGpu("cuda-tiled-16", "CUDA 16 x 16 shared-memory tiles (Numba's example)",
         "Each block stages a 16-deep slice of A's rows and B's columns in shared memory, __syncthreads(), and each "
         "thread adds 16 products from there: every global load serves 16 FMAs. Any block works: its shape is the C "
         "tile (16 x 16 by default).",
         LAUNCHLAB_CUDA_ENTRY(matmul::cudaTiled16));
  addGpu("cuda-register-tiled", "CUDA register-tiled 128 x 128, 8 x 8 per thread",
         "256 threads per 128 x 128 tile of C, each thread 8 x 8 outputs in registers; 8-deep slices double "
         "buffered in shared memory, 16-byte loads. Fixed launch (256 threads, one block per tile).",
         LAUNCHLAB_CUDA_ENTRY(matmul::cudaRegisterTiled), ImplKind::Cuda, false);
  addGpu("cublas-sgemm", "cuBLAS SGEMM (FP32, TF32 off)",
         "The library reference: cublasSgemm in the default math mode (full float32 FMAs, no tensor cores).",
         LAUNCHLAB_CUDA_ENTRY(matmul::libSgemm), ImplKind::CudaLibrary, false);
  addGpu("cublas-tf32", "cuBLAS TF32 tensor cores (lower precision)",
         "cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32: inputs rounded to TF32 (10-bit mantissa) on tensor cores, "
         "float32 sums. Verified with a TF32 tolerance, not the float32 one.",
         LAUNCHLAB_CUDA_ENTRY(matmul::libTf32), ImplKind::CudaLibrary, false);
  nameKernels("matmul", {{"cuda-naive", {"naiveKernel"}},
                         {"cuda-tiled-16", {"tiledKernel"}},
                         {"cuda-register-tiled", {"registerTiledKernel"}}});
}

}  // namespace

void register_matmul(Registry& r) { r.add(std::make_unique<Matmul>()); }

}  // namespace launchlab::kernels
