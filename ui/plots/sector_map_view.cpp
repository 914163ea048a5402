// Sector map: the coalescing lesson's picture. Warp 0's 32 loads against the 32-byte sectors they touch, the coalesced
// kernel on the left and the strided one on the right, each under its name and its sectors per request (measured by
// the counters when the run has them, else counted from the map). Cells are square and the same size in both panels,
// so 4 sectors against 32 is a width the room can see; the key is stepped, one colour per whole lane count, and a
// sector no lane loads is grey.
#include <algorithm>
#include <array>
#include <cmath>

#include "models/text.h"
#include "plots/lesson_data.h"
#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {

/// Ticks at cell centres labelled with the cell's index, every `step` cells, and the last one when it is not too
/// close to the one before (a cell is about a digit wide on a projector).
QSharedPointer<QCPAxisTickerText> cellTicks(std::size_t count, std::size_t step) {
  auto t = QSharedPointer<QCPAxisTickerText>::create();
  std::size_t last = 0;
  for (std::size_t i = 0; i < count; i += step) t->addTick(double(last = i) + 0.5, QString::number(i));
  if (count > 1 && count - 1 - last >= std::max<std::size_t>(2, step / 2))
    t->addTick(double(count - 1) + 0.5, QString::number(count - 1));
  return t;
}

/// A narrow map (the coalesced 4 sectors) is labelled at its ends, a wide one every 8 sectors.
std::size_t tickStep(std::size_t count) { return count <= 8 ? std::max<std::size_t>(1, count - 1) : 8; }

