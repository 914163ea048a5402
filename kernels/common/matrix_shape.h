#pragma once
/// The shape of a matrix workload's run (kernels/common/matrix_workload.h): n rows, the parameter "cols" columns
/// (0: square). Plain code for .cpp and .cu files alike.
#include <cstddef>

#include "launchlab/engine/workload.h"

namespace launchlab::kernels {

struct MatrixShape {
  std::size_t rows = 0, cols = 0;
  std::size_t elements() const { return rows * cols; }
};

inline MatrixShape matrixShape(const RunSetup& s) {
  const auto c = static_cast<std::size_t>(s.params.integer("cols"));
  return {static_cast<std::size_t>(s.n), c ? c : static_cast<std::size_t>(s.n)};
}

}  // namespace launchlab::kernels
