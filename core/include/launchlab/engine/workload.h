#pragma once
/// A workload describes itself (metadata the CLI and GUI render) and provides its implementations.
///
/// Adding a workload: docs/CONTRIBUTING.md.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "launchlab/engine/array.h"
#include "launchlab/engine/cancel.h"
#include "launchlab/engine/device.h"
#include "launchlab/engine/launch_config.h"
#include "launchlab/engine/params.h"
#include "launchlab/engine/result.h"
#include "launchlab/engine/verify.h"

namespace launchlab {

/// How an output (or input) is best shown.
enum class PlotKind {
  Waveform,   ///< y against index (line plot, decimated for large N)
  Scatter,    ///< y against the input named by `xFrom` (e.g. a pdf against x)
  Histogram,  ///< bin counts; bin range from the params named xMinParam/xMaxParam, or the fixed xMin/xMax
  Image,      ///< 2-D array (rows x cols) as a heat map
  Scalar,     ///< a single value (with error against `referenceValue` when set)
  Series,     ///< y against x pairs: a 2 x k array, row 0 = x, row 1 = y (e.g. convergence)
  Points,     ///< sample points of the unit square: a 3 x k array, row 0 = x, row 1 = y, row 2 = 1 inside / 0 outside
  Timeline    ///< measured copies and kernels per stream (a Gantt chart): a 4 x k float64 array, row 0 = stream,
              ///< row 1 = engine (0 H2D, 1 kernel, 2 D2H), rows 2, 3 = start, end in ms; NaN columns unused
              ///< (launchlab/explorer/timeline.h)
};
std::string_view plotKindName(PlotKind k);

/// A value an image uses as a marker rather than a measurement (launch_coverage's -1, never written): drawn in a
/// colour of its own, outside the colour scale, and named in the plot's legend.
struct MarkerValue {
  double value = 0;
  std::string label;  ///< "never written"
};

/// A reference value that holds when a choice parameter has one value (ArraySpec::referenceChoices).
struct ChoiceReference {
  std::string choice;  ///< the parameter's value, e.g. "mandelbrot"
  double value = 0;    ///< the exact (or best known) value of the output for it
  /// Hit-or-miss estimates: the area of the box sampled (estimate = box x fraction of hits), for the +-1 sigma band
  /// of a convergence series; 0 when the output is no such estimate.
  double samplingBox = 0;
};

/// An input or output array. An aggregate: write it with designated initialisers where positions are unclear,
/// e.g. {.name = "counts", .title = "Counts per bin", .plot = PlotKind::Histogram, .dtype = DType::U32}.
struct ArraySpec {
  std::string name;
  std::string title;
  PlotKind plot = PlotKind::Waveform;
  std::string xLabel = "index";
  std::string yLabel;
  std::string xFrom;      ///< Scatter: the input array giving x
  std::string xMinParam;  ///< Histogram: bin range params
  std::string xMaxParam;
  std::optional<double> referenceValue;  ///< Scalar: the exact value, drawn as a reference line
  /// Scalar/Series whose exact value depends on a choice parameter (e.g. shape: pi for the circle, the Mandelbrot
  /// set's area): the parameter's name and one entry per value; resolvedForParams picks the run's.
  std::string referenceParam;
  std::vector<ChoiceReference> referenceChoices;
  /// Hit-or-miss estimates (Series): the box area sampled, for the +-1 sigma band (4: the pi estimates' unit square).
  double samplingBox = 4;
  std::optional<DType> dtype;  ///< the array's own element type (e.g. u32 counts); unset: the run's dtype
  /// The array's element type when the run's dtype is an integer and `dtype` is unset (e.g. the float64 times and
  /// noise an int16 waveform is computed from, as NumPy computes it before the cast).
  std::optional<DType> dtypeForIntegerRuns;
  /// Histogram: a fixed bin range [xMin, xMax), used where no params name one (e.g. bins in standard errors).
  std::optional<double> xMin;
  std::optional<double> xMax;
  /// Image: marker values, each drawn in a colour of its own outside the colour scale.
  std::vector<MarkerValue> markers;
  /// Drawn with a logarithmic value axis by default (e.g. a mass spectrum whose peaks span decades); the window's
  /// "Log y" box still switches it.
  bool logY = false;

