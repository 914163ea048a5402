// Plot mapping as plain functions: min/max decimation (pyramid == raw scan), sampling, histogram re-binning,
// image down-sampling, scalars, timing-chart and sweep data, colour maps, captions.
#include <QTest>
#include <cmath>
#include <limits>
#include <random>

#include "launchlab/engine/rng.h"
#include "models/chart_data.h"
#include "models/plot_data.h"
#include "plots/colormap.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {
HostArray randomArray(std::size_t n, std::uint64_t seed, DType t = DType::F32) {
  HostArray a("a", t, {n});
  fillUniform(a, -100, 100, seed, 0);
  return a;
}
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }
}  // namespace

class TestPlotData : public QObject {
  Q_OBJECT
 private slots:
  void pyramidEqualsRawDecimationEverywhere() {
    std::mt19937_64 rng(7);
    for (std::size_t n : {1ul, 63ul, 64ul, 65ul, 1000ul, 4096ul, 100003ul}) {
      HostArray a = randomArray(n, n);
      auto v = a.view<float>();
      for (std::size_t i = n / 3; i < n / 3 + std::min<std::size_t>(n / 5, 700); ++i)
        v[i] = std::numeric_limits<float>::quiet_NaN();  // an unwritten stretch
      const MinMaxPyramid p(a);
      for (int trial = 0; trial < 40; ++trial) {
        const std::size_t b = rng() % n, e = b + 1 + rng() % (n - b);
        const int cols = 1 + int(rng() % 1500);
        const auto fast = p.query(a, double(b), double(e), cols);
        const auto slow = decimateMinMax(a, b, e, cols);
        QCOMPARE(fast.size(), slow.size());
        for (std::size_t k = 0; k < fast.size(); ++k) {
          QCOMPARE(fast[k].x, slow[k].x);
          QVERIFY2(same(fast[k].yMin, slow[k].yMin) && same(fast[k].yMax, slow[k].yMax),
                   qPrintable(QString("n=%1 [%2,%3) cols=%4 k=%5").arg(n).arg(b).arg(e).arg(cols).arg(k)));
        }
      }
    }
  }

  void decimationKeepsExtremesAndPointBudget() {
    HostArray a = randomArray(1 << 20, 3);
    auto v = a.view<float>();
    v[123457] = 1000.f;  // a single spike must survive decimation
    v[999999] = -1000.f;
    const MinMaxPyramid p(a);
    QVERIFY(p.levels() > 10);
    const auto env = p.query(a, 0, double(a.size()), 800);
    QCOMPARE(env.size(), std::size_t(800));
    double lo = 1e9, hi = -1e9;
    for (const auto& e : env) {
      lo = std::min(lo, e.yMin);
      hi = std::max(hi, e.yMax);
    }
    QCOMPARE(hi, 1000.0);
    QCOMPARE(lo, -1000.0);
    const XY line = envelopeToLine(env);
    QVERIFY(line.size() <= 1600);
    QCOMPARE(*std::max_element(line.y.begin(), line.y.end()), 1000.0);
    // Zoomed in far enough, every element is its own point.
    const auto fine = p.query(a, 123450, 123460, 800);
    QCOMPARE(fine.size(), std::size_t(10));
    QCOMPARE(fine[7].yMin, 1000.0);
    QCOMPARE(fine[7].x, 123457.0);
    // Out-of-range requests are clamped.
    QCOMPARE(p.query(a, -50, 5, 100).size(), std::size_t(5));
    QVERIFY(p.query(a, 2e6, 3e6, 100).empty());
  }

  void allNanColumnsAreGaps() {
    HostArray a("a", DType::F64, {256});
    a.poison();  // NaN everywhere
    auto v = a.view<double>();
    for (std::size_t i = 0; i < 128; ++i) v[i] = double(i);
    const auto env = MinMaxPyramid(a).query(a, 0, 256, 4);
    QCOMPARE(env[0].yMin, 0.0);
    QCOMPARE(env[1].yMax, 127.0);
    QVERIFY(std::isnan(env[2].yMin) && std::isnan(env[3].yMax));
    const XY line = envelopeToLine(env);
    QVERIFY(std::isnan(line.y.back()));
    QCOMPARE(countNaN(a), std::uint64_t(128));
    QCOMPARE(finiteRange(a), std::make_pair(0.0, 127.0));
  }

