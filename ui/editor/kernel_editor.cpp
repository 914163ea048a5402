#include "kernel_editor.h"

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

#include "backend.h"
#include "code_editor.h"
#include "cuda_highlighter.h"
#include "exercise_store.h"
#include "line_counters_view.h"

namespace launchlab::ui {

KernelEditor::KernelEditor(const Backend& backend, QWidget* parent, const QString& storeFolder)
    : QWidget(parent),
      m_backend(backend),
      m_store(std::make_unique<ExerciseStore>(storeFolder)),
      m_compile([](const UserKernel& k, const Exercise& ex, const std::string& arch, const CancelToken& abandon) {
        return compileUserKernel(k, ex, arch, {}, &abandon);
      }) {
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
  m_highlighter = new CudaHighlighter(m_editor->document());
  m_list = new QListWidget;
  m_list->setObjectName("kernelProblems");
  m_list->setToolTip("Compiler diagnostics and compute-sanitizer findings: click one to go to its line");
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
  const ExerciseStore::Loaded loaded = m_exercise ? m_store->load(id) : ExerciseStore::Loaded{};
  m_loadProblem = loaded.problem;
  m_canSave = loaded.canSave;
  m_loading = true;
  m_editor->setPlainText(loaded.text);
  m_loading = false;
  m_editor->setReadOnly(!m_exercise);
  setProblems({}, {});
  for (QWidget* w : findChildren<QToolButton*>()) w->setEnabled(m_exercise != nullptr);
  if (!m_exercise) {
    QStringList with;
    for (const auto& e : exercises())
      if (!with.contains(QString::fromStdString(e.workload))) with << QString::fromStdString(e.workload);
    showNote("No exercise for this workload: pick one of " + with.join(", ") + " in the browser.");
  } else {
    const int i = m_picker->findData(id);
    if (i >= 0) m_picker->setCurrentIndex(i);
    const QString intro =
        QString("%1 \xE2\x80\x94 %2. Ctrl+B compiles; tick \"My kernel\" under Implementations to run it.")
            .arg(QString::fromStdString(kernelDeclaration(*m_exercise, m_exercise->kernelName)),
                 loaded.fromSaved ? "your saved file" : "the starting file");
    if (m_loadProblem.isEmpty())
      showNote(intro);
    else
      showNote(m_loadProblem + "\n" + intro, true);
  }
  emit kernelChanged();
}

std::optional<UserKernel> KernelEditor::userKernel() const {
  if (!m_exercise) return std::nullopt;
  UserKernel k;
  k.exercise = m_exercise->id;
  k.fileName = m_exercise->id + ".cu";
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

void KernelEditor::compile(std::function<void(bool)> done) {
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
  showNote("Compiling " + QString::fromStdString(k->fileName) + " for " + QString::fromStdString(arch()) +
           "\xE2\x80\xA6");
  auto result = std::make_shared<CompileResult>();
  QThread* t = QThread::create([fn = m_compile, k = *k, ex = m_exercise, a = arch(), result, abandon = m_abandon] {
    *result = fn(k, *ex, a, *abandon);
  });
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
  const bool ok = r.ok || !r.unavailable.empty();
  for (auto& done : std::exchange(m_waiting, {})) done(ok);
  int errors = 0;
  for (const auto& d : r.diagnostics) errors += d.isError() ? 1 : 0;
  emit compiled(r.ok, errors);
}

void KernelEditor::showDiagnostics(const CompileResult& r) {
  if (!r.unavailable.empty()) {
    setProblems({}, {});
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
    showNote(QString("Compiled for %1%2: ready to run as my-kernel.")
                 .arg(QString::fromStdString(r.arch), r.diagnostics.empty() ? QString() : " with warnings"));
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
  m_editor->setMarks(std::move(marks));
}

}  // namespace launchlab::ui
