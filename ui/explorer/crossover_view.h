#pragma once
/// The sweep tab's view of an N sweep (the CPU/GPU crossover): time against N on log-log axes for every CPU
/// implementation and, for the GPU variant, its kernel alone and its total with the copies, with a vertical marker
/// where the GPU starts to win without and with the copies (core's crossover.h decides where), and both in words
/// under the title ("GPU wins from N = 2^16 (kernel only) · with copies: never up to 2^28").
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

#include "launchlab/explorer/crossover.h"
#include "plots/export.h"
#include "plots/view_style.h"

class QCustomPlot;
class QCPTextElement;

namespace launchlab::ui {

struct CrossoverCurve {
  QString name;  ///< "cpu-serial", "GPU kernel only", "GPU with copies" (the GPU variant is named in the title)
  bool gpu = false;
  bool withCopies = false;
  std::vector<double> n, ms;
};

/// What the plot shows, as plain data.
struct CrossoverPlot {
  std::vector<CrossoverCurve> curves;
  std::optional<Crossover> crossover;  ///< of the first GPU variant (and the first group of the other axes)
  QString kernelLabel;                 ///< "GPU wins from N = 2^16 (kernel only)" or "kernel only: never up to 2^28"
  QString copiesLabel;                 ///< "with copies: from N = 2^22" or "with copies: never up to 2^28"
};

/// Empties `plot` for a rebuild (its readout kept) and styles it with log-log axes and `title`.
void resetLogLogPlot(QCustomPlot& plot, QCPTextElement& title, const ViewStyle& s);

/// "2^16" for a power of two, else the number.
QString powerOfTwoText(std::uint64_t n);
/// The curves and markers of a sweep whose axes include "n"; no crossover when N is not an axis or there is no CPU
/// and GPU point at a common N.
CrossoverPlot crossoverPlot(const std::vector<std::string>& axisFields, const std::vector<SweepPoint>& points);

class CrossoverView final : public Renderable {
 public:
  explicit CrossoverView(QWidget* parent);
  ~CrossoverView() override;
  QWidget* widget();
  void setSweep(const CrossoverPlot& plot, const QString& title);
  const CrossoverPlot& data() const { return m_data; }
  void setViewStyle(const ViewStyle& s);
  void render(QCPPainter& painter, const QSize& size) override;
  QString exportTitle() const override;
  /// The marker labels drawn ("" when none).
  QStringList markerTexts() const;

 private:
  void rebuild();
  void addMarker(double n, const QString& text, const QColor& colour);
  QCustomPlot* m_plot = nullptr;
  QCPTextElement* m_title = nullptr;
  QCPTextElement* m_subtitle = nullptr;
  CrossoverPlot m_data;
  QString m_titleText;
  QStringList m_markers;
  ViewStyle m_style;
};

}  // namespace launchlab::ui
