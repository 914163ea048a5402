# Reference solution of exercise hypot (exercise.py beside it states the contract).
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:1783 (hypot_stride).
from math import hypot

from numba import cuda


@cuda.jit
def hypot_stride(a, b, c):
    idx = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(idx, a.shape[0], stride):
        c[i] = hypot(a[i], b[i])