  DType dtypeFor(DType runDType) const {
    if (dtype) return *dtype;
    return dtypeForIntegerRuns && !isFloating(runDType) ? *dtypeForIntegerRuns : runDType;
  }
};

/// Bin range of a histogram output from its spec and the run's resolved parameters (text values); [0, bins) when
/// the params are absent or unparsable. The window's histogram and the exported bin edges both use it.
std::pair<double, double> histogramRange(const ArraySpec& spec, const std::map<std::string, std::string>& params,
                                         std::size_t bins);

/// The id of every workload's reference implementation: it runs first and every other one is verified against it.
inline constexpr std::string_view kCpuSerial = "cpu-serial";

/// `spec` with referenceValue and samplingBox set from referenceChoices for the run's (text) parameters; unchanged
/// when it has none or the parameter's value is not listed.
ArraySpec resolvedForParams(ArraySpec spec, const std::map<std::string, std::string>& params);

enum class ImplKind { CpuSerial, CpuParallel, Cuda, CudaLibrary };
std::string_view implKindName(ImplKind k);

/// Sizes and values one run is made of, after validation. Passed to everything a workload does.
struct RunSetup {
  std::uint64_t n = 0;  ///< element count (the workload's meaning of "size")
  DType dtype = DType::F32;
  ParamValues params;
  std::uint64_t seed = 0;
  /// The shapes of the inputs given as .npy files, by input name (empty when every input is generated): for
  /// workloads whose input lengths are not functions of n alone (the contents of a jagged array).
  std::map<std::string, std::vector<std::size_t>> inputFileShapes;
};

/// What an implementation gets and fills. Implementations record one sample per timed repetition.
struct ImplContext {
  ImplContext(const RunSetup& s, const std::vector<HostArray>& in, std::vector<HostArray>& out)
      : setup(s), inputs(in), outputs(out) {}
  const RunSetup& setup;
  const std::vector<HostArray>& inputs;
  std::vector<HostArray>& outputs;  ///< pre-allocated with the shapes from Workload::makeOutputs, poisoned
  LaunchRequest launch;             ///< GPU: what the user asked (auto parts unset)
  int warmup = 1;
  int reps = 5;
  const CancelToken* cancel = nullptr;
  ProgressFn progress;                 ///< called by checkpoint(); may be empty
  const DeviceInfo* device = nullptr;  ///< GPU implementations: the device in use
  Progress progressState;
  /// GPU: record every block's SM and start/end time (RunRequest::traceBlocks); instrumented implementations fill
  /// blockTrace, the others ignore it.
  bool traceBlocks = false;
  /// GPU: the engine has not poisoned the host outputs. The standard pipeline (runPipeline) overwrites every byte of
  /// every output from the device, which it poisons itself, so poisoning them on the host too (a millisecond at 64
  /// MiB) would be wasted: runPipeline clears the flag. Any other GPU implementation calls poisonHostOutputs()
  /// before it writes; the engine fails a run that returns with the flag still set.
  bool hostPoisonPending = false;
  /// Sweeps (RunRequest::compareOnDevice): cpu-serial's outputs, for a bit-for-bit comparison on the device after the
  /// last repetition, and a number that changes whenever they do (the device copy is uploaded once per number).
  const std::vector<HostArray>* compareReference = nullptr;
  std::uint64_t referenceGeneration = 0;
  /// RunRequest::exportDeviceOutputs: the standard pipeline fills deviceOutputs with IPC handles of its output
  /// buffers (kept in the pool, holding the last repetition's outputs).
  bool exportDeviceOutputs = false;
  /// A profiled run (RunRequest::counters): the standard pipeline calls it around its kernel phase, and leaves
  /// out its launch gate, whose spinning kernel would stall CUPTI's replay of the kernels behind it.
  KernelPhaseHook* kernelHook = nullptr;

  // Filled by the implementation:
  std::map<Phase, std::vector<double>> samples;  ///< milliseconds per repetition and phase
  std::optional<LaunchConfig> launched;
  std::string launchNote;
  std::optional<double> bytesMoved;  ///< overrides Workload::bytesMoved for this implementation
  std::optional<double> flops;
  std::map<std::string, double> metrics;
  std::vector<ApiOccupancy> kernelOccupancy;  ///< GPU: the CUDA API's occupancy of each kernel launched
  std::vector<BlockRecord> blockTrace;        ///< GPU, when traceBlocks: the traced launch's blocks (relative times)
  /// Set when the outputs were compared with compareReference on the device: true when every byte is equal (the
  /// engine then skips reading both copies on the host).
  std::optional<bool> identicalToReference;
  std::vector<DeviceOutput> deviceOutputs;  ///< when exportDeviceOutputs

