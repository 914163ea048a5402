// The course catalogue: every preset parses, validates against its workload and runs on the CPU, and the sizes,
// dtypes, inputs and launches are the seed notebooks' (the expectations below are copied from the seed cells).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/engine_fixture.h"
#include "launchlab/course/chapters.h"
#include "launchlab/course/course.h"
#include "launchlab/explorer/sweep.h"

using namespace launchlab;

namespace {

RunRequest parsed(const CourseExperiment& e) {
  ParsedRequest p = parseRequest(e.request);
  EXPECT_TRUE(p.ok()) << e.id << ": " << (p.ok() ? "" : p.problems.front().message);
  return p.request;
}

const CourseExperiment& get(std::string_view id) {
  const CourseExperiment* e = findCourseExperiment(id);
  if (!e) throw std::runtime_error("no course experiment " + std::string(id));
  return *e;
}

std::string launchOf(const RunRequest& r) {
  auto dim = [](const std::optional<Dim3>& d) { return d ? formatDim3(*d) : std::string("auto"); };
  return dim(r.launch.grid) + " x " + dim(r.launch.block);
}

constexpr std::uint64_t kCpuSuiteMaxN = std::uint64_t(1) << 24;
constexpr std::uint64_t kCpuSuiteSmallN = std::uint64_t(1) << 20;

/// One seed fact: the experiment's workload, size, dtype and launch (grid x block, as the seed writes [grid, block]).
struct SeedFact {
  const char* id;
  const char* workload;
  std::uint64_t n;
  DType dtype;
  const char* launch;
};

}  // namespace

TEST(Course, IdsAreUniqueChaptersKnownAndOrderIsTheSeeds) {
  const auto& all = courseExperiments();
  ASSERT_GE(all.size(), 25u);
  std::set<std::string> ids, titles;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& e = all[i];
    EXPECT_TRUE(ids.insert(e.id).second) << "duplicate id " << e.id;
    EXPECT_TRUE(titles.insert(e.title).second) << "duplicate title " << e.title;  // the window finds presets by name
    EXPECT_LT(chapterIndex(e.chapter), chapters().size()) << e.id;
    EXPECT_FALSE(e.title.empty() || e.lookFor.empty() || e.seed.section.empty()) << e.id;
    EXPECT_GT(e.seed.line, 0) << e.id;
    if (i == 0) continue;
    const auto& prev = all[i - 1].seed;
    // Experiments of one cell (Project 1 on the Z masses of the seed's last section) keep their written order.
    EXPECT_TRUE(prev.file < e.seed.file || (prev.file == e.seed.file && prev.line <= e.seed.line))
        << e.id << " is out of the seed's order";
    if (prev.file == e.seed.file && prev.line == e.seed.line) {
      EXPECT_NE(prev.section, e.seed.section) << e.id;
    }
  }
}

TEST(Course, FindsByIdAndNamesUnknownIds) {
  ASSERT_NE(findCourseExperiment("tp32-hypot-128x64"), nullptr);
  EXPECT_EQ(findCourseExperiment("tp32-hypot-128x64")->request.workload, "hypot");
  EXPECT_EQ(findCourseExperiment("nope"), nullptr);
  EXPECT_EQ(unknownCourseMessage("nope"), "unknown course experiment 'nope' (see 'launchlab-cli course')");
}

