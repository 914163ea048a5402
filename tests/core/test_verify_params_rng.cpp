#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>

#include "launchlab/engine/params.h"
#include "launchlab/engine/result.h"
#include "launchlab/engine/rng.h"
#include "launchlab/engine/verify.h"
#include "launchlab/engine/workload.h"

using namespace launchlab;

TEST(Verify, ExactIntegersAndFirstMismatches) {
  HostArray a("o", DType::I32, {100}), b("o", DType::I32, {100});
  fillArange(a, 0, 1);
  fillArange(b, 0, 1);
  auto v = compareArrays(a, b, Tolerance::exact());
  EXPECT_EQ(v.outcome, Verification::Outcome::Pass);
  EXPECT_EQ(v.compared, 100u);
  b.view<std::int32_t>()[17] = 5;
  b.view<std::int32_t>()[90] = 0;
  v = compareArrays(a, b, Tolerance::exact());
  EXPECT_EQ(v.outcome, Verification::Outcome::Fail);
  EXPECT_EQ(v.mismatches, 2u);
  EXPECT_EQ(v.firstMismatches, (std::vector<std::uint64_t>{17, 90}));
  EXPECT_EQ(v.maxAbsError, 90.0);
}

TEST(Verify, ToleranceNaNAndPoison) {
  HostArray a("o", DType::F32, {4}), b("o", DType::F32, {4});
  fillConstant(a, 1.0);
  fillConstant(b, 1.0);
  b.view<float>()[1] = 1.0f + 2e-6f;
  EXPECT_EQ(compareArrays(a, b, {0, 1e-5}).outcome, Verification::Outcome::Pass);
  EXPECT_EQ(compareArrays(a, b, {0, 1e-7}).outcome, Verification::Outcome::Fail);
  b.poison();  // an output nobody wrote: NaN everywhere
  auto v = compareArrays(a, b, {1, 1});
  EXPECT_EQ(v.mismatches, 4u);
  EXPECT_TRUE(std::isinf(v.maxAbsError));
}

// Large outputs are compared chunk by chunk, a bit-identical chunk skipped after a memcmp: a difference anywhere,
// in the last partial chunk too, is still found, counted and located.
TEST(Verify, MismatchesAreFoundInEveryChunkOfALargeArray) {
  const std::size_t n = 3 * 4096 + 100;
  HostArray a("o", DType::F32, {n}), b("o", DType::F32, {n});
  fillArange(a, 0, 1);
  fillArange(b, 0, 1);
  EXPECT_EQ(compareArrays(a, b, Tolerance::exact()).outcome, Verification::Outcome::Pass);
  b.view<float>()[5000] += 0.5f;
  b.view<float>()[n - 1] = -1.0f;
  auto v = compareArrays(a, b, Tolerance::exact());
  EXPECT_EQ(v.mismatches, 2u);
  EXPECT_EQ(v.firstMismatches, (std::vector<std::uint64_t>{5000, n - 1}));
  EXPECT_EQ(v.maxAbsError, double(n - 1) + 1.0);
  EXPECT_EQ(v.compared, n);
}

TEST(Verify, AnInfinityMatchesItselfWhateverTheRestOfItsChunk) {
  HostArray a("o", DType::F64, {8}), b("o", DType::F64, {8});
  fillConstant(a, 2.0);
  fillConstant(b, 2.0);
  a.view<double>()[3] = b.view<double>()[3] = INFINITY;
  b.view<double>()[6] = 2.0 + 1e-12;  // within tolerance, but the chunk is not bit-identical
  auto v = compareArrays(a, b, {0, 1e-9});
  EXPECT_EQ(v.outcome, Verification::Outcome::Pass);
  EXPECT_EQ(v.mismatches, 0u);
  b.view<double>()[3] = -INFINITY;
  v = compareArrays(a, b, {0, 1e-9});
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_EQ(v.firstMismatches, (std::vector<std::uint64_t>{3}));
}

TEST(Verify, ShapeMismatchFails) {
  HostArray a("o", DType::F32, {4}), b("o", DType::F32, {2, 2});
  EXPECT_EQ(compareArrays(a, b, {}).outcome, Verification::Outcome::Fail);
  HostArray c("o", DType::F64, {4});
  EXPECT_EQ(compareArrays(a, c, {}).outcome, Verification::Outcome::Fail);
}

