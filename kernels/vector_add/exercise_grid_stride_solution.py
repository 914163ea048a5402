# Reference solution of exercise vector_add_grid_stride (exercise_grid_stride.py beside it states the contract).
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:1715 (add_kernel, grid-stride).
from numba import cuda


@cuda.jit
def vector_add(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]
