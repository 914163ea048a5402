// Recorded sweeps: the reader is the writer's inverse, hostile files give one line and never a crash; the block x
// grid map and one cell's report; the command line of a request; two runs side by side (history A/B).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "launchlab/explorer/run_compare.h"
#include "launchlab/explorer/sweep_map.h"
#include "launchlab/files/command_line.h"
#include "launchlab/files/run_file.h"
#include "sweep_fixture.h"

using namespace launchlab;

TEST(SweepFile, ReadsBackWhatTheWriterWrote) {
  std::string err;
  const auto d = parseSweepJson(test::fixtureSweepJson(), &err);
  ASSERT_TRUE(d) << err;
  EXPECT_EQ(d->workload, "vector_add");
  ASSERT_EQ(d->axes.size(), 2u);
  EXPECT_EQ(d->axes[1].field, "grid");
  EXPECT_EQ(d->axes[1].values, (std::vector<std::string>{"132", "264"}));
  EXPECT_EQ(d->device.info.name, "Fixture GPU (test data)");
  EXPECT_EQ(d->record.timestamp, "2026-11-20T10:30:00Z");
  EXPECT_DOUBLE_EQ(d->record.copyGBs, 2000);
  const auto want = test::fixtureSweepPoints();
  ASSERT_EQ(d->points.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(d->points[i].values, want[i].values);
    EXPECT_EQ(d->points[i].status, want[i].status);
    EXPECT_EQ(d->points[i].block, want[i].block);
    EXPECT_EQ(d->points[i].launched, want[i].launched);
    EXPECT_NEAR(d->points[i].kernelMs, want[i].kernelMs, 1e-12);
    EXPECT_NEAR(d->points[i].bandwidthGBs, want[i].bandwidthGBs, 1e-9);
    EXPECT_EQ(d->points[i].outcome, want[i].outcome);
  }
  EXPECT_EQ(d->points[5].reason, "made-up skip for the tests");
  // Written again, it is the same document.
  SweepPlan plan = test::fixtureSweepPlan();
  EXPECT_EQ(sweepJson(plan, d->points, d->device, d->record), test::fixtureSweepJson());
  EXPECT_EQ(runfile::recordedOn(d->device, d->record.timestamp),
            "Fixture GPU (test data) (driver 13.0), 2026-11-20 10:30 UTC");
}

