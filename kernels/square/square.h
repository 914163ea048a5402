#pragma once
// square (TP 3.2 exercise "Accélérer une fonction CPU en un kernel CUDA"): out = a**2, one thread per element.
#include <type_traits>

#include "common/index_math.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::square {

void cudaOnePerThread(ImplContext& ctx);

/// a * a; integers multiply as unsigned, so a square beyond the type wraps modulo 2^bits (as NumPy and the GPU do)
/// instead of being undefined behaviour.
template <typename T>
LAUNCHLAB_HD T squareOf(T a) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(a));
  } else {
    return a * a;
  }
}

}  // namespace launchlab::kernels::square
