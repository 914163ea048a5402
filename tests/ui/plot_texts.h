#pragma once
// What a QCustomPlot view shows as text, for the tests that check a lesson's words on its plot.
#include <qcustomplot.h>

#include <QStringList>
#include <algorithm>

namespace launchlab::ui::test {

/// Every text of a plot's layout (titles, names) and items (labels, messages), line breaks as spaces.
inline QStringList textsOf(QWidget* w) {
  QStringList out;
  auto* plot = qobject_cast<QCustomPlot*>(w);
  if (!plot) return out;
  plot->replot(QCustomPlot::rpImmediateRefresh);
  for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
    if (auto* t = qobject_cast<QCPTextElement*>(e); t && t->visible()) out << t->text().simplified();
  for (int i = 0; i < plot->itemCount(); ++i)
    if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible()) out << t->text().simplified();
  return out;
}

inline bool anyContains(const QStringList& texts, const QString& part) {
  return std::any_of(texts.begin(), texts.end(), [&](const QString& t) { return t.contains(part); });
}

}  // namespace launchlab::ui::test
