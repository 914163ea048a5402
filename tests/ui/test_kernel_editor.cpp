// The "My kernel" tab: CUDA highlighting, diagnostics at their lines (fake compiler, and NVRTC when it loads),
// compile off the GUI thread, save/restore in AppDataLocation, reset/reveal as undoable edits, import checks, Check
// through a CLI (a fake one printing findings, and the real one without a sanitizer), and my-kernel in a run.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <atomic>

#include "app/gui_wiring.h"
#include "editor/code_editor.h"
#include "editor/code_highlighter.h"
#include "editor/exercise_store.h"
#include "editor/kernel_editor.h"
#include "launchlab/course/nvrtc.h"
#include "plots/results_tables.h"
#include "window/param_panel.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

/// A compiler that reports `diags` (and records the thread it ran on).
CompileFn fakeCompiler(std::vector<Diagnostic> diags, std::atomic<bool>* onGuiThread = nullptr) {
  QThread* gui = QThread::currentThread();
  return [diags, onGuiThread, gui](const CompileJob& job, const CancelToken&) {
    if (onGuiThread) *onGuiThread = QThread::currentThread() == gui;
    CompileResult r;
    r.arch = job.arch;
    r.diagnostics = diags;
    r.ok = std::none_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.isError(); });
    return r;
  };
}

/// The format the highlighter gave the text at `column` of `line` (0-based).
QTextCharFormat formatAt(QTextDocument* doc, int line, int column) {
  const QTextBlock b = doc->findBlockByNumber(line);
  for (const auto& r : b.layout()->formats())
    if (column >= r.start && column < r.start + r.length) return r.format;
  return {};
}

bool compileAndWait(KernelEditor& e) {
  QSignalSpy done(&e, &KernelEditor::compiled);
  e.compile();
  return done.wait(20000);
}

}  // namespace

class TestKernelEditor : public QObject {
  Q_OBJECT
  std::shared_ptr<EngineBackend> m_backend;
  QTemporaryDir m_dir;
  int m_editors = 0;

  std::unique_ptr<KernelEditor> editorOn(const QString& workload) {
    // A folder of its own: what one test saves never shows up in the next.
    auto e =
        std::make_unique<KernelEditor>(*m_backend, nullptr, m_dir.filePath("exercises" + QString::number(++m_editors)));
    e->setWorkload(workload);
    return e;
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    m_backend = app::makeEngineBackend();
  }

  void highlighterMarksCudaTokens() {
    auto e = editorOn("vector_add");
    e->editor()->setPlainText("__global__ void k(int* p) {\n  int i = threadIdx.x; // note: for\n  p[i] = 42;\n}\n");
    QTextDocument* doc = e->editor()->document();
    const CodeHighlighter& h = *e->highlighter();
    using K = CodeHighlighter::Kind;
    QCOMPARE(formatAt(doc, 0, 0).foreground(), h.format(K::Qualifier).foreground());  // __global__
    QCOMPARE(formatAt(doc, 0, 11).foreground(), h.format(K::Keyword).foreground());   // void
    QCOMPARE(formatAt(doc, 1, 10).foreground(), h.format(K::Builtin).foreground());   // threadIdx
    QCOMPARE(formatAt(doc, 1, 32).foreground(), h.format(K::Comment).foreground());   // "for" inside the comment
    QCOMPARE(formatAt(doc, 2, 9).foreground(), h.format(K::Number).foreground());     // 42
    QVERIFY(formatAt(doc, 2, 2).foreground() != h.format(K::Keyword).foreground());   // p: plain
    QVERIFY(e->editor()->font().fixedPitch() || e->editor()->font().styleHint() == QFont::Monospace);
  }

  void pickerListsTheWorkloadsExercises() {
    auto e = editorOn("vector_add");
    QCOMPARE(e->exercisePicker()->count(), 2);
    QCOMPARE(e->exercisePicker()->itemData(0).toString(), QString("vector_add"));  // the workload's own first
    QCOMPARE(e->editor()->toPlainText(), ExerciseStore::startingFile("vector_add"));
    QVERIFY(e->editor()->toPlainText().contains("__global__ void vector_add"));
    e->exercisePicker()->setCurrentIndex(1);
    QCOMPARE(QString::fromStdString(e->exercise()->id), QString("vector_add_grid_stride"));
    QCOMPARE(e->editor()->toPlainText(), ExerciseStore::startingFile("vector_add_grid_stride"));
    e->setWorkload("mandelbrot");
    QVERIFY(!e->exercise());
    QVERIFY(!e->exercisePicker()->isEnabled());
    QVERIFY(e->noteText().startsWith("No exercise for this workload"));
    QVERIFY(!e->userKernel());
  }

