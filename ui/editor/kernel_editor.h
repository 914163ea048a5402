#pragma once
/// The "My kernel" tab: write the selected workload's exercise kernel (docs/EXERCISES.md) in CUDA C++ or in Python
/// (a Numba @cuda.jit kernel, the course's own language), compile it off the GUI thread (Ctrl+B, and before every run
/// that ticks my-kernel: NVRTC, or Numba through core's compileNumbaKernel as `launchlab-cli compile` does), see each
/// diagnostic at its line and in the list below, run it as the implementation "my-kernel", and check it under
/// compute-sanitizer (the CLI's `check` in a QProcess). The file is saved per exercise and language in the user's
/// data folder (ExerciseStore) and restored next time, in the language last chosen; Reset and Reveal solution are
/// undoable replacements, Import/Export read and write .cu and .py files. A Python kernel is compiled by the Python
/// the student chose (File > Python for Numba…, kept in the store's preferences), else launchlab --python's
/// ($LAUNCHLAB_PYTHON), else the project's .venv, else python3 (findPython); without numba-cuda the note says how to
/// install it, and the CUDA C++ language still works.
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "editor/exercise_store.h"
#include "launchlab/course/nvrtc.h"
#include "launchlab/engine/dtype.h"
#include "launchlab/engine/result.h"

class QAction;
class QComboBox;
class QLabel;
class QListWidget;
class QMenu;
class QProcess;
class QToolButton;
class QThread;
class QTimer;

namespace launchlab::ui {

class Backend;
class CodeEditor;
class CodeHighlighter;
class ExerciseStore;
class LineCountersView;
struct EditorMark;

/// One compile the editor asks for.
struct CompileJob {
  UserKernel kernel;  ///< its fileName's suffix gives the language (.py: Numba)
  const Exercise* exercise = nullptr;
  std::string arch;
  std::string python;          ///< a .py kernel: the Python with numba-cuda ("": findPython's)
  std::optional<DType> dtype;  ///< a .py kernel: the run's dtype (Numba compiles per dtype); unset: the exercise's
};

/// Compiles a kernel (core's compileUserKernel or compileNumbaKernel; tests hand in a fake). Runs on a worker thread;
/// returns soon after `abandon` is set (the editor is going away).
using CompileFn = std::function<CompileResult(const CompileJob& job, const CancelToken& abandon)>;
/// The compile the editor does by default: NVRTC for a .cu file, Numba for a .py one (its `log` then says whether the
/// PTX came from the cache or how long the first compile took).
CompileResult compileForEditor(const CompileJob& job, const CancelToken& abandon);

class KernelEditor : public QWidget {
  Q_OBJECT
 public:
  /// `storeFolder`: where the student's files are saved (default ExerciseStore::defaultFolder()).
  explicit KernelEditor(const Backend& backend, QWidget* parent = nullptr, const QString& storeFolder = {});
  /// Saves the file and abandons a compile in flight (its compiler process is killed, not waited for).
  ~KernelEditor() override;

  /// Shows the exercises of workload `id` (the workload's own first), loading the first one's file.
  void setWorkload(const QString& id);
  /// Loads exercise `id` (saving the file on screen first).
  void selectExercise(const QString& id);
  void setCompileFunction(CompileFn fn) { m_compile = std::move(fn); }
  /// Shows the exercise's file in `language` (saving the file on screen first); the choice is kept for next time.
  void setLanguage(KernelLanguage language);
  KernelLanguage language() const { return m_language; }
  /// The Python that compiles a .py kernel: `path` (kept for next time, and handed to the worker and to Check);
  /// "" goes back to findPython's choice.
  void setPythonPath(const QString& path);
  /// The Python a compile uses now (findPython's choice when none was set).
  QString pythonPath() const;
  /// The launchlab-cli that Check runs (default: $LAUNCHLAB_CLI_PATH, else launchlab-cli beside this program).
  void setCliPath(const QString& path) { m_cliPath = path; }

  /// The exercise on screen, or null (a workload without one).
  const Exercise* exercise() const { return m_exercise; }
  /// The kernel on screen as a run request carries it; nothing without an exercise.
  std::optional<UserKernel> userKernel() const;
  /// The one-line note under the buttons ("" when hidden).
  QString noteText() const;

