#include "editor/kernel_editor.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QShortcut>
#include <QSplitter>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "editor/code_editor.h"
#include "editor/code_highlighter.h"
#include "editor/exercise_store.h"
#include "launchlab/numba/numba.h"
#include "models/backend.h"
#include "plots/line_counters_view.h"

namespace launchlab::ui {

CompileResult compileForEditor(const CompileJob& job, const CancelToken& abandon) {
  if (!isPythonKernel(job.kernel)) return compileUserKernel(job.kernel, *job.exercise, job.arch, {}, &abandon);
  NumbaOptions o;
  o.python = job.python;
  o.cancel = &abandon;
  NumbaCompileResult r = compileNumbaKernel(job.kernel, *job.exercise, job.arch, o, job.dtype);
  if (r.ok)
    r.log = r.cached ? QString("the PTX from the cache in %1 ms").arg(r.compileMs, 0, 'f', 1).toStdString()
                     : QString("first compile %1 s with %2")
                           .arg(r.compileMs / 1000, 0, 'f', 2)
                           .arg(QString::fromStdString(r.python))
                           .toStdString();
  return r;  // moved: C++20 moves a local into its base class on return
}

KernelEditor::KernelEditor(const Backend& backend, QWidget* parent, const QString& storeFolder)
    : QWidget(parent),
      m_backend(backend),
      m_store(std::make_unique<ExerciseStore>(storeFolder)),
      m_compile(compileForEditor) {
  // launchlab --python (or the environment) wins for the session; else the student's last choice, which the worker
  // and Check then inherit through the same variable.
  m_python = qEnvironmentVariable("LAUNCHLAB_PYTHON");
  if (const QString saved = m_store->preference("python"); m_python.isEmpty() && !saved.isEmpty()) {
    m_python = saved;
    qputenv("LAUNCHLAB_PYTHON", saved.toLocal8Bit());
  }
  m_language = m_store->preference("language") == "python" ? KernelLanguage::Python : KernelLanguage::Cuda;
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 2, 0, 0);
  lay->setSpacing(3);
  lay->addWidget(buildButtons());
  m_note = new QLabel;
  m_note->setWordWrap(true);
  m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_note->setVisible(false);
  lay->addWidget(m_note);
  auto* split = new QSplitter(Qt::Vertical);
  m_editor = new CodeEditor;
  m_editor->setObjectName("kernelText");
  m_highlighter = new CodeHighlighter(m_editor->document(), m_language);
  m_list = new QListWidget;
  m_list->setObjectName("kernelProblems");
  m_list->setToolTip("Compiler diagnostics and compute-sanitizer findings: click one to go to its line");
  m_list->setVisible(false);  // shown while it has something to say: the code and the line counters get the room
  connect(m_list, &QListWidget::itemClicked, this, [this](QListWidgetItem* it) {
    if (const int line = it->data(Qt::UserRole).toInt(); line > 0) m_editor->goToLine(line);
  });
  m_lineCounters = new LineCountersView;
  m_lineCounters->setVisible(false);
  connect(m_lineCounters, &LineCountersView::lineActivated, m_editor, &CodeEditor::goToLine);
  split->addWidget(m_editor);
  split->addWidget(m_list);
  split->addWidget(m_lineCounters);
  split->setStretchFactor(0, 4);
  split->setStretchFactor(1, 1);
  split->setStretchFactor(2, 2);
  split->setChildrenCollapsible(false);
  lay->addWidget(split, 1);
  m_saveTimer = new QTimer(this);
  m_saveTimer->setSingleShot(true);
  m_saveTimer->setInterval(600);
  connect(m_saveTimer, &QTimer::timeout, this, [this] {
    save();
    emit kernelChanged();
  });
  connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
    if (!m_loading && m_exercise) m_saveTimer->start();
  });
  auto* build = new QShortcut(QKeySequence("Ctrl+B"), this, [this] { compile(); });
  build->setContext(Qt::WidgetWithChildrenShortcut);
}

KernelEditor::~KernelEditor() {
  if (m_saveTimer->isActive()) save();
  m_abandon->cancel();  // each compile returns within moments: the wait below is short
  for (QThread* t : m_threads) {
    t->disconnect(this);
    t->wait();
    delete t;
  }
}

void KernelEditor::showNote(const QString& text, bool error) {
  m_note->setText((error ? "\xE2\x9C\x97 " : "\xE2\x84\xB9 ") + text);
  m_note->setStyleSheet(error ? "color: #c62828;" : "color: palette(text);");
  m_note->setVisible(!text.isEmpty());
}

QString KernelEditor::noteText() const { return m_note->isHidden() ? QString() : m_note->text().mid(2); }

