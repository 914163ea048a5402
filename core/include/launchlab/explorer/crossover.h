#pragma once
/// Where the GPU starts to win (the CPU/GPU crossover): from a sweep over N of CPU and GPU implementations,
/// the best CPU time at each N against a GPU variant's kernel alone and with its copies, and the smallest N from
/// which the GPU is faster at every larger N measured. Plain host code: the CLI prints it, the JSON carries it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "launchlab/explorer/sweep.h"

namespace launchlab {

/// One N where both some CPU implementation and the GPU variant were measured.
struct CrossoverRow {
  std::uint64_t n = 0;
  std::string bestCpu;     ///< the fastest CPU implementation at this N
  double bestCpuMs = 0;    ///< its median time
  double gpuKernelMs = 0;  ///< the GPU variant's kernel median
  double gpuTotalMs = 0;   ///< … with its copies (the total median)
  bool operator==(const CrossoverRow&) const = default;
};

struct Crossover {
  std::string gpuImpl;
  std::string group;               ///< the other axes' values ("dtype=f64"), "" when N is the only axis
  std::vector<CrossoverRow> rows;  ///< by N, ascending
  /// The smallest N from which the GPU's kernel alone (or its total with copies) beats the best CPU time at that N
  /// and every larger N measured; unset when it does not win at the largest N.
  std::optional<std::uint64_t> kernelOnlyFrom, withCopiesFrom;
  bool operator==(const Crossover&) const = default;
};

/// One crossover per GPU variant (and per combination of the other axes) of a sweep whose axes include "n"; none
/// when N is not an axis or there are no measured CPU or GPU points. Points that did not run are left out.
std::vector<Crossover> crossovers(const std::vector<std::string>& axisFields, const std::vector<SweepPoint>& points);

/// "cuda-one-per-thread: kernel alone beats the CPU from N = 65536 (2^16); with copies from N = 4194304 (2^22)",
/// or "… never, up to N = …".
std::string crossoverLine(const Crossover& c);

}  // namespace launchlab
