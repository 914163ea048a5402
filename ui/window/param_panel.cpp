#include "window/param_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionButton>
#include <QVBoxLayout>
#include <QValidator>
#include <algorithm>
#include <cmath>
#include <tuple>

#include "launchlab/engine/counters.h"
#include "launchlab/files/parse.h"
#include "models/backend.h"

namespace launchlab::ui {

namespace {

constexpr auto kBlockTip =
    "Threads per block. A block is a group of threads that runs on one streaming multiprocessor (SM); its threads "
    "can share fast on-chip memory and synchronize with __syncthreads(). The GPU runs threads in warps of 32, so a "
    "block of a multiple of 32 threads keeps every warp full (1025 would need a 33rd, almost empty warp, and is "
    "over the 1024-thread limit anyway). More threads per block is not always faster: registers and shared "
    "memory per SM are shared by all resident blocks.";
constexpr auto kAutoBlockTip =
    "Auto: the implementation picks its block size (usually 256 threads: 8 warps, a good default for "
    "memory-bound kernels). The results say what was launched.";
constexpr auto kGridTip =
    "Blocks (the grid): how many blocks are launched. Total threads = blocks x threads per block. A "
    "one-thread-per-element kernel needs ceil(N / threads per block) blocks, or the tail is never computed; a "
    "grid-stride loop works with any grid, and a few blocks per SM are enough to keep the GPU busy.";
constexpr auto kAutoGridTip =
    "Auto: ceil(N / threads per block) blocks for one-thread-per-element kernels, or as many blocks as the GPU "
    "keeps resident (SMs x blocks per SM) for grid-stride loops. The launch note in the results says which.";
constexpr auto kSizeTip =
    "N, the problem size. Type 1000, 4K or 1M (powers of 10), 16Mi (2^24), 2^24 or 1e6. The slider moves in "
    "quarter octaves (x1.19 per step). Large N shows bandwidth; small N shows launch and transfer overheads.";
constexpr auto kDtypeTip =
    "Element type: f32 (float, 4 bytes), f64 (double, 8 bytes: twice the bytes to move, and far fewer "
    "double-precision units on consumer GPUs), i16 (2 bytes: the seed's int16 waveform), i32/u32 (4 bytes), i64 "
    "(8 bytes: NumPy's default integer), u8 (bytes).";
constexpr auto kRepsTip =
    "Timed repetitions. Charts show the median and min-max whiskers. More repetitions give steadier numbers; "
    "Cancel stops at the next repetition.";
constexpr auto kWarmupTip =
    "Untimed warm-up runs before timing: the first launch pays for module loading, memory allocation and page "
    "faults, which is not what you want to measure.";
constexpr auto kSeedTip = "Seed of the deterministic input generator: the same seed gives the same inputs.";

/// Seeds as typed: digits only, up to 2^64 - 1 (what a result or preset records), empty while editing.
class SeedValidator final : public QValidator {
 public:
  using QValidator::QValidator;
  State validate(QString& text, int&) const override {
    if (text.isEmpty()) return Intermediate;
    return parseUnsigned(text.toStdString()) && text.front().isDigit() ? Acceptable : Invalid;
  }
};
constexpr auto kTraceTip =
    "Run the instrumented kernels (vector_add, histogram, reduce_sum, monte_carlo_pi): every block records its SM "
    "(%smid) and its start and end (%globaltimer), drawn in the Blocks on SMs tab. Their kernel times include the "
    "instrumentation.";

/// A label that wraps instead of widening the panel.
QLabel* wrappingLabel(const QString& text) {
  auto* l = new QLabel(text);
  l->setWordWrap(true);
  return l;
}

/// A list as narrow as the panel needs: sized for a few characters, not its longest choice (the open list shows
/// them whole).
QComboBox* narrowCombo() {
  auto* c = new QComboBox;
  c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  c->setMinimumContentsLength(7);
  return c;
}

/// A check box whose text is elided to its width (the full text is in its tooltip), so a long implementation
/// title never widens the panel.
class ElidingCheckBox final : public QCheckBox {
 public:
  explicit ElidingCheckBox(const QString& text) : QCheckBox(text), m_full(text) {
    setMinimumWidth(80);  // an explicit minimum: layouts and scroll areas never ask for the full text's width
  }
  void setFullText(const QString& text) {
    m_full = text;
    elide();
  }
  QString fullText() const { return m_full; }
  QSize minimumSizeHint() const override { return {80, QCheckBox::minimumSizeHint().height()}; }

