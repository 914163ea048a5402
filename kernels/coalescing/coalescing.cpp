#include "coalescing/coalescing.h"

#include <algorithm>
#include <span>

#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace coalescing {

namespace {
/// Warp 0's loads at `stride` into columns [first, first + sectorSpan) of the lanes x sectors picture `picture`
/// (`width` columns): at (lane, sector) how many of the warp's lanes load from that sector.
void drawSectors(std::span<std::int32_t> picture, std::size_t width, std::size_t first, std::uint64_t stride,
                 std::uint32_t elemBytes) {
  for (std::uint32_t lane = 0; lane < kWarp; ++lane) {
    const std::uint64_t sector = sectorOfLane(stride, elemBytes, 0, lane);
    std::int32_t sharing = 0;
    for (std::uint32_t other = 0; other < kWarp; ++other)
      sharing += sectorOfLane(stride, elemBytes, 0, other) == sector;
    picture[lane * width + first + sector] = sharing;
  }
}
}  // namespace

void fillSectorPictures(ImplContext& ctx) {
  const auto stride = std::uint64_t(ctx.setup.params.integer("stride"));
  const auto elemBytes = std::uint32_t(dtypeSize(ctx.setup.dtype));
  auto picture = ctx.output("sectors").view<std::int32_t>();
  std::fill(picture.begin(), picture.end(), 0);
  // The coalesced kernel's loads (stride 1), a column between, then the strided kernel's at the run's stride.
  const std::size_t left = sectorSpan(1, elemBytes), width = sectorPicturesWidth(stride, elemBytes);
  drawSectors(picture, width, 0, 1, elemBytes);
  for (std::size_t lane = 0; lane < kWarp; ++lane) picture[lane * width + left] = kBetweenPictures;
  drawSectors(picture, width, left + 1, stride, elemBytes);
  auto series = ctx.output("sectors_per_stride").view<double>();
  for (std::uint64_t s = 1; s <= kMaxStride; ++s) {
    series[s - 1] = double(s);
    series[kMaxStride + s - 1] = double(sectorsPerWarpLoad(s, elemBytes));
  }
  ctx.metrics["sectors_per_warp_load"] = sectorsPerWarpLoad(stride, elemBytes);
}

}  // namespace coalescing

namespace {

using namespace coalescing;

/// out[i] = a[stride·i] + b[stride·i] for i < out.size(): the seed's add_experiment (stride 1 is its coalesced case).
template <bool Parallel>
void addStrided(const HostArray& a, const HostArray& b, HostArray& out, std::uint64_t stride) {
  visitDTypeAmong<float, double>(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* pa = a.view<T>().data();
    const T* pb = b.view<T>().data();
    T* po = out.view<T>().data();
    forEachIndex<Parallel>(out.size(), [=](std::size_t i) { po[i] = pa[stride * i] + pb[stride * i]; });
  });
}

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  const auto stride = std::uint64_t(ctx.setup.params.integer("stride"));
  runCpuTimed(ctx, [&] { addStrided<Parallel>(ctx.inputs[0], ctx.inputs[1], ctx.outputs[0], stride); });
  fillSectorPictures(ctx);
}

constexpr std::uint64_t kMaxInputElements = std::uint64_t(1) << 31;

