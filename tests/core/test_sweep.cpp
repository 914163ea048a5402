// Sweeps in core: axis parsing, combinations with skipped cells and their reasons, running into sinks, CSV.
#include <gtest/gtest.h>

#include "core/engine_fixture.h"
#include "launchlab/explorer/sweep.h"

using namespace launchlab;

namespace {
struct SweepFixture : test::EngineFixture {
  RequestValidator validator() {
    return [this](const RunRequest& r) { return engine->validate(r); };
  }
  RunFn runner() {
    return [this](const RunRequest& r, const CancelToken* c, const ProgressFn& p) { return engine->run(r, c, p); };
  }
  SweepPlan plan(const std::string& impl) {
    SweepPlan p;
    p.base.workload = "vector_add";
    p.base.n = "4096";
    p.base.impls = impl;
    p.base.reps = "1";
    p.base.warmup = "0";
    return p;
  }
};
}  // namespace

TEST(SweepAxes, RangesListsAndSingleValues) {
  EXPECT_EQ(*axisValues("32:128:32"), (std::vector<std::string>{"32", "64", "96", "128"}));
  EXPECT_EQ(*axisValues("1:10:4"), (std::vector<std::string>{"1", "5", "9"}));
  EXPECT_EQ(*axisValues("f32, f64"), (std::vector<std::string>{"f32", "f64"}));
  EXPECT_EQ(*axisValues("16x16"), (std::vector<std::string>{"16x16"}));
  std::string err;
  EXPECT_FALSE(axisValues("32:16:1", &err));
  EXPECT_NE(err.find("STOP >= START"), std::string::npos);
  EXPECT_FALSE(axisValues("1:2", &err));
  EXPECT_NE(err.find("START:STOP:STEP"), std::string::npos);
  EXPECT_FALSE(axisValues("1:10:0", &err));
  EXPECT_FALSE(axisValues("0:99999999999:1", &err));
  EXPECT_NE(err.find("more than"), std::string::npos);
  EXPECT_FALSE(axisValues(" , ", &err));
}

TEST(SweepAxes, BlocksForOneAndTwoDimensions) {
  const auto b1 = sweepBlocks(1);
  ASSERT_EQ(b1.size(), 32u);
  EXPECT_EQ(b1.front(), (Dim3{32, 1, 1}));
  EXPECT_EQ(b1.back(), (Dim3{1024, 1, 1}));
  EXPECT_EQ(sweepBlocks(2)[3], (Dim3{32, 4, 1}));
}

TEST_F(SweepFixture, CombinationsVaryTheLastAxisFastestAndSkipInvalidOnesWithTheReason) {
  SweepPlan p = plan("cpu-parallel");
  p.axes = {{"n", {"1000", "0"}}, {"block", {"32", "2048"}}};
  std::vector<RequestProblem> problems;
  auto cells = expandSweep(p, validator(), problems);
  ASSERT_TRUE(problems.empty());
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[0].values, (std::vector<std::string>{"1000", "32"}));
  EXPECT_EQ(cells[1].values, (std::vector<std::string>{"1000", "2048"}));
  EXPECT_EQ(cells[2].values, (std::vector<std::string>{"0", "32"}));
  ASSERT_TRUE(cells[0].request.has_value());
  EXPECT_EQ(*cells[0].request->n, 1000u);
  EXPECT_EQ(*cells[0].request->launch.block, (Dim3{32, 1, 1}));
  EXPECT_FALSE(cells[1].request.has_value());
  EXPECT_NE(cells[1].skipReason.find("2048 threads per block > 1024"), std::string::npos);
  EXPECT_FALSE(cells[2].request.has_value());
  EXPECT_NE(cells[2].skipReason.find("at least 1"), std::string::npos);
}

TEST_F(SweepFixture, AProblemOfTheBaseOrAnUnknownAxisIsThePlans) {
  SweepPlan p = plan("cuda-nope");
  p.axes = {{"block", {"32", "64"}}};
  std::vector<RequestProblem> problems;
  EXPECT_TRUE(expandSweep(p, validator(), problems).empty());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].field, "impl");
  problems.clear();
  p = plan("cpu-parallel");
  p.axes = {{"colour", {"red"}}};
  EXPECT_TRUE(expandSweep(p, validator(), problems).empty());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].field, "colour");
}