TEST(Course, SizesDtypesAndLaunchesAreTheSeeds) {
  const SeedFact facts[] = {
      {"tp31-add-ufunc", "vector_add", 4, DType::I64, "auto x auto"},
      {"tp32-square", "square", 4096, DType::I64, "auto x auto"},
      {"tp31-gaussian-pdf", "gaussian_pdf", 1000000, DType::F32, "auto x auto"},
      {"tp31-polar-distance", "polar_distance", 1000000, DType::F32, "auto x auto"},
      {"tp31-zero-suppress", "pulse_waveform", 100000, DType::I16, "auto x auto"},
      {"tp31-add-ufunc-broadcast", "vector_add", 16, DType::I64, "auto x auto"},
      {"tp31-device-arrays", "vector_add", 100000, DType::F32, "auto x auto"},
      {"tp32-no-synchronize", "vector_add", 4096, DType::I32, "32 x 128"},
      {"s3-caching", "go_fast", 64, DType::F64, "auto x auto"},
      {"atlas-tree-reduction", "reduce_sum", 1u << 20, DType::F64, "auto x auto"},
      {"tp31-nn-hidden-layer", "nn_hidden_layer", 1000000, DType::F32, "auto x auto"},
      {"tp31-l2-norm", "l2_norm", 10, DType::F32, "auto x auto"},
      {"tp32-add-kernel", "vector_add", 4096, DType::I32, "32 x 128"},
      {"tp32-coverage", "launch_coverage", 4096, DType::I32, "32 x 128"},
      {"tp32-grid-stride-add", "vector_add", 100000, DType::I32, "30 x 128"},
      {"tp32-hypot-one-thread", "hypot", 1000000, DType::F32, "1 x 1"},
      {"tp32-hypot-128x64", "hypot", 1000000, DType::F32, "128 x 64"},
      {"tp32-atomic-counter", "atomic_counter", 4096, DType::I32, "64 x 64"},
      {"tp32-histogram", "histogram", 10000, DType::F32, "128 x 64"},
      {"es-atomic-counter-4x128", "atomic_counter", 512, DType::I32, "4 x 128"},
      {"es-coalescing", "coalescing", 1 << 20, DType::F32, "1024 x 1024"},
      {"es-col-sums", "row_col_sums", 16384, DType::F32, "64 x 256"},
      {"es-matrix-add-2d", "matrix_add_2d", 2048, DType::F32, "64x64 x 32x32"},
      {"es-swap-with-shared", "swap_with_shared", 4, DType::I32, "1 x 4"},
      {"es-tile-transpose", "transpose", 4096, DType::F32, "128x128 x 32x32"},
      {"dli-nn-hidden-layer-512", "nn_hidden_layer", 100000000, DType::F32, "auto x 512"},  // the assessment's 100M
      {"s3-row-normalize", "row_normalize", 32, DType::F32, "1 x 32"},
      {"s3-streams-events", "streams_overlap", 16u << 20, DType::I32, "32768 x 512"},
      {"s3-streams-overlap", "streams_overlap", 16u << 20, DType::I32, "auto x 512"},
      {"s3-compute-pi", "monte_carlo_pi", 24 * 64 * 10000, DType::F32, "24 x 64"},
      {"s3-reduce", "reduce_sum", 1234, DType::F64, "auto x auto"},
      {"s3-forall-round", "round_decimals", 10, DType::F64, "auto x auto"},
      {"atlas-pycuda-increment", "vector_add", 1024, DType::I32, "1 x 1024"},
      {"atlas-quadratic", "quadratic", 1000000, DType::F64, "auto x 1024"},
      {"atlas-mc-circle", "monte_carlo_area", 10485760, DType::F32, "1024 x 1024"},  // compute_π(10 * 1024**2)
      {"atlas-mc-mandelbrot-area", "monte_carlo_area", 1048576, DType::F32, "1024 x 1024"},
      {"atlas-mandelbrot", "mandelbrot", 1000, DType::F32, "32x32 x 32x32"},
      {"atlas-groupby-sum", "groupby_sum", 1000000, DType::F64, "auto x auto"},  // cuDF's 1000000 rows
      {"atlas-z-mass", "z_mass", 10000000, DType::F32, "auto x 1024"},  // 10M events, (N + 1023) // 1024 x 1024
      {"atlas-histogram-private", "histogram_contention", 10000000, DType::F32, "auto x auto"},
      {"atlas-histogram-contention", "histogram_contention", 10000000, DType::F32, "auto x auto"},
      {"tp31-add-ten", "vector_add", 10, DType::I64, "auto x auto"},                    // add_ten(np.arange(10))
      {"tp31-dtype-f32-f64", "gaussian_pdf", 1000000, DType::F32, "auto x 256"},        // then f64, same launch
      {"tp31-dtype-i32-i64", "vector_add", 16, DType::I32, "auto x auto"},              // then i64
      {"tp32-coverage-fewer-threads", "launch_coverage", 4096, DType::I32, "32 x 64"},  // threads_per_block 128 -> 64
      {"es-suma-elementwise", "vector_add", 5, DType::F32, "auto x auto"},
      {"es-suma-kernel", "vector_add", 5, DType::F32, "1 x 32"},  // (5 + 31) // 32 blocks of 32
      {"es-suma-kernel-surplus", "launch_coverage", 5, DType::I32, "1 x 32"},
      {"s3-normalize-array-ops", "row_normalize", 32, DType::F32, "1 x 32"},
      {"atlas-arange-squared", "square", 12, DType::I64, "auto x auto"},  // np.arange(1, 13)**2
      {"atlas-quadratic-scalar", "quadratic", 1, DType::F64, "auto x auto"},
      {"atlas-quadratic-pow", "quadratic", 1000000, DType::F64, "auto x 1024"},
      {"atlas-intpow", "quadratic", 1000000, DType::F64, "auto x 1024"},
      {"atlas-quadratic-f32", "quadratic", 1000000, DType::F32, "auto x 1024"},  // torch.rand(1000000): float32
      {"atlas-sort", "sort", 100000000, DType::F64, "auto x auto"},  // cp.random.uniform(5, 10, 100000000).sort()
  };
  for (const auto& f : facts) {
    SCOPED_TRACE(f.id);
    const RunRequest r = parsed(get(f.id));
    EXPECT_EQ(r.workload, f.workload);
    EXPECT_EQ(r.n, f.n);
    EXPECT_EQ(r.dtype, f.dtype);
    EXPECT_EQ(launchOf(r), f.launch);
  }
}

