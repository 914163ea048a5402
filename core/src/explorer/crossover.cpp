#include "launchlab/explorer/crossover.h"

#include <algorithm>
#include <map>

#include "launchlab/files/parse.h"

namespace launchlab {

namespace {

struct Cell {
  std::optional<CrossoverRow> cpu;                       ///< the best CPU point so far (bestCpu, bestCpuMs)
  std::map<std::string, std::pair<double, double>> gpu;  ///< GPU variant -> kernel, total
};

/// The smallest N from which `wins(row)` holds for every row after it (rows ascending by N).
template <typename Wins>
std::optional<std::uint64_t> winsFrom(const std::vector<CrossoverRow>& rows, Wins wins) {
  std::optional<std::uint64_t> from;
  for (auto it = rows.rbegin(); it != rows.rend() && wins(*it); ++it) from = it->n;
  return from;
}

std::string nText(std::uint64_t n) { return std::to_string(n) + " (" + formatSize(n) + ")"; }

}  // namespace

std::vector<Crossover> crossovers(const std::vector<std::string>& axisFields, const std::vector<SweepPoint>& points) {
  const auto nAxis = std::find(axisFields.begin(), axisFields.end(), "n");
  if (nAxis == axisFields.end()) return {};
  const std::size_t k = std::size_t(nAxis - axisFields.begin());
  std::map<std::string, std::map<std::uint64_t, Cell>> groups;  // other axes' values -> N -> cell
  for (const auto& p : points) {
    if (p.status != Status::Ok || p.values.size() != axisFields.size()) continue;
    const auto n = parseSize(p.values[k]);
    if (!n) continue;
    std::string group;
    for (std::size_t a = 0; a < axisFields.size(); ++a)
      if (a != k) group += (group.empty() ? "" : ", ") + axisFields[a] + "=" + p.values[a];
    Cell& c = groups[group][*n];
    if (p.gpu) {
      c.gpu[p.implId] = {p.kernelMs, p.totalMs};
    } else if (!c.cpu || p.totalMs < c.cpu->bestCpuMs) {
      c.cpu = CrossoverRow{*n, p.implId, p.totalMs, 0, 0};
    }
  }
  std::vector<Crossover> out;
  for (const auto& [group, byN] : groups) {
    std::map<std::string, Crossover> byGpu;
    for (const auto& [n, cell] : byN) {
      if (!cell.cpu) continue;
      for (const auto& [id, t] : cell.gpu) {
        Crossover& c = byGpu[id];
        c.gpuImpl = id;
        c.group = group;
        CrossoverRow row = *cell.cpu;
        row.gpuKernelMs = t.first;
        row.gpuTotalMs = t.second;
        c.rows.push_back(row);
      }
    }
    for (auto& [id, c] : byGpu) {
      c.kernelOnlyFrom = winsFrom(c.rows, [](const CrossoverRow& r) { return r.gpuKernelMs < r.bestCpuMs; });
      c.withCopiesFrom = winsFrom(c.rows, [](const CrossoverRow& r) { return r.gpuTotalMs < r.bestCpuMs; });
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::string crossoverLine(const Crossover& c) {
  const std::string last = c.rows.empty() ? "?" : nText(c.rows.back().n);
  auto from = [&](const std::optional<std::uint64_t>& n) {
    return n ? "from N = " + nText(*n) : "never, up to N = " + last;
  };
  return c.gpuImpl + (c.group.empty() ? "" : " [" + c.group + "]") + ": the kernel alone beats the best CPU " +
         from(c.kernelOnlyFrom) + "; with its copies " + from(c.withCopiesFrom);
}

}  // namespace launchlab
