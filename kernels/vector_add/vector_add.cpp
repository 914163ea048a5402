#include "vector_add/vector_add.h"

#include <cstdint>
#include <string>

#include "common/cpu_launch.h"
#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

// b = [10, 20, ..., 10 width] repeated: NumPy's broadcast of a row over the rows of a matrix, materialised.
void fillBroadcastRow(HostArray& a, std::size_t width) {
  visitDType(a.dtype(), [&](auto t) {
    using T = decltype(t);
    auto v = a.view<T>();
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = T(10 * (i % width + 1));
  });
}

constexpr auto kAdd = [](auto x, auto y) { return x + y; };

constexpr const char* kEmulatedOnePerThread = "cpu-emulated-one-per-thread";

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  runCpuMap<Parallel, float, double, std::int32_t, std::int64_t>(ctx, kAdd);
}

template <EmulatedKernel K>
void runEmulated(ImplContext& ctx) {
  runEmulatedMap<float, double, std::int32_t, std::int64_t>(ctx, K, kAdd);
}

class VectorAdd final : public BasicWorkload {
 public:
  VectorAdd() {
    auto& i = m_info;
    i.id = "vector_add";
    i.title = "Vector addition";
    i.chapter = kChapterCustomKernels;
    i.dtypes = {DType::F32, DType::F64, DType::I32, DType::I64};
    i.defaultDType = DType::F32;
    i.defaultN = 1 << 24;
    i.params = {{.name = "input",
                 .label = "Input pattern",
                 .help = "random: x and y uniform random; arange: x = 0, 1, 2, … and y = 1 (TP 3.2's add_kernel); "
                         "seed-a-b: x = 1, 2, 3, … and y = 10, 20, 30, … (TP 3.1's a and b); seed-broadcast: x = "
                         "arange(n) (c = arange(16).reshape(4, 4) flattened) and y = 10, 20, 30, 40 repeated (b "
                         "broadcast over c's rows); seed-2x: x = arange(n), y = 2 x (add_ufunc on device arrays); "
                         "seed-plus-ten: x = arange(n), y = 10 (TP 3.1's add_ten(nums) = nums + 10)",
                 .kind = ParamSpec::Kind::Choice,
                 .choices = {"random", "arange", "seed-a-b", "seed-broadcast", "seed-2x", "seed-plus-ten"}}};
    i.inputs = {{.name = "x", .title = "x", .yLabel = "x"}, {.name = "y", .title = "y", .yLabel = "y"}};
    i.outputs = {{.name = "out", .title = "out = x + y", .yLabel = "x + y"}};

    addReference("CPU serial", "One core, a plain loop: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD)", "All cores, each on a contiguous chunk, SIMD inside.",
           runCpu<true>);
    auto& emulatedOne = addCpu(
        kEmulatedOnePerThread, "CPU: the one-thread-per-element launch, emulated",
        "Runs the one-thread-per-element kernel's body for every block and thread of the requested launch on the "
        "CPU (if (i < n) out[i] = x[i] + y[i]): a grid smaller than ceil(N / block) leaves the same tail unwritten "
        "as on a GPU, without one.",
        runEmulated<EmulatedKernel::OnePerThread>);
    emulatedOne.usesLaunchConfig = true;
    emulatedOne.runByDefault = false;
    auto& emulatedStride =
        addCpu("cpu-emulated-grid-stride", "CPU: the grid-stride launch, emulated",
               "Runs the grid-stride kernel's body for every block and thread of the requested launch on the CPU: each "
               "thread strides by grid x block, so any grid covers any N, as on a GPU.",
               runEmulated<EmulatedKernel::GridStride>);
    emulatedStride.usesLaunchConfig = true;
    emulatedStride.runByDefault = false;
    addGpu("cuda-one-per-thread", "CUDA one thread per element",
           "The course's first add_kernel with a bounds check: grid = ceil(N / block) blocks by default. A grid "
           "smaller than that leaves the tail unwritten. Every repetition copies x and y up and out back: "
           "add_ufunc called on host arrays.",
           LAUNCHLAB_CUDA_ENTRY(vector_add::cudaOnePerThread));
    addGpu("cuda-in-place", "CUDA in place (x += y)",
           "x goes up into the device buffer that the kernel then increments in place (data[i] += y[i]; with the "
           "arange input y = ones, the seed's increment) and that comes back as the result: one array in and out.",
           LAUNCHLAB_CUDA_ENTRY(vector_add::cudaInPlace))
        .runByDefault = false;
    addGpu("cuda-device-inputs", "CUDA device inputs",
           "x and y are copied to the device once (cuda.to_device, untimed); each call runs the kernel and copies "
           "the result it allocated back to the host.",
           LAUNCHLAB_CUDA_ENTRY(vector_add::cudaDeviceInputs))
        .runByDefault = false;
    addGpu("cuda-device-output", "CUDA device arrays, out=",
           "add_ufunc(x_device, y_device, out=out_device): inputs and output stay on the device, so a call is the "
           "kernel alone; the result is copied back once afterwards (copy_to_host), outside the timing.",
           LAUNCHLAB_CUDA_ENTRY(vector_add::cudaDeviceOutput))
        .runByDefault = false;
    addGpu("cuda-explicit-sync", "CUDA + synchronize (host clock)",
           "TP 3.2's add_kernel[grid, block](d_x, d_y, d_out); cuda.synchronize(); d_out.copy_to_host(), timed "
           "with the host clock: the kernel phase ends when the synchronize returns.",
           LAUNCHLAB_CUDA_ENTRY(vector_add::cudaExplicitSync))
        .runByDefault = false;
    addGpu("cuda-no-sync", "CUDA, no synchronize (host clock)",
           "The same without cuda.synchronize(): the launch returns at once and the blocking copy waits for the "
           "kernel by itself, so the result and the total time are the same; only the split moves to D2H.",
           LAUNCHLAB_CUDA_ENTRY(vector_add::cudaNoSync))
        .runByDefault = false;
    addGpu("cuda-grid-stride", "CUDA grid-stride loop",
           "The course's grid-stride add_kernel: any grid covers any N; auto grid = as many blocks as are resident.",
           LAUNCHLAB_CUDA_ENTRY(vector_add::cudaGridStride));
    addGpu("cuda-vectorized", "CUDA vectorized (16-byte loads)",
           "Each thread moves 16-byte vectors (float4/double2/int4), several in flight: the fewest memory "
           "instructions per byte.",
           LAUNCHLAB_CUDA_ENTRY(vector_add::cudaVectorized));
    nameKernels("vector_add", {{"cuda-one-per-thread", {"addOnePerThreadKernel"}},
                               {"cuda-in-place", {"addInPlaceKernel"}},
                               {"cuda-device-inputs", {"addOnePerThreadKernel"}},
                               {"cuda-device-output", {"addOnePerThreadKernel"}},
                               {"cuda-explicit-sync", {"addOnePerThreadKernel"}},
                               {"cuda-no-sync", {"addOnePerThreadKernel"}},
                               {"cuda-grid-stride", {"addGridStrideKernel"}},
                               {"cuda-vectorized", {"addVectorizedKernel"}}});
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    HostArray &x = v[0], &y = v[1];
    const std::string input = s.params.choice("input");
    if (input == "arange") {
      fillArange(x, 0, 1);
      fillConstant(y, 1);
    } else if (input == "seed-a-b") {
      fillArange(x, 1, 1);
      fillArange(y, 10, 10);
    } else if (input == "seed-broadcast") {
      fillArange(x, 0, 1);
      fillBroadcastRow(y, 4);
    } else if (input == "seed-2x") {
      fillArange(x, 0, 1);
      fillArange(y, 0, 2);
    } else if (input == "seed-plus-ten") {
      fillArange(x, 0, 1);
      fillConstant(y, 10);
    } else if (isFloating(s.dtype)) {
      fillUniform(x, -1, 1, s.seed, 0);
      fillUniform(y, -1, 1, s.seed, 1);
    } else {
      fillUniform(x, -(1 << 30), 1 << 30, s.seed, 0);
      fillUniform(y, -(1 << 30), 1 << 30, s.seed, 1);
    }
    return v;
  }