  CodeEditor* editor() const { return m_editor; }
  QListWidget* problemList() const { return m_list; }
  QComboBox* exercisePicker() const { return m_picker; }
  QComboBox* languagePicker() const { return m_languagePicker; }
  CodeHighlighter* highlighter() const { return m_highlighter; }
  ExerciseStore& store() { return *m_store; }
  /// The per-line counters of my-kernel under the editor: shown by a run that measured them (showRunCounters).
  LineCountersView* lineCounters() const { return m_lineCounters; }
  void showRunCounters(const RunResult& r);
  bool compiling() const { return m_inFlight > 0; }

 public slots:
  /// Compiles the file on screen (Ctrl+B) and shows its diagnostics; `done(ok)` follows on the GUI thread (ok:
  /// it compiled, or NVRTC is not here to say otherwise and the worker will). A Python kernel is compiled for
  /// `dtype` (a run's: the worker then finds the PTX in the cache), and without numba-cuda it is not ok.
  void compile(std::function<void(bool ok)> done = {}, std::optional<DType> dtype = std::nullopt);
  /// Runs `launchlab-cli check` on the saved file and shows its findings at their lines.
  void check();
  /// Replaces the text with the starting file (one undo step).
  void resetToStartingFile();
  /// Replaces the text with the reference solution (one undo step), saying that it is the reference.
  void revealSolution();
  /// Loads a .cu or .py file (one undo step; a file of the other language switches to it first); false with one
  /// inline message for a binary, empty or oversize file.
  bool importFile(const QString& path);
  bool exportFile(const QString& path);
  /// Writes the file on screen to the store now; false (inline message) when it cannot.
  bool save();

 signals:
  /// The exercise changed, or the text did (after a pause): the parameter panel offers my-kernel accordingly.
  void kernelChanged();
  /// A compile finished: ok, and its error count.
  void compiled(bool ok, int errors);
  /// A check finished with this many findings (-1: it could not run; the note says why).
  void checked(int findings);

 private:
  QWidget* buildButtons();
  QMenu* buildFileMenu();
  void loadExerciseFile();
  QString introNote(bool fromSaved) const;
  QString pythonTip() const;
  void showNote(const QString& text, bool error = false);
  void replaceText(const QString& text, const QString& note);
  void showDiagnostics(const CompileResult& r);
  void showFindings(const QString& output, const QString& path);
  void setProblems(std::vector<EditorMark> marks, const QStringList& rows);
  void onCompiled(int generation, const CompileResult& r);
  void onCheckFinished();
  std::string arch() const;

  const Backend& m_backend;
  std::unique_ptr<ExerciseStore> m_store;
  CompileFn m_compile;
  std::shared_ptr<CancelToken> m_abandon = std::make_shared<CancelToken>();  ///< set when the editor goes
  QString m_cliPath;
  const Exercise* m_exercise = nullptr;
  QString m_workload;
  QComboBox* m_picker = nullptr;
  QComboBox* m_languagePicker = nullptr;
  QAction* m_pythonAction = nullptr;
  KernelLanguage m_language = KernelLanguage::Cuda;
  QString m_python;  ///< the student's choice, or launchlab --python's; "" for findPython's
  QLabel* m_note = nullptr;
  CodeEditor* m_editor = nullptr;
  CodeHighlighter* m_highlighter = nullptr;
  QListWidget* m_list = nullptr;
  LineCountersView* m_lineCounters = nullptr;
  QToolButton* m_checkButton = nullptr;
  QTimer* m_saveTimer = nullptr;
  QProcess* m_check = nullptr;
  QString m_checkPath;
  bool m_loading = false;
  /// Why the student's saved file did not load ("" when it did): shown, and, when it could not be moved aside
  /// (m_canSave false), the reason nothing is saved over it.
  QString m_loadProblem;
  bool m_canSave = true;
  int m_generation = 0;
  int m_inFlight = 0;
  std::vector<QThread*> m_threads;
  std::vector<std::function<void(bool)>> m_waiting;
};

}  // namespace launchlab::ui