  /// Throws Cancelled when cancellation was requested; reports progress for repetition `rep`
  /// (negative during warm-up). Call between repetitions.
  void checkpoint(int rep);
  /// Poisons every host output (NaN / all-ones bytes) and clears hostPoisonPending.
  void poisonHostOutputs();
  const HostArray& input(const std::string& name) const;
  HostArray& output(const std::string& name);
};

struct ImplSpec {
  std::string id;           ///< "cpu-serial", "cpu-parallel", "cuda-grid-stride", …
  std::string title;        ///< short label for tables and legends
  std::string description;  ///< one or two sentences: what this variant shows
  ImplKind kind = ImplKind::CpuSerial;
  bool demonstration = false;  ///< deliberately wrong (a race, a missing check): mismatch is the lesson
  /// A demonstration's expected outcome in words ("the race this experiment demonstrates"). Set: the workload's
  /// verify recognises that outcome (declareExpectedOutcome) and any other mismatch stays a failure. Empty: any
  /// mismatch of a demonstration is its lesson.
  std::string expectedOutcome;
  bool usesLaunchConfig = false;  ///< honours the user's block/grid
  /// Computes what cpu-serial computes (verified against it as is). False for a variant verified against another
  /// formula (coalescing's contiguous kernel against the strided reference): no reference is drawn over it.
  bool sameOutputAsReference = true;
  /// Ticked in the window's default form. Variants that reproduce one seed cell (e.g. vector_add's device-array
  /// and no-synchronize variants) are ticked by their course presets instead, so that a workload's default timing
  /// chart keeps few rows.
  bool runByDefault = true;
  /// Runs the implementation. Empty when not built (e.g. CUDA variants in a CPU-only build).
  std::function<void(ImplContext&)> run;
  std::string unavailableReason;  ///< why `run` is empty
  /// The CUDA kernels it launches, as "<namespace>::<function>" under launchlab::kernels (e.g.
  /// "vector_add::addOnePerThreadKernel"): their resource usage recorded at build time gives its occupancy
  /// (kernel_resources.h). Empty: every kernel of the namespace named like the workload.
  std::vector<std::string> kernels;
  /// Outputs this implementation does not compute: the engine copies them from the cpu-serial reference before
  /// verification and says so (a student's kernel that computes only the exercise's outputs).
  std::vector<std::string> outputsFromReference;
  bool isGpu() const { return kind == ImplKind::Cuda || kind == ImplKind::CudaLibrary; }
};

/// The one rule for outcomes that are lessons. A workload's verify calls it when its result may be an expected
/// outcome: when `happened` (the result differs, or the launch behaves, the way the experiment means it to: a race
/// lost updates, a grid too small left the tail unwritten, a bounds check masked surplus threads), `v` becomes
/// outcome Demonstration with note kExpectedOutcome + `lesson`; otherwise `v` stays as compared (a mismatch stays
/// a failure).
void declareExpectedOutcome(Verification& v, bool happened, const std::string& lesson);
/// How a declared expected outcome's note starts: what follows is the whole lesson, with its count.
inline constexpr std::string_view kExpectedOutcome = "expected outcome: ";
/// The engine's last word on an implementation's verification: a demonstration that declares no expected outcome
/// shows any result as its lesson; one that declares it keeps a failure its workload did not recognise (red).
void settleDemonstration(Verification& v, const ImplSpec& spec);

struct WorkloadInfo {
  std::string id;
  std::string title;
  std::string chapter;  ///< course chapter: one of chapters() (launchlab/course/chapters.h), e.g. kChapterCustomKernels
  std::vector<DType> dtypes;
  DType defaultDType = DType::F32;
  std::uint64_t defaultN = 1 << 20;
  std::uint64_t minN = 1;
  std::uint64_t maxN = std::uint64_t(1) << 31;
  std::string sizeLabel = "elements";
  int launchDims = 1;  ///< 1 or 2: the dimensionality of the user's block/grid
  /// cpu-serial's output depends on the user's launch request (ctx.launch), e.g. a map of which block wrote what:
  /// the engine's reference cache then keys on the launch too.
  bool referenceUsesLaunch = false;
  std::vector<ParamSpec> params;
  std::vector<ArraySpec> inputs;
  std::vector<ArraySpec> outputs;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual const WorkloadInfo& info() const = 0;
  virtual const std::vector<ImplSpec>& impls() const = 0;

