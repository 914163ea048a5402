# Exercise vector_add_grid_stride (TP 3.2): out = x + y with a grid-stride loop.
#
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:1715 (add_kernel, grid-stride).
#
# Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md, "Kernels in Numba"):
#   @cuda.jit vector_add(x, y, out)   x, y, out: float32[::1]; auto grid: resident blocks (fewer threads than elements)
#
# Hints from the course:
#   - cuda.gridsize(1) is the number of threads in the whole grid: the stride.
#   - range(start, x.shape[0], stride) visits every element exactly once across the grid.
#
# Compile: launchlab-cli compile vector_add --exercise vector_add_grid_stride --kernel-file exercise_grid_stride.py
# Run:     launchlab-cli run vector_add --exercise vector_add_grid_stride --kernel-file exercise_grid_stride.py --impl my-kernel
from numba import cuda


@cuda.jit
def vector_add(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    # TODO: loop from start to x.shape[0] by stride, writing x + y to out.
