// The shared request parser (text -> RunRequest, problems naming their field), its inverse, and the engine as the
// one owner of the rules a parsed request must meet.
#include <gtest/gtest.h>

#include "core/engine_fixture.h"
#include "launchlab/engine/request.h"

using namespace launchlab;

namespace {

RequestText text(const std::string& workload) {
  RequestText t;
  t.workload = workload;
  return t;
}

std::string fieldsOf(const std::vector<RequestProblem>& ps) {
  std::string s;
  for (const auto& p : ps) s += (s.empty() ? "" : ",") + p.field;
  return s;
}

struct EngineFixture : test::EngineFixture {
  std::vector<RequestProblem> problems(const RequestText& t) {
    ParsedRequest p = parseRequest(t);
    return p.ok() ? engine->validate(p.request) : p.problems;
  }
};

}  // namespace

TEST(RequestParser, DefaultsParseToAnAutoLaunchOfEveryImplementation) {
  ParsedRequest p = parseRequest(text("vector_add"));
  ASSERT_TRUE(p.ok()) << fieldsOf(p.problems);
  EXPECT_EQ(p.request.workload, "vector_add");
  EXPECT_FALSE(p.request.n.has_value());
  EXPECT_FALSE(p.request.dtype.has_value());
  EXPECT_FALSE(p.request.launch.block.has_value());
  EXPECT_FALSE(p.request.launch.grid.has_value());
  EXPECT_EQ(p.request.impls, std::vector<std::string>{"all"});
  EXPECT_EQ(p.request.reps, 5);
  EXPECT_EQ(p.request.warmup, 1);
  EXPECT_EQ(p.request.seed, 42u);
}

TEST(RequestParser, FieldsParse) {
  RequestText t = text("hypot");
  t.n = "16Mi";
  t.dtype = "float64";
  t.block = "16x16";
  t.grid = "AUTO";
  t.impls = " cpu-parallel , cuda-grid-stride ,";
  t.reps = "7";
  t.warmup = "0";
  t.seed = "9";
  t.params = {{"a", "b"}};
  ParsedRequest p = parseRequest(t);
  ASSERT_TRUE(p.ok()) << fieldsOf(p.problems);
  EXPECT_EQ(*p.request.n, 16u << 20);
  EXPECT_EQ(*p.request.dtype, DType::F64);
  EXPECT_EQ(*p.request.launch.block, (Dim3{16, 16, 1}));
  EXPECT_FALSE(p.request.launch.grid.has_value());
  EXPECT_EQ(p.request.impls, (std::vector<std::string>{"cpu-parallel", "cuda-grid-stride"}));
  EXPECT_EQ(p.request.reps, 7);
  EXPECT_EQ(p.request.warmup, 0);
  EXPECT_EQ(p.request.seed, 9u);
  EXPECT_EQ(p.request.params.at("a"), "b");
}

TEST(RequestParser, EveryMalformedFieldIsNamed) {
  RequestText t = text("vector_add");
  t.n = "12abc";
  t.dtype = "f16";
  t.block = "0";
  t.grid = "1x2x3x4";
  t.impls = " , ";
  t.reps = "1.5";
  t.warmup = "x";
  t.seed = "-1";
  ParsedRequest p = parseRequest(t);
  EXPECT_EQ(fieldsOf(p.problems), "n,dtype,block,grid,impl,reps,warmup,seed");
  EXPECT_NE(p.problems[0].message.find("malformed size '12abc'"), std::string::npos);
  EXPECT_NE(p.problems[1].message.find("unknown dtype 'f16'"), std::string::npos);
  EXPECT_NE(p.problems[5].message.find("whole number"), std::string::npos);
}

TEST(RequestParser, HugeCountsAreLeftToTheEnginesRangeRule) {
  RequestText t = text("vector_add");
  t.reps = "99999999999999";
  ParsedRequest p = parseRequest(t);
  ASSERT_TRUE(p.ok());
  EXPECT_GT(p.request.reps, kMaxRepetitions);
}

// A result records a uint64 seed (the GPU suite draws them from the whole range): every one can be given again.
TEST(RequestParser, SeedsTakeTheWholeUnsigned64BitRange) {
  RequestText t = text("vector_add");
  for (std::uint64_t seed : {std::uint64_t(0), std::uint64_t(5000000000), std::uint64_t(16538315128000875385ull),
                             std::uint64_t(18446744073709551615ull)}) {
    t.seed = std::to_string(seed);
    const ParsedRequest p = parseRequest(t);
    ASSERT_TRUE(p.ok()) << seed;
    EXPECT_EQ(p.request.seed, seed);
    EXPECT_EQ(requestText(p.request).seed, t.seed);
  }
  for (const char* bad : {"18446744073709551616", "-1", "+5", "1.5", "0x10", ""}) {
    t.seed = bad;
    EXPECT_FALSE(parseRequest(t).ok()) << bad;
  }
}

