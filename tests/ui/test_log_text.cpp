// The window's wording as plain functions, without widgets: banners (HTML-escaped where they quote names and
// reasons), log lines, status texts and tooltips, compared string for string.
#include <QTest>

#include "fakes.h"
#include "models/log_text.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

ImplResult impl(const std::string& id, Status status, const std::string& reason = {}) {
  ImplResult i;
  i.implId = id;
  i.title = id == kCpuSerial ? "CPU serial" : "CUDA <grid-stride>";
  i.status = status;
  i.reason = reason;
  i.phases[Phase::Total] = {1.5, 1.0, 2.0, 5};
  return i;
}

/// A race demonstration whose one counter differs from the reference, with `note` as its verification's note.
ImplResult raceResult(const std::string& note) {
  ImplResult race = impl("cuda-race", Status::Ok);
  race.title = "CUDA race";
  race.demonstration = true;
  race.verification.outcome = Verification::Outcome::Demonstration;
  race.verification.mismatches = 1;
  race.verification.compared = 1;
  race.verification.note = note;
  return race;
}

}  // namespace

class TestLogText : public QObject {
  Q_OBJECT
 private slots:
  void deviceBannerNamesTheGpu() {
    DeviceStatus d;
    d.available = true;
    d.info.name = "NVIDIA H200 <NVL>";
    d.info.ccMajor = 9;
    d.info.ccMinor = 0;
    d.info.multiprocessors = 132;
    d.info.totalGlobalMem = std::size_t(141) << 30;
    d.info.driverVersion = 12040;
    QCOMPARE(deviceBannerText(d),
             QString("GPU: <b>NVIDIA H200 &lt;NVL&gt;</b> (compute capability 9.0, 132 SMs, 141.0 GiB, "
                     "driver 12.4) runs the CUDA implementations."));
    QCOMPARE(
        deviceBannerText(d, "lab-gpu"),
        QString("GPU: <b>NVIDIA H200 &lt;NVL&gt;</b> on <b>lab-gpu</b> (over SSH) (compute capability 9.0, 132 SMs, "
                "141.0 GiB, driver 12.4) runs the CUDA implementations. Plots are drawn from host copies of its "
                "arrays."));
  }

  void deviceBannerSaysWhyCudaIsOff() {
    DeviceStatus d;
    d.reason = "no NVIDIA driver & no device";
    QCOMPARE(deviceBannerText(d),
             QString("<b>CUDA implementations are off on this machine:</b> no NVIDIA driver &amp; no "
                     "device. CPU implementations run; CUDA rows say why they were skipped."));
    d.reason = "CPU-only build";
    QVERIFY(deviceBannerText(d, "lab-gpu")
                .startsWith("<b>CUDA implementations are off on lab-gpu (over SSH):</b> CPU-only"));
  }

  void runProblemsListFailuresAndMismatches() {
    RunResult r;
    QCOMPARE(runProblemsText(r), QString());
    r.impls.push_back(impl("cpu-serial", Status::Ok));
    r.impls.push_back(impl("cuda", Status::Failed, "illegal address <sticky>"));
    ImplResult bad = impl("cuda-2", Status::Ok);
    bad.title = "CUDA two";
    bad.verification.outcome = Verification::Outcome::Fail;
    bad.verification.mismatches = 17;
    r.impls.push_back(bad);
    r.impls.push_back(impl("cuda-3", Status::Skipped, "no GPU"));  // skipped is not a problem
    QCOMPARE(runProblemsText(r), QString("CUDA &lt;grid-stride&gt;: illegal address &lt;sticky&gt;<br>"
                                         "CUDA two: 17 mismatches against cpu-serial"));
    r.status = Status::Failed;
    r.reason = "out of memory: 3 > 2 GiB";
    QCOMPARE(runProblemsText(r), QString("The run failed: out of memory: 3 &gt; 2 GiB"));
  }

  /// A demonstration's wrong result is the lesson (amber), with its count; a real mismatch stays a problem (red).
  void demonstrationsAreLessonsNotProblems() {
    RunResult r;
    r.impls.push_back(impl("cpu-serial", Status::Ok));
    r.impls.push_back(raceResult("observed 57 of 16777216 increments: 16777159 lost to the race"));
    QCOMPARE(runProblemsText(r), QString());
    QCOMPARE(runLessonsText(r),
             QString("<b>CUDA race</b>: observed 57 of 16777216 increments: 16777159 lost to the race "
                     "(1 of 1 values differ from the reference) \u2014 the outcome this demonstration shows"));
    ImplResult bad = impl("cuda-atomic", Status::Ok);
    bad.title = "CUDA atomicAdd";
    bad.verification.outcome = Verification::Outcome::Fail;
    bad.verification.mismatches = 1;
    r.impls.push_back(bad);
    QCOMPARE(runProblemsText(r), QString("CUDA atomicAdd: 1 mismatches against cpu-serial"));
    QVERIFY(runLessonsText(r).startsWith("<b>CUDA race</b>"));
    // A demonstration that happened to match (no race this time) teaches nothing to announce.
    r.impls[1].verification.mismatches = 0;
    QCOMPARE(runLessonsText(r), QString());
  }

