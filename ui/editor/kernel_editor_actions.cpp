// The kernel editor's buttons: the language, compile, check (launchlab-cli check in a QProcess), reset, reveal
// solution, the File menu (import, export, the Python for Numba), and saving to the store.
#include <QComboBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QListWidget>
#include <QMenu>
#include <QProcess>
#include <QTextCursor>
#include <QTimer>
#include <QToolButton>

#include "editor/code_editor.h"
#include "editor/exercise_store.h"
#include "editor/kernel_editor.h"
#include "launchlab/course/sanitizer.h"
#include "launchlab/numba/numba.h"

namespace launchlab::ui {

namespace {

/// A compact button (tool-button padding: the row fits beside the results at 1280 pixels).
QToolButton* button(const QString& text, const QString& tip, QHBoxLayout* row) {
  auto* b = new QToolButton;
  b->setText(text);
  b->setToolButtonStyle(Qt::ToolButtonTextOnly);
  b->setToolTip(tip);
  row->addWidget(b);
  return b;
}

/// The CLI's one line on stderr without its "launchlab-cli: check: " prefix.
QString reasonOf(const QString& err) {
  QString why = err.section("launchlab-cli: ", -1);
  return why.startsWith("check: ") ? why.mid(7) : why;
}

QString defaultCliPath() {
  const QString env = qEnvironmentVariable("LAUNCHLAB_CLI_PATH");
  return env.isEmpty() ? QCoreApplication::applicationDirPath() + "/launchlab-cli" : env;
}

}  // namespace

QWidget* KernelEditor::buildButtons() {
  auto* bar = new QWidget;
  auto* row = new QHBoxLayout(bar);
  row->setContentsMargins(0, 0, 0, 0);
  m_picker = new QComboBox;
  m_picker->setObjectName("exercisePicker");
  m_picker->setToolTip("Exercise: the exercises of the selected workload (docs/EXERCISES.md)");
  m_picker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_picker->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);  // the ids are short: never elided
  connect(m_picker, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0) selectExercise(m_picker->itemData(i).toString());
  });
  row->addWidget(m_picker);
  m_languagePicker = new QComboBox;
  m_languagePicker->setObjectName("languagePicker");
  m_languagePicker->addItems({"C++", "Python"});
  m_languagePicker->setToolTip(
      "The language of your kernel: CUDA C++ (compiled by NVRTC) or Python, a @cuda.jit kernel as the course writes "
      "it (compiled by numba-cuda). Each keeps its own file per exercise.");
  m_languagePicker->setCurrentIndex(m_language == KernelLanguage::Python ? 1 : 0);
  m_languagePicker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  connect(m_languagePicker, &QComboBox::currentIndexChanged, this,
          [this](int i) { setLanguage(i == 1 ? KernelLanguage::Python : KernelLanguage::Cuda); });
  row->addWidget(m_languagePicker);
  auto* compileB = button("Compile", "Compile with NVRTC, or Numba for Python (Ctrl+B); no GPU needed", row);
  connect(compileB, &QToolButton::clicked, this, [this] { compile(); });
  m_checkButton = button("Check",
                         "Run the kernel under compute-sanitizer: memcheck, then racecheck when it uses shared "
                         "memory (needs the GPU and the CUDA toolkit's sanitizer)",
                         row);
  connect(m_checkButton, &QToolButton::clicked, this, &KernelEditor::check);
  auto* reset = button("Reset",
                       "Reset to the starting file: replace the text with the exercise's starting file (Ctrl+Z "
                       "undoes it)",
                       row);
  connect(reset, &QToolButton::clicked, this, &KernelEditor::resetToStartingFile);
  auto* file = button("File", "Import or export a .cu or .py file; the Python that compiles Numba kernels", row);
  file->setMenu(buildFileMenu());
  file->setPopupMode(QToolButton::InstantPopup);
  auto* reveal =
      button("Reveal solution", "Reveal solution: load the reference solution (Ctrl+Z brings your version back)", row);
  connect(reveal, &QToolButton::clicked, this, &KernelEditor::revealSolution);
  row->addStretch(1);
  return bar;
}

QMenu* KernelEditor::buildFileMenu() {
  auto* menu = new QMenu(this);
  QAction* import = menu->addAction("Import\xE2\x80\xA6");
  import->setToolTip("Load a .cu or .py file into the editor (Ctrl+Z undoes it)");
  connect(import, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, "Import a kernel", {},
        "Kernels (*.cu *.cuh *.py);;CUDA source (*.cu *.cuh);;Python (*.py);;All files (*)");
    if (!path.isEmpty()) importFile(path);
  });
  QAction* exportA = menu->addAction("Export\xE2\x80\xA6");
  exportA->setToolTip("Save the editor's text to a file of your choice");
  connect(exportA, &QAction::triggered, this, [this] {
    const QString suffix = languageSuffix(m_language);
    const QString path = QFileDialog::getSaveFileName(
        this, "Export the kernel", m_exercise ? QString::fromStdString(m_exercise->id) + suffix : QString(),
        m_language == KernelLanguage::Python ? "Python (*.py)" : "CUDA source (*.cu)");
    if (!path.isEmpty()) exportFile(path);
  });
  menu->addSeparator();
  m_pythonAction = menu->addAction("Python for Numba\xE2\x80\xA6");
  m_pythonAction->setObjectName("pythonAction");
  m_pythonAction->setToolTip(pythonTip());
  menu->setToolTipsVisible(true);
  connect(m_pythonAction, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "The Python with numba-cuda", pythonPath());
    if (path.isEmpty()) return;
    setPythonPath(path);
    showNote("Python kernels are compiled with " + path + " (Ctrl+B to try it).");
  });
  return menu;
}