 protected:
  void resizeEvent(QResizeEvent* e) override {
    QCheckBox::resizeEvent(e);
    elide();
  }

 private:
  void elide() {
    QStyleOptionButton o;
    initStyleOption(&o);
    const int indicator = style()->subElementRect(QStyle::SE_CheckBoxContents, &o, this).left();
    setText(fontMetrics().elidedText(m_full, Qt::ElideRight, std::max(20, width() - indicator - 4)));
  }
  QString m_full;
};

}  // namespace

ParamPanel::ParamPanel(const Backend& backend, QWidget* parent) : QWidget(parent), m_backend(backend) {
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  setStyleSheet("QLineEdit[invalid=\"true\"], QComboBox[invalid=\"true\"] { border: 2px solid #c62828; }");
}

QLineEdit* ParamPanel::lineEdit(const QString& field, const QString& tip) {
  auto* e = new QLineEdit;
  e->setToolTip(tip);
  connect(e, &QLineEdit::textEdited, this, [this] { collect(); });
  connect(e, &QLineEdit::returnPressed, this, &ParamPanel::submit);
  m_editors[field] = e;
  return e;
}

std::pair<QCheckBox*, QLineEdit*> ParamPanel::launchRow(QVBoxLayout* lay, const QString& label, const QString& field,
                                                        const QString& tip, const QString& autoTip) {
  auto* row = new QHBoxLayout;
  auto* l = wrappingLabel(label);
  l->setToolTip(tip);
  auto* autoBox = new QCheckBox("auto");
  autoBox->setToolTip(autoTip);
  m_editors["auto-" + field] = autoBox;
  QLineEdit* edit = lineEdit(field, tip);
  edit->setMaximumWidth(90);
  row->addWidget(l, 1);
  row->addWidget(autoBox);
  row->addWidget(edit);
  lay->addLayout(row);
  return {autoBox, edit};
}

QLabel* ParamPanel::addMessage(QVBoxLayout* lay, const QString& field) {
  auto* l = new QLabel;
  l->setWordWrap(true);
  l->setVisible(false);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  lay->addWidget(l);
  m_messages[field] = l;
  return l;
}

void ParamPanel::rebuild(const Workload& w) {
  m_workload = &w;
  const auto& info = w.info();
  delete m_body;
  m_editors.clear();
  m_messages.clear();
  m_implBoxes.clear();
  m_myKernelBox = nullptr;
  m_cudaOffNote = nullptr;
  m_body = new QWidget(this);
  layout()->addWidget(m_body);
  auto* lay = new QVBoxLayout(m_body);
  lay->setContentsMargins(4, 4, 4, 4);
  lay->addWidget(buildSizeBox(info));
  if (!info.params.empty()) lay->addWidget(buildParamsBox(info));
  lay->addWidget(buildLaunchBox(info));
  lay->addWidget(buildImplsBox(w));
  lay->addWidget(buildMeasurementBox());
  lay->addStretch(1);
  // A word-wrapped label asks for a wide minimum of its own; here it wraps to whatever width the panel has.
  for (QLabel* l : m_body->findChildren<QLabel*>())
    if (l->wordWrap()) l->setMinimumWidth(100);
}

/// Problem size (log slider and text) and dtype.
QGroupBox* ParamPanel::buildSizeBox(const WorkloadInfo& info) {
  auto* sizeBox = new QGroupBox("Problem size");
  auto* sl = new QVBoxLayout(sizeBox);
  m_sizeSlider = new QSlider(Qt::Horizontal);
  const double lo = std::log2(double(std::max<std::uint64_t>(1, info.minN)));
  const double hi = std::log2(double(std::max(info.minN, info.maxN)));
  m_sizeSlider->setRange(int(std::ceil(lo * 4)), int(std::floor(hi * 4)));
  m_sizeSlider->setTickPosition(QSlider::TicksBelow);
  m_sizeSlider->setTickInterval(4 * 4);
  m_sizeSlider->setPageStep(4);
  m_sizeSlider->setToolTip(kSizeTip);
  m_editors["size-slider"] = m_sizeSlider;
  m_sizeEdit = lineEdit("size", kSizeTip);
  m_sizeEdit->setMaximumWidth(110);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel("N"));
  row->addWidget(m_sizeSlider, 1);
  row->addWidget(m_sizeEdit);
  sl->addLayout(row);
  m_sizeInfo = new QLabel;
  m_sizeInfo->setStyleSheet("color: palette(mid);");
  m_sizeInfo->setWordWrap(true);
  sl->addWidget(m_sizeInfo);
  addMessage(sl, "size");
  auto* drow = new QHBoxLayout;
  m_dtype = narrowCombo();
  m_dtype->setToolTip(kDtypeTip);
  for (auto t : info.dtypes) m_dtype->addItem(QString::fromStdString(std::string(dtypeName(t))));
  m_editors["dtype"] = m_dtype;
  drow->addWidget(wrappingLabel("Element type"));
  drow->addWidget(m_dtype);
  drow->addStretch();
  sl->addLayout(drow);
  addMessage(sl, "dtype");
  connect(m_sizeSlider, &QSlider::valueChanged, this, [this](int p) {
    if (!m_loading) sliderToSize(p);
  });
  connect(m_dtype, &QComboBox::currentTextChanged, this, [this] { collect(); });
  return sizeBox;
}

