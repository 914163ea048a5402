"""The notebook's own launch of a Numba kernel, timed like LaunchLab times its kernel phase: CUDA events around
each launch (the stream held busy while the host launches), device arrays made once, median of the repetitions (ms). For scripts/gpu/numba_check.sh.

    python3 numba_notebook_timing.py KERNEL_FILE N BLOCK REPS

KERNEL_FILE holds one @cuda.jit kernel taking (x, y, out) float32 arrays (vector_add's exercise); the grid is
ceil(N / BLOCK), as LaunchLab's auto grid for it.
"""
import statistics
import sys

import numpy as np

if not hasattr(np, "row_stack"):  # removed in NumPy 2.5; numba 0.68 still names it
    np.row_stack = np.vstack
from numba import cuda  # noqa: E402


@cuda.jit
def gate(ns):
    """Keeps the stream busy while the host enqueues the timed launch (LaunchLab's launch gate does the same), so
    Numba's launch overhead on the host is not counted as kernel time."""
    for _ in range(4):
        cuda.nanosleep(ns)


def main(path, n, block, reps):
    namespace = {}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), namespace)
    kernels = [v for v in namespace.values() if hasattr(v, "py_func") and not v.targetoptions.get("device")]
    kernel = kernels[0]
    rng = np.random.default_rng(42)
    x = cuda.to_device(rng.random(n, dtype=np.float32))
    y = cuda.to_device(rng.random(n, dtype=np.float32))
    out = cuda.device_array(n, dtype=np.float32)
    grid = (n + block - 1) // block
    kernel[grid, block](x, y, out)  # compile and warm up, as LaunchLab's warm-up
    cuda.synchronize()
    start, stop = cuda.event(), cuda.event()
    times = []
    for _ in range(reps):
        gate[1, 1](250000)
        start.record()
        kernel[grid, block](x, y, out)
        stop.record()
        stop.synchronize()
        times.append(cuda.event_elapsed_time(start, stop))
    ok = np.allclose(out.copy_to_host(), x.copy_to_host() + y.copy_to_host())
    print("notebook launch kernel median ms: %.4f (min %.4f, %d reps, grid %d x %d, verified %s)" %
          (statistics.median(times), min(times), reps, grid, block, ok))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
