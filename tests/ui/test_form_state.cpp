// Parameter validation without widgets: every field of the form is checked in place with its reason, and a
// valid form becomes the RunRequest the engine gets.
#include <QTest>
#include <algorithm>

#include "h200_backend.h"
#include "launchlab/files/parse.h"
#include "launchlab/kernels.h"
#include "models/form_state.h"

using namespace launchlab;
using namespace launchlab::ui;

class TestFormState : public QObject {
  Q_OBJECT
  std::shared_ptr<EngineBackend> m_backend;

  FormState form(const std::string& workload) const { return defaultForm(*m_backend->registry().find(workload)); }
  FormCheck check(const FormState& f) const { return checkForm(f, *m_backend); }

 private slots:
  void initTestCase() { m_backend = test::h200Backend(); }

  void everyWorkloadsDefaultsAreValid() {
    for (const auto& w : m_backend->registry().all()) {
      const FormCheck c = check(defaultForm(*w));
      QVERIFY2(c.ok(), (w->info().id + ": " + c.firstError()).c_str());
      QVERIFY(c.request.has_value());
      QCOMPARE(*c.request->n, w->info().defaultN);
      const auto ticked =
          std::count_if(w->impls().begin(), w->impls().end(), [](const ImplSpec& i) { return i.runByDefault; });
      QCOMPARE(c.request->impls.size(), std::size_t(ticked));  // all but the seed-cell variants
    }
  }