void KernelEditor::setWorkload(const QString& id) {
  if (id == m_workload) return;
  m_workload = id;
  QSignalBlocker b(m_picker);
  m_picker->clear();
  for (const auto& e : exercises())
    if (e.workload == id.toStdString()) {
      const QString eid = QString::fromStdString(e.id);  // short, and what the CLI's --exercise takes
      const int at = defaultExercise(e.workload) == &e ? 0 : m_picker->count();
      m_picker->insertItem(at, eid, eid);
      m_picker->setItemData(at, QString::fromStdString(e.title), Qt::ToolTipRole);
    }
  m_picker->setEnabled(m_picker->count() > 0);
  selectExercise(m_picker->count() ? m_picker->itemData(0).toString() : QString());
}

void KernelEditor::selectExercise(const QString& id) {
  if (m_saveTimer->isActive()) {
    m_saveTimer->stop();
    save();
  }
  m_exercise = id.isEmpty() ? nullptr : findExercise(id.toStdString());
  loadExerciseFile();
  for (QWidget* w : findChildren<QToolButton*>()) w->setEnabled(m_exercise != nullptr);
  if (!m_exercise) {
    QStringList with;
    for (const auto& e : exercises())
      if (!with.contains(QString::fromStdString(e.workload))) with << QString::fromStdString(e.workload);
    showNote("No exercise for this workload: pick one of " + with.join(", ") + " in the browser.");
  } else {
    const int i = m_picker->findData(id);
    if (i >= 0) m_picker->setCurrentIndex(i);
  }
  emit kernelChanged();
}

void KernelEditor::loadExerciseFile() {
  const QString id = m_exercise ? QString::fromStdString(m_exercise->id) : QString();
  const ExerciseStore::Loaded loaded = m_exercise ? m_store->load(id, m_language) : ExerciseStore::Loaded{};
  m_loadProblem = loaded.problem;
  m_canSave = loaded.canSave;
  m_loading = true;
  m_editor->setPlainText(loaded.text);
  m_loading = false;
  m_editor->setReadOnly(!m_exercise);
  setProblems({}, {});
  if (!m_exercise) return;
  if (m_loadProblem.isEmpty())
    showNote(introNote(loaded.fromSaved));
  else
    showNote(m_loadProblem + "\n" + introNote(loaded.fromSaved), true);
}

QString KernelEditor::introNote(bool fromSaved) const {
  const bool python = m_language == KernelLanguage::Python;
  const std::string decl = python ? numbaDeclaration(*m_exercise, m_exercise->kernelName)
                                  : kernelDeclaration(*m_exercise, m_exercise->kernelName);
  return QString("%1 \xE2\x80\x94 %2. Ctrl+B compiles%3; tick \"My kernel\" under Implementations to run it.")
      .arg(QString::fromStdString(decl), fromSaved ? "your saved file" : "the starting file",
           python ? " with Numba (" + pythonPath() + ")" : QString());
}

void KernelEditor::setLanguage(KernelLanguage language) {
  if (language == m_language) return;
  if (m_saveTimer->isActive()) save();
  m_language = language;
  m_store->setPreference("language", language == KernelLanguage::Python ? "python" : "cuda");
  m_loading = true;  // colouring the text again is no edit of it
  m_highlighter->setLanguage(language);
  m_loading = false;
  {
    QSignalBlocker b(m_languagePicker);
    m_languagePicker->setCurrentIndex(language == KernelLanguage::Python ? 1 : 0);
  }
  ++m_generation;  // a compile of the other language's file answers nobody
  loadExerciseFile();
  emit kernelChanged();
}

void KernelEditor::setPythonPath(const QString& path) {
  m_python = path;
  m_store->setPreference("python", path);
  // The worker and Check's launchlab-cli started from now on compile with it too.
  if (path.isEmpty())
    qunsetenv("LAUNCHLAB_PYTHON");
  else
    qputenv("LAUNCHLAB_PYTHON", path.toLocal8Bit());
  m_pythonAction->setToolTip(pythonTip());
}

QString KernelEditor::pythonTip() const {
  return "Choose the Python with numba-cuda that compiles a .py kernel (now: " + pythonPath() + ")";
}

QString KernelEditor::pythonPath() const { return QString::fromStdString(findPython(m_python.toStdString())); }

std::optional<UserKernel> KernelEditor::userKernel() const {
  if (!m_exercise) return std::nullopt;
  UserKernel k;
  k.exercise = m_exercise->id;
  k.fileName = m_exercise->id + languageSuffix(m_language).toStdString();
  k.source = m_editor->toPlainText().toStdString();
  return k;
}