  void integerArraysDecimateToo() {
    HostArray a("a", DType::I32, {10000});
    auto v = a.view<std::int32_t>();
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::int32_t(i % 100) - 50;
    const auto env = MinMaxPyramid(a).query(a, 0, 10000, 10);
    for (const auto& e : env) {
      QCOMPARE(e.yMin, -50.0);
      QCOMPARE(e.yMax, 49.0);
    }
  }

  void samplingKeepsRequiredIndices() {
    const auto all = sampleIndices(10, 100);
    QCOMPARE(all.size(), std::size_t(10));
    const auto s = sampleIndices(1000000, 1000, {777777, 3});
    QVERIFY(s.size() <= 1002);
    QVERIFY(std::is_sorted(s.begin(), s.end()));
    QVERIFY(std::binary_search(s.begin(), s.end(), std::size_t(777777)));
    QVERIFY(std::binary_search(s.begin(), s.end(), std::size_t(3)));
  }

  void scatterIsSortedByX() {
    HostArray x("x", DType::F32, {5}), y("y", DType::F32, {5});
    const float xs[] = {3, 1, 4, 1.5f, 0}, ys[] = {30, 10, 40, 15, 0};
    for (int i = 0; i < 5; ++i) {
      x.view<float>()[std::size_t(i)] = xs[i];
      y.view<float>()[std::size_t(i)] = ys[i];
    }
    const XY p = scatterPoints(x, y, sampleIndices(5, 100));
    QCOMPARE(p.x, (std::vector<double>{0, 1, 1.5, 3, 4}));
    QCOMPARE(p.y, (std::vector<double>{0, 10, 15, 30, 40}));
  }

  void seriesReadsTwoRows() {
    HostArray a("s", DType::F64, {2, 3});
    const double d[] = {1, 10, 100, 0.5, 0.25, 0.125};
    for (int i = 0; i < 6; ++i) a.view<double>()[std::size_t(i)] = d[i];
    const XY s = seriesPoints(a, 100);
    QCOMPARE(s.x, (std::vector<double>{1, 10, 100}));
    QCOMPARE(s.y, (std::vector<double>{0.5, 0.25, 0.125}));
  }

  void histogramRebinsWithoutLosingCounts() {
    HostArray h("h", DType::U32, {1000});
    double total = 0;
    for (std::size_t i = 0; i < 1000; ++i) total += h.view<std::uint32_t>()[i] = std::uint32_t(i % 7);
    const HistogramBars exact = histogramBars(h, -5, 5, 1024);
    QCOMPARE(exact.centres.size(), std::size_t(1000));
    QCOMPARE(exact.width, 0.01);
    QVERIFY(std::fabs(exact.centres.front() - (-5 + 0.005)) < 1e-12);
    const HistogramBars merged = histogramBars(h, -5, 5, 300);
    QCOMPARE(merged.binsPerBar, 4);
    QCOMPARE(merged.centres.size(), std::size_t(250));
    double sum = 0;
    for (double c : merged.counts) sum += c;
    QCOMPARE(sum, total);
    ArraySpec spec;
    spec.xMinParam = "lo";
    spec.xMaxParam = "hi";
    QCOMPARE(histogramRange(spec, {{"lo", "-2.5"}, {"hi", "7"}}, 10), std::make_pair(-2.5, 7.0));
    QCOMPARE(histogramRange(spec, {{"lo", "x"}}, 10), std::make_pair(0.0, 10.0));
  }

