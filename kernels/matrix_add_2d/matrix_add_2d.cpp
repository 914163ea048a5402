#include "matrix_add_2d/matrix_add_2d.h"

#include <algorithm>

#include "common/cpu_loops.h"
#include "common/index_math.h"
#include "common/matrix_workload.h"
#include "launchlab/engine/registry.h"

namespace launchlab::kernels {

namespace matrix_add_2d {

void fillThreadMap(HostArray& map) {
  auto v = map.view<double>();
  std::fill(v.begin(), v.end(), -1.0);
  const auto cell = [](std::uint64_t i) { return std::size_t(i + i / kMapThreads); };  // skip the separators
  for (std::uint32_t bx = 0; bx < kMapBlocks; ++bx)
    for (std::uint32_t by = 0; by < kMapBlocks; ++by)
      for (std::uint32_t tx = 0; tx < kMapThreads; ++tx)
        for (std::uint32_t ty = 0; ty < kMapThreads; ++ty) {
          const std::uint64_t x = idx::global1D(bx, kMapThreads, tx), y = idx::global1D(by, kMapThreads, ty);
          v[cell(x) * kMapSide + cell(y)] = double(x) + double(y) / 10;
        }
}

}  // namespace matrix_add_2d

namespace {

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  visitDTypeAmong<float, double, std::int32_t>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    const T* a = ctx.inputs[0].view<T>().data();
    const T* b = ctx.inputs[1].view<T>().data();
    T* out = ctx.outputs[0].view<T>().data();
    const std::size_t elements = ctx.outputs[0].size();
    runCpuTimed(ctx, [&] { forEachIndex<Parallel>(elements, [=](std::size_t i) { out[i] = a[i] + b[i]; }); });
  });
  matrix_add_2d::fillThreadMap(ctx.output("thread_map"));
}

class MatrixAdd2D final : public MatrixWorkload {
 public:
  MatrixAdd2D() {
    auto& i = m_info;
    i.id = "matrix_add_2d";
    i.title = "Matrix addition with a 2-D grid: coalesced against uncoalesced";
    i.chapter = kChapterMemory;
    configureMatrix(i, 2048,
                    "random: a, b uniform in [-100, 100); arange: a = b = 0, 1, 2, … in C order (the DLI notebook's)");
    i.inputs = {imageSpec("a", "a (rows x cols)", "a"), imageSpec("b", "b (rows x cols)", "b")};
    i.outputs = {imageSpec("out", "out = a + b", "a + b"),
                 {.name = "thread_map",
                  .title = "get_2D_indices: A[x][y] = x + y/10 from each thread of 2 x 2 blocks of 2 x 2 threads "
                           "(-1: block borders)",
                  .plot = PlotKind::Image,
                  .xLabel = "y (column)",
                  .yLabel = "x + y/10 (the thread's x, y)",
                  .dtype = DType::F64}};

    addReference("CPU serial", "One core, out[i] = a[i] + b[i] over the matrix in C order: the reference.",
                 runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP)", "All cores, rows of the matrix in contiguous chunks.",
           runCpu<true>);
    addGpu("cuda-coalesced", "CUDA 2-D, out[y][x] (coalesced)",
           "x = blockIdx.x * blockDim.x + threadIdx.x walks along a row: a warp reads and writes consecutive "
           "addresses.",
           LAUNCHLAB_CUDA_ENTRY(matrix_add_2d::cudaCoalesced));
    addGpu("cuda-coalesced-vec16", "CUDA 2-D, out[y][x], 16 bytes per thread",
           "The coalesced kernel with x counting 16-byte groups of a row (float4: 4 elements): a warp moves 512 "
           "contiguous bytes per instruction, as vector_add's vectorized kernel does. Columns must be a multiple of "
           "the group.",
           LAUNCHLAB_CUDA_ENTRY(matrix_add_2d::cudaCoalescedVec16));
    addGpu("cuda-uncoalesced", "CUDA 2-D, out[x][y] (uncoalesced)",
           "The same kernel with x walking down a column: the 32 threads of a warp touch 32 different rows, each "
           "its own 32-byte sector.",
           LAUNCHLAB_CUDA_ENTRY(matrix_add_2d::cudaUncoalesced));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillPattern(v, s, -100, 100);  // arange: a = b, as in the DLI notebook the seed follows
    return v;
  }

  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    const MatrixShape m = shapeOf(s);
    return {{m.rows, m.cols}, {matrix_add_2d::kMapSide, matrix_add_2d::kMapSide}};
  }

  // One IEEE addition per element on both sides: identical results.
  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }
  double flops(const RunSetup& s) const override { return isFloating(s.dtype) ? double(shapeOf(s).elements()) : 0; }
  // a and b read, out written (the thread map is a host picture, not device traffic).
  double bytesMoved(const RunSetup& s) const override {
    return 3.0 * double(shapeOf(s).elements()) * double(dtypeSize(s.dtype));
  }
};

}  // namespace

void register_matrix_add_2d(Registry& r) { r.add(std::make_unique<MatrixAdd2D>()); }

}  // namespace launchlab::kernels