  /// Generates the inputs deterministically from setup.seed (same order as info().inputs).
  virtual std::vector<HostArray> makeInputs(const RunSetup& setup) const = 0;
  /// Expected shape of each input (for checking loaded .npy files); default: {n} for every input.
  virtual std::vector<std::vector<std::size_t>> inputShapes(const RunSetup& setup) const;
  /// Shape of each output (same order as info().outputs); default: {n} for every output. makeOutputs must allocate
  /// exactly these shapes (kernels::BasicWorkload's default makeOutputs does), with ArraySpec::dtypeFor's dtypes.
  virtual std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& setup) const;
  /// Allocates the outputs (same order as info().outputs); the engine poisons them before each implementation.
  virtual std::vector<HostArray> makeOutputs(const RunSetup& setup) const = 0;
  /// The outputs for these inputs, which the engine allocates before each implementation. For outputs whose size
  /// depends on the data (a group-by's one row per distinct key); outputShapes is then an upper bound (the memory
  /// estimate). Default: makeOutputs(setup).
  virtual std::vector<HostArray> makeOutputsFor(const RunSetup& setup, const std::vector<HostArray>& inputs) const {
    (void)inputs;
    return makeOutputs(setup);
  }
  /// Tolerance for output `index` against the cpu-serial reference.
  virtual Tolerance tolerance(const RunSetup& setup, std::size_t outputIndex) const;
  /// Verifies one implementation's outputs. Default: compareArrays on each output with tolerance().
  virtual Verification verify(const RunSetup& setup, const std::vector<HostArray>& reference,
                              const std::vector<HostArray>& got, const ImplSpec& impl) const;
  /// verify() with the run's inputs as generated or loaded (.npy), for tolerances that depend on the data, e.g.
  /// the condition sum|x| of a sum. The engine calls this one; the default forwards to verify().
  virtual Verification verifyWithInputs(const RunSetup& setup, const std::vector<HostArray>& inputs,
                                        const std::vector<HostArray>& reference, const std::vector<HostArray>& got,
                                        const ImplSpec& impl) const {
    (void)inputs;
    return verify(setup, reference, got, impl);
  }
  /// verifyWithInputs knowing the launch the implementation reported (ImplContext::launched; null when it reported
  /// none), for tolerances that follow the order a launch adds in (launchlab/engine/summation.h). The engine calls this
  /// one; the default forwards to verifyWithInputs.
  virtual Verification verifyLaunched(const RunSetup& setup, const std::vector<HostArray>& inputs,
                                      const std::vector<HostArray>& reference, const std::vector<HostArray>& got,
                                      const ImplSpec& impl, const LaunchConfig* launched) const {
    (void)launched;
    return verifyWithInputs(setup, inputs, reference, got, impl);
  }
  /// Bytes the computation must move at least. Default: hostBytes (each input read once, each output written once).
  virtual double bytesMoved(const RunSetup& setup) const { return hostBytes(setup); }
  /// Memory the run's arrays take: the inputs plus one set of outputs, from inputShapes, outputShapes and each
  /// array's dtype, without allocating anything. An estimate for host (and device) memory checks.
  double hostBytes(const RunSetup& setup) const;
  /// Floating-point operations, or 0 when GFLOP/s means little.
  virtual double flops(const RunSetup& setup) const {
    (void)setup;
    return 0;
  }
  /// Extra validation of a setup (beyond dtype, range of n and params); "" when valid.
  virtual std::string validate(const RunSetup& setup) const {
    (void)setup;
    return {};
  }
  /// Checks the inputs' values once they are generated or loaded, before anything runs (e.g. a jagged array's
  /// offsets: loaded files are untrusted and must end in a message here, never in a crash or a kernel reading out
  /// of bounds); "" when usable.
  virtual std::string checkInputs(const RunSetup& setup, const std::vector<HostArray>& inputs) const {
    (void)setup, (void)inputs;
    return {};
  }
  const ImplSpec* findImpl(std::string_view id) const;
};

}  // namespace launchlab
