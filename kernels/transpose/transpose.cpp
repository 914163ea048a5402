#include "transpose/transpose.h"

#include <algorithm>

#include "common/cpu_loops.h"
#include "common/matrix_workload.h"
#include "launchlab/engine/registry.h"

namespace launchlab::kernels {

namespace transpose {

void fillBankPicture(HostArray& banks) {
  auto v = banks.view<std::int32_t>();
  std::fill(v.begin(), v.end(), 0);
  for (std::uint32_t pad = 0; pad <= 1; ++pad) {
    const std::size_t offset = pad ? kTile + 1 : 0;
    std::uint32_t degree[32] = {};
    for (std::uint32_t lane = 0; lane < 32; ++lane) ++degree[bankOf(tileWord(lane, 0, kTile + pad))];
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      const std::uint32_t bank = bankOf(tileWord(lane, 0, kTile + pad));
      v[lane * kBankCols + offset + bank] = std::int32_t(degree[bank]);
    }
  }
  for (std::size_t lane = 0; lane < kBankRows; ++lane) v[lane * kBankCols + kTile] = -1;
}

}  // namespace transpose

namespace {

using namespace transpose;

/// t[c][r] = a[r][c] in tiles of kTile x kTile (rows of tiles shared out over the cores when Parallel); the serial
/// reference uses tiles of one row, i.e. the plain double loop.
template <bool Parallel>
void runCpu(ImplContext& ctx) {
  visitDTypeAmong<float, double, std::int32_t>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    const MatrixShape m = MatrixWorkload::shapeOf(ctx.setup);
    const T* a = ctx.inputs[0].view<T>().data();
    T* t = ctx.outputs[0].view<T>().data();
    const std::size_t tileRows = Parallel ? kTile : 1, tileCols = Parallel ? kTile : m.cols;
    const std::size_t bandCount = (m.rows + tileRows - 1) / tileRows;
    runCpuTimed(ctx, [&] {
      forEachRow<Parallel>(bandCount, [&](std::size_t band) {
        const std::size_t r0 = band * tileRows, r1 = std::min(m.rows, r0 + tileRows);
        for (std::size_t c0 = 0; c0 < m.cols; c0 += tileCols)
          for (std::size_t r = r0; r < r1; ++r)
            for (std::size_t c = c0; c < std::min(m.cols, c0 + tileCols); ++c) t[c * m.rows + r] = a[r * m.cols + c];
      });
    });
  });
  fillBankPicture(ctx.outputs[1]);
}

class Transpose final : public MatrixWorkload {
 public:
  Transpose() {
    auto& i = m_info;
    i.id = "transpose";
    i.title = "Matrix transpose: naive, shared-memory tile, padded tile";
    i.chapter = kChapterMemory;
    configureMatrix(i, 4096,
                    "random: a uniform in [-100, 100); arange: a = 0, 1, 2, … in C order (the DLI notebook's)");
    i.inputs = {imageSpec("a", "a (rows x cols)", "a")};
    i.outputs = {imageSpec("t", "t = a^T (cols x rows)", "a^T"),
                 {.name = "banks",
                  .title = "A warp reading a tile column: lanes per bank, [32][32] | [32][33]",
                  .plot = PlotKind::Image,
                  .xLabel = "bank (0-31 unpadded | 33-64 padded)",
                  .yLabel = "lanes on that bank (conflict degree)",
                  .dtype = DType::I32,
                  // Out of the colour scale, so it spans 1..32: the padded tile's 1s stand out as dark cells.
                  .markers = {{0, "no lane reads this bank"}, {-1, "between the two tiles"}}}};

    addReference("CPU serial", "One core, t[c][r] = a[r][c] row by row: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP, 32 x 32 tiles)",
           "All cores, each on bands of 32 rows transposed tile by tile so both sides stay in cache.", runCpu<true>);
    addGpu("cuda-naive", "CUDA naive (coalesced read, strided write)",
           "One thread per element, x along a row of a: reads are coalesced, writes to t stride by rows.",
           LAUNCHLAB_CUDA_ENTRY(transpose::cudaNaive));
    addGpu("cuda-tile", "CUDA 32 x 32 shared tile (the seed's tile_transpose)",
           "Read a tile by rows into shared memory, __syncthreads(), write it by rows of t: both global sides "
           "coalesced, but reading a tile column is a 32-way bank conflict.",
           LAUNCHLAB_CUDA_ENTRY(transpose::cudaTile));
    addGpu("cuda-tile-padded", "CUDA padded tile [32][33]",
           "The same tile with one extra column: a column's 32 words fall in 32 different banks. Blocks of 32 x 8 "
           "threads (auto) do 4 elements each.",
           LAUNCHLAB_CUDA_ENTRY(transpose::cudaTilePadded));
    addGpu("cuda-tile-padded-64", "CUDA wide padded tile [64][65]",
           "The padded tile four times larger: a 32 x 8 block (auto) moves 16 elements per thread, so each thread "
           "has 16 loads in flight before the __syncthreads() instead of 4 (the DRAM latency needs that many bytes "
           "in flight per SM).",
           LAUNCHLAB_CUDA_ENTRY(transpose::cudaTilePadded64));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillPattern(v, s, -100, 100);
    return v;
  }

  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    const MatrixShape m = shapeOf(s);
    return {{m.cols, m.rows}, {kBankRows, kBankCols}};
  }

  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }
  // a read once, t written once (the bank picture is not device traffic).
  double bytesMoved(const RunSetup& s) const override {
    return 2.0 * double(shapeOf(s).elements()) * double(dtypeSize(s.dtype));
  }
};

}  // namespace

void register_transpose(Registry& r) { r.add(std::make_unique<Transpose>()); }

}  // namespace launchlab::kernels
