#pragma once
/// Zooming an image re-runs it on the zoomed region: for a workload whose image is a region of the plane given by
/// the parameters x_min, y_min (the point of pixel (0, 0)) and step (one pixel's size) — mandelbrot — the part of
/// the image in view becomes the next run's region, at the same image size. Plain logic, no widgets.
#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "launchlab/engine/params.h"
#include "launchlab/engine/workload.h"

namespace launchlab::ui {

/// The pixels of an image in view: columns [c0, c1) and rows [r0, r1) of a rows x cols image (fractions allowed).
struct ImageWindow {
  double c0 = 0, r0 = 0, c1 = 0, r1 = 0;
  std::size_t rows = 0, cols = 0;
};

/// Whether `w` draws a region of the plane that its parameters x_min, y_min and step set.
bool hasRegionParams(const WorkloadInfo& w);

/// The parameters (x_min, y_min, step as text) of the region in `view`, centred where the view is, with square
/// pixels (the longer side of the view decides the step), for the run whose region was `params` (missing names
/// take `w`'s defaults). nullopt when `params` do not resolve (launchlab/engine/params.h), `view` is not inside the
/// image (nothing zoomed in) or the step would fall below the parameter's minimum.
std::optional<std::map<std::string, std::string>> zoomedRegion(const WorkloadInfo& w,
                                                               const std::map<std::string, std::string>& params,
                                                               const ImageWindow& view);

}  // namespace launchlab::ui
