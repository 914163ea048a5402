#include "atomic_counter/atomic_counter.h"

#include <cstdio>
#include <cstdlib>

#include "common/cpu_team.h"
#include "common/impl_helpers.h"
#include "launchlab/engine/registry.h"

namespace launchlab::kernels {

namespace atomic_counter {

void recordCounts(ImplContext& ctx, std::uint64_t expected, std::uint32_t observed) {
  ctx.metrics["expected"] = double(expected);
  ctx.metrics["observed"] = double(observed);
  ctx.metrics["lost_updates"] = double(expected) - double(observed);
}

std::string lostText(std::uint64_t lost, std::uint64_t n) {
  const double share = 100.0 * double(lost) / double(n ? n : 1);
  // One decimal, more where rounding would claim all (or none) were lost: 99.9997 %, not 100.0 %.
  int digits = 1;
  char b[32];
  for (;; ++digits) {
    std::snprintf(b, sizeof b, "%.*f", digits, share);
    const double shown = std::strtod(b, nullptr);
    if (digits >= 6 || ((shown < 100 || lost == n) && (shown > 0 || lost == 0))) break;
  }
  return "lost " + std::string(b) + " % of the increments (" + std::to_string(lost) + " of " + std::to_string(n) + ")";
}

}  // namespace atomic_counter

namespace {

std::uint32_t countSerial(std::uint64_t n) {
  // volatile: one load and one store per increment, like the course's loop, instead of a folded constant.
  volatile std::uint32_t counter = 0;
  for (std::uint64_t i = 0; i < n; ++i) counter = counter + 1;
  return counter;
}

std::uint32_t countParallel(std::uint64_t n) {
  // The CPU form of privatization: each thread counts its share in a register, then adds it atomically once.
  std::uint32_t counter = 0;
#pragma omp parallel num_threads(cpuTeam(n))
  {
    std::uint32_t mine = 0;
#pragma omp for schedule(static) nowait
    for (std::uint64_t i = 0; i < n; ++i) ++mine;
#pragma omp atomic
    counter += mine;
  }
  return counter;
}

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  std::uint32_t c = 0;
  runCpuTimed(ctx, [&] { c = Parallel ? countParallel(ctx.setup.n) : countSerial(ctx.setup.n); });
  ctx.outputs[0].view<std::int32_t>()[0] = std::int32_t(c);
  atomic_counter::recordCounts(ctx, ctx.setup.n, c);
}

class AtomicCounter final : public BasicWorkload {
 public:
  AtomicCounter() {
    auto& i = m_info;
    i.id = "atomic_counter";
    i.title = "One counter, many threads: races and atomics";
    i.chapter = kChapterAtomics;
    i.dtypes = {DType::I32};
    i.defaultDType = DType::I32;
    i.defaultN = 4096;
    i.maxN = (std::uint64_t(1) << 31) - 1;  // the int32 counter must hold n
    i.sizeLabel = "increments";
    i.outputs = {{.name = "counter",
                  .title = "Counter after n increments (expected: n)",
                  .plot = PlotKind::Scalar,
                  .xLabel = "",
                  .yLabel = "count",
                  .dtype = DType::I32}};

    addReference("CPU serial loop", "One core adds 1 n times: the reference (exactly n).", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (private counts + one atomic per thread)",
           "Each OpenMP thread counts its share privately, then adds it to the shared counter atomically once.",
           runCpu<true>);
    ImplSpec& race =
        addGpu("cuda-race", "CUDA counter[0] += 1 (race)",
               "The course's thread_counter_race_condition: a read-modify-write that is not atomic. Concurrent threads "
               "read the same value and all but one of their increments are lost.",
               LAUNCHLAB_CUDA_ENTRY(atomic_counter::cudaRace));
    race.demonstration = true;
    race.expectedOutcome = "the race this experiment demonstrates";
    addGpu("cuda-atomic", "CUDA atomicAdd per increment",
           "The course's thread_counter_safe (cuda.atomic.add): an atomicAdd per increment in the source, which the "
           "compiler already turns into one atomic per warp (the warp's count, added by one lane).",
           LAUNCHLAB_CUDA_ENTRY(atomic_counter::cudaAtomic));
    addGpu("cuda-warp-aggregated", "CUDA warp-aggregated atomicAdd",
           "The active threads of a warp elect a leader (cooperative_groups::coalesced_threads) which adds their "
           "count in one atomicAdd: by hand what the compiler already does for cuda-atomic (the H200 measures the same "
           "time).",
           LAUNCHLAB_CUDA_ENTRY(atomic_counter::cudaWarpAggregated));
  }

  std::vector<HostArray> makeInputs(const RunSetup&) const override { return {}; }

  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup&) const override { return {{1}}; }

  Verification verify(const RunSetup& s, const std::vector<HostArray>& ref, const std::vector<HostArray>& got,
                      const ImplSpec& impl) const override {
    Verification v = compareArrays(ref[0], got[0], Tolerance::exact());
    if (got[0].dtype() != DType::I32 || got[0].size() != 1) return v;
    const std::uint64_t observed = std::uint32_t(got[0].view<std::int32_t>()[0]);
    v.note = "observed " + std::to_string(observed) + " of " + std::to_string(s.n) + " increments";
    // A race only loses increments, and at least one survives: a count of 0 or above n is no race's outcome but a
    // broken run, which stays a failure.
    if (!impl.expectedOutcome.empty() && observed > 0 && observed < s.n)
      declareExpectedOutcome(v, true,
                             atomic_counter::lostText(s.n - observed, s.n) + " \xE2\x80\x94 " + impl.expectedOutcome);
    return v;
  }

  // One word in memory: bandwidth means nothing here (throughput is in the metric gincrements_per_s).
  double bytesMoved(const RunSetup&) const override { return 0; }
};

}  // namespace

void register_atomic_counter(Registry& r) { r.add(std::make_unique<AtomicCounter>()); }

}  // namespace launchlab::kernels
