// Which path fills a GL frame where the render thread can do both (ui/gl_path.h): a host upload below the measured
// crossover of the plot kind, CUDA–OpenGL interop above it or when the data is in device memory already, and the
// words the path line gives for it.
#include <QTest>

#include "gl/gl_path.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

constexpr std::uint64_t kKiB = 1024, kMiB = 1024 * kKiB;
QString crossover(GlDraw kind) { return byteSizeText(interopCrossoverBytes(kind)); }

GlFrameRequest request(GlDraw kind, const HostArray& a) {
  GlFrameRequest q;
  q.kind = kind;
  q.array = &a;
  q.end = a.size();
  return q;
}

}  // namespace

class TestGlPath : public QObject {
  Q_OBJECT
 private slots:
  void sizesAreWrittenAsThePathLineShowsThem() {
    QCOMPARE(byteSizeText(0), QString("0 B"));
    QCOMPARE(byteSizeText(512), QString("512 B"));
    QCOMPARE(byteSizeText(kKiB), QString("1 KiB"));
    QCOMPARE(byteSizeText(1536), QString("1.5 KiB"));
    QCOMPARE(byteSizeText(4000), QString("3.9 KiB"));
    QCOMPARE(byteSizeText(768 * kKiB), QString("768 KiB"));
    QCOMPARE(byteSizeText(3 * kMiB / 2), QString("1.5 MiB"));
    QCOMPARE(byteSizeText(10 * kMiB), QString("10 MiB"));
    QCOMPARE(byteSizeText(std::uint64_t(1) << 31), QString("2 GiB"));
  }

  void smallOutputsAreUploadedFromTheHostAndTheLineSaysWhy() {
    const HostArray hist("h", DType::U32, {1024});  // 4 KiB
    const GlPathChoice c = chooseGlPath(request(GlDraw::Histogram, hist), false);
    QVERIFY(!c.interop);
    QCOMPARE(c.why, "4 KiB is below the interop crossover (~" + crossover(GlDraw::Histogram) + ")");
    const HostArray wave("w", DType::F32, {1000});
    QCOMPARE(chooseGlPath(request(GlDraw::Waveform, wave), false).why,
             "3.9 KiB is below the interop crossover (~" + crossover(GlDraw::Waveform) + ")");
  }

  void largeOutputsGoThroughInterop() {
    const HostArray img("i", DType::F32, {2048, 2048});
    const GlPathChoice c = chooseGlPath(request(GlDraw::Image, img), false);
    QVERIFY(c.interop);
    QCOMPARE(c.why, "16 MiB is above the interop crossover (~" + crossover(GlDraw::Image) + ")");
    const HostArray pts("p", DType::F32, {3, std::size_t(1) << 20});
    QCOMPARE(chooseGlPath(request(GlDraw::Points, pts), false).why,
             "12 MiB is above the interop crossover (~" + crossover(GlDraw::Points) + ")");
  }

  /// A waveform reads only its visible elements: zoomed in far enough, even a large one is uploaded.
  void aWaveformCountsTheElementsInView() {
    const HostArray wave("w", DType::F32, {std::size_t(1) << 24});  // 64 MiB
    GlFrameRequest q = request(GlDraw::Waveform, wave);
    QVERIFY(chooseGlPath(q, false).interop);
    QCOMPARE(glFrameBytes(q), std::uint64_t(64) * kMiB);
    q.begin = 1000;
    q.end = 1000 + (std::uint64_t(1) << 12);  // 16 KiB in view
    QCOMPARE(glFrameBytes(q), std::uint64_t(16) * kKiB);
    QCOMPARE(chooseGlPath(q, false).why,
             "16 KiB is below the interop crossover (~" + crossover(GlDraw::Waveform) + ")");
  }

  void theCrossoverItselfIsUploadedAndOneByteMoreIsNot() {
    const std::uint64_t x = interopCrossoverBytes(GlDraw::Histogram);
    const HostArray at("a", DType::U8, {std::size_t(x)}), above("b", DType::U8, {std::size_t(x + 1)});
    QVERIFY(!chooseGlPath(request(GlDraw::Histogram, at), false).interop);
    QVERIFY(chooseGlPath(request(GlDraw::Histogram, above), false).interop);
  }

  void dataAlreadyOnTheDeviceIsDrawnFromThere() {
    const HostArray hist("h", DType::U32, {16});
    const GlPathChoice c = chooseGlPath(request(GlDraw::Histogram, hist), true);
    QVERIFY(c.interop);
    QCOMPARE(c.why, QString("its data is in device memory already"));
  }
};

QTEST_MAIN(TestGlPath)
#include "test_gl_path.moc"
