#pragma once
/// Plot data mapping as plain functions and structs (no Qt): min/max decimation at any zoom, scatter and
/// series sampling, histogram re-binning, image down-sampling, scalar errors. The controller prepares the
/// expensive parts on the compute thread; the views only ask for what fits their pixels.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "launchlab/engine/array.h"
#include "launchlab/engine/result.h"
#include "launchlab/engine/workload.h"

namespace launchlab::ui {

/// One decimated column: the lowest and highest finite value of elements [first, last] of the source.
/// Both are NaN when every element of the column is NaN (an unwritten range: drawn as a gap).
struct Envelope {
  double x = 0;  ///< index of the column's first element
  double yMin = 0;
  double yMax = 0;
};

/// Plain x/y points (e.g. for a line or scatter plot).
struct XY {
  std::vector<double> x, y;
  std::size_t size() const { return x.size(); }
};

/// Min/max summary of a 1-D array in levels of 64, 128, 256, … elements per bucket, so that decimating any
/// range to P columns reads O(P) summary values (or at most 64 P raw elements when zoomed in).
/// Holds a copy of nothing but the summary; the array itself must outlive queries.
class MinMaxPyramid {
 public:
  static constexpr std::size_t kBase = 64;
  MinMaxPyramid() = default;
  explicit MinMaxPyramid(const HostArray& a);
  std::size_t size() const { return m_n; }
  /// Decimates elements [begin, end) of `a` (the array the pyramid was built from) to at most `columns`
  /// envelopes. When the range holds no more elements than columns, each element is its own envelope.
  std::vector<Envelope> query(const HostArray& a, double begin, double end, int columns) const;
  std::size_t levels() const { return m_min.size(); }