  void sizeTakesSuffixes_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qulonglong>("n");
    QTest::newRow("plain") << "4096" << 4096ull;
    QTest::newRow("M") << "1M" << 1000000ull;
    QTest::newRow("K") << "4K" << 4000ull;
    QTest::newRow("Mi") << "16Mi" << 16777216ull;
    QTest::newRow("power") << "2^20" << 1048576ull;
    QTest::newRow("exp") << "1e6" << 1000000ull;
  }
  void sizeTakesSuffixes() {
    QFETCH(QString, text);
    QFETCH(qulonglong, n);
    FormState f = form("vector_add");
    f.size = text.toStdString();
    const FormCheck c = check(f);
    QVERIFY2(c.ok(), c.firstError().c_str());
    QCOMPARE(qulonglong(*c.request->n), n);
  }

  void seedCellVariantsAreLeftToTheirPresets() {
    const FormState f = form("vector_add");
    auto ticked = [&](const std::string& id) { return std::find(f.impls.begin(), f.impls.end(), id) != f.impls.end(); };
    QVERIFY(ticked("cpu-serial"));
    QVERIFY(ticked("cuda-one-per-thread"));
    QVERIFY(ticked("cuda-vectorized"));
    for (const char* id :
         {"cuda-in-place", "cuda-device-inputs", "cuda-device-output", "cuda-explicit-sync", "cuda-no-sync"})
      QVERIFY2(!ticked(id), id);
    QCOMPARE(f.impls.size(), std::size_t(5));
  }

  void badSizesAreMarkedWithTheReason() {
    FormState f = form("vector_add");
    f.size = "lots";
    QVERIFY(check(f).errors.at("size").find("malformed") != std::string::npos);
    f.size = std::to_string(0);
    QVERIFY(check(f).errors.count("size"));
    f.size = "8Gi";  // above vector_add's maxN
    const FormCheck c = check(f);
    QVERIFY(c.errors.at("size").find("outside") != std::string::npos);
    QVERIFY(!c.request);
  }

  void blockOverTheDeviceLimitNamesTheLimitAndDevice() {
    FormState f = form("vector_add");
    f.autoBlock = false;
    f.block = "1025";
    const FormCheck c = check(f);
    QVERIFY(!c.ok());
    QVERIFY(!c.request);
    const std::string& e = c.errors.at("block");
    QVERIFY2(e.find("1025") != std::string::npos && e.find("1024") != std::string::npos &&
                 e.find("NVIDIA H200") != std::string::npos,
             e.c_str());
  }

  void blockNotAMultipleOf32IsAWarningNotAnError() {
    FormState f = form("vector_add");
    f.autoBlock = false;
    f.block = "100";
    const FormCheck c = check(f);
    QVERIFY2(c.ok(), c.firstError().c_str());
    QVERIFY(c.warnings.at("block").find("warp") != std::string::npos);
    QVERIFY(c.request->launch.block == (Dim3{100, 1, 1}));
    f.block = "256";
    QVERIFY(check(f).warnings.empty());
  }

  void launchShapeMustMatchTheWorkloadsDimensions() {
    FormState f = form("vector_add");
    f.autoBlock = false;
    f.block = "16x16";
    QVERIFY(check(f).errors.at("block").find("1D") != std::string::npos);
    f.block = "abc";
    QVERIFY(check(f).errors.count("block"));
    f = form("vector_add");
    f.autoGrid = false;
    f.grid = "0";
    QVERIFY(check(f).errors.count("grid"));
    f.grid = "30";
    const FormCheck c = check(f);
    QVERIFY(c.ok());
    QVERIFY(c.request->launch.grid == (Dim3{30, 1, 1}));
    QVERIFY(!c.request->launch.block.has_value());  // auto block stays unset
  }

  void twoDimensionalLaunchesAreCheckedPerDimensionAgainstTheDevice() {
    FormState f = form("transpose");
    QCOMPARE(f.block, std::string("16x16"));
    f.autoBlock = false;
    f.block = "32x64";
    QCOMPARE(check(f).errors.at("block"), std::string("2048 threads per block > 1024 (the limit of NVIDIA H200)"));
    f.block = "32x8";
    f.autoGrid = false;
    f.grid = "2x65536";
    QCOMPARE(check(f).errors.at("grid"), std::string("65536 blocks > 65535, the grid limit in y on NVIDIA H200"));
    f.grid = "128x128";
    const FormCheck c = check(f);
    QVERIFY2(c.ok(), c.firstError().c_str());
    QVERIFY(c.request->launch.block == (Dim3{32, 8, 1}));
    QVERIFY(c.request->launch.grid == (Dim3{128, 128, 1}));
    f.block = "4x4x4";
    QVERIFY(check(f).errors.at("block").find("2D launch") != std::string::npos);
  }

  void autoFieldsIgnoreTheirText() {
    FormState f = form("vector_add");
    f.autoBlock = true;
    f.block = "not a number";
    f.autoGrid = true;
    f.grid = "99999999999";
    QVERIFY(check(f).ok());
  }

  void parametersAreCheckedOneByOneAndTogether() {
    FormState f = form("gaussian_pdf");
    f.params["sigma"] = "-1";
    f.params["mean"] = "abc";
    FormCheck c = check(f);
    QVERIFY(c.errors.at("param:sigma").find("out of range") != std::string::npos);
    QVERIFY(c.errors.at("param:mean").find("number") != std::string::npos);
    f = form("gaussian_pdf");
    f.params["xmin"] = "5";
    f.params["xmax"] = "1";
    c = check(f);  // each is in range; the workload's rule across them is not met
    QVERIFY2(c.errors.count("params"), c.firstError().c_str());
    QVERIFY(c.errors.at("params").find("xmin") != std::string::npos);
    f = form("vector_add");
    f.params["input"] = "bogus";
    QVERIFY(check(f).errors.count("param:input"));
    f.params["input"] = "arange";
    QCOMPARE(check(f).request->params.at("input"), std::string("arange"));
  }

  void repetitionsAndImplementations() {
    FormState f = form("vector_add");
    f.reps = 0;
    QVERIFY(check(f).errors.count("reps"));
    f = form("vector_add");
    f.impls.clear();  // nothing ticked: the reference alone, not "all"
    QCOMPARE(check(f).request->impls, std::vector<std::string>{"cpu-serial"});
    f.impls = {"cpu-parallel", "nope"};
    QVERIFY(check(f).errors.count("impls"));
    f = form("vector_add");
    f.dtype = "u8";
    QVERIFY(check(f).errors.count("dtype"));
  }

  void sizeTextReadsBack() {
    for (std::uint64_t n :
         {1ull, 31ull, 1000ull, 1024ull, 4096ull, 1000000ull, 1000003ull, 16777216ull, 1ull << 31, 3000000000ull}) {
      const std::string t = sizeText(n);
      auto back = parseSize(t);
      QVERIFY2(back && *back == n, t.c_str());
    }
    QCOMPARE(sizeText(16777216), std::string("16Mi"));
    QCOMPARE(sizeText(1000000), std::string("1M"));
  }

  void quickSizeIsSmallAndValid() {
    for (const auto& w : m_backend->registry().all()) {
      const std::uint64_t n = chooseQuickSize(*w, 14);
      QVERIFY(n >= w->info().minN && n <= w->info().defaultN);
      FormState f = defaultForm(*w);
      f.size = sizeText(n);
      QVERIFY2(check(f).ok(), (w->info().id + " at " + f.size).c_str());
    }
    const Workload* va = m_backend->registry().find("vector_add");
    const std::uint64_t n = chooseQuickSize(*va, 14, 0.6);
    QVERIFY(n < va->info().defaultN);            // 2^24 elements is too slow for a first screen
    QVERIFY(3.0 * 4 * double(n) * 14 <= 0.6e9);  // bytesMoved at 1 GB/s fits the budget
  }

  void keptArraysAreCapped() {
    QCOMPARE(keptBytesCap(0), double(2ull << 30));
    QCOMPARE(keptBytesCap(1ull << 40), double(8ull << 30));
    QCOMPARE(keptBytesCap(100ull << 20), double(256ull << 20));
    std::string note;
    QVERIFY(mayKeepArrays(1e9, 2e9, note));
    QVERIFY(note.empty());
    QVERIFY(!mayKeepArrays(3e9, 2e9, note));
    QVERIFY(note.find("not kept") != std::string::npos);
    const Workload* va = m_backend->registry().find("vector_add");
    std::string err;
    auto params = resolveParams(va->info().params, {}, err);
    // inputs + outputs of 5 implementations + the reference: 3 arrays of 4 MiB each, 6 times.
    QCOMPARE(keptBytesEstimate(*va, 1 << 20, DType::F32, *params, 5), 6.0 * 3 * 4 * double(1 << 20));
  }
};

QTEST_GUILESS_MAIN(TestFormState)
#include "test_form_state.moc"