  void imagesAreBlockMeanedWithTheTrueRange() {
    HostArray img("m", DType::F32, {1000, 600});
    auto v = img.view<float>();
    for (std::size_t r = 0; r < 1000; ++r)
      for (std::size_t c = 0; c < 600; ++c) v[r * 600 + c] = float(r);
    v[5] = 1e6f;  // extreme single pixel: the colour scale must include it
    const ImageGrid g = downsampleImage(img, 256);
    QCOMPARE(g.rows, std::size_t(1000));
    QCOMPARE(g.cols, std::size_t(600));
    QCOMPARE(g.blockRows, std::size_t(4));
    QCOMPARE(g.blockCols, std::size_t(3));
    QCOMPARE(g.cellRows, std::size_t(250));
    QCOMPARE(g.cellCols, std::size_t(200));
    QCOMPARE(g.vMax, 1e6);
    QCOMPARE(g.values[10 * 200 + 7], (40.0 + 41 + 42 + 43) / 4);  // rows 40..43 of cell row 10
    const ImageGrid small = downsampleImage(img, 4096);
    QCOMPARE(small.blockRows * small.blockCols, std::size_t(1));
  }

  void scalarErrorAgainstTheExactValue() {
    HostArray a("pi", DType::F64, {1});
    a.view<double>()[0] = 3.15;
    ArraySpec spec;
    spec.referenceValue = M_PI;
    const ScalarValue s = scalarValue(a, spec);
    QVERIFY(s.hasReference);
    QVERIFY(std::fabs(s.absError - (3.15 - M_PI)) < 1e-12);
    QVERIFY(std::fabs(s.relError - (3.15 - M_PI) / M_PI) < 1e-12);
  }

  void prepareRunCoversKeptArrays() {
    RunResult r;
    r.inputs.push_back(randomArray(5000, 1));
    r.inputs.back().setName("x");
    ImplResult i;
    i.implId = "cpu-serial";
    i.outputs.push_back(randomArray(5000, 2));
    i.outputs.back().setName("out");
    HostArray img("img", DType::F32, {64, 64});
    fillUniform(img, 0, 1, 1, 0);
    i.outputs.push_back(img);
    r.impls.push_back(std::move(i));
    WorkloadInfo info;
    info.inputs = {{"x", "x"}};
    info.outputs = {{"out", "out"}, {"img", "img", PlotKind::Image}};
    const PreparedRun p = prepareRun(r, info);
    QVERIFY(p.find("input/x") && p.find("input/x")->pyramid);
    QVERIFY(p.find("cpu-serial/out")->pyramid);
    QVERIFY(p.find("cpu-serial/img")->image);
    QCOMPARE(p.find("cpu-serial/img")->image->cellRows, std::size_t(64));
    QVERIFY(!p.find("cpu-parallel/out"));
  }

  void timingChartStacksGpuPhasesAndLabelsSpeedups() {
    RunResult r;
    ImplResult s;
    s.implId = "cpu-serial";
    s.title = "CPU serial";
    s.phases[Phase::Cpu] = {10, 9, 12, 5};
    s.phases[Phase::Total] = {10, 9, 12, 5};
    s.speedupTotal = 1;
    ImplResult g;
    g.implId = "cuda";
    g.title = "CUDA";
    g.gpu = true;
    g.phases[Phase::H2D] = {1, 1, 1, 5};
    g.phases[Phase::Kernel] = {0.1, 0.09, 0.2, 5};
    g.phases[Phase::D2H] = {0.5, 0.5, 0.6, 5};
    g.phases[Phase::Total] = {1.6, 1.59, 1.8, 5};
    g.speedupTotal = 6.25;
    ImplResult k;
    k.implId = "cuda-2";
    k.status = Status::Skipped;
    k.reason = "no CUDA device";
    r.impls = {s, g, k};
    const TimingChartData c = timingChart(r);
    QCOMPARE(c.bars.size(), std::size_t(3));
    QCOMPARE(c.bars[1].segments.size(), std::size_t(3));
    QVERIFY(c.bars[1].segments[0].phase == Phase::H2D && c.bars[1].segments[1].phase == Phase::Kernel);
    QCOMPARE(c.bars[0].segments.size(), std::size_t(1));
    QCOMPARE(c.phasesShown, (std::vector<Phase>{Phase::H2D, Phase::Kernel, Phase::D2H, Phase::Cpu}));
    QVERIFY(c.bars[1].label.rfind("6.25x vs cpu-serial", 0) == 0);
    QVERIFY(c.bars[0].label.rfind("reference", 0) == 0);
    QCOMPARE(c.bars[2].label, std::string("skipped: no CUDA device"));
    QCOMPARE(c.bars[1].maxMs, 1.8);
    QCOMPARE(c.minPositiveMs, 0.1);  // the smallest segment median
    QCOMPARE(c.maxMs, 12.0);
    // Where the lesson is the kernel: the kernel first in each bar and in the legend, the copies still there, the
    // label led by the kernel's time; off again, the phases' order and the plain label.
    const TimingChartData k1 = timingChart(r, true);
    QCOMPARE(k1.bars[1].segments.size(), std::size_t(3));
    QVERIFY(k1.bars[1].segments[0].phase == Phase::Kernel && k1.bars[1].segments[1].phase == Phase::H2D);
    QCOMPARE(k1.phasesShown, (std::vector<Phase>{Phase::Kernel, Phase::H2D, Phase::D2H, Phase::Cpu}));
    QCOMPARE(k1.bars[1].label, std::string("kernel 100 \u00b5s of 1.6 ms, 6.25x vs cpu-serial"));
    QCOMPARE(k1.bars[0].label, c.bars[0].label);  // a CPU bar has no kernel to lead with
    QVERIFY(kernelsHidden(k1));                   // 0.1 ms beside a 10 ms bar: a sliver on a linear axis
    const TimingChartData back = leadWithKernel(k1, false);
    QCOMPARE(back.phasesShown, c.phasesShown);
    QCOMPARE(back.bars[1].label, c.bars[1].label);
    QVERIFY(back.bars[1].segments[0].phase == Phase::H2D);
  }

