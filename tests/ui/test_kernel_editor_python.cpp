// The "My kernel" tab in Python: the exercise's .py twin, Python highlighting, each language its own saved file, the
// language and the Python kept for next time, one inline line without numba-cuda (and CUDA C++ still compiling),
// and, where a Python with numba-cuda exists, Numba's diagnostics at their lines through core's compile. Screenshots
// of the window in Python mode with LAUNCHLAB_EDITOR_PY_SCREENSHOTS=FOLDER.
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QListWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

#include "app/gui_wiring.h"
#include "editor/code_editor.h"
#include "editor/code_highlighter.h"
#include "editor/exercise_store.h"
#include "editor/kernel_editor.h"
#include "launchlab/numba/numba.h"
#include "launchlab/worker/subprocess.h"
#include "window/desk.h"
#include "window/param_panel.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

QTextCharFormat formatAt(QTextDocument* doc, int line, int column) {
  const QTextBlock b = doc->findBlockByNumber(line);
  for (const auto& r : b.layout()->formats())
    if (column >= r.start && column < r.start + r.length) return r.format;
  return {};
}

/// Compiles and waits; the `done` answer (ok) and the compiled signal's error count.
struct Compiled {
  bool answered = false, ok = false;
  int errors = -1;
};
Compiled compileAndWait(KernelEditor& e, int timeoutMs = 120000) {
  Compiled c;
  QSignalSpy done(&e, &KernelEditor::compiled);
  e.compile([&](bool ok) {
    c.answered = true;
    c.ok = ok;
  });
  if (done.wait(timeoutMs)) c.errors = done.front().at(1).toInt();
  return c;
}

/// The Python with numba-cuda findPython chooses when the tests start ("" when it has none: the Numba tests then
/// skip, saying so). Read before the tests change LAUNCHLAB_PYTHON, as the editor does.
QString numbaPython() {
  static const QString found = [] {
    const std::string p = findPython("");
    return captureCommand({p, "-c", "import numba.cuda"}, 60).status == 0 ? QString::fromStdString(p) : QString();
  }();
  return found;
}

const char* kNoNumba =
    "no Python with numba-cuda (LAUNCHLAB_PYTHON, the project's .venv or python3): scripts/setup.sh makes .venv "
    "with it";

}  // namespace

class TestKernelEditorPython : public QObject {
  Q_OBJECT
  std::shared_ptr<EngineBackend> m_backend;
  QTemporaryDir m_dir;
  int m_editors = 0;

  std::unique_ptr<KernelEditor> editorIn(const QString& folder, const QString& workload = "vector_add") {
    auto e = std::make_unique<KernelEditor>(*m_backend, nullptr, folder);
    e->setWorkload(workload);
    return e;
  }
  std::unique_ptr<KernelEditor> pythonEditor(const QString& workload = "vector_add") {
    auto e = editorIn(m_dir.filePath("exercises" + QString::number(++m_editors)), workload);
    e->setLanguage(KernelLanguage::Python);
    return e;
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    numbaPython();
    qunsetenv("LAUNCHLAB_PYTHON");
    // The PTX cache of these tests is theirs: nothing read from or left in the user's.
    qputenv("LAUNCHLAB_CACHE_DIR", m_dir.filePath("cache").toLocal8Bit());
    m_backend = app::makeEngineBackend();
  }

  void cleanup() { qunsetenv("LAUNCHLAB_PYTHON"); }

  void pythonModeShowsTheExercisesTwin() {
    auto e = pythonEditor();
    QCOMPARE(e->languagePicker()->currentIndex(), 1);
    QCOMPARE(e->editor()->toPlainText(), ExerciseStore::startingFile("vector_add", KernelLanguage::Python));
    QVERIFY(e->editor()->toPlainText().contains("@cuda.jit"));
    QCOMPARE(e->userKernel()->fileName, std::string("vector_add.py"));
    QVERIFY2(e->noteText().startsWith("@cuda.jit def vector_add(x, y, out)"), qPrintable(e->noteText()));
    QVERIFY(e->findChild<QAction*>("pythonAction")->toolTip().contains(e->pythonPath()));
    e->revealSolution();
    QCOMPARE(e->editor()->toPlainText(), ExerciseStore::solution("vector_add", KernelLanguage::Python));
    QVERIFY(e->noteText().contains("kernels/vector_add/exercise_solution.py"));
    e->exercisePicker()->setCurrentIndex(1);  // another exercise keeps the language
    QCOMPARE(e->editor()->toPlainText(), ExerciseStore::startingFile("vector_add_grid_stride", KernelLanguage::Python));
  }