TEST(SweepFile, HostileOrBrokenDocumentsGiveOneLineNeverACrash) {
  const std::string good = test::fixtureSweepJson();
  std::string err;
  for (const char* bad :
       {"", "null", "[1,2]", "{\"schema\": 3}", "{\"schema\": \"launchlab.run\"}", "\xff\xfe garbage"}) {
    err.clear();
    EXPECT_FALSE(parseSweepJson(bad, &err)) << bad;
    EXPECT_FALSE(err.empty());
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
  EXPECT_FALSE(parseSweepJson("{\"schema\": \"launchlab.run\"}", &err));
  EXPECT_EQ(err, "not a launchlab.sweep document");
  // A point off its axes, a wrong type, an unknown status: named.
  auto edit = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  EXPECT_FALSE(parseSweepJson(edit("\"grid\": \"264\"", "\"grid\": \"999\""), &err));
  EXPECT_NE(err.find("point 2: grid '999' is not one of the axis' values"), std::string::npos) << err;
  EXPECT_FALSE(parseSweepJson(edit("\"threads\": 128", "\"threads\": -1"), &err));
  EXPECT_NE(err.find("point 1"), std::string::npos) << err;
  EXPECT_FALSE(parseSweepJson(edit("\"status\": \"ok\"", "\"status\": \"great\""), &err));
  EXPECT_NE(err.find("unknown value 'great'"), std::string::npos) << err;
  // Cut anywhere, or with bytes flipped at random, it is refused or read, never crashes.
  for (std::size_t cut = 0; cut < good.size(); cut += 7) EXPECT_FALSE(parseSweepJson(good.substr(0, cut), &err));
  std::mt19937 rng(7);
  int read = 0;
  for (int i = 0; i < 400; ++i) {
    std::string s = good;
    for (int k = 0; k < 3; ++k) s[rng() % s.size()] = char(rng() % 256);
    read += parseSweepJson(s, &err).has_value();
  }
  EXPECT_LT(read, 400);
  EXPECT_FALSE(loadSweepFile("/nonexistent/sweep.json", &err));
  EXPECT_EQ(err.rfind("/nonexistent/sweep.json: ", 0), 0u) << err;
}

// The largest document allowed, with every point on its own value of one axis: each point's value is looked up
// once, not searched for among all the axis' values (that was quadratic: minutes of a frozen window at this size).
TEST(SweepFile, TheLargestDocumentReadsAndMapsEveryPoint) {
  SweepPlan plan = test::fixtureSweepPlan();
  plan.axes = {{"block", {}}, {"grid", {"132"}}};
  std::vector<SweepPoint> points;
  const SweepPoint model = test::fixtureSweepPoints().front();
  for (std::size_t i = 0; i < kMaxSweepPoints; ++i) {
    plan.axes[0].values.push_back(std::to_string(i + 1));
    SweepPoint p = model;
    p.values = {plan.axes[0].values.back(), "132"};
    p.block = Dim3{std::uint32_t(i + 1), 1, 1};
    p.launched->block = p.block;
    p.kernelMs = double(i + 1);
    points.push_back(std::move(p));
  }
  // Written without its indentation, as a hand-made file would be: 160000 points fit in the 64 MiB allowed.
  std::string text;
  const std::string indented = sweepJson(plan, points, test::fixtureDevice(), {});
  for (std::size_t i = 0; i < indented.size(); ++i) {
    text += indented[i];
    if (indented[i] == '\n')
      while (i + 1 < indented.size() && indented[i + 1] == ' ') ++i;
  }
  ASSERT_LE(text.size(), kMaxSweepJsonBytes);
  std::string err;
  const auto d = parseSweepJson(text, &err);
  ASSERT_TRUE(d) << err;
  ASSERT_EQ(d->points.size(), kMaxSweepPoints);
  const SweepMap m = sweepMap(d->axes, d->points, model.implId, SweepMetric::TimeMs, 0);
  ASSERT_EQ(m.values.size(), kMaxSweepPoints);
  for (std::size_t i : {std::size_t(0), kMaxSweepPoints / 2, kMaxSweepPoints - 1}) {
    EXPECT_EQ(m.values[i], double(i + 1));
    EXPECT_EQ(m.points[i], int(i));
  }
}

// Each point is read as soon as the parser has built it and dropped from the tree (a 64 MiB file made a tree of
// hundreds of MiB beside its points): the axes must come before the points, as the writer and sorted keys put them;
// what the document holds beyond what is read is skipped unbuilt; a point, or the rest, holding far more than it
// does is refused at once.
TEST(SweepFile, PointsAreReadOneByOneAndTheRestIsBounded) {
  const std::string good = test::fixtureSweepJson();
  std::string err;
  // Keys sorted (jq -S, Python's sort_keys): "axes" still comes before "points".
  const auto sorted = parseSweepJson(nlohmann::json::parse(good).dump(1), &err);
  ASSERT_TRUE(sorted) << err;
  EXPECT_EQ(sorted->points.size(), test::fixtureSweepPoints().size());
  EXPECT_EQ(sorted->points[2].values, (std::vector<std::string>{"256", "132"}));
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(good);
  auto variant = [&](auto&& edit) {
    nlohmann::ordered_json d = doc;
    edit(d);
    err.clear();
    const bool read = parseSweepJson(d.dump(), &err).has_value();
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
    return read;
  };
  EXPECT_FALSE(variant([](auto& d) {
    const auto axes = d["axes"];
    d.erase("axes");
    d["axes"] = axes;  // now after the points
  }));
  EXPECT_EQ(err, "bad launchlab.sweep document: the points come before the axes");
  EXPECT_TRUE(variant([](auto& d) { d["crossover"] = std::vector<int>(1 << 20, 1); })) << err;  // not read
  EXPECT_FALSE(variant([](auto& d) { d["points"][1]["extra"] = std::vector<int>(5000, 1); }));
  EXPECT_EQ(err, "bad launchlab.sweep document: point 2 holds more than a point does");
  EXPECT_FALSE(variant([](auto& d) { d["device"]["extra"] = std::vector<int>(kMaxSweepPoints + (1 << 16), 1); }));
  EXPECT_EQ(err, "bad launchlab.sweep document: more than the axes and the device hold, besides the points");
  EXPECT_FALSE(variant([](auto& d) { d["points"][0] = 7; }));
  EXPECT_NE(err.find("bad launchlab.sweep document: point 1: "), std::string::npos) << err;
  EXPECT_FALSE(variant([](auto& d) { d["schema"] = "launchlab.run"; }));
  EXPECT_EQ(err, "not a launchlab.sweep document");
}

TEST(SweepMap, BlockByGridValuesWithGapsWhereNothingWasMeasured) {
  const auto pts = test::fixtureSweepPoints();
  const auto axes = test::fixtureSweepPlan().axes;
  const SweepMap t = sweepMap(axes, pts, "", SweepMetric::TimeMs, 0);
  ASSERT_TRUE(t.problem.empty()) << t.problem;
  EXPECT_EQ(t.blocks, (std::vector<std::string>{"128", "256", "512"}));
  EXPECT_EQ(t.grids, (std::vector<std::string>{"132", "264"}));
  EXPECT_NEAR(t.at(0, 1), 0.01875, 1e-12);  // 0.010 x 1.25 x 1.5
  EXPECT_NEAR(t.at(1, 0), 0.03, 1e-12);     // 0.010 x 1.5 x 2
  EXPECT_TRUE(std::isnan(t.at(2, 1)));      // skipped
  EXPECT_EQ(t.pointAt(1, 0), 2);
  EXPECT_NEAR(t.minValue, 0.01875, 1e-12);
  EXPECT_NEAR(t.maxValue, 0.04, 1e-12);
  const SweepMap pct = sweepMap(axes, pts, "cuda-grid-stride", SweepMetric::PercentOfCopy, 2000);
  EXPECT_NEAR(pct.at(0, 1), 100.0 * 12582912 / 0.01875e6 / 2000, 1e-9);  // 671.09 GB/s = 33.55 %
  EXPECT_NE(sweepMap(axes, pts, "", SweepMetric::PercentOfCopy, 0).problem.find("no cudaMemcpy"), std::string::npos);
  EXPECT_NE(sweepMap({axes[0]}, pts, "", SweepMetric::TimeMs, 0).problem.find("no grid axis"), std::string::npos);
  EXPECT_FALSE(sweepMap(axes, pts, "cuda-other", SweepMetric::TimeMs, 0).problem.empty());
}

TEST(SweepMap, ACellsOccupancyWavesAndGapToThePrediction) {
  const auto pts = test::fixtureSweepPoints();
  const SweepCeiling ceiling = sweepCeiling(pts, "cuda-grid-stride", 2000);
  EXPECT_EQ(ceiling.source, "cudaMemcpy D2D measured in the same sweep");
  // Without cudaMemcpy: the sweep's best point (block 128, grid 264).
  EXPECT_NEAR(sweepCeiling(pts, "cuda-grid-stride", 0).gbs, 12582912 / 0.01875e6, 1e-9);
  OccupancyRow row;
  row.block = pts[2].block;  // 256 threads, grid 132
  row.occupancy = computeOccupancy(defaultArchProfile(), KernelResources{16, 0, 0, 0, false}, 256);
  row.waves = wavesOf(132, row.occupancy.blocksPerSm, 132);
  EXPECT_EQ(row.occupancy.blocksPerSm, 8);  // 2048 threads per SM / 256
  EXPECT_EQ(row.waves.perWave, 1056u);
  EXPECT_EQ(row.waves.lastBlocks, 132u);
  const SweepCellReport r = sweepCellReport(pts[2], ceiling, &row);
  // 12 MiB at 2000 GB/s x 12.5 % wave efficiency = 0.050332 ms; measured 0.03 ms is 40 % faster.
  EXPECT_NEAR(r.predictedMs, 12582912 / (2000e9 * 0.125) * 1e3, 1e-9);
  EXPECT_NEAR(r.gapPercent, 100 * (0.03 - r.predictedMs) / r.predictedMs, 1e-9);
  ASSERT_EQ(r.lines.size(), 5u);
  EXPECT_EQ(r.lines[0], "block 256, grid 132: kernel 0.03 ms (min 0.03, max 0.033), 419.4 GB/s");
  EXPECT_EQ(r.lines[2].rfind("theoretical occupancy 100% (64 of 64 warps, 8 blocks per SM), limited by ", 0), 0u)
      << r.lines[2];
  EXPECT_EQ(r.lines[3],
            "waves: 132 blocks / 1056 per wave = 0.12 waves; last partial wave: 132 blocks (wave efficiency 12%)");
  EXPECT_NE(r.lines[4].find("measured is 40% faster"), std::string::npos) << r.lines[4];
  const SweepCellReport skipped = sweepCellReport(pts[5], ceiling, nullptr);
  EXPECT_EQ(skipped.lines[0], "block 512: skipped (made-up skip for the tests)");
  EXPECT_EQ(skipped.predictedMs, 0);
  EXPECT_EQ(sweepPointGrid(test::fixtureSweepPlan().axes, pts[5]), (Dim3{264, 1, 1}));
}

TEST(CommandLine, EveryFieldOfTheRequestQuotedForTheShell) {
  RunRequest r;
  r.workload = "vector_add";
  r.n = 1u << 20;
  r.dtype = DType::F64;
  r.launch.block = Dim3{256, 1, 1};
  r.launch.grid = Dim3{528, 1, 1};
  r.impls = {"cuda-grid-stride", "cpu-openmp"};
  r.reps = 7;
  r.warmup = 2;
  r.seed = 9;
  r.params = {{"label", "it's a b"}};
  r.device = 1;
  EXPECT_EQ(
      runCommandLine(r),
      "launchlab-cli run vector_add --n 1048576 --dtype f64 --block 256 --grid 528 --impl cuda-grid-stride,cpu-openmp "
      "--reps 7 --warmup 2 --seed 9 --param 'label=it'\\''s a b' --device 1");
  RunRequest plain;
  plain.workload = "saxpy";
  EXPECT_EQ(runCommandLine(plain), "launchlab-cli run saxpy --reps 5 --warmup 1 --seed 42");
  EXPECT_EQ(shellQuote(""), "''");
  EXPECT_EQ(shellQuote("$(rm -rf /)"), "'$(rm -rf /)'");
  EXPECT_EQ(shellQuote("16x16"), "16x16");
}

// ---- history A/B (run_compare.h) ----

namespace {
ImplResult timedImpl(const std::string& id, double kernelMs, double totalMs, std::vector<float> out) {
  ImplResult i;
  i.implId = i.title = id;
  i.gpu = id.rfind("cuda", 0) == 0;
  i.phases[i.gpu ? Phase::Kernel : Phase::Cpu] = {kernelMs, kernelMs, kernelMs, 1};
  i.phases[Phase::Total] = {totalMs, totalMs, totalMs, 1};
  if (!out.empty()) {
    i.outputs.emplace_back("out", DType::F32, std::vector<std::size_t>{out.size()});
    std::copy(out.begin(), out.end(), i.outputs.back().view<float>().begin());
  }
  return i;
}
}  // namespace

TEST(RunCompare, TimingsSideBySideWithRatiosAndOutputsElementByElement) {
  RunResult a, b;
  a.workload = b.workload = "vector_add";
  a.timestamp = b.timestamp = "2026-11-24T01:00:00Z";
  a.impls = {timedImpl("cpu-serial", 4, 4, {1, 2, 3, 4}), timedImpl("cuda-a", 0.5, 2, {1, 2, 3, 4})};
  b.impls = {timedImpl("cpu-serial", 4, 5, {1, 2, 3, 4}), timedImpl("cuda-a", 0.25, 1, {1, 2.5f, 3, 3})};
  b.impls.push_back(timedImpl("cuda-b", 1, 1, {}));
  b.impls.back().status = Status::Skipped;
  const auto t = compareTimings(a, b);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_DOUBLE_EQ(t[0].ratio, 1.25);  // 5 / 4: B slower
  EXPECT_DOUBLE_EQ(t[1].ratio, 0.5);   // 1 / 2: B twice as fast
  EXPECT_DOUBLE_EQ(t[1].computeB, 0.25);
  EXPECT_FALSE(t[2].inA);
  EXPECT_EQ(t[2].statusB, Status::Skipped);
  EXPECT_EQ(t[2].ratio, 0);
  const auto o = compareOutputs(a, b);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(o[0].note, "identical (4 elements)");
  EXPECT_EQ(o[1].differing, 2u);
  EXPECT_DOUBLE_EQ(o[1].maxAbsDiff, 1.0);
  EXPECT_EQ(o[1].note, "2 of 4 elements differ, max |A - B| = 1");
  EXPECT_EQ(keptArrayBytes(a), 2u * 4 * 4);
  const RunResult light = withoutArrays(b);
  EXPECT_EQ(keptArrayBytes(light), 0u);
  EXPECT_DOUBLE_EQ(light.impls[1].totalMedianMs(), 1);
  EXPECT_EQ(compareOutputs(a, light)[0].note, "not kept in B");
}

/// A stride sweep with --counters: the coalescing curve, one figure per point (made-up values).
TEST(SweepFile, CountersPerPointReachTheCsvAndTheJsonAndReadBack) {
  SweepPlan plan;
  plan.base.workload = "coalescing";
  plan.base.impls = "cuda-strided";
  plan.axes = {{"param:stride", {"1", "2", "32"}}};
  std::vector<SweepPoint> points;
  for (const auto& [stride, sectors] : std::vector<std::pair<std::string, double>>{{"1", 4}, {"2", 8}, {"32", 32}}) {
    RunResult r;
    ImplResult& i = r.impls.emplace_back();
    i.implId = "cuda-strided";
    i.gpu = true;
    i.counters.emplace();
    i.counters->source = "measured from the kernel's accesses";
    if (stride == "32")
      i.counters->error = {CounterErrorKind::Failed, "made-up failure"};
    else
      i.counters->values = {{"sectors_per_request", sectors}};
    SweepPoint p = sweepPointFrom(r, "cuda-strided", Dim3{256, 1, 1});
    p.values = {stride};
    points.push_back(p);
  }
  EXPECT_EQ(points[1].counters.at("sectors_per_request"), 8);
  EXPECT_EQ(points[1].counterSource, "measured from the kernel's accesses");
  EXPECT_TRUE(points[2].counters.empty());
  EXPECT_NE(points[2].countersError.find("made-up failure"), std::string::npos);
  EXPECT_EQ(sweepCounterIds(points), (std::vector<std::string>{"sectors_per_request"}));

  const std::string csv = sweepCsv({"param:stride"}, points);
  const auto header = csv.substr(0, csv.find('\n'));
  EXPECT_TRUE(header.ends_with(",verification,sectors_per_request,counter_source")) << header;
  std::istringstream rows(csv);
  std::string line;
  std::getline(rows, line);
  std::getline(rows, line);
  EXPECT_TRUE(line.ends_with(",4,measured from the kernel's accesses")) << line;
  std::getline(rows, line);
  std::getline(rows, line);
  EXPECT_TRUE(line.ends_with(",,measured from the kernel's accesses")) << line;  // no value: an empty cell
  // Without counters the columns are as before.
  EXPECT_EQ(sweepCsv({"block", "grid"}, test::fixtureSweepPoints()).find("counter_source"), std::string::npos);

  std::string err;
  const auto d = parseSweepJson(sweepJson(plan, points, test::fixtureDevice(), {}), &err);
  ASSERT_TRUE(d) << err;
  ASSERT_EQ(d->points.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(d->points[k].counters, points[k].counters) << k;
    EXPECT_EQ(d->points[k].counterSource, points[k].counterSource) << k;
    EXPECT_EQ(d->points[k].countersError, points[k].countersError) << k;
  }
}
