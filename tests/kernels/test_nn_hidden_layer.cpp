#include <cmath>

#include "cpu_impl_checks.h"
#include "nn_hidden_layer/nn_hidden_layer.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(NnHiddenLayer, CpuParallelMatchesSerial) {
  expectCpuImplsPass(runCpu("nn_hidden_layer", 100003, DType::F32));
  expectCpuImplsPass(runCpu("nn_hidden_layer", 5003, DType::F64));
}

TEST(NnHiddenLayer, InputsFollowTheSeed) {
  const auto s = setupFor("nn_hidden_layer", 200000, DType::F32);
  expectDeterministicInputs("nn_hidden_layer", s);
  auto in = workload("nn_hidden_layer").makeInputs(s);
  bool sawZero = false, saw254 = false;
  for (float g : in[0].view<float>()) {
    ASSERT_EQ(g, std::floor(g));
    ASSERT_TRUE(g >= 0.0f && g <= 254.0f) << g;
    sawZero = sawZero || g == 0.0f;
    saw254 = saw254 || g == 254.0f;
  }
  EXPECT_TRUE(sawZero && saw254);
  double sum = 0, sq = 0;
  for (float w : in[1].view<float>()) {
    sum += w;
    sq += double(w) * w;
  }
  const double mean = sum / double(s.n);
  EXPECT_NEAR(mean, 0.5, 0.002);
  EXPECT_NEAR(std::sqrt(sq / double(s.n) - mean * mean), 0.1, 0.002);
}

TEST(NnHiddenLayer, ActivationIsTanh) {
  using kernels::nn_hidden_layer::neuron;
  EXPECT_EQ(neuron(0.0f, 0.5f), 0.0f);
  for (double g : {1.0, 17.0, 128.0, 254.0})
    for (double w : {0.2, 0.5, 0.9}) {
      EXPECT_NEAR(neuron(g, w), std::tanh(g / 255 * w), 1e-15);
      EXPECT_NEAR(neuron(float(g), float(w)), std::tanh(g / 255 * w), 2e-7);
    }
}

TEST(NnHiddenLayer, SizesAndParameters) {
  const auto& info = workload("nn_hidden_layer").info();
  EXPECT_EQ(info.defaultN, 1000000u);
  EXPECT_GE(info.maxN, 100000000u);
  EXPECT_EQ(firstProblem("nn_hidden_layer", 100000000, DType::F32), "");
  EXPECT_NE(firstProblem("nn_hidden_layer", 1000, DType::F32, {{"streams", "0"}}).find("streams"), std::string::npos);
  EXPECT_NE(firstProblem("nn_hidden_layer", 1000, DType::F32, {{"chunks", "0"}}).find("chunks"), std::string::npos);
  EXPECT_EQ(firstProblem("nn_hidden_layer", 1000, DType::F32, {{"streams", "8"}, {"chunks", "64"}}), "");
  EXPECT_EQ(workload("nn_hidden_layer").bytesMoved(setupFor("nn_hidden_layer", 1000, DType::F32)), 12000.0);
}