  void highlighterMarksPythonTokens() {
    auto e = pythonEditor();
    e->editor()->setPlainText(
        "@cuda.jit\ndef k(x):  # for\n    i = cuda.grid(1)\n    s = 'if'\n    x[i] = 42\n\"\"\"if\nfor\"\"\"\n");
    QTextDocument* doc = e->editor()->document();
    const CodeHighlighter& h = *e->highlighter();
    using K = CodeHighlighter::Kind;
    QCOMPARE(formatAt(doc, 0, 1).foreground(), h.format(K::Qualifier).foreground());  // @cuda.jit
    QCOMPARE(formatAt(doc, 1, 0).foreground(), h.format(K::Keyword).foreground());    // def
    QCOMPARE(formatAt(doc, 1, 14).foreground(), h.format(K::Comment).foreground());   // "for" in the comment
    QCOMPARE(formatAt(doc, 2, 9).foreground(), h.format(K::Builtin).foreground());    // cuda.grid
    QCOMPARE(formatAt(doc, 3, 9).foreground(), h.format(K::String).foreground());     // "if" in a string
    QCOMPARE(formatAt(doc, 4, 11).foreground(), h.format(K::Number).foreground());    // 42
    QCOMPARE(formatAt(doc, 6, 0).foreground(), h.format(K::String).foreground());     // inside """ ... """
    QVERIFY(formatAt(doc, 4, 4).foreground() != h.format(K::Keyword).foreground());   // x: plain
    // Back in C++, the same document is coloured as C++: "def" is no keyword there, "//" a comment.
    e->setLanguage(KernelLanguage::Cuda);
    e->editor()->setPlainText("def x; // if\n");
    QVERIFY(formatAt(doc, 0, 0).foreground() != h.format(K::Keyword).foreground());
    QCOMPARE(formatAt(doc, 0, 10).foreground(), h.format(K::Comment).foreground());
  }

  void eachLanguageKeepsItsFileAndTheChoiceIsKept() {
    const QString folder = m_dir.filePath("languages");
    {
      auto e = editorIn(folder);
      QCOMPARE(e->language(), KernelLanguage::Cuda);
      e->setLanguage(KernelLanguage::Python);
      e->editor()->setPlainText("# mine, in Python\n" + e->editor()->toPlainText());
      QVERIFY(e->save());
      e->setLanguage(KernelLanguage::Cuda);
      QCOMPARE(e->editor()->toPlainText(), ExerciseStore::startingFile("vector_add"));
      QCOMPARE(e->userKernel()->fileName, std::string("vector_add.cu"));
      e->setLanguage(KernelLanguage::Python);
      QVERIFY(e->editor()->toPlainText().startsWith("# mine, in Python\n"));
    }
    QVERIFY(QFileInfo(folder + "/vector_add.py").isFile());
    QVERIFY(!QFileInfo(folder + "/vector_add.cu").exists());  // the C++ file was never edited
    auto again = editorIn(folder);  // the next session opens in the language last chosen, on the saved file
    QCOMPARE(again->language(), KernelLanguage::Python);
    QVERIFY(again->editor()->toPlainText().startsWith("# mine, in Python\n"));
    QVERIFY(again->noteText().contains("your saved file"));
    // Importing a .cu file switches to C++; the Python file stays as it was.
    const QString cu = m_dir.filePath("mine.cu");
    QVERIFY(ExerciseStore::exportFile(cu, ExerciseStore::solution("vector_add")).isEmpty());
    QVERIFY(again->importFile(cu));
    QCOMPARE(again->language(), KernelLanguage::Cuda);
    QCOMPARE(again->editor()->toPlainText(), ExerciseStore::solution("vector_add"));
  }