class SectorMapView final : public QcpViewBase {
 public:
  explicit SectorMapView(QWidget* parent) : QcpViewBase(parent) {
    m_useLegend = false;
    m_plot->setInteractions({});
    // Under the title, a grid of its own (so the title's width never sets a panel's): the panels' names, their
    // sectors per request, then the panels and the key. The default axis rect is the left panel.
    auto* layout = new QCPLayoutGrid;
    QCPAxisRect* left = m_plot->axisRect();
    m_plot->plotLayout()->take(left);
    m_plot->plotLayout()->addElement(1, 0, layout);
    layout->addElement(2, 0, left);
    m_right = new QCPAxisRect(m_plot);
    layout->addElement(2, 1, m_right);
    m_scale = new QCPColorScale(m_plot);
    layout->addElement(2, 2, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_rects = {m_plot->axisRect(), m_right};
    auto* group = new QCPMarginGroup(m_plot);
    for (int c = 0; c < 2; ++c) {
      m_names[c] = new QCPTextElement(m_plot, "", QFont());
      m_counts[c] = new QCPTextElement(m_plot, "", QFont());
      layout->addElement(0, c, m_names[c]);
      layout->addElement(1, c, m_counts[c]);
      QCPAxisRect* r = m_rects[std::size_t(c)];
      r->setMarginGroup(QCP::msBottom | QCP::msTop, group);
      r->axis(QCPAxis::atLeft)->setRangeReversed(true);  // lane 0 at the top
      m_maps[c] = new QCPColorMap(r->axis(QCPAxis::atBottom), r->axis(QCPAxis::atLeft));
      m_maps[c]->setInterpolate(false);
      m_maps[c]->setColorScale(m_scale);
    }
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    layout->setColumnStretchFactors({1.0, 1.5, 0.01});
    QObject::connect(m_plot, &QCustomPlot::afterLayout, m_plot, [this] { fitSquareCells(); });
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    const HostArray* a = d.array(d.source);
    if (!a) return showNoData();
    m_panels = sectorPanels(*a, d.outcome->result);
    if (m_panels.size() != 2) return showMessage("this sector picture has no coalesced and strided maps");
    std::int32_t hi = 1;
    for (const auto& p : m_panels)
      for (std::int32_t x : p.cells) hi = std::max(hi, x);
    for (int c = 0; c < 2; ++c) fillPanel(c);
    // One colour per whole lane count from 1 to the most lanes that share a sector; no load (0) is grey.
    for (auto* m : m_maps) setCountKey(*m, *m_scale, 1, int(hi));
    m_scale->axis()->setLabel("lanes per sector (grey: none)");
    m_drawn = int(m_panels[0].cells.size() + m_panels[1].cells.size());
    m_summary = QString("warp 0: %1 sectors coalesced, %2 strided")
                    .arg(m_panels[0].sectorsPerRequest, 0, 'f', 2)
                    .arg(m_panels[1].sectorsPerRequest, 0, 'f', 2);
    resetZoom();
  }
  void resetZoom() override {
    fitSquareCells();
    replotWhenVisible(*m_plot);
  }
  void setLogY(bool) override {}  // lanes are lanes

 private:
  QCPAxis* xOf(int c) const { return m_rects[std::size_t(c)]->axis(QCPAxis::atBottom); }
  QCPAxis* yOf(int c) const { return m_rects[std::size_t(c)]->axis(QCPAxis::atLeft); }
  void fillPanel(int c) {
    const SectorPanel& p = m_panels[std::size_t(c)];
    auto* data = m_maps[c]->data();
    data->setSize(int(p.cols), int(p.lanes));
    data->setRange(QCPRange(0.5, double(p.cols) - 0.5), QCPRange(0.5, double(p.lanes) - 0.5));
    for (std::size_t l = 0; l < p.lanes; ++l)
      for (std::size_t s = 0; s < p.cols; ++s) {
        const std::int32_t x = p.cells[l * p.cols + s];
        data->setCell(int(s), int(l), x > 0 ? double(x) : std::nan(""));
      }
    // A panel is half the width: the name, then its source, whose reason "(no admin rights)" goes on a line of its own.
    m_names[c]->setText(q(p.title) + "\n" + q(sectorsSourceText(p)).replace(" (", "\n("));
    m_counts[c]->setText(q(sectorsPerRequestText(p)));
    xOf(c)->setTicker(cellTicks(p.cols, tickStep(p.cols)));
    yOf(c)->setTicker(cellTicks(p.lanes, 8));
    xOf(c)->setLabel("sector (32 bytes)");
    yOf(c)->setLabel(c == 0 ? "lane (thread in warp 0)" : "");
  }
  /// Cells square and of one size in both panels (the larger that fits both), each map centred in its rect.
  void fitSquareCells() {
    if (m_panels.size() != 2) return;
    double cell = 1e9;
    for (int c = 0; c < 2; ++c) {
      const QRect r = m_rects[std::size_t(c)]->rect();
      const SectorPanel& p = m_panels[std::size_t(c)];
      if (r.width() <= 0 || r.height() <= 0 || !p.cols || !p.lanes) return;
      cell = std::min({cell, double(r.width()) / double(p.cols), double(r.height()) / double(p.lanes)});
    }
    for (int c = 0; c < 2; ++c) {
      const QRect r = m_rects[std::size_t(c)]->rect();
      const SectorPanel& p = m_panels[std::size_t(c)];
      const double xs = r.width() / cell, ys = r.height() / cell;
      xOf(c)->setRange(0.5 * (double(p.cols) - xs), 0.5 * (double(p.cols) + xs));
      yOf(c)->setRange(0.5 * (double(p.lanes) - ys), 0.5 * (double(p.lanes) + ys));
    }
  }
  void clearData() override {
    for (auto* m : m_maps) m->data()->clear();
    for (int c = 0; c < 2; ++c) {
      m_names[c]->setText({});
      m_counts[c]->setText({});
    }
    m_panels.clear();
    m_drawn = 0;
  }
  void restyle() override {
    const QColor fg = toQColor(m_style.palette->foreground);
    for (int c = 0; c < 2; ++c) {
      m_names[c]->setFont(m_style.font(1.0));
      m_names[c]->setTextColor(fg);
      m_counts[c]->setFont(m_style.font(1.35, true));
      m_counts[c]->setTextColor(fg);
      for (QCPAxis* a : {xOf(c), yOf(c)}) {
        a->setTickLabelFont(m_style.font());
        a->setLabelFont(m_style.font());
        a->setTickLabelColor(fg);
        a->setLabelColor(fg);
        a->setBasePen(QPen(fg, 1));
        a->setTickPen(QPen(fg, 1));
        a->setSubTicks(false);
        a->grid()->setVisible(false);
      }
    }
    m_scale->axis()->setTickLabelFont(m_style.font());
    m_scale->axis()->setLabelFont(m_style.font(1.05));
  }
  std::array<QCPAxisRect*, 2> m_rects{};
  QCPAxisRect* m_right = nullptr;
  QCPColorScale* m_scale = nullptr;
  QCPColorMap* m_maps[2] = {};
  QCPTextElement* m_names[2] = {};
  QCPTextElement* m_counts[2] = {};
  std::vector<SectorPanel> m_panels;
};

}  // namespace

std::unique_ptr<OutputView> makeSectorMapView(QWidget* parent) { return std::make_unique<SectorMapView>(parent); }

}  // namespace launchlab::ui