bool KernelEditor::save() {
  if (!m_exercise) return false;
  m_saveTimer->stop();
  if (!m_canSave) {
    showNote("Not saved: " + m_loadProblem, true);
    return false;
  }
  const QString why = m_store->save(QString::fromStdString(m_exercise->id), m_editor->toPlainText(), m_language);
  if (!why.isEmpty()) showNote("Not saved: " + why, true);
  return why.isEmpty();
}

void KernelEditor::replaceText(const QString& text, const QString& note) {
  QTextCursor c(m_editor->document());
  c.beginEditBlock();  // one undo step
  c.select(QTextCursor::Document);
  c.insertText(text);
  c.endEditBlock();
  m_editor->moveCursor(QTextCursor::Start);
  setProblems({}, {});
  showNote(note);
}

void KernelEditor::resetToStartingFile() {
  if (!m_exercise) return;
  replaceText(ExerciseStore::startingFile(QString::fromStdString(m_exercise->id), m_language),
              "Reset to the starting file. Ctrl+Z brings your version back.");
}

void KernelEditor::revealSolution() {
  if (!m_exercise) return;
  const QString id = QString::fromStdString(m_exercise->id);
  const QString text = ExerciseStore::solution(id, m_language);
  if (text.isEmpty()) {
    showNote("This build has no reference solution for " + QString::fromStdString(m_exercise->id) + ".", true);
    return;
  }
  replaceText(text, "This is the reference solution (kernels/" + ExerciseStore::shippedPath(id, true, m_language) +
                        "). Ctrl+Z brings your version back.");
}

bool KernelEditor::importFile(const QString& path) {
  if (!m_exercise) return false;
  QString text;
  if (const QString why = ExerciseStore::importFile(path, text); !why.isEmpty()) {
    showNote("Not imported: " + why, true);
    return false;
  }
  setLanguage(languageOf(path));
  replaceText(text, "Imported " + QFileInfo(path).fileName() + ". Ctrl+Z brings the previous text back.");
  return true;
}

bool KernelEditor::exportFile(const QString& path) {
  const QString why = ExerciseStore::exportFile(path, m_editor->toPlainText());
  showNote(why.isEmpty() ? "Exported to " + path + "." : "Not exported: " + why, !why.isEmpty());
  return why.isEmpty();
}

void KernelEditor::check() {
  if (!m_exercise || (m_check && m_check->state() != QProcess::NotRunning)) return;
  if (!save()) return;
  if (m_cliPath.isEmpty()) m_cliPath = defaultCliPath();
  m_checkPath = m_store->path(QString::fromStdString(m_exercise->id), m_language);
  if (!m_check) {
    m_check = new QProcess(this);
    connect(m_check, &QProcess::finished, this, &KernelEditor::onCheckFinished);
    connect(m_check, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
      if (e != QProcess::FailedToStart) return;
      m_checkButton->setEnabled(true);
      showNote("Check needs launchlab-cli: cannot start " + m_cliPath, true);
      emit checked(-1);
    });
  }
  m_checkButton->setEnabled(false);
  showNote("Checking under compute-sanitizer (memcheck" +
           QString(kernelUsesSharedMemory(*userKernel()) ? ", then racecheck" : "") + ")\xE2\x80\xA6");
  QStringList args = {"check",         QString::fromStdString(m_exercise->workload),
                      "--exercise",    QString::fromStdString(m_exercise->id),
                      "--kernel-file", m_checkPath};
  if (m_language == KernelLanguage::Python) args << "--python" << pythonPath();
  m_check->start(m_cliPath, args);
}

void KernelEditor::onCheckFinished() {
  m_checkButton->setEnabled(true);
  const QString out = QString::fromUtf8(m_check->readAllStandardOutput());
  const QString err = QString::fromUtf8(m_check->readAllStandardError()).trimmed();
  const int code = m_check->exitStatus() == QProcess::NormalExit ? m_check->exitCode() : -1;
  showFindings(out, m_checkPath);
  const int findings = int(m_editor->marks().size());
  const QStringList lines = out.trimmed().split('\n');
  if (code == 2) {
    showNote("Check: " + reasonOf(err) + " (Ctrl+B shows the compiler's messages)", true);
    emit checked(-1);
    return;
  }
  if (findings == 0 && code != 0) {
    showNote("Check: " + (err.isEmpty() ? lines.last() : reasonOf(err)), true);
    emit checked(-1);
    return;
  }
  showNote(lines.last().section("): ", -1).prepend("Check: "), findings > 0);
  emit checked(findings);
}

void KernelEditor::showFindings(const QString& output, const QString& path) {
  std::vector<EditorMark> marks;
  QStringList rows;
  const QString base = QFileInfo(path).fileName();
  for (const QString& line : output.split('\n')) {
    const auto f = parseFindingLine(line.toStdString());
    if (!f) continue;
    const bool ours = QFileInfo(QString::fromStdString(f->file)).fileName() == base;
    marks.push_back({ours ? f->line : 1, QString::fromStdString(f->tool + ": " + f->text), true});
    rows << QString("%1:%2: %3: %4")
                .arg(base)
                .arg(f->line)
                .arg(QString::fromStdString(f->tool), QString::fromStdString(f->text));
  }
  setProblems(std::move(marks), rows);
}

}  // namespace launchlab::ui