  void withoutNumbaOneInlineLineAndCudaStillCompiles() {
    auto e = pythonEditor();
    e->setPythonPath("/nonexistent/python3");
    QCOMPARE(qEnvironmentVariable("LAUNCHLAB_PYTHON"), QString("/nonexistent/python3"));  // what the worker takes
    QCOMPARE(e->pythonPath(), QString("/nonexistent/python3"));
    const Compiled py = compileAndWait(*e);
    QVERIFY(py.answered);
    QVERIFY(!py.ok);  // the worker would find the same Python: the run does not start
    const QString note = e->noteText();
    QVERIFY2(note.startsWith("Cannot compile with Numba: no Python at '/nonexistent/python3'"), qPrintable(note));
    QVERIFY2(note.contains("pip install numba-cuda") && note.contains("scripts/setup.sh"), qPrintable(note));
    QVERIFY(!note.contains('\n'));
    QCOMPARE(e->problemList()->count(), 0);
    // The C++ file compiles as before (NVRTC, or, where it is missing, its own one line).
    e->setLanguage(KernelLanguage::Cuda);
    e->revealSolution();
    const Compiled cu = compileAndWait(*e);
    QVERIFY(cu.answered);
    QVERIFY(cu.ok);
    QVERIFY2(!e->noteText().contains("Numba"), qPrintable(e->noteText()));
    if (nvrtcUnavailableReason().empty()) QCOMPARE(cu.errors, 0);
    // Going back to findPython's choice forgets it for the worker too.
    e->setPythonPath("");
    QVERIFY(qEnvironmentVariable("LAUNCHLAB_PYTHON").isEmpty());
  }

  void numbaDiagnosticsLandOnTheirLines() {
    if (numbaPython().isEmpty()) QSKIP(kNoNumba);
    auto e = pythonEditor();
    e->setPythonPath(numbaPython());
    e->revealSolution();
    const Compiled ok = compileAndWait(*e);
    QVERIFY(ok.ok);
    QCOMPARE(ok.errors, 0);
    QVERIFY2(e->noteText().startsWith("Compiled for sm_90 with Numba (first compile"), qPrintable(e->noteText()));
    QVERIFY(compileAndWait(*e).ok);  // the same file again: from the cache
    QVERIFY2(e->noteText().contains("the PTX from the cache"), qPrintable(e->noteText()));
    // Numba's typing error at the line it names.
    e->editor()->setPlainText(
        "from numba import cuda\n\n\n@cuda.jit\ndef vector_add(x, y, out):\n    i = cuda.grid(1)\n"
        "    out[i] = x[i] + 'text'\n");
    const Compiled typing = compileAndWait(*e);
    QVERIFY(!typing.ok);
    QCOMPARE(typing.errors, 1);
    QCOMPARE(int(e->editor()->marks().size()), 1);
    QCOMPARE(e->editor()->marks()[0].line, 7);
    QVERIFY2(e->editor()->markText(7).contains("TypingError"), qPrintable(e->editor()->markText(7)));
    QVERIFY(e->problemList()->item(0)->text().startsWith("vector_add.py:7:"));
    // A kernel that does not take the exercise's arguments: one error at its def line, not at the decorator.
    e->editor()->setPlainText("from numba import cuda\n\n\n@cuda.jit\ndef vector_add(x, y):\n    pass\n");
    QVERIFY(!compileAndWait(*e).ok);
    QCOMPARE(int(e->editor()->marks().size()), 1);
    QCOMPARE(e->editor()->marks()[0].line, 5);
    QVERIFY2(e->editor()->markText(5).contains("takes 2 arguments; the exercise passes 3"),
             qPrintable(e->editor()->markText(5)));
    // A 2-D exercise compiles to its contract as well.
    auto t = pythonEditor("transpose");
    t->setPythonPath(numbaPython());
    t->revealSolution();
    QVERIFY2(compileAndWait(*t).ok, qPrintable(t->noteText()));
  }