 private:
  std::size_t m_n = 0;
  std::vector<std::vector<double>> m_min, m_max;  // level k: buckets of kBase << k elements
};

/// Decimates [begin, end) of `a` by scanning the raw elements (the reference the pyramid must equal).
std::vector<Envelope> decimateMinMax(const HostArray& a, std::size_t begin, std::size_t end, int columns);
/// The line a plot draws for envelopes: (x, yMin), (x, yMax) per column (one point when they are equal), so
/// dense columns become vertical strokes side by side. Draw it segment by segment: as one wide polyline it is
/// slow to rasterize.
XY envelopeToLine(const std::vector<Envelope>& env);
/// Elementwise outputs of random inputs decimate to a solid band of colour: true when most columns of `env`
/// span more than half of the overall range [lo, hi] (a smooth curve's columns span a sliver of it).
bool looksLikeNoise(const std::vector<Envelope>& env, double lo, double hi);
/// The first elements a student can read one by one (then inputs and output side by side).
inline constexpr std::size_t kFirstWindow = 64;
/// Elements [begin, end) of `a` (clamped to its size) as index/value points, NaN kept (a gap).
XY elementPoints(const HostArray& a, std::size_t begin, std::size_t end);
/// The element indices [begin, end) that lie inside an axis range [lower, upper] over n elements.
std::pair<std::size_t, std::size_t> visibleIndices(double lower, double upper, std::size_t n);
/// Finite min and max of all elements (NaN/inf skipped); {0, 0} when none is finite.
std::pair<double, double> finiteRange(const HostArray& a);
/// Count of NaN elements (unwritten outputs of float arrays are NaN after poisoning).
std::uint64_t countNaN(const HostArray& a);

/// Evenly spaced sample of at most `maxPoints` indices of [0, n), always including `must` (e.g. mismatches).
std::vector<std::size_t> sampleIndices(std::size_t n, std::size_t maxPoints,
                                       const std::vector<std::uint64_t>& must = {});
/// y against x at the given indices (Scatter: x from the input named by ArraySpec::xFrom), sorted by x.
XY scatterPoints(const HostArray& x, const HostArray& y, const std::vector<std::size_t>& indices);
/// A Series array (2 x k: row 0 = x, row 1 = y), at most maxPoints evenly sampled pairs.
XY seriesPoints(const HostArray& a, std::size_t maxPoints);

/// Histogram bars: bin centres, counts and bar width, at most `maxBars` bars (adjacent bins summed).
struct HistogramBars {
  std::vector<double> centres, counts;
  double width = 1;
  double xMin = 0, xMax = 0;
  int binsPerBar = 1;
};
/// `counts` has one element per bin; the bins span [xMin, xMax) (pass xMin = 0, xMax = bins for indices).
HistogramBars histogramBars(const HostArray& counts, double xMin, double xMax, int maxBars);

/// An image down-sampled by block means to at most maxSide x maxSide cells, with the finite range of the
/// full-resolution data (so the colour scale tells the truth).
struct ImageGrid {
  std::size_t rows = 0, cols = 0;          ///< of the source
  std::size_t cellRows = 0, cellCols = 0;  ///< of `values`
  std::size_t blockRows = 1, blockCols = 1;
  std::vector<double> values;  ///< cellRows x cellCols, row-major, NaN when a block is all NaN
  double vMin = 0, vMax = 0;
};
/// Images are 2-D arrays (rows x cols); a 1-D array is treated as one row.
ImageGrid downsampleImage(const HostArray& a, std::size_t maxSide);

/// Which cells of an image hold a marker value (ArraySpec::markers) rather than a measurement: per cell, the index
/// of its marker or -1, and the range of the other cells for the colour scale. Block means mix markers with
/// measurements, so a downsampled image has no marker cells.
struct ImageMarkers {
  std::vector<int> cellMarker;  ///< cellRows x cellCols; empty when no cell holds a marker
  std::vector<bool> present;    ///< per marker: some cell holds it
  double vMin = 0, vMax = 0;    ///< of the cells that hold no marker (the grid's range when none does)
};
ImageMarkers findImageMarkers(const ImageGrid& g, const std::vector<MarkerValue>& markers);

/// A scalar output and its error against the exact value, when known.
struct ScalarValue {
  double value = 0;
  bool hasReference = false;
  double reference = 0;
  double absError = 0, relError = 0;
  bool integer = false;  ///< a count (an integer array): its value and differences are whole numbers
};
ScalarValue scalarValue(const HostArray& a, const ArraySpec& spec);
/// What a scalar view says about one value: the value, then its difference from the exact value when known,
/// else from the reference implementation's value (`refValue`; none for the reference itself):
/// "3.141665\n+7.35e-05 from exact (relative 2.34e-05)"; a count as a plain integer ("1\n-4095 from the reference").
std::string scalarLabel(const ScalarValue& s, std::optional<double> refValue);
/// The difference drawn for a value: from the exact value, else from refValue, else 0.
double scalarDifference(const ScalarValue& s, std::optional<double> refValue);

/// The standard deviation of a hit-or-miss Monte Carlo estimate of `exact` from n samples: the estimate is
/// box x (fraction of hits), each sample a hit with p = exact / box, so sigma = box sqrt(p (1 - p) / n) (box 4:
/// pi from the unit square's quarter disc or the [-1, 1)^2 disc; 9: the Mandelbrot set in [-2, 1) x [-1.5, 1.5)).
double hitOrMissSigma(double exact, double n, double box = 4);
/// The band exact +- hitOrMissSigma over [xMin, xMax] (log-spaced points): x, lower edge (in .y) and upper edge.
struct Band {
  std::vector<double> x, lower, upper;
};
Band hitOrMissBand(double exact, double xMin, double xMax, int points = 96, double box = 4);

// histogramRange (a histogram's bin range) is core's: launchlab/workload.h.

/// What the compute thread prepares for one array of one source (an implementation's output or an input).
struct PreparedArray {
  const HostArray* array = nullptr;  ///< owned by the RunResult the PreparedRun belongs to
  PlotKind kind = PlotKind::Waveform;
  std::shared_ptr<MinMaxPyramid> pyramid;  ///< Waveform
  std::shared_ptr<ImageGrid> image;        ///< Image
  std::pair<double, double> range{0, 0};   ///< finite range of the whole array
  std::uint64_t nanCount = 0;
};

/// Prepared data of a run: key "input/<name>" or "<implId>/<output>".
struct PreparedRun {
  std::map<std::string, PreparedArray> arrays;
  const PreparedArray* find(const std::string& key) const;
};
std::string arrayKey(const std::string& source, const std::string& name);

/// Prepares every kept array of `r` (inputs as Waveform, outputs as their spec says). Runs on the compute
/// thread; the result points into `r`, which must outlive it and not move.
PreparedRun prepareRun(const RunResult& r, const WorkloadInfo& info, std::size_t imageMaxSide = 1024);

}  // namespace launchlab::ui
