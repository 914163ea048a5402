// ViewData: finding a view's arrays, prepared data and implementation in a run. No QCustomPlot here, so a view
// drawn some other way (CUDA-OpenGL interop) links only this and its own code.
#include "plots/output_view.h"

namespace launchlab::ui {

const ImplResult* ViewData::impl(const std::string& src) const { return outcome ? outcome->result.find(src) : nullptr; }

const HostArray* ViewData::input(const std::string& name) const {
  if (!outcome) return nullptr;
  for (const auto& a : outcome->result.inputs)
    if (a.name() == name) return &a;
  return nullptr;
}

const HostArray* ViewData::array(const std::string& src) const {
  if (src == "input") return input(spec.name);
  if (const ImplResult* i = impl(src))
    for (const auto& a : i->outputs)
      if (a.name() == spec.name) return &a;
  return nullptr;
}

const PreparedArray* ViewData::prepared(const std::string& src) const {
  return outcome ? outcome->prepared.find(arrayKey(src, spec.name)) : nullptr;
}

QString ViewData::sourceTitle(const std::string& src) const {
  if (src == "input") return "input";
  const ImplResult* i = impl(src);
  return QString::fromStdString(i && !i->title.empty() ? i->title : src);
}

}  // namespace launchlab::ui
