#pragma once
/// Tooltips that wrap: Qt shows a plain-text tooltip on one line (up to ~1250 px wide); rich text wraps at a
/// readable width. Every tooltip in the window goes through wrapTip, set directly (setTip) or, for tooltips set
/// elsewhere as plain text, when it is shown (installTooltipWrapping).
#include <QString>

class QApplication;
class QWidget;

namespace launchlab::ui {

/// `text` as rich text that wraps (line breaks kept, HTML escaped); rich text is returned as is.
QString wrapTip(const QString& text);
/// w->setToolTip(wrapTip(text)).
void setTip(QWidget* w, const QString& text);
/// An application-wide filter: a plain-text tooltip is shown wrapped (the widget's text is left as set).
void installTooltipWrapping(QApplication& app);

}  // namespace launchlab::ui