  // IEEE addition is correctly rounded on both sides: results must be identical.
  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }

  double flops(const RunSetup& s) const override { return isFloating(s.dtype) ? double(s.n) : 0; }

  // The emulated one-thread-per-element launch of T < n threads leaves exactly out[T:n] unwritten: that is the
  // outcome the lesson shows without a GPU (the seed's [30, 128] on 100000 elements, without the grid-stride loop),
  // not a failure. Any other mismatch stays a failure; the CUDA variants are verified as compared.
  Verification verifyLaunched(const RunSetup& s, const std::vector<HostArray>& inputs,
                              const std::vector<HostArray>& ref, const std::vector<HostArray>& got,
                              const ImplSpec& impl, const LaunchConfig* launched) const override {
    Verification v = verifyWithInputs(s, inputs, ref, got, impl);
    if (!launched || v.mismatches == 0 || impl.id != kEmulatedOnePerThread) return v;
    const std::uint64_t threads = launched->totalThreads();
    const std::uint64_t tail = threads < s.n ? s.n - threads : 0;
    // The first mismatch at index T, and n - T of them: the mismatches are the tail, all of it.
    declareExpectedOutcome(v, tail > 0 && v.mismatches == tail && v.firstMismatches.front() == threads,
                           std::to_string(tail) + " of " + std::to_string(s.n) +
                               " elements never written: " + std::to_string(threads) +
                               " threads, one per element (the grid needs at least ceil(n / block) blocks to cover n)");
    return v;
  }
};

}  // namespace

void register_vector_add(Registry& r) { r.add(std::make_unique<VectorAdd>()); }

}  // namespace launchlab::kernels