  void blockTraceCaptionIsOneLine() {
    BlockTraceSummary s;
    QCOMPARE(blockTraceCaption(s), std::string("no block traced"));
    s.blocks = 300;
    s.wavesObserved = 2;
    s.predicted.perWave = 264;
    s.predicted.waves = 300.0 / 264;
    s.spanNs = 20'000;
    s.tailNs = 10'000;
    s.minBlocksPerSm = 2;
    s.maxBlocksPerSm = 3;
    QCOMPARE(blockTraceCaption(s),
             std::string("2 waves (1.14 predicted) \u00b7 tail 50 % of 20 \u00b5s \u00b7 2 to 3 blocks per SM"));
    s.minBlocksPerSm = 3;
    s.predicted.perWave = 0;
    s.wavesObserved = 1;
    QCOMPARE(blockTraceCaption(s),
             std::string("1 wave \u00b7 tail 50 % of 20 \u00b5s \u00b7 3 blocks on every SM used"));
  }

  /// Marker values (launch_coverage's -1 never written, -2 padding) are found per cell and kept out of the colour
  /// scale's range; a block-meaned image has none (a mean of -1 and block ids means nothing).
  void imageMarkersStayOutOfTheColourScale() {
    HostArray img("m", DType::I32, {4, 8});
    auto v = img.view<std::int32_t>();
    for (std::size_t i = 0; i < 32; ++i) v[i] = std::int32_t(i / 8);  // rows 0..3: block ids
    for (std::size_t i = 20; i < 30; ++i) v[i] = -1;                  // the tail never written
    for (std::size_t i = 30; i < 32; ++i) v[i] = -2;                  // padding
    const std::vector<MarkerValue> markers{{-1, "never written"}, {-2, "padding"}};
    const ImageGrid g = downsampleImage(img, 512);
    const ImageMarkers m = findImageMarkers(g, markers);
    QCOMPARE(m.cellMarker.size(), std::size_t(32));
    QCOMPARE(m.cellMarker[0], -1);
    QCOMPARE(m.cellMarker[20], 0);
    QCOMPARE(m.cellMarker[31], 1);
    QCOMPARE(m.present, (std::vector<bool>{true, true}));
    QCOMPARE(m.vMin, 0.0);
    QCOMPARE(m.vMax, 2.0);
    QCOMPARE(g.vMin, -2.0);  // the grid's own range counts them
    // Without markers present, nothing changes.
    for (std::size_t i = 20; i < 32; ++i) v[i] = 3;
    const ImageMarkers none = findImageMarkers(downsampleImage(img, 512), markers);
    QVERIFY(none.cellMarker.empty());
    QCOMPARE(none.vMin, 0.0);
    QCOMPARE(none.vMax, 3.0);
    // Block means: no marker cells.
    HostArray big("b", DType::I32, {1024, 4});
    big.view<std::int32_t>()[0] = -1;
    QVERIFY(findImageMarkers(downsampleImage(big, 512), markers).cellMarker.empty());
  }