  /// A declared expected outcome is announced in its own words (the count included), once; a correct launch whose
  /// workload declared its lesson (surplus threads masked) is announced too; a declared race that produced a count
  /// no race leaves is a failure (red), never a lesson.
  void declaredOutcomesAreTheirOwnSentence() {
    RunResult r;
    r.impls.push_back(raceResult(
        "expected outcome: lost 99.2 % of the increments (4063 of 4096) \u2014 the race this experiment demonstrates"));
    ImplResult masked = impl("cpu-emulated-launch", Status::Ok);
    masked.title = "CPU launch";
    masked.verification.outcome = Verification::Outcome::Demonstration;
    masked.verification.note = "expected outcome: 8192 threads for 4096 elements: 4096 surplus threads masked";
    r.impls.push_back(masked);
    QCOMPARE(runLessonsText(r),
             QString("<b>CUDA race</b>: lost 99.2 % of the increments (4063 of 4096) \u2014 the race this "
                     "experiment demonstrates<br><b>CPU launch</b>: 8192 threads for 4096 elements: 4096 surplus "
                     "threads masked"));
    QCOMPARE(runProblemsText(r), QString());
    r.impls[0].verification.outcome = Verification::Outcome::Fail;  // a count above n: no race's outcome
    r.impls[0].verification.note = "observed 5000 of 4096 increments";
    QCOMPARE(runProblemsText(r), QString("CUDA race: 1 mismatches against cpu-serial"));
    QVERIFY(!runLessonsText(r).contains("CUDA race"));
  }

  /// Implementations that showed the same outcome share one sentence, each named once (in bold, so a title with a
  /// colon of its own never reads as "Lesson: CPU: ..."); names are escaped.
  void oneSentencePerLessonNamingEachImplementationOnce() {
    RunResult r;
    const std::string note =
        "expected outcome: 2048 of 4096 elements never written (the grid needs at least ceil(n / blockDim) blocks)";
    ImplResult cpu = raceResult(note), gpu = raceResult(note), other = raceResult("expected outcome: another one");
    cpu.title = "CPU: the launch, emulated";
    gpu.title = "CUDA <no bounds check>";
    other.title = "CUDA third";
    r.impls = {cpu, gpu, other};
    QCOMPARE(runLessonsText(r), QString("<b>CPU: the launch, emulated</b> and <b>CUDA &lt;no bounds check&gt;</b>: "
                                        "2048 of 4096 elements never written (the grid needs at least ceil(n / "
                                        "blockDim) blocks)<br><b>CUDA third</b>: another one"));
    r.impls.push_back(raceResult(note));
    r.impls.back().title = "CUDA fourth";
    QVERIFY(
        runLessonsText(r).startsWith("<b>CPU: the launch, emulated</b>, <b>CUDA &lt;no bounds check&gt;</b> and "
                                     "<b>CUDA fourth</b>: 2048"));
    QVERIFY(!runLessonsText(r).contains("Lesson"));
  }

  void cannotRunAndPresetTexts() {
    FormCheck c;
    c.errors["block"] = "1025 threads per block > 1024";
    QCOMPARE(cannotRunText(c), QString("Cannot run: block: 1025 threads per block &gt; 1024"));
    QCOMPARE(runActionTip(c), QString("Fix the marked fields first: block: 1025 threads per block > 1024"));
    QCOMPARE(runActionTip(FormCheck{}), QString("Run the selected implementations (Ctrl+R)"));
    QCOMPARE(presetWorkloadMissingText("A & B", "conv<2d>"),
             QString("Preset A &amp; B is for workload conv&lt;2d&gt;, which this build does not have"));
  }

  void runLines() {
    RunRequest req;
    req.workload = "vector_add";
    req.n = 65536;
    req.launch.grid = Dim3{30, 1, 1};
    req.impls = {"cpu-serial", "cuda-grid-stride"};
    req.reps = 5;
    QCOMPARE(runStartLine(7, req, "f32"),
             QString("job 7: run vector_add, n = 65536 f32, block auto, grid 30, 2 implementation(s), 5 reps"));
    RunResult r;
    QCOMPARE(jobFinishedLine(7, r, 1.254, 1.2, 12),
             QString("job 7 finished in 1.25 s (compute thread 1.20 s); shown in 12 ms"));
    QCOMPARE(runStatusText(r, 1.254), QString("Done in 1.25 s"));
    r.status = Status::Failed;
    r.reason = "cancelled";
    QCOMPARE(jobFinishedLine(8, r, 0.5, 0.25, 3),
             QString("job 8 failed in 0.50 s (compute thread 0.25 s); shown in 3 ms"));
    QCOMPARE(runStatusText(r, 0.5), QString("Failed: cancelled"));
    QCOMPARE(firstRunNote(std::uint64_t(1) << 16, "16Mi"),
             QString("first run at N = 64Ki so that it takes under a second; your size 16Mi stays in the form for the "
                     "next run"));
    QCOMPARE(coldStartLine(850), QString("cold start to first plot: 850 ms"));
    QCOMPARE(staleDroppedLine(4), QString("dropped the result of superseded job 4"));
  }