  void diagnosticsAtTheirLinesAndListJumps() {
    auto e = editorOn("vector_add");
    std::atomic<bool> onGui{true};
    e->setCompileFunction(
        fakeCompiler({{"vector_add.cu", 3, 5, "error", "expected a \";\""},
                      {"vector_add.cu", 7, 1, "warning", "variable \"j\" was declared but never referenced"},
                      {std::string(kContractFile), 2, 1, "error", "from the harness"}},
                     &onGui));
    QVERIFY(compileAndWait(*e));
    QVERIFY(!onGui);  // compiled on another thread
    const auto& marks = e->editor()->marks();
    QCOMPARE(int(marks.size()), 3);
    QCOMPARE(marks[0].line, 3);
    QVERIFY(marks[0].error);
    QCOMPARE(marks[1].line, 7);
    QVERIFY(!marks[1].error);
    QCOMPARE(marks[2].line, 1);  // the harness's lines land on line 1 of the file
    const auto sels = e->editor()->extraSelections();
    QCOMPARE(sels.size(), 3);
    QCOMPARE(sels[0].cursor.block().blockNumber(), 2);
    QCOMPARE(sels[0].format.underlineStyle(), QTextCharFormat::WaveUnderline);
    QCOMPARE(e->editor()->markText(3), QString("error: expected a \";\""));
    QCOMPARE(e->problemList()->count(), 3);
    QCOMPARE(e->problemList()->item(0)->text(), QString("vector_add.cu:3:5: error: expected a \";\""));
    QVERIFY(e->noteText().contains("2 errors"));
    e->show();
    QListWidget* list = e->problemList();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(1)).center());
    QCOMPARE(e->editor()->cursorLine(), 7);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(0)).center());
    QCOMPARE(e->editor()->cursorLine(), 3);
    // A clean compile clears them.
    e->setCompileFunction(fakeCompiler({}));
    QVERIFY(compileAndWait(*e));
    QVERIFY(e->editor()->marks().empty());
    QCOMPARE(e->problemList()->count(), 0);
    QVERIFY(e->noteText().startsWith("Compiled for sm_90"));
  }

  void ctrlBCompiles() {
    auto e = editorOn("hypot");
    e->setCompileFunction(fakeCompiler({{"hypot.cu", 2, 1, "error", "from Ctrl+B"}}));
    e->show();
    QVERIFY(QTest::qWaitForWindowActive(e.get()));
    e->editor()->setFocus();
    QSignalSpy done(e.get(), &KernelEditor::compiled);
    QTest::keyClick(e->editor(), Qt::Key_B, Qt::ControlModifier);
    QVERIFY(done.wait(5000));
    QCOMPARE(e->editor()->markText(2), QString("error: from Ctrl+B"));
  }

  void withoutNvrtcOneInlineLine() {
    auto e = editorOn("hypot");
    e->setCompileFunction([](const CompileJob&, const CancelToken&) {
      CompileResult r;
      r.unavailable = "NVRTC not found: install the CUDA toolkit's runtime compiler";
      return r;
    });
    bool answered = false, ok = false;
    QSignalSpy done(e.get(), &KernelEditor::compiled);
    e->compile([&](bool o) {
      answered = true;
      ok = o;
    });
    QVERIFY(done.wait(10000));
    QVERIFY(answered);
    QVERIFY(ok);  // the run goes on: the worker compiles and says what it finds
    QVERIFY(e->noteText().startsWith("NVRTC not found"));
    QVERIFY(!e->noteText().contains('\n'));
    QCOMPARE(e->problemList()->count(), 0);
  }

  void destroyingAbandonsACompileInFlight() {
    // A compile that ends only when abandoned (a macro bomb, an #include of a FIFO): the editor's destructor must
    // abandon it, not wait for it. The fake gives up by itself after a minute, which fails the test.
    auto abandoned = std::make_shared<std::atomic<bool>>(false);
    auto started = std::make_shared<std::atomic<bool>>(false);
    auto e = editorOn("vector_add");
    e->setCompileFunction([abandoned, started](const CompileJob&, const CancelToken& abandon) {
      *started = true;
      for (int i = 0; i < 6000 && !abandon.cancelled(); ++i) QThread::msleep(10);
      *abandoned = abandon.cancelled();
      return CompileResult{};
    });
    e->compile();
    QTRY_VERIFY(started->load());
    e.reset();
    QVERIFY(abandoned->load());
  }

  void realCompilePlacesNvrtcErrors() {
    if (const std::string why = nvrtcUnavailableReason(); !why.empty()) QSKIP(why.c_str());
    auto e = editorOn("vector_add");
    QString text = ExerciseStore::solution("vector_add");
    const int line = int(text.left(text.indexOf("out[i] =")).count('\n')) + 1;
    text.replace("out[i] =", "out[i] = undefined_name +");
    e->editor()->setPlainText(text);
    QVERIFY(compileAndWait(*e));
    QVERIFY(!e->editor()->marks().empty());
    QCOMPARE(e->editor()->marks().front().line, line);
    QVERIFY(e->editor()->marks().front().text.contains("undefined_name"));
  }

  void saveAndRestoreInAppData() {
    const QString folder = ExerciseStore::defaultFolder();
    QVERIFY2(folder.contains("qttest"), qPrintable(folder));  // test mode: never the user's own files
    QFile::remove(folder + "/histogram.cu");
    {
      KernelEditor e(*m_backend);
      e.setWorkload("histogram");
      e.editor()->setPlainText("// mine\n__global__ void cuda_histogram() {}\n");
      QVERIFY(e.save());
    }
    QVERIFY(QFileInfo(folder + "/histogram.cu").isFile());
    KernelEditor again(*m_backend);
    again.setWorkload("histogram");
    QCOMPARE(again.editor()->toPlainText(), QString("// mine\n__global__ void cuda_histogram() {}\n"));
    QVERIFY(again.noteText().contains("your saved file"));
    QFile::remove(folder + "/histogram.cu");
  }

  void editsAreSavedAfterAPause() {
    auto e = editorOn("atomic_counter");
    QTest::keyClicks(e->editor(), "// typed");
    QTRY_VERIFY_WITH_TIMEOUT(e->store().hasSaved("atomic_counter"), 5000);
    QVERIFY(ExerciseStore(e->store().folder()).load("atomic_counter").text.contains("// typed"));
  }

  // A saved file the editor cannot load (one Latin-1 byte from another editor, or over the size limit) is kept,
  // renamed aside, and the editor says so inline; typing then saves the new text without touching the old file.
  void aSavedFileThatDoesNotLoadIsKeptAndNamed() {
    const QByteArray latin1 = "// notes: caf\xE9\n__global__ void vector_add() { /* my solution */ }\n";
    const QByteArray huge = "// big\n" + QByteArray(int(kMaxKernelSourceBytes) + 10, 'x') + "\n";
    for (const QByteArray& bytes : {latin1, huge}) {
      const QString folder = m_dir.filePath("unreadable" + QString::number(++m_editors));
      QVERIFY(QDir().mkpath(folder));
      QFile f(folder + "/vector_add.cu");
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(bytes);
      f.close();
      KernelEditor e(*m_backend, nullptr, folder);
      e.setWorkload("vector_add");
      QCOMPARE(e.editor()->toPlainText(), ExerciseStore::startingFile("vector_add"));
      QVERIFY2(e.noteText().contains("could not be loaded"), qPrintable(e.noteText()));
      QVERIFY2(e.noteText().contains(folder + "/vector_add.cu.unreadable"), qPrintable(e.noteText()));
      QVERIFY(!e.noteText().contains("your saved file"));
      QTest::keyClicks(e.editor(), "// hi");
      QTRY_VERIFY_WITH_TIMEOUT(e.store().hasSaved("vector_add"), 5000);
      QFile kept(folder + "/vector_add.cu.unreadable");
      QVERIFY(kept.open(QIODevice::ReadOnly));
      QCOMPARE(kept.readAll(), bytes);  // the student's bytes, untouched
    }
  }

  // What the editor saves, it loads again: text over the limit is refused (the old file stays), and a file the
  // student cleared loads as the empty file it is, not as the starting file.
  void theEditorSavesOnlyWhatItCanLoad() {
    auto e = editorOn("hypot");
    e->editor()->setPlainText("// mine\n");
    QVERIFY(e->save());
    e->editor()->setPlainText(QString(int(kMaxKernelSourceBytes) + 1, 'x'));
    QVERIFY(!e->save());
    QVERIFY2(e->noteText().contains("Not saved"), qPrintable(e->noteText()));
    QCOMPARE(e->store().load("hypot").text, QString("// mine\n"));
    e->editor()->setPlainText("");
    QVERIFY(e->save());
    const ExerciseStore::Loaded blank = e->store().load("hypot");
    QVERIFY(blank.fromSaved);
    QCOMPARE(blank.text, QString());
    QVERIFY(blank.problem.isEmpty());
  }

  void resetAndRevealAreUndoable() {
    auto e = editorOn("reduce_sum");
    e->editor()->setPlainText("my attempt\n");
    e->revealSolution();
    QCOMPARE(e->editor()->toPlainText(), ExerciseStore::solution("reduce_sum"));
    QVERIFY(e->noteText().startsWith("This is the reference solution"));
    e->editor()->undo();
    QCOMPARE(e->editor()->toPlainText(), QString("my attempt\n"));
    e->resetToStartingFile();
    QCOMPARE(e->editor()->toPlainText(), ExerciseStore::startingFile("reduce_sum"));
    QVERIFY(e->noteText().contains("Ctrl+Z"));
    e->editor()->undo();
    QCOMPARE(e->editor()->toPlainText(), QString("my attempt\n"));
    e->editor()->redo();
    QCOMPARE(e->editor()->toPlainText(), ExerciseStore::startingFile("reduce_sum"));
  }

  void importRejectsBinaryAndOversizeWithOneMessage() {
    auto e = editorOn("vector_add");
    const QString before = e->editor()->toPlainText();
    const QString bin = m_dir.filePath("kernel.o");
    {
      QFile f(bin);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(
          QByteArray("\x7f"
                     "ELF\x02\x01\x01\0\0\0\0",
                     12));
    }
    QVERIFY(!e->importFile(bin));
    QVERIFY2(e->noteText().startsWith("Not imported: kernel.o: "), qPrintable(e->noteText()));
    QVERIFY(!e->noteText().contains('\n'));
    QCOMPARE(e->editor()->toPlainText(), before);
    const QString big = m_dir.filePath("big.cu");
    {
      QFile f(big);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray(300 * 1024, 'a'));
    }
    QVERIFY(!e->importFile(big));
    QVERIFY(e->noteText().contains(QString::fromStdString(kernelSizeProblem(300 * 1024))));
    const QString good = m_dir.filePath("good.cu");
    QVERIFY(ExerciseStore::exportFile(good, "__global__ void vector_add() {}\n").isEmpty());
    QVERIFY(e->importFile(good));
    QCOMPARE(e->editor()->toPlainText(), QString("__global__ void vector_add() {}\n"));
    e->editor()->undo();
    QCOMPARE(e->editor()->toPlainText(), before);
    QVERIFY(e->exportFile(m_dir.filePath("out.cu")));
    QString back;
    QVERIFY(ExerciseStore::importFile(m_dir.filePath("out.cu"), back).isEmpty());
    QCOMPARE(back, before);
  }

  void checkShowsFindingsAtTheirLines() {
    // A stand-in for launchlab-cli: check WORKLOAD --exercise E --kernel-file PATH prints findings as `check` does.
    const QString fake = m_dir.filePath("fake-cli.sh");
    QVERIFY(
        ExerciseStore::exportFile(fake,
                                  "#!/bin/sh\necho \"$6:4: memcheck: Invalid __global__ write of size 4 bytes\"\n"
                                  "echo \"$6:9: racecheck: race: Write access (line 9) and Read access (line 11)\"\n"
                                  "echo \"check $6 (vector_add, n = 65536): memcheck 1 finding, racecheck 1 finding\"\n"
                                  "exit 1\n")
            .isEmpty());
    QFile::setPermissions(fake, QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::WriteOwner);
    auto e = editorOn("vector_add");
    e->setCliPath(fake);
    QSignalSpy checked(e.get(), &KernelEditor::checked);
    e->check();
    QVERIFY(checked.wait(10000));
    QCOMPARE(checked.front().front().toInt(), 2);
    QCOMPARE(int(e->editor()->marks().size()), 2);
    QCOMPARE(e->editor()->marks()[0].line, 4);
    QCOMPARE(e->editor()->marks()[1].line, 9);
    QCOMPARE(e->problemList()->item(0)->text(),
             QString("vector_add.cu:4: memcheck: Invalid __global__ write of size 4 bytes"));
    QCOMPARE(e->noteText(), QString("Check: memcheck 1 finding, racecheck 1 finding"));
  }

  void checkWithoutSanitizerSaysSo() {
    qputenv("LAUNCHLAB_COMPUTE_SANITIZER", "/nonexistent/compute-sanitizer");
    auto e = editorOn("vector_add");
    e->setCliPath(LAUNCHLAB_CLI_PATH);
    QSignalSpy checked(e.get(), &KernelEditor::checked);
    e->check();
    QVERIFY(checked.wait(20000));
    qunsetenv("LAUNCHLAB_COMPUTE_SANITIZER");
    QCOMPARE(checked.front().front().toInt(), -1);
    QVERIFY2(e->noteText().startsWith("Check: compute-sanitizer not found"), qPrintable(e->noteText()));
    QVERIFY(e->editor()->marks().empty());
  }

  void myKernelIsOfferedAndRuns() {
    QTemporaryDir presets;
    auto w = test::openWindow(m_backend, presets.path());
    w->selectWorkload("vector_add");
    ParamPanel* panel = w->desk().paramPanel();
    QVERIFY(panel->myKernelBox());
    QTRY_VERIFY(panel->myKernelBox()->isVisibleTo(panel));  // a rebuilt panel shows its widgets from the event loop
    panel->myKernelBox()->setChecked(true);
    QVERIFY(panel->check().ok());
    QVERIFY(panel->check().request->userKernel);
    QCOMPARE(panel->check().request->userKernel->exercise, std::string("vector_add"));
    w->desk().kernelEditor()->setCompileFunction(fakeCompiler({}));
    w->desk().kernelEditor()->editor()->setPlainText(ExerciseStore::solution("vector_add"));
    QVERIFY(test::runAndWait(*w));
    const auto* mine = w->results().last()->result.find(std::string(kMyKernel));
    QVERIFY(mine);
    if (!m_backend->deviceStatus().available) QCOMPARE(mine->status, Status::Skipped);  // the usual reason, no GPU
    QVERIFY(!mine->reason.empty() || mine->status == Status::Ok);
    // A file that does not compile stops the run and shows the tab.
    w->desk().kernelEditor()->setCompileFunction(fakeCompiler({{"vector_add.cu", 2, 1, "error", "broken"}}));
    QSignalSpy compiled(w->desk().kernelEditor(), &KernelEditor::compiled);
    w->runAction()->trigger();
    QVERIFY(compiled.wait(10000));
    QVERIFY(!w->controller().busy());
    QCOMPARE(w->desk().kernelEditor()->editor()->marks().front().line, 2);
    QVERIFY(w->desk().kernelEditor()->isVisible());
    // A workload without an exercise does not offer it.
    w->selectWorkload("mandelbrot");
    QTRY_VERIFY(!panel->myKernelBox()->isVisibleTo(panel));
  }

  /// LAUNCHLAB_EDITOR_SCREENSHOT=F.png: the window with the tab in front and a compiler error shown (docs/screenshots;
  /// run with an offscreen screen of the size wanted).
  void screenshotWithADiagnostic() {
    const QString path = qEnvironmentVariable("LAUNCHLAB_EDITOR_SCREENSHOT");
    if (path.isEmpty()) QSKIP("set LAUNCHLAB_EDITOR_SCREENSHOT=F.png to save the tab's screenshot");
    MainWindowOptions o;
    o.presetFolder = m_dir.filePath("presets");
    o.exerciseFolder = m_dir.filePath("shot");
    o.firstRun = false;
    MainWindow w(m_backend, AppSettings::ephemeral(), o);
    w.showMaximized();
    w.selectWorkload("vector_add");
    QVERIFY(test::runAndWait(w));
    QString text = ExerciseStore::startingFile("vector_add");
    text.replace(
        "  // TODO: compute this thread's global index, and if it is below n, write x + y to out at that index.\n",
        "  const unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x\n"
        "  if (i < n) out[i] = x[i] + y[idx];\n");
    w.desk().kernelEditor()->editor()->setPlainText(text);
    if (!nvrtcUnavailableReason().empty())
      w.desk().kernelEditor()->setCompileFunction(
          fakeCompiler({{"vector_add.cu", 20, 3, "error", "expected a \";\""}}));
    w.editor().show();
    QVERIFY(compileAndWait(*w.desk().kernelEditor()));
    w.desk().kernelEditor()->editor()->goToLine(19);
    QTest::qWait(300);
    QVERIFY(w.grab().save(path));
  }
};

QTEST_MAIN(TestKernelEditor)
#include "test_kernel_editor.moc"
