#pragma once
/// The kernel editor's text widget: a monospace QPlainTextEdit (undo/redo built in) with a line-number gutter and
/// marks at source lines: a wavy underline on the line, a coloured dot in the gutter and the message as the
/// tooltip of both (compiler diagnostics and compute-sanitizer findings alike).
#include <QPlainTextEdit>
#include <vector>

namespace launchlab::ui {

/// A message at a line of the file (1-based).
struct EditorMark {
  int line = 0;
  QString text;       ///< "error: expected a \";\"" — the tooltip and the list's row
  bool error = true;  ///< red; false: a warning (orange)
  bool operator==(const EditorMark&) const = default;
};

class CodeEditor : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit CodeEditor(QWidget* parent = nullptr);
  /// Underlines and marks these lines (replacing the previous marks); lines beyond the text go to the last one.
  void setMarks(std::vector<EditorMark> marks);
  const std::vector<EditorMark>& marks() const { return m_marks; }
  /// The tooltip text at a line: its marks' messages, one per line ("" when none).
  QString markText(int line) const;
  /// Puts the cursor at the start of `line` (1-based), shows it and focuses the editor.
  void goToLine(int line);
  /// The cursor's line (1-based).
  int cursorLine() const;
  QWidget* gutter() const { return m_gutter; }
  int gutterWidth() const;

 protected:
  void resizeEvent(QResizeEvent* e) override;
  bool viewportEvent(QEvent* e) override;

 private:
  friend class Gutter;
  void paintGutter(QPaintEvent* e);
  int lineAt(int y) const;
  void applyUnderlines();

  QWidget* m_gutter = nullptr;
  std::vector<EditorMark> m_marks;
};

}  // namespace launchlab::ui