class Coalescing final : public BasicWorkload {
 public:
  Coalescing() {
    auto& i = m_info;
    i.id = "coalescing";
    i.title = "Memory coalescing: strided against contiguous loads";
    i.chapter = kChapterMemory;
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 1 << 20;
    i.maxN = std::uint64_t(1) << 26;
    i.sizeLabel = "outputs n (a and b hold stride·n elements)";
    i.params = {{.name = "stride",
                 .label = "Stride s",
                 .unit = "elements",
                 .help = "out[i] = a[s·i] + b[s·i] in the strided kernel; a and b hold s·n elements",
                 .kind = ParamSpec::Kind::Integer,
                 .defaultValue = 16,
                 .minValue = 1,
                 .maxValue = double(kMaxStride)}};
    i.inputs = {{.name = "a", .title = "a (stride·n elements)", .yLabel = "a"},
                {.name = "b", .title = "b (stride·n elements)", .yLabel = "b"}};
    i.outputs = {{.name = "out", .title = "out", .yLabel = "a + b"},
                 {.name = "sectors",
                  .title = "Warp 0's 32 loads: coalesced (left) and strided at the run's stride (right)",
                  .plot = PlotKind::Image,
                  .xLabel = "sector (32 bytes, from a's start): coalesced | strided",
                  .yLabel = "lanes in that sector",
                  .dtype = DType::I32,
                  // Out of the colour scale, so it counts lanes from 1: an empty sector is no load at all.
                  .markers = {{0, "no lane loads from this sector"}, {kBetweenPictures, "between the two maps"}}},
                 {.name = "sectors_per_stride",
                  .title = "Predicted 32-byte sectors per warp load against stride",
                  .plot = PlotKind::Series,
                  .xLabel = "stride",
                  .yLabel = "sectors per warp load",
                  .dtype = DType::F64}};

    addReference("CPU serial", "One core, out[i] = a[s·i] + b[s·i]: the reference of the strided experiment.",
                 runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP)", "All cores, the strided experiment in contiguous chunks of i.",
           runCpu<true>);
    addGpu("cuda-coalesced", "CUDA coalesced, out[i] = a[i] + b[i]",
           "The seed's coalesced=True branch: a warp loads 32 neighbouring elements (4 sectors for f32). Verified "
           "against a[i] + b[i] computed on the host (the strided formula at stride 1).",
           LAUNCHLAB_CUDA_ENTRY(coalescing::cudaCoalesced))
        .sameOutputAsReference = false;
    addGpu("cuda-strided", "CUDA strided, out[i] = a[s·i] + b[s·i]",
           "The seed's coalesced=False branch: lanes s elements apart, up to one 32-byte sector per lane.",
           LAUNCHLAB_CUDA_ENTRY(coalescing::cudaStrided));
  }

  std::string validate(const RunSetup& s) const override {
    const auto stride = std::uint64_t(s.params.integer("stride"));
    if (s.n > kMaxInputElements / stride)
      return "stride x n = " + std::to_string(stride) + " x " + std::to_string(s.n) +
             " input elements is more than 2^31: use a smaller n or stride";
    return {};
  }

  std::vector<std::vector<std::size_t>> inputShapes(const RunSetup& s) const override {
    const std::size_t len = std::size_t(s.n) * std::size_t(s.params.integer("stride"));
    return {{len}, {len}};
  }

  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    const auto width =
        sectorPicturesWidth(std::uint64_t(s.params.integer("stride")), std::uint32_t(dtypeSize(s.dtype)));
    return {{std::size_t(s.n)}, {kWarp, width}, {2, kMaxStride}};
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillUniform(v[0], -1, 1, s.seed, 0);
    fillUniform(v[1], -1, 1, s.seed, 1);
    return v;
  }

  // One IEEE addition per element; the pictures are integers computed on the host.
  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }

  /// cuda-coalesced computes the experiment at stride 1: its `out` is checked against that, computed here.
  Verification verifyWithInputs(const RunSetup& s, const std::vector<HostArray>& inputs,
                                const std::vector<HostArray>& reference, const std::vector<HostArray>& got,
                                const ImplSpec& impl) const override {
    if (impl.id != "cuda-coalesced") return verify(s, reference, got, impl);
    std::vector<HostArray> expected = reference;
    addStrided<true>(inputs[0], inputs[1], expected[0], 1);
    return verify(s, expected, got, impl);
  }

  // Useful bytes: one element of a and of b read and one of out written per output (not the sectors fetched).
  double bytesMoved(const RunSetup& s) const override { return 3.0 * double(s.n) * double(dtypeSize(s.dtype)); }
  double flops(const RunSetup& s) const override { return double(s.n); }
};

}  // namespace

void register_coalescing(Registry& r) { r.add(std::make_unique<Coalescing>()); }

}  // namespace launchlab::kernels