TEST_F(SweepFixture, EveryCellReachesEverySinkMeasuredOrSkipped) {
  SweepPlan p = plan("cpu-parallel");
  p.axes = {{"dtype", {"f32", "f64", "i32"}}};
  p.axes.push_back({"param:input", {"random", "bogus"}});
  std::vector<RequestProblem> problems;
  auto cells = expandSweep(p, validator(), problems);
  ASSERT_TRUE(problems.empty());
  SweepTable table;
  int calls = 0;
  SweepCallback counter([&](std::size_t cell, const SweepPoint& pt, const RunResult& r) {
    EXPECT_LT(cell, cells.size());
    EXPECT_EQ(pt.values, cells[cell].values);
    if (pt.status == Status::Ok) {
      EXPECT_EQ(r.impls.back().implId, "cpu-parallel");
    }
    ++calls;
  });
  int compared = 0;
  const RunFn base = runner();
  const RunFn spy = [&](const RunRequest& r, const CancelToken* c, const ProgressFn& pr) {
    compared += r.compareOnDevice;  // every cell's GPU outputs are compared with the reference on the device
    return base(r, c, pr);
  };
  EXPECT_TRUE(runSweep(p, cells, spy, {&table, &counter}));
  EXPECT_EQ(calls, 6);
  EXPECT_EQ(compared, 3);  // the 3 runnable cells (the 3 with 'bogus' are skipped before running)
  ASSERT_EQ(table.points().size(), 6u);
  EXPECT_EQ(table.fields(), (std::vector<std::string>{"dtype", "param:input"}));
  for (const auto& pt : table.points()) {
    EXPECT_EQ(pt.implId, "cpu-parallel");
    if (pt.values[1] == "bogus") {
      EXPECT_EQ(pt.status, Status::Skipped);
      EXPECT_NE(pt.reason.find("input must be one of"), std::string::npos);
    } else {
      EXPECT_EQ(pt.status, Status::Ok) << pt.reason;
      EXPECT_EQ(pt.outcome, Verification::Outcome::Pass);
      EXPECT_GT(pt.kernelMs, 0);
      // The cell's wall time holds every repetition the point timed, and the rest of the run besides.
      EXPECT_GE(pt.cellWallMs, pt.minMs);
    }
  }
  // The wall time travels in the sweep's JSON (cell_wall_ms) and is read back.
  std::string err;
  const auto doc =
      parseSweepJson(sweepJson(p, table.points(), DeviceStatus{}, SweepRecord{"2026-11-24T00:00:00Z", 0}), &err);
  ASSERT_TRUE(doc) << err;
  ASSERT_EQ(doc->points.size(), table.points().size());
  for (std::size_t i = 0; i < doc->points.size(); ++i)
    EXPECT_NEAR(doc->points[i].cellWallMs, table.points()[i].cellWallMs, 1e-6 * table.points()[i].cellWallMs);
  const std::string csv = sweepCsv(table.fields(), table.points());
  EXPECT_EQ(csv.rfind("dtype,param:input,impl,threads,status,", 0), 0u);
  EXPECT_NE(csv.find("\nf64,bogus,cpu-parallel,0,skipped,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\ni32,random,cpu-parallel,0,ok,,"), std::string::npos) << csv;
}

TEST_F(SweepFixture, CancelStopsBeforeTheNextCell) {
  SweepPlan p = plan("cpu-parallel");
  p.axes = {{"n", {"1000", "2000", "3000"}}};
  std::vector<RequestProblem> problems;
  auto cells = expandSweep(p, validator(), problems);
  CancelToken cancel;
  SweepTable table;
  SweepCallback stopAfterFirst([&](std::size_t, const SweepPoint&, const RunResult&) { cancel.cancel(); });
  EXPECT_FALSE(runSweep(p, cells, runner(), {&stopAfterFirst, &table}, &cancel));
  EXPECT_EQ(table.points().size(), 1u);
  EXPECT_TRUE(table.cancelled());
}