/// The workload's own parameters: a line per parameter, its message under it, then the cross-parameter one.
QGroupBox* ParamPanel::buildParamsBox(const WorkloadInfo& info) {
  auto* pbox = new QGroupBox("Workload parameters");
  auto* pl = new QVBoxLayout(pbox);
  for (const auto& p : info.params) {
    pl->addLayout(paramRow(p));
    addMessage(pl, QString::fromStdString("param:" + p.name));
  }
  addMessage(pl, "params");
  return pbox;
}

/// "label (unit)  [editor]": a list for choices, a text field otherwise; the tooltip gives help and range.
QHBoxLayout* ParamPanel::paramRow(const ParamSpec& p) {
  const QString field = QString::fromStdString("param:" + p.name);
  QString tip = QString::fromStdString(p.help);
  if (p.kind != ParamSpec::Kind::Choice)
    tip += QString("\nRange: %1 to %2%3")
               .arg(p.minValue)
               .arg(p.maxValue)
               .arg(p.unit.empty() ? "" : " " + QString::fromStdString(p.unit));
  auto* r = new QHBoxLayout;
  auto* label = wrappingLabel(QString::fromStdString(p.label.empty() ? p.name : p.label) +
                              (p.unit.empty() ? QString() : " (" + QString::fromStdString(p.unit) + ")"));
  label->setToolTip(tip);
  r->addWidget(label, 1);
  if (p.kind == ParamSpec::Kind::Choice) {
    auto* c = narrowCombo();
    for (const auto& ch : p.choices) c->addItem(QString::fromStdString(ch));
    c->setToolTip(tip);
    connect(c, &QComboBox::currentTextChanged, this, [this] { collect(); });
    m_editors[field] = c;
    r->addWidget(c);
  } else {
    auto* e = lineEdit(field, tip);
    e->setMaximumWidth(120);
    r->addWidget(e);
  }
  return r;
}

/// Threads per block (a warp-step slider in 1D, a list of shapes in 2D) and blocks, each auto or typed, and
/// the limits they are checked against.
QGroupBox* ParamPanel::buildLaunchBox(const WorkloadInfo& info) {
  const DeviceLimits limits = m_backend.launchLimits();
  auto* lbox = new QGroupBox(info.launchDims == 2 ? "Launch configuration (2D)" : "Launch configuration");
  auto* ll = new QVBoxLayout(lbox);
  std::tie(m_autoBlock, m_blockEdit) = launchRow(ll, "Threads per block", "block", kBlockTip, kAutoBlockTip);
  m_blockSlider = nullptr;
  m_blockShape = nullptr;
  ll->addWidget(info.launchDims == 2 ? blockShapeList() : blockSlider(limits.maxThreadsPerBlock));
  addMessage(ll, "block");
  std::tie(m_autoGrid, m_gridEdit) = launchRow(ll, "Blocks (grid)", "grid", kGridTip, kAutoGridTip);
  addMessage(ll, "grid");
  // 2D: the per-dimension limits too (x * y <= the per-block total, and each axis on its own).
  const QString perAxis = info.launchDims == 2 ? QString(" (x \u2264 %1, y \u2264 %2), grid x \u2264 %3, y \u2264 %4")
                                                     .arg(limits.maxBlockDim.x)
                                                     .arg(limits.maxBlockDim.y)
                                                     .arg(limits.maxGridDim.x)
                                                     .arg(limits.maxGridDim.y)
                                               : QString();
  auto* limitsLabel = new QLabel(QString("Limits: %1 threads per block%2, %3 (%4)")
                                     .arg(limits.maxThreadsPerBlock)
                                     .arg(perAxis)
                                     .arg(QString::fromStdString("warp " + std::to_string(limits.warpSize)))
                                     .arg(QString::fromStdString(limits.deviceName)));
  m_editors["launch-limits"] = limitsLabel;
  limitsLabel->setStyleSheet("color: palette(mid);");
  limitsLabel->setWordWrap(true);
  ll->addWidget(limitsLabel);
  connect(m_autoBlock, &QCheckBox::toggled, this, [this] { collect(); });
  connect(m_autoGrid, &QCheckBox::toggled, this, [this] { collect(); });
  return lbox;
}

