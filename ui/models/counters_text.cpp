#include "models/counters_text.h"

#include <QStringList>
#include <algorithm>

#include "launchlab/engine/counters.h"
#include "launchlab/ptx/ptx_counters.h"
#include "models/text.h"

namespace launchlab::ui {

namespace {

const ImplCounters* countersOf(const ImplResult& i) { return i.counters ? &*i.counters : nullptr; }

/// An implementation's value of `c` as the stage shows it: one number, or one per kernel.
QString valueText(const ImplCounters& ic, const CounterInfo& c) {
  if (ic.kernels.size() > 1) {
    QStringList parts;
    for (const auto& k : ic.kernels)
      if (auto v = k.values.find(c.id); v != k.values.end())
        parts << q(k.kernel) + " " + q(formatCounter(c, v->second));
    if (!parts.isEmpty()) return parts.join(", ");
  }
  const auto v = ic.values.find(c.id);
  return v == ic.values.end() ? QString() : q(formatCounter(c, v->second));
}

/// The implementations' counters that were measured (no error), in the run's order.
std::vector<const ImplCounters*> measured(const RunResult& r) {
  std::vector<const ImplCounters*> out;
  for (const auto& i : r.impls)
    if (const ImplCounters* c = countersOf(i); c && c->error.ok()) out.push_back(c);
  return out;
}

}  // namespace

QString counterSourceLabel(std::string_view source) {
  if (source == ptx::kHardwareSource) return "hardware counters";
  if (source == ptx::kAccessSource) return "from the kernel's own accesses (no admin rights)";
  return q(std::string(source));
}

QString counterSourceLabel(const ImplCounters& c) { return counterSourceLabel(c.source); }

QString runCounterSource(const RunResult& r) {
  QStringList labels;
  for (const ImplCounters* c : measured(r))
    if (const QString l = counterSourceLabel(*c); !l.isEmpty() && !labels.contains(l)) labels << l;
  return labels.join(" and ");
}

QString runCounterSourceTip(const RunResult& r) {
  QStringList tips;
  for (const ImplCounters* c : measured(r)) {
    QString t = counterSourceLabel(*c);
    if (!t.isEmpty() && !c->sourceReason.empty()) t += ": " + q(c->sourceReason);
    if (!t.isEmpty() && !tips.contains(t)) tips << t;
  }
  return tips.join("\n");
}

std::vector<std::string> counterColumns(const RunResult& r) {
  std::vector<std::string> ids;
  for (const auto& i : r.impls)
    if (const ImplCounters* c = countersOf(i))
      for (const auto& id : c->requested)
        if (std::find(ids.begin(), ids.end(), id) == ids.end() && findCounter(id)) ids.push_back(id);
  return ids;
}

CounterCell counterCell(const ImplResult& impl, const std::string& id) {
  const ImplCounters* c = countersOf(impl);
  const CounterInfo* info = findCounter(id);
  if (!c || !info) return {};
  if (!c->error.ok()) return {"\u2014", q(counterErrorMessage(c->error))};
  if (auto v = c->values.find(id); v != c->values.end()) {
    const QString source = counterSourceLabel(*c);
    return {q(formatCounter(*info, v->second)), q(info->meaning) + (source.isEmpty() ? "" : " (" + source + ")")};
  }
  const auto why = c->unavailable.find(id);
  return {"\u2014", why != c->unavailable.end() ? q(why->second) : QString("not measured")};
}

QString counterHeaderTip(const std::string& id) {
  const CounterInfo* c = findCounter(id);
  return c ? q(c->title) + ", in " + q(c->unit) + ": " + q(c->meaning) : QString();
}

QString counterHeaderText(const RunResult& r, const std::string& id) {
  const CounterInfo* c = findCounter(id);
  const QString title = c ? q(c->title) : q(id);
  QStringList shortLabels;
  for (const ImplCounters* m : measured(r)) {
    const QString s = m->source == ptx::kAccessSource ? "kernel's own accesses" : counterSourceLabel(*m);
    if (!s.isEmpty() && !shortLabels.contains(s)) shortLabels << s;
  }
  return shortLabels.isEmpty() ? title : title + "\n" + shortLabels.join(" / ");
}

QString countersLine(const RunResult& r) {
  const std::vector<std::string> ids = counterColumns(r);
  std::string firstError;
  for (const auto& i : r.impls)
    if (const ImplCounters* c = countersOf(i); c && !c->error.ok() && firstError.empty())
      firstError = counterErrorMessage(c->error);
  if (ids.empty()) return firstError.empty() ? QString() : "Counters: " + q(firstError);
  const CounterInfo& lesson = *findCounter(ids.front());
  QStringList parts;
  for (const auto& i : r.impls)
    if (const ImplCounters* c = countersOf(i); c && c->error.ok())
      if (const QString v = valueText(*c, lesson); !v.isEmpty()) parts << q(i.title) + " " + v;
  if (parts.isEmpty())
    return "Counters: " + (firstError.empty() ? q(lesson.title) + " was not measured" : q(firstError));
  const QString source = runCounterSource(r);
  return q(lesson.title) + ": " + parts.join(" \u00B7 ") + (source.isEmpty() ? "" : " \u2014 " + source);
}

}  // namespace launchlab::ui
