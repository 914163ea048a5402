#include "editor/code_editor.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

namespace launchlab::ui {

/// The line-number column: painted and explained by its editor.
class Gutter : public QWidget {
 public:
  explicit Gutter(CodeEditor* e) : QWidget(e), m_editor(e) {}
  QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* e) override { m_editor->paintGutter(e); }
  bool event(QEvent* e) override {
    if (e->type() == QEvent::ToolTip) {
      auto* he = static_cast<QHelpEvent*>(e);
      const QString text = m_editor->markText(m_editor->lineAt(he->pos().y()));
      if (text.isEmpty())
        QToolTip::hideText();
      else
        QToolTip::showText(he->globalPos(), text, this);
      return true;
    }
    return QWidget::event(e);
  }

 private:
  CodeEditor* m_editor;
};

CodeEditor::CodeEditor(QWidget* parent) : QPlainTextEdit(parent) {
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setStyleHint(QFont::Monospace);
  setFont(mono);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setTabStopDistance(fontMetrics().horizontalAdvance(' ') * 4);
  m_gutter = new Gutter(this);
  connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
  connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& r, int dy) {
    if (dy)
      m_gutter->scroll(0, dy);
    else
      m_gutter->update(0, r.y(), m_gutter->width(), r.height());
  });
  setViewportMargins(gutterWidth(), 0, 0, 0);
}

int CodeEditor::gutterWidth() const {
  const int digits = QString::number(std::max(1, blockCount())).size();
  return 18 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
}

void CodeEditor::resizeEvent(QResizeEvent* e) {
  QPlainTextEdit::resizeEvent(e);
  const QRect cr = contentsRect();
  m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

int CodeEditor::lineAt(int y) const {
  const QTextCursor c = cursorForPosition(QPoint(4, y));
  return c.block().blockNumber() + 1;
}

QString CodeEditor::markText(int line) const {
  QStringList texts;
  for (const auto& m : m_marks)
    if (m.line == line) texts << m.text;
  return texts.join('\n');
}

bool CodeEditor::viewportEvent(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(e);
    const QString text = markText(lineAt(he->pos().y()));
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(he->globalPos(), text, viewport());
    return true;
  }
  return QPlainTextEdit::viewportEvent(e);
}

void CodeEditor::setMarks(std::vector<EditorMark> marks) {
  const int last = std::max(1, blockCount());
  for (auto& m : marks) m.line = std::clamp(m.line, 1, last);
  m_marks = std::move(marks);
  applyUnderlines();
  m_gutter->update();
}

void CodeEditor::applyUnderlines() {
  QList<QTextEdit::ExtraSelection> sels;
  for (const auto& m : m_marks) {
    QTextEdit::ExtraSelection s;
    const QTextBlock b = document()->findBlockByNumber(m.line - 1);
    const QString text = b.text();
    int first = 0;
    while (first < text.size() && text[first].isSpace()) ++first;
    s.cursor = QTextCursor(b);
    s.cursor.setPosition(b.position() + (first < text.size() ? first : 0));
    s.cursor.setPosition(b.position() + int(text.size()), QTextCursor::KeepAnchor);
    s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    s.format.setUnderlineColor(m.error ? QColor("#d32f2f") : QColor("#ef8f00"));
    s.format.setToolTip(m.text);
    sels << s;
  }
  setExtraSelections(sels);
}

void CodeEditor::goToLine(int line) {
  const QTextBlock b = document()->findBlockByNumber(std::clamp(line, 1, std::max(1, blockCount())) - 1);
  QTextCursor c(b);
  setTextCursor(c);
  centerCursor();
  setFocus();
}

int CodeEditor::cursorLine() const { return textCursor().blockNumber() + 1; }

void CodeEditor::paintGutter(QPaintEvent* e) {
  QPainter p(m_gutter);
  p.fillRect(e->rect(), palette().color(QPalette::AlternateBase));
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  const int h = fontMetrics().height();
  while (block.isValid() && top <= e->rect().bottom()) {
    const int line = block.blockNumber() + 1;
    if (block.isVisible() && top + h >= e->rect().top()) {
      p.setPen(palette().color(QPalette::PlaceholderText));
      p.drawText(0, top, m_gutter->width() - 4, h, Qt::AlignRight, QString::number(line));
      bool any = false, error = false;
      for (const auto& m : m_marks)
        if (m.line == line) {
          any = true;
          error = error || m.error;
        }
      if (any) {
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(error ? QColor("#d32f2f") : QColor("#ef8f00"));
        const int d = std::min(9, h - 4);
        p.drawEllipse(QRect(3, top + (h - d) / 2, d, d));
      }
    }
    block = block.next();
    top += qRound(blockBoundingRect(block.previous()).height());
  }
}

}  // namespace launchlab::ui