TEST_F(SweepFixture, TheSameRequestRunsAsInASingleRun) {
  // What the CLI's sweep shows for one cell is what `run` gives: the same engine on the same request.
  SweepPlan p = plan("cpu-parallel");
  p.base.params = {{"input", "arange"}};
  p.axes = {{"n", {"5000"}}};
  std::vector<RequestProblem> problems;
  auto cells = expandSweep(p, validator(), problems);
  ASSERT_EQ(cells.size(), 1u);
  RequestText single = p.base;
  single.n = "5000";
  ParsedRequest parsed = parseRequest(single);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(requestText(*cells[0].request).n, requestText(parsed.request).n);
  EXPECT_EQ(cells[0].request->params, parsed.request.params);
  EXPECT_EQ(cells[0].request->impls, parsed.request.impls);
}

TEST(SweepAxes, MultiplesOfTheSmCount) {
  EXPECT_EQ(*axisValues("sm*1:sm*3:sm*1", nullptr, 132), (std::vector<std::string>{"132", "264", "396"}));
  EXPECT_EQ(*axisValues("sm*2,sm,100", nullptr, 132), (std::vector<std::string>{"264", "132", "100"}));
  EXPECT_EQ(*axisValues("sm*4", nullptr, 108), (std::vector<std::string>{"432"}));
  EXPECT_EQ(*axisValues("132:sm*2:66", nullptr, 132), (std::vector<std::string>{"132", "198", "264"}));
  std::string err;
  EXPECT_FALSE(axisValues("sm*x", &err, 132));
  EXPECT_NE(err.find("must look like sm*K"), std::string::npos);
  EXPECT_FALSE(axisValues("sm*0:sm*2:sm", &err, 132));
  EXPECT_FALSE(axisValues("sm*2", &err, 0));
  EXPECT_NE(err.find("needs the SM count"), std::string::npos);
  DeviceStatus none;
  EXPECT_EQ(smCountForSweeps(none), 132);  // the default profile's (sm_90)
  DeviceStatus gpu;
  gpu.available = true;
  gpu.info.multiprocessors = 82;
  EXPECT_EQ(smCountForSweeps(gpu), 82);
}

// Terms near the ends of the 64-bit range used to overflow: an endless loop growing without bound, or a wrong reason.
TEST(SweepAxes, RangesNearTheLimitsAreRefusedAsTooLarge) {
  for (const char* text :
       {"9223372036854775000:9223372036854775807:1000", "-9223372036854775808:9223372036854775807:1000000000000000000",
        "1:9223372036854775807:9223372036854775807", "sm*1:sm*99999999999999999:sm*1", "-9223372036854775808:0:1",
        "sm*99999999999999999"}) {
    std::string err;
    EXPECT_FALSE(axisValues(text, &err, 132)) << text;
    EXPECT_NE(err.find("too large"), std::string::npos) << text << ": " << err;
  }
  // The largest accepted terms still give their values exactly, the stop included.
  const long long top = 1ll << 62;
  EXPECT_EQ(*axisValues(std::to_string(top - 2) + ":" + std::to_string(top) + ":1"),
            (std::vector<std::string>{std::to_string(top - 2), std::to_string(top - 1), std::to_string(top)}));
  EXPECT_EQ(*axisValues(std::to_string(-top) + ":" + std::to_string(top) + ":" + std::to_string(top)),
            (std::vector<std::string>{std::to_string(-top), "0", std::to_string(top)}));
}

TEST(SweepAxes, TwoDimensionalBlockLists) {
  EXPECT_EQ(*axisValues("16x16,32x8"), (std::vector<std::string>{"16x16", "32x8"}));
}

TEST_F(SweepFixture, APlanOfMoreThanTheMaximumCellsIsRefused) {
  SweepPlan p = plan("cpu-parallel");
  p.axes = {{"n", *axisValues("1:200:1")}, {"block", *axisValues("32:1024:32")}, {"seed", *axisValues("1:2:1")}};
  std::vector<RequestProblem> problems;
  EXPECT_TRUE(expandSweep(p, validator(), problems).empty());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].message, "more than 10000 combinations: at most 10000 per sweep");
}
