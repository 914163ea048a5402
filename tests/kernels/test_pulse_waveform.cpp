#include <algorithm>
#include <cmath>

#include "cpu_impl_checks.h"
#include "pulse_waveform/pulse_waveform.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(PulseWaveform, CpuParallelMatchesSerial) {
  expectCpuImplsPass(runCpu("pulse_waveform", 100000, DType::F32));
  expectCpuImplsPass(runCpu("pulse_waveform", 100000, DType::I16));
  expectCpuImplsPass(runCpu("pulse_waveform", 3001, DType::F64, {{"amplitude", "300"}, {"cycles", "5"}}));
}

TEST(PulseWaveform, NoiseIsAnInputDrawnFromTheSeed) {
  const auto s = setupFor("pulse_waveform", 200000, DType::F32, {{"noise_sigma", "3"}});
  expectDeterministicInputs("pulse_waveform", s);
  auto in = workload("pulse_waveform").makeInputs(s);
  auto t = in[0].view<float>();
  for (std::size_t i = 0; i < 1000; ++i) ASSERT_EQ(t[i], float(i));
  double sum = 0, sq = 0;
  for (float v : in[1].view<float>()) {
    sum += v;
    sq += double(v) * v;
  }
  const double mean = sum / double(s.n), sd = std::sqrt(sq / double(s.n) - mean * mean);
  EXPECT_NEAR(mean, 0.0, 0.05);
  EXPECT_NEAR(sd, 3.0, 0.05);
}

TEST(PulseWaveform, SuppressionRemovesTheBaseline) {
  RunResult r = runCpu("pulse_waveform", 100000, DType::F32, {{"amplitude", "100"}});  // the make_pulses exercise
  ASSERT_EQ(r.status, Status::Ok);
  const auto& out = r.find("cpu-serial")->outputs;
  const auto wave = out[0].view<float>();
  const auto sup = out[1].view<float>();
  std::size_t zeros = 0;
  float peak = 0;
  for (std::size_t i = 0; i < sup.size(); ++i) {
    ASSERT_TRUE(sup[i] == 0.0f || (sup[i] >= 15.0f && sup[i] == wave[i])) << i;
    zeros += sup[i] == 0.0f;
    peak = std::max(peak, wave[i]);
  }
  // sin(t / period) - 0.3 > 0 for about 40% of each period: the rest is baseline noise, suppressed.
  EXPECT_GT(zeros, sup.size() / 2);
  EXPECT_NEAR(peak, 70.0f, 12.0f);  // amplitude 100 * (1 - 0.3) plus noise
  // First sample: t = 0, no pulse, so the waveform is the noise alone.
  EXPECT_EQ(wave[0], r.inputs[1].view<float>()[0]);
}

TEST(PulseWaveform, ValuesAtTheThresholdMayGoEitherWay) {
  const Workload& w = workload("pulse_waveform");
  const auto s = setupFor("pulse_waveform", 4, DType::F32);
  auto ref = w.makeOutputs(s);
  auto set = [](HostArray& a, std::initializer_list<float> v) {
    std::copy(v.begin(), v.end(), a.view<float>().begin());
  };
  set(ref[0], {1.0f, 15.0f, 40.0f, 14.99999f});
  set(ref[1], {0.0f, 15.0f, 40.0f, 0.0f});
  auto got = ref;
  set(got[1], {0.0f, 0.0f, 40.0f, 14.99999f});  // both ties resolved the other way
  Verification v = w.verify(s, ref, got, *w.findImpl("cuda-fused"));
  EXPECT_EQ(v.outcome, Verification::Outcome::Pass) << v.note;
  EXPECT_NE(v.note.find("2 value(s) within rounding of the threshold"), std::string::npos) << v.note;
  set(got[1], {0.0f, 15.0f, 0.0f, 0.0f});  // 40 zeroed: a real error
  EXPECT_EQ(w.verify(s, ref, got, *w.findImpl("cuda-fused")).outcome, Verification::Outcome::Fail);
  got = ref;
  set(got[0], {1.0f, 15.0f, 40.5f, 14.99999f});  // the raw waveform is compared as well
  EXPECT_EQ(w.verify(s, ref, got, *w.findImpl("cuda-fused")).outcome, Verification::Outcome::Fail);
}