  /// The exercise's Numba solution runs as my-kernel beside the built-in variants from the window's Run: verified
  /// on a GPU (skipped with the usual reason without one). With LAUNCHLAB_EDITOR_PY_SCREENSHOTS=FOLDER, the window
  /// with the compiled kernel in the tab and with the timing chart, at 1280x720 and 1920x1080
  /// (numba_run_<editor|timing>_<size>.png).
  void aNumbaSolutionRunsBesideTheBuiltIns() {
    if (numbaPython().isEmpty()) QSKIP(kNoNumba);
    const QString folder = qEnvironmentVariable("LAUNCHLAB_EDITOR_PY_SCREENSHOTS");
    for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
      MainWindowOptions o;
      o.presetFolder = m_dir.filePath("presets");
      o.exerciseFolder = m_dir.filePath("run" + QString::number(size.width()));
      o.firstRun = false;
      MainWindow w(m_backend, AppSettings::ephemeral(), o);
      w.resize(size);
      w.show();
      w.selectWorkload("vector_add");
      KernelEditor& e = *w.desk().kernelEditor();
      e.setLanguage(KernelLanguage::Python);
      e.setPythonPath(numbaPython());
      e.revealSolution();
      ParamPanel* panel = w.desk().paramPanel();
      QTRY_VERIFY(panel->myKernelBox()->isVisibleTo(panel));
      panel->myKernelBox()->setChecked(true);
      QVERIFY(panel->check().ok());
      QVERIFY(test::runAndWait(w, 120000));
      const ImplResult* mine = w.results().last()->result.find(std::string(kMyKernel));
      QVERIFY(mine);
      if (!m_backend->deviceStatus().available) {
        QCOMPARE(mine->status, Status::Skipped);
        QSKIP("no CUDA device: my-kernel compiled and was skipped with the usual reason");
      }
      QVERIFY2(mine->status == Status::Ok, mine->reason.c_str());
      QCOMPARE(mine->verification.outcome, Verification::Outcome::Pass);
      QVERIFY(w.results().last()->result.find("cuda-one-per-thread"));
      if (folder.isEmpty()) continue;
      const QString tag = QString("%1x%2").arg(size.width()).arg(size.height());
      w.editor().show();
      QTest::qWait(300);
      QVERIFY(w.grab().toImage().save(QString("%1/numba_run_editor_%2.png").arg(folder, tag)));
      QVERIFY(w.desk().showTab("Timing"));
      QTest::qWait(300);
      QVERIFY(w.grab().toImage().save(QString("%1/numba_run_timing_%2.png").arg(folder, tag)));
    }
  }

  /// LAUNCHLAB_EDITOR_PY_SCREENSHOTS=FOLDER: the window with the tab in front in Python mode, a Numba kernel with a
  /// typing error marked at its line, at 1280x720 and 1920x1080 (editor_python_<size>.png).
  void screenshotsInPythonMode() {
    const QString folder = qEnvironmentVariable("LAUNCHLAB_EDITOR_PY_SCREENSHOTS");
    if (folder.isEmpty()) QSKIP("set LAUNCHLAB_EDITOR_PY_SCREENSHOTS=FOLDER to save the tab's screenshots");
    if (numbaPython().isEmpty()) QSKIP(kNoNumba);
    for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
      MainWindowOptions o;
      o.presetFolder = m_dir.filePath("presets");
      o.exerciseFolder = m_dir.filePath("shot" + QString::number(size.width()));
      o.firstRun = false;
      MainWindow w(m_backend, AppSettings::ephemeral(), o);
      w.resize(size);
      w.show();
      w.selectWorkload("histogram");
      QVERIFY(test::runAndWait(w));
      KernelEditor& e = *w.desk().kernelEditor();
      e.setLanguage(KernelLanguage::Python);
      e.setPythonPath(numbaPython());
      QString text = ExerciseStore::solution("histogram", KernelLanguage::Python);
      text.replace("nbins = counts.shape[0]", "nbins = counts.size()");  // NumPy's size is no method: Numba says so
      e.editor()->setPlainText(text);
      w.editor().show();
      QCOMPARE(compileAndWait(e).errors, 1);
      QCOMPARE(e.editor()->marks().front().line, 10);
      e.editor()->goToLine(10);
      QTest::qWait(300);
      const QImage shot = w.grab().toImage();
      QCOMPARE(shot.size(), size * w.devicePixelRatio());
      QVERIFY(shot.save(QString("%1/editor_python_%2x%3.png").arg(folder).arg(size.width()).arg(size.height())));
    }
  }
};

QTEST_MAIN(TestKernelEditorPython)
#include "test_kernel_editor_python.moc"
