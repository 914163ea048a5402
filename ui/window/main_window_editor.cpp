// The main window's "My kernel" tab (kernel_editor.h): wiring to the parameter panel, the log and the layout.
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>

#include "banner.h"
#include "kernel_editor.h"
#include "log_text.h"
#include "main_window.h"
#include "param_panel.h"

namespace launchlab::ui {

QWidget* MainWindow::buildKernelEditor() {
  m_kernelEditor = new KernelEditor(*m_backend, nullptr, m_options.exerciseFolder);
  connect(m_kernelEditor, &KernelEditor::kernelChanged, this,
          [this] { m_panel->setUserKernel(m_kernelEditor->userKernel()); });
  connect(m_kernelEditor, &KernelEditor::compiled, this, [this](bool ok, int errors) {
    const auto k = m_kernelEditor->userKernel();
    if (k)
      log(QString("compiled %1: %2")
              .arg(QString::fromStdString(k->fileName), ok ? QString("ok") : QString("%1 error(s)").arg(errors)));
  });
  connect(m_kernelEditor, &KernelEditor::checked, this, [this](int findings) {
    if (findings >= 0) log(QString("check (compute-sanitizer): %1 finding(s)").arg(findings));
  });
  // The editor wants height: while its tab is in front the bottom part of the results takes most of it.
  connect(m_bottomTabs, &QTabWidget::currentChanged, this, [this](int i) {
    const bool editor = m_bottomTabs->widget(i) == m_kernelEditor;
    if (editor && m_resultsSizesBeforeEditor.isEmpty()) {
      m_resultsSizesBeforeEditor = m_resultsSplit->sizes();
      const int h = std::max(300, m_resultsSplit->height());
      m_resultsSplit->setSizes({h * 28 / 100, h * 72 / 100});
    } else if (!editor && !m_resultsSizesBeforeEditor.isEmpty()) {
      m_resultsSplit->setSizes(std::exchange(m_resultsSizesBeforeEditor, {}));
    }
  });
  return m_kernelEditor;
}

void MainWindow::showKernelEditor() { m_bottomTabs->setCurrentWidget(m_kernelEditor); }

void MainWindow::compileThenRun(RunRequest req) {
  // The file on screen, compiled first (off the GUI thread): its diagnostics stop the run at their lines.
  req.userKernel = m_kernelEditor->userKernel();
  m_statusText->setText("Compiling my-kernel\xE2\x80\xA6");
  // A Numba kernel is compiled for the run's dtype, so the worker finds its PTX in the cache.
  m_kernelEditor->compile(
      [this, req](bool ok) {
        if (ok) return startRequest(req);
        m_statusText->setText("my-kernel does not compile");
        m_errorBanner->showMessage(Banner::Level::Error, "my-kernel does not compile: see the My kernel tab.");
        showKernelEditor();
      },
      req.dtype);
}

}  // namespace launchlab::ui
