#include "plots/region_zoom.h"

#include <algorithm>
#include <cstdio>

namespace launchlab::ui {

namespace {

const ParamSpec* findParam(const WorkloadInfo& w, const std::string& name) {
  for (const auto& p : w.params)
    if (p.name == name) return &p;
  return nullptr;
}

std::string text(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

}  // namespace

bool hasRegionParams(const WorkloadInfo& w) {
  return findParam(w, "x_min") && findParam(w, "y_min") && findParam(w, "step");
}

std::optional<std::map<std::string, std::string>> zoomedRegion(const WorkloadInfo& w,
                                                               const std::map<std::string, std::string>& params,
                                                               const ImageWindow& view) {
  if (!hasRegionParams(w) || view.rows == 0 || view.cols == 0) return std::nullopt;
  std::string error;
  const auto values = resolveParams(w.params, params, error);  // defaults filled in, the text checked
  if (!values) return std::nullopt;
  const double c0 = std::max(0.0, view.c0), c1 = std::min(double(view.cols), view.c1);
  const double r0 = std::max(0.0, view.r0), r1 = std::min(double(view.rows), view.r1);
  if (c1 - c0 <= 0 || r1 - r0 <= 0) return std::nullopt;
  const double share = std::max((c1 - c0) / double(view.cols), (r1 - r0) / double(view.rows));
  if (share >= 1) return std::nullopt;  // the whole image is in view: nothing to zoom into
  const double step = values->number("step"), newStep = step * share;
  if (newStep < findParam(w, "step")->minValue) return std::nullopt;
  const double cx = values->number("x_min") + step * 0.5 * (c0 + c1);
  const double cy = values->number("y_min") + step * 0.5 * (r0 + r1);
  auto out = params;
  out["step"] = text(newStep);
  out["x_min"] = text(cx - newStep * 0.5 * double(view.cols));
  out["y_min"] = text(cy - newStep * 0.5 * double(view.rows));
  return out;
}

}  // namespace launchlab::ui