TEST(Course, InputsAndParametersAreTheSeeds) {
  using P = std::map<std::string, std::string>;
  EXPECT_EQ(get("tp32-histogram").request.params,
            (P{{"bins", "10"}, {"xmin", "-4"}, {"xmax", "4"}, {"distribution", "normal"}}));
  EXPECT_EQ(get("s3-compute-pi").request.params.at("iters"), "10000");
  EXPECT_EQ(get("tp31-zero-suppress").request.params.at("amplitude"), "300");
  EXPECT_EQ(get("tp31-zero-suppress").request.params.at("threshold"), "15");
  EXPECT_EQ(get("tp31-make-pulses").request.params.at("amplitude"), "100");
  EXPECT_EQ(get("tp31-make-pulses").request.params.at("zero_suppress"), "off");  // the seed's two ufuncs only
  EXPECT_EQ(get("s3-row-normalize").request.params, (P{{"d", "3"}, {"input", "arange"}}));
  EXPECT_EQ(get("s3-forall-round").request.params.at("decimals"), "3");
  EXPECT_EQ(get("es-coalescing").request.params, (P{{"stride", "16"}}));
  EXPECT_EQ(get("s3-streams-events").request.params, (P{{"v", "26"}}));  // value = 26
  EXPECT_EQ(get("s3-streams-overlap").request.params, (P{{"v", "26"}, {"streams", "4"}, {"chunks", "16"}}));
  EXPECT_EQ(get("es-col-sums").request.params, (P{{"input", "seed-cols"}}));
  EXPECT_EQ(get("tp31-add-ufunc").request.params.at("input"), "seed-a-b");
  EXPECT_EQ(get("atlas-mc-circle").request.params, (P{{"shape", "circle"}}));
  EXPECT_EQ(get("atlas-mc-mandelbrot-area").request.params, (P{{"shape", "mandelbrot"}}));
  EXPECT_EQ(get("tp31-add-ufunc-broadcast").request.params.at("input"), "seed-broadcast");
  EXPECT_EQ(get("tp31-device-arrays").request.params.at("input"), "seed-2x");  // y = 2 * x
  EXPECT_EQ(get("s3-caching").request.params, (P{{"d", "64"}}));               // arange(4096).reshape(64, 64)
  EXPECT_EQ(get("s3-caching").request.warmup, "0");                            // the first call is timed: the cold run
  EXPECT_EQ(get("atlas-histogram-private").request.params, (P{{"bins", "120"}}));      // 120 bins per thread
  EXPECT_EQ(get("atlas-histogram-contention").request.params, (P{{"bins", "1200"}}));  // bin = 10 m
  for (const char* id : {"tp32-add-kernel", "tp32-no-synchronize", "tp32-grid-stride-add", "atlas-pycuda-increment",
                         "s3-reduce", "es-matrix-add-2d", "es-tile-transpose"})
    EXPECT_EQ(get(id).request.params.at("input"), "arange") << id;
}

using CourseRuns = test::EngineFixture;