TEST(RequestParser, RequestTextIsTheInverse) {
  RunRequest r;
  r.workload = "vector_add";
  r.n = 1000003;
  r.dtype = DType::I32;
  r.launch.block = Dim3{32, 4, 1};
  r.launch.grid = Dim3{7, 1, 1};
  r.impls = {"cpu-serial", "cuda-vectorized"};
  r.reps = 3;
  r.warmup = 2;
  r.seed = 11;
  r.params = {{"input", "arange"}};
  r.inputFiles = {{"x", "/tmp/x.npy"}};
  ParsedRequest back = parseRequest(requestText(r));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.request.workload, r.workload);
  EXPECT_EQ(back.request.n, r.n);
  EXPECT_EQ(back.request.dtype, r.dtype);
  EXPECT_EQ(back.request.launch.block, r.launch.block);
  EXPECT_EQ(back.request.launch.grid, r.launch.grid);
  EXPECT_EQ(back.request.impls, r.impls);
  EXPECT_EQ(back.request.reps, r.reps);
  EXPECT_EQ(back.request.warmup, r.warmup);
  EXPECT_EQ(back.request.seed, r.seed);
  EXPECT_EQ(back.request.params, r.params);
  EXPECT_EQ(back.request.inputFiles, r.inputFiles);
}

TEST(RequestParser, SetRequestFieldKnowsEveryFieldName) {
  RequestText t;
  for (const char* f : {"n", "dtype", "block", "grid", "impl", "reps", "warmup", "seed", "param:sigma", "input:x"})
    EXPECT_TRUE(setRequestField(t, f, "v")) << f;
  EXPECT_EQ(t.n, "v");
  EXPECT_EQ(t.impls, "v");
  EXPECT_EQ(t.params.at("sigma"), "v");
  EXPECT_EQ(t.inputFiles.at("x"), "v");
  EXPECT_FALSE(setRequestField(t, "workload", "v"));
  EXPECT_FALSE(setRequestField(t, "colour", "v"));
}

TEST(RequestParser, LaunchAdviceIsAboutWarps) {
  LaunchRequest l;
  l.block = Dim3{100, 1, 1};
  auto a = launchAdvice(l, DeviceLimits::genericCuda());
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].field, "block");
  EXPECT_NE(a[0].message.find("warp"), std::string::npos);
  l.block = Dim3{16, 16, 1};
  EXPECT_TRUE(launchAdvice(l, DeviceLimits::genericCuda()).empty());
}

TEST_F(EngineFixture, TheEngineNamesTheFieldOfEveryRule) {
  RequestText t = text("gaussian_pdf");
  t.n = "8Gi";
  t.params = {{"sigma", "0"}, {"mean", "abc"}, {"colour", "red"}};
  t.block = "2048";
  t.grid = "1x70000";
  t.reps = "0";
  t.warmup = "-1";
  t.impls = "cuda-nope";
  EXPECT_EQ(fieldsOf(problems(t)), "param:colour,param:mean,param:sigma,n,reps,warmup,block,grid,impl");
  t = text("gaussian_pdf");
  t.params = {{"xmin", "5"}, {"xmax", "1"}};
  auto ps = problems(t);
  ASSERT_EQ(ps.size(), 1u);
  EXPECT_EQ(ps[0].field, "params");
  t = text("gaussian_pdf");
  t.dtype = "i32";
  EXPECT_EQ(fieldsOf(problems(t)), "dtype");
  EXPECT_EQ(fieldsOf(problems(text("nope"))), "workload");
}

TEST_F(EngineFixture, SizeAndLaunchMessagesSayTheLimit) {
  RequestText t = text("vector_add");
  t.n = "8Gi";
  auto ps = problems(t);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(ps[0].message, "n = 8Gi (2^33) is outside vector_add's range [1, 2Gi (2^31)] elements");
  t = text("vector_add");
  t.block = "16x16";
  ps = problems(t);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(ps[0].message, "vector_add uses a 1D launch: give one number (e.g. 256)");
  t.block = "1025";
  ps = problems(t);
  ASSERT_FALSE(ps.empty());
  EXPECT_NE(ps[0].message.find("1025 threads per block > 1024"), std::string::npos);
}
