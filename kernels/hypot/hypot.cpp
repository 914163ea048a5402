#include "hypot/hypot.h"

#include <cmath>

#include "common/impl_helpers.h"
#include "launchlab/registry.h"
#include "launchlab/rng.h"

namespace launchlab::kernels {

namespace {

template <bool Parallel> void runCpu(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const T* a = ctx.inputs[0].view<T>().data();
    const T* b = ctx.inputs[1].view<T>().data();
    T* c = ctx.outputs[0].view<T>().data();
    const std::size_t n = ctx.outputs[0].size();
    runCpuTimed(ctx, [&] {
      if constexpr (Parallel) {
#pragma omp parallel for schedule(static)
        for (std::size_t i = 0; i < n; ++i) c[i] = std::hypot(a[i], b[i]);
      } else {
        for (std::size_t i = 0; i < n; ++i) c[i] = std::hypot(a[i], b[i]);
      }
    });
  });
}

class Hypot final : public BasicWorkload {
 public:
  Hypot() {
    auto& i = m_info;
    i.id = "hypot";
    i.title = "Hypotenuse with a grid-stride loop";
    i.chapter = "TP 3.2 — Custom CUDA kernels";
    i.lesson =
        "The same kernel runs with any launch: with one block of one thread (--grid 1 --block 1) a single GPU "
        "thread walks the whole array and loses to the CPU by far; with the course's 128 x 64 it is already "
        "fast, and with enough blocks to fill every SM it is limited by memory alone.";
    i.seedNote = "TP 3.2: hypot_stride on 1,000,000 float32 a, b ~ uniform(-12, 12), launched as [1, 1] and as "
                 "[128, 64] (--grid 128 --block 64).";
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 1000000;
    i.inputs = {{"a", "a ~ uniform(-12, 12)", PlotKind::Waveform, "index", "a"},
                {"b", "b ~ uniform(-12, 12)", PlotKind::Waveform, "index", "b"}};
    i.outputs = {{"c", "c = hypot(a, b)", PlotKind::Waveform, "index", "hypot(a, b)"}};

    addCpu("cpu-serial", "CPU serial", "One core, std::hypot in a loop: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP)", "All cores, std::hypot on contiguous chunks.", runCpu<true>);
    addGpu("cuda-grid-stride", "CUDA grid-stride hypot_stride",
           "The exercise's solution: each thread strides through the array by gridDim.x * blockDim.x.",
           LAUNCHLAB_CUDA_ENTRY(hypot_workload::cudaGridStride));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    std::vector<HostArray> v;
    v.emplace_back("a", s.dtype, std::vector<std::size_t>{std::size_t(s.n)});
    v.emplace_back("b", s.dtype, std::vector<std::size_t>{std::size_t(s.n)});
    fillUniform(v[0], -12, 12, s.seed, 0);
    fillUniform(v[1], -12, 12, s.seed, 1);
    return v;
  }

  std::vector<HostArray> makeOutputs(const RunSetup& s) const override {
    return makeArrays(m_info.outputs, s.dtype, {std::size_t(s.n)});
  }

  // CUDA's hypotf is within 3 ulp, glibc's correctly rounded or within 1 ulp.
  Tolerance tolerance(const RunSetup& s, std::size_t) const override {
    return s.dtype == DType::F32 ? Tolerance{0, 1e-6} : Tolerance{0, 1e-14};
  }

  double bytesMoved(const RunSetup& s) const override { return 3.0 * double(s.n) * double(dtypeSize(s.dtype)); }
};

}  // namespace

void register_hypot(Registry& r) { r.add(std::make_unique<Hypot>()); }

}  // namespace launchlab::kernels
