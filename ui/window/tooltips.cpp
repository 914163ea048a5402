#include "window/tooltips.h"

#include <QApplication>
#include <QHelpEvent>
#include <QTextDocument>
#include <QToolTip>
#include <QWidget>

namespace launchlab::ui {

namespace {
/// Shows plain-text tooltips wrapped; everything else goes on as usual.
class WrapTooltips final : public QObject {
 public:
  using QObject::QObject;
  bool eventFilter(QObject* o, QEvent* e) override {
    if (e->type() != QEvent::ToolTip || !o->isWidgetType()) return false;
    auto* w = static_cast<QWidget*>(o);
    const QString tip = w->toolTip();
    if (tip.isEmpty() || Qt::mightBeRichText(tip)) return false;
    QToolTip::showText(static_cast<QHelpEvent*>(e)->globalPos(), wrapTip(tip), w);
    return true;
  }
};
}  // namespace

QString wrapTip(const QString& text) {
  if (text.isEmpty() || Qt::mightBeRichText(text)) return text;
  // <qt> makes it rich text, which QToolTip wraps at a readable width.
  return "<qt>" + text.toHtmlEscaped().replace('\n', "<br>") + "</qt>";
}

void setTip(QWidget* w, const QString& text) { w->setToolTip(wrapTip(text)); }

void installTooltipWrapping(QApplication& app) {
  static const char kInstalled[] = "launchlabTooltipWrapping";
  if (app.property(kInstalled).toBool()) return;
  app.installEventFilter(new WrapTooltips(&app));
  app.setProperty(kInstalled, true);
}

}  // namespace launchlab::ui
