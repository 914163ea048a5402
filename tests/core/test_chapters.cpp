// The course's chapters: one list in course order, and parameter specs written with designated initialisers.
#include <gtest/gtest.h>

#include <set>
#include <type_traits>

#include "launchlab/course/chapters.h"
#include "launchlab/engine/params.h"
#include "launchlab/engine/workload.h"

using namespace launchlab;

TEST(Chapters, AreListedOnceInCourseOrder) {
  const auto c = chapters();
  ASSERT_EQ(c.size(), 9u);
  EXPECT_EQ(c[0], "TP 3.1 — GPU ufuncs");
  EXPECT_EQ(c[1], "TP 3.2 — Custom CUDA kernels");
  EXPECT_EQ(c[2], "TP 3.2 — Atomics and races");
  EXPECT_EQ(c[3], "Spanish notes (001) — Memory: coalescing, 2-D grids, shared memory");
  EXPECT_EQ(c[4], "Session 3 — Porting and CUDA utilities");
  EXPECT_EQ(c[5], "Session 3 — Streams and events");
  EXPECT_EQ(c[6], "Session 3 — Random number generation");  // seed 003: random numbers, then the reduce generator
  EXPECT_EQ(c[7], "Session 3 — Reduce generation");
  EXPECT_EQ(c[8], "ATLAS — Python tools for CUDA");
  EXPECT_EQ(std::set<std::string_view>(c.begin(), c.end()).size(), c.size());
}

TEST(Chapters, IndexIsTheCourseOrderAndUnknownChaptersSortLast) {
  const auto c = chapters();
  for (std::size_t i = 0; i < c.size(); ++i) EXPECT_EQ(chapterIndex(c[i]), i);
  EXPECT_EQ(chapterIndex(kChapterReduce), 7u);
  EXPECT_EQ(chapterIndex("Tests"), c.size());
  EXPECT_EQ(chapterIndex(""), c.size());
}

TEST(Specs, AreAggregatesWithDesignatedInitialisers) {
  static_assert(std::is_aggregate_v<ParamSpec> && std::is_aggregate_v<ArraySpec>);
  const ParamSpec p{.name = "bins", .kind = ParamSpec::Kind::Integer, .defaultValue = 10, .logScale = true};
  EXPECT_EQ(p.name, "bins");
  EXPECT_EQ(p.kind, ParamSpec::Kind::Integer);
  EXPECT_EQ(p.maxValue, 1e300);  // unset fields keep their defaults
  const ArraySpec a{.name = "counts", .plot = PlotKind::Histogram, .dtype = DType::U32};
  EXPECT_EQ(a.xLabel, "index");
  EXPECT_EQ(a.dtypeFor(DType::F64), DType::U32);
  EXPECT_EQ(ArraySpec{.name = "x"}.dtypeFor(DType::F64), DType::F64);
}