TEST(Params, DefaultsRangesChoicesAndUnknowns) {
  std::vector<ParamSpec> specs = {
      {"sigma", "Sigma", "", "", ParamSpec::Kind::Real, 1.0, 1e-6, 10},
      {"bins", "Bins", "bins", "", ParamSpec::Kind::Integer, 10, 1, 4096},
      {"shape", "Shape", "", "", ParamSpec::Kind::Choice, 1, 0, 0, {"circle", "square"}},
  };
  std::string err;
  auto v = resolveParams(specs, {}, err);
  ASSERT_TRUE(v) << err;
  EXPECT_EQ(v->number("sigma"), 1.0);
  EXPECT_EQ(v->integer("bins"), 10);
  EXPECT_EQ(v->choice("shape"), "square");
  v = resolveParams(specs, {{"sigma", "2.5"}, {"shape", "circle"}}, err);
  ASSERT_TRUE(v) << err;
  EXPECT_EQ(v->number("sigma"), 2.5);
  EXPECT_FALSE(resolveParams(specs, {{"sigma", "0"}}, err));
  EXPECT_NE(err.find("out of range"), std::string::npos);
  EXPECT_FALSE(resolveParams(specs, {{"bins", "2.5"}}, err));
  EXPECT_NE(err.find("whole number"), std::string::npos);
  EXPECT_FALSE(resolveParams(specs, {{"shape", "hexagon"}}, err));
  EXPECT_NE(err.find("circle, square"), std::string::npos);
  EXPECT_FALSE(resolveParams(specs, {{"colour", "red"}}, err));
  EXPECT_NE(err.find("unknown parameter 'colour'"), std::string::npos);
  EXPECT_EQ(checkParamValue(specs[1], "4097"), "bins = 4097 is out of range [1, 4096] bins");
}

TEST(Rng, DeterministicWhateverTheThreadCount) {
  HostArray a("a", DType::F32, {100003}), b("b", DType::F32, {100003});
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  fillNormal(a, 0, 1, 7, 2);
  omp_set_num_threads(2);
  fillNormal(b, 0, 1, 7, 2);
  omp_set_num_threads(saved);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.bytes()), 0);
  HostArray c("c", DType::F32, {100003});
  fillNormal(c, 0, 1, 8, 2);  // another seed: another array
  EXPECT_NE(std::memcmp(a.data(), c.data(), a.bytes()), 0);
}

TEST(Rng, DistributionsHaveTheirMoments) {
  HostArray u("u", DType::F64, {200000}), g("g", DType::F64, {200000});
  fillUniform(u, -12, 12, 1, 0);
  fillNormal(g, 3, 2, 1, 1);
  double su = 0, sg = 0, sg2 = 0, lo = 1e9, hi = -1e9;
  for (double x : u.view<double>()) {
    su += x;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  for (double x : g.view<double>()) {
    sg += x;
    sg2 += x * x;
  }
  const double n = 200000;
  EXPECT_NEAR(su / n, 0.0, 0.1);
  EXPECT_GE(lo, -12.0);
  EXPECT_LT(hi, 12.0);
  EXPECT_NEAR(sg / n, 3.0, 0.02);
  EXPECT_NEAR(std::sqrt(sg2 / n - (sg / n) * (sg / n)), 2.0, 0.02);
}

TEST(Stats, MedianMinMax) {
  auto s = summarize({5, 1, 3});
  EXPECT_EQ(s.medianMs, 3);
  EXPECT_EQ(s.minMs, 1);
  EXPECT_EQ(s.maxMs, 5);
  EXPECT_EQ(summarize({4, 1, 3, 2}).medianMs, 2.5);
  EXPECT_EQ(summarize({}).samples, 0);
}

TEST(DTypes, Int64IsNumPysDefaultInteger) {
  EXPECT_EQ(parseDType("int64"), DType::I64);
  EXPECT_EQ(parseDType("i64"), DType::I64);
  EXPECT_EQ(dtypeName(DType::I64), "i64");
  EXPECT_EQ(dtypeNumpyDescr(DType::I64), "<i8");
  EXPECT_EQ(dtypeSize(DType::I64), 8u);
  EXPECT_FALSE(isFloating(DType::I64));
  EXPECT_EQ(unknownDTypeMessage("f16"), "unknown dtype 'f16' (known: f32, f64, i16, i32, i64, u32, u8)");
  HostArray a("a", DType::I64, {3});
  fillArange(a, 3000000000.0, 1);  // beyond int32: kept exactly
  EXPECT_EQ(a.view<std::int64_t>()[2], 3000000002);
}

TEST(DTypes, Int16IsTheSeedsWaveformType) {
  EXPECT_EQ(parseDType("int16"), DType::I16);
  EXPECT_EQ(parseDType("i16"), DType::I16);
  EXPECT_EQ(dtypeName(DType::I16), "i16");
  EXPECT_EQ(dtypeNumpyDescr(DType::I16), "<i2");
  EXPECT_EQ(dtypeSize(DType::I16), 2u);
  EXPECT_FALSE(isFloating(DType::I16));
  HostArray a("a", DType::I16, {3});
  fillArange(a, -32768, 32767);  // both ends of int16, exactly
  EXPECT_EQ(a.view<std::int16_t>()[0], -32768);
  EXPECT_EQ(a.view<std::int16_t>()[1], -1);
  EXPECT_EQ(a.view<std::int16_t>()[2], 32766);
  // An array spec follows the run's dtype, or its own float type in integer runs.
  ArraySpec spec{.name = "t", .dtypeForIntegerRuns = DType::F64};
  EXPECT_EQ(spec.dtypeFor(DType::I16), DType::F64);
  EXPECT_EQ(spec.dtypeFor(DType::F32), DType::F32);
}