QWidget* ParamPanel::blockShapeList() {
  m_blockShape = narrowCombo();
  m_blockShape->addItems({"8x8", "16x16", "32x8", "32x16", "32x32", "64x4", "128x2", "256x1"});
  m_blockShape->setToolTip(QString(kBlockTip) +
                           "\n2D blocks: X x Y threads; X along rows (coalesced memory access "
                           "wants X a multiple of 32).");
  m_editors["block-shape"] = m_blockShape;
  connect(m_blockShape, &QComboBox::textActivated, this, [this](const QString& t) {
    m_blockEdit->setText(t);
    collect();
  });
  return m_blockShape;
}

QWidget* ParamPanel::blockSlider(int maxThreadsPerBlock) {
  m_blockSlider = new QSlider(Qt::Horizontal);
  m_blockSlider->setRange(32, std::max(32, maxThreadsPerBlock));
  m_blockSlider->setSingleStep(32);
  m_blockSlider->setPageStep(128);
  m_blockSlider->setTickInterval(32);
  m_blockSlider->setTickPosition(QSlider::TicksBelow);
  m_blockSlider->setToolTip(QString(kBlockTip) + "\nThe slider moves in whole warps (32 threads).");
  m_editors["block-slider"] = m_blockSlider;
  connect(m_blockSlider, &QSlider::valueChanged, this, [this](int v) {
    if (m_loading) return;
    const int snapped = std::max(32, (v + 16) / 32 * 32);
    if (snapped != v) {
      QSignalBlocker b(m_blockSlider);
      m_blockSlider->setValue(snapped);
    }
    m_blockEdit->setText(QString::number(snapped));
    collect();
  });
  return m_blockSlider;
}

/// A box per implementation (cpu-serial ticked for good: the reference), CUDA ones marked when off here.
QGroupBox* ParamPanel::buildImplsBox(const Workload& w) {
  auto* ibox = new QGroupBox("Implementations");
  auto* il = new QVBoxLayout(ibox);
  for (const auto& impl : w.impls()) il->addWidget(implBox(impl));
  m_myKernelBox = new QCheckBox("My kernel (the My kernel tab)");
  m_myKernelBox->setToolTip(
      "Your kernel from the My kernel tab, compiled with NVRTC before the run and verified "
      "against cpu-serial like every implementation (docs/EXERCISES.md)");
  m_myKernelBox->setVisible(offersMyKernel());
  connect(m_myKernelBox, &QCheckBox::toggled, this, [this] { collect(); });
  m_editors["impl:" + QString::fromStdString(std::string(kMyKernel))] = m_myKernelBox;
  il->addWidget(m_myKernelBox);
  m_cudaOffNote = new QLabel(
      "CUDA variants are skipped on this machine (see the banner); tick them anyway to see "
      "them listed with the reason.");
  m_cudaOffNote->setWordWrap(true);
  m_cudaOffNote->setStyleSheet("color: palette(mid);");
  il->addWidget(m_cudaOffNote);
  addMessage(il, "impls");
  showDeviceState();
  return ibox;
}

