#include "window/editor_wiring.h"

#include "editor/kernel_editor.h"
#include "window/banner.h"
#include "window/desk.h"
#include "window/param_panel.h"

namespace launchlab::ui {

EditorWiring::EditorWiring(Desk& desk, QObject* parent) : QObject(parent), m_desk(desk) {
  KernelEditor* editor = m_desk.kernelEditor();
  connect(editor, &KernelEditor::kernelChanged, this,
          [this, editor] { m_desk.paramPanel()->setUserKernel(editor->userKernel()); });
  connect(editor, &KernelEditor::compiled, this, [this, editor](bool ok, int errors) {
    if (const auto k = editor->userKernel())
      m_desk.log(
          QString("compiled %1: %2")
              .arg(QString::fromStdString(k->fileName), ok ? QString("ok") : QString("%1 error(s)").arg(errors)));
  });
  connect(editor, &KernelEditor::checked, this, [this](int findings) {
    if (findings >= 0) m_desk.log(QString("check (compute-sanitizer): %1 finding(s)").arg(findings));
  });
}

void EditorWiring::show() { m_desk.showTab(m_desk.kernelEditor()); }

void EditorWiring::compileThenRun(RunRequest req, std::function<void(RunRequest)> start) {
  KernelEditor* editor = m_desk.kernelEditor();
  req.userKernel = editor->userKernel();
  m_desk.setStatus("Compiling my-kernel\xE2\x80\xA6");
  // A Numba kernel is compiled for the run's dtype, so the worker finds its PTX in the cache.
  editor->compile(
      [this, req, start = std::move(start)](bool ok) {
        if (ok) return start(req);
        m_desk.setStatus("my-kernel does not compile");
        m_desk.errorBanner()->showMessage(Banner::Level::Error, "my-kernel does not compile: see the My kernel tab.");
        show();
      },
      req.dtype);
}

}  // namespace launchlab::ui