TEST(PulseWaveform, ValidationNamesTheParameter) {
  EXPECT_EQ(firstProblem("pulse_waveform", 100000, DType::F32, {{"threshold", "-3.5"}}), "");
  EXPECT_NE(firstProblem("pulse_waveform", 100000, DType::F32, {{"cycles", "0"}}).find("cycles"), std::string::npos);
  EXPECT_NE(firstProblem("pulse_waveform", 100000, DType::F32, {{"noise_sigma", "-1"}}).find("noise_sigma"),
            std::string::npos);
  EXPECT_NE(firstProblem("pulse_waveform", 100000, DType::F32, {{"amplitude", "lots"}}).find("amplitude"),
            std::string::npos);
}

TEST(PulseWaveform, DefaultRunPassesOnTheCpu) {
  // The GUI's default workload: the seed's 100,000 samples.
  const auto& info = workload("pulse_waveform").info();
  EXPECT_EQ(info.defaultN, 100000u);
  EXPECT_EQ(info.outputs.size(), 2u);
  EXPECT_EQ(info.outputs[0].plot, PlotKind::Waveform);
  RunRequest req;
  req.workload = "pulse_waveform";
  RunResult r = cpuEngine().run(req);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  EXPECT_TRUE(r.allPassed());
  EXPECT_EQ(r.n, 100000u);
}

TEST(PulseWaveform, DefaultIsTheSeedsInt16Waveform) {
  const auto& info = workload("pulse_waveform").info();
  EXPECT_EQ(info.defaultDType, DType::I16);
  RunResult r = runCpu("pulse_waveform", 100000, DType::I16);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  ASSERT_EQ(r.inputs[1].dtype(), DType::F64);  // the noise, in float64 like NumPy's normal * 3
  const auto noise = r.inputs[1].view<double>();
  const auto& out = r.find("cpu-serial")->outputs;
  ASSERT_EQ(out[0].dtype(), DType::I16);
  const auto wave = out[0].view<std::int16_t>();
  const auto sup = out[1].view<std::int16_t>();
  // The seed's cell, element by element: ((max(sin(i / (n / 23)) - 0.3, 0) * 300) + noise).astype(np.int16).
  const double n = 100000, period = n / 23;
  int peak = 0;
  for (std::size_t i = 0; i < wave.size(); ++i) {
    const double pulse = std::max(std::sin(double(i) / period) - 0.3, 0.0) * 300.0;
    ASSERT_EQ(wave[i], std::int16_t(std::trunc(pulse + noise[i]))) << i;
    ASSERT_EQ(sup[i], wave[i] < 15 ? 0 : wave[i]) << i;  // zero_suppress(waveform, 15)
    peak = std::max<int>(peak, wave[i]);
  }
  EXPECT_NEAR(peak, 210, 15);  // 300 * (1 - 0.3) plus noise
}

TEST(PulseWaveform, WithTheZeroSuppressStepOffTheSecondOutputIsTheWaveform) {
  // The make_pulses exercise as the seed writes it: make_pulses and add_ufunc only.
  RunResult r = runCpu("pulse_waveform", 100000, DType::F32, {{"amplitude", "100"}, {"zero_suppress", "off"}});
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  expectCpuImplsPass(r);
  auto wave = r.find("cpu-serial")->outputs.at(0).view<float>();
  auto sup = r.find("cpu-serial")->outputs.at(1).view<float>();
  EXPECT_TRUE(std::equal(wave.begin(), wave.end(), sup.begin()));
  std::size_t below = 0;  // the noise alone: values below 15 that zero_suppress would have zeroed
  for (float v : wave) below += (v < 15.0f && v != 0.0f) ? 1 : 0;
  EXPECT_GT(below, 1000u);
}
