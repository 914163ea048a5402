# Exercise hypot (TP 3.2): c = hypot(a, b) with a grid-stride loop.
#
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:1783 (hypot_stride).
#
# Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md, "Kernels in Numba"):
#   @cuda.jit hypot_stride(a, b, c)   a, b, c: float32[::1]; auto grid: resident blocks
#
# Hints from the course:
#   - math.hypot works inside a kernel.
#   - Stride by cuda.gridsize(1) so that any grid covers every element.
#
# Compile: launchlab-cli compile hypot --kernel-file exercise.py
# Run:     launchlab-cli run hypot --kernel-file exercise.py --impl my-kernel
from math import hypot

from numba import cuda


@cuda.jit
def hypot_stride(a, b, c):
    idx = cuda.grid(1)
    stride = cuda.gridsize(1)
    # TODO: for every i from idx to a.shape[0] by stride, c[i] = hypot(a[i], b[i]).
