#include "window/banner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>
#include <algorithm>

namespace launchlab::ui {

Banner::Banner(QWidget* parent, bool closable) : QFrame(parent) {
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  auto* lay = new QHBoxLayout(this);
  lay->setContentsMargins(8, 4, 4, 4);
  m_icon = new QLabel(this);
  m_text = new QLabel(this);
  m_text->setWordWrap(true);
  m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  m_text->setOpenExternalLinks(true);
  m_close = new QToolButton(this);
  m_close->setText(QString::fromUtf8("\xC3\x97"));
  m_close->setAutoRaise(true);
  m_close->setToolTip("Dismiss this message");
  m_close->setVisible(closable);
  connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
  lay->addWidget(m_icon, 0, Qt::AlignTop);
  lay->addWidget(m_text, 1);
  lay->addWidget(m_close, 0, Qt::AlignTop);
  hide();
}

void Banner::showMessage(Level level, const QString& text) {
  m_repeats = (text == m_last && isVisible()) ? m_repeats + 1 : 0;
  m_last = text;
  m_level = level;
  QString bg, fg, icon;
  QStyle::StandardPixmap sp = QStyle::SP_MessageBoxInformation;
  switch (level) {
    case Level::Info:
      bg = "#e8f0fb";
      fg = "#102a4c";
      sp = QStyle::SP_MessageBoxInformation;
      break;
    case Level::Warning:
      bg = "#fff4d6";
      fg = "#4a3300";
      sp = QStyle::SP_MessageBoxWarning;
      break;
    case Level::Error:
      bg = "#fde2e1";
      fg = "#5c0a07";
      sp = QStyle::SP_MessageBoxCritical;
      break;
    case Level::Lesson:  // amber, as the demonstration's bar is, but an information icon: not a warning
      bg = "#fff4d6";
      fg = "#4a3300";
      sp = QStyle::SP_MessageBoxInformation;
      break;
    case Level::Success:
      bg = "#e3f5e1";
      fg = "#0d3b12";
      sp = QStyle::SP_DialogApplyButton;
      break;
  }
  setStyleSheet(QString("launchlab--ui--Banner { background: %1; border: 1px solid %2; border-radius: 4px; } "
                        "QLabel { color: %2; background: transparent; }")
                    .arg(bg, fg));
  const int px = fontMetrics().height();
  m_icon->setPixmap(style()->standardIcon(sp).pixmap(px, px));
  m_icon->setToolTip(level == Level::Lesson ? "A lesson: the outcome this experiment demonstrates" : QString());
  m_text->setText(m_repeats ? QString("%1  (%2 times)").arg(text).arg(m_repeats + 1) : text);
  show();
  placeOverAnchor();
}

void Banner::overlay(QWidget* anchor) {
  m_anchor = anchor;
  anchor->installEventFilter(this);
  placeOverAnchor();
}

bool Banner::eventFilter(QObject* o, QEvent* e) {
  if (o == m_anchor && (e->type() == QEvent::Resize || e->type() == QEvent::Move)) placeOverAnchor();
  return QFrame::eventFilter(o, e);
}

void Banner::placeOverAnchor() {
  if (!m_anchor) return;
  const QRect a = m_anchor->geometry();
  const int w = std::max(200, a.width() - 16);
  const int h = hasHeightForWidth() ? heightForWidth(w) : sizeHint().height();
  setGeometry(a.left() + (a.width() - w) / 2, a.top() + 2, w, std::max(h, sizeHint().height()));
  raise();
}

QString Banner::text() const { return m_text->text(); }

}  // namespace launchlab::ui