  void sweepDataAndBlocks() {
    const auto b1 = sweepBlocks(1);
    QCOMPARE(b1.size(), std::size_t(32));
    QVERIFY(b1.front() == (Dim3{32, 1, 1}) && b1.back() == (Dim3{1024, 1, 1}));
    const auto b2 = sweepBlocks(2);
    QVERIFY(b2[3] == (Dim3{32, 4, 1}));
    RunResult r;
    r.status = Status::Failed;
    r.reason = "invalid block";
    SweepPoint p = sweepPointFrom(r, "cuda", {64, 1, 1});
    QVERIFY(p.status == Status::Failed && p.reason == "invalid block" && p.threads == 64);
    ImplResult i;
    i.implId = "cuda";
    i.phases[Phase::Kernel] = {2, 1, 3, 5};
    i.phases[Phase::Total] = {4, 3, 5, 5};
    i.bandwidthGBs = 500;
    r = {};
    r.impls.push_back(i);
    p = sweepPointFrom(r, "cuda", {128, 1, 1});
    QCOMPARE(p.kernelMs, 2.0);
    QCOMPARE(p.bandwidthGBs, 500.0);
    p.values = {"128"};
    const std::string csv = sweepCsv({"block"}, {p});
    QVERIFY(csv.find("block,impl,threads,status,reason,kernel_median_ms") == 0);
    QVERIFY2(csv.find("\n128,cuda,128,ok,,2,1,3,4,500,,,") != std::string::npos, csv.c_str());
  }

  void colourMapsAndPalettes() {
    const ColorMap& m = viridis();
    QVERIFY(m.at(0) == (Rgb{68, 1, 84}));
    QVERIFY(m.at(1) == (Rgb{253, 231, 37}));
    QVERIFY(m.at(-3) == m.at(0) && m.at(7) == m.at(1));
    QVERIFY(m.at(std::nan("")) == m.nanColor);
    QCOMPARE(normalize(5, 0, 10), 0.5);
    QCOMPARE(normalize(1, 1, 1), 0.5);
    // Viridis gets lighter all the way: readable in grey.
    double prev = -1;
    for (int i = 0; i <= 20; ++i) {
      const Rgb c = m.at(i / 20.0);
      const double lum = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
      QVERIFY(lum > prev);
      prev = lum;
    }
    // High contrast for projectors: every series colour at least 4.5:1 on the background (WCAG AA).
    const Palette& hc = highContrastPalette();
    for (const Rgb& c : hc.series) QVERIFY(contrastRatio(c, hc.background) >= 4.5);
    QVERIFY(contrastRatio(hc.foreground, hc.background) >= 20);
  }

  void captionStampsTheRun() {
    RunResult r;
    r.workload = "vector_add";
    r.n = 1000;
    r.dtype = "f32";
    r.params = {{"input", "arange"}};
    r.timestamp = "2026-11-21T10:00:00Z";
    r.host = "Test CPU";
    r.device.reason = "no CUDA driver";
    ImplResult g;
    g.implId = "cuda";
    g.gpu = true;
    g.launch = LaunchConfig{{30, 1, 1}, {128, 1, 1}, 0};
    r.impls.push_back(g);
    const std::string c = captionText(r, "out");
    for (const char* part : {"vector_add", "n = 1000 f32", "input = arange", "30 blocks x 128 threads",
                             "no GPU: no CUDA driver", "2026-11-21T10:00:00Z"})
      QVERIFY2(c.find(part) != std::string::npos, part);
    QCOMPARE(paddedRange(0.02, 300, true).lo, 0.01);
    QCOMPARE(paddedRange(0.02, 300, true).hi, 1000.0);
    QCOMPARE(paddedRange(0, 10, false).hi, 10.5);
    QCOMPARE(speedupText(12.345), std::string("12.3x"));
    QCOMPARE(durationText(0.5), std::string("500 \xC2\xB5s"));
  }
};

QTEST_MAIN(TestPlotData)
#include "test_plot_data.moc"