TEST_F(CourseRuns, EveryPresetValidatesAndRunsOnTheCpuAsTheSeedSays) {
  // The launches emulated on the CPU that the seed makes too small on purpose: the elements no thread reaches,
  // by the launch math (4096 - 16 x 128; 100000 - 30 x 128).
  const std::map<std::pair<std::string, std::string>, std::uint64_t> unwritten = {
      {{"tp32-coverage-too-few", "cpu-emulated-launch"}, 2048},
      {{"tp32-coverage-fewer-threads", "cpu-emulated-launch"}, 2048},
      {{"tp32-grid-stride-add", "cpu-emulated-one-per-thread"}, 96160}};
  for (const auto& e : courseExperiments()) {
    SCOPED_TRACE(e.id);
    RunRequest r = parsed(e);
    const auto problems = engine->validate(r);
    ASSERT_TRUE(problems.empty()) << problems.front().field << ": " << problems.front().message;
    r.reps = 1;
    r.warmup = 0;
    // A preset beyond 2^24 elements (the assessment's 100M neurons, the sort of 1e8) validates at its size above and
    // runs here at 2^20: its CPU reference alone would take seconds and gigabytes at the seed's size.
    if (*r.n > kCpuSuiteMaxN) r.n = kCpuSuiteSmallN;
    const RunResult res = engine->run(r);
    ASSERT_EQ(res.status, Status::Ok) << res.reason;
    EXPECT_EQ(res.n, *r.n);
    EXPECT_EQ(res.dtype, dtypeName(*r.dtype));
    for (const auto& [k, v] : e.request.params) EXPECT_EQ(res.params.at(k), v) << k;
    int cpuRan = 0;
    for (const auto& impl : res.impls) {
      if (impl.gpu) continue;
      ++cpuRan;
      EXPECT_EQ(impl.status, Status::Ok) << impl.implId << ": " << impl.reason;
      if (auto u = unwritten.find({e.id, impl.implId}); u != unwritten.end()) {
        EXPECT_EQ(impl.verification.mismatches, u->second) << impl.implId;
        continue;
      }
      EXPECT_TRUE(impl.verification.passed()) << impl.implId;
    }
    EXPECT_GE(cpuRan, 1);
  }
}

TEST_F(CourseRuns, EverySweepExperimentExpandsIntoValidRuns) {
  // The comparisons `course run` makes (dtype against dtype, block x grid): every cell parses and validates, and
  // each runs its CPU reference on the CPU (at most 4 cells per experiment: the sweep's first ones).
  int sweeps = 0;
  for (const auto& e : courseExperiments()) {
    if (e.sweep.empty()) continue;
    SCOPED_TRACE(e.id);
    ++sweeps;
    SweepPlan plan{e.request, {}};
    const int sm = smCountForSweeps(engine->deviceStatus());
    for (const auto& [field, text] : e.sweep) {
      std::string err;
      const auto values = axisValues(text, &err, sm);
      ASSERT_TRUE(values) << field << ": " << err;
      EXPECT_GE(values->size(), 2u) << field;
      plan.axes.push_back({field, *values});
    }
    std::vector<RequestProblem> problems;
    const auto cells = expandSweep(
        plan, [&](const RunRequest& r) { return engine->validate(r); }, problems);
    ASSERT_TRUE(problems.empty()) << problems.front().message;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      ASSERT_TRUE(cells[i].request) << cells[i].skipReason;
      if (i >= 4) continue;
      RunRequest r = *cells[i].request;
      r.impls = {"cpu-serial"};
      r.reps = 1;
      r.warmup = 0;
      const RunResult res = engine->run(r);
      ASSERT_EQ(res.status, Status::Ok) << res.reason;
      EXPECT_TRUE(res.find("cpu-serial")->verification.passed() ||
                  res.find("cpu-serial")->verification.outcome == Verification::Outcome::NotChecked);
    }
  }
  EXPECT_GE(sweeps, 4);
}

TEST_F(CourseRuns, NewSeedExperimentsComputeTheSeedsValues) {
  auto cpuRun = [&](std::string_view id) {
    RunRequest r = parsed(get(id));
    r.reps = 1;
    r.warmup = 0;
    r.keepOutputs = true;
    RunResult res = engine->run(r);
    EXPECT_EQ(res.status, Status::Ok) << res.reason;
    return res;
  };
  const RunResult squared = cpuRun("atlas-arange-squared");
  EXPECT_EQ(squared.find("cpu-serial")->outputs.at(0).view<std::int64_t>().back(), 144);  // np.arange(1, 13)**2
  const RunResult ten = cpuRun("tp31-add-ten");
  EXPECT_EQ(ten.find("cpu-serial")->outputs.at(0).view<std::int64_t>()[9], 19);  // add_ten(np.arange(10))[9]
  const RunResult suma = cpuRun("es-suma-kernel");
  auto c = suma.find("cpu-serial")->outputs.at(0).view<float>();
  EXPECT_EQ(std::vector<float>(c.begin(), c.end()), (std::vector<float>{11, 22, 33, 44, 55}));
  const RunResult scalar = cpuRun("atlas-quadratic-scalar");
  EXPECT_NEAR(scalar.find("cpu-serial")->outputs.at(0).view<double>()[0], 0.009950493836207741, 1e-17);
}