  void implementationLines() {
    ImplResult ok = impl("cuda", Status::Ok);
    ok.bandwidthGBs = 4321.06;
    ok.verification.outcome = Verification::Outcome::Pass;
    ok.launchNote = "auto: 256 threads";
    QCOMPARE(implResultLine(ok), QString("  cuda: ok, total 1.5 ms, 4321 GB/s, pass (auto: 256 threads)"));
    ImplResult ref = impl("cpu-serial", Status::Ok);
    ref.verification.outcome = Verification::Outcome::Reference;
    QCOMPARE(implResultLine(ref), QString("  cpu-serial: ok, total 1.5 ms, reference"));
    QCOMPARE(implResultLine(impl("cuda", Status::Skipped, "CPU-only build")),
             QString("  cuda: skipped: CPU-only build"));
  }

  void sweepLines() {
    QCOMPARE(sweepStartLine(9, "cuda-grid-stride", 32),
             QString("job 9: block-size sweep of cuda-grid-stride over 32 block sizes"));
    QCOMPARE(sweepPointLine(1, 32, test::sweepPoint(64, Status::Ok)),
             QString("sweep 2/32: block 64: 0.5 ms, 800 GB/s"));
    QCOMPARE(sweepPointLine(31, 32, test::sweepPoint(1024, Status::Failed, "too many resources requested")),
             QString("sweep 32/32: block 1024: failed: too many resources requested"));
    QCOMPARE(sweepFinishedLine(false, 3.14159), QString("sweep finished in 3.14 s"));
    QCOMPARE(sweepFinishedLine(true, 0.5), QString("sweep cancelled in 0.50 s"));
  }

  void sweepNotesListThreeThenCount() {
    std::vector<SweepPoint> pts = {test::sweepPoint(32, Status::Ok), test::sweepPoint(64, Status::Ok)};
    QCOMPARE(sweepNotesText(pts), QString());
    pts.push_back(test::sweepPoint(96, Status::Skipped, "no GPU"));
    QCOMPARE(sweepNotesText(pts), QString("Points without a measurement: 96: no GPU"));
    for (std::uint64_t t : {128, 160, 192, 224}) pts.push_back(test::sweepPoint(t, Status::Failed, "launch failed"));
    QCOMPARE(sweepNotesText(pts),
             QString("Points without a measurement: 96: no GPU; 128: launch failed; 160: launch failed"
                     " (+2 more, see the log)"));
  }

  void sweepButtonSaysWhyItIsOff() {
    DeviceStatus none;
    none.reason = "no CUDA driver";
    DeviceStatus gpu;
    gpu.available = true;
    // In the order a user would fix things: the machine, the workload, the form, a running job.
    QCOMPARE(sweepBlockedReason(none, false, false, true), QString("No GPU here: no CUDA driver"));
    QCOMPARE(sweepBlockedReason(gpu, false, false, true),
             QString("This workload has no CUDA implementation that takes a block size"));
    QCOMPARE(sweepBlockedReason(gpu, true, false, true), QString("Fix the marked parameters first"));
    QCOMPARE(sweepBlockedReason(gpu, true, true, true), QString("A job is running"));
    QCOMPARE(sweepBlockedReason(gpu, true, true, false), QString());
    QVERIFY(sweepButtonTip().startsWith("Runs the selected CUDA variant at 32, 64, "));
    QVERIFY(sweepButtonTip().endsWith("and plots time and GB/s against block size."));
  }

  void programOutputIsQuotedLineByLineAndBounded() {
    QCOMPARE(programOutputLines(""), QStringList());
    QCOMPARE(programOutputLines("\n\n"), QStringList());
    QCOMPARE(programOutputLines("hello from thread 0\nhello from thread 32\n"),
             QStringList({"  the program printed:", "  | hello from thread 0", "  | hello from thread 32"}));
    std::string many;
    for (int i = 0; i < 250; ++i) many += "line " + std::to_string(i) + "\n";
    const QStringList lines = programOutputLines(many);
    QCOMPARE(lines.size(), 202);
    QCOMPARE(lines.back(), QString("  | ... (50 more lines)"));
  }
};

QTEST_APPLESS_MAIN(TestLogText)
#include "test_log_text.moc"