QCheckBox* ParamPanel::implBox(const ImplSpec& impl) {
  auto* cb = new ElidingCheckBox(QString::fromStdString(impl.title));
  if (impl.id == kCpuSerial) {
    cb->setChecked(true);
    cb->setEnabled(false);
  }
  connect(cb, &QCheckBox::toggled, this, [this] { collect(); });
  m_implBoxes[QString::fromStdString(impl.id)] = cb;
  m_editors["impl:" + QString::fromStdString(impl.id)] = cb;
  return cb;
}

/// The CUDA rows' state follows the device the banner shows, also when its answer comes after the list was built
/// (a worker asked off the GUI thread).
void ParamPanel::showDeviceState() {
  if (!m_workload || !m_cudaOffNote) return;
  const DeviceStatus dev = m_backend.deviceStatus();
  bool anyGpu = false;
  for (const auto& impl : m_workload->impls()) {
    anyGpu = anyGpu || impl.isGpu();
    auto* cb = static_cast<ElidingCheckBox*>(m_implBoxes.value(QString::fromStdString(impl.id)));
    if (!cb) continue;
    QString text = QString::fromStdString(impl.title);
    QString tip = QString::fromStdString(impl.description);
    if (impl.demonstration) {
      text += "  \xE2\x9A\xA0 demo";
      tip += "\nDeliberately wrong: its mismatch against the reference is the lesson, not a failure.";
    }
    if (!impl.run)
      tip += "\nNot built: " + QString::fromStdString(impl.unavailableReason);
    else if (impl.isGpu() && !dev.available)
      tip += "\nSkipped on this machine: " + QString::fromStdString(dev.reason);
    if (impl.id == kCpuSerial)
      tip += "\nThe reference: it always runs, and every other implementation is checked against it.";
    const bool off = impl.isGpu() && (!impl.run || !dev.available);
    cb->setFullText(off ? text + "  \xE2\x80\x93 off here" : text);
    cb->setStyleSheet(off ? "color: palette(mid);" : "");
    cb->setToolTip(text + "\n" + tip);
  }
  m_cudaOffNote->setVisible(anyGpu && !dev.available);
}

/// Repetitions, warm-up runs and seed, with the messages of the form as a whole under them.
QGroupBox* ParamPanel::buildMeasurementBox() {
  auto* mbox = new QGroupBox("Measurement");
  auto* ml = new QFormLayout(mbox);
  m_reps = new QSpinBox;
  m_reps->setRange(1, 1000);
  m_reps->setToolTip(kRepsTip);
  m_warmup = new QSpinBox;
  m_warmup->setRange(0, 100);
  m_warmup->setToolTip(kWarmupTip);
  m_seed = new QLineEdit;
  m_seed->setValidator(new SeedValidator(m_seed));
  m_seed->setToolTip(kSeedTip);
  m_editors["reps"] = m_reps;
  m_editors["warmup"] = m_warmup;
  m_editors["seed"] = m_seed;
  ml->addRow("Repetitions", m_reps);
  ml->addRow("Warm-up runs", m_warmup);
  ml->addRow("Seed", m_seed);
  for (auto* s : {m_reps, m_warmup}) connect(s, &QSpinBox::valueChanged, this, [this] { collect(); });
  connect(m_seed, &QLineEdit::textChanged, this, [this] { collect(); });
  m_traceBlocks = new QCheckBox("Trace blocks on SMs");
  m_traceBlocks->setToolTip(kTraceTip);
  ml->addRow(m_traceBlocks);
  connect(m_traceBlocks, &QCheckBox::toggled, this, [this] { collect(); });
  m_counters = new QCheckBox("Counters (sectors, bank conflicts...)");
  m_counters->setToolTip(
      "Measure counters (sectors per request, bank conflicts, DRAM bytes, occupancy...) of every CUDA implementation "
      "on one more, untimed run: the hardware counters (CUPTI) where the driver lets you read them, else measured "
      "from the kernel's own accesses (no admin rights needed; per source line too). Columns of the Results table "
      "(hover a header for its meaning and source)");
  ml->addRow(m_counters);
  connect(m_counters, &QCheckBox::toggled, this, [this] { collect(); });
  auto* mv = new QVBoxLayout;
  ml->addRow(mv);
  addMessage(mv, "reps");
  addMessage(mv, "warmup");
  addMessage(mv, "form");
  return mbox;
}

}  // namespace launchlab::ui