TEST_F(CourseRuns, AtomicCounterAndReduceGiveTheSeedsAnswers) {
  auto scalar = [&](std::string_view id, const char* output) {
    RunRequest r = parsed(get(id));
    r.reps = 1;
    r.warmup = 0;
    const RunResult res = engine->run(r);
    const ImplResult* ref = res.find("cpu-serial");
    return ref ? ref->scalars.at(output) : -1.0;
  };
  EXPECT_EQ(scalar("s3-reduce", "sum"), 761995.0);                 // sum(arange(1234) + 1): the seed's A
  EXPECT_EQ(scalar("es-atomic-counter-4x128", "counter"), 512.0);  // "Esperado: 128 * 4 = 512"
  EXPECT_EQ(scalar("tp32-atomic-counter", "counter"), 4096.0);
}

TEST_F(CourseRuns, AddUfuncPresetsComputeTheSeedsArrays) {
  auto outputOf = [&](std::string_view id) {
    RunRequest r = parsed(get(id));
    r.reps = 1;
    r.keepOutputs = true;
    const RunResult res = engine->run(r);
    EXPECT_EQ(res.status, Status::Ok) << res.reason;
    auto v = res.find("cpu-serial")->outputs.at(0).view<std::int64_t>();
    return std::vector<std::int64_t>(v.begin(), v.end());
  };
  EXPECT_EQ(outputOf("tp31-add-ufunc"), (std::vector<std::int64_t>{11, 22, 33, 44}));  // a + b
  std::vector<std::int64_t> broadcast;  // b + c: b = [10, 20, 30, 40] added to every row of arange(16).reshape(4, 4)
  for (int row = 0; row < 4; ++row)
    for (int k = 0; k < 4; ++k) broadcast.push_back(10 * (k + 1) + row * 4 + k);
  EXPECT_EQ(outputOf("tp31-add-ufunc-broadcast"), broadcast);
}

TEST_F(CourseRuns, CachingPresetRunsGoFastAndReportsTheColdFirstRepetition) {
  RunRequest r = parsed(get("s3-caching"));
  ASSERT_EQ(r.warmup, 0);
  r.reps = 3;
  r.keepOutputs = true;
  const RunResult res = engine->run(r);
  ASSERT_EQ(res.status, Status::Ok) << res.reason;
  const ImplResult* ref = res.find("cpu-serial");
  ASSERT_NE(ref, nullptr);
  const double first = ref->metrics.at("first_rep_total_ms");
  EXPECT_GT(first, 0.0);
  EXPECT_GE(first, ref->phases.at(Phase::Total).minMs);  // one of the timed repetitions, the first
  EXPECT_LE(first, ref->phases.at(Phase::Total).maxMs);
  // go_fast(arange(4096).reshape(64, 64)): a + sum_i tanh(65 i) = a + tanh(0) + 63 tanh(65 i > 0) = a + 63.
  EXPECT_DOUBLE_EQ(ref->outputs.at(0).view<double>()[0], 63.0);
  EXPECT_DOUBLE_EQ(ref->outputs.at(0).view<double>()[4095], 4095.0 + 63.0);
  // Without a GPU the NVRTC variant is skipped with its reason, and the CPU ones still run.
  const ImplResult* gpu = res.find("cuda-nvrtc-first-call");
  ASSERT_NE(gpu, nullptr);
  if (!engine->deviceStatus().available) {
    EXPECT_EQ(gpu->status, Status::Skipped);
    EXPECT_FALSE(gpu->reason.empty());
  }
  r.warmup = 1;  // with a warm-up there is no cold repetition to report
  EXPECT_EQ(engine->run(r).find("cpu-serial")->metrics.count("first_rep_total_ms"), 0u);
}