void KernelEditor::showRunCounters(const RunResult& r) {
  const auto k = userKernel();
  m_lineCounters->showKernelOf(r, k ? QString::fromStdString(k->fileName) : QString());
}

std::string KernelEditor::arch() const {
  const DeviceStatus st = m_backend.deviceStatus();
  return st.available && st.info.ccMajor > 0 ? archFor(st.info.ccMajor, st.info.ccMinor) : "sm_90";
}

void KernelEditor::compile(std::function<void(bool)> done, std::optional<DType> dtype) {
  const auto k = userKernel();
  if (!k) {
    if (done) done(false);
    return;
  }
  if (const std::string bad = checkKernelSource(k->source); !bad.empty()) {
    showNote(QString::fromStdString(bad), true);
    if (done) done(false);
    return;
  }
  if (done) m_waiting.push_back(std::move(done));
  const int generation = ++m_generation;
  ++m_inFlight;
  const bool python = isPythonKernel(*k);
  showNote("Compiling " + QString::fromStdString(k->fileName) + " for " + QString::fromStdString(arch()) +
           (python ? " with Numba (" + pythonPath() + ")" : QString()) + "\xE2\x80\xA6");
  auto result = std::make_shared<CompileResult>();
  CompileJob job{*k, m_exercise, arch(), m_python.toStdString(), dtype};
  QThread* t = QThread::create(
      [fn = m_compile, job = std::move(job), result, abandon = m_abandon] { *result = fn(job, *abandon); });
  m_threads.push_back(t);
  connect(t, &QThread::finished, this, [this, t, generation, result] {
    m_threads.erase(std::find(m_threads.begin(), m_threads.end(), t));
    t->deleteLater();
    --m_inFlight;
    onCompiled(generation, *result);
  });
  t->start();
}

void KernelEditor::onCompiled(int generation, const CompileResult& r) {
  if (generation != m_generation) return;  // a newer compile is on its way; its result answers everyone
  showDiagnostics(r);
  // NVRTC missing here is the worker's to judge; a Python without numba-cuda is the same Python the worker finds.
  const bool ok = r.ok || (!r.unavailable.empty() && m_language == KernelLanguage::Cuda);
  for (auto& done : std::exchange(m_waiting, {})) done(ok);
  int errors = 0;
  for (const auto& d : r.diagnostics) errors += d.isError() ? 1 : 0;
  emit compiled(r.ok, errors);
}

void KernelEditor::showDiagnostics(const CompileResult& r) {
  if (!r.unavailable.empty()) {
    setProblems({}, {});
    if (m_language == KernelLanguage::Python)
      showNote("Cannot compile with Numba: " + QString::fromStdString(r.unavailable), true);
    else
      showNote(QString::fromStdString(r.unavailable) + " \xE2\x80\x94 the run compiles it in the worker instead.");
    return;
  }
  std::vector<EditorMark> marks;
  QStringList rows;
  const std::string file = userKernel() ? userKernel()->fileName : "";
  int errors = 0;
  for (const auto& d : r.diagnostics) {
    const int line = d.file == file ? d.line : 1;  // the harness's own lines are the file's business at line 1
    marks.push_back({line, QString::fromStdString(d.severity + ": " + d.text), d.isError()});
    rows << QString::fromStdString(formatDiagnostic(d));
    errors += d.isError() ? 1 : 0;
  }
  setProblems(std::move(marks), rows);
  if (r.ok)
    showNote(QString("Compiled for %1%2%3: ready to run as my-kernel.")
                 .arg(QString::fromStdString(r.arch),
                      m_language == KernelLanguage::Python ? " with Numba (" + QString::fromStdString(r.log) + ")"
                                                           : QString(),
                      r.diagnostics.empty() ? QString() : " with warnings"));
  else
    showNote(QString("Does not compile for %1: %2 error%3 (click one below to go to its line).")
                 .arg(QString::fromStdString(r.arch))
                 .arg(errors)
                 .arg(errors == 1 ? "" : "s"),
             true);
}

void KernelEditor::setProblems(std::vector<EditorMark> marks, const QStringList& rows) {
  m_list->clear();
  for (int i = 0; i < rows.size(); ++i) {
    auto* it = new QListWidgetItem(rows[i], m_list);
    it->setData(Qt::UserRole, i < int(marks.size()) ? marks[std::size_t(i)].line : 0);
    it->setForeground(i < int(marks.size()) && marks[std::size_t(i)].error ? QColor("#c62828") : QColor("#8a5a00"));
    it->setToolTip(rows[i]);
  }
  m_list->setVisible(m_list->count() > 0);
  m_editor->setMarks(std::move(marks));
}

}  // namespace launchlab::ui
